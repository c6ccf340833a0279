package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/freshctx/freshctx/store"
)

// Summary returns a session's summary; false if it has none yet.
func (s *Store) Summary(ctx context.Context, tenant, session string) (store.Summary, bool, error) {
	sum := store.Summary{Tenant: tenant, SessionID: session}
	err := s.pool.QueryRow(ctx, `SELECT summary, turns, through, through_at, updated_at FROM session_summaries
		WHERE tenant = $1 AND session_id = $2`, tenant, session).Scan(&sum.Text, &sum.Turns, &sum.Through, &sum.ThroughAt, &sum.UpdatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return sum, false, nil
	}
	if err != nil {
		return sum, false, fmt.Errorf("reading the summary of session %s: %w", session, classify(err))
	}
	return sum, true, nil
}

// SaveSummary stores a summary unless one covering as much (Through) is stored
// already; it reports whether it applied.
func (s *Store) SaveSummary(ctx context.Context, sum store.Summary) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
		INSERT INTO session_summaries (tenant, session_id, summary, turns, through, through_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (tenant, session_id) DO UPDATE SET summary = EXCLUDED.summary, turns = EXCLUDED.turns,
			through = EXCLUDED.through, through_at = EXCLUDED.through_at, updated_at = now()
		WHERE session_summaries.through < EXCLUDED.through`,
		sum.Tenant, sum.SessionID, sum.Text, sum.Turns, sum.Through, sum.ThroughAt)
	if err != nil {
		return false, fmt.Errorf("saving the summary of session %s: %w", sum.SessionID, classify(err))
	}
	return tag.RowsAffected() == 1, nil
}

// Purge deletes a source's events whose event time is before the given time (the
// source's retention). Rows go for good, delete markers included: a replay of
// something this old is purged again by the next run.
func (s *Store) Purge(ctx context.Context, source string, before time.Time) (int64, error) {
	tag, err := s.pool.Exec(ctx, `DELETE FROM events WHERE source = $1 AND event_time < $2`, source, before)
	if err != nil {
		return 0, fmt.Errorf("purging %s: %w", source, classify(err))
	}
	return tag.RowsAffected(), nil
}
