package relevance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docs/readings.md maps the ranking's readings to its stages: every name it
// writes in backquotes that looks like one of this package's functions,
// methods or variables must still be one, so the map never sends a reader to
// code that is gone (its tests' names too; Weights' fields as
// Weights.Field).
func TestReadingsMapNamesLiveCode(t *testing.T) {
	doc, err := os.ReadFile("../docs/readings.md")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	defined := map[string]bool{}
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				defined[d.Name.Name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.ValueSpec:
						for _, n := range s.Names {
							defined[n.Name] = true
						}
					case *ast.TypeSpec:
						defined[s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									defined[s.Name.Name+"."+n.Name] = true
								}
							}
						}
					}
				}
			}
		}
	}
	names := regexp.MustCompile("`([A-Za-z][A-Za-z0-9]*(?:\\.[A-Za-z][A-Za-z0-9]*)?)`").FindAllStringSubmatch(string(doc), -1)
	if len(names) < 50 {
		t.Fatalf("docs/readings.md names %d functions: is it the map?", len(names))
	}
	for _, m := range names {
		name := m[1]
		if strings.Contains(name, ".") && !strings.HasPrefix(name, "Weights.") && !strings.HasPrefix(name, "relevance.") {
			continue // (a file name, cache.go)
		}
		name = strings.TrimPrefix(name, "relevance.")
		if !defined[name] {
			t.Errorf("docs/readings.md names %s, which relevance no longer defines", m[1])
		}
	}
}

// lacksTimeAsked: a change naming a place and no time changed the place,
// and states no time asked; a change with a time, or with neither, may have
// moved the time.
func TestAChangeOfPlaceLacksTheTimeAsked(t *testing.T) {
	for text, want := range map[string]bool{"BM-31206 上课 地点 改 到 二楼 205 教室": true, "SW-3310 class moved to pool B": true,
		"SW-3310 class moved to Friday 17:15": false, "SW-3310 class postponed": false, "SW-3310 goggles left": true} {
		d := newDoc(text)
		if got := lacksTimeAsked(&d, true); got != want {
			t.Errorf("%q lacks the clock time asked: %v, want %v", text, got, want)
		}
	}
}
