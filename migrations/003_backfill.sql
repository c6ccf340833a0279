-- Backfill jobs: where each job resumes and what it has done so far. A row is
-- written after every fully processed page, in the same order as the page's writes
-- became durable, so a resumed job never skips a record (it may redo one page).
CREATE TABLE backfill_jobs (
    name        text        PRIMARY KEY,
    input       text        NOT NULL,  -- the job's input settings; a resume must match
    position    jsonb,                 -- where to resume; NULL: from the start
    counts      jsonb       NOT NULL DEFAULT '{}',
    started_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
);
