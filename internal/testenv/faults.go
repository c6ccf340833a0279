package testenv

import (
	"net"
	"sync"
	"testing"
	"time"
)

// Faults cuts TCP connections on demand: Cut closes every open connection and
// refuses new ones (they are accepted and closed at once) until Restore. Use it
// as kfake's listener (kfake.ListenFn(f.Listen)) or through Proxy in front of
// PostgreSQL or Redis: the clients see a real network failure.
type Faults struct {
	mu      sync.Mutex
	down    bool
	latency time.Duration // added before forwarding each read (Proxy only)
	conns   map[net.Conn]struct{}
}

// SetLatency makes a Proxy wait d before forwarding each chunk it reads, in both
// directions: a slow network or an overloaded server.
func (f *Faults) SetLatency(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.latency = d
}

func (f *Faults) delay() time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.latency
}

// NewFaults returns a Faults with every connection allowed.
func NewFaults() *Faults { return &Faults{conns: map[net.Conn]struct{}{}} }

// Cut closes every connection and refuses new ones.
func (f *Faults) Cut() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = true
	for c := range f.conns {
		c.Close()
	}
	f.conns = map[net.Conn]struct{}{}
}

// Restore lets connections through again.
func (f *Faults) Restore() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = false
}

func (f *Faults) track(c net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return false
	}
	f.conns[c] = struct{}{}
	return true
}

func (f *Faults) untrack(c net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.conns, c)
}

// Listen is a net.Listen whose connections Cut closes.
func (f *Faults) Listen(network, address string) (net.Listener, error) {
	ln, err := net.Listen(network, address)
	if err != nil {
		return nil, err
	}
	return &faultListener{Listener: ln, f: f}, nil
}

type faultListener struct {
	net.Listener
	f *Faults
}

func (l *faultListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if !l.f.track(c) {
			c.Close()
			continue
		}
		return &faultConn{Conn: c, f: l.f}, nil
	}
}

type faultConn struct {
	net.Conn
	f    *Faults
	once sync.Once
}

func (c *faultConn) Close() error {
	c.once.Do(func() { c.f.untrack(c.Conn) })
	return c.Conn.Close()
}

// Proxy forwards TCP connections to target through a Faults; it returns the
// proxy's address. It stops when the test ends.
func Proxy(t testing.TB, target string) (string, *Faults) {
	t.Helper()
	f := NewFaults()
	ln, err := f.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() {
		ln.Close()
		f.Cut()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			if !f.track(up) {
				c.Close()
				up.Close()
				continue
			}
			wg.Add(2)
			pipe := func(dst, src net.Conn) {
				defer wg.Done()
				buf := make([]byte, 32<<10)
				for {
					n, err := src.Read(buf)
					if n > 0 {
						if d := f.delay(); d > 0 {
							time.Sleep(d)
						}
						if _, werr := dst.Write(buf[:n]); werr != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				dst.Close()
				src.Close()
				f.untrack(up)
			}
			go pipe(up, c)
			go pipe(c, up)
		}
	}()
	return ln.Addr().String(), f
}
