-- Session summaries: one row per conversation, written by the summary builder.
-- "through" is the version (event time, µs) of the newest turn the summary covers;
-- an update applies only when it covers more, so a replay never goes back.
CREATE TABLE session_summaries (
    tenant     text        NOT NULL,
    session_id text        NOT NULL,
    summary    text        NOT NULL,
    turns      int         NOT NULL,  -- turns summarised so far
    through    bigint      NOT NULL,
    through_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, session_id)
);

-- Retention purges by source and event time.
CREATE INDEX events_source_time ON events (source, event_time);
