package main

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/store"
	"github.com/freshctx/freshctx/store/pgstore"
	"github.com/freshctx/freshctx/store/rediscache"
)

// Event texts of the seeded timelines: support tickets, orders, refunds, chat.
var seedTemplates = []string{
	"Support ticket T-%d [open, high priority] Refund not received: I returned order O-%d two weeks ago and the money is not back.",
	"Support ticket T-%d [pending] Parcel late: tracking for order O-%d has not moved for four days.",
	"Order O-%d is shipped: %d items, tracking number 00340434%d.",
	"Order O-%d is returned: customer sent back %d items.",
	"Refund R-%d for order O-%d approved: %d.90 EUR to the card on file.",
	"Chat (customer): where is my refund for order O-%d? I sent it back %d days ago.",
	"Chat (customer): can I change the delivery address of order O-%d to my office at %d Main Street?",
	"Payment for order O-%d failed: card declined, %d attempts.",
	"Password reset requested from a new device %d, session %d.",
	"Newsletter subscription confirmed for campaign %d, segment %d.",
}

// seed fills a store and cache with a known load: n events over e entities,
// evenly spread over the span before now, with the recent cache holding the last
// cache window and marked as fed since before it.
func seed(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest seed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "examples/bench.yaml", "freshctx configuration (postgres, redis, api.tenant, embedder.dims)")
	n := fs.Int("events", 1_000_000, "events to create")
	entities := fs.Int("entities", 10_000, "entities (customer:0 … customer:N-1)")
	span := fs.Duration("span", 2*time.Hour, "events are spread evenly over this span before now")
	documents := fs.Int("documents", 1000, "knowledge articles to create (3 chunks each), so answers with knowledge search a real corpus")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load(*cfgPath, func(string) string { return "" })
	if err != nil {
		return err
	}
	if err := resetSchema(ctx, cfg.Postgres.DSN); err != nil {
		return err
	}
	st, err := pgstore.Connect(ctx, cfg.Postgres)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		return err
	}
	emb, err := embed.NewLocalFromConfig(cfg.Embedder)
	if err != nil {
		return err
	}
	if err := st.CheckEmbedding(ctx, emb.Model(), emb.Dims()); err != nil {
		return err
	}
	cache, err := rediscache.New(cfg.Redis)
	if err != nil {
		return err
	}
	defer cache.Close()
	if err := cache.DropAll(ctx); err != nil { // the previous run's cache keys
		return fmt.Errorf("redis: %w", err)
	}

	rng := rand.New(rand.NewPCG(7, 7))
	now := time.Now()
	start := time.Now()
	cutoff := now.Add(-cfg.Redis.Window)
	const batch = 5000
	cached := 0
	for done := 0; done < *n; done += batch {
		m := min(batch, *n-done)
		events := make([]store.Event, m)
		texts := make([]string, m)
		for i := range events {
			id := done + i
			tmpl := seedTemplates[rng.IntN(len(seedTemplates))]
			args := []any{rng.IntN(100000), rng.IntN(100000), rng.IntN(100)}
			texts[i] = fmt.Sprintf(tmpl, args[:strings.Count(tmpl, "%d")]...) // as many numbers as the template takes
			at := now.Add(-time.Duration(float64(*span) * float64(*n-id) / float64(*n)))
			events[i] = store.Event{Source: "seed", Key: fmt.Sprint(id), ID: fmt.Sprint("E-", id), Tenant: cfg.API.Tenant,
				Entity: fmt.Sprint("customer:", id%*entities), Time: at, Text: texts[i], Version: int64(id),
				Provenance: store.Provenance{Topic: "seed", Partition: int32(id % 8), Offset: int64(id / 8)}}
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return err
		}
		var recent []store.Event
		for i := range events {
			events[i].Embedding = vecs[i]
			if events[i].Time.After(cutoff) {
				recent = append(recent, events[i])
			}
		}
		if err := st.LoadEvents(ctx, events); err != nil {
			return err
		}
		if err := cache.Apply(ctx, recent, nil); err != nil {
			return err
		}
		cached += len(recent)
		if (done/batch)%20 == 0 || done+m == *n {
			el := time.Since(start)
			fmt.Fprintf(stdout, "seed: %d/%d events (%.0f/s), %d in the cache\n", done+m, *n, float64(done+m)/el.Seconds(), cached)
		}
	}
	if err := seedKnowledge(ctx, st, emb, cfg.API.Tenant, *documents); err != nil {
		return err
	}
	// The HNSW index `ingest migrate` creates, built after the load (faster).
	if err := st.EnsureChunkIndex(ctx, cfg.Embedder.Dims); err != nil {
		return err
	}
	// The cache holds everything of its window: say so, so it answers alone.
	if err := cache.MarkFedSince(ctx, cutoff.Add(-time.Minute)); err != nil {
		return err
	}
	if err := st.VacuumAnalyze(ctx); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "seed: %d events over %d entities in %v (tenant %s); %d in the Redis window of %v; %d knowledge articles\n",
		*n, *entities, time.Since(start).Round(time.Millisecond), cfg.API.Tenant, cached, cfg.Redis.Window, *documents)
	return nil
}

func firstPathElement(sp string) string {
	for i := 0; i < len(sp); i++ {
		if sp[i] == ',' {
			return sp[:i]
		}
	}
	return sp
}

// Knowledge articles of the seeded corpus: a topic, then three paragraphs.
var seedArticles = []struct{ title, body string }{
	{"Refunds: when the money arrives", "Refunds are issued to the original payment method once the returned parcel is checked. Card refunds take 3 to 5 business days; bank transfers up to 10. Reference %d."},
	{"Returning an item", "Items can be returned within 30 days. Print the label from your order page and drop the parcel at any partner point. Return code RT-%d."},
	{"Late or lost parcels", "If tracking has not moved for 4 days, the carrier opens an investigation. A lost parcel is refunded or sent again. Case %d."},
	{"Changing the delivery address", "An address can be changed until the order is packed. After shipping, ask the carrier for a redirect. Ticket type %d."},
	{"Declined payments", "A card can be declined for insufficient funds, an expired card or a bank security check. Try again or use another method. Error code PAY-%d."},
	{"Account security", "After five wrong passwords the account is locked for 15 minutes. Reset the password from the sign-in page. Policy %d."},
	{"退款到账时间", "退货检查完成后，退款会原路退回。银行卡退款需要3到5个工作日。编号 %d。"},
	{"Subscriptions and newsletters", "Manage newsletters from your profile; unsubscribing takes effect within 24 hours. Campaign %d."},
}

// seedKnowledge writes n knowledge articles of three chunks each (local
// embedder) for tenant, in batches.
func seedKnowledge(ctx context.Context, st *pgstore.Store, emb *embed.Local, tenant string, n int) error {
	rng := rand.New(rand.NewPCG(9, 9))
	const batch = 200
	for done := 0; done < n; done += batch {
		docs := make([]store.Document, min(batch, n-done))
		var texts []string
		for i := range docs {
			a := seedArticles[rng.IntN(len(seedArticles))]
			id := done + i
			d := store.Document{Source: "kb", Key: fmt.Sprint(id), DocID: fmt.Sprint("KB-", id), Tenant: tenant,
				Title: fmt.Sprintf("%s (%d)", a.title, id), Version: 1, Attrs: map[string]any{"category": a.title}}
			for c := 0; c < 3; c++ {
				t := fmt.Sprintf(a.body, rng.IntN(100000))
				h := sha256.Sum256([]byte(d.Title + "\x00" + t))
				d.Chunks = append(d.Chunks, store.Chunk{Text: t, TextHash: h[:16]})
				texts = append(texts, pipeline.ChunkInput(d.Title, t)) // as ingest embeds a chunk
			}
			h := sha256.Sum256([]byte(d.Title))
			d.TextHash = h[:16]
			docs[i] = d
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return err
		}
		for i := range docs {
			for c := range docs[i].Chunks {
				docs[i].Chunks[c].Embedding = vecs[i*3+c]
			}
		}
		if _, err := st.ApplyDocuments(ctx, docs, nil); err != nil {
			return fmt.Errorf("knowledge: %w", err)
		}
	}
	return nil
}

// resetSchema empties the schema named first in the DSN's search_path (drops
// and creates it), so a benchmark has a schema of its own and never touches
// other data. Without a search_path it does nothing.
func resetSchema(ctx context.Context, dsn string) error {
	u, err := url.Parse(dsn)
	if err != nil {
		return nil
	}
	sp := u.Query().Get("search_path")
	if sp == "" {
		return nil
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	schema := pgx.Identifier{firstPathElement(sp)}.Sanitize()
	if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE; CREATE SCHEMA "+schema); err != nil {
		return fmt.Errorf("resetting schema %s: %w", schema, err)
	}
	return nil
}
