package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/catalogkit/catalogkit/internal/mcpdrift"
	"github.com/catalogkit/catalogkit/internal/mcpimport"
	"github.com/catalogkit/catalogkit/internal/mcpserve"
)

const driftExample = `
npx @modelcontextprotocol/inspector --cli npx @modelcontextprotocol/server-filesystem /srv --method tools/list > now.json
catalogkit drift --catalog catalog.json --key catalog.pub --server filesystem now.json`

// runDrift compares a (signed) format-2 catalog with a server's tools/list
// of now: a line for every tool that changed, disappeared or appeared, and
// exit 1 when any did.
func runDrift(c *cli, args []string) int {
	fset := c.flags("drift", "--catalog FILE [--key PUB]... --server NAME [--json] FILE", driftExample)
	file := fset.String("catalog", "", "the format-2 catalog `FILE` whose tools have origins (catalogkit import --server writes them)")
	var keys keyFiles
	fset.Var(&keys, "key", "compare only if FILE.minisig verifies with the minisign public key `PUB` (repeat for several keys)")
	server := fset.String("server", "", "the server `NAME` the catalog's origins give (import's --server)")
	asJSON := fset.Bool("json", false, "print the whole report as JSON on stdout: {\"server\", \"catalog\": {\"sha256\", \"signer\"}, \"tools\": [...]}")
	if code, ok := c.parse(fset, args, true); !ok {
		return code
	}
	switch {
	case fset.NArg() != 1:
		return c.badUsage("drift needs exactly one FILE, the server's tools/list result of now (- for stdin)")
	case *file == "" || *server == "":
		return c.badUsage("drift needs --catalog FILE and --server NAME")
	case *file == "-" && fset.Arg(0) == "-":
		return c.usageError("put the catalog or the tools/list result in a file", "--catalog and FILE cannot both read stdin")
	}
	pubs, err := keys.load()
	if err != nil {
		return c.report(keyFailure(err))
	}
	data, signer, err := mcpserve.ReadVerified(*file, pubs)
	if err != nil {
		return c.report(loadFailure(*file, err))
	}
	live, err := c.readInput(fset.Arg(0))
	if err != nil {
		return c.cannotRun("check the FILE path", "failed to read the tools/list result: %v", err)
	}
	rep, err := mcpdrift.Compare(data, live, *server)
	var de *mcpdrift.Error
	var ie *mcpimport.InputError
	switch {
	case errors.As(err, &de):
		return c.errorf("give the --server NAME the catalog was imported with (catalogkit import --server)", "%s: %v", *file, err)
	case errors.As(err, &ie):
		return c.errorf(toolsListHint, "%s: %v", fset.Arg(0), err)
	case err != nil:
		return c.report(loadFailure(*file, err))
	}
	if *asJSON {
		sum := sha256.Sum256(data)
		type catalogID struct {
			SHA256 string `json:"sha256"`
			Signer string `json:"signer"`
		}
		if code := c.printJSON(struct {
			Server  string          `json:"server"`
			Catalog catalogID       `json:"catalog"`
			Tools   []mcpdrift.Tool `json:"tools"`
		}{rep.Server, catalogID{hex.EncodeToString(sum[:]), signer}, rep.Tools}); code != exitOK {
			return code
		}
	} else {
		for _, t := range rep.Tools {
			if t.Status != mcpdrift.Unchanged {
				fmt.Fprintln(c.stdout, t)
			}
		}
	}
	fmt.Fprintln(c.stderr, rep.Summary())
	if rep.Drifted() {
		return exitCheckFailed
	}
	return exitOK
}
