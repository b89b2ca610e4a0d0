// Package mcpdrift compares a format-2 catalog with what an MCP server lists
// now (its tools/list result, as `catalogkit import` reads it), tool by
// tool: a tool whose definition changed (which parts: title, description,
// annotations, inputSchema; its old and new digest), a tool the server no
// longer lists, and a tool the catalog does not have.
//
// A catalog tool belongs to the server when its origin names the server; it
// is matched to the server's tool its origin names. The server's tool is
// imported as `catalogkit import` would import it (objects closed, the same
// members kept), then compared, so that only a change on the server's side
// counts: what the catalog chose (name, family, effect, enabled) stays the
// catalog's, and the new digest is the digest the tool would have if the
// catalog took the server's definition as it is now.
package mcpdrift

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/mcpimport"
	"github.com/catalogkit/catalogkit/internal/mcpserve"
)

// A Status is what became of one tool.
type Status string

// The statuses, as the report writes them.
const (
	Unchanged   Status = "unchanged"
	Changed     Status = "changed"
	Disappeared Status = "disappeared"
	Appeared    Status = "appeared"
)

// Parts are the parts of a definition the server controls, in the order a
// report names them.
var Parts = []string{"title", "description", "annotations", "inputSchema"}

// A Tool is the report of one tool.
type Tool struct {
	Status Status `json:"status"`
	// Name is the catalog's name for the tool ("" for a tool that
	// appeared); ServerTool its name on the server.
	Name       string `json:"name,omitempty"`
	ServerTool string `json:"server_tool"`
	// Parts are the parts that changed, in the order of [Parts].
	Parts []string `json:"changed,omitempty"`
	// OldDigest is the tool's digest in the catalog; NewDigest its digest
	// with the server's definition of now ("" when the import refuses it).
	OldDigest string `json:"old_digest,omitempty"`
	NewDigest string `json:"new_digest,omitempty"`
	// Why says why the import refuses the server's definition now.
	Why string `json:"refused,omitempty"`
}

// String is the tool's line in the text report.
func (t Tool) String() string {
	name := t.Name
	switch {
	case name == "":
		name = t.ServerTool
	case name != t.ServerTool:
		name += " (the server's " + t.ServerTool + ")"
	}
	s := fmt.Sprintf("%-12s %s", t.Status, name)
	switch t.Status {
	case Changed:
		if len(t.Parts) > 0 {
			s += ": " + strings.Join(t.Parts, ", ") + " changed"
		}
		if t.Why != "" {
			s += "; the import now refuses it: " + t.Why
		}
		s += "; digest " + t.OldDigest + " -> "
		if t.NewDigest == "" {
			s += "none"
		} else {
			s += t.NewDigest
		}
	case Disappeared:
		s += ": the server no longer lists it; digest " + t.OldDigest
	case Appeared:
		s += ": not in the catalog"
		if t.Why != "" {
			s += " (the import would refuse it: " + t.Why + ")"
		} else {
			s += " (catalogkit import takes it)"
		}
	}
	return s
}

// A Report compares a catalog with a server: the catalog's tools of that
// server in catalog order, then the server's tools the catalog lacks, in
// the server's order.
type Report struct {
	Server string `json:"server"`
	Tools  []Tool `json:"tools"`
}

// Count returns how many tools have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, t := range r.Tools {
		if t.Status == s {
			n++
		}
	}
	return n
}

// Drifted reports whether any tool changed, disappeared or appeared.
func (r *Report) Drifted() bool { return r.Count(Unchanged) != len(r.Tools) }

// Summary is the report's last line.
func (r *Report) Summary() string {
	return fmt.Sprintf("%s: %d tools of the catalog: %d unchanged, %d changed, %d disappeared; %d appeared",
		r.Server, len(r.Tools)-r.Count(Appeared), r.Count(Unchanged), r.Count(Changed), r.Count(Disappeared), r.Count(Appeared))
}

// An Error says the catalog cannot be compared with the server.
type Error struct{ Detail string }

func (e *Error) Error() string { return e.Detail }

// Compare compares the format-2 catalog catalogText with the tools/list
// result live of the server named server. Errors: the catalog's own
// (*catalog.Error), an [*Error] when the catalog is not format 2 or no tool
// of it has that server as its origin, and the errors of mcpimport.Import
// for live.
func Compare(catalogText, live []byte, server string) (*Report, error) {
	v, err := catalog.ParseJSON(catalogText)
	if err != nil {
		return nil, err
	}
	c, err := catalog.Compile(v)
	if err != nil {
		return nil, err
	}
	if c.Format() != 2 {
		return nil, &Error{Detail: "the catalog is format 1, whose tools have no origin: drift compares a format-2 catalog (catalogkit import --server writes one)"}
	}
	tools, _ := v.Lookup("tools")
	var mine []catalog.Value // the catalog's tools of this server
	families := map[string]string{}
	var servers []string
	for i := range tools.Len() {
		t := tools.Index(i)
		s, name, ok := origin(t)
		switch {
		case !ok:
		case s == server:
			mine = append(mine, t)
			families[name] = text(t, "family")
		case !slices.Contains(servers, s):
			servers = append(servers, s)
		}
	}
	if len(mine) == 0 {
		known := "no tool of it has an origin (catalogkit import --server writes them)"
		if len(servers) > 0 {
			known = "the servers its origins name are " + strings.Join(quoteAll(servers), ", ")
		}
		return nil, &Error{Detail: fmt.Sprintf("no tool of the catalog has the origin server %q: %s", server, known)}
	}
	// The server's tools, imported as import would. A tool the catalog
	// lacks goes into a family of its own, only to be imported.
	res, err := mcpimport.Import(live, mcpimport.Options{Server: server, Families: families, Family: "appeared"})
	if err != nil {
		return nil, err
	}
	imported, _ := catalog.ParseJSON(res.Catalog)
	now := map[string]catalog.Value{}
	importedTools, _ := imported.Lookup("tools")
	for i := range importedTools.Len() {
		t := importedTools.Index(i)
		now[text(t, "name")] = t
	}
	why := map[string]string{}
	var listed []string // the server's tool names, in its order, once each
	for _, l := range res.Lines {
		if !slices.Contains(listed, l.Tool) {
			listed = append(listed, l.Tool)
			if l.Outcome == mcpimport.Refused {
				why[l.Tool] = l.Why
			}
		}
	}

	r := &Report{Server: server}
	matched := map[string]bool{}
	for _, t := range mine {
		_, st, _ := origin(t)
		matched[st] = true
		tool := Tool{Name: text(t, "name"), ServerTool: st, OldDigest: mcpserve.ToolDigest(t)}
		live, ok := now[st]
		switch {
		case !slices.Contains(listed, st):
			tool.Status = Disappeared
		case !ok:
			tool.Status, tool.Why = Changed, why[st]
		default:
			for _, p := range Parts {
				if part(t, p) != part(live, p) {
					tool.Parts = append(tool.Parts, p)
				}
			}
			tool.NewDigest = mcpserve.ToolDigest(redefine(t, live))
			tool.Status = Unchanged
			if len(tool.Parts) > 0 {
				tool.Status = Changed
			}
			if (tool.NewDigest == tool.OldDigest) != (len(tool.Parts) == 0) {
				panic("mcpdrift: internal error: the digest and the parts compared disagree for " + tool.Name)
			}
		}
		r.Tools = append(r.Tools, tool)
	}
	for _, st := range listed {
		if !matched[st] {
			r.Tools = append(r.Tools, Tool{Status: Appeared, ServerTool: st, Why: why[st]})
		}
	}
	return r, nil
}

// redefine returns the catalog tool t with the parts of live: what the
// catalog chose (name, family, effect, enabled, origin) stays, and the
// members are written in the catalog's canonical order.
func redefine(t, live catalog.Value) catalog.Value {
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range []string{"name", "family", "effect", "enabled", "title", "description", "annotations", "origin", "inputSchema"} {
		from := t
		if slices.Contains(Parts, k) {
			from = live
		}
		x, ok := from.Lookup(k)
		if !ok {
			continue
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.Write(catalog.AppendQuote(nil, k))
		b.WriteString(":" + x.String())
	}
	b.WriteString("}")
	v, err := catalog.ParseJSON(b.Bytes())
	if err != nil {
		panic("mcpdrift: internal error: a redefined tool is not JSON: " + err.Error())
	}
	return v
}

// part is one part of a definition as the catalog writes it ("" when the
// definition has none).
func part(t catalog.Value, key string) string {
	x, ok := t.Lookup(key)
	if !ok {
		return ""
	}
	return x.String()
}

// origin returns the server and the tool name a catalog tool's origin gives.
func origin(t catalog.Value) (server, tool string, ok bool) {
	o, ok := t.Lookup("origin")
	if !ok {
		return "", "", false
	}
	return text(o, "server"), text(o, "tool"), true
}

func text(v catalog.Value, key string) string {
	x, _ := v.Lookup(key)
	s, _ := x.Str()
	return s
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
