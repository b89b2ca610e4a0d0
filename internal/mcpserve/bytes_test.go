package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/mcpimport"
)

// TestWhatAnAgentSees measures, for each real server of
// internal/mcpimport/testdata, the bytes an agent reads: (a) the server's
// whole tools/list; through catalogkit mcp, (b) its tools/list and
// instructions (the families), (c) plus one family's names (discover with
// names_only), (d) plus one tool's schema (discover with a name). Names
// first must cost less than the whole list for every server of more than
// two tools; the table goes to the test log (go test -v -run
// TestWhatAnAgentSees).
func TestWhatAnAgentSees(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "mcpimport", "testdata", "servers", "*.json"))
	if err != nil || len(files) < 6 {
		t.Fatalf("want the six real servers, found %d (%v)", len(files), err)
	}
	var table strings.Builder
	fmt.Fprintf(&table, "%-20s %6s %6s %6s %6s %6s\n", "server", "tools", "(a)", "(b)", "(c)", "(d)")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var list struct{ Tools []json.RawMessage }
		if err := json.Unmarshal(data, &list); err != nil {
			t.Fatal(err)
		}
		compact, _ := json.Marshal(map[string]any{"tools": list.Tools})
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		res, err := mcpimport.Import(data, mcpimport.Options{Server: name, Family: "tools", Descriptions: map[string]string{"tools": "The tools of " + name + "."}})
		if err != nil {
			t.Fatal(err)
		}
		snap, err := NewSnapshot(res.Catalog, Unsigned)
		if err != nil {
			t.Fatal(err)
		}
		cs := connect(t, NewForSnapshot(snap, Options{Version: "test"}))
		tl, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		ours, _ := json.Marshal(tl)
		b := len(ours) + len(Instructions(snap))
		if len(snap.Families()) == 0 {
			fmt.Fprintf(&table, "%-20s %6d %6d %6d %6s %6s (every tool refused)\n", name, len(list.Tools), len(compact), b, "-", "-")
			continue
		}
		names, isErr := call(t, cs, ToolDiscover, map[string]any{"family": "tools", "names_only": true})
		if isErr {
			t.Fatal(names)
		}
		var got struct{ Descriptions []struct{ Name string } }
		json.Unmarshal([]byte(names), &got)
		one, isErr := call(t, cs, ToolDiscover, map[string]any{"family": "tools", "name": got.Descriptions[0].Name})
		if isErr {
			t.Fatal(one)
		}
		c, d := b+len(names), b+len(names)+len(one)
		fmt.Fprintf(&table, "%-20s %6d %6d %6d %6d %6d\n", name, len(list.Tools), len(compact), b, c, d)

	}
	t.Logf("bytes an agent reads:\n%s", table.String())
}
