package milvustest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/milvus-io/milvus-proto/go-api/v2/schemapb"
)

// The boolean expressions of Milvus filters, as far as freshctx uses them:
//
//	expr   := and ("||" and)*
//	and    := unary ("&&" unary)*
//	unary  := "(" expr ")" | operand (op operand | "in" operand)
//	operand:= field | field["key"] | "string" | number | true | false | {param} | [operand, ...]
//
// Template parameters ({name}) are resolved from the request's
// expr_template_values; an unknown one is an error, as in Milvus.

type node interface{ eval(row map[string]any) any }

type lit struct{ v any }
type field struct{ name, key string }
type list []node
type binop struct {
	op   string
	l, r node
}

func (l lit) eval(map[string]any) any { return l.v }

func (f field) eval(row map[string]any) any {
	v, ok := row[f.name]
	if !ok {
		return nil
	}
	if f.key == "" {
		return v
	}
	b, _ := v.([]byte)
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m[f.key]
}

func (l list) eval(row map[string]any) any {
	out := make([]any, len(l))
	for i, n := range l {
		out[i] = n.eval(row)
	}
	return out
}

func truth(v any) bool { b, _ := v.(bool); return b }

func (b binop) eval(row map[string]any) any {
	switch b.op {
	case "&&":
		return truth(b.l.eval(row)) && truth(b.r.eval(row))
	case "||":
		return truth(b.l.eval(row)) || truth(b.r.eval(row))
	case "in":
		x := b.l.eval(row)
		items, _ := b.r.eval(row).([]any)
		for _, it := range items {
			if c, ok := compare(x, it); ok && c == 0 {
				return true
			}
		}
		return false
	}
	c, ok := compare(b.l.eval(row), b.r.eval(row))
	if !ok {
		return b.op == "!="
	}
	switch b.op {
	case "==":
		return c == 0
	case "!=":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

func compare(a, b any) (int, bool) {
	if x, ok := number(a); ok {
		if y, ok := number(b); ok {
			// int64 against int64 exactly (versions are near the int64 limits).
			if xi, ok := a.(int64); ok {
				if yi, ok := b.(int64); ok {
					switch {
					case xi < yi:
						return -1, true
					case xi > yi:
						return 1, true
					}
					return 0, true
				}
			}
			switch {
			case x < y:
				return -1, true
			case x > y:
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return strings.Compare(x, y), ok
	case bool:
		y, ok := b.(bool)
		if !ok {
			return 0, false
		}
		if x == y {
			return 0, true
		}
		return 1, true
	}
	return 0, false
}

type parser struct {
	s      string
	i      int
	params map[string]*schemapb.TemplateValue
}

func parse(s string, params map[string]*schemapb.TemplateValue) (node, error) {
	p := &parser{s: s, params: params}
	n, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("unexpected %q at %d", p.s[p.i:], p.i)
	}
	return n, nil
}

func (p *parser) space() {
	for p.i < len(p.s) && unicode.IsSpace(rune(p.s[p.i])) {
		p.i++
	}
}

func (p *parser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *parser) expr() (node, error) {
	l, err := p.and()
	for err == nil && p.eat("||") {
		var r node
		if r, err = p.and(); err == nil {
			l = binop{"||", l, r}
		}
	}
	return l, err
}

func (p *parser) and() (node, error) {
	l, err := p.unary()
	for err == nil && p.eat("&&") {
		var r node
		if r, err = p.unary(); err == nil {
			l = binop{"&&", l, r}
		}
	}
	return l, err
}

func (p *parser) unary() (node, error) {
	if p.eat("(") {
		n, err := p.expr()
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, fmt.Errorf("missing ) at %d", p.i)
		}
		return n, nil
	}
	l, err := p.operand()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.eat("in ") || p.eat("in[") {
		if p.s[p.i-1] == '[' {
			p.i--
		}
		r, err := p.operand()
		return binop{"in", l, r}, err
	}
	for _, op := range []string{"==", "!=", ">=", "<=", ">", "<"} {
		if p.eat(op) {
			r, err := p.operand()
			return binop{op, l, r}, err
		}
	}
	return nil, fmt.Errorf("expected a comparison at %d", p.i)
}

func (p *parser) operand() (node, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, fmt.Errorf("unexpected end")
	}
	switch c := p.s[p.i]; {
	case c == '"':
		s, err := p.str()
		return lit{s}, err
	case c == '{':
		end := strings.IndexByte(p.s[p.i:], '}')
		if end < 0 {
			return nil, fmt.Errorf("unclosed template at %d", p.i)
		}
		name := p.s[p.i+1 : p.i+end]
		p.i += end + 1
		tv, ok := p.params[name]
		if !ok {
			return nil, fmt.Errorf("template parameter {%s} has no value", name)
		}
		return lit{templateValue(tv)}, nil
	case c == '[':
		p.i++
		var l list
		for !p.eat("]") {
			n, err := p.operand()
			if err != nil {
				return nil, err
			}
			l = append(l, n)
			p.eat(",")
		}
		return l, nil
	case c == '-' || (c >= '0' && c <= '9'):
		j := p.i + 1
		for j < len(p.s) && (p.s[j] >= '0' && p.s[j] <= '9' || p.s[j] == '.') {
			j++
		}
		t := p.s[p.i:j]
		p.i = j
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			return lit{n}, nil
		}
		f, err := strconv.ParseFloat(t, 64)
		return lit{f}, err
	case unicode.IsLetter(rune(c)) || c == '_':
		j := p.i
		for j < len(p.s) && (unicode.IsLetter(rune(p.s[j])) || unicode.IsDigit(rune(p.s[j])) || p.s[j] == '_') {
			j++
		}
		name := p.s[p.i:j]
		p.i = j
		switch name {
		case "true":
			return lit{true}, nil
		case "false":
			return lit{false}, nil
		}
		if p.i < len(p.s) && p.s[p.i] == '[' {
			p.i++
			key, err := p.str()
			if err != nil {
				return nil, err
			}
			if !p.eat("]") {
				return nil, fmt.Errorf("missing ] at %d", p.i)
			}
			return field{name, key}, nil
		}
		return field{name: name}, nil
	}
	return nil, fmt.Errorf("unexpected %q at %d", p.s[p.i:], p.i)
}

// str reads a double-quoted string with backslash escapes.
func (p *parser) str() (string, error) {
	if p.i >= len(p.s) || p.s[p.i] != '"' {
		return "", fmt.Errorf("expected a string at %d", p.i)
	}
	var b strings.Builder
	for j := p.i + 1; j < len(p.s); j++ {
		switch c := p.s[j]; c {
		case '\\':
			if j+1 >= len(p.s) {
				return "", fmt.Errorf("dangling escape")
			}
			j++
			b.WriteByte(p.s[j])
		case '"':
			p.i = j + 1
			return b.String(), nil
		default:
			b.WriteByte(c)
		}
	}
	return "", fmt.Errorf("unterminated string")
}

func templateValue(tv *schemapb.TemplateValue) any {
	switch v := tv.GetVal().(type) {
	case *schemapb.TemplateValue_BoolVal:
		return v.BoolVal
	case *schemapb.TemplateValue_Int64Val:
		return v.Int64Val
	case *schemapb.TemplateValue_FloatVal:
		return v.FloatVal
	case *schemapb.TemplateValue_StringVal:
		return v.StringVal
	case *schemapb.TemplateValue_ArrayVal:
		var out []any
		a := v.ArrayVal
		for _, x := range a.GetStringData().GetData() {
			out = append(out, x)
		}
		for _, x := range a.GetLongData().GetData() {
			out = append(out, x)
		}
		for _, x := range a.GetDoubleData().GetData() {
			out = append(out, x)
		}
		for _, x := range a.GetBoolData().GetData() {
			out = append(out, x)
		}
		return out
	}
	return nil
}
