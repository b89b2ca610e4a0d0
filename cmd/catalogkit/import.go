package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/mcpimport"
	"github.com/catalogkit/catalogkit/internal/shared/atomicfile"
)

const importExample = `
npx @modelcontextprotocol/inspector --cli npx @modelcontextprotocol/server-filesystem /srv --method tools/list > tools.json
catalogkit import --server filesystem --family files --out catalog.json tools.json   # one family for the whole server
catalogkit import --server filesystem --families families.json --out catalog.json -  # families.json: {"tool": "family", ...}`

// runImport turns an MCP server's tools/list result into a format-2
// catalog, with a line for every tool on stderr: imported exactly, imported
// with a change, or refused.
func runImport(c *cli, args []string) int {
	fset := c.flags("import", "--server NAME (--family NAME | --families FILE) [--describe FAMILY=TEXT]... [--out FILE] FILE", importExample)
	server := fset.String("server", "", "the `NAME` your host knows the server by (its key in the host's MCP configuration): each tool's origin, so a host knows what to call")
	family := fset.String("family", "", "the family (a label) of every tool that --families does not name")
	mapping := fset.String("families", "", "a JSON `FILE` mapping tool names to families: {\"read_file\": \"files\", ...}")
	out := fset.String("out", "", "write the catalog to `FILE` (atomically) instead of stdout")
	var describe multiFlag
	fset.Var(&describe, "describe", "describe a family in the catalog: `FAMILY=TEXT` (more than once)")
	if code, ok := c.parse(fset, args, true); !ok {
		return code
	}
	switch {
	case fset.NArg() != 1:
		return c.badUsage("import needs exactly one FILE, a tools/list result (- for stdin)")
	case *server == "":
		return c.badUsage("import needs --server NAME, the name your host calls the server by: each imported tool records it as its origin")
	case utf8.RuneCountInString(*server) > catalog.MaxOriginText:
		return c.badUsage("--server is %d characters, over the limit of %d", utf8.RuneCountInString(*server), catalog.MaxOriginText)
	case *family == "" && *mapping == "":
		return c.badUsage("import needs --family NAME, or --families FILE: every tool of a catalog has a family")
	case *family != "" && !catalog.IsLabel(*family):
		return c.badUsage("--family %q is not a label (^[a-z][a-z0-9._-]{0,79}$)", *family)
	}
	opts := mcpimport.Options{Server: *server, Family: *family, Families: map[string]string{}, Descriptions: map[string]string{}}
	if *mapping != "" {
		data, err := c.readInput(*mapping)
		if err != nil {
			return c.cannotRun("check the --families path", "failed to read --families: %v", err)
		}
		if err := json.Unmarshal(data, &opts.Families); err != nil {
			return c.badUsage("--families %s is not a JSON object of tool name → family: %v", *mapping, err)
		}
		for tool, f := range opts.Families {
			if !catalog.IsLabel(f) {
				return c.badUsage("--families maps %q to %q, which is not a label", tool, f)
			}
		}
	}
	for _, d := range describe {
		f, text, ok := strings.Cut(d, "=")
		if !ok || !catalog.IsLabel(f) {
			return c.badUsage("--describe %q: want FAMILY=TEXT, FAMILY a label", d)
		}
		opts.Descriptions[f] = text
	}
	data, err := c.readInput(fset.Arg(0))
	if err != nil {
		return c.cannotRun("check the FILE path", "failed to read the tools/list result: %v", err)
	}
	res, err := mcpimport.Import(data, opts)
	var ie *mcpimport.InputError
	switch {
	case errors.As(err, &ie):
		return c.errorf(toolsListHint, "%s: %v", fset.Arg(0), err)
	case err != nil:
		return c.contractError(err, source{"tools/list", fset.Arg(0)}, "", "")
	}
	for _, l := range res.Lines {
		fmt.Fprintln(c.stderr, l)
	}
	if code, ok := c.writeOut(*out, res.Catalog); !ok {
		return code
	}
	fmt.Fprintf(c.stderr, "%d tools: %d imported exactly, %d imported with a change, %d refused\n",
		len(res.Lines), res.Count(mcpimport.Exact), res.Count(mcpimport.Changed), res.Count(mcpimport.Refused))
	if res.Count(mcpimport.Refused) > 0 {
		return exitCheckFailed
	}
	return exitOK
}

// toolsListHint says what import and drift read.
const toolsListHint = "give the result of tools/list: {\"tools\": [...]}, as the MCP Inspector's --method tools/list prints it"

// writeOut writes a command's document to the file out (atomically), or
// to stdout when out is "" (ok false: exit status 3, said).
func (c *cli) writeOut(out string, data []byte) (int, bool) {
	if out != "" {
		if err := atomicfile.WriteFile(out, data, 0o644); err != nil {
			return c.cannotRun("choose an --out in a folder you can write", "%v", err), false
		}
	} else if _, err := c.stdout.Write(data); err != nil {
		return c.cannotRun("", "failed to write the result: %v", err), false
	}
	return exitOK, true
}

// multiFlag is a flag given more than once.
type multiFlag []string

func (m *multiFlag) String() string {
	s := append([]string(nil), *m...)
	sort.Strings(s)
	return strings.Join(s, ",")
}
func (m *multiFlag) Set(s string) error {
	*m = append(*m, s)
	return nil
}
