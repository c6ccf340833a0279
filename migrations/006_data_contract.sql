-- The producer's data contract (the ai-ttl, ai-context and ai-provenance
-- headers): when an event's TTL passes (never served after it, purged by
-- ingest), the AI task it is for, and the job that produced it.
ALTER TABLE events
    ADD COLUMN expires_at timestamptz,
    ADD COLUMN context text NOT NULL DEFAULT '',
    ADD COLUMN producer text NOT NULL DEFAULT '';
CREATE INDEX events_expires_at ON events (expires_at) WHERE expires_at IS NOT NULL AND NOT deleted;
