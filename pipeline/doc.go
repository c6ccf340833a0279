// Package pipeline is the ingest engine: it moves records from Kafka into the
// vector store and the recent cache. What a record means (sources, mapping,
// templates, chunking) lives in package source; Kafka plumbing (client
// configuration, produce-and-wait, latest reads) in package kafkaio; backfill
// drives this package's Writer from package backfill.
//
// One goroutine owns the confluent-kafka-go consumer and only polls, dispatches
// and manages offsets; it never blocks on downstream work (invariant 4). Records go
// to lanes by a hash of their key, so two changes of one key are processed in
// order by one worker (invariant 3). Each lane worker takes what is queued as a
// batch (up to BatchSize; it flushes as soon as its queue is idle, so latency at
// low rates stays at the floor) and hands it to the Writer: decode and map with
// the source rules, embed only texts whose hash changed (invariant 7), write the
// batch in one store transaction, update the cache; then it acknowledges the
// records with their typed Result.
//
// The offset tracker stores, per partition, only the offset after the contiguous
// acknowledged prefix (invariant 1), and forgets a partition the moment it is
// revoked, so nothing is stored for a partition this process no longer owns.
// In-flight records and bytes are bounded; crossing the high-water mark pauses
// all partitions and they resume below the low-water mark (invariant 5). Records
// that can never succeed go to the DLQ topic with the error and their origin
// (invariant 6); store and embedding failures are retried with backoff.
package pipeline
