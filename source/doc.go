// Package source is what a record means: a source's rules (topic, format, kind,
// templates for id, tenant, entity, text and title, attrs, time, retention,
// chunking) and the Mapper that applies them. Ingest's writer, backfill, the
// session summary builder and the API's latest-records read all map records
// through it, so a record means the same thing to each of them.
package source
