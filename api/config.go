package api

import (
	"errors"
	"fmt"
	"time"

	"github.com/freshctx/freshctx/relevance"
)

// Config configures the context API. Zero values take the defaults.
type Config struct {
	// Listen is the HTTP address. Default ListenDefault.
	Listen string `yaml:"listen"`
	// Tenant is the tenant of every read in development mode (auth.mode none).
	// Default "default".
	Tenant string `yaml:"tenant"`
	// Auth maps API keys to tenants; see Auth.
	Auth Auth `yaml:"auth"`
	// ReadLatestTopics allow-lists the topics (source topics and the dead-letter
	// topic) that the MCP tool read_latest, GET /v1/topics/{topic}/latest and the
	// console's sources page may read. Empty: none of them is offered.
	ReadLatestTopics []string `yaml:"read_latest_topics"`
	// DefaultWindow is the window when a request gives none. Default 15m.
	DefaultWindow time.Duration `yaml:"default_window"`
	// MaxWindow caps the window a request may ask for. Default 24h.
	MaxWindow time.Duration `yaml:"max_window"`
	// DefaultK is the number of events when a request gives none. Default 10.
	DefaultK int `yaml:"default_k"`
	// MaxK caps k. Default 100.
	MaxK int `yaml:"max_k"`
	// Budget is the latency budget of a request that gives no budget_ms. Default 100ms.
	Budget time.Duration `yaml:"budget"`
	// MaxTokens caps the rendered context when a request gives no max_tokens. Default 1000.
	MaxTokens int `yaml:"max_tokens"`
	// HalfLife is the age at which recency counts half. Default 20m.
	HalfLife time.Duration `yaml:"half_life"`
	// SimilarityWeight is the share of relevance in the score (the rest is
	// recency), in [0, 1]; 0 ranks by recency alone. Unset (nil): 0.7.
	SimilarityWeight *float64 `yaml:"similarity_weight"`
	// ScanLimit caps the events of one entity window that are ranked (newest
	// first). Default 1000.
	ScanLimit int `yaml:"scan_limit"`
	// Ranking is the default ranking of /v1/context: hybrid (lexical, identifiers,
	// similarity and recency; see package relevance), similarity (similarity and
	// recency) or recency (newest first). Default hybrid.
	Ranking string `yaml:"ranking"`
	// SourceWeights scale the relevance of a source's events (default 1 each):
	// e.g. {chat_bot: 0.5} for lines that echo the customer's words.
	SourceWeights map[string]float64 `yaml:"source_weights"`
	// VectorShare is, in hybrid ranking, the share of vector similarity in an
	// event's relevance (the rest is BM25), in [0, 1]. Unset (nil): 0.2, chosen
	// on the labelled set with the offline embedder, whose similarity is itself
	// lexical. With a semantic model behind a provider, a larger share lets it
	// carry paraphrases; measure the choice with loadtest eval.
	VectorShare *float64 `yaml:"vector_share"`
	// Thesaurus lists the thesaurus files that hybrid ranking expands a
	// question with ("refund, money back, reimbursement": a question saying
	// one looks for the others; format in package relevance, Thesaurus),
	// merged in order; "builtin" is the built-in one, for customer support in
	// general. Paths are relative to the working directory. Unset (nil):
	// [builtin]; [] turns expansion by thesaurus off.
	Thesaurus []string `yaml:"thesaurus"`
	// Lexicon is Thesaurus loaded (LoadThesaurus; config.Parse does it). Nil
	// while not loaded: the built-in one.
	Lexicon *relevance.Thesaurus `yaml:"-"`
	// CorpusIDF is the share of the tenant's source statistics (kept in Redis by
	// ingest from a sample of what it writes) in BM25's IDF, in [0, 1]; the rest
	// comes from the entity's candidates. Default 0: on the labelled set the
	// candidates' own statistics ranked better (ADR 0009).
	CorpusIDF float64 `yaml:"corpus_idf"`
	// KnowledgeK is how many knowledge chunks /v1/context adds for a question;
	// 0 adds none. Unset (nil): 3.
	KnowledgeK *int `yaml:"knowledge_k"`
	// KnowledgeCache is how many knowledge searches (tenant, question, k,
	// filter) a process keeps, about; a tenant's are forgotten the moment its
	// documents change (PostgreSQL notifications), and none are kept while that
	// is not known, nor with a read replica or Milvus. 0: off. Unset (nil): 1000.
	KnowledgeCache *int `yaml:"knowledge_cache"`
	// MaxStreams caps the change streams (GET /v1/entities/{entity}/stream) a
	// process serves at once; MaxStreamsPerTenant and MaxStreamsPerKey cap a
	// tenant's and an API key's. Defaults 100, 50, 20.
	MaxStreams          int `yaml:"max_streams"`
	MaxStreamsPerTenant int `yaml:"max_streams_per_tenant"`
	MaxStreamsPerKey    int `yaml:"max_streams_per_key"`
	// Console serves the web console at /console (static pages; every read it
	// makes goes through the REST API with the caller's key). Unset (nil): true.
	Console *bool `yaml:"console"`
}

const (
	ListenDefault           = "127.0.0.1:8080"
	TenantDefault           = "default"
	WindowDefault           = 15 * time.Minute
	MaxWindowDefault        = 24 * time.Hour
	KDefault                = 10
	MaxKDefault             = 100
	BudgetDefault           = 100 * time.Millisecond
	MaxTokensDefault        = 1000
	HalfLifeDefault         = 20 * time.Minute
	SimilarityWeightDefault = 0.7
	ScanLimitDefault        = 1000
	KnowledgeKDefault       = 3
)

// Ptr returns a pointer to v, for the settings where an explicit zero means off.
func Ptr[T any](v T) *T { return &v }

// WithDefaults fills unset fields. Zero means unset for the fields where zero is
// not a valid value; SimilarityWeight and KnowledgeK are pointers because their
// zero means off.
func (c Config) WithDefaults() Config {
	if c.Listen == "" {
		c.Listen = ListenDefault
	}
	if c.Tenant == "" {
		c.Tenant = TenantDefault
	}
	if c.DefaultWindow == 0 {
		c.DefaultWindow = WindowDefault
	}
	if c.MaxWindow == 0 {
		c.MaxWindow = MaxWindowDefault
	}
	if c.DefaultK == 0 {
		c.DefaultK = KDefault
	}
	if c.MaxK == 0 {
		c.MaxK = MaxKDefault
	}
	if c.Budget == 0 {
		c.Budget = BudgetDefault
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = MaxTokensDefault
	}
	if c.HalfLife == 0 {
		c.HalfLife = HalfLifeDefault
	}
	if c.MaxStreams == 0 {
		c.MaxStreams = 100
	}
	if c.MaxStreamsPerTenant == 0 {
		c.MaxStreamsPerTenant = 50
	}
	if c.MaxStreamsPerKey == 0 {
		c.MaxStreamsPerKey = 20
	}
	if c.Console == nil {
		on := true
		c.Console = &on
	}
	if c.SimilarityWeight == nil {
		w := SimilarityWeightDefault
		c.SimilarityWeight = &w
	}
	if c.ScanLimit == 0 {
		c.ScanLimit = ScanLimitDefault
	}
	if c.Thesaurus == nil {
		c.Thesaurus = []string{relevance.Builtin}
	}
	if c.Ranking == "" {
		c.Ranking = "hybrid"
	}
	if c.KnowledgeCache == nil {
		n := 1000
		c.KnowledgeCache = &n
	}
	if c.KnowledgeK == nil {
		k := KnowledgeKDefault
		c.KnowledgeK = &k
	}
	return c
}

// LoadThesaurus reads the files Thesaurus lists into Lexicon; an error names
// the field, the file and the line.
func (c *Config) LoadThesaurus() error {
	if len(c.Thesaurus) == 0 {
		return nil
	}
	t, err := relevance.LoadThesaurus(c.Thesaurus...)
	if err != nil {
		return fmt.Errorf("thesaurus: %w", err)
	}
	c.Lexicon = t
	return nil
}

// Validate reports the first invalid field.
func (c Config) Validate() error {
	switch {
	case c.DefaultWindow <= 0 || c.DefaultWindow > c.MaxWindow:
		return errors.New("default_window: must be positive and at most max_window")
	case c.MaxK < 1 || c.MaxK > 1000:
		return errors.New("max_k: must be in [1, 1000]")
	case c.DefaultK < 1 || c.DefaultK > c.MaxK:
		return errors.New("default_k: must be in [1, max_k]")
	case c.Budget < time.Millisecond || c.Budget > 10*time.Second:
		return errors.New("budget: must be in [1ms, 10s]")
	case c.MaxTokens < 1:
		return errors.New("max_tokens: must be positive")
	case c.HalfLife <= 0:
		return errors.New("half_life: must be positive")
	case c.SimilarityWeight != nil && (*c.SimilarityWeight < 0 || *c.SimilarityWeight > 1):
		return errors.New("similarity_weight: must be in [0, 1] (0: recency alone)")
	case c.Ranking != RankHybrid && c.Ranking != RankSimilarity && c.Ranking != RankRecency:
		return fmt.Errorf("ranking: %q is not one of hybrid, similarity, recency", c.Ranking)
	case c.CorpusIDF < 0 || c.CorpusIDF > 1:
		return errors.New("corpus_idf: must be in [0, 1]")
	case c.VectorShare != nil && !(*c.VectorShare >= 0 && *c.VectorShare <= 1):
		return errors.New("vector_share: must be in [0, 1]")
	case !validWeights(c.SourceWeights):
		return errors.New("source_weights: each weight must be in [0, 10]")
	case c.ScanLimit < c.MaxK:
		return errors.New("scan_limit: must be at least max_k")
	case c.KnowledgeCache != nil && *c.KnowledgeCache < 0:
		return errors.New("api.knowledge_cache: must not be negative (0 turns it off)")
	case c.KnowledgeK != nil && (*c.KnowledgeK < 0 || *c.KnowledgeK > maxSearchK):
		return errors.New("knowledge_k: must be in [0, 50] (0: no knowledge in /v1/context)")
	}
	return c.Auth.validate()
}

func validWeights(ws map[string]float64) bool {
	for _, w := range ws {
		if w < 0 || w > 10 || w != w {
			return false
		}
	}
	return true
}
