package main

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// getter is one load-generating client's HTTP/1.1 keep-alive connection: it
// writes a GET and reads the whole response into a buffer it reuses, and nothing
// else. net/http's client, with its read and write goroutines per connection and
// its allocations per request, cost the load generator ~110 µs of CPU per request:
// a third of what the whole machine spent on an answer, on the same two cores as
// the server it measures. A load generator should take as little of the machine as
// it can (as wrk and h2load do); this one takes ~a third of that.
type getter struct {
	host    string // host:port to dial
	header  string // extra header lines, each ending in CRLF (the API key)
	tls     bool
	timeout time.Duration
	conn    net.Conn
	r       *bufio.Reader
	req     []byte
	body    []byte
}

// newGetter makes a getter for base's host (it dials on the first get); key,
// when set, is sent as the Bearer token.
func newGetter(base *url.URL, key string, timeout time.Duration) (*getter, error) {
	g := &getter{host: base.Host, timeout: timeout}
	if key != "" {
		if strings.ContainsAny(key, "\r\n") {
			return nil, fmt.Errorf("-key: a key cannot hold a line break")
		}
		g.header = "Authorization: Bearer " + key + "\r\n"
	}
	switch base.Scheme {
	case "http":
	case "https":
		g.tls = true
	default:
		return nil, fmt.Errorf("-api: scheme %q, want http or https", base.Scheme)
	}
	if base.Port() == "" {
		port := "80"
		if g.tls {
			port = "443"
		}
		g.host = net.JoinHostPort(base.Hostname(), port)
	}
	return g, nil
}

// get requests target (a path with its query) and returns the status and the
// body, valid until the next call. A connection the server closes, or one that
// failed, is dialled again on the next call; a request is never retried.
func (g *getter) get(target string) (int, []byte, error) {
	if g.conn == nil {
		if err := g.dial(); err != nil {
			return 0, nil, err
		}
	}
	status, keep, err := g.roundTrip(target)
	if err != nil || !keep {
		g.close()
	}
	return status, g.body, err
}

func (g *getter) dial() error {
	c, err := net.DialTimeout("tcp", g.host, g.timeout)
	if err != nil {
		return err
	}
	if g.tls {
		host, _, _ := net.SplitHostPort(g.host)
		c = tls.Client(c, &tls.Config{ServerName: host})
	}
	g.conn = c
	if g.r == nil {
		g.r = bufio.NewReaderSize(c, 16<<10)
	} else {
		g.r.Reset(c)
	}
	return nil
}

func (g *getter) close() {
	if g.conn != nil {
		g.conn.Close()
		g.conn = nil
	}
}

func (g *getter) roundTrip(target string) (status int, keep bool, err error) {
	_ = g.conn.SetDeadline(time.Now().Add(g.timeout))
	g.req = append(g.req[:0], "GET "...)
	g.req = append(g.req, target...)
	g.req = append(g.req, " HTTP/1.1\r\nHost: "...)
	g.req = append(g.req, g.host...)
	g.req = append(g.req, "\r\nUser-Agent: freshctx-loadtest\r\nAccept: application/json\r\n"...)
	g.req = append(g.req, g.header...)
	g.req = append(g.req, "\r\n"...)
	if _, err := g.conn.Write(g.req); err != nil {
		return 0, false, err
	}
	line, err := g.line()
	if err != nil {
		return 0, false, err
	}
	// "HTTP/1.1 200 OK"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, false, fmt.Errorf("not an HTTP/1.x status line: %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, false, fmt.Errorf("status line %q: %w", line, err)
	}
	length, chunked := -1, false
	keep = line[7] == '1' // HTTP/1.1 keeps the connection unless told otherwise
	for {
		line, err := g.line()
		if err != nil {
			return status, false, err
		}
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return status, false, fmt.Errorf("header line %q", line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return status, false, fmt.Errorf("Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			keep = !bytes.EqualFold(value, []byte("close"))
		}
	}
	g.body = g.body[:0]
	switch {
	case chunked:
		err = g.readChunked()
	case length >= 0:
		err = g.readN(length)
	default: // the body runs to the end of the connection (rare: read into a new slice)
		g.body, err = io.ReadAll(g.r)
		keep = false
	}
	return status, keep && err == nil, err
}

// line reads one header line without its CRLF; it is valid until the next read.
func (g *getter) line() ([]byte, error) {
	line, err := g.r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, errors.New("header line longer than 16 KiB")
		}
		return nil, err
	}
	return bytes.TrimRight(line, "\r\n"), nil
}

func (g *getter) readN(n int) error {
	start := len(g.body)
	g.body = append(g.body, make([]byte, n)...)
	_, err := io.ReadFull(g.r, g.body[start:])
	return err
}

func (g *getter) readChunked() error {
	for {
		line, err := g.line()
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(line, []byte(";"))
		n, err := strconv.ParseInt(string(bytes.TrimSpace(size)), 16, 32)
		if err != nil || n < 0 {
			return fmt.Errorf("chunk size %q", line)
		}
		if n == 0 { // trailers, then the blank line
			for {
				t, err := g.line()
				if err != nil || len(t) == 0 {
					return err
				}
			}
		}
		if err := g.readN(int(n)); err != nil {
			return err
		}
		if crlf, err := g.line(); err != nil || len(crlf) != 0 {
			return fmt.Errorf("chunk not followed by CRLF")
		}
	}
}
