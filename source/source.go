package source

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/store"
)

// Source is one Kafka topic and the rules that turn its records into events.
type Source struct {
	// Name identifies the source in stored events and metrics: [a-z0-9_.-]+. Required.
	Name string `yaml:"name"`
	// Topic is the Kafka topic to consume. Required.
	Topic string `yaml:"topic"`
	// Format is "debezium" (JSON converter envelopes), "debezium-flat" (the
	// ExtractNewRecordState transform's output), "debezium-avro" (AvroConverter
	// envelopes, through schema_registry) or "json" (plain events). Required.
	Format cdc.Format `yaml:"format"`
	// KeyFormat says how record keys are written: "json" (a JSON object or value;
	// the default for debezium, debezium-flat), "avro" (through the Schema
	// Registry; the default for, and only with, debezium-avro) or "string" (the
	// raw bytes; use it for plain string keys). Default: detect JSON objects, else
	// raw bytes.
	KeyFormat string `yaml:"key_format"`
	// Kind is "event" (an entity's timeline) or "document" (knowledge: chunked,
	// embedded, searchable). Default "event".
	Kind string `yaml:"kind"`
	// ID renders the event's display id, e.g. "{{.id}}". Default: the record key.
	ID string `yaml:"id"`
	// Tenant renders the tenant, e.g. "{{.tenant_id}}" or a constant. Required.
	Tenant string `yaml:"tenant"`
	// Entity renders whose timeline the event belongs to, e.g. "customer:{{.customer_id}}".
	// Required for events; not used by documents.
	Entity string `yaml:"entity"`
	// Title renders a document's title (documents only; optional).
	Title string `yaml:"title"`
	// Chunk configures how documents are split (documents only).
	Chunk Chunking `yaml:"chunk"`
	// Time names the field holding the event time (RFC 3339 text, or epoch seconds,
	// milliseconds, microseconds or nanoseconds told apart by magnitude). Default:
	// Debezium's source.ts_ms, else the Kafka record timestamp.
	Time string `yaml:"time"`
	// Text renders the text that is embedded and shown to the model. Required.
	Text string `yaml:"text"`
	// Attrs lists fields returned with the event as structured attributes.
	Attrs []string `yaml:"attrs"`
	// MaxTextBytes caps the rendered text (cut at a rune boundary, marked with "…").
	// Default MaxTextBytesDefault for events, MaxDocumentBytesDefault for documents.
	MaxTextBytes int `yaml:"max_text_bytes"`
	// Key renders the event key (json format only), e.g. "{{.event_id}}". Use it when
	// the Kafka key is not the event's identity: a chat topic keyed by session id,
	// whose turns are keyed by message id. Default: the Kafka key; a keyless record
	// without this is rejected.
	Key string `yaml:"key"`
	// Retention deletes this source's events older than this (by event time) from the
	// store, e.g. 72h for raw chat turns. Default 0: kept.
	Retention time.Duration `yaml:"retention"`
	// Contract reads the producer's data contract (ai-ttl, ai-context,
	// ai-provenance headers, or fields on backfill); see Contract.
	Contract Contract `yaml:"contract"`
}

// Text caps when a source does not say.
const (
	MaxTextBytesDefault     = 2048
	MaxDocumentBytesDefault = 1 << 20
)

// Source kinds.
const (
	KindEvent    = "event"
	KindDocument = "document"
)

var sourceNameRE = regexp.MustCompile(`^[a-z0-9_.-]+$`)

// Validate checks the source; errors name the field.
func (s *Source) Validate() error {
	if !sourceNameRE.MatchString(s.Name) {
		return fmt.Errorf("name: %q must match [a-z0-9_.-]+", s.Name)
	}
	if s.Topic == "" {
		return errors.New("topic: required")
	}
	switch s.Format {
	case cdc.FormatDebezium, cdc.FormatDebeziumFlat, cdc.FormatDebeziumAvro, cdc.FormatJSON:
	case "":
		return errors.New("format: required (debezium, debezium-flat, debezium-avro or json)")
	default:
		return fmt.Errorf("format: %q is not one of debezium, debezium-flat, debezium-avro, json", s.Format)
	}
	required := []struct{ name, tmpl string }{{"tenant", s.Tenant}, {"text", s.Text}}
	switch s.KeyFormat {
	case "", "json", "string":
	case "avro":
		if s.Format != cdc.FormatDebeziumAvro {
			return errors.New("key_format: avro only with format debezium-avro")
		}
	default:
		return fmt.Errorf("key_format: %q is not one of json, string, avro", s.KeyFormat)
	}
	switch s.Kind {
	case "", KindEvent:
		required = append(required, struct{ name, tmpl string }{"entity", s.Entity})
		if s.Title != "" {
			return errors.New("title: only for kind document")
		}
	case KindDocument:
		if err := s.Chunk.WithDefaults().Validate(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("kind: %q is not one of event, document", s.Kind)
	}
	for _, f := range required {
		if strings.TrimSpace(f.tmpl) == "" {
			return fmt.Errorf("%s: required", f.name)
		}
	}
	for _, f := range []struct{ name, tmpl string }{{"id", s.ID}, {"tenant", s.Tenant}, {"entity", s.Entity}, {"text", s.Text}, {"key", s.Key}, {"title", s.Title}} {
		if _, err := parseTemplate(f.tmpl); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	if s.Retention < 0 {
		return errors.New("retention: must not be negative")
	}
	if s.MaxTextBytes < 0 {
		return errors.New("max_text_bytes: must not be negative")
	}
	if s.Key != "" && s.Format != cdc.FormatJSON {
		return errors.New("key: only for format json (Debezium records always carry a key)")
	}
	return s.Contract.WithDefaults().Validate()
}

// Mapper applies a source's rules to records: decode, key, and the event or
// document they make.
type Mapper struct {
	src                                  Source
	id, tenant, entity, text, key, title template
	fields                               []string // top-level fields kept for TOAST merging
	maxText                              int
	chunk                                Chunking
	contract                             Contract
}

// IsDocument reports a knowledge source (chunked documents, not timeline events).
func (m *Mapper) IsDocument() bool { return m.src.Kind == KindDocument }

// TenantOf renders the tenant of a decoded row.
func (m *Mapper) TenantOf(row map[string]any) (string, error) { return m.tenant.render(row, true) }

// Source is the source the mapper was made from.
func (m *Mapper) Source() Source { return m.src }

// Name is the source's name.
func (m *Mapper) Name() string { return m.src.Name }

// NewMapper validates s and prepares its templates.
func NewMapper(s Source) (*Mapper, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	m := &Mapper{src: s, maxText: s.MaxTextBytes, chunk: s.Chunk.WithDefaults(), contract: s.Contract.WithDefaults()}
	if m.maxText == 0 {
		m.maxText = MaxTextBytesDefault
		if m.IsDocument() {
			m.maxText = MaxDocumentBytesDefault
		}
	}
	m.title, _ = parseTemplate(s.Title)
	m.id, _ = parseTemplate(s.ID)
	m.tenant, _ = parseTemplate(s.Tenant)
	m.entity, _ = parseTemplate(s.Entity)
	m.text, _ = parseTemplate(s.Text)
	m.key, _ = parseTemplate(s.Key)
	seen := map[string]bool{}
	add := func(f string) {
		if f != "" && !seen[f] {
			seen[f] = true
			m.fields = append(m.fields, f)
		}
	}
	for _, t := range []template{m.id, m.tenant, m.entity, m.text, m.title} {
		for _, p := range t.parts {
			if p.path != nil {
				add(p.path[0])
			}
		}
	}
	for _, a := range s.Attrs {
		add(strings.SplitN(a, ".", 2)[0])
	}
	add(s.Time)
	for _, f := range m.contract.fields() {
		add(f)
	}
	return m, nil
}

// ErrPermanent marks an error that retrying cannot fix: the record is poison.
var ErrPermanent = errors.New("permanent error")

// MapError is a record that cannot be mapped to an event: it goes to the DLQ.
type MapError struct {
	Field  string
	Reason string
}

func (e *MapError) Error() string { return fmt.Sprintf("mapping: %s: %s", e.Field, e.Reason) }

// Permanent reports that retrying cannot map the record.
func (e *MapError) Permanent() bool { return true }

// KeyOf returns the event key of a decoded change.
func (m *Mapper) KeyOf(c *cdc.Change) (string, error) {
	if len(m.key.parts) > 0 && c.Row != nil {
		k, err := m.key.render(c.Row, true)
		if err != nil {
			return "", &MapError{Field: "key", Reason: err.Error()}
		}
		if k != "" {
			return k, nil
		}
	}
	if c.Key != "" {
		return c.Key, nil
	}
	return "", &MapError{Field: "key", Reason: "record has no Kafka key and the source has no key template"}
}

// Event renders an upsert. prior (may be nil) supplies columns the change marked
// unavailable (TOAST).
func (m *Mapper) Event(c *cdc.Change, key string, r *cdc.Record, prior *store.Prior) (store.Event, error) {
	row := c.Row
	if len(c.Unavailable) > 0 {
		row = make(map[string]any, len(c.Row)+len(c.Unavailable))
		for k, v := range c.Row {
			row[k] = v
		}
		if prior != nil && !prior.Deleted {
			for _, col := range c.Unavailable {
				if v, ok := prior.Fields[col]; ok {
					row[col] = v
				}
			}
		}
	}
	e := store.Event{Source: m.src.Name, Key: key, Version: c.Version}
	var err error
	if e.Tenant, err = m.tenant.render(row, true); err != nil || e.Tenant == "" {
		return e, &MapError{Field: "tenant", Reason: orEmpty(err)}
	}
	if e.Entity, err = m.entity.render(row, true); err != nil || e.Entity == "" {
		return e, &MapError{Field: "entity", Reason: orEmpty(err)}
	}
	e.ID = key
	if len(m.id.parts) > 0 {
		if e.ID, err = m.id.render(row, true); err != nil {
			return e, &MapError{Field: "id", Reason: err.Error()}
		}
	}
	text, _ := m.text.render(row, false)
	e.Text = trimText(text, m.maxText)
	e.Time, err = m.eventTime(row, c, r)
	if err != nil {
		return e, err
	}
	if len(m.src.Attrs) > 0 {
		e.Attrs = make(map[string]any, len(m.src.Attrs))
		for _, a := range m.src.Attrs {
			if v, ok := lookup(row, strings.Split(a, ".")); ok && v != nil {
				e.Attrs[a] = sanitizeValue(v)
			}
		}
	}
	e.Fields = make(map[string]any, len(m.fields))
	for _, f := range m.fields {
		if v, ok := row[f]; ok {
			e.Fields[f] = sanitizeValue(v)
		}
	}
	sum := sha256.Sum256([]byte(e.Text))
	e.TextHash = sum[:16]
	if m.src.Format == cdc.FormatJSON {
		// Plain events carry no source version; their event time orders them, which
		// unlike a Kafka offset survives topic re-creation and replays.
		e.Version = e.Time.UnixMicro()
	}
	if err := m.contract.apply(&e, row, r, time.Now()); err != nil {
		return e, err
	}
	return e, nil
}

// Document renders a document upsert and splits it into chunks (without vectors).
func (m *Mapper) Document(c *cdc.Change, key string, r *cdc.Record) (store.Document, error) {
	row := c.Row
	d := store.Document{Source: m.src.Name, Key: key, Version: c.Version, DocID: key}
	var err error
	if d.Tenant, err = m.tenant.render(row, true); err != nil || d.Tenant == "" {
		return d, &MapError{Field: "tenant", Reason: orEmpty(err)}
	}
	if len(m.id.parts) > 0 {
		if d.DocID, err = m.id.render(row, true); err != nil {
			return d, &MapError{Field: "id", Reason: err.Error()}
		}
	}
	d.Title, _ = m.title.render(row, false)
	d.Title = trimText(d.Title, 512)
	text, _ := m.text.render(row, false)
	text = trimDocument(text, m.maxText)
	sum := sha256.Sum256([]byte(d.Title + "\x00" + text))
	d.TextHash = sum[:16]
	for _, t := range chunkText(text, m.chunk.Size, m.chunk.Overlap) {
		h := sha256.Sum256([]byte(d.Title + "\x00" + t))
		d.Chunks = append(d.Chunks, store.Chunk{Text: t, TextHash: h[:16]})
	}
	if len(m.src.Attrs) > 0 {
		d.Attrs = make(map[string]any, len(m.src.Attrs))
		for _, a := range m.src.Attrs {
			if v, ok := lookup(row, strings.Split(a, ".")); ok && v != nil {
				d.Attrs[a] = sanitizeValue(v)
			}
		}
	}
	if m.src.Format == cdc.FormatJSON {
		t, err := m.eventTime(row, c, r)
		if err != nil {
			return d, err
		}
		d.Version = t.UnixMicro()
	}
	return d, nil
}

// trimDocument keeps paragraph breaks (blank lines), drops control characters and
// caps the size at a rune boundary.
func trimDocument(s string, max int) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	for _, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > max {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

func orEmpty(err error) string {
	if err != nil {
		return err.Error()
	}
	return "renders empty"
}

func (m *Mapper) eventTime(row map[string]any, c *cdc.Change, r *cdc.Record) (time.Time, error) {
	if m.src.Time != "" {
		if v, ok := row[m.src.Time]; ok && v != nil {
			t, err := parseTime(v)
			if err != nil {
				return time.Time{}, &MapError{Field: "time", Reason: fmt.Sprintf("field %s: %v", m.src.Time, err)}
			}
			return t, nil
		}
	}
	if !c.SourceTime.IsZero() {
		return c.SourceTime, nil
	}
	if !r.Timestamp.IsZero() {
		return r.Timestamp.UTC(), nil
	}
	return time.Time{}, &MapError{Field: "time", Reason: "no time field, source time or record timestamp"}
}

// parseTime reads RFC 3339 text or an epoch number whose unit is told by its
// magnitude (s < 1e11 ≤ ms < 1e14 ≤ µs < 1e17 ≤ ns).
func parseTime(v any) (time.Time, error) {
	var n int64
	switch x := v.(type) {
	case string:
		if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return t.UTC(), nil
		}
		i, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("%q is neither RFC 3339 nor an epoch number", x)
		}
		n = i
	case json.Number:
		i, err := x.Int64()
		if err != nil {
			f, ferr := x.Float64()
			if ferr != nil {
				return time.Time{}, fmt.Errorf("%s is not a number", x)
			}
			i = int64(f)
		}
		n = i
	default:
		return time.Time{}, fmt.Errorf("is %T, want text or a number", v)
	}
	switch {
	case n < 0:
		return time.Time{}, fmt.Errorf("%d is negative", n)
	case n < 1e11:
		return time.Unix(n, 0).UTC(), nil
	case n < 1e14:
		return time.UnixMilli(n).UTC(), nil
	case n < 1e17:
		return time.UnixMicro(n).UTC(), nil
	default:
		return time.Unix(0, n).UTC(), nil
	}
}

// trimText collapses whitespace, drops control characters and caps the size.
func trimText(s string, max int) string {
	var b strings.Builder
	b.Grow(min(len(s), max+4))
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			continue
		case r == ' ' || r == '\n' || r == '\t' || r == '\r':
			space = b.Len() > 0
			continue
		case r < 0x20 || r == 0x7f:
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+utf8.RuneLen(r) > max {
			return b.String() + "…"
		}
		b.WriteRune(r)
	}
	return b.String()
}

// sanitizeValue removes NUL characters, which PostgreSQL text and jsonb reject.
func sanitizeValue(v any) any {
	switch x := v.(type) {
	case string:
		if strings.IndexByte(x, 0) >= 0 {
			return strings.ReplaceAll(x, "\x00", "")
		}
	case map[string]any:
		for k, vv := range x {
			x[k] = sanitizeValue(vv)
		}
	case []any:
		for i, vv := range x {
			x[i] = sanitizeValue(vv)
		}
	}
	return v
}

// template is a string with {{.field}} or {{.a.b}} placeholders. Nothing else of
// text/template is supported: rendering is on the hot path and errors must name
// the missing field.
type template struct {
	parts []tmplPart
}

type tmplPart struct {
	lit  string
	path []string // nil for a literal
}

func parseTemplate(s string) (template, error) {
	var t template
	for s != "" {
		i := strings.Index(s, "{{")
		if i < 0 {
			t.parts = append(t.parts, tmplPart{lit: s})
			break
		}
		if i > 0 {
			t.parts = append(t.parts, tmplPart{lit: s[:i]})
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return t, fmt.Errorf("unclosed {{ in %q", s)
		}
		expr := strings.TrimSpace(s[i+2 : i+j])
		if !strings.HasPrefix(expr, ".") || len(expr) < 2 || strings.ContainsAny(expr, " |()$") {
			return t, fmt.Errorf("{{%s}}: only field references like {{.customer_id}} are supported", expr)
		}
		t.parts = append(t.parts, tmplPart{path: strings.Split(expr[1:], ".")})
		s = s[i+j+2:]
	}
	return t, nil
}

// render fills the placeholders from row. With strict, a missing or null field is
// an error; otherwise it renders as empty.
func (t template) render(row map[string]any, strict bool) (string, error) {
	if len(t.parts) == 1 && t.parts[0].path == nil {
		return t.parts[0].lit, nil
	}
	var b strings.Builder
	for _, p := range t.parts {
		if p.path == nil {
			b.WriteString(p.lit)
			continue
		}
		v, ok := lookup(row, p.path)
		if !ok || v == nil {
			if strict {
				return "", fmt.Errorf("field %s is missing", strings.Join(p.path, "."))
			}
			continue
		}
		writeValue(&b, v)
	}
	return b.String(), nil
}

func lookup(row map[string]any, path []string) (any, bool) {
	var cur any = row
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func writeValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case string:
		b.WriteString(x)
	case json.Number:
		b.WriteString(x.String())
	case bool:
		b.WriteString(strconv.FormatBool(x))
	default:
		j, _ := json.Marshal(x)
		b.Write(j)
	}
}

// avroKey reports whether the source's keys are Avro.
func (s *Source) avroKey() bool {
	return s.Format == cdc.FormatDebeziumAvro && (s.KeyFormat == "" || s.KeyFormat == "avro")
}

// ApplyKeyFormat enforces the declared key format on a decoded change.
func (s *Source) ApplyKeyFormat(c *cdc.Change, rawKey []byte) error {
	switch s.KeyFormat {
	case "string":
		if len(rawKey) > 0 {
			c.Key = string(rawKey)
		}
	case "json":
		if len(rawKey) > 0 && !json.Valid(rawKey) {
			return &MapError{Field: "key_format", Reason: "json, but the record key is not JSON"}
		}
	}
	return nil
}

// Decode turns a record into a change by the source's rules: Avro through the
// Schema Registry into the JSON envelope, then the format's decoder, then the
// declared key format. It returns the record as decoded (JSON for Avro sources).
// Registry outages are the only transient errors; everything else is permanent.
func (m *Mapper) Decode(avro *cdc.Avro, rec cdc.Record) (cdc.Record, cdc.Change, error) {
	rawKey := rec.Key
	format := m.src.Format
	if format == cdc.FormatDebeziumAvro {
		if avro == nil {
			return rec, cdc.Change{}, fmt.Errorf("%w: source %s reads Avro without a schema registry", ErrPermanent, m.src.Name)
		}
		var err error
		if rec, err = avro.ToJSON(rec, m.src.avroKey()); err != nil {
			return rec, cdc.Change{}, err
		}
		format = cdc.FormatDebezium
	}
	c, err := cdc.Decode(format, rec)
	if err == nil {
		err = m.src.ApplyKeyFormat(&c, rawKey)
	}
	return rec, c, err
}

// EventOf decodes and maps rec exactly as ingest does, for other readers of the
// same topic (the session summary builder, the latest-records read); ok is false
// for a record that is not an event upsert (a delete, a marker, a tombstone, a
// document).
func (m *Mapper) EventOf(avro *cdc.Avro, rec cdc.Record) (ev store.Event, ok bool, err error) {
	crec, c, err := m.Decode(avro, rec)
	if err != nil || c.Op != cdc.OpUpsert || m.IsDocument() {
		return ev, false, err
	}
	key, err := m.KeyOf(&c)
	if err != nil {
		return ev, false, err
	}
	ev, err = m.Event(&c, key, &crec, nil)
	return ev, err == nil, err
}
