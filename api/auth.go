package api

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Auth configures who may call the API. Keys map callers to tenants: every read
// is scoped to the tenant of the key that made it, never to a request parameter.
type Auth struct {
	// Mode is "keys" (every /v1 and /mcp call needs a key) or "none" (development
	// only: every call reads api.tenant, and a warning is logged at start). Required.
	Mode string `yaml:"mode"`
	// Keys are the API keys, stored as SHA-256 hashes.
	Keys []Key `yaml:"keys"`
	// RatePerSecond is each key's sustained request rate. Default 100.
	RatePerSecond float64 `yaml:"rate_per_second"`
	// Burst is how many requests a key may make at once. Default 200.
	Burst int `yaml:"burst"`
}

// Key is one API key.
type Key struct {
	// Name identifies the key in logs and metrics (never the key itself).
	Name string `yaml:"name"`
	// Tenant is the only tenant the key reads.
	Tenant string `yaml:"tenant"`
	// SHA256 is the hex SHA-256 of the key (`printf %s "$KEY" | sha256sum`), or
	Sha256 string `yaml:"sha256"`
	// Env names an environment variable holding the key itself; it is hashed at
	// start and the variable's value is never logged.
	Env string `yaml:"env"`
	// Secret is the key read from Env by the config loader; not in the file.
	Secret string `yaml:"-"`
}

// Auth modes.
const (
	AuthKeys = "keys"
	AuthNone = "none"
)

func (a Auth) withDefaults() Auth {
	if a.RatePerSecond == 0 {
		a.RatePerSecond = 100
	}
	if a.Burst == 0 {
		a.Burst = 200
	}
	return a
}

func (a Auth) validate() error {
	switch a.Mode {
	case AuthNone:
		return nil
	case AuthKeys:
	case "":
		return errors.New("auth.mode: required: keys (with auth.keys), or none for development without authentication")
	default:
		return fmt.Errorf("auth.mode: %q is not one of keys, none", a.Mode)
	}
	if len(a.Keys) == 0 {
		return errors.New("auth.keys: at least one key is required with mode keys")
	}
	names := map[string]bool{}
	for i, k := range a.Keys {
		switch {
		case k.Name == "" || names[k.Name]:
			return fmt.Errorf("auth.keys[%d].name: required and unique", i)
		case k.Tenant == "":
			return fmt.Errorf("auth.keys[%d].tenant: required", i)
		case (k.Sha256 == "") == (k.Env == ""):
			return fmt.Errorf("auth.keys[%d]: set exactly one of sha256, env", i)
		case k.Sha256 != "":
			if b, err := hex.DecodeString(k.Sha256); err != nil || len(b) != sha256.Size {
				return fmt.Errorf("auth.keys[%d].sha256: not a hex SHA-256", i)
			}
		case len(k.Secret) < 16:
			return fmt.Errorf("auth.keys[%d].env: $%s must hold a key of at least 16 characters", i, k.Env)
		}
		names[k.Name] = true
	}
	if a.RatePerSecond < 0 || a.Burst < 0 {
		return errors.New("auth.rate_per_second, auth.burst: must not be negative")
	}
	return nil
}

// caller is who made a request: the key (empty name in development mode) and
// its tenant.
type caller struct {
	name   string
	tenant string
}

type callerKey struct{}

func withCaller(ctx context.Context, c caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

func callerOf(ctx context.Context) (caller, bool) {
	c, ok := ctx.Value(callerKey{}).(caller)
	return c, ok
}

// authenticator checks keys in constant time and limits each key's rate.
type authenticator struct {
	mode   string
	tenant string // development mode
	keys   []hashedKey
	rate   float64
	burst  float64
	now    func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type hashedKey struct {
	name, tenant string
	hash         [sha256.Size]byte
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newAuthenticator(a Auth, devTenant string) *authenticator {
	a = a.withDefaults()
	au := &authenticator{mode: a.Mode, tenant: devTenant, rate: a.RatePerSecond, burst: float64(a.Burst),
		now: time.Now, buckets: map[string]*bucket{}}
	if au.mode == "" {
		au.mode = AuthNone // a Server built without configuration (tests, embedding)
	}
	for _, k := range a.Keys {
		hk := hashedKey{name: k.Name, tenant: k.Tenant}
		if k.Secret != "" {
			hk.hash = sha256.Sum256([]byte(k.Secret))
		} else {
			b, _ := hex.DecodeString(k.Sha256)
			copy(hk.hash[:], b)
		}
		au.keys = append(au.keys, hk)
	}
	return au
}

// verify returns the key a token belongs to. It hashes the token and compares it
// with every key in constant time, so timing reveals neither the key nor which one
// matched.
func (a *authenticator) verify(token string) (caller, bool) {
	h := sha256.Sum256([]byte(token))
	var found caller
	ok := 0
	for _, k := range a.keys {
		if subtle.ConstantTimeCompare(h[:], k.hash[:]) == 1 {
			found, ok = caller{name: k.name, tenant: k.tenant}, 1
		}
	}
	return found, ok == 1
}

// allow takes a token from the key's bucket, or says how long to wait.
func (a *authenticator) allow(name string) (bool, time.Duration) {
	if a.rate <= 0 {
		return true, 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	b, ok := a.buckets[name]
	if !ok {
		b = &bucket{tokens: a.burst, at: now}
		a.buckets[name] = b
	}
	b.tokens = math.Min(a.burst, b.tokens+now.Sub(b.at).Seconds()*a.rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / a.rate * float64(time.Second))
}

// authenticate identifies the caller of r: 401 without a valid key, 403 when the
// request names another tenant, 429 over the key's rate.
func (a *authenticator) authenticate(r *http.Request) (caller, error) {
	var c caller
	if a.mode == AuthNone {
		c = caller{tenant: a.tenant}
	} else {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" {
			return c, &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Msg: "an API key is required: Authorization: Bearer <key>"}
		}
		if c, ok = a.verify(strings.TrimSpace(token)); !ok {
			return c, &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Msg: "the API key is not valid"}
		}
	}
	// The tenant comes from the key. A request that names another one is refused
	// rather than silently answered for the key's tenant.
	for _, t := range []string{r.URL.Query().Get("tenant"), r.Header.Get("X-Tenant")} {
		if t != "" && t != c.tenant {
			return c, &Error{Status: http.StatusForbidden, Code: "forbidden", Msg: "this key reads tenant " + strconv.Quote(c.tenant) + " only"}
		}
	}
	if a.mode == AuthNone {
		return c, nil // development: no keys, so no per-key rate either
	}
	if ok, wait := a.allow(c.name); !ok {
		return c, &Error{Status: http.StatusTooManyRequests, Code: "rate_limited", Msg: "rate limit reached for this key", retryAfter: wait}
	}
	return c, nil
}
