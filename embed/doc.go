// Package embed turns text into vectors.
//
// [Local] is the offline default: deterministic feature hashing of words (minus
// English stop words) and character n-grams, and of CJK characters and
// character pairs, into a fixed number of dimensions, L2-normalised. It is
// lexical, not semantic: "refund" matches "refunds" and "refunded" (shared
// n-grams) but not "money back". It needs no model and no network, answers in
// microseconds, and gives stable vectors across processes and machines, which makes
// it right for development, tests, benchmarks and keyword-heavy support data. Real
// models come through providers configured by the user.
package embed
