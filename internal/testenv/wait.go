package testenv

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// Patience scales a test deadline. Tests wait on conditions, never on sleeps, and
// a deadline only matters when a test is failing anyway, so deadlines are
// generous: a 2-core machine busy with -race builds, PostgreSQL and other tests
// can be several times slower than an idle one. FRESHCTX_TEST_PATIENCE (default
// 3) is the factor.
func Patience(d time.Duration) time.Duration {
	f := 3.0
	if v, err := strconv.ParseFloat(os.Getenv("FRESHCTX_TEST_PATIENCE"), 64); err == nil && v > 0 {
		f = v
	}
	return time.Duration(float64(d) * f)
}

// Eventually polls cond every 10 ms until it holds. After Patience(timeout) it
// fails the test, naming what it waited for and adding detail() (a log tail, say)
// when given.
func Eventually(t testing.TB, what string, timeout time.Duration, cond func() bool, detail ...func() string) {
	t.Helper()
	deadline := time.Now().Add(Patience(timeout))
	for !cond() {
		if time.Now().After(deadline) {
			extra := ""
			for _, d := range detail {
				if d != nil {
					extra += "\n" + d()
				}
			}
			t.Fatalf("timed out after %s waiting for %s%s", Patience(timeout), what, extra)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
