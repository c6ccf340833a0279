// Package milvusconf is the Milvus store's configuration, apart from the store:
// the configuration is read and checked by every build, while the Milvus client
// that the store links (with its dependencies, ~25 MB of binary) is only in the
// full build (docs/adr/0017-lean-and-full-builds.md).
package milvusconf

import (
	"errors"
	"fmt"
	"regexp"
)

// Config selects and tunes the Milvus store.
type Config struct {
	// Addr is Milvus's gRPC address, host:19530. Required with store: milvus.
	Addr string `yaml:"addr"`
	// Username and the password in the variable PasswordEnv names authenticate
	// when Milvus has auth on.
	Username    string `yaml:"username"`
	PasswordEnv string `yaml:"password_env"`
	// Password is read from PasswordEnv at load (config), never from the file.
	Password string `yaml:"-"`
	// Database is the Milvus database. Default: Milvus's default.
	Database string `yaml:"database"`
	// Prefix names the collections. Default "freshctx".
	Prefix string `yaml:"prefix"`
	// Consistency is the read consistency: session (default: a process reads its own
	// writes), strong, bounded or eventually.
	Consistency string `yaml:"consistency"`
	// FullText is the analyzer of the knowledge chunks' BM25 field (Milvus ≥
	// 2.5): standard (default), english or chinese; off keeps knowledge search
	// vector-only (older Milvus). It takes effect when the chunks collection is
	// created.
	FullText string `yaml:"full_text"`
}

// WithDefaults fills unset fields.
func (c Config) WithDefaults() Config {
	if c.Prefix == "" {
		c.Prefix = "freshctx"
	}
	if c.Consistency == "" {
		c.Consistency = "session"
	}
	if c.FullText == "" {
		c.FullText = "standard"
	}
	return c
}

var prefixRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,200}$`)

// Validate reports the first invalid field.
func (c Config) Validate() error {
	switch {
	case c.Addr == "":
		return errors.New("addr: required (host:19530)")
	case !prefixRE.MatchString(c.Prefix):
		return fmt.Errorf("prefix: %q must be letters, digits and _", c.Prefix)
	}
	switch c.Consistency {
	case "session", "strong", "bounded", "eventually":
	default:
		return fmt.Errorf("consistency: %q is not one of session, strong, bounded, eventually", c.Consistency)
	}
	switch c.FullText {
	case "standard", "english", "chinese", "off":
	default:
		return fmt.Errorf("full_text: %q is not one of standard, english, chinese, off", c.FullText)
	}
	return nil
}
