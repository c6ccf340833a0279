package api

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// The console's pages: one HTML shell, a script and a style sheet, embedded so
// the binary needs nothing at run time (docs/console.md).
//
//go:embed console
var consoleEmbed embed.FS

var (
	consoleFiles, _ = fs.Sub(consoleEmbed, "console")
	consoleShell, _ = fs.ReadFile(consoleFiles, "index.html")
	consoleAssets   = http.StripPrefix("/console/assets/", http.FileServerFS(consoleFiles))
)

// handleConsole serves /console/: the files under /console/assets/, and the
// shell for every other path, so that a deep link (/console/entities/customer:42)
// loads the page, which then reads its data from the REST API with the person's
// key. The pages hold no data: tenants and keys apply exactly as on the API.
func (s *Server) handleConsole(w http.ResponseWriter, r *http.Request) error {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	if rest, ok := strings.CutPrefix(r.URL.Path, "/console/assets/"); ok {
		if rest == "" || rest == "index.html" || path.Clean(rest) != rest {
			return &Error{Status: http.StatusNotFound, Code: "not_found", Msg: "no console asset " + r.URL.Path}
		}
		consoleAssets.ServeHTTP(w, r)
		return nil
	}
	if r.URL.Path == "/console" {
		http.Redirect(w, r, "/console/", http.StatusFound)
		return nil
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	_, err := w.Write(consoleShell)
	return err
}
