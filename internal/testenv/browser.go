package testenv

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// Browser starts a headless Chromium (Debian's `chromium`, installed by `make
// setup`; FRESHCTX_CHROMIUM names another binary) and returns a context that
// drives one tab of it; both end with the test.
func Browser(t testing.TB) context.Context {
	t.Helper()
	needServices(t)
	path := os.Getenv("FRESHCTX_CHROMIUM")
	if path == "" {
		var err error
		if path, err = exec.LookPath("chromium"); err != nil {
			t.Fatalf("no chromium on PATH: %s (or set FRESHCTX_CHROMIUM)", hint)
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.WindowSize(1280, 900),
		// No sandbox: it needs root-less user namespaces, which CI containers often
		// lack, and the tests load only their own local pages.
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("lang", "en-GB"),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}
