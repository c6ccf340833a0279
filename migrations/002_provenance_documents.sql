-- Provenance on every event: where in Kafka it came from, and the trace id the
-- record carried, so an answer can be audited back to the event that fed it.
ALTER TABLE events
    ADD COLUMN kafka_topic     text   NOT NULL DEFAULT '',
    ADD COLUMN kafka_partition int    NOT NULL DEFAULT -1,
    ADD COLUMN kafka_offset    bigint NOT NULL DEFAULT -1,
    ADD COLUMN trace_id        text   NOT NULL DEFAULT '';

-- Knowledge: one row per document (the version guard and delete marker), and its
-- chunks. An update replaces every chunk of the document in one transaction.
CREATE TABLE documents (
    source          text        NOT NULL,
    key             text        NOT NULL,
    tenant          text        NOT NULL,
    doc_id          text        NOT NULL,
    title           text        NOT NULL DEFAULT '',
    attrs           jsonb       NOT NULL DEFAULT '{}',
    text_hash       bytea,
    chunks          int         NOT NULL DEFAULT 0,
    version         bigint      NOT NULL,
    deleted         boolean     NOT NULL DEFAULT false,
    kafka_topic     text        NOT NULL DEFAULT '',
    kafka_partition int         NOT NULL DEFAULT -1,
    kafka_offset    bigint      NOT NULL DEFAULT -1,
    trace_id        text        NOT NULL DEFAULT '',
    written_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source, key)
);

CREATE TABLE document_chunks (
    source     text    NOT NULL,
    key        text    NOT NULL,
    chunk      int     NOT NULL,
    tenant     text    NOT NULL,
    doc_id     text    NOT NULL,
    title      text    NOT NULL DEFAULT '',
    text       text    NOT NULL,
    text_hash  bytea   NOT NULL,
    attrs      jsonb   NOT NULL DEFAULT '{}',
    -- The HNSW index is an expression index on embedding::vector(N), created by
    -- `ingest migrate` for the configured embedding size (freshctx_settings).
    embedding  vector  NOT NULL,
    version    bigint  NOT NULL,
    PRIMARY KEY (source, key, chunk)
);

CREATE INDEX document_chunks_tenant ON document_chunks (tenant);
CREATE INDEX document_chunks_attrs ON document_chunks USING gin (attrs jsonb_path_ops);
