// Command hclref is a test-only differential oracle: it answers questions about
// HCL inputs using the reference implementation (github.com/hashicorp/hcl/v2,
// as packaged by Debian: v2.14.1).
//
// Protocol: one JSON request per line on stdin, one JSON answer per line on
// stdout, in order. Every answer carries the request's "id" (if any) and
// either "error" (a malformed request or a recovered panic, with "panic": true
// for the latter) or the op-specific fields. See tests/oracle/README.md for
// the request and answer shapes.
//
// Positions: every position is reported as HCL reports it (1-based line,
// 1-based column counted in grapheme clusters, 0-based UTF-8 byte offset)
// plus "char", the 0-based offset in Unicode code points into the request's
// "src" (what a Python str index is). A byte offset inside a multi-byte
// character maps to that character; an offset past the end of src maps to
// len(chars) + the bytes beyond the end.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

const defaultFilename = "main.tf.json"

type attrSchema struct {
	Name     string `json:"name"`
	Required bool   `json:"required"`
}

type blockSchema struct {
	Type   string   `json:"type"`
	Labels []string `json:"labels"`
	// Body, when present, decodes each matching block's body with this schema.
	Body *bodySchema `json:"body"`
	// Mode for decoding Body: "content" (default), "partial", "just_attributes".
	Mode string `json:"mode"`
}

type bodySchema struct {
	Attributes []attrSchema  `json:"attributes"`
	Blocks     []blockSchema `json:"blocks"`
}

type request struct {
	ID       json.RawMessage `json:"id,omitempty"`
	Op       string          `json:"op"`
	Src      *string         `json:"src"`
	Filename string          `json:"filename"`
	Schema   *bodySchema     `json:"schema"`
	Mode     string          `json:"mode"`
	Syntax   string          `json:"syntax"`
	Eval     bool            `json:"eval"`
	// Vars, when present, are the only variables bound during "eval"
	// (values given as JSON, typed by cty's implied-type rules).
	Vars map[string]json.RawMessage `json:"vars"`
}

type jpos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
	Char   int `json:"char"`
}

type jrange struct {
	Filename string `json:"filename"`
	Start    jpos   `json:"start"`
	End      jpos   `json:"end"`
}

type jdiag struct {
	Severity string  `json:"severity"`
	Summary  string  `json:"summary"`
	Detail   string  `json:"detail"`
	Range    *jrange `json:"range"`
	Context  *jrange `json:"context"`
}

type jstep struct {
	Kind  string          `json:"kind"` // "root", "attr", "index", "splat"
	Name  string          `json:"name,omitempty"`
	Key   json.RawMessage `json:"key,omitempty"`
	KeyTy string          `json:"key_type,omitempty"`
	Range jrange          `json:"range"`
}

type jtraversal struct {
	Root  string  `json:"root"`
	Steps []jstep `json:"steps"`
	Range jrange  `json:"range"`
}

type jattr struct {
	Name      string       `json:"name"`
	NameRange jrange       `json:"name_range"`
	Range     jrange       `json:"range"`
	ExprRange jrange       `json:"expr_range"`
	Variables []jtraversal `json:"variables"`
}

type jblock struct {
	Type        string   `json:"type"`
	Labels      []string `json:"labels"`
	LabelRanges []jrange `json:"label_ranges"`
	TypeRange   jrange   `json:"type_range"`
	DefRange    jrange   `json:"def_range"`
	Body        *jbody   `json:"body,omitempty"`
}

type jbody struct {
	Attributes       []jattr  `json:"attributes"`
	Blocks           []jblock `json:"blocks"`
	MissingItemRange *jrange  `json:"missing_item_range,omitempty"`
}

// posMap converts byte offsets of one source text to code point offsets.
type posMap struct {
	charAt []int // charAt[b] = index of the character containing byte b; charAt[len] = #chars
}

func newPosMap(src string) *posMap {
	m := &posMap{charAt: make([]int, len(src)+1)}
	k := 0
	for i := 0; i < len(src); {
		_, size := utf8.DecodeRuneInString(src[i:])
		for j := 0; j < size; j++ {
			m.charAt[i+j] = k
		}
		i += size
		k++
	}
	m.charAt[len(src)] = k
	return m
}

func (m *posMap) char(b int) int {
	n := len(m.charAt) - 1
	if b < 0 {
		return b
	}
	if b > n {
		return m.charAt[n] + (b - n)
	}
	return m.charAt[b]
}

func (m *posMap) pos(p hcl.Pos) jpos {
	return jpos{Line: p.Line, Column: p.Column, Byte: p.Byte, Char: m.char(p.Byte)}
}

func (m *posMap) rng(r hcl.Range) jrange {
	return jrange{Filename: r.Filename, Start: m.pos(r.Start), End: m.pos(r.End)}
}

func (m *posMap) rngPtr(r *hcl.Range) *jrange {
	if r == nil {
		return nil
	}
	out := m.rng(*r)
	return &out
}

func (m *posMap) diags(ds hcl.Diagnostics) []jdiag {
	out := []jdiag{}
	for _, d := range ds {
		sev := "invalid"
		switch d.Severity {
		case hcl.DiagError:
			sev = "error"
		case hcl.DiagWarning:
			sev = "warning"
		}
		out = append(out, jdiag{
			Severity: sev,
			Summary:  d.Summary,
			Detail:   d.Detail,
			Range:    m.rngPtr(d.Subject),
			Context:  m.rngPtr(d.Context),
		})
	}
	return out
}

func ctyJSON(v cty.Value) (json.RawMessage, string) {
	if !v.IsWhollyKnown() {
		return json.RawMessage("null"), v.Type().FriendlyName()
	}
	buf, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return json.RawMessage("null"), v.Type().FriendlyName()
	}
	return json.RawMessage(buf), v.Type().FriendlyName()
}

func (m *posMap) traversal(t hcl.Traversal) jtraversal {
	out := jtraversal{Steps: []jstep{}, Range: m.rng(t.SourceRange())}
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			out.Root = s.Name
			out.Steps = append(out.Steps, jstep{Kind: "root", Name: s.Name, Range: m.rng(s.SrcRange)})
		case hcl.TraverseAttr:
			out.Steps = append(out.Steps, jstep{Kind: "attr", Name: s.Name, Range: m.rng(s.SrcRange)})
		case hcl.TraverseIndex:
			key, ty := ctyJSON(s.Key)
			out.Steps = append(out.Steps, jstep{Kind: "index", Key: key, KeyTy: ty, Range: m.rng(s.SrcRange)})
		case hcl.TraverseSplat:
			out.Steps = append(out.Steps, jstep{Kind: "splat", Range: m.rng(s.SrcRange)})
		default:
			out.Steps = append(out.Steps, jstep{Kind: fmt.Sprintf("%T", step), Range: m.rng(step.SourceRange())})
		}
	}
	return out
}

func (m *posMap) traversals(ts []hcl.Traversal) []jtraversal {
	out := []jtraversal{}
	for _, t := range ts {
		out = append(out, m.traversal(t))
	}
	return out
}

func toHCLSchema(s *bodySchema) *hcl.BodySchema {
	out := &hcl.BodySchema{}
	if s == nil {
		return out
	}
	for _, a := range s.Attributes {
		out.Attributes = append(out.Attributes, hcl.AttributeSchema{Name: a.Name, Required: a.Required})
	}
	for _, b := range s.Blocks {
		out.Blocks = append(out.Blocks, hcl.BlockHeaderSchema{Type: b.Type, LabelNames: b.Labels})
	}
	return out
}

func (m *posMap) attrs(as hcl.Attributes) []jattr {
	out := []jattr{}
	for _, a := range as {
		out = append(out, jattr{
			Name:      a.Name,
			NameRange: m.rng(a.NameRange),
			Range:     m.rng(a.Range),
			ExprRange: m.rng(a.Expr.Range()),
			Variables: m.traversals(a.Expr.Variables()),
		})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].NameRange.Start.Byte != out[j].NameRange.Start.Byte {
			return out[i].NameRange.Start.Byte < out[j].NameRange.Start.Byte
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// decodeBody decodes body with schema in the given mode, recursing into the
// bodies of blocks whose schema entry carries a nested "body" schema.
func (m *posMap) decodeBody(body hcl.Body, schema *bodySchema, mode string) (*jbody, hcl.Diagnostics, error) {
	out := &jbody{Attributes: []jattr{}, Blocks: []jblock{}}
	var diags hcl.Diagnostics
	var content *hcl.BodyContent
	switch mode {
	case "", "content":
		content, diags = body.Content(toHCLSchema(schema))
	case "partial":
		content, _, diags = body.PartialContent(toHCLSchema(schema))
	case "just_attributes":
		as, ds := body.JustAttributes()
		out.Attributes = m.attrs(as)
		mr := body.MissingItemRange()
		out.MissingItemRange = m.rngPtr(&mr)
		return out, ds, nil
	default:
		return nil, nil, fmt.Errorf("unknown mode %q (want content, partial or just_attributes)", mode)
	}
	out.Attributes = m.attrs(content.Attributes)
	mr := content.MissingItemRange
	out.MissingItemRange = m.rngPtr(&mr)
	nested := map[string]blockSchema{}
	if schema != nil {
		for _, b := range schema.Blocks {
			nested[b.Type] = b
		}
	}
	for _, b := range content.Blocks {
		jb := jblock{
			Type:        b.Type,
			Labels:      append([]string{}, b.Labels...),
			LabelRanges: []jrange{},
			TypeRange:   m.rng(b.TypeRange),
			DefRange:    m.rng(b.DefRange),
		}
		for _, lr := range b.LabelRanges {
			jb.LabelRanges = append(jb.LabelRanges, m.rng(lr))
		}
		if bs, ok := nested[b.Type]; ok && bs.Body != nil {
			inner, innerDiags, err := m.decodeBody(b.Body, bs.Body, bs.Mode)
			if err != nil {
				return nil, nil, err
			}
			diags = append(diags, innerDiags...)
			jb.Body = inner
		}
		out.Blocks = append(out.Blocks, jb)
	}
	return out, diags, nil
}

// evalJSON evaluates a JSON-syntax expression the way Terraform evaluates
// configuration: strings are parsed as templates. Without given vars, every
// referenced root variable is bound to an unknown value; no functions are
// defined.
func evalJSON(expr hcl.Expression, given map[string]json.RawMessage) (cty.Value, hcl.Diagnostics, error) {
	vars := map[string]cty.Value{}
	if given == nil {
		for _, t := range expr.Variables() {
			vars[t.RootName()] = cty.DynamicVal
		}
	} else {
		for name, raw := range given {
			ty, err := ctyjson.ImpliedType(raw)
			if err != nil {
				return cty.NilVal, nil, fmt.Errorf("vars[%q]: %v", name, err)
			}
			v, err := ctyjson.Unmarshal(raw, ty)
			if err != nil {
				return cty.NilVal, nil, fmt.Errorf("vars[%q]: %v", name, err)
			}
			vars[name] = v
		}
	}
	val, diags := expr.Value(&hcl.EvalContext{Variables: vars})
	return val, diags, nil
}

func handle(req *request) (map[string]interface{}, error) {
	if req.Src == nil {
		return nil, fmt.Errorf("missing \"src\"")
	}
	src := *req.Src
	filename := req.Filename
	if filename == "" {
		filename = defaultFilename
	}
	m := newPosMap(src)
	start := hcl.InitialPos
	out := map[string]interface{}{}
	switch req.Op {
	case "json_parse":
		_, diags := hcljson.Parse([]byte(src), filename)
		out["diagnostics"] = m.diags(diags)
	case "json_expression":
		expr, diags := hcljson.ParseExpression([]byte(src), filename)
		out["range"] = m.rng(expr.Range())
		out["variables"] = m.traversals(expr.Variables())
		if req.Eval && !diags.HasErrors() {
			val, evalDiags, err := evalJSON(expr, req.Vars)
			if err != nil {
				return nil, err
			}
			diags = append(diags, evalDiags...)
			v, ty := ctyJSON(val)
			out["value"] = v
			out["value_type"] = ty
			out["value_known"] = val.IsWhollyKnown()
		}
		out["diagnostics"] = m.diags(diags)
	case "json_body":
		f, diags := hcljson.Parse([]byte(src), filename)
		body, bodyDiags, err := m.decodeBody(f.Body, req.Schema, req.Mode)
		if err != nil {
			return nil, err
		}
		diags = append(diags, bodyDiags...)
		out["diagnostics"] = m.diags(diags)
		out["attributes"] = body.Attributes
		out["blocks"] = body.Blocks
		out["missing_item_range"] = body.MissingItemRange
	case "template":
		expr, diags := hclsyntax.ParseTemplate([]byte(src), filename, start)
		out["diagnostics"] = m.diags(diags)
		out["variables"] = m.traversals(expr.Variables())
		out["range"] = m.rng(expr.Range())
	case "expression":
		expr, diags := hclsyntax.ParseExpression([]byte(src), filename, start)
		out["diagnostics"] = m.diags(diags)
		out["variables"] = m.traversals(expr.Variables())
		out["range"] = m.rng(expr.Range())
	case "traversal":
		var trav hcl.Traversal
		var diags hcl.Diagnostics
		switch req.Syntax {
		case "", "native":
			trav, diags = hclsyntax.ParseTraversalAbs([]byte(src), filename, start)
		case "json":
			expr, parseDiags := hcljson.ParseExpression([]byte(src), filename)
			diags = parseDiags
			if !parseDiags.HasErrors() {
				var travDiags hcl.Diagnostics
				trav, travDiags = hcl.AbsTraversalForExpr(expr)
				diags = append(diags, travDiags...)
			}
		default:
			return nil, fmt.Errorf("unknown syntax %q (want native or json)", req.Syntax)
		}
		out["diagnostics"] = m.diags(diags)
		if trav == nil {
			out["traversal"] = nil
		} else {
			out["traversal"] = m.traversal(trav)
		}
	case "type":
		var expr hcl.Expression
		var diags hcl.Diagnostics
		switch req.Syntax {
		case "", "native":
			expr, diags = hclsyntax.ParseExpression([]byte(src), filename, start)
		case "json":
			expr, diags = hcljson.ParseExpression([]byte(src), filename)
		default:
			return nil, fmt.Errorf("unknown syntax %q (want native or json)", req.Syntax)
		}
		out["type"] = nil
		out["type_json"] = nil
		out["has_defaults"] = false
		if !diags.HasErrors() {
			ty, defaults, tyDiags := typeexpr.TypeConstraintWithDefaults(expr)
			diags = append(diags, tyDiags...)
			if !tyDiags.HasErrors() {
				out["type"] = typeexpr.TypeString(ty)
				if tj, err := ctyjson.MarshalType(ty); err == nil {
					out["type_json"] = json.RawMessage(tj)
				}
				out["has_defaults"] = defaults != nil
			}
		}
		out["diagnostics"] = m.diags(diags)
	default:
		return nil, fmt.Errorf("unknown op %q", req.Op)
	}
	return out, nil
}

func answer(line []byte) (resp map[string]interface{}) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return map[string]interface{}{"error": "bad request: " + err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			resp = map[string]interface{}{
				"error": fmt.Sprintf("panic: %v\n%s", r, debug.Stack()),
				"panic": true,
			}
			if req.ID != nil {
				resp["id"] = req.ID
			}
		}
	}()
	out, err := handle(&req)
	if err != nil {
		out = map[string]interface{}{"error": err.Error()}
	}
	if req.ID != nil {
		out["id"] = req.ID
	}
	return out
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println("hclref (hashicorp/hcl v2, Debian golang-github-hashicorp-hcl-v2-dev)")
		return
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 && !(len(line) == 1 && line[0] == '\n') {
			if encErr := enc.Encode(answer(line)); encErr != nil {
				fmt.Fprintln(os.Stderr, "hclref: encode:", encErr)
				os.Exit(2)
			}
			if flushErr := w.Flush(); flushErr != nil {
				os.Exit(2)
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "hclref: read:", err)
			os.Exit(2)
		}
	}
}
