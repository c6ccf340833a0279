package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/freshctx/freshctx/store"
)

// LoadCheckpoint returns a backfill job's checkpoint; false if the job never ran.
func (s *Store) LoadCheckpoint(ctx context.Context, job string) (store.Checkpoint, bool, error) {
	var c store.Checkpoint
	var counts []byte
	err := s.pool.QueryRow(ctx, `
		SELECT input, position, counts, started_at, updated_at, finished_at IS NOT NULL
		FROM backfill_jobs WHERE name = $1`, job).Scan(&c.Input, &c.Position, &counts, &c.StartedAt, &c.UpdatedAt, &c.Finished)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("loading backfill checkpoint %s: %w", job, classify(err))
	}
	if err := json.Unmarshal(counts, &c.Counts); err != nil {
		return c, false, fmt.Errorf("backfill checkpoint %s: counts: %w", job, err)
	}
	return c, true, nil
}

// SaveCheckpoint writes a backfill job's checkpoint (started_at is kept from the
// first save).
func (s *Store) SaveCheckpoint(ctx context.Context, job string, c store.Checkpoint) error {
	counts, err := json.Marshal(c.Counts)
	if err != nil {
		return err
	}
	var pos any
	if c.Position != nil {
		pos = string(c.Position)
	}
	_, err = s.pool.Exec(ctx, `
		INSERT INTO backfill_jobs (name, input, position, counts, finished_at)
		VALUES ($1, $2, $3::jsonb, $4, CASE WHEN $5 THEN now() END)
		ON CONFLICT (name) DO UPDATE SET input = EXCLUDED.input, position = EXCLUDED.position,
			counts = EXCLUDED.counts, updated_at = now(), finished_at = EXCLUDED.finished_at`,
		job, c.Input, pos, counts, c.Finished)
	if err != nil {
		return fmt.Errorf("saving backfill checkpoint %s: %w", job, classify(err))
	}
	return nil
}

// DeleteCheckpoint forgets a backfill job, so it starts over.
func (s *Store) DeleteCheckpoint(ctx context.Context, job string) error {
	if _, err := s.pool.Exec(ctx, `DELETE FROM backfill_jobs WHERE name = $1`, job); err != nil {
		return fmt.Errorf("deleting backfill checkpoint %s: %w", job, classify(err))
	}
	return nil
}
