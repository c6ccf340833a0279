// Package migrations embeds the PostgreSQL schema, applied in file-name order by
// `ingest migrate` (never silently at start-up). Files are named NNN_name.sql;
// each runs in its own transaction and is recorded in freshctx_migrations.
package migrations

import "embed"

// FS holds the migration files.
//
//go:embed *.sql
var FS embed.FS
