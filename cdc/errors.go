package cdc

import (
	"errors"
	"fmt"
)

// ErrMalformed is wrapped by every decoding error: the record can never be decoded
// and belongs in the dead-letter queue.
var ErrMalformed = errors.New("malformed record")

// DecodeError says which part of a record could not be decoded and why.
type DecodeError struct {
	Field  string // JSON path of the offending part, e.g. "payload.op"
	Reason string
}

func (e *DecodeError) Error() string {
	if e.Field == "" {
		return "malformed record: " + e.Reason
	}
	return fmt.Sprintf("malformed record: %s: %s", e.Field, e.Reason)
}

func (e *DecodeError) Unwrap() error { return ErrMalformed }

func malformed(field, format string, args ...any) error {
	return &DecodeError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
