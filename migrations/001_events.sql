-- Events: one row per (source, key), the latest version wins.
-- Deleted rows stay as markers (deleted = true) carrying the delete's version, so a
-- replayed older change cannot resurrect them.
CREATE TABLE events (
    source     text        NOT NULL,
    key        text        NOT NULL,
    id         text        NOT NULL,
    tenant     text        NOT NULL,
    entity     text        NOT NULL,
    event_time timestamptz NOT NULL,
    text       text        NOT NULL,
    attrs      jsonb       NOT NULL DEFAULT '{}',
    fields     jsonb       NOT NULL DEFAULT '{}',
    text_hash  bytea,
    -- No fixed dimension: the entity path ranks exactly (no ANN index); the
    -- embedding model and size in use are recorded in freshctx_settings.
    embedding  vector,
    version    bigint      NOT NULL,
    deleted    boolean     NOT NULL DEFAULT false,
    written_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source, key)
);

-- The entity-window query: WHERE tenant = $1 AND entity = $2 AND event_time >= $3.
CREATE INDEX events_entity_time ON events (tenant, entity, event_time DESC) WHERE NOT deleted;

CREATE TABLE freshctx_settings (
    name  text PRIMARY KEY,
    value text NOT NULL
);
