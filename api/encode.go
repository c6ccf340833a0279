package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/freshctx/freshctx/store"
)

// The /v1/context answer writes its own JSON: reflection was a tenth of
// contextapi's CPU per request (BENCHMARKS.md). It writes byte for byte what
// encoding/json writes with HTML escaping off (TestContextResponseJSONMatches
// fills every field of the answer, nested ones too, and compares the two);
// the rare parts (attributes, memory, explain) still go through encoding/json.

// jsonAppender is a response that appends its own JSON encoding to b.
type jsonAppender interface {
	appendJSON(b []byte) ([]byte, error)
}

var errNotFinite = errors.New("json: unsupported value: a number that is not finite")

func (r *ContextResponse) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"entity":`...)
	b = appendString(b, r.Entity)
	if r.Memory != nil {
		b = append(b, `,"memory":`...)
		if b, err = appendReflected(b, r.Memory); err != nil {
			return b, err
		}
	}
	b = append(b, `,"events":`...)
	if b, err = appendArray(b, r.Events, (*EventOut).appendJSON); err != nil {
		return b, err
	}
	b = append(b, `,"documents":`...)
	if b, err = appendArray(b, r.Documents, appendHit); err != nil {
		return b, err
	}
	b = append(b, `,"context":`...)
	b = appendString(b, r.Context)
	b = append(b, `,"meta":`...)
	if b, err = r.Meta.appendJSON(b); err != nil {
		return b, err
	}
	return append(b, '}'), nil
}

func (e *EventOut) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"id":`...)
	b = appendString(b, e.ID)
	b = append(b, `,"source":`...)
	b = appendString(b, e.Source)
	b = append(b, `,"key":`...)
	b = appendString(b, e.Key)
	b = append(b, `,"time":`...)
	if b, err = appendTime(b, e.Time); err != nil {
		return b, err
	}
	b = append(b, `,"text":`...)
	b = appendString(b, e.Text)
	if len(e.Attrs) > 0 {
		b = append(b, `,"attrs":`...)
		if b, err = appendReflected(b, e.Attrs); err != nil {
			return b, err
		}
	}
	b = append(b, `,"score":`...)
	if b, err = appendFloat(b, e.Score); err != nil {
		return b, err
	}
	if e.Similarity != nil {
		b = append(b, `,"similarity":`...)
		if b, err = appendFloat(b, *e.Similarity); err != nil {
			return b, err
		}
	}
	if e.Explain != nil {
		b = append(b, `,"explain":`...)
		if b, err = appendReflected(b, e.Explain); err != nil {
			return b, err
		}
	}
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, e.Version, 10)
	b = append(b, `,"provenance":`...)
	b = appendProvenance(b, &e.Provenance)
	if e.Context != "" {
		b = append(b, `,"context":`...)
		b = appendString(b, e.Context)
	}
	if e.ExpiresAt != nil {
		b = append(b, `,"expires_at":`...)
		if b, err = appendTime(b, *e.ExpiresAt); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

func appendHit(h *store.Hit, b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"source":`...)
	b = appendString(b, h.Source)
	b = append(b, `,"doc_id":`...)
	b = appendString(b, h.DocID)
	b = append(b, `,"chunk":`...)
	b = strconv.AppendInt(b, int64(h.Chunk), 10)
	if h.Title != "" {
		b = append(b, `,"title":`...)
		b = appendString(b, h.Title)
	}
	b = append(b, `,"text":`...)
	b = appendString(b, h.Text)
	if len(h.Attrs) > 0 {
		b = append(b, `,"attrs":`...)
		if b, err = appendReflected(b, h.Attrs); err != nil {
			return b, err
		}
	}
	b = append(b, `,"score":`...)
	if b, err = appendFloat(b, h.Score); err != nil {
		return b, err
	}
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, h.Version, 10)
	b = append(b, `,"provenance":`...)
	b = appendProvenance(b, &h.Provenance)
	return append(b, '}'), nil
}

func appendProvenance(b []byte, p *store.Provenance) []byte {
	b = append(b, `{"topic":`...)
	b = appendString(b, p.Topic)
	b = append(b, `,"partition":`...)
	b = strconv.AppendInt(b, int64(p.Partition), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, p.Offset, 10)
	if p.TraceID != "" {
		b = append(b, `,"trace_id":`...)
		b = appendString(b, p.TraceID)
	}
	if p.Producer != "" {
		b = append(b, `,"producer":`...)
		b = appendString(b, p.Producer)
	}
	return append(b, '}')
}

func (m *Meta) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, `{"took_ms":`...)
	if b, err = appendFloat(b, m.TookMS); err != nil {
		return b, err
	}
	b = append(b, `,"stages_ms":`...)
	if m.StagesMS == nil {
		b = append(b, "null"...)
	} else {
		var arr [16]string
		keys := arr[:0]
		for k := range m.StagesMS {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			if b, err = appendFloat(b, m.StagesMS[k]); err != nil {
				return b, err
			}
		}
		b = append(b, '}')
	}
	b = append(b, `,"served_from":`...)
	b = appendString(b, m.ServedFrom)
	b = append(b, `,"degraded":`...)
	if b, err = appendArray(b, m.Degraded, appendDegraded); err != nil {
		return b, err
	}
	b = append(b, `,"candidates":`...)
	b = strconv.AppendInt(b, int64(m.Candidates), 10)
	b = append(b, `,"newest_event_age_ms":`...)
	if m.NewestEventAgeMS == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, *m.NewestEventAgeMS, 10)
	}
	b = append(b, `,"window":`...)
	b = appendString(b, m.Window)
	b = append(b, `,"now":`...)
	if b, err = appendTime(b, m.Now); err != nil {
		return b, err
	}
	b = append(b, `,"cutoff":`...)
	if b, err = appendTime(b, m.Cutoff); err != nil {
		return b, err
	}
	if m.FreshThrough != nil {
		b = append(b, `,"fresh_through":`...)
		if b, err = appendTime(b, *m.FreshThrough); err != nil {
			return b, err
		}
	}
	b = append(b, `,"k":`...)
	b = strconv.AppendInt(b, int64(m.K), 10)
	b = append(b, `,"ranking":`...)
	b = appendString(b, m.Ranking)
	b = append(b, `,"context_tokens":`...)
	b = strconv.AppendInt(b, int64(m.ContextTokens), 10)
	b = append(b, `,"omitted_events":`...)
	b = strconv.AppendInt(b, int64(m.OmittedEvents), 10)
	b = append(b, `,"omitted_documents":`...)
	b = strconv.AppendInt(b, int64(m.OmittedDocuments), 10)
	if m.KnowledgeMode != "" {
		b = append(b, `,"knowledge_mode":`...)
		b = appendString(b, m.KnowledgeMode)
	}
	if m.KnowledgeCached {
		b = append(b, `,"knowledge_cached":true`...)
	}
	if m.Fusion != nil {
		b = append(b, `,"fusion":`...)
		if b, err = appendReflected(b, m.Fusion); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

func appendDegraded(d *Degraded, b []byte) ([]byte, error) {
	b = append(b, `{"stage":`...)
	b = appendString(b, d.Stage)
	b = append(b, `,"reason":`...)
	b = appendString(b, d.Reason)
	b = append(b, `,"fallback":`...)
	b = appendString(b, d.Fallback)
	return append(b, '}'), nil
}

// appendArray writes xs as a JSON array, each element by f (null when xs is
// nil, as encoding/json writes a nil slice).
func appendArray[T any](b []byte, xs []T, f func(*T, []byte) ([]byte, error)) ([]byte, error) {
	if xs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = f(&xs[i], b); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// appendReflected appends v as encoding/json writes it (HTML escaping off),
// in place after b.
func appendReflected(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// appendFloat writes f as encoding/json does: the shortest representation,
// in exponent form below 1e-6 and from 1e21.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, errNotFinite
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 is written e-9.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// appendTime writes t as time.Time's MarshalJSON does (RFC 3339 with
// nanoseconds), which it asks for the times it cannot write so.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	if _, off := t.Zone(); t.Year() < 0 || t.Year() > 9999 || off%60 != 0 {
		j, err := t.MarshalJSON()
		return append(b, j...), err
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string as encoding/json does with HTML
// escaping off: quotes, backslashes and control characters escaped, invalid
// UTF-8 as U+FFFD, and U+2028 and U+2029 escaped (JavaScript reads them as
// line ends).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
