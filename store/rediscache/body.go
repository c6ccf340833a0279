package rediscache

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// decodeBody decodes a cached body as json.Marshal wrote it (compact, the
// fields of cachedEvent) without reflection, and with strings that need no
// unescaping read in place from data (a reply string, never changed). It
// reports false on anything else (another writer's layout, whitespace, an
// unknown field), and the caller decodes with encoding/json: on ~10 candidates
// per request, encoding/json's reflection was ~10% of the API's CPU.
func decodeBody(data string) (ce cachedEvent, ok bool) {
	d := bodyDecoder{s: data}
	if !d.byte('{') {
		return ce, false
	}
	for first := true; ; first = false {
		if d.byte('}') {
			return ce, d.i == len(d.s)
		}
		if !first && !d.byte(',') {
			return ce, false
		}
		key, ok := d.key()
		if !ok {
			return ce, false
		}
		switch key {
		case "id":
			ce.ID, ok = d.str()
		case "t":
			ce.TimeUS, ok = d.int()
		case "text":
			ce.Text, ok = d.str()
		case "attrs":
			var raw string
			if raw, ok = d.value(); ok {
				ok = json.Unmarshal(unsafe.Slice(unsafe.StringData(raw), len(raw)), &ce.Attrs) == nil
			}
		case "ver":
			ce.Version, ok = d.int()
		case "p":
			ok = d.provenance(&ce)
		case "cx":
			ce.Context, ok = d.str()
		case "exp":
			ce.Expires, ok = d.int()
		default:
			return ce, false
		}
		if !ok {
			return ce, false
		}
	}
}

type bodyDecoder struct {
	s string
	i int
}

// byte consumes c when it comes next.
func (d *bodyDecoder) byte(c byte) bool {
	if d.i < len(d.s) && d.s[d.i] == c {
		d.i++
		return true
	}
	return false
}

// key reads `"name":` (names need no unescaping).
func (d *bodyDecoder) key() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	j := strings.IndexByte(d.s[d.i:], '"')
	if j < 0 {
		return "", false
	}
	k := d.s[d.i : d.i+j]
	d.i += j + 1
	return k, !strings.ContainsRune(k, '\\') && d.byte(':')
}

// str reads a JSON string: in place when it has no escapes, else through
// encoding/json.
func (d *bodyDecoder) str() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start, ascii := d.i, true
	for ; d.i < len(d.s); d.i++ {
		switch c := d.s[d.i]; {
		case c == '"' && (ascii || utf8.ValidString(d.s[start:d.i])):
			d.i++
			return d.s[start : d.i-1], true
		case c >= utf8.RuneSelf:
			ascii = false
		case c == '\\' || c == '"': // an escape, or invalid UTF-8 (encoding/json replaces it)
			d.i = start - 1
			raw, ok := d.value()
			var v string
			return v, ok && json.Unmarshal(unsafe.Slice(unsafe.StringData(raw), len(raw)), &v) == nil
		case c < 0x20:
			return "", false
		}
	}
	return "", false
}

// int reads an integer.
func (d *bodyDecoder) int() (int64, bool) {
	start := d.i
	if d.i < len(d.s) && d.s[d.i] == '-' {
		d.i++
	}
	for d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9' {
		d.i++
	}
	n, err := strconv.ParseInt(d.s[start:d.i], 10, 64)
	return n, err == nil
}

// value skips one JSON value and returns its text: a string (with escapes),
// an object or array (nested), or a literal.
func (d *bodyDecoder) value() (string, bool) {
	start, depth, inString := d.i, 0, false
	for ; d.i < len(d.s); d.i++ {
		c := d.s[d.i]
		switch {
		case inString:
			switch c {
			case '\\':
				d.i++
			case '"':
				inString = false
				if depth == 0 {
					d.i++
					return d.s[start:d.i], true
				}
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth == 0 {
				return d.s[start:d.i], d.i > start // a literal ending its object
			}
			if depth--; depth == 0 {
				d.i++
				return d.s[start:d.i], true
			}
		case c == ',' && depth == 0:
			return d.s[start:d.i], d.i > start
		}
	}
	return "", false
}

// provenance reads the "p" object.
func (d *bodyDecoder) provenance(ce *cachedEvent) bool {
	if !d.byte('{') {
		return false
	}
	for first := true; ; first = false {
		if d.byte('}') {
			return true
		}
		if !first && !d.byte(',') {
			return false
		}
		key, ok := d.key()
		if !ok {
			return false
		}
		var n int64
		switch key {
		case "topic":
			ce.Prov.Topic, ok = d.str()
		case "partition":
			n, ok = d.int()
			ce.Prov.Partition = int32(n)
			ok = ok && int64(ce.Prov.Partition) == n
		case "offset":
			ce.Prov.Offset, ok = d.int()
		case "trace_id":
			ce.Prov.TraceID, ok = d.str()
		case "producer":
			ce.Prov.Producer, ok = d.str()
		default:
			return false
		}
		if !ok {
			return false
		}
	}
}
