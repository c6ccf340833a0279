// Package cdc decodes Kafka records into [Change]s: Debezium change-event envelopes
// (JSON converter, with or without schemas.enable; or Avro through a Schema
// Registry, see [Avro]), the flattened output of Debezium's ExtractNewRecordState
// transform, and plain JSON business events.
//
// A Change carries a version that orders changes of one key: the Postgres
// source.lsn, the MySQL binlog position (file, pos, row), else the Kafka offset.
// Writers compare versions so that a replay never regresses state.
//
// Debezium's TOAST placeholder (__debezium_unavailable_value) marks a column whose
// value did not change and was not sent. Decode removes such columns from the row
// and lists them in [Change.Unavailable]; the caller keeps the stored value. The
// placeholder never leaves this package inside a row.
package cdc
