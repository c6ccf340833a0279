package compose

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"gopkg.in/yaml.v3"

	"github.com/freshctx/freshctx/api"
	"github.com/freshctx/freshctx/config"
	"github.com/freshctx/freshctx/embed"
	"github.com/freshctx/freshctx/pipeline"
	"github.com/freshctx/freshctx/session/builder"
)

type composeFile struct {
	Services map[string]struct {
		Environment map[string]string `yaml:"environment"`
		Command     []string          `yaml:"command"`
		Volumes     []string          `yaml:"volumes"`
	} `yaml:"services"`
}

func load(t *testing.T) composeFile {
	t.Helper()
	b, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("docker-compose.yml does not parse: %v", err)
	}
	return c
}

// Every service the README's compose table names exists, and every file a
// service mounts is in the repository.
func TestServicesAndMounts(t *testing.T) {
	c := load(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|").FindAllStringSubmatch(string(readme), -1) {
		if _, ok := c.Services[m[1]]; !ok {
			t.Errorf("README names service %q, which docker-compose.yml lacks", m[1])
		}
	}
	for name, s := range c.Services {
		for _, v := range s.Volumes {
			src := strings.SplitN(v, ":", 2)[0]
			if strings.HasPrefix(src, "./") {
				if _, err := os.Stat(src); err != nil {
					t.Errorf("service %s mounts %s: %v", name, src, err)
				}
			}
		}
	}
}

// The environment given to freshctx's services uses only variables the
// configuration reads, and the configuration loads with them.
func TestFreshctxEnvironmentMatchesConfig(t *testing.T) {
	c := load(t)
	read := map[string]bool{}
	if _, err := config.Load("freshctx.yaml", func(k string) string { read[k] = true; return "" }); err != nil {
		t.Fatal(err)
	}
	for _, svc := range []string{"migrate", "ingest", "contextapi"} {
		env := c.Services[svc].Environment
		if len(env) == 0 {
			t.Fatalf("service %s has no environment", svc)
		}
		for k := range env {
			if !read[k] {
				t.Errorf("service %s sets %s, which the configuration does not read", svc, k)
			}
		}
		cfg, err := config.Load("freshctx.yaml", func(k string) string { return env[k] })
		if err != nil {
			t.Fatalf("%s: %v", svc, err)
		}
		if cfg.Kafka.Brokers != "kafka:29092" || !strings.Contains(cfg.Postgres.DSN, "@postgres:5432/") || cfg.Redis.Addr != "redis:6379" {
			t.Errorf("%s: the environment did not reach the config: %+v %s %s", svc, cfg.Kafka.Brokers, cfg.Postgres.DSN, cfg.Redis.Addr)
		}
	}
}

// The sources consume exactly the topics the Debezium connector writes.
func TestSourcesMatchTheConnector(t *testing.T) {
	b, err := os.ReadFile("connect/shop-connector.json")
	if err != nil {
		t.Fatal(err)
	}
	var conn map[string]string
	if err := json.Unmarshal(b, &conn); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, table := range strings.Split(conn["table.include.list"], ",") {
		want = append(want, conn["topic.prefix"]+"."+table)
	}
	cfg, err := config.Load("freshctx.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range cfg.Sources {
		got = append(got, s.Topic)
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("sources consume %v, the connector writes %v", got, want)
	}
}

// recorder is a metrics registry that remembers every metric name registered.
type recorder struct {
	*prometheus.Registry
	names map[string]bool
}

var fqName = regexp.MustCompile(`fqName: "([a-z_:]+)"`)

func (r *recorder) Register(c prometheus.Collector) error {
	ch := make(chan *prometheus.Desc, 64)
	go func() { c.Describe(ch); close(ch) }()
	for d := range ch {
		if m := fqName.FindStringSubmatch(d.String()); m != nil {
			r.names[m[1]] = true
		}
	}
	return r.Registry.Register(c)
}

func (r *recorder) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		if err := r.Register(c); err != nil {
			panic(err)
		}
	}
}

// Every metric the Grafana dashboard queries is one the services export.
func TestDashboardQueriesExistingMetrics(t *testing.T) {
	reg := &recorder{Registry: prometheus.NewRegistry(), names: map[string]bool{}}
	pipeline.NewMetrics(reg)
	embed.NewMetrics(reg)
	builder.NewMetrics(reg)
	l, _ := embed.NewLocal(8)
	api.New(api.Config{}, l, nil, nil, nil, reg)
	b, err := os.ReadFile("grafana/dashboards/freshctx.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatal(err)
	}
	if len(dash.Panels) < 10 {
		t.Fatalf("%d panels", len(dash.Panels))
	}
	used := 0
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			for _, name := range regexp.MustCompile(`freshctx_[a-z_]+`).FindAllString(tg.Expr, -1) {
				base := regexp.MustCompile(`_(bucket|sum|count)$`).ReplaceAllString(name, "")
				if !reg.names[name] && !reg.names[base] {
					t.Errorf("panel %q queries %s, which no service exports", p.Title, name)
				}
				used++
			}
		}
	}
	if used == 0 {
		t.Fatal("the dashboard queries no freshctx metric")
	}
}
