// Package embed turns text into vectors.
//
// [Local] is the offline default: deterministic feature hashing of words (minus
// English stop words) and character n-grams, and of CJK characters and
// character pairs, into a fixed number of dimensions; and, with [WordVectors]
// (the default config's, which `make setup` installs), the sum of the text's
// English words' GloVe vectors in its last dimensions (ADR 0018). The hashed
// part is lexical: "refund" matches "refunds" and "refunded" (shared n-grams)
// but not "money back". The word vectors bring words used in like contexts
// near each other ("refund", "reimbursement"), and related ones too. Either
// way it is a bag of words, not a sentence model. It needs no model and no
// network, answers in microseconds, and gives the same vectors across
// processes and machines that have the same word vectors (the model name
// holds their checksum), which makes it right for development, tests,
// benchmarks and keyword-heavy support data. Real models come through
// providers configured by the user.
package embed
