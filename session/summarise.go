package session

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/freshctx/freshctx/internal/textutil"
	"github.com/freshctx/freshctx/relevance"
)

// Summariser folds new turns into a session's summary.
type Summariser interface {
	// Summarise returns the summary of prev (the summary so far, maybe empty)
	// followed by turns, within about maxTokens.
	Summarise(ctx context.Context, prev string, turns []Turn, maxTokens int) (string, error)
}

// NewSummariser builds the configured summariser.
func NewSummariser(c SummaryConfig) (Summariser, error) {
	switch c.Summariser {
	case "", "extractive":
		return Extractive{}, nil
	case "openai":
		if c.APIKeyEnv != "" && c.APIKey == "" {
			return nil, fmt.Errorf("summary.api_key_env: $%s is empty", c.APIKeyEnv)
		}
		return &ChatCompletions{BaseURL: strings.TrimRight(c.BaseURL, "/"), Model: c.Model, APIKey: c.APIKey,
			Client: &http.Client{Timeout: c.Timeout}}, nil
	default:
		return nil, fmt.Errorf("summary.summariser: %q is not one of extractive, openai", c.Summariser)
	}
}

// approxTokens is the estimate summarisers size their output by: about four
// characters a token.
func approxTokens(s string) int { return (len(s) + 3) / 4 }

// Extractive is the offline summariser: it needs no model. It keeps the
// conversation's most informative sentences, each marked with its speaker, in
// their original order: sentences are scored by how often their words occur in
// the whole conversation (what it is about), with a bonus for numbers and ids
// (order numbers, amounts, dates) and questions, and a slight preference for
// newer ones. The previous summary's sentences compete with the new turns', so the
// summary rolls forward within its size.
type Extractive struct{}

type candidate struct {
	text  string
	prev  bool // from the previous summary (these come first)
	pos   int
	score float64
}

// Summarise implements Summariser.
func (Extractive) Summarise(_ context.Context, prev string, turns []Turn, maxTokens int) (string, error) {
	var cands []candidate
	for _, s := range strings.Split(prev, "\n") {
		if s = strings.TrimSpace(s); s != "" {
			cands = append(cands, candidate{text: s, prev: true})
		}
	}
	for _, t := range turns {
		for _, s := range textutil.Sentences(t.Content) {
			cands = append(cands, candidate{text: t.Role + ": " + s})
		}
	}
	if len(cands) == 0 {
		return prev, nil
	}
	// Drop what says nothing (greetings, thanks: sentences without a content word)
	// and what is said already.
	kept := cands[:0]
	nPrev := 0
	said := map[string]bool{}
	for _, c := range cands {
		if len(contentWords(c.text[strings.Index(c.text, ": ")+1:])) > 0 && !said[c.text] {
			said[c.text] = true
			kept = append(kept, c)
			if c.prev {
				nPrev++
			}
		}
	}
	cands = kept
	if len(cands) == 0 {
		return prev, nil
	}
	// A summary is shorter than what it summarises: at most 60% of the new
	// turns' size plus the previous summary, within maxTokens.
	in := approxTokens(prev)
	for _, t := range turns {
		in += approxTokens(t.Content)
	}
	maxTokens = min(maxTokens, max(in*6/10, 48))
	tf := map[string]float64{}
	words := make([][]string, len(cands))
	for i := range cands {
		cands[i].pos = i
		words[i] = contentWords(cands[i].text)
		for _, w := range words[i] {
			tf[w]++
		}
	}
	for i := range cands {
		seen := map[string]bool{}
		var s float64
		for _, w := range words[i] {
			if seen[w] {
				continue
			}
			seen[w] = true
			s += math.Log1p(tf[w])
			if strings.IndexFunc(w, unicode.IsDigit) >= 0 {
				s += 2 // ids, amounts, dates
			}
		}
		if len(words[i]) > 0 {
			s /= math.Sqrt(float64(len(words[i])))
		}
		if strings.HasSuffix(cands[i].text, "?") {
			s += 0.5
		}
		s += 0.3 * float64(i) / float64(len(cands)) // newer: slightly preferred
		cands[i].score = s
	}
	// The summary rolls: what the previous summary said gets at most half of the
	// budget while there are new turns, the new turns the rest; then whatever room
	// is left goes to the best of both.
	byScore := func(cs []candidate) []candidate {
		out := append([]candidate(nil), cs...)
		sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
		return out
	}
	budget := maxTokens
	var keep []candidate
	taken := map[int]bool{}
	take := func(cs []candidate, limit int) {
		for _, c := range cs {
			if t := approxTokens(c.text) + 1; !taken[c.pos] && t <= limit && t <= budget {
				keep = append(keep, c)
				taken[c.pos] = true
				budget -= t
				limit -= t
			}
		}
	}
	prevLimit := maxTokens
	if nPrev < len(cands) {
		prevLimit = maxTokens / 2
	}
	// Facts first: the new turns' sentences that name an id or an amount (a
	// refund number, a price) are what a bot must not forget.
	var factual []candidate
	for _, c := range cands[nPrev:] {
		if len(facts(c.text)) > 0 {
			factual = append(factual, c)
		}
	}
	take(byScore(factual), maxTokens)
	take(byScore(cands[:nPrev]), prevLimit)
	take(byScore(cands[nPrev:]), maxTokens)
	take(byScore(cands), maxTokens)
	sort.Slice(keep, func(a, b int) bool { return keep[a].pos < keep[b].pos })
	lines := make([]string, 0, len(keep)+1)
	for _, c := range keep {
		lines = append(lines, c.text)
	}
	// Every id and amount of the folded turns survives: those no kept sentence
	// names are listed on a line of their own.
	named := map[string]bool{}
	for _, l := range lines {
		for _, f := range facts(l) {
			named[f] = true
		}
	}
	// The previous summary's facts roll forward too: the turns it folded are
	// folded into this summary.
	var missing []string
	sources := append([]string{prev}, make([]string, 0, len(turns))...)
	for _, t := range turns {
		sources = append(sources, t.Content)
	}
	for _, text := range sources {
		for _, f := range facts(text) {
			if !named[f] {
				named[f] = true
				missing = append(missing, f)
			}
		}
	}
	if len(missing) > 0 {
		lines = append(lines, factsHead+strings.Join(missing, ", "))
	}
	return strings.Join(lines, "\n"), nil
}

// factsHead opens the line of ids and amounts no kept sentence names.
const factsHead = "Also mentioned: "

// facts are the tokens of s that are identifiers or amounts as the ranking
// knows them (relevance.Analyze: R-7001, O-5001, INV-1040, 129.90, order numbers
// of four or more digits, e-mail addresses), as written; trailing punctuation
// trimmed. A previous summary's facts line yields its facts again, so they roll
// forward.
func facts(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '(' || r == ')' || r == '[' || r == ']' || r == '"' || r == ';'
	}) {
		w = strings.TrimRight(w, ".,:!?'")
		w = strings.TrimLeft(w, "'")
		if strings.IndexFunc(w, unicode.IsDigit) >= 0 && len(relevance.Analyze(w).IDs) > 0 {
			out = append(out, w)
		}
	}
	return out
}

var stop = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`the and for are but not you your yours our ours with this that have has had was were
		will would can could should just what when where which who whom why how its it's into from they them their there
		here then than also about been being some any all more most very too only own same other such out off over under
		again further once does did doing don't i'm i've i'll we're you're let hi hello thanks thank please yes okay ok
		course sure great fine good need help look moment`) {
		stop[w] = true
	}
}

// contentWords are the lower-cased words of s that say something.
func contentWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\''
	}) {
		w = strings.Trim(w, "-'")
		if len([]rune(w)) >= 3 && !stop[w] {
			out = append(out, w)
		}
	}
	return out
}

// ChatCompletions summarises with an OpenAI-compatible chat-completions endpoint
// (POST {BaseURL}/chat/completions). Rate limits (429, honouring Retry-After) and
// server errors are retried three times.
type ChatCompletions struct {
	BaseURL string
	Model   string
	APIKey  string
	Client  *http.Client
}

const summaryInstruction = "You maintain the running summary of a customer-support conversation for the assistant that continues it. " +
	"Fold the new turns into the summary: keep facts, names, order and ticket numbers, amounts, dates, what the customer wants, " +
	"what was promised and what is unresolved. Drop greetings and small talk. Write plain sentences, no headings, at most %d tokens."

// Summarise implements Summariser.
func (c *ChatCompletions) Summarise(ctx context.Context, prev string, turns []Turn, maxTokens int) (string, error) {
	var in strings.Builder
	if prev != "" {
		in.WriteString("Summary so far:\n" + prev + "\n\n")
	}
	in.WriteString("New turns:\n")
	for _, t := range turns {
		in.WriteString(t.Role + ": " + t.Content + "\n")
	}
	body, _ := json.Marshal(map[string]any{
		"model": c.Model, "temperature": 0, "max_tokens": maxTokens,
		"messages": []Message{{Role: "system", Content: fmt.Sprintf(summaryInstruction, maxTokens)}, {Role: "user", Content: in.String()}},
	})
	backoff := 500 * time.Millisecond
	for attempt := 1; ; attempt++ {
		out, retryAfter, err := c.call(ctx, body)
		if err == nil || retryAfter < 0 || attempt == 4 {
			return out, err
		}
		wait := max(retryAfter, backoff/2+rand.N(backoff/2+1))
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(wait):
		}
		backoff *= 2
	}
}

// call makes one request; retryAfter < 0 means the error is final.
func (c *ChatCompletions) call(ctx context.Context, body []byte) (string, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", -1, fmt.Errorf("summary.base_url: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	res, err := c.Client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return "", -1, ctx.Err()
		}
		return "", 0, fmt.Errorf("summariser: %w", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	switch {
	case res.StatusCode == http.StatusTooManyRequests:
		ra := time.Second
		if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s >= 0 {
			ra = min(time.Duration(s)*time.Second, time.Minute)
		}
		return "", ra, fmt.Errorf("summariser: rate limited (429)")
	case res.StatusCode >= 500:
		return "", 0, fmt.Errorf("summariser: %s: %.200s", res.Status, b)
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		return "", -1, fmt.Errorf("summariser: %s: check summary.api_key_env", res.Status)
	case res.StatusCode == http.StatusNotFound:
		return "", -1, fmt.Errorf("summariser: 404 from %s/chat/completions: check summary.base_url and summary.model", c.BaseURL)
	case res.StatusCode != http.StatusOK:
		return "", -1, fmt.Errorf("summariser: %s: %.200s", res.Status, b)
	}
	var out struct {
		Choices []struct {
			Message Message `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(b, &out); err != nil || len(out.Choices) == 0 || strings.TrimSpace(out.Choices[0].Message.Content) == "" {
		return "", 0, errors.New("summariser: the response has no choices[0].message.content")
	}
	return strings.TrimSpace(out.Choices[0].Message.Content), 0, nil
}
