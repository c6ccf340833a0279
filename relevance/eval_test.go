package relevance_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/internal/evalset"
	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/relevance"
)

// evaluate ranks every labelled question with w over its case's in-window events
// (as the store would hand them over), with the offline embedder.
func evaluate(t testing.TB, w relevance.Weights) *evalset.Report {
	emb := testenv.LocalEmbedder(t, 384)
	return evaluateWith(t, w, emb)
}

type embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// evaluateWith is evaluate with another embedder (a model provider).
func evaluateWith(t testing.TB, w relevance.Weights, emb embedder) *evalset.Report {
	return evaluateCases(t, w, emb, nil)
}

// evaluateCases is evaluateWith over the labelled cases as edit changes them
// (nil: as they are).
func evaluateCases(t testing.TB, w relevance.Weights, emb embedder, edit func([]evalset.Case) []evalset.Case) *evalset.Report {
	cases, err := evalset.Load()
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		cases = edit(cases)
	}
	return evaluateSet(t, w, emb, cases)
}

// evaluateSet ranks the questions of cases (see evaluate).
func evaluateSet(t testing.TB, w relevance.Weights, emb embedder, cases []evalset.Case) *evalset.Report {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	stats := corpusStats(cases)
	rep := evalset.NewReport()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		var cands []relevance.Candidate
		var ids []string
		for _, e := range c.Events {
			if e.Ago >= evalset.Window {
				continue // outside the window: the store never returns it
			}
			v, err := emb.Embed(context.Background(), []string{e.Text})
			if err != nil {
				t.Fatal(err)
			}
			cands = append(cands, relevance.Candidate{Source: e.Source, Time: now.Add(-time.Duration(e.Ago) * time.Minute), Text: e.Text, Embedding: v[0]})
			ids = append(ids, e.ID)
		}
		for _, q := range c.Questions {
			asked, _ := relevance.Asked(q.Q)
			qv, _ := emb.Embed(context.Background(), []string{asked}) // (as the API embeds it)
			scores, comps := relevance.Score(relevance.NewQuery(q.Q, qv[0]), cands, w, stats, now)
			order := make([]int, len(cands))
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(a, b int) bool {
				if scores[order[a]] != scores[order[b]] {
					return scores[order[a]] > scores[order[b]]
				}
				return cands[order[a]].Time.After(cands[order[b]].Time)
			})
			ranked := make([]string, 0, 5)
			for _, i := range order[:min(5, len(order))] {
				ranked = append(ranked, ids[i])
			}
			rep.Add(c, q, ranked, rng)
			// FRESHCTX_EVAL_MISSES=1 prints the tuning part's weak answers (not
			// the held-back part's: it is not looked at to choose anything);
			// =all prints every case's, for a set of one's own
			// (TestASetOfOnesOwn): a part looked at this way is no longer held back.
			if os.Getenv("FRESHCTX_EVAL_MISSES") != "" && (c.Split == "tune" || os.Getenv("FRESHCTX_EVAL_MISSES") == "all") && evalset.NDCG(ranked, q.Rel, 5) < 0.85 {
				fmt.Printf("\n[%s %s %.2f] %s  rel=%v\n", c.Customer, q.Kind, evalset.NDCG(ranked, q.Rel, 5), q.Q, q.Rel)
				for r, i := range order[:min(6, len(order))] {
					c := comps[i]
					fmt.Printf("   %d %-6s %5.3f ago=%2.0f sim=%.2f(%.2f) lex=%.2f id=%.2f thr=%.2f  %s\n", r+1, ids[i], scores[i], now.Sub(cands[i].Time).Minutes(),
						c.Similarity, c.Cosine, c.Lexical, c.Identifier, c.Thread, cands[i].Text)
				}
			}
		}
	}
	return rep
}

// Quality floors on the labelled set, held-back part included: the build fails
// when a change makes retrieval worse than this. The floors sit a little under
// what the default weights reach (BENCHMARKS.md, Retrieval quality).
func TestRetrievalQuality(t *testing.T) {
	rep := evaluate(t, relevance.DefaultWeights)
	t.Log(rep.Markdown())
	// The ranking before hybrid (similarity + recency), for comparison.
	legacy := relevance.Weights{Similarity: 1, Identifier: 0, Recency: 0.3, RecencyIntent: 0.3, Status: 0.3, HalfLife: 10 * time.Minute}
	t.Log("similarity+recency (before hybrid):" + evaluate(t, legacy).Markdown())
	for _, f := range []struct {
		split, kind, metric string
		min                 float64
	}{
		{"all", "overall", "ndcg", 0.94},
		{"tune", "overall", "ndcg", 0.94},
		{"heldout", "overall", "ndcg", 0.94},
		{"all", "identifier", "mrr", 0.95},
		{"all", "chinese", "ndcg", 0.90},
		{"all", "recency", "ndcg", 0.97},
		{"all", "lexical", "ndcg", 0.96},
		{"all", "paraphrase", "ndcg", 0.87},
	} {
		s := rep.Get(f.split, f.kind)
		got := s.NDCG5
		if f.metric == "mrr" {
			got = s.MRR
		}
		if got < f.min {
			t.Errorf("%s/%s %s = %.3f, below the floor %.3f", f.split, f.kind, f.metric, got, f.min)
		}
	}
	// Paraphrases (no shared words) must at least beat plain newest-first order.
	if p, n := rep.Get("all", "paraphrase").NDCG5, rep.Newest["all"]["paraphrase"]; p <= n.NDCG5/float64(n.N) {
		t.Errorf("paraphrase nDCG@5 %.3f is not above newest-first's %.3f", p, n.NDCG5/float64(n.N))
	}
	if rep.WindowViolations != 0 {
		t.Errorf("%d window violations", rep.WindowViolations)
	}
	if os.Getenv("FRESHCTX_EVAL_PRINT") != "" {
		os.Stdout.WriteString(rep.Markdown())
	}
}

// A set of one's own (docs/evaluation.md) runs in process as the built-in one
// does: FRESHCTX_EVAL_SET names its files or directories (comma-separated);
// without it, the example set does, and hybrid ranks it better than
// newest-first and random order, with no window violation.
func TestASetOfOnesOwn(t *testing.T) {
	// The example sets: examples/evalset.json and examples/evalset-blind.json
	// to -blind-4.json (each written before a round of changes, its totals read
	// as that round's honest figure; since looked at: development sets), and
	// examples/evalset-blind-5.json and -blind-7.json (their totals read, then
	// their misses: development sets), -blind-6.json, -blind-8.json and
	// -blind-9.json (read once as totals, then development sets),
	// -blind-10.json and -blind-11.json (their totals read several times),
	// -blind-12.json and -blind-13.json (written before the 2026-12-02 late
	// stop's changes; only their totals are read), -blind-14.json (written
	// after them, read once; the three read since: development sets),
	// -blind-15.json (written before the 2026-12-03 stop's changes, its totals
	// read after each round), -blind-16.json (written mid-stop, read at its
	// end, then its misses: a development set), -blind-17.json (written after
	// the stop's third round, read once; its misses since: development),
	// -blind-18.json (written before the later 2026-12-03 stop's changes, its
	// totals read twice, then its misses: development), -blind-19.json
	// (written mid-stop, 10 events a customer, read once at its end, then its
	// misses: development), -blind-20.json (written after the stop's rounds,
	// its totals read; its misses read in the night stop: development),
	// -blind-21.json (written before the night stop's changes, its totals read,
	// then its misses: development), -blind-22.json (written mid-stop, its
	// totals read), -blind-23.json (the issue's mix of kinds, written at the
	// stop's end, read once, then as a before/after total), -blind-24.json
	// (written before the morning stop's changes, its totals read),
	// -blind-25.json (written mid-stop, read at its end; the 22nd to 25th
	// since: development sets), -blind-26.json (written before the day stop's
	// changes, its totals read), -blind-27.json (written mid-stop knowing the
	// bridge between English and Chinese, two of its customers across the two,
	// read once at the end), -blind-28.json (written before the 2026-12-03
	// afternoon stop's changes, its totals read), -blind-29.json (written in
	// that stop after its word vectors, read once at its end), -blind-30.json
	// (written at that stop's end, committed unread, read once), -blind-31.json
	// (written before the 2026-12-03 evening stop's changes, committed unread,
	// its totals read), -blind-32.json (written later in that stop, with the
	// ranking unchanged, committed unread, its totals read, then its misses:
	// development), -blind-33.json (written at that stop's end, after its two
	// ranking changes, committed unread, its totals read), -blind-34.json
	// (written before the 2026-12-03 late stop's changes, committed unread),
	// -blind-35.json (written after it, before any change, with busier
	// customers as in #15's description: 7 events a customer, look-alikes;
	// committed unread, its totals read, then its misses: development),
	// -blind-36.json (written at that stop's end, after its ranking changes,
	// committed unread), -blind-37.json (written before the 2026-12-03 midnight
	// stop's changes, committed unread), -blind-38.json (written mid-stop in
	// customers' looser wording: lower case, no question mark, "whats", "the
	// tv thing"; committed unread, its totals read, then its misses:
	// development), -blind-39.json (written at that stop's end, after its
	// changes and knowing them, 6-8 events a customer; committed unread),
	// -blind-40.json, -blind-41.json and -blind-42.json (the last with chat
	// lines: written after it to be read: their first totals, then their
	// misses; development), -blind-43.json (written at that stop's end,
	// knowing its changes, some questions in the forms it added; committed
	// unread, read once, then its misses: development), -blind-44.json
	// (written last, after the changes, with the issue's kinds: neighbouring
	// invoices, "what did I just change?", look-alike parcels; committed
	// unread, read once), -blind-45.json (written after it, identifiers and
	// look-alikes; committed unread, read once), -blind-46.json (written
	// before the changes of stop 47 (2026-12-03), committed unread, read
	// once, a typo mended, then its misses: development), -blind-47.json
	// (written after its first changes, knowing them; committed unread, read
	// once, then its misses: development), -blind-48.json (written mid-stop,
	// knowing its changes; committed unread, read once, then its misses:
	// development), -blind-49.json (written later in stop 47, knowing its
	// changes; committed unread, read once, then its misses: development),
	// -blind-50.json (written late in stop 47, the issue's kinds; committed
	// unread, read once), -blind-51.json (written last in stop 47, after the
	// quantity type and knowing it; committed unread, read once),
	// -blind-52.json (look-alike and two-event questions, written after it to
	// be read once, then as a development set); -blind-53.json (written at
	// the start of stop 48, before any change; committed unread, read once,
	// then its misses: development), -blind-54.json (identifiers as
	// customers type them, written after the first change of stop 48;
	// committed unread, read once, then its misses: development),
	// -blind-55.json (the issue's kinds, bot lines among the events, written
	// mid-stop 48 knowing its changes; committed unread, read once, then its
	// misses: development), -blind-56.json (events as templates render CDC
	// rows, with status values such as "out_for_delivery", written later in
	// stop 48; committed unread, read once, then its misses: development),
	// -blind-57.json (questions that need two events, several asking two
	// things at once, written late in stop 48; committed unread, read once,
	// then its misses: development), -blind-58.json (identifiers of many
	// shapes among look-alikes, written late in stop 48 knowing its changes;
	// committed unread, read once, then its misses: development),
	// -blind-59.json (the issue's kinds, written near the end of stop 48
	// knowing its changes; committed unread, read once, then its misses:
	// development), -blind-60.json (long events: tickets, e-mails, chats,
	// notices of two or three sentences, written after stop 48's review;
	// committed unread, read once, then its misses: development),
	// -blind-61.json (the issue's kinds over ten new businesses, written at
	// the start of stop 49 before any change; committed unread, read once,
	// then its misses: development), -blind-62.json (identifiers among
	// look-alikes, Chinese, written mid-stop 49 knowing its changes;
	// committed unread, read once, then its misses: development),
	// -blind-63.json (the issue's kinds over nine more businesses, written
	// later in stop 49 knowing its changes; committed unread, read once,
	// then its misses: development), -blind-64.json (the issue's kinds over
	// eight more businesses, written after stop 49's word rules; committed
	// unread, read once, then its misses: development), -blind-65.json (the
	// issue's kinds over seven more businesses, written after the newness
	// rule of stop 49 (Weights.Unstated); committed unread, read once,
	// then its misses: development), -blind-66.json (the issue's kinds over
	// five more businesses, written at the end of stop 49; committed unread,
	// read once), -blind-67.json (the issue's kinds over ten more
	// businesses, written at the start of stop 50 before any change;
	// committed unread, read once, then its misses: development),
	// -blind-68.json (ten more, written after stop 50's first changes;
	// committed unread, read once, then its misses: development),
	// -blind-69.json (ten more, written after the changes made from the
	// 68th's misses; committed unread, read once, then its misses:
	// development), -blind-70.json (ten more, written late in stop 50;
	// committed unread, read once, then its misses: development),
	// -blind-71.json (ten more, written to decide one change of stop 50,
	// the story's match added to a later event's own: committed unread,
	// read once with and without it); -blind-72.json (ten more, written at
	// the start of stop 51 before any change), -blind-73.json (ten more, 14
	// identifier questions) and -blind-74.json (ten more, one in Traditional
	// Chinese, some questions as typed in a chat), each committed unread,
	// read once, then its misses: development; -blind-75.json, -76 and -77
	// (eight businesses each, busier windows of six to nine events, more
	// look-alikes and two-event questions), the same way, the 76th written
	// to decide one change of stop 51 and read with and without it;
	// -blind-78.json (the same shape, written at the end of stop 51: its
	// totals read, also with two changes tried, its misses not);
	// -blind-79.json (the same shape, eight to nine events a window, written
	// at the start of stop 52 before any change; committed unread, read
	// once, then its misses: development), -blind-80.json (the same shape,
	// written to decide one change of the fusion: read with and without it,
	// then its misses: development), -blind-81.json (the same shape, written
	// after stop 52's first changes; committed unread, read once, then its
	// misses: development), -blind-82.json (the same shape, written at the
	// end of stop 52 after its changes; committed unread, read once, then
	// its misses: development); -blind-83.json (the same shape, written at
	// the start of stop 53 before any change; committed unread, read once,
	// then its misses: development), -blind-84.json (the same shape, with
	// neighbouring numbers and two-event questions, written after stop 53's
	// first change, which ranks as before; committed unread, read once, then
	// its misses: development), -blind-85.json (the same shape, written at
	// the end of stop 53 after its changes; committed unread, read once,
	// then its misses: development), -blind-86.json (the same shape,
	// written after the 85th's rules, at the very end of stop 53; committed
	// unread, read once, then its misses: development), -blind-87.json (the
	// same shape, written at the start of stop 54 before any change;
	// committed unread, read once, then its misses: development),
	// -blind-88.json (the same shape, written after stop 54's first changes;
	// committed unread, read once, then its misses: development),
	// -blind-89.json (the same shape, more look-alike, recency and
	// identifier questions, written after the 88th's rules; committed unread,
	// read once, then its misses: development), -blind-90.json (the same
	// shape, written after stop 54's fault and negation changes; committed
	// unread, read once, then its misses: development), -blind-91.json (the
	// same shape, written at the end of stop 54 after all its changes;
	// committed unread, read once, then its misses: development),
	// -blind-92.json (the same shape, written at the start of stop 55 before
	// any change; committed unread, read once, then its misses: development),
	// -blind-93.json (the same shape, written after stop 55's first eight
	// changes; committed unread, read once, then its misses: development),
	// -blind-94.json (the same shape, more identifier, recency and unspaced
	// Chinese, written after stop 55's changes but its last; committed unread,
	// read once, then its misses: development), -blind-95.json (the same shape,
	// written at the end of stop 55 after all its changes; committed unread,
	// read once), -blind-96.json (the same shape, written at the start of stop
	// 56 before any change; committed unread, read once, then its misses:
	// development), -blind-97.json (the same shape, written after stop 56's
	// first six changes; committed unread, read once, then its misses:
	// development), -blind-98.json (the same shape, written after stop 56's
	// first eleven changes; committed unread, read once, then its misses:
	// development), -blind-99.json (the same shape, written after stop 56's
	// first sixteen changes; committed unread, read once, then its misses:
	// development), -blind-100.json (the same shape, written after stop 56's
	// first twenty changes; committed unread, read once, then its misses:
	// development), -blind-101.json (the same shape, written after stop 56's
	// first twenty-six changes; committed unread, read once, then its misses:
	// development), -blind-102.json (the same shape, written at the end of
	// stop 56 after all its changes; committed unread, read once),
	// -blind-103.json (the same shape, written at the start of stop 57 before
	// any change; committed unread, read once, then its misses: development),
	// -blind-104.json (the same shape, written after stop 57's first three
	// changes; committed unread, read once, then its misses: development),
	// -blind-105.json (the same shape, written after stop 57's first four
	// changes; committed unread, read once, then its misses: development),
	// -blind-106.json (the same shape, written after stop 57's first nine
	// changes; committed unread, read once, then its misses: development),
	// -blind-107.json (the same shape, written after stop 57's first eleven
	// changes; committed unread, read once, then its misses: development),
	// -blind-108.json (the same shape, written after stop 57's first sixteen
	// changes; committed unread, read once, then its misses: development),
	// -blind-109.json (the same shape, written after stop 57's first eighteen
	// changes; committed unread, read once, then its misses: development),
	// -blind-110.json (the same shape, written after stop 57's first twenty
	// changes; committed unread, read once, then its misses: development),
	// -blind-111.json (the same shape, written after stop 57's first
	// twenty-four changes; committed unread, read once, then its misses:
	// development), -blind-112.json (the same shape, written after stop 57's
	// first twenty-seven changes; committed unread, read once, then its
	// misses: development), -blind-113.json (the same shape, written after
	// stop 57's first twenty-eight changes; committed unread, read once, then
	// its misses: development), -blind-114.json (the same shape, written after
	// stop 57's first twenty-nine changes; committed unread, read once, then
	// its misses: development), -blind-115.json (the same shape, written at
	// the end of stop 57 after all its changes; committed unread, read once),
	// -blind-116.json, -blind-117.json and -blind-118.json (the same shape,
	// written at the start of stop 58 before any change; committed unread,
	// read once, then their misses: development), -blind-119.json (the same
	// shape, written after stop 58's first seven changes; committed unread,
	// read once, then its misses: development), -blind-120.json (the same
	// shape, written after stop 58's first thirteen changes; committed
	// unread, read once, then its misses: development), -blind-121.json (the
	// same shape, written after stop 58's first fifteen changes; committed
	// unread, read once, then its misses: development), -blind-122.json (the
	// same shape, written after stop 58's first twenty changes; committed
	// unread, read once, then its misses: development), -blind-123.json (the
	// same shape, written at the end of stop 58 after all its changes;
	// committed unread, read once, then its misses: development),
	// -blind-124.json to -blind-127.json (the same shape, written at the
	// start of stop 59 before any change; committed unread, read once, then
	// their misses: development), -blind-128.json and -blind-129.json (the
	// same shape, written after stop 59's first eight changes; committed
	// unread, read once, then their misses: development), -blind-130.json
	// and -blind-131.json (the same shape, written after stop 59's first
	// thirteen changes; committed unread, read once, then their misses:
	// development), -blind-132.json and -blind-133.json (the same shape,
	// written after stop 59's first sixteen changes; committed unread, read
	// once, then their misses: development), -blind-134.json and
	// -blind-135.json (the same shape, written after stop 59's nineteen
	// changes; committed unread, read once only), -blind-136.json (the same
	// shape, most questions naming an identifier, whole or in part, typed
	// loosely; written after the nineteen changes, committed unread, read
	// once, then its misses: development), -blind-137.json (the same kind,
	// written after stop 59's twenty-two changes; committed unread, read
	// once), -blind-138.json (the same shape as the 124th, written at the
	// end of stop 59 after all its changes; committed unread, read once
	// only), -blind-139.json (most questions naming an identifier in shapes
	// the 136th and 137th did not: flight numbers, phone numbers, IBANs,
	// plates, flat numbers, long order numbers and their ends; written at the
	// start of stop 60 before any change, committed unread) and
	// -blind-140.json (the same shape as the 124th, written at the start of
	// stop 60 before any change, committed unread; both read once, then
	// their misses: development), -blind-141.json (the 124th's shape) and
	// -blind-142.json (eight events a customer, most questions telling one of
	// two look-alike objects apart), written after stop 60's first six
	// changes (commits; their commit said seven, counting one commit's two
	// parts), committed unread, read once, then their misses: development;
	// -blind-143.json (Chinese written unspaced, as customers and apps write
	// it) and -blind-144.json (events as systems emit them: dotted names,
	// key=value fields, statuses in capitals), written after stop 60's
	// first ten changes (their commit said twelve), committed unread, read
	// once, then their misses: development; -blind-145.json (English:
	// questions asked for someone else, a bot's own lines among the events)
	// and -blind-146.json (Chinese as apps send it, spaced and unspaced:
	// trains, banks, rides, parcels), written after stop 60's first fourteen
	// changes (their commit said nineteen), committed unread, read once, then
	// their misses: development; -blind-147.json (most questions naming an
	// identifier or an amount in yet other shapes: zero-padded case numbers,
	// currency symbols, grouped tracking numbers, flight numbers with a
	// space, versions, "#A7-2210"), written after the same fourteen (its
	// commit said twenty), committed unread, read once, then its misses:
	// development; -blind-148.json (the 124th's shape) and -blind-149.json
	// (eight events a customer, look-alikes and identifiers, English and
	// Chinese), written at the end of stop 60 after seventeen of its
	// eighteen changes, committed unread, read once only (their totals read
	// again after the eighteenth: the same); -blind-150.json (the 36th's
	// shape: twelve businesses, six events each, about a quarter of the
	// questions naming an identifier) and -blind-151.json (most questions
	// naming an identifier as customers shorten it: its last digits, a
	// lower-case or unhyphenated code, "2026/INV/0042"), written at the start
	// of stop 61 before any change, committed unread, read once, then their
	// misses: development; -blind-152.json (most questions naming an
	// identifier in still other shapes: serial numbers, long policy numbers
	// and their ends, booking references, meters, domains, "88 号 订单" for
	// YC20261130-88) and -blind-153.json (the 36th's shape again), written
	// after stop 61's first change, committed unread, read once, then their
	// misses: development; -blind-154.json (most questions naming an
	// identifier: permits, penalty notices, workspaces, grouped UPS numbers
	// and their ends, government case numbers, library loans, water
	// accounts) and -blind-155.json (the 36th's shape), written after stop
	// 61's first eight changes, committed unread, read once, then their
	// misses: development; -blind-156.json (the 36th's shape) and
	// -blind-157.json (most questions naming an identifier: service-desk
	// incidents, Chinese tracking numbers by their ends, IBANs and transfer
	// references, card numbers, projects, claims), written after stop 61's
	// ten changes (eleven commits, one mending another), committed unread,
	// read once only; -blind-158.json (English) and -blind-159.json
	// (Chinese), most questions naming an identifier by a part of it or
	// typed another way (hotel confirmations, phone lines by their ends,
	// policy numbers with slashes, plates, invoices with years, booking
	// references, subscription codes, grouped tracking numbers), written
	// after the same ten, committed unread, read once, then their misses:
	// development; -blind-160.json (English) and -blind-161.json (Chinese),
	// most questions naming an identifier (flights and booking codes, long
	// tracking numbers by their ends, invoices by their last digits, phone
	// numbers spaced differently, repair and claim numbers, bank-card ends,
	// work orders, plates, student numbers) and -blind-162.json (the 36th's
	// shape), written after stop 61, committed unread, read once, then their
	// misses: development; -blind-163.json (the 36th's shape) and
	// -blind-164.json (identifiers: cloud projects and VMs, employee numbers,
	// social-security and housing-fund accounts, event orders, ETC cards and
	// plates, pharmacy orders), written after stop 62's first three changes,
	// committed unread, read once, then their misses: development;
	// -blind-165.json and -blind-166.json (questions whether a thing is done,
	// in English and Chinese, with identifiers: furniture, transfers,
	// helpdesk incidents, parcels sent again, subscriptions, opticians,
	// fees, car services, lockers, bills, train refunds), written after
	// stop 62's first seven changes, committed unread, read once, then their
	// misses: development; -blind-167.json (the 36th's shape: spa bookings,
	// print jobs, a dog sitter, returns, a rented flat's repairs, Chinese
	// laundry, charging and course orders), written after stop 62's nine
	// changes, committed unread, read once, then its misses: development;
	// -blind-168.json (English) and -blind-169.json (Chinese), most
	// questions naming an identifier typed another way (booking codes in
	// lower case, plates without their space, penalty notices and bills by
	// their ends, error codes alone, amounts, microchips, tickets linked
	// to engineering keys; train orders, housing-fund withdrawals, repair
	// and inspection numbers, takeaway orders, parking bays), written
	// before stop 63's changes, committed unread, read once, then their
	// misses: development; -blind-170.json (the 36th's shape: tyre changes,
	// concert orders, a dentist's plan, coworking cards, a language
	// course; Chinese wedding banquets and a car-insurance claim), written
	// after stop 63's first four changes, committed unread, read once, then
	// its misses: development; -blind-171.json (identifiers typed another
	// way: IBANs with and without spaces and by their ends, orders by their
	// last digits or their amount, phone lines in national and
	// international form, booking references in lower case; Chinese orders
	// and patient cards by their ends), written after stop 63's first five
	// changes, committed unread, read once, then its misses: development
	// (two events' phone number, mistyped, mended after the first read);
	// -blind-172.json (identifiers of other shapes: licence keys by their
	// last group, VINs and containers, air waybills with and without their
	// dash, incidents without their zero padding, IMEIs by their ends;
	// Chinese medical-insurance cards), written after stop 63's first
	// nine changes, committed unread, read once, then its misses:
	// development; -blind-173.json (the 36th's shape: Chinese driving
	// school, pet clinic and loan instalments; a gym, EV charging, a tax
	// advisor), written after stop 63's first eleven changes, committed
	// unread, read once, then its misses: development; -blind-174.json
	// (the 36th's shape: solar installation, a visa, a lease return, a
	// school trip; Chinese removals and a passport), written after stop
	// 63's first fifteen changes, committed unread, read once, then its
	// misses: development; -blind-175.json (the 36th's shape, Chinese
	// questions written without spaces: a pharmacy, couriers, a home
	// insurance claim, a dentist, a plumber, a mortgage, a pet sitter,
	// property management, a bike shop, an airline, hosting) and
	// -blind-176.json (the same, more identifier questions: courses,
	// purchase orders, a tour group, an electrician, a vet, car service,
	// a hotel, a subscription, a hospital), written at stop 64's start,
	// committed unread, read once, then their misses: development;
	// -blind-177.json (energy, roaming, Chinese car sharing, a library,
	// Chinese food delivery, travel insurance, movers, Chinese dry
	// cleaning, photo books, coworking) and -blind-178.json (the 36th's
	// shape again, identifiers typed in lower case, apart or without their
	// dash), written after stop 64's first six changes, committed unread,
	// read once, then their misses: development; -blind-179.json
	// (broadband, a card dispute, Chinese returns, train tickets and car
	// insurance, an online course, parking fines, a sofa, concerts, a
	// Chinese pharmacy) and -blind-180.json (identifiers as customers
	// paste them: "#300471", "policy no. 7712-0043", "rc 77310", card
	// ends, a courier number's last group), written after stop 64's
	// first eleven changes, committed unread, read once, then their
	// misses: development; -blind-181.json (the 36th's shape: hearing
	// aids, a Chinese driving school, wholesale, Chinese telecom, tyres,
	// a Chinese hospital, a SaaS workspace, a vet), written after all
	// fifteen of stop 64's changes, committed unread, read once at that
	// stop's end, then its misses: development; -blind-182.json (the 36th's
	// shape: glasses, Chinese parcels, coworking, Chinese home cleaning, an
	// online pharmacy, a Chinese gym, boat rental, Chinese car insurance
	// claims) and -blind-183.json (a bank's cards and transfers, movers,
	// streaming, a kindergarten, printing, a rented flat's repairs, event
	// tickets, solar panels), written at stop 65's start, committed unread,
	// read once, then their misses: development; -blind-184.json (the 36th's
	// shape: furniture, Chinese food delivery, car hire, Chinese property
	// management, a language school, Chinese flights, a domain and mailbox,
	// Chinese broadband) and -blind-185.json (a dentist, a gym, a SIM and
	// number porting, a tax advisor, a hotel, car charging, laundry, a
	// school), written after stop 65's first four changes, committed unread,
	// read once, then their misses: development; -blind-186.json (the 36th's
	// shape: a bike repair, Chinese number porting, catering, a Chinese
	// flat rental, contact lenses, a Chinese course, a boiler service, a
	// Chinese fuel card) and -blind-187.json (a web shop's exchange,
	// contents insurance, physio, a Chinese shop, a car wash, a Chinese
	// repair service, parking permits, Chinese movers), written after stop
	// 65's first eight changes, committed unread, read once, then their
	// misses: development; -blind-188.json (the 36th's shape: a kitchen, a
	// Chinese car insurance claim, holiday flats, Chinese group meals, an
	// office printer, a Chinese pharmacy, broadband, Chinese memberships)
	// and -blind-189.json (identifiers of many kinds: e-mail addresses, phone
	// lines by their last digits, number plates, Chinese invoice numbers,
	// a van rental, subscriptions, Chinese access cards and parking spaces,
	// courses), written after stop 65's first thirteen changes, committed
	// unread, read once, then their misses: development; -blind-190.json
	// (the 36th's shape: a florist, a Chinese maternity nurse, self storage,
	// Chinese piano lessons, a dog sitter, Chinese dry cleaning, energy, a
	// Chinese work visa) and -blind-191.json (look-alike identifiers:
	// invoices, flights, Chinese parcels by their last group, repairs,
	// Chinese transfers, tickets), written after stop 65's first seventeen
	// changes, committed unread, read once, then their misses: development;
	// -blind-192.json (the 36th's shape: a photo book, Chinese furniture,
	// gym classes, a Chinese courier, a vet, Chinese housing fund
	// withdrawals, a web shop, a Chinese school enrolment) and
	// -blind-193.json (recency and look-alike questions: orders, a clinic,
	// Chinese orders, a car service, Chinese parcel lockers, a SaaS plan),
	// written after stop 65's first nineteen changes, committed unread, read
	// once, then their misses: development; -blind-194.json (the 36th's
	// shape: a bike repair, Chinese train tickets, a language school, Chinese
	// property repairs, hearing aids, Chinese phone top-ups, a boat charter,
	// Chinese online courses) and -blind-195.json (identifiers of many kinds:
	// missing-bag reports, prescriptions, a Chinese return by its courier
	// number, meters by their last digits, domain names, Chinese social
	// insurance cases), written after stop 65, committed unread, read once,
	// then their misses: development; -blind-196.json (the 36th's shape: a
	// piano tuner, a Chinese air conditioner's installation, a theatre
	// season ticket, a Chinese health check, cat boarding, a Chinese driving
	// school, a roofer, Chinese broadband moving) and -blind-197.json
	// (identifiers of many kinds: containers, Chinese invoice numbers by
	// their end, licence keys, patient numbers, IBANs by their end, Chinese
	// hospital registrations), written after stop 66's first two changes,
	// committed unread, read once, then their misses: development;
	// -blind-198.json (the 36th's shape: a tailor, a Chinese toothbrush
	// order, coworking, Chinese house cleaning, glasses, Chinese housing
	// fund withdrawals, a print shop, a Chinese car service) and
	// -blind-199.json (identifiers of many kinds: tyre changes and plates,
	// Chinese leases by their end, shop orders, Chinese credit cards by
	// their last digits, gym member numbers by their end, Chinese waybills),
	// written after stop 66's first four changes, committed unread, read
	// once, then their misses: development; -blind-200.json (the 36th's
	// shape: a photo studio, a Chinese renovation, guitar lessons, Chinese
	// group meals, car sharing, a Chinese coding class, a pool service, a
	// Chinese phone repair) and -blind-201.json (identifiers of many kinds:
	// warranty claims by their end, Chinese traffic fines, server names,
	// Chinese clinic numbers by their last three, booking references,
	// Chinese electricity accounts written in groups), written after stop
	// 66's changes and its review, committed unread, read once, then their
	// misses: development; -blind-202.json (the 36th's shape: dog grooming,
	// a Chinese driving school, a visa application, Chinese building
	// repairs, furniture delivery, a Chinese vet, solar panels, a Chinese
	// used car, a wedding venue, a Chinese tax refund) and -blind-203.json
	// (identifiers of many kinds: parcel lockers by their end, Chinese
	// mortgages, dental patient numbers, Chinese waybills in groups, domain
	// names, Chinese car insurance, e-ticket numbers by their end, Chinese
	// social security cards, leave requests, Chinese game orders), written
	// before stop 67's first change, committed unread, read once, then their
	// misses: development; -blind-204.json (the 36th's shape: a boat hire, a
	// Chinese house move, glasses, Chinese garden care, a car lease, a Chinese
	// accounting course, a print job, a Chinese eye clinic, a piano rental, a
	// Chinese health check) and -blind-205.json (identifiers of many kinds:
	// returns by their end, Chinese credit cards by their last digits,
	// incident numbers typed short, Chinese waybills by their end, repair
	// jobs, Chinese medical claims by their end, cloud project names, Chinese
	// leases by their end, claims by their end, Chinese fuel cards by their
	// last digits), written after stop 67's first two changes, committed
	// unread, read once, then their misses: development; -blind-206.json (the
	// 36th's shape: a fitted kitchen, a Chinese hotel, maths tutoring, a
	// Chinese new car, a campsite, a Chinese renovation, a stairlift, a
	// Chinese parcel sent, fibre broadband, Chinese dog boarding) and
	// -blind-207.json (identifiers of many kinds: tyre storage, Chinese
	// transfers by account ends, event orders by their end, Chinese freight
	// by its end, licence keys by their last group, Chinese phone numbers by
	// their end, vet patient files, Chinese fee slips by their end, shop
	// orders, Chinese transit cards by their end), written after stop 67's
	// first seven changes, committed unread, read once, then their misses:
	// development; -blind-208.json (the 36th's shape: a puppy course, a
	// Chinese car rental, a photo book, a Chinese maternity nurse, a class
	// pass, a Chinese car service, a Spanish course, a Chinese exam, a
	// move, Chinese broadband) and -blind-209.json (identifiers of many
	// kinds: library items by their end, Chinese social insurance slips by
	// their end, lab orders, Chinese parking spaces, employee numbers,
	// Chinese prescriptions by their end, vehicle numbers by their end,
	// Chinese tours by their end, member cards by their end, Chinese
	// invoices by their end), written after stop 67's first eleven changes
	// and the mend of the first, committed unread, read once, then their
	// misses: development; -blind-210.json and -blind-212.json (the 36th's
	// shape: a piano tuning, a Chinese kindergarten, a boat hire, a Chinese
	// interior design, catering, Chinese wedding photos, a bike repair, a
	// Chinese flight change, concert seats, a Chinese phone repair; a
	// kitchen, Chinese house cleaning, a camp pitch, a Chinese cake, an eye
	// clinic, Chinese swimming lessons, printing, a Chinese study-abroad
	// agency, pet sitting, Chinese broadband) and -blind-211.json and
	// -blind-213.json (identifiers of many kinds, mostly named by their
	// end: prescriptions, Chinese waybills in groups, servers, Chinese cards
	// by their last four, registrations, Chinese housing fund claims, car
	// sharing trips, Chinese hospital numbers in groups, desk contracts,
	// Chinese fuel cards; phone lines, Chinese traffic records, inbound
	// shipments, Chinese invoice numbers, school trip forms, Chinese flats,
	// artworks, Chinese course orders, vans, Chinese water accounts),
	// written at stop 68's start, committed unread, read once, then their
	// misses: development; -blind-214.json and -blind-216.json (the 36th's
	// shape: a roof repair, a Chinese vocational course, dog boarding, a
	// Chinese sofa, maths tutoring, a Chinese new car, picture framing, a
	// Chinese show, windows, a Chinese nanny; a party, a Chinese flat, a
	// garden job, a Chinese dentist, a van rental, Chinese piano lessons, a
	// boiler service, a Chinese takeaway, glasses, a Chinese move) and
	// -blind-215.json and -blind-217.json (identifiers of many kinds,
	// mostly named by their end: booking references, Chinese electricity
	// accounts in groups, bike service tickets, Chinese health checks,
	// museum tickets, Chinese charging orders, policies, Chinese hotel
	// orders in groups, subscriptions, Chinese waybills in groups; parking
	// permits, Chinese after-sales tickets, vet patients, Chinese mortgages,
	// hotel reservations, Chinese school fee slips, router orders, Chinese
	// driving licence files, room bookings, Chinese payslips), written after
	// stop 68's first eleven changes, committed unread, read once, then
	// their misses: development; -blind-218.json and -blind-220.json (the
	// 36th's shape: a chimney sweep, Chinese deep cleaning, e-bike hire, a
	// Chinese renovation, a recital, a Chinese hotel, gutters, Chinese
	// coding lessons, a ski school, a Chinese camera repair; a pool service,
	// a Chinese group lunch, a wedding venue, a Chinese cleaner, a scooter
	// repair, a Chinese tour, piano lessons, a Chinese plumber, a car
	// subscription, Chinese swimming lessons) and -blind-219.json and
	// -blind-221.json (identifiers of many kinds, mostly named by their end:
	// storage units, Chinese transit cards in groups, appointments, Chinese
	// service orders, shop orders, Chinese leases, festival passes, Chinese
	// hospital checks, meters, Chinese waybills in groups; memberships,
	// Chinese transfers, train tickets, Chinese social security cards in
	// groups, pet policies, Chinese orders in groups, invoices, Chinese
	// takeaway orders in groups, cloud projects, Chinese car rentals in
	// groups), written after stop 68's nineteenth change and the mend of
	// its seventh, committed unread, read once, then their misses:
	// development; -blind-222.json and -blind-224.json (the 36th's shape: a
	// dog walker, a Chinese training course, a glazier, a Chinese property
	// repair, a pottery course, a Chinese parcel in groups, a surf camp, a
	// Chinese renovation, a choir, a Chinese pet hotel; movers, a Chinese
	// maternity nurse, a climbing pass, Chinese broadband, a maths tutor, a
	// Chinese driving school, a cake order, Chinese deep cleaning, glasses,
	// a Chinese health check) and -blind-223.json and -blind-225.json
	// (identifiers of many kinds, mostly named by their end: concert
	// tickets, Chinese medical claims in groups, lockers, Chinese orders,
	// patent applications, Chinese social insurance accounts, containers,
	// Chinese exam numbers, licence keys, Chinese fuel cards; domains,
	// Chinese waybills in groups, meeting rooms, Chinese housing fund loans,
	// bike rentals, Chinese electricity accounts, shop orders, Chinese
	// hospital registrations, van plates, Chinese school fee slips), written
	// at the start of stop 69, committed unread, read once, then their
	// misses: development; -blind-226.json and -blind-228.json (the 36th's
	// shape: a gardener, a Chinese move, violin lessons, a Chinese car wash
	// card, a printer lease, a Chinese pharmacy order, a kennel, Chinese
	// personal training, a hotel, a Chinese air conditioner repair; a
	// photographer, Chinese dry cleaning, an electrician, a Chinese hotel, a
	// flower subscription, a Chinese bridal make-up, scaffolding, a Chinese
	// hospital escort, a coding bootcamp, Chinese fitted furniture) and
	// -blind-227.json and -blind-229.json (identifiers of many kinds, mostly
	// named by their end: insurance claims, Chinese takeaway orders in
	// groups, laptop serials, Chinese plates, booking references, Chinese
	// water meters, returns, Chinese invoice requests, truck plates, Chinese
	// car policies; parcels, Chinese traffic records, support tickets,
	// Chinese property tickets, members, Chinese credit cards by their end,
	// gas meters, Chinese charging orders in groups, enrolments, Chinese
	// concert tickets), written after stop 69's fourth change, committed
	// unread, read once, then their misses: development; -blind-230.json
	// and -blind-232.json (the 36th's shape: a carpenter, Chinese baby
	// classes, a spa, Chinese furniture assembly, a bike fitting, a Chinese
	// sofa, a tiler, a Chinese grocery order, a DJ, Chinese picture framing;
	// a roofer, Chinese swimming lessons, catering, a Chinese car service,
	// French lessons, a Chinese fridge, a pet sitter, Chinese piano practice,
	// a gym, a Chinese group deal) and -blind-231.json and -blind-233.json
	// (identifiers of many kinds, mostly named by their end: prescriptions,
	// Chinese vehicle transfers, access points, Chinese deposits in groups,
	// invoices, Chinese gas accounts in groups, key cards, Chinese flight
	// orders in groups, flats, Chinese freight; SIM cards in groups, Chinese
	// table orders, shop orders, Chinese repair tickets in groups, berths,
	// Chinese phone repairs, visas, Chinese stored-value cards in groups,
	// databases, Chinese train tickets in groups), written after stop 69's
	// eighth change, committed unread, read once, then their misses:
	// development; -blind-234.json and -blind-236.json (the 36th's shape: a
	// locksmith, a Chinese dentist, bike hire, a Chinese phone top-up, a
	// recording studio, Chinese property fees, a boat trip, a Chinese
	// banquet, a chimney inspection, a Chinese camera rental; a painter, a
	// Chinese gardener, car detailing, Chinese calligraphy lessons, a hot
	// tub, a Chinese washing machine, theatre tickets, Chinese
	// physiotherapy, a fence, a Chinese guesthouse) and -blind-235.json and
	// -blind-237.json (identifiers of many kinds, mostly named by their
	// end: warranty claims, Chinese waybills in groups, conference badges,
	// Chinese medical cards in groups, forklifts, Chinese wedding packages,
	// bank accounts in groups, Chinese uniform orders, seat licenses,
	// Chinese parking spaces; pallets, Chinese transit cards in groups,
	// legal cases, Chinese car washes in groups, ferry tickets, Chinese
	// e-invoices in groups, subscriptions, Chinese hospital checks in
	// groups, domains, Chinese broadband accounts in groups), written after
	// stop 69's thirteenth change, committed unread and read once (the
	// fourteenth, made after, leaves them as read);
	// -blind-238.json and -blind-240.json (the 36th's shape: window
	// cleaning, a Chinese removal, dog grooming, a Chinese dentist, a tailor,
	// a Chinese car rental, a roofer, a Chinese exam, Spanish lessons, a
	// Chinese hotel; a locksmith, a Chinese photo studio, a personal
	// trainer, Chinese home cleaning, furniture assembly, Chinese cat
	// boarding, festival tickets, a Chinese driving school, solar panels,
	// a Chinese laundry) and -blind-239.json and -blind-241.json
	// (identifiers of many kinds, mostly named by their end: parcel
	// lockers, Chinese train tickets in groups, insurance policies, Chinese
	// medical cards in groups, library loans, Chinese property accounts,
	// tool rentals, Chinese phone numbers in groups, customs declarations,
	// Chinese transfers in groups; hotel bookings, Chinese waybills in
	// groups, licence keys, Chinese student numbers in groups, rental
	// bikes, Chinese parking permits, lab samples, Chinese gas accounts in
	// groups, warranty claims, Chinese court cases), written at the start
	// of stop 70 and committed unread, read once, then their misses:
	// development; -blind-242.json and -blind-244.json (the 36th's shape: a
	// plumber, a Chinese maternity nurse, a cake, a Chinese kitchen
	// renovation, guitar lessons, a Chinese health check, a car service, a
	// Chinese sofa, a photo shoot, a Chinese course; an electrician, a
	// Chinese study trip, dog boarding, a Chinese car policy, flowers,
	// Chinese broadband, movers, a Chinese housekeeper, glasses, a Chinese
	// banquet) and -blind-243.json and -blind-245.json (identifiers of many
	// kinds, mostly named by their end: concert tickets, Chinese social
	// security cards in groups, servers, Chinese fuel cards in groups, club
	// members, Chinese leases, containers, Chinese tuition slips in groups,
	// tablets by IMEI, Chinese patient cards in groups; gift cards in
	// groups, Chinese electricity accounts in groups, routers by MAC,
	// Chinese vehicles by VIN, bank accounts in groups, Chinese waybills in
	// groups, booking references, Chinese certificates, expense claims,
	// Chinese water accounts in groups), written after stop 70's eighth
	// change and committed unread, read once, then their misses:
	// development; -blind-246.json and -blind-248.json (the 36th's shape:
	// carpet cleaning, a Chinese vet, a bike repair, Chinese tea, a
	// dentist, Chinese kitchen fitting, a hot tub, Chinese dance lessons,
	// blinds, a Chinese piano rental; a gardener, a Chinese wedding,
	// a laptop repair, Chinese swimming lessons, a caterer, a Chinese air
	// conditioner repair, e-bike hire, a Chinese guesthouse, facade
	// painting, a Chinese courier) and -blind-247.json and -blind-249.json
	// (identifiers of many kinds, mostly named by their end: shop orders,
	// Chinese housing fund accounts in groups, parcels in groups, Chinese
	// door cards, repair jobs, Chinese staff numbers, season tickets,
	// Chinese delivery orders in groups, driver cards, Chinese web orders
	// in groups; subscriptions, Chinese traffic fines by their last two,
	// stock items by their end, Chinese gas meters in groups, flight
	// bookings, Chinese expense claims, meters in groups, Chinese hospital
	// stays in groups, support cases, Chinese broadband accounts in
	// groups), written after stop 70's fifteenth change and committed
	// unread, read once, then their misses: development; -blind-250.json and
	// -blind-252.json (the 36th's shape: a chimney sweep, Chinese flower
	// baskets, a private sauna, a Chinese driving school, flyers, Chinese
	// curtains, a recording studio, a Chinese car service, canoes, Chinese
	// after-school care; a pool service, a Chinese family photo, a wedding
	// cake, a Chinese office lease, a piano move, a Chinese hotel, a
	// kitchen, a Chinese water heater repair, bike hire, Chinese piano
	// lessons) and -blind-251.json and -blind-253.json (identifiers of many
	// kinds, mostly named by their end: returns, Chinese waybills in groups,
	// voucher codes, Chinese tax returns in groups, asset tags, Chinese
	// credit cards by their last four, storage boxes, Chinese appliance
	// orders in groups, pet chips in groups, Chinese visa applications;
	// invoices, Chinese hospital checks in groups, SIM cards, Chinese
	// parking spaces, domains, Chinese office equipment, parcels in groups,
	// Chinese member cards in groups, van rentals, Chinese broadband
	// accounts in groups), written after stop 70's twenty-first change,
	// committed unread and read once only; -blind-254.json and
	// -blind-256.json (the 36th's shape: a handyman, Chinese early
	// education, a printer repair, Chinese dog grooming, driving lessons, a
	// Chinese massage, pest control, a Chinese body shop, a venue, a Chinese
	// removal; a fence, a Chinese wedding dress, contact lenses, a Chinese
	// beauty salon, a gym, Chinese bookkeeping, a sailing trip, a Chinese
	// maternity nurse, gutters, a Chinese summer camp) and -blind-255.json
	// and -blind-257.json (identifiers of many kinds, mostly named by their
	// end: support tickets, Chinese residence permits, debit cards by their
	// last four, Chinese show tickets in groups, fleet vans, Chinese gym
	// cards in groups, train bookings, Chinese water accounts in groups,
	// camera rentals, Chinese repair slips in groups; insurance claims,
	// Chinese tuition bills in groups, database hosts, Chinese battery
	// rentals, key cards, Chinese ride orders by their last two, share
	// orders, Chinese prescriptions in groups, parking permits, Chinese
	// freight in groups), written after stop 70's twenty-second change and
	// committed unread, read once, then their misses: development;
	// -blind-258.json and -blind-260.json (the 36th's shape: bathroom tiling,
	// Chinese go lessons, a van rental, a Chinese phone repair, bread, a
	// Chinese insurance policy, a DJ, a Chinese specialist appointment,
	// alterations, a Chinese wardrobe; a sofa, a Chinese new-year dinner, a
	// courier, Chinese maths tutoring, an end-of-tenancy clean, a Chinese
	// mattress, a campsite, a Chinese cake, a holiday flat, Chinese glasses)
	// and -blind-259.json and -blind-261.json (identifiers of many kinds,
	// mostly named by their end: invoices, Chinese waybills in groups,
	// company cars, Chinese fuel cards in groups, certificates, Chinese
	// medical claims in groups, cloud buckets, Chinese flats, tours, Chinese
	// parking bills in groups; shop orders, Chinese electricity accounts in
	// groups, licences, Chinese student cards by their last two, tickets,
	// Chinese flight orders by their last two, gas meters in groups, Chinese
	// passports, domains, Chinese campus cards), written after stop 70's
	// twenty-fifth change, committed unread and read once only (the
	// twenty-sixth, made after, leaves them as read);
	// -blind-262.json and -blind-264.json (the 36th's shape: a birthday
	// cake, a Chinese removal, physiotherapy, Chinese house cleaning, a boat
	// hire, a Chinese bathroom renovation, piano lessons, a Chinese hotel, a
	// car service, a Chinese courier; a photo shoot, a Chinese maternity
	// nurse, a vet, a Chinese driving school, an office lunch, a Chinese
	// health check, a bike repair, a Chinese meeting room, a babysitter, a
	// Chinese flat let) and -blind-263.json and -blind-265.json (identifiers
	// of many kinds: returns, Chinese medical cards in groups, domains,
	// Chinese number plates, containers with a check digit, Chinese student
	// numbers, API keys, Chinese housing-fund accounts, help-desk tickets,
	// Chinese shop codes; invoices by year and month, Chinese registration
	// slips, access points, Chinese barcodes, charter flights, Chinese
	// policies, laptop serials, Chinese parking bays, employees, Chinese
	// purchase contracts), written at stop 71's start and committed unread
	// (the 264th and 265th read once after its third change, then
	// development sets);
	// -blind-266.json and -blind-268.json (the 36th's shape: a kitchen, a
	// Chinese yoga course, window repairs, a Chinese car service, a city
	// tour, a Chinese dentist, dog walking, a Chinese guesthouse, picture
	// framing, a Chinese removal; floor sanding, Chinese personal training,
	// a kids' party, a Chinese air-conditioner fitting, a tailor, Chinese
	// study abroad, office cleaning, a Chinese driving test, a piano move, a
	// Chinese banquet) and -blind-267.json and -blind-269.json (identifiers
	// of many kinds: shop orders, Chinese waybills in groups, certificates,
	// Chinese social-security cards in groups, e-bikes, Chinese invoices in
	// groups, virtual machines, Chinese household numbers, pallets, Chinese
	// chassis numbers; leases, Chinese cards by their last four,
	// repositories, Chinese registration slips, parcels by their end,
	// Chinese student numbers, mailboxes, Chinese orders, sensors, Chinese
	// passports), written after stop 71's seventh change, committed unread
	// and read once only after its eleventh;
	// -blind-270.json and -blind-272.json (the 36th's shape: puppy classes,
	// a Chinese removal, window cleaning, a Chinese dental cleaning, lunch
	// boxes, a Chinese car hire, a boiler service, a Chinese English
	// course, a hotel, a Chinese courier; piano tuning, a Chinese washing
	// machine repair, a yoga retreat, a Chinese home chef, kayak hire,
	// Chinese calligraphy, an EV charger, a Chinese karaoke room, bathroom
	// tiling, Chinese pet grooming) and -blind-271.json and -blind-273.json
	// (identifiers of many kinds: refunds, Chinese medical cards in groups,
	// MAC addresses, Chinese train tickets, purchase orders, Chinese
	// property certificates, air waybills, Chinese ticket orders, CI
	// builds, Chinese credit cards; help-desk tickets, Chinese water
	// accounts, IP addresses, Chinese driving licence files, factory
	// batches, Chinese broadband accounts, gift cards, Chinese hospital
	// admissions, VINs, Chinese appointment numbers), written at stop 72's
	// start and committed unread;
	// -blind-274.json (the 36th's shape: a chimney sweep, Chinese pet
	// boarding, a bike repair, a Chinese air-conditioner fitting, a wedding
	// shoot, a Chinese car-wash card, a roof repair, a Chinese maternity
	// nurse, e-scooter hire, a Chinese print shop) and -blind-275.json
	// (identifiers of many kinds: flight booking codes, Chinese bank
	// transfer serials, laptop serials, Chinese e-invoices, domains, Chinese
	// parking cards, parcels, Chinese phone numbers, leases, Chinese
	// hospital registrations), written at stop 73's start, committed unread
	// and read once only, as proof, after its changes;
	// -blind-276.json to -blind-279.json, -blind-282.json and -blind-283.json (the 36th's shape again,
	// identifier questions most: a tailor, a Chinese courier, piano tuning,
	// a Chinese health check, coworking desks, a Chinese phone repair, bike
	// hire, a Chinese lease, domains, a Chinese driving school; a vet, Chinese
	// appliances, a gym, Chinese credit cards, a print shop, Chinese exams,
	// car hire, Chinese home cleaning, software licences, a Chinese hospital;
	// furniture, Chinese property fees, flights, Chinese classes, insurance
	// claims, Chinese food delivery, servers, a Chinese maternity nurse, a
	// library, Chinese fuel cards; an optician, Chinese traffic fines, a
	// SaaS subscription, Chinese broadband, catering, a Chinese pharmacy,
	// parking permits, Chinese tours, bank transfers, a Chinese laundry;
	// movers, a Chinese hotel, phone lines, Chinese electricity, appliance
	// repair; a school trip, a Chinese vet, energy contracts, a Chinese
	// beauty card, a warehouse),
	// written at stop 74 and read at once,
	// each to find what fails on questions no change was made for:
	// development sets;
	// -blind-280.json and -blind-281.json (the same shape: a dentist, Chinese
	// renovation, coach tickets, a Chinese courier, pet insurance; Chinese
	// transit cards, a hotel, Chinese grocery delivery, a courier, a Chinese
	// gym), written at stop 74 after the first changes, committed unread and
	// read once only, as proof, after its changes;
	// -blind-284.json to -blind-289.json (the 36th's shape: a dentist,
	// Chinese flights, a gym, Chinese property repairs, car hire; insurance
	// claims, Chinese food delivery, movers, Chinese renovation, servers;
	// a lab, Chinese home cleaning, a library, Chinese social insurance,
	// printing; a wedding venue, Chinese charging, visas, a Chinese optician,
	// SaaS; parking, a Chinese hotel, bike repair, Chinese exams, a pharmacy;
	// phone lines, a Chinese courier, catering, a Chinese dentist, solar),
	// written at stop 75 and read at once: development sets;
	// -blind-292.json to -blind-297.json (the same shape: furniture, Chinese
	// broadband, an accountant, a Chinese courier, cleaning; flights, a
	// Chinese hospital, a vet, Chinese housing funds, coworking; returns,
	// Chinese fuel cards, events, Chinese classes, storage units; a bank,
	// a Chinese lease, an IT helpdesk, Chinese car insurance, a tailor;
	// water, Chinese traffic fines, a photographer, a Chinese hairdresser,
	// licences; groceries, Chinese utilities, a car service, a Chinese
	// pharmacy, a hotel), written mid-stop 75 after its first changes and
	// read at once: development sets;
	// -blind-298.json to -blind-303.json (the same shape again: parcels by
	// their numbers' tails, Chinese bank transfers, gym courses, Chinese
	// appliance repairs, tyres; home insurance, Chinese broadband installs,
	// a travel agency, Chinese pupils, databases; school lunch accounts, a
	// Chinese courier, a boiler contract, a Chinese driving school, a robot
	// mower; a lease, Chinese top-ups, pet insurance, Chinese credit cards,
	// bike share; a web shop, Chinese health checks, temp work, Chinese
	// house viewings, a conference; energy, Chinese table bookings, repairs,
	// Chinese furniture delivery, streaming), written later in stop 75 and
	// read at once: development sets;
	// -blind-304.json to -blind-306.json (the same shape, Chinese written
	// unspaced as people type it: Chinese parcels, a Chinese hospital, a
	// Chinese lease, Chinese food delivery, Chinese utilities; phone lines,
	// flights, a gym, a parcel, a dentist; Chinese warranty repairs, a
	// Chinese driving school, Chinese pet boarding, car hire, a mortgage),
	// written late in stop 75 and read at once: development sets;
	// -blind-307.json and -blind-308.json (the same shape: piano lessons,
	// Chinese home cleaning, a laptop repair, Chinese member cards, movers'
	// storage; Chinese train tickets, printing, a Chinese clinic, broadband,
	// a Chinese courier), written after stop 75's changes, committed unread
	// and read once only, as proof;
	// -blind-309.json and -blind-310.json (the same shape: a tailor, a
	// Chinese car wash card, ski hire, a Chinese water filter install, a
	// photo shoot; a boiler service, a Chinese pet hospital, a coworking
	// desk, a Chinese phone repair, a bike courier), written in stop 76
	// after its first two changes and read at once: development sets;
	// -blind-311.json and -blind-312.json (the same shape: a language
	// school, Chinese house viewings, a tyre hotel, a Chinese tea shop,
	// camera hire; furniture assembly, Chinese piano tuning, a marina berth,
	// Chinese kindergarten fees, a storage unit), written after stop 76's
	// first two changes, committed unread and read once as proof, then
	// development sets;
	// -blind-313.json and -blind-314.json (the same shape: an optician, a
	// Chinese driving school, a warehouse's inbound deliveries, Chinese car
	// insurance, catering; gym classes, a Chinese courier, a pet health
	// plan, Chinese property repairs, car sharing), written after stop 76's
	// third change, committed unread and read once as proof, then
	// development sets;
	// -blind-315.json to -blind-318.json (the same shape: a library, a
	// Chinese hospital, broadband, a Chinese driving school, coworking; a
	// pharmacy, a Chinese renovation, flights, a Chinese social security
	// card, a boiler service; a mobile line, a Chinese courier, a vet, Chinese
	// electricity, a hotel; a bike repair, a Chinese credit card, tickets,
	// Chinese movers, a SaaS workspace), written in stop 77 after its first
	// change, committed unread and read once as proof, then development
	// sets;
	// -blind-319.json and -blind-320.json (the same shape: streaming, Chinese
	// home cleaning, a courier, a Chinese school, car hire; a dentist, a
	// Chinese exam, invoices, a Chinese charging point, furniture), written
	// after stop 77's third change, committed unread and read once as proof
	// after its fourth, then development sets;
	// -blind-321.json and -blind-322.json (the same shape: a plumber, Chinese
	// property fees, flights, a Chinese phone plan, bike share; a garage, a
	// Chinese training school, a pharmacy, a Chinese water bill, concert
	// tickets), written after stop 78's second change, committed unread and
	// read once as proof, then development sets;
	// -blind-323.json and -blind-324.json (the same shape: a car park, a
	// Chinese driving school, a hotel, Chinese broadband, a dog sitter; home
	// insurance claims, a Chinese hospital, a print shop, Chinese gas, a
	// gym), written after stop 78's fourth change, committed unread and read
	// once as proof, then development sets;
	// -blind-325.json and -blind-326.json (the same shape: a bike workshop,
	// Chinese home cleaning, a mobile line, Chinese parking spaces, an event
	// hall; a vet, a Chinese courier, a laundry, a Chinese school, self
	// storage), written after stop 78's eighth change, committed unread and
	// read once as proof, then development sets;
	// -blind-327.json and -blind-328.json (the same shape: a dentist, Chinese
	// returns, a car wash plan, a Chinese flight, a coworking space;
	// furniture, Chinese property repairs, a phone repair, a Chinese licence
	// renewal, a cinema pass), written after stop 79's fourth change,
	// committed unread and read once as proof, then development sets;
	// -blind-329.json and -blind-330.json (the same shape: a roofer, a
	// Chinese hospital, a bike lease, Chinese broadband, sports tickets; a
	// locksmith, a Chinese courier, music lessons, a Chinese restaurant
	// booking, returns), written after stop 79's eighth change, and
	// -blind-331.json and -blind-332.json (a driving school, a Chinese health
	// check, a spa, Chinese EV charging, a photo studio; an electrician, a
	// Chinese flat rental, a language app, Chinese food delivery, a wedding
	// venue), written after its eleventh, each pair committed unread and read
	// once as proof, then development sets;
	// -blind-333.json and -blind-334.json (a yoga studio, a Chinese hotel, a
	// tyre change, a Chinese phone repair, catering; a boat tour, a Chinese
	// courier, a dog sitter, Chinese piano lessons, an escape room), written
	// after stop 80's headcount reading, committed unread and read once as
	// proof, then development sets; -blind-335.json and -blind-336.json
	// (invoices and a ticket, a Chinese social security card, a bike shop, a
	// Chinese driving school, flights; an insurance claim, Chinese property
	// repairs, a gym, Chinese furniture, car hire), written after its
	// cause-found reading, the same; -blind-337.json and -blind-338.json (a
	// mobile contract, a Chinese hospital booking, a laundry, a Chinese flat
	// rental, a conference; Chinese food delivery, a pharmacy, Chinese
	// broadband, movers, a vet), written after its fourth reading, the same;
	// -blind-339.json (Chinese online shopping, Chinese property repairs, a
	// Chinese fuel card, printing, Chinese traffic fines), its Chinese
	// written without spaces, after its sixth, the same;
	// -blind-340.json and -blind-341.json (a tailor, a Chinese car-wash
	// membership, a ferry, Chinese kindergarten fees, cloud storage; a
	// heating repair, a Chinese train rebooking, a tyre hotel, a Chinese
	// hotel, photo prints), written after stop 81's third reading, the same;
	// -blind-342.json and -blind-343.json (a locksmith, Chinese school fees,
	// a car-wash subscription, a Chinese courier, coworking; Chinese
	// property repairs, a bike rental, a Chinese group tour, a pharmacy, an
	// accountant), written after its ninth, the same;
	// -blind-344.json and -blind-345.json (a vet clinic, a Chinese gym,
	// furniture delivery, Chinese gas bills, a language school; a dry
	// cleaner, Chinese phone repair, concert tickets, a Chinese flat rental,
	// a car inspection), written after stop 82's third reading, the same;
	// -blind-346.json and -blind-347.json (a mobile plan, a Chinese courier,
	// gym classes, a Chinese driving school, car rental; an insurance claim,
	// Chinese food delivery, laptop repair, a Chinese hospital, an event
	// venue), written before stop 83's first reading, the same;
	// -blind-348.json and -blind-349.json (a chimney sweep, a Chinese
	// coworking desk, bike sharing, Chinese appliance repair, a photo
	// studio; a Chinese group tour, a plumber, a Chinese exam, a web shop
	// exchange, a daycare place), written after its fifth reading, the same;
	// -blind-350.json to -blind-355.json (the 36th held-out set's shape:
	// a dentist, a Chinese parking space, a coworking room, a Chinese phone
	// repair, a delayed bag, a Chinese tutor; a pharmacy, a Chinese car
	// rental, solar feed-in, a Chinese swimming class, a print shop,
	// movers; a vet, a Chinese courier, a home insurance claim, a Chinese
	// eye clinic, a gym, a Chinese water bill; a mobile line, Chinese food
	// delivery, a car service, Chinese home cleaning, a library, a Chinese
	// gas meter; a hotel, a Chinese car repair, a SaaS workspace, a Chinese
	// coding class, self storage, a Chinese kindergarten; a bank card, a
	// Chinese hotel, a pet insurance claim, Chinese building repairs, a
	// freelancer's projects, a Chinese gym), two written before stop 84's
	// first reading, two after it, two after its fourth, the same;
	// -blind-356.json and -blind-357.json (an optician, a Chinese social
	// security card, theatre tickets, a Chinese lunch order, car sharing, a
	// Chinese flat viewing; broadband, a Chinese orthopaedic visit, a van
	// rental, a Chinese sofa order, a language school, a Chinese gas
	// account), written at stop 84's end, the same;
	// -blind-358.json and -blind-359.json (a pharmacy, a Chinese driving
	// school, a gym, Chinese broadband, dog grooming, a Chinese used car;
	// movers, a Chinese courier, a dentist, Chinese home cleaning,
	// coworking, a Chinese flat rental), written at stop 85's start, before
	// any change, the same;
	// -blind-360.json and -blind-361.json (a locksmith, a Chinese health
	// check, a bike repair, a Chinese fuel card, a hotel, Chinese
	// renovation; streaming, a Chinese online pharmacy, a gardener, Chinese
	// lift repairs, a web shop, a Chinese coding class), written after stop
	// 85's first reading, the same;
	// -blind-362.json and -blind-363.json (a car wash, a Chinese exam, a
	// kitchen fitter, a Chinese water bill, a pet hotel, Chinese glasses;
	// coworking, Chinese cleaning, a bike shop, a Chinese cardiology visit,
	// a home insurance claim, a Chinese fuel card; the 363rd with a few chat
	// messages of two sentences), written at stop 85's end, the same;
	// -blind-364.json and -blind-365.json (a car lease, Chinese broadband, a
	// vet, a Chinese bank transfer, a storage unit, a Chinese school; a
	// language course, a Chinese pharmacy, movers, Chinese parcels, a gym, a
	// Chinese cleaner; their Chinese unspaced, as it is typed), written at
	// stop 86, the same;
	// -blind-366.json and -blind-367.json (a car claim, a Chinese dentist, a
	// bike rental, a Chinese flight, a meal box, Chinese water and power; an
	// electrician, a Chinese hotel, a library, a Chinese tax refund, a phone
	// repair, a Chinese parcel; Chinese unspaced), written later in stop 86,
	// the same;
	// -blind-368.json and -blind-369.json (furniture, a Chinese course, a
	// mobile line, a Chinese car service, concert tickets, a Chinese flat; a
	// health claim, Chinese food delivery, a hotel, a Chinese phone repair,
	// parking fines, a Chinese gastroscopy; questions typed as people do:
	// "status pls", "what's the deal with …"), written later in stop 86,
	// the same;
	// -blind-370.json and -blind-371.json (a pharmacy, a Chinese coding
	// class, fibre internet, Chinese car insurance, dog walks, a Chinese dry
	// cleaner; a tax advisor, a Chinese lift repair, a team dinner, a Chinese
	// sofa, car sharing, a Chinese health check; many typed without a
	// question mark), written at stop 86's end, the same;
	// -blind-372.json and -blind-373.json (a flight, a Chinese exam, a
	// gardener, a Chinese credit card, a vet, a Chinese community class;
	// movers, a Chinese car repair, a software workspace, Chinese groceries,
	// physio, a Chinese leak), written after those, the same;
	// -blind-374.json (two look-alike objects per customer: two orders, two
	// Chinese parcels, two hotel rooms, two Chinese credit cards, two
	// support tickets, two Chinese air conditioners), written last, the same;
	// -blind-375.json to -blind-378.json (the 36th's shape, Chinese
	// unspaced, two look-alike objects for most customers: a pharmacy, a
	// Chinese laundry, coworking, a Chinese health check; tyres, two Chinese
	// parcels, a language school, two Chinese repairs; a festival, a Chinese
	// fuel card, an IT helpdesk, a Chinese flat; a bike repair, a Chinese
	// cleaner, parking permits, a Chinese coding class), written at stop 87
	// after its changes, committed unread and read once as proof;
	// -blind-379.json and -blind-380.json (the same shape: opticians, Chinese
	// broadband, car hire, a Chinese hospital; movers, a Chinese vet, home
	// insurance, a Chinese transit card), written at stop 87's end after the
	// 375th-378th became development sets, committed unread, read once;
	// -blind-381.json to -blind-386.json (the same shape, spaced and unspaced
	// Chinese: boat hire, a Chinese driving test, a software licence,
	// Chinese property repairs; ticket resale, a Chinese health check, a
	// laundry subscription, a Chinese parcel; physiotherapy, a Chinese flat,
	// a parcel at customs, a Chinese dry cleaner; personal training, a
	// Chinese fuel card, web hosting, a Chinese hospital; bike leasing, a
	// Chinese restaurant booking, a vet, Chinese electricity; cancelled
	// concert tickets, a Chinese renovation, a rail pass, Chinese
	// kindergarten fees), written at stop 88's start before any change,
	// committed unread and read once as proof;
	// -blind-387.json to -blind-390.json (the same shape: a car wash, Chinese
	// broadband, a visa, Chinese home cleaning; a printer lease, Chinese
	// traffic fines, a hotel, a Chinese pet hotel; solar panels, a Chinese
	// credit card, coworking, a Chinese exam; furniture, a Chinese housing
	// loan, a SaaS workspace, a Chinese parcel), written at stop 88 after its
	// first changes, committed unread and read once as proof (with the
	// stop's start build too);
	// -blind-391.json to -blind-394.json (the same shape: a kitchen fitting,
	// a Chinese car insurance claim, tutoring, a Chinese water meter; a
	// mobile contract, a Chinese eye clinic, a van rental, a Chinese web
	// shop exchange; a roofer, a Chinese driving school, library loans,
	// Chinese lift repairs; pet insurance, a Chinese courier, a gym, a
	// Chinese car rental), written at stop 88's end after its changes,
	// committed unread and read once as proof (with the stop's start build
	// too);
	// -blind-395.json and -blind-396.json (the same shape: windows, a
	// Chinese coding class, a parcel at a pick-up station, a Chinese charging
	// order; a dentist, a Chinese car service, broadband, a Chinese tour),
	// written at stop 88's end after the 391st-394th became development sets,
	// committed unread and read once as proof;
	// -blind-397.json to -blind-400.json (the same shape, spaced and unspaced
	// Chinese: an online pharmacy, Chinese property repairs, a gym, a Chinese
	// courier; a hotel, a Chinese driving school, a car insurance claim, a
	// Chinese water bill; a laptop repair, a Chinese health check, a rented
	// flat, Chinese appliances; a flight, Chinese home cleaning, streaming,
	// Chinese parking), written at stop 89's start before any change,
	// committed unread and read once as proof;
	// -blind-401.json to -blind-404.json (the same shape: a bike repair, a
	// Chinese phone plan, a language course, a Chinese hospital visit; a dog
	// groomer, a Chinese car rental, electricity, Chinese train tickets;
	// furniture, a Chinese online course, a travel insurance claim, a Chinese
	// car-wash card; concert tickets, Chinese food delivery, a dentist, a
	// Chinese parcel), written mid-stop 89 after its first eight changes,
	// committed unread and read once as proof (with the stop's start build
	// too);
	// -blind-405.json to -blind-408.json (the same shape: a plumber, Chinese
	// broadband, a hotel, a Chinese dermatology visit; a pet insurance claim,
	// a Chinese sofa, a software workspace, a Chinese driving school; movers,
	// Chinese property fees and repairs, library loans, a Chinese pet
	// clinic; a car service, a Chinese phone repair, a cooking workshop, a
	// Chinese group tour), written late in stop 89, committed unread and
	// read once at its end as proof (with the stop's start build too);
	// -blind-409.json to -blind-412.json (the same shape: a car insurance
	// claim, Chinese property repairs, an evening course, a Chinese hospital
	// visit; a flight, a Chinese parcel, a gym, a Chinese bank transfer; a
	// hotel, a Chinese restaurant booking, IT support, a Chinese driving
	// school; furniture, a Chinese return, a phone line, a Chinese kitchen
	// renovation), written at stop 90's start before any change, committed
	// unread and read once as proof;
	// -blind-413.json to -blind-416.json (the same shape: a car rental,
	// Chinese broadband, a vet, Chinese flight tickets; a plumber, a Chinese
	// gym, a bank card, Chinese movers; a pharmacy, a Chinese insurance
	// claim, a school trip, a Chinese flat let; concert tickets, Chinese
	// home cleaning, a meal kit, a Chinese online course), written mid-stop
	// 90 after its first changes, committed unread and read once at its end
	// as proof (with the stop's start build too);
	// -blind-417.json to -blind-420.json (the same shape: a locksmith, a
	// Chinese dry cleaner, a marina berth, a Chinese laptop repair; a
	// cleaning crew, Chinese car charging, a visa, a Chinese health check; a
	// florist, a Chinese coding class, self storage, Chinese food delivery;
	// a tailor, a Chinese parking card, a photo shoot, a Chinese flat
	// viewing), written late in stop 90, committed unread and read once at
	// its end as proof (with the stop's start build too);
	// -blind-421.json to -blind-424.json (the same shape: an optician, a
	// Chinese guesthouse, solar panels, a Chinese gas account; piano
	// lessons, Chinese home cleaning, coworking, a Chinese optician; pest
	// control, a Chinese maternity nurse, a translation, a Chinese print
	// shop; a roofer, a Chinese wedding planner, bike share, Chinese pet
	// boarding), written at stop 91's start before any change, committed
	// unread and read once as proof;
	// -blind-425.json to -blind-428.json (the same shape: hearing aids,
	// Chinese social insurance, a driving school, a Chinese fuel card; a
	// kitchen fitter, a Chinese parcel, a yoga studio, a Chinese car repair;
	// a carpet cleaner, Chinese broadband, a caterer, a Chinese phone
	// repair; a gardener, a Chinese court booking, winter tyres, Chinese
	// school fees), written mid-stop 91 after its first changes, committed
	// unread and read once at its end as proof (with the stop's start build
	// too);
	// -blind-429.json to -blind-432.json (the same shape: windows, a
	// Chinese course, a vet clinic, Chinese freight; movers, a Chinese lift
	// repair, home insurance, a Chinese driving school; an e-bike repair, a
	// Chinese hospital visit, a hotel, a Chinese kitchen renovation; a
	// printer ticket, a Chinese car rental, a news subscription, a Chinese
	// express parcel), written late in stop 91 (no question asking why a
	// thing costs more, the kind the stop had just read), committed unread
	// and read once at its end as proof (with the stop's start build too);
	// -blind-433.json and -blind-434.json (the same shape: a dental crown,
	// a Chinese water account, a laptop repair, a Chinese gym card; concert
	// tickets, a Chinese washer repair, a parking permit, a Chinese flight),
	// written after stop 91's first CI, before its last changes, committed
	// unread and read once at its end as proof (with the stop's start build
	// too);
	// -blind-435.json to -blind-438.json (the same shape: a dry cleaner, a
	// Chinese electricity account, a furniture delivery, a Chinese train
	// ticket; a pharmacy, a Chinese building repair, a car lease, a Chinese
	// food delivery; a locksmith, a Chinese tutor, a swimming pool, a
	// Chinese phone plan; photo prints, a Chinese bank card, a boiler
	// service, a Chinese hotel), written at stop 92's start before any
	// change, committed unread and read once as proof;
	// -blind-439.json to -blind-442.json (the same shape: a car wash, a
	// Chinese return, a piano tuner, a Chinese gas account; a wedding
	// photographer, a Chinese health check, a scooter rental, a Chinese
	// flat let; a dog groomer, a Chinese school bus, a ski rental, Chinese
	// housekeeping; a tailor, a Chinese pharmacy, solar panels, a Chinese
	// courier), written mid-stop 92 after its first changes, committed
	// unread and read once at its end as proof (with the stop's start build
	// too), then development sets from stop 93;
	// -blind-443.json to -blind-446.json (the same shape: a dentist, movers,
	// a Chinese driving school, a laptop repair; a Chinese health check, a
	// wine club, a Chinese flight, a vet; a library loan, a Chinese flat
	// let, a bike service, a Chinese food delivery; a gardener, a Chinese
	// gym card, an insurance claim, Chinese housekeeping), written at stop
	// 93's start before any change, read once as proof, then development;
	// -blind-447.json to -blind-450.json (the same shape: a hairdresser, a
	// Chinese pet boarding, a car hire, a Chinese phone repair; a Chinese
	// kitchen refit, a storage unit, a Chinese building's fees, a caterer;
	// a Chinese car insurance claim, a yoga pass, a Chinese car service, a
	// print shop; a Chinese air conditioner fitting, a boat hire, a Chinese
	// hospital visit, a shoe return), written mid-stop 93 after its first
	// changes, committed unread and read once at its end as proof (with the
	// stop's start build too);
	// -blind-451.json to -blind-454.json (the same shape: a physiotherapist,
	// a Chinese e-bike order, piano lessons, a Chinese fridge repair; a
	// Chinese study-abroad application, an optician, a Chinese restaurant
	// booking, moving boxes; a bike lease, a Chinese flat let, a cinema, a
	// Chinese school enrolment; a Chinese freight delivery, a furniture
	// assembly, a Chinese water bill, a conference), written after stop
	// 93's first CI, committed unread and read once at its end as proof
	// (with the stop's start build too);
	// -blind-455.json to -blind-458.json (the same shape: Chinese movers, a
	// drone repair, a Chinese home charger fitting, a language school; a
	// tattoo booking, a Chinese taxi's lost phone, a camping rental, a
	// Chinese cosmetics order; a bakery order, a Chinese electrician, a car
	// inspection, a Chinese tour; a phone contract, a Chinese appliance
	// recycling, a laundry subscription, a Chinese banquet hall), written
	// at stop 94's start before any change, read once as proof, then
	// development;
	// -blind-459.json to -blind-462.json (the same shape: a window cleaner, a
	// Chinese broadband line, a vet's surgery, a Chinese courier; a Chinese
	// furniture order, a swimming club, a Chinese dentist, a car hire; a
	// personal trainer, a Chinese appliance repair, a festival, a Chinese
	// passport renewal; an electricity account, a Chinese weekend course, a
	// piano tuning, a Chinese credit card), written mid-stop 94 after its
	// first changes, committed unread and read once at its end as proof
	// (with the stop's start build too);
	// -blind-463.json to -blind-466.json (the same shape: a Chinese damp wall,
	// a bike courier, a Chinese clinic visit, a photo book; a spa hotel, a
	// Chinese washing machine repair, removals, a Chinese web shop return; a
	// Chinese traffic fine appeal, a dog school, a Chinese air conditioner
	// fitting, a software licence; a Chinese kitchen refit, a car wash
	// plan, a Chinese hotel, a home insurance claim), written after stop
	// 94's end figures and first CI, committed unread and read once at its
	// end as proof (with the stop's start build too), development from
	// stop 95;
	// -blind-467.json to -blind-470.json (the same shape: a Chinese courier
	// pickup, a personal training pack, a Chinese parking complaint, a
	// software licence; a Chinese dry cleaner, a vet visit, a Chinese exam
	// course, a freight shipment; a Chinese car hire, a dental plan, a
	// Chinese outpatient claim, a coworking desk; a Chinese broadband fault,
	// a bike repair, a Chinese hospital appointment, a house move), written
	// at stop 95's start before any change, read once as proof, then
	// development;
	// -blind-471.json to -blind-474.json (the same shape: a Chinese sofa
	// order, piano lessons, a Chinese water bill, a campsite; a Chinese
	// accounting course, a laptop repair, a Chinese food delivery, a gym
	// membership; a Chinese tour, a car service, a Chinese phone plan,
	// wedding photos; a Chinese eye test, a pet insurance, a Chinese house
	// move, a library loan), written mid-stop 95 after its first changes
	// (avoiding the kinds they mended), committed unread and read once at
	// its end as proof (with the stop's start build too);
	// -blind-475.json to -blind-478.json (the same shape: a Chinese fridge
	// delivery, a hotel group booking, a Chinese driving test, a bike lease;
	// a Chinese home cleaning, a solar installation, a Chinese cat's
	// surgery, a concert; a Chinese flat rental, a tailor, a Chinese driving
	// school, a cloud server; a Chinese courier, a dog walker, a Chinese
	// mortgage, a museum membership), written after stop 95's end figures
	// and first CI, committed unread and read once at its end as proof
	// (with the stop's start build too);
	// -blind-290.json and -blind-291.json (the same shape: theatre tickets,
	// a Chinese laundry, recruiting, Chinese insurance claims, a gardener;
	// a kindergarten, Chinese movers, a marina, Chinese online classes, pest
	// control), written at stop 75's start, committed unread and read once
	// only, as proof, after its changes;
	// examples/evalset-messages.json (chat messages of several sentences,
	// their context naming what they are about: written at stop 85 after
	// the reading of such messages, Asked; Weights.Context chosen on its
	// tune half: development);
	// examples/evalset-identifiers.json,
	// examples/evalset-recency.json, examples/evalset-lookalike.json and
	// examples/evalset-multi.json (identifier, recency, look-alike and
	// two-event questions, written to find what fails: development sets);
	// examples/evalset-crosslang.json (questions in one language over events
	// in the other, written after the bridge between them: development).
	// docs/evaluation.md.
	sets := [][]string{{"../examples/evalset.json"}, {"../examples/evalset-blind.json"}, {"../examples/evalset-blind-2.json"}, {"../examples/evalset-blind-3.json"},
		{"../examples/evalset-blind-4.json"}, {"../examples/evalset-blind-5.json"}, {"../examples/evalset-blind-6.json"},
		{"../examples/evalset-blind-7.json"}, {"../examples/evalset-blind-8.json"},
		{"../examples/evalset-blind-9.json"}, {"../examples/evalset-blind-10.json"},
		{"../examples/evalset-blind-11.json"}, {"../examples/evalset-blind-12.json"},
		{"../examples/evalset-blind-13.json"}, {"../examples/evalset-blind-14.json"}, {"../examples/evalset-blind-15.json"},
		{"../examples/evalset-blind-16.json"}, {"../examples/evalset-blind-17.json"}, {"../examples/evalset-blind-18.json"},
		{"../examples/evalset-blind-19.json"}, {"../examples/evalset-blind-20.json"}, {"../examples/evalset-blind-21.json"},
		{"../examples/evalset-blind-22.json"}, {"../examples/evalset-blind-23.json"}, {"../examples/evalset-blind-24.json"}, {"../examples/evalset-blind-25.json"},
		{"../examples/evalset-blind-26.json"}, {"../examples/evalset-blind-27.json"}, {"../examples/evalset-blind-28.json"},
		{"../examples/evalset-blind-29.json"}, {"../examples/evalset-blind-30.json"},
		{"../examples/evalset-blind-31.json"}, {"../examples/evalset-blind-32.json"},
		{"../examples/evalset-blind-33.json"}, {"../examples/evalset-blind-34.json"},
		{"../examples/evalset-blind-35.json"}, {"../examples/evalset-blind-36.json"},
		{"../examples/evalset-blind-37.json"}, {"../examples/evalset-blind-38.json"},
		{"../examples/evalset-blind-39.json"}, {"../examples/evalset-blind-40.json"},
		{"../examples/evalset-blind-41.json"}, {"../examples/evalset-blind-42.json"},
		{"../examples/evalset-blind-43.json"}, {"../examples/evalset-blind-44.json"},
		{"../examples/evalset-blind-45.json"}, {"../examples/evalset-blind-46.json"},
		{"../examples/evalset-blind-47.json"}, {"../examples/evalset-blind-48.json"},
		{"../examples/evalset-blind-49.json"}, {"../examples/evalset-blind-50.json"},
		{"../examples/evalset-blind-51.json"}, {"../examples/evalset-blind-52.json"},
		{"../examples/evalset-blind-53.json"}, {"../examples/evalset-blind-54.json"},
		{"../examples/evalset-blind-55.json"}, {"../examples/evalset-blind-56.json"},
		{"../examples/evalset-blind-57.json"}, {"../examples/evalset-blind-58.json"},
		{"../examples/evalset-blind-59.json"}, {"../examples/evalset-blind-60.json"},
		{"../examples/evalset-blind-61.json"}, {"../examples/evalset-blind-62.json"},
		{"../examples/evalset-blind-63.json"}, {"../examples/evalset-blind-64.json"},
		{"../examples/evalset-blind-65.json"}, {"../examples/evalset-blind-66.json"},
		{"../examples/evalset-blind-67.json"}, {"../examples/evalset-blind-68.json"},
		{"../examples/evalset-blind-69.json"}, {"../examples/evalset-blind-70.json"},
		{"../examples/evalset-blind-71.json"}, {"../examples/evalset-blind-72.json"},
		{"../examples/evalset-blind-73.json"}, {"../examples/evalset-blind-74.json"},
		{"../examples/evalset-blind-75.json"}, {"../examples/evalset-blind-76.json"},
		{"../examples/evalset-blind-77.json"}, {"../examples/evalset-blind-78.json"},
		{"../examples/evalset-blind-79.json"}, {"../examples/evalset-blind-80.json"}, {"../examples/evalset-blind-81.json"},
		{"../examples/evalset-blind-82.json"}, {"../examples/evalset-blind-83.json"},
		{"../examples/evalset-blind-84.json"}, {"../examples/evalset-blind-85.json"},
		{"../examples/evalset-blind-86.json"}, {"../examples/evalset-blind-87.json"},
		{"../examples/evalset-blind-88.json"}, {"../examples/evalset-blind-89.json"},
		{"../examples/evalset-blind-90.json"}, {"../examples/evalset-blind-91.json"},
		{"../examples/evalset-blind-92.json"}, {"../examples/evalset-blind-93.json"},
		{"../examples/evalset-blind-94.json"}, {"../examples/evalset-blind-95.json"},
		{"../examples/evalset-blind-96.json"}, {"../examples/evalset-blind-97.json"},
		{"../examples/evalset-blind-98.json"}, {"../examples/evalset-blind-99.json"},
		{"../examples/evalset-blind-100.json"}, {"../examples/evalset-blind-101.json"},
		{"../examples/evalset-blind-102.json"}, {"../examples/evalset-blind-103.json"},
		{"../examples/evalset-blind-104.json"}, {"../examples/evalset-blind-105.json"},
		{"../examples/evalset-blind-106.json"}, {"../examples/evalset-blind-107.json"},
		{"../examples/evalset-blind-108.json"}, {"../examples/evalset-blind-109.json"},
		{"../examples/evalset-blind-110.json"}, {"../examples/evalset-blind-111.json"},
		{"../examples/evalset-blind-112.json"}, {"../examples/evalset-blind-113.json"},
		{"../examples/evalset-blind-114.json"}, {"../examples/evalset-blind-115.json"},
		{"../examples/evalset-blind-116.json"}, {"../examples/evalset-blind-117.json"},
		{"../examples/evalset-blind-118.json"}, {"../examples/evalset-blind-119.json"},
		{"../examples/evalset-blind-120.json"}, {"../examples/evalset-blind-121.json"},
		{"../examples/evalset-blind-122.json"}, {"../examples/evalset-blind-123.json"},
		{"../examples/evalset-blind-124.json"}, {"../examples/evalset-blind-125.json"},
		{"../examples/evalset-blind-126.json"}, {"../examples/evalset-blind-127.json"},
		{"../examples/evalset-blind-128.json"}, {"../examples/evalset-blind-129.json"},
		{"../examples/evalset-blind-130.json"}, {"../examples/evalset-blind-131.json"},
		{"../examples/evalset-blind-132.json"}, {"../examples/evalset-blind-133.json"},
		{"../examples/evalset-blind-134.json"}, {"../examples/evalset-blind-135.json"},
		{"../examples/evalset-blind-136.json"}, {"../examples/evalset-blind-137.json"},
		{"../examples/evalset-blind-138.json"}, {"../examples/evalset-blind-139.json"},
		{"../examples/evalset-blind-140.json"}, {"../examples/evalset-blind-141.json"},
		{"../examples/evalset-blind-142.json"}, {"../examples/evalset-blind-143.json"},
		{"../examples/evalset-blind-144.json"}, {"../examples/evalset-blind-145.json"},
		{"../examples/evalset-blind-146.json"}, {"../examples/evalset-blind-147.json"},
		{"../examples/evalset-blind-148.json"}, {"../examples/evalset-blind-149.json"},
		{"../examples/evalset-blind-150.json"}, {"../examples/evalset-blind-151.json"},
		{"../examples/evalset-blind-152.json"}, {"../examples/evalset-blind-153.json"},
		{"../examples/evalset-blind-154.json"}, {"../examples/evalset-blind-155.json"},
		{"../examples/evalset-blind-156.json"}, {"../examples/evalset-blind-157.json"},
		{"../examples/evalset-blind-158.json"}, {"../examples/evalset-blind-159.json"},
		{"../examples/evalset-blind-160.json"}, {"../examples/evalset-blind-161.json"},
		{"../examples/evalset-blind-162.json"}, {"../examples/evalset-blind-163.json"},
		{"../examples/evalset-blind-164.json"}, {"../examples/evalset-blind-165.json"},
		{"../examples/evalset-blind-166.json"}, {"../examples/evalset-blind-167.json"},
		{"../examples/evalset-blind-168.json"}, {"../examples/evalset-blind-169.json"},
		{"../examples/evalset-blind-170.json"}, {"../examples/evalset-blind-171.json"},
		{"../examples/evalset-blind-172.json"}, {"../examples/evalset-blind-173.json"},
		{"../examples/evalset-blind-174.json"}, {"../examples/evalset-blind-175.json"},
		{"../examples/evalset-blind-176.json"}, {"../examples/evalset-blind-177.json"},
		{"../examples/evalset-blind-178.json"}, {"../examples/evalset-blind-179.json"},
		{"../examples/evalset-blind-180.json"}, {"../examples/evalset-blind-181.json"},
		{"../examples/evalset-blind-182.json"}, {"../examples/evalset-blind-183.json"},
		{"../examples/evalset-blind-184.json"}, {"../examples/evalset-blind-185.json"},
		{"../examples/evalset-blind-186.json"}, {"../examples/evalset-blind-187.json"},
		{"../examples/evalset-blind-188.json"}, {"../examples/evalset-blind-189.json"},
		{"../examples/evalset-blind-190.json"}, {"../examples/evalset-blind-191.json"},
		{"../examples/evalset-blind-192.json"}, {"../examples/evalset-blind-193.json"},
		{"../examples/evalset-blind-194.json"}, {"../examples/evalset-blind-195.json"},
		{"../examples/evalset-blind-196.json"}, {"../examples/evalset-blind-197.json"},
		{"../examples/evalset-blind-198.json"}, {"../examples/evalset-blind-199.json"},
		{"../examples/evalset-blind-200.json"}, {"../examples/evalset-blind-201.json"},
		{"../examples/evalset-blind-202.json"}, {"../examples/evalset-blind-203.json"},
		{"../examples/evalset-blind-204.json"}, {"../examples/evalset-blind-205.json"},
		{"../examples/evalset-blind-206.json"}, {"../examples/evalset-blind-207.json"},
		{"../examples/evalset-blind-208.json"}, {"../examples/evalset-blind-209.json"},
		{"../examples/evalset-blind-210.json"}, {"../examples/evalset-blind-211.json"},
		{"../examples/evalset-blind-212.json"}, {"../examples/evalset-blind-213.json"},
		{"../examples/evalset-blind-214.json"}, {"../examples/evalset-blind-215.json"},
		{"../examples/evalset-blind-216.json"}, {"../examples/evalset-blind-217.json"},
		{"../examples/evalset-blind-218.json"}, {"../examples/evalset-blind-219.json"},
		{"../examples/evalset-blind-220.json"}, {"../examples/evalset-blind-221.json"},
		{"../examples/evalset-blind-222.json"}, {"../examples/evalset-blind-223.json"},
		{"../examples/evalset-blind-224.json"}, {"../examples/evalset-blind-225.json"},
		{"../examples/evalset-blind-226.json"}, {"../examples/evalset-blind-227.json"},
		{"../examples/evalset-blind-228.json"}, {"../examples/evalset-blind-229.json"},
		{"../examples/evalset-blind-230.json"}, {"../examples/evalset-blind-231.json"},
		{"../examples/evalset-blind-232.json"}, {"../examples/evalset-blind-233.json"},
		{"../examples/evalset-blind-234.json"}, {"../examples/evalset-blind-235.json"},
		{"../examples/evalset-blind-236.json"}, {"../examples/evalset-blind-237.json"},
		{"../examples/evalset-blind-238.json"}, {"../examples/evalset-blind-239.json"},
		{"../examples/evalset-blind-240.json"}, {"../examples/evalset-blind-241.json"},
		{"../examples/evalset-blind-242.json"}, {"../examples/evalset-blind-243.json"},
		{"../examples/evalset-blind-244.json"}, {"../examples/evalset-blind-245.json"},
		{"../examples/evalset-blind-246.json"}, {"../examples/evalset-blind-247.json"},
		{"../examples/evalset-blind-248.json"}, {"../examples/evalset-blind-249.json"},
		{"../examples/evalset-blind-250.json"}, {"../examples/evalset-blind-251.json"},
		{"../examples/evalset-blind-252.json"}, {"../examples/evalset-blind-253.json"},
		{"../examples/evalset-blind-254.json"}, {"../examples/evalset-blind-255.json"},
		{"../examples/evalset-blind-256.json"}, {"../examples/evalset-blind-257.json"},
		{"../examples/evalset-blind-258.json"}, {"../examples/evalset-blind-259.json"},
		{"../examples/evalset-blind-260.json"}, {"../examples/evalset-blind-261.json"},
		{"../examples/evalset-blind-262.json"}, {"../examples/evalset-blind-263.json"},
		{"../examples/evalset-blind-264.json"}, {"../examples/evalset-blind-265.json"},
		{"../examples/evalset-blind-266.json"}, {"../examples/evalset-blind-267.json"},
		{"../examples/evalset-blind-268.json"}, {"../examples/evalset-blind-269.json"},
		{"../examples/evalset-blind-270.json"}, {"../examples/evalset-blind-271.json"},
		{"../examples/evalset-blind-272.json"}, {"../examples/evalset-blind-273.json"},
		{"../examples/evalset-blind-274.json"}, {"../examples/evalset-blind-275.json"},
		{"../examples/evalset-blind-276.json"}, {"../examples/evalset-blind-277.json"},
		{"../examples/evalset-blind-278.json"}, {"../examples/evalset-blind-279.json"},
		{"../examples/evalset-blind-280.json"}, {"../examples/evalset-blind-281.json"},
		{"../examples/evalset-blind-282.json"}, {"../examples/evalset-blind-283.json"},
		{"../examples/evalset-blind-284.json"}, {"../examples/evalset-blind-285.json"},
		{"../examples/evalset-blind-286.json"}, {"../examples/evalset-blind-287.json"},
		{"../examples/evalset-blind-288.json"}, {"../examples/evalset-blind-289.json"},
		{"../examples/evalset-blind-290.json"}, {"../examples/evalset-blind-291.json"},
		{"../examples/evalset-blind-292.json"}, {"../examples/evalset-blind-293.json"},
		{"../examples/evalset-blind-294.json"}, {"../examples/evalset-blind-295.json"},
		{"../examples/evalset-blind-296.json"}, {"../examples/evalset-blind-297.json"},
		{"../examples/evalset-blind-298.json"}, {"../examples/evalset-blind-299.json"},
		{"../examples/evalset-blind-300.json"}, {"../examples/evalset-blind-301.json"},
		{"../examples/evalset-blind-302.json"}, {"../examples/evalset-blind-303.json"},
		{"../examples/evalset-blind-304.json"}, {"../examples/evalset-blind-305.json"},
		{"../examples/evalset-blind-306.json"}, {"../examples/evalset-blind-307.json"},
		{"../examples/evalset-blind-308.json"}, {"../examples/evalset-blind-309.json"},
		{"../examples/evalset-blind-310.json"}, {"../examples/evalset-blind-311.json"},
		{"../examples/evalset-blind-312.json"}, {"../examples/evalset-blind-313.json"},
		{"../examples/evalset-blind-314.json"}, {"../examples/evalset-blind-315.json"},
		{"../examples/evalset-blind-316.json"}, {"../examples/evalset-blind-317.json"},
		{"../examples/evalset-blind-318.json"}, {"../examples/evalset-blind-319.json"},
		{"../examples/evalset-blind-320.json"}, {"../examples/evalset-blind-321.json"},
		{"../examples/evalset-blind-322.json"}, {"../examples/evalset-blind-323.json"},
		{"../examples/evalset-blind-324.json"}, {"../examples/evalset-blind-325.json"},
		{"../examples/evalset-blind-326.json"}, {"../examples/evalset-blind-327.json"},
		{"../examples/evalset-blind-328.json"}, {"../examples/evalset-blind-329.json"},
		{"../examples/evalset-blind-330.json"}, {"../examples/evalset-blind-331.json"},
		{"../examples/evalset-blind-332.json"}, {"../examples/evalset-blind-333.json"},
		{"../examples/evalset-blind-334.json"}, {"../examples/evalset-blind-335.json"},
		{"../examples/evalset-blind-336.json"}, {"../examples/evalset-blind-337.json"},
		{"../examples/evalset-blind-338.json"}, {"../examples/evalset-blind-339.json"},
		{"../examples/evalset-blind-340.json"}, {"../examples/evalset-blind-341.json"},
		{"../examples/evalset-blind-342.json"}, {"../examples/evalset-blind-343.json"},
		{"../examples/evalset-blind-344.json"}, {"../examples/evalset-blind-345.json"},
		{"../examples/evalset-blind-346.json"}, {"../examples/evalset-blind-347.json"},
		{"../examples/evalset-blind-348.json"}, {"../examples/evalset-blind-349.json"},
		{"../examples/evalset-blind-350.json"}, {"../examples/evalset-blind-351.json"},
		{"../examples/evalset-blind-352.json"}, {"../examples/evalset-blind-353.json"},
		{"../examples/evalset-blind-354.json"}, {"../examples/evalset-blind-355.json"},
		{"../examples/evalset-blind-356.json"}, {"../examples/evalset-blind-357.json"},
		{"../examples/evalset-blind-358.json"}, {"../examples/evalset-blind-359.json"},
		{"../examples/evalset-blind-360.json"}, {"../examples/evalset-blind-361.json"},
		{"../examples/evalset-blind-362.json"}, {"../examples/evalset-blind-363.json"},
		{"../examples/evalset-blind-364.json"}, {"../examples/evalset-blind-365.json"},
		{"../examples/evalset-blind-366.json"}, {"../examples/evalset-blind-367.json"},
		{"../examples/evalset-blind-368.json"}, {"../examples/evalset-blind-369.json"},
		{"../examples/evalset-blind-370.json"}, {"../examples/evalset-blind-371.json"},
		{"../examples/evalset-blind-372.json"}, {"../examples/evalset-blind-373.json"},
		{"../examples/evalset-blind-374.json"}, {"../examples/evalset-blind-375.json"},
		{"../examples/evalset-blind-376.json"}, {"../examples/evalset-blind-377.json"},
		{"../examples/evalset-blind-378.json"}, {"../examples/evalset-blind-379.json"},
		{"../examples/evalset-blind-380.json"}, {"../examples/evalset-blind-381.json"},
		{"../examples/evalset-blind-382.json"}, {"../examples/evalset-blind-383.json"},
		{"../examples/evalset-blind-384.json"}, {"../examples/evalset-blind-385.json"},
		{"../examples/evalset-blind-386.json"}, {"../examples/evalset-blind-387.json"},
		{"../examples/evalset-blind-388.json"}, {"../examples/evalset-blind-389.json"},
		{"../examples/evalset-blind-390.json"}, {"../examples/evalset-blind-391.json"},
		{"../examples/evalset-blind-392.json"}, {"../examples/evalset-blind-393.json"},
		{"../examples/evalset-blind-394.json"}, {"../examples/evalset-blind-395.json"},
		{"../examples/evalset-blind-396.json"}, {"../examples/evalset-blind-397.json"},
		{"../examples/evalset-blind-398.json"}, {"../examples/evalset-blind-399.json"},
		{"../examples/evalset-blind-400.json"}, {"../examples/evalset-blind-401.json"},
		{"../examples/evalset-blind-402.json"}, {"../examples/evalset-blind-403.json"},
		{"../examples/evalset-blind-404.json"}, {"../examples/evalset-blind-405.json"},
		{"../examples/evalset-blind-406.json"}, {"../examples/evalset-blind-407.json"},
		{"../examples/evalset-blind-408.json"}, {"../examples/evalset-blind-409.json"},
		{"../examples/evalset-blind-410.json"}, {"../examples/evalset-blind-411.json"},
		{"../examples/evalset-blind-412.json"}, {"../examples/evalset-blind-413.json"},
		{"../examples/evalset-blind-414.json"}, {"../examples/evalset-blind-415.json"},
		{"../examples/evalset-blind-416.json"}, {"../examples/evalset-blind-417.json"},
		{"../examples/evalset-blind-418.json"}, {"../examples/evalset-blind-419.json"},
		{"../examples/evalset-blind-420.json"}, {"../examples/evalset-blind-421.json"},
		{"../examples/evalset-blind-422.json"}, {"../examples/evalset-blind-423.json"},
		{"../examples/evalset-blind-424.json"}, {"../examples/evalset-blind-425.json"},
		{"../examples/evalset-blind-426.json"}, {"../examples/evalset-blind-427.json"},
		{"../examples/evalset-blind-428.json"}, {"../examples/evalset-blind-429.json"},
		{"../examples/evalset-blind-430.json"}, {"../examples/evalset-blind-431.json"},
		{"../examples/evalset-blind-432.json"}, {"../examples/evalset-blind-433.json"},
		{"../examples/evalset-blind-434.json"}, {"../examples/evalset-blind-435.json"},
		{"../examples/evalset-blind-436.json"}, {"../examples/evalset-blind-437.json"},
		{"../examples/evalset-blind-438.json"}, {"../examples/evalset-blind-439.json"},
		{"../examples/evalset-blind-440.json"}, {"../examples/evalset-blind-441.json"},
		{"../examples/evalset-blind-442.json"}, {"../examples/evalset-blind-443.json"},
		{"../examples/evalset-blind-444.json"}, {"../examples/evalset-blind-445.json"},
		{"../examples/evalset-blind-446.json"}, {"../examples/evalset-blind-447.json"},
		{"../examples/evalset-blind-448.json"}, {"../examples/evalset-blind-449.json"},
		{"../examples/evalset-blind-450.json"}, {"../examples/evalset-blind-451.json"},
		{"../examples/evalset-blind-452.json"}, {"../examples/evalset-blind-453.json"},
		{"../examples/evalset-blind-454.json"}, {"../examples/evalset-blind-455.json"},
		{"../examples/evalset-blind-456.json"}, {"../examples/evalset-blind-457.json"},
		{"../examples/evalset-blind-458.json"}, {"../examples/evalset-blind-459.json"},
		{"../examples/evalset-blind-460.json"}, {"../examples/evalset-blind-461.json"},
		{"../examples/evalset-blind-462.json"}, {"../examples/evalset-blind-463.json"},
		{"../examples/evalset-blind-464.json"}, {"../examples/evalset-blind-465.json"},
		{"../examples/evalset-blind-466.json"}, {"../examples/evalset-blind-467.json"},
		{"../examples/evalset-blind-468.json"}, {"../examples/evalset-blind-469.json"},
		{"../examples/evalset-blind-470.json"}, {"../examples/evalset-blind-471.json"},
		{"../examples/evalset-blind-472.json"}, {"../examples/evalset-blind-473.json"},
		{"../examples/evalset-blind-474.json"}, {"../examples/evalset-blind-475.json"},
		{"../examples/evalset-blind-476.json"}, {"../examples/evalset-blind-477.json"},
		{"../examples/evalset-blind-478.json"},
		{"../examples/evalset-messages.json"}, {"../examples/evalset-identifiers.json"},
		{"../examples/evalset-recency.json"}, {"../examples/evalset-lookalike.json"}, {"../examples/evalset-multi.json"},
		{"../examples/evalset-crosslang.json"}}
	own := os.Getenv("FRESHCTX_EVAL_SET") != ""
	if own {
		sets = [][]string{strings.Split(os.Getenv("FRESHCTX_EVAL_SET"), ",")}
	}
	for _, paths := range sets {
		cases, warnings, err := evalset.ReadFiles(paths...)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range warnings {
			t.Log(w)
		}
		emb := testenv.LocalEmbedder(t, 384)
		rep := evaluateSet(t, relevance.DefaultWeights, emb, cases)
		t.Logf("%s:%s", strings.Join(paths, ","), rep.Markdown())
		got, newest, random := rep.Get("all", "overall").NDCG5, rep.Newest["all"]["overall"], rep.Random["all"]["overall"]
		if rep.WindowViolations != 0 {
			t.Errorf("%s: %d window violations", strings.Join(paths, ","), rep.WindowViolations)
		}
		if !own && (got <= newest.NDCG5/float64(newest.N) || got <= random.NDCG5/float64(random.N)) {
			t.Errorf("%s: nDCG@5 %.3f, not above newest-first %.3f and random %.3f", strings.Join(paths, ","), got, newest.NDCG5/float64(newest.N), random.NDCG5/float64(random.N))
		}
	}
}

// withDistractors adds n events of other customers to every case's window, at
// random ages within it and labelled irrelevant: a busier entity, where some of
// them look like the right answer (another customer's refund). Deterministic.
func withDistractors(n int) func([]evalset.Case) []evalset.Case {
	return func(cases []evalset.Case) []evalset.Case {
		rng := rand.New(rand.NewPCG(7, 9))
		type pooled struct {
			customer string
			e        evalset.Event
		}
		var pool []pooled
		for _, c := range cases {
			for _, e := range c.Events {
				if e.Ago < evalset.Window {
					pool = append(pool, pooled{c.Customer, e})
				}
			}
		}
		out := make([]evalset.Case, len(cases))
		for i, c := range cases {
			c.Events = append([]evalset.Event(nil), c.Events...)
			for k := 0; k < n; {
				p := pool[rng.IntN(len(pool))]
				if p.customer == c.Customer {
					continue
				}
				e := p.e
				e.ID, e.Ago = fmt.Sprintf("other-%d", k), rng.IntN(evalset.Window)
				c.Events = append(c.Events, e)
				k++
			}
			out[i] = c
		}
		return out
	}
}

// The ranking holds up in a busier window: with 10 or 30 of other customers'
// events mixed into each case (a third of them or more lookalikes of the
// answers), nDCG@5 stays near the quiet set's and far above newest-first,
// which the noise buries (BENCHMARKS.md, Retrieval quality).
func TestRankingHoldsAmongOtherCustomersEvents(t *testing.T) {
	emb := testenv.LocalEmbedder(t, 384)
	for _, c := range []struct {
		n   int
		min float64
	}{{10, 0.91}, {30, 0.87}} {
		rep := evaluateCases(t, relevance.DefaultWeights, emb, withDistractors(c.n))
		got, newest := rep.Get("all", "overall").NDCG5, rep.Newest["all"]["overall"]
		t.Logf("%d other events per window: nDCG@5 %.3f (tune %.3f, held-back %.3f), newest-first %.3f",
			c.n, got, rep.Get("tune", "overall").NDCG5, rep.Get("heldout", "overall").NDCG5, newest.NDCG5/float64(newest.N))
		if got < c.min {
			t.Errorf("%d other events per window: nDCG@5 %.3f, below the floor %.3f", c.n, got, c.min)
		}
	}
}

// misspell gives every question one typo, as someone typing in a hurry would:
// in one of its words of six or more letters, a letter deleted, inserted or
// replaced, or two adjacent ones swapped (never the first or last letter).
// Deterministic.
func misspell(cases []evalset.Case) []evalset.Case {
	rng := rand.New(rand.NewPCG(3, 5))
	out := make([]evalset.Case, len(cases))
	for i, c := range cases {
		qs := make([]evalset.Question, len(c.Questions))
		for j, q := range c.Questions {
			words := strings.Fields(q.Q)
			var long []int
			for k, w := range words {
				if len(w) >= 6 && strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 {
					long = append(long, k)
				}
			}
			if len(long) > 0 {
				k := long[rng.IntN(len(long))]
				b := []byte(words[k])
				p := 1 + rng.IntN(len(b)-2)
				switch rng.IntN(4) {
				case 0:
					b = append(b[:p], b[p+1:]...)
				case 1:
					b[p], b[p+1] = b[p+1], b[p]
				case 2:
					b[p] = byte('a' + rng.IntN(26))
				default:
					b = append(b[:p], append([]byte{byte('a' + rng.IntN(26))}, b[p:]...)...)
				}
				words[k] = string(b)
			}
			q.Q = strings.Join(words, " ")
			qs[j] = q
		}
		c.Questions = qs
		out[i] = c
	}
	return out
}

// Misspelt questions still find their events: the labelled questions, each
// with one typo, ranked with and without respellings (a misspelt word's near
// spellings that the window's events contain). The clean set is unchanged by
// them (TestRetrievalQuality's floors).
func TestMisspeltQuestions(t *testing.T) {
	emb := testenv.LocalEmbedder(t, 384)
	off := relevance.DefaultWeights
	off.Respelled = 0
	with := evaluateCases(t, relevance.DefaultWeights, emb, misspell)
	without := evaluateCases(t, off, emb, misspell)
	for _, sp := range []string{"all", "tune", "heldout"} {
		t.Logf("%s, one typo per question: nDCG@5 %.3f with respellings, %.3f without", sp, with.Get(sp, "overall").NDCG5, without.Get(sp, "overall").NDCG5)
	}
	if got, floor := with.Get("all", "overall").NDCG5, 0.90; got < floor {
		t.Errorf("misspelt questions: nDCG@5 %.3f, below the floor %.3f", got, floor)
	}
	// (The gain was 0.014 until stems lost the doubled consonant Porter2
	// leaves after "-ed", stop 58: some typos that respellings had undone
	// no longer need them, 0.932 → 0.938 without, 0.946 with as before. It
	// fell to 0.003 on the tuning part at stop 63, when an object named
	// before the question's stopped linking its events to it: 0.938 → 0.944
	// without, 0.946 with as before; on the whole misspelt set it is 0.007,
	// on the held-back part 0.019.)
	if w, wo := with.Get("all", "overall").NDCG5, without.Get("all", "overall").NDCG5; w < wo+0.005 {
		t.Errorf("respellings gain %.3f on the misspelt questions (%.3f against %.3f), want at least 0.005", w-wo, w, wo)
	}
	if w, wo := with.Get("tune", "overall").NDCG5, without.Get("tune", "overall").NDCG5; w <= wo {
		t.Errorf("respellings gain %.3f on the misspelt tuning part (%.3f against %.3f), want a gain", w-wo, w, wo)
	}
}

// Questions typed as customers type in a chat ("whats going on with the tv
// thing": lower case, no question mark, contractions without their
// apostrophe) rank as the labelled questions of examples/ do as written.
func TestLooselyTypedQuestions(t *testing.T) {
	emb := testenv.LocalEmbedder(t, 384)
	paths, err := filepath.Glob("../examples/evalset*.json")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no labelled sets in examples/: %v", err)
	}
	loosely := strings.NewReplacer("?", "", "？", "", "'", "", "’", "")
	courteous := func(q string) string { // (as a chat message: a greeting, 请问, thanks)
		if strings.IndexFunc(q, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			return "你好，请问" + q + "谢谢！"
		}
		return "Hi! Quick question: " + q + " Thanks!"
	}
	messaged := func(q string) string { // (as a message saying something first: Asked)
		if strings.IndexFunc(q, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0 {
			return "我 现在 在 上班，有点 着急，" + q // (joined by a comma, as a chat does)
		}
		return "I am at work right now and a bit worried. " + q
	}
	var written, typed, wrapped, inMessage, unspaced, n float64
	for _, path := range paths {
		cases, _, err := evalset.ReadFiles(path)
		if err != nil {
			t.Fatal(err)
		}
		w := evaluateSet(t, relevance.DefaultWeights, emb, cases).Get("all", "overall")
		retyped := func(f func(string) string) float64 {
			cs := slices.Clone(cases)
			for i := range cs {
				cs[i].Questions = slices.Clone(cs[i].Questions)
				for j := range cs[i].Questions {
					cs[i].Questions[j].Q = f(cs[i].Questions[j].Q)
				}
			}
			return evaluateSet(t, relevance.DefaultWeights, emb, cs).Get("all", "overall").NDCG5
		}
		l := retyped(func(q string) string { return loosely.Replace(strings.ToLower(q)) })
		c := retyped(courteous)
		m := retyped(messaged)
		// Chinese as it is written, without spaces between its words: many
		// labelled sets space theirs as a segmenter leaves them, a customer
		// and an event's system do not (events and questions alike)
		cs := slices.Clone(cases)
		for i := range cs {
			cs[i].Events = slices.Clone(cs[i].Events)
			for j := range cs[i].Events {
				cs[i].Events[j].Text = withoutCJKSpaces(cs[i].Events[j].Text)
			}
			cs[i].Questions = slices.Clone(cs[i].Questions)
			for j := range cs[i].Questions {
				cs[i].Questions[j].Q = withoutCJKSpaces(cs[i].Questions[j].Q)
			}
		}
		u := evaluateSet(t, relevance.DefaultWeights, emb, cs).Get("all", "overall").NDCG5
		written, typed, wrapped, inMessage, unspaced, n = written+w.NDCG5*float64(w.N), typed+l*float64(w.N), wrapped+c*float64(w.N), inMessage+m*float64(w.N), unspaced+u*float64(w.N), n+float64(w.N)
	}
	t.Logf("%d sets, %.0f questions: nDCG@5 %.4f as written, %.4f typed loosely, %.4f within courtesies, %.4f after a sentence asking nothing, %.4f Chinese unspaced", len(paths), n, written/n, typed/n, wrapped/n, inMessage/n, unspaced/n)
	// (bigrams across the words a space kept apart, and the local
	// embedder's: a little less)
	if unspaced/n < written/n-0.003 {
		t.Errorf("Chinese unspaced nDCG@5 %.4f against %.4f as written", unspaced/n, written/n)
	}
	if typed/n < written/n-0.001 { // (deterministic: the same sets, embedder and weights each run)
		t.Errorf("typed loosely nDCG@5 %.4f against %.4f as written", typed/n, written/n)
	}
	if wrapped/n < written/n-0.001 {
		t.Errorf("within courtesies nDCG@5 %.4f against %.4f as written", wrapped/n, written/n)
	}
	// (the sentence's words count Weights.Context: a little less; 0.9210
	// when the whole message was the question, before Asked)
	if inMessage/n < written/n-0.005 {
		t.Errorf("after a sentence asking nothing nDCG@5 %.4f against %.4f as written", inMessage/n, written/n)
	}
}

// withoutCJKSpaces is s without the spaces between two Chinese characters
// (or a Chinese character and a Chinese punctuation mark): "我 手机 流量
// 快 用 完 了。还 剩 多少？" as typed, "我手机流量快用完了。还剩多少？".
func withoutCJKSpaces(s string) string {
	rs := []rune(s)
	han := func(r rune) bool {
		return unicode.Is(unicode.Han, r) || strings.ContainsRune("，。：；？！、（）“”", r)
	}
	out := rs[:0:0]
	for k, r := range rs {
		if r == ' ' && k > 0 && k+1 < len(rs) && han(rs[k-1]) && han(rs[k+1]) {
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

// BenchmarkScore500 is the hybrid ranking's cost per request at 500 candidates
// (the question and the events analysed, every candidate scored).
func BenchmarkScore500(b *testing.B) {
	benchmarkScore500(b, "has invoice INV-1040 been paid?")
}

// BenchmarkScore500Newest is the same with a question asking for the newest
// ("now"): the stories' checks for a later word on the thing (inherit,
// supersede, Weights.ChangedNow) look at every candidate.
func BenchmarkScore500Newest(b *testing.B) {
	benchmarkScore500(b, "when is my delivery now?")
}

// BenchmarkScore500Why is the same with a question asking why that names its
// problem ("declined"): the events stating a reason are checked for one of
// their own (problemsOnly).
func BenchmarkScore500Why(b *testing.B) {
	benchmarkScore500(b, "why was my payment declined?")
}

// BenchmarkScore500Misspelt is the same with a question whose words are no
// English words and in no event (a misspelling, a brand): the near spellings
// of both are looked for among the candidates' terms (respellings).
func BenchmarkScore500Misspelt(b *testing.B) {
	benchmarkScore500(b, "did my bitcoin withdrawl arrive?")
}

// BenchmarkScore500WhichDay is a Chinese question asking which day over 500
// Chinese events that each state a month ("12 月 套餐 600 元 已 扣"): whether a
// month is an event's only time is read when it is analysed (markMonthOnly),
// not from every candidate's text per question.
func BenchmarkScore500WhichDay(b *testing.B) {
	now := time.Now()
	var cands []relevance.Candidate
	for i := range 500 {
		text := fmt.Sprintf("BJ-%04d %d 月 套餐 600 元 已 扣，下 次 周三 上门", 2000+i, 1+i%12)
		if i%2 == 0 {
			text = fmt.Sprintf("BJ-%04d %d 月 套餐 600 元 已 扣", 2000+i, 1+i%12)
		}
		cands = append(cands, relevance.Candidate{Source: "保洁", Time: now.Add(-time.Duration(i) * 5 * time.Second), Text: text,
			Hash: []byte(fmt.Sprint(i))})
	}
	relevance.Score(relevance.NewQuery("BJ2281 哪 天 来？", nil), cands, relevance.DefaultWeights, nil, now)
	b.ResetTimer()
	for b.Loop() {
		relevance.Score(relevance.NewQuery("BJ2281 哪 天 来？", nil), cands, relevance.DefaultWeights, nil, now)
	}
}

// BenchmarkScoreSmallWindow is the context API's usual case: a window of a
// few events (with the analyses ingest encodes beside them) and, per
// operation, each of the load tool's questions (loadtest query) once: the
// per-question costs (analysing, expanding) rather than the per-candidate ones.
func BenchmarkScoreSmallWindow(b *testing.B) {
	now := time.Now()
	emb := testenv.LocalEmbedder(b, 384)
	texts := []string{"Refund R-7001 for order O-5001 approved: 129.90 EUR", "Parcel for order O-5001 handed to the carrier", "Chat (customer): hello"}
	var cands []relevance.Candidate
	for _, t := range texts {
		v, _ := emb.Embed(context.Background(), []string{t})
		cands = append(cands, relevance.Candidate{Source: "s", Time: now, Text: t, Embedding: v[0], Analysis: relevance.EncodeAnalysis(t)})
	}
	questions := []string{"where is my refund?", "my parcel is late", "can I change the delivery address?",
		"why was my payment declined?", "what happened to my order?", "I want to return an item", "退款什么时候到账？"}
	var qv [][]float32
	for _, q := range questions {
		v, _ := emb.Embed(context.Background(), []string{q})
		qv = append(qv, v[0])
	}
	// WordNet and CC-CEDICT loaded before the clock starts: the Chinese
	// question over English events loads CC-CEDICT (~0.4 s) on its first
	// ranking, which had been timed as a share of each operation, larger the
	// fewer operations a run made
	relevance.LoadLexicons()
	b.ResetTimer()
	for b.Loop() {
		for i, q := range questions {
			relevance.Score(relevance.NewQuery(q, qv[i]), cands, relevance.DefaultWeights, nil, now)
		}
	}
}

// BenchmarkScore500Acronym is the same with a question that writes an
// acronym: every candidate's words are spelled out to look for it.
func BenchmarkScore500Acronym(b *testing.B) {
	benchmarkScore500(b, "is 2FA on for my account?")
}

// BenchmarkScore500Cached is Score500 as the context API ranks a window read
// from the Redis cache: each event carries the analysis ingest encoded beside
// it (read in place), where Score500's are looked up in the process's
// analysis cache as for events read from the stores.
func BenchmarkScore500Cached(b *testing.B) {
	benchmarkScore500With(b, "has invoice INV-1040 been paid?", true)
}

func benchmarkScore500(b *testing.B, question string) { benchmarkScore500With(b, question, false) }

func benchmarkScore500With(b *testing.B, question string, encoded bool) {
	emb := testenv.LocalEmbedder(b, 384)
	now := time.Now()
	cases, _ := evalset.Load()
	var cands []relevance.Candidate
	for len(cands) < 500 {
		for _, c := range cases {
			for _, e := range c.Events {
				if len(cands) < 500 {
					v, _ := emb.Embed(context.Background(), []string{e.Text})
					c := relevance.Candidate{Source: e.Source, Time: now.Add(-time.Duration(e.Ago) * time.Minute), Text: e.Text, Embedding: v[0],
						Hash: []byte(fmt.Sprint(len(cands)))}
					if encoded {
						c.Analysis = relevance.EncodeAnalysis(e.Text)
					}
					cands = append(cands, c)
				}
			}
		}
	}
	qv, _ := emb.Embed(context.Background(), []string{question})
	relevance.Score(relevance.NewQuery(question, qv[0]), cands, relevance.DefaultWeights, nil, now) // loads WordNet
	// the issue's target is a median (p50 added per request): each operation
	// is timed too, and the median reported beside the mean (ns/op)
	took := make([]time.Duration, 0, 1024)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		relevance.Score(relevance.NewQuery(question, qv[0]), cands, relevance.DefaultWeights, nil, now)
		took = append(took, time.Since(t0))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
}

// corpusStats are the tenant-wide statistics per source over the whole set, as
// the cache keeps them in production (there from a sample).
func corpusStats(cases []evalset.Case) relevance.Stats {
	st := relevance.Stats{}
	for _, c := range cases {
		for _, e := range c.Events {
			s := st[e.Source]
			if s.DF == nil {
				s.DF = map[string]float64{}
			}
			terms := relevance.Analyze(e.Text).Terms
			s.N++
			s.AvgLen += float64(len(terms)) // the total, until divided below
			seen := map[string]bool{}
			for _, t := range terms {
				if !seen[t] {
					seen[t] = true
					s.DF[t]++
				}
			}
			st[e.Source] = s
		}
	}
	for k, s := range st {
		s.AvgLen /= s.N
		st[k] = s
	}
	return st
}

// With a model provider configured (here the OpenAI-compatible test server, whose
// vectors carry no meaning at all: the worst model), hybrid is never worse than
// similarity alone: words, identifiers and recency carry it.
func TestHybridNeverWorseThanSimilarityWithAProvider(t *testing.T) {
	srv := testenv.NewEmbeddingServer(t, 64, 0)
	c, err := embed.NewClient(embed.Config{Provider: embed.ProviderOpenAI, BaseURL: srv.URL, Model: "fake", Dims: 64}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	similarity := relevance.Weights{Similarity: 1, Recency: 0.3, RecencyIntent: 0.3, Status: 0.3, HalfLife: 20 * time.Minute}
	hy, sim := evaluateWith(t, relevance.DefaultWeights, c), evaluateWith(t, similarity, c)
	for _, kind := range append(append([]string{}, evalset.Kinds...), "overall") {
		h, s := hy.Get("all", kind).NDCG5, sim.Get("all", kind).NDCG5
		if h < s {
			t.Errorf("%s: hybrid nDCG@5 %.3f below similarity alone %.3f", kind, h, s)
		}
	}
	t.Logf("with the provider: hybrid %.3f, similarity alone %.3f", hy.Get("all", "overall").NDCG5, sim.Get("all", "overall").NDCG5)
}

// BenchmarkAnalyze is the cost of analysing an event's text that is not in the
// analysis cache (an entity not read lately): per text, over the labelled set.
func BenchmarkAnalyze(b *testing.B) {
	cases, _ := evalset.Load()
	var texts []string
	for _, c := range cases {
		for _, e := range c.Events {
			texts = append(texts, e.Text)
		}
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		relevance.Analyze(texts[i%len(texts)])
		i++
	}
}

// The bridge between English and Chinese (CC-CEDICT, Weights.Bilingual)
// lifts the questions asked in one language about events written in the other
// (examples/evalset-crosslang.json, a development set: 0.850 without it,
// 0.881 with it when it was written), and moves no question of a set with none
// (the built-in one).
func TestTheBridgeHelpsAcrossLanguages(t *testing.T) {
	if _, err := os.Stat(relevance.CEDICTFile); err != nil {
		t.Skip("CC-CEDICT is not installed (make setup installs it)")
	}
	cross, _, err := evalset.ReadFiles("../examples/evalset-crosslang.json")
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := evalset.Load()
	if err != nil {
		t.Fatal(err)
	}
	emb := testenv.LocalEmbedder(t, 384)
	off := relevance.DefaultWeights
	off.Bilingual = 0
	with, without := evaluateSet(t, relevance.DefaultWeights, emb, cross).Get("all", "overall").NDCG5, evaluateSet(t, off, emb, cross).Get("all", "overall").NDCG5
	t.Logf("across languages: nDCG@5 %.3f with the bridge, %.3f without", with, without)
	if with < without+0.02 {
		t.Errorf("the bridge lifts the questions across languages to %.3f from %.3f: want +0.02 at least", with, without)
	}
	if a, b := evaluateSet(t, relevance.DefaultWeights, emb, builtin).Get("all", "overall").NDCG5, evaluateSet(t, off, emb, builtin).Get("all", "overall").NDCG5; a != b {
		t.Errorf("the built-in set (no question across languages) moved with the bridge: %.4f against %.4f", a, b)
	}
}
