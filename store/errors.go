package store

import "errors"

// ErrInvalidData is wrapped by store errors that no retry can fix because the
// record itself is unacceptable (a value the database rejects). The pipeline
// dead-letters such records; every other store error is retried.
var ErrInvalidData = errors.New("store rejected the data")
