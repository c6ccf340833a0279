package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/freshctx/freshctx/cmd/internal/wire"
	"github.com/freshctx/freshctx/config"
)

// scaledObject is the part of KEDA's ScaledObject the manifests use (KEDA's CRD
// is not a Kubernetes API type; unknown fields are errors here too).
type scaledObject struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string            `json:"name"`
		Namespace string            `json:"namespace"`
		Labels    map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		ScaleTargetRef  struct{ Name string } `json:"scaleTargetRef"`
		MinReplicaCount int                   `json:"minReplicaCount"`
		MaxReplicaCount int                   `json:"maxReplicaCount"`
		CooldownPeriod  int                   `json:"cooldownPeriod"`
		Triggers        []struct {
			Type     string            `json:"type"`
			Metadata map[string]string `json:"metadata"`
		} `json:"triggers"`
	} `json:"spec"`
}

type manifests struct {
	deployments map[string]*appsv1.Deployment
	services    map[string]*corev1.Service
	secrets     map[string]*corev1.Secret
	configMaps  []*corev1.ConfigMap
	pdbs        []*policyv1.PodDisruptionBudget
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	jobs        []*batchv1.Job
	scaled      []*scaledObject
	namespaces  int
}

// render builds a kustomization with the kustomize library (what `kubectl
// kustomize DIR` does) and decodes every resource strictly into its API type.
func render(t *testing.T, dir string) manifests {
	t.Helper()
	res, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize %s: %v", dir, err)
	}
	m := manifests{deployments: map[string]*appsv1.Deployment{}, services: map[string]*corev1.Service{}, secrets: map[string]*corev1.Secret{}}
	for _, r := range res.Resources() {
		y, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		var dst any
		switch r.GetKind() {
		case "Deployment":
			d := &appsv1.Deployment{}
			dst, m.deployments[r.GetName()] = d, d
		case "Service":
			s := &corev1.Service{}
			dst, m.services[r.GetName()] = s, s
		case "Secret":
			s := &corev1.Secret{}
			dst, m.secrets[r.GetName()] = s, s
		case "ConfigMap":
			c := &corev1.ConfigMap{}
			dst, m.configMaps = c, append(m.configMaps, c)
		case "PodDisruptionBudget":
			p := &policyv1.PodDisruptionBudget{}
			dst, m.pdbs = p, append(m.pdbs, p)
		case "HorizontalPodAutoscaler":
			h := &autoscalingv2.HorizontalPodAutoscaler{}
			dst, m.hpas = h, append(m.hpas, h)
		case "Job":
			j := &batchv1.Job{}
			dst, m.jobs = j, append(m.jobs, j)
		case "ScaledObject":
			s := &scaledObject{}
			dst, m.scaled = s, append(m.scaled, s)
		case "Namespace":
			dst = &corev1.Namespace{}
			m.namespaces++
		default:
			t.Fatalf("%s: unexpected kind %s", dir, r.GetKind())
		}
		if err := yaml.UnmarshalStrict(y, dst); err != nil {
			t.Errorf("%s %s/%s does not decode strictly: %v", dir, r.GetKind(), r.GetName(), err)
		}
	}
	return m
}

// The Kubernetes manifests (deploy/kubernetes) render, decode strictly into the
// API types, and agree with the binaries: flags they pass parse, ports and
// probe paths are the ones served, grace periods outlast the drain, every
// environment variable is one the configuration reads and every secret key it
// names exists, selectors match their pods, KEDA watches the configured group.
func TestKubernetesManifests(t *testing.T) {
	base := render(t, "../../deploy/kubernetes/base")
	ex := render(t, "../../deploy/kubernetes/overlays/example")
	if len(base.deployments) != 2 || len(ex.deployments) != 2 || ex.namespaces != 1 {
		t.Fatalf("deployments: base %d, example %d; namespaces %d", len(base.deployments), len(ex.deployments), ex.namespaces)
	}
	if len(ex.configMaps) != 1 {
		t.Fatalf("config maps: %d", len(ex.configMaps))
	}
	cfgText := ex.configMaps[0].Data["freshctx.yaml"]
	cfgPath := filepath.Join(t.TempDir(), "freshctx.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	// The configuration loads with the environment the pods get.
	given := map[string]bool{}
	for _, d := range ex.deployments {
		for _, e := range d.Spec.Template.Spec.Containers[0].Env {
			given[e.Name] = true
		}
	}
	read := map[string]bool{}
	cfg, err := config.Load(cfgPath, func(k string) string {
		read[k] = true
		switch {
		case k == "FRESHCTX_POSTGRES_DSN":
			return "postgres://u:p@db:5432/freshctx"
		case given[k]:
			return "a-secret-value-0123456789"
		}
		return ""
	})
	if err != nil {
		t.Fatalf("the mounted configuration does not load: %v", err)
	}
	secret := ex.secrets["freshctx"]
	if secret == nil {
		t.Fatal("the example overlay has no Secret freshctx")
	}

	pods := map[string]corev1.PodSpec{}
	for name, d := range ex.deployments {
		pods[name] = d.Spec.Template.Spec
		if sel := d.Spec.Selector.MatchLabels; !subset(sel, d.Spec.Template.Labels) {
			t.Errorf("%s: selector %v does not match its pods %v", name, sel, d.Spec.Template.Labels)
		}
	}
	for _, j := range ex.jobs {
		pods[j.Name] = j.Spec.Template.Spec
	}
	for name, pod := range pods {
		for _, c := range pod.Containers {
			if c.Image != "registry.example.com/freshctx:v0.1.0" {
				t.Errorf("%s: image %q, want the overlay's pinned image", name, c.Image)
			}
			for _, e := range c.Env {
				if e.Name != "GOMEMLIMIT" && !read[e.Name] {
					t.Errorf("%s: env %s is not read by the configuration", name, e.Name)
				}
				if ref := e.ValueFrom; ref != nil && ref.SecretKeyRef != nil {
					if _, ok := secret.StringData[ref.SecretKeyRef.Key]; !ok && secret.Data[ref.SecretKeyRef.Key] == nil {
						t.Errorf("%s: env %s names secret key %q, which the Secret lacks", name, e.Name, ref.SecretKeyRef.Key)
					}
				}
			}
			if c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
				t.Errorf("%s: no CPU request or memory limit", name)
			}
			if sc := c.SecurityContext; sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
				t.Errorf("%s: root filesystem not read-only", name)
			}
		}
	}

	// ingest: its flags parse; metrics port, probes and grace period.
	ing := ex.deployments["freshctx-ingest"].Spec.Template.Spec
	c := ing.Containers[0]
	args := append(localConfig(c.Args, cfgPath), "-help")
	if err := run(context.Background(), args, os.Getenv, io.Discard, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("ingest %v: %v", c.Args, err)
	}
	metrics := flagValue(c.Args, "-metrics-listen")
	if port := portOf(t, metrics); containerPort(c, "metrics") != port || c.LivenessProbe.HTTPGet.Port.String() != "metrics" {
		t.Errorf("ingest listens on %s; container port %d; probe port %s", metrics, containerPort(c, "metrics"), c.LivenessProbe.HTTPGet.Port.String())
	}
	if ann := ex.deployments["freshctx-ingest"].Spec.Template.Annotations["prometheus.io/port"]; ann != strconv.Itoa(int(containerPort(c, "metrics"))) {
		t.Errorf("ingest: prometheus.io/port %s", ann)
	}
	for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe} {
		if code := getStatus(t, servedByIngest(t), p.HTTPGet.Path); code != http.StatusOK {
			t.Errorf("ingest probe %s: %d", p.HTTPGet.Path, code)
		}
	}
	if grace := time.Duration(*ing.TerminationGracePeriodSeconds) * time.Second; grace < cfg.Pipeline.DrainTimeout+10*time.Second {
		t.Errorf("ingest: terminationGracePeriodSeconds %s does not outlast pipeline.drain_timeout %s with room to commit", grace, cfg.Pipeline.DrainTimeout)
	}
	// The migration job runs `ingest migrate` with flags it takes.
	if len(ex.jobs) != 1 {
		t.Fatalf("jobs: %d", len(ex.jobs))
	}
	job := ex.jobs[0].Spec.Template.Spec.Containers[0]
	if err := run(context.Background(), append(localConfig(job.Args, cfgPath), "-help"), os.Getenv, io.Discard, io.Discard); job.Args[0] != "migrate" || !errors.Is(err, flag.ErrHelp) {
		t.Errorf("migration job %v: %v", job.Args, err)
	}

	// contextapi: its flags parse; the port is api.listen's; probes; grace.
	api := ex.deployments["freshctx-contextapi"].Spec.Template.Spec
	c = api.Containers[0]
	fs := flag.NewFlagSet("contextapi", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	wire.Flags(fs, "", io.Discard)
	fs.String("pprof-listen", "", "")
	if err := fs.Parse(c.Args); err != nil || fs.NArg() != 0 {
		t.Errorf("contextapi %v: %v", c.Args, err)
	}
	if port := portOf(t, cfg.API.Listen); containerPort(c, "http") != port {
		t.Errorf("contextapi listens on %s; container port %d", cfg.API.Listen, containerPort(c, "http"))
	}
	if c.LivenessProbe.HTTPGet.Path != "/healthz" || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Errorf("contextapi probes %s, %s", c.LivenessProbe.HTTPGet.Path, c.ReadinessProbe.HTTPGet.Path)
	}
	if grace := time.Duration(*api.TerminationGracePeriodSeconds) * time.Second; grace < 5*time.Second+10*time.Second {
		t.Errorf("contextapi: terminationGracePeriodSeconds %s does not outlast the preStop pause and the 10 s shutdown", grace)
	}
	svc := ex.services["freshctx-contextapi"]
	if svc == nil || !subset(svc.Spec.Selector, ex.deployments["freshctx-contextapi"].Spec.Template.Labels) || svc.Spec.Ports[0].TargetPort.String() != "http" {
		t.Errorf("contextapi Service: %+v", svc)
	}

	// Disruption budgets, autoscalers and KEDA point at the Deployments.
	for _, p := range ex.pdbs {
		d := ex.deployments[p.Name]
		if d == nil || !subset(p.Spec.Selector.MatchLabels, d.Spec.Template.Labels) {
			t.Errorf("PodDisruptionBudget %s selects no Deployment's pods", p.Name)
		}
	}
	if len(ex.pdbs) != 2 || len(ex.hpas) != 1 || ex.hpas[0].Spec.ScaleTargetRef.Name != "freshctx-contextapi" {
		t.Errorf("PDBs %d, HPAs %d", len(ex.pdbs), len(ex.hpas))
	}
	if len(ex.scaled) != 1 {
		t.Fatalf("ScaledObjects: %d", len(ex.scaled))
	}
	so := ex.scaled[0]
	trig := so.Spec.Triggers[0]
	switch {
	case so.Spec.ScaleTargetRef.Name != "freshctx-ingest":
		t.Errorf("KEDA scales %q", so.Spec.ScaleTargetRef.Name)
	case trig.Type != "kafka" || trig.Metadata["consumerGroup"] != cfg.Kafka.Group || trig.Metadata["bootstrapServers"] != cfg.Kafka.Brokers:
		t.Errorf("KEDA trigger %+v; the configuration's group %q, brokers %q", trig, cfg.Kafka.Group, cfg.Kafka.Brokers)
	case trig.Metadata["allowIdleConsumers"] != "false":
		t.Error("KEDA must not scale ingest beyond the partition count (allowIdleConsumers: false)")
	case so.Spec.MaxReplicaCount != 16 || base.scaled[0].Spec.MaxReplicaCount != 8:
		t.Errorf("maxReplicaCount: example %d (patched to 16), base %d", so.Spec.MaxReplicaCount, base.scaled[0].Spec.MaxReplicaCount)
	case so.Metadata.Namespace != "freshctx" || ex.deployments["freshctx-ingest"].Namespace != "freshctx":
		t.Error("the example overlay's namespace is not applied")
	}
}

func subset(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// localConfig replaces the value of -config with path.
func localConfig(args []string, path string) []string {
	out := append([]string(nil), args...)
	for i := range out {
		if out[i] == "-config" && i+1 < len(out) {
			out[i+1] = path
		}
	}
	return out
}

func flagValue(args []string, name string) string {
	for i := range args {
		if args[i] == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func portOf(t *testing.T, addr string) int32 {
	t.Helper()
	_, p, err := net.SplitHostPort(addr)
	n, err2 := strconv.Atoi(p)
	if err != nil || err2 != nil {
		t.Fatalf("address %q: %v", addr, err)
	}
	return int32(n)
}

func containerPort(c corev1.Container, name string) int32 {
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort
		}
	}
	return -1
}

// servedByIngest starts ingest's own metrics server (what -metrics-listen
// serves) on a free port and returns its base URL.
func servedByIngest(t *testing.T) string {
	t.Helper()
	addr := freePort(t)
	stop, err := serveMetrics(addr, wire.Registry(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return "http://" + addr
}

func getStatus(t *testing.T, base, path string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := http.Get(base + path)
		if err == nil {
			res.Body.Close()
			return res.StatusCode
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s%s: %v", base, path, err)
		}
		time.Sleep(20 * time.Millisecond) // the server's goroutine is starting
	}
}

func discardLogger() *slog.Logger {
	l, _ := wire.Logger(io.Discard, "error", "text")
	return l
}
