// Package backfill loads what exists already (a PostgreSQL table or query, JSON
// Lines files, a topic replayed without a consumer group) through the same write
// path as the live stream (pipeline.Writer), with versions below every live
// version (ADR 0007), so a backfill never replaces what ingest wrote and any
// later live change replaces it. Progress is checkpointed per page; a stopped or
// killed job resumes where its last durable page ended.
package backfill
