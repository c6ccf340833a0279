package source

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/freshctx/freshctx/cdc"
	"github.com/freshctx/freshctx/store"
)

// Contract reads the AI-ready data contract a producer attaches to its events:
// Kafka headers on live records and, where no header says it, fields of the
// row (a backfill's columns, a JSON event's fields). It applies to events, not
// to documents.
type Contract struct {
	// TTLHeader names the header holding the event's time to live in
	// milliseconds (default "ai-ttl"). The event is never served after the
	// record's time plus the TTL and is purged then; a record whose TTL has
	// already passed when it is ingested is skipped (counted as expired, not
	// dead-lettered). The record's time is its Kafka timestamp, or the event
	// time for rows that did not come through Kafka (backfill).
	TTLHeader string `yaml:"ttl_header"`
	// ContextHeader names the header holding the AI task the event is for
	// (default "ai-context"); it is stored, returned, and filtered on with
	// context= on every read.
	ContextHeader string `yaml:"context_header"`
	// ProvenanceHeader names the header naming the job that produced the event
	// (default "ai-provenance"); it is returned in the event's provenance as
	// producer.
	ProvenanceHeader string `yaml:"provenance_header"`
	// TTLField, ContextField and ProvenanceField name row fields that say the
	// same where a record has no such header (backfill reads them from columns).
	TTLField        string `yaml:"ttl_field"`
	ContextField    string `yaml:"context_field"`
	ProvenanceField string `yaml:"provenance_field"`
	// Contexts, when set, are the only contexts this source accepts; other
	// records, and records without a context unless "" is listed, are skipped.
	Contexts []string `yaml:"contexts"`
}

// Contract header defaults.
const (
	TTLHeaderDefault        = "ai-ttl"
	ContextHeaderDefault    = "ai-context"
	ProvenanceHeaderDefault = "ai-provenance"
)

// maxContractValue bounds a context or producer name.
const maxContractValue = 256

// WithDefaults fills the header names.
func (c Contract) WithDefaults() Contract {
	if c.TTLHeader == "" {
		c.TTLHeader = TTLHeaderDefault
	}
	if c.ContextHeader == "" {
		c.ContextHeader = ContextHeaderDefault
	}
	if c.ProvenanceHeader == "" {
		c.ProvenanceHeader = ProvenanceHeaderDefault
	}
	return c
}

// Validate checks the contract's configuration.
func (c Contract) Validate() error {
	for _, f := range []struct{ name, v string }{{"ttl_header", c.TTLHeader}, {"context_header", c.ContextHeader},
		{"provenance_header", c.ProvenanceHeader}} {
		if strings.TrimSpace(f.v) != f.v || strings.ContainsAny(f.v, "\r\n") {
			return fmt.Errorf("contract.%s: %q must be a header name without spaces around it", f.name, f.v)
		}
	}
	for i, x := range c.Contexts {
		if len(x) > maxContractValue {
			return fmt.Errorf("contract.contexts[%d]: longer than %d bytes", i, maxContractValue)
		}
	}
	return nil
}

// fields are the row fields the contract reads (kept for TOAST merging).
func (c Contract) fields() []string {
	var out []string
	for _, f := range []string{c.TTLField, c.ContextField, c.ProvenanceField} {
		if f != "" {
			out = append(out, strings.SplitN(f, ".", 2)[0])
		}
	}
	return out
}

// ErrExpired is a record whose TTL passed before it was ingested: it is
// skipped and counted, never stored.
var ErrExpired = errors.New("its ai-ttl has passed")

// ErrContextNotAccepted is a record whose context the source does not accept:
// it is skipped and counted.
var ErrContextNotAccepted = errors.New("its context is not one this source accepts")

// apply reads the contract into e (whose Time is set) from r's headers or the
// row, at now.
func (c Contract) apply(e *store.Event, row map[string]any, r *cdc.Record, now time.Time) error {
	ttl, ttlFrom, hasTTL := c.value(r, row, c.TTLHeader, c.TTLField)
	if hasTTL {
		ms, err := strconv.ParseInt(strings.TrimSpace(ttl), 10, 64)
		if err != nil || ms < 0 {
			return &MapError{Field: ttlFrom, Reason: fmt.Sprintf("%q is not a whole, non-negative number of milliseconds", clip(ttl))}
		}
		base := e.Time
		if r != nil && r.Partition >= 0 && !r.Timestamp.IsZero() {
			base = r.Timestamp
		}
		e.ExpiresAt = base.Add(time.Duration(min(ms, int64(1<<62)/int64(time.Millisecond))) * time.Millisecond).UTC()
		if !e.ExpiresAt.After(now) {
			return ErrExpired
		}
	}
	ctx, ctxFrom, _ := c.value(r, row, c.ContextHeader, c.ContextField)
	if len(ctx) > maxContractValue {
		return &MapError{Field: ctxFrom, Reason: fmt.Sprintf("longer than %d bytes", maxContractValue)}
	}
	e.Context = ctx
	if len(c.Contexts) > 0 && !slices.Contains(c.Contexts, ctx) {
		return ErrContextNotAccepted
	}
	prod, prodFrom, _ := c.value(r, row, c.ProvenanceHeader, c.ProvenanceField)
	if len(prod) > maxContractValue {
		return &MapError{Field: prodFrom, Reason: fmt.Sprintf("longer than %d bytes", maxContractValue)}
	}
	e.Provenance.Producer = prod
	return nil
}

// value is a header's value (the last one with that name, case-insensitively),
// else the row field's, and where it came from for errors.
func (c Contract) value(r *cdc.Record, row map[string]any, header, field string) (v, from string, ok bool) {
	if r != nil {
		for i := len(r.Headers) - 1; i >= 0; i-- {
			if strings.EqualFold(r.Headers[i].Key, header) {
				return string(r.Headers[i].Value), header + " header", true
			}
		}
	}
	if field == "" {
		return "", "", false
	}
	x, found := lookup(row, strings.Split(field, "."))
	if !found || x == nil {
		return "", "", false
	}
	switch t := x.(type) {
	case string:
		v = t
	default:
		v = fmt.Sprint(t)
	}
	return v, "contract field " + field, true
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
