package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
)

const signExample = `
catalogkit sign --key ~/.catalogkit/catalog.key catalog.json     # writes catalog.json.minisig
minisign -Vm catalog.json -p catalog.pub                           # what anyone can check
catalogkit mcp --catalog catalog.json --key catalog.pub            # serves it only if it verifies
catalogkit sign --key KEY --as catalog.json catalog.json.next      # a staged file, signed under the name it will be served as`

// runSign signs a catalog file: FILE.minisig, whose trusted comment names
// the file and its SHA-256.
func runSign(c *cli, args []string) int {
	fset := c.flags("sign", "--key KEY [--as NAME] [--password-file FILE | --password-fd N] FILE", signExample)
	keyPath := fset.String("key", "", "the minisign secret `KEY` file (catalogkit keygen or minisign -G writes one)")
	as := fset.String("as", "", "sign FILE under the file `NAME` it will be served as (a staged copy, renamed into place with its signature after): the signature names NAME, and is written to FILE.minisig all the same")
	var pw passwordFlags
	pw.register(fset)
	if code, ok := c.parse(fset, args, true); !ok {
		return code
	}
	switch {
	case *keyPath == "":
		return c.badUsage("sign needs --key KEY")
	case fset.NArg() != 1:
		return c.badUsage("sign needs exactly one FILE, the catalog to sign")
	case fset.Arg(0) == "-":
		return c.badUsage("a signature is for a file: give its path, not -")
	case *as != "" && (*as != filepath.Base(*as) || *as == "." || *as == ".."):
		return c.badUsage("--as %q: give the file name alone, as the catalog will be served (catalog.json), not a path", *as)
	}
	if err := pw.check(); err != nil {
		return c.badUsage("%v", err)
	}
	pw.warnReadable(c)
	file := fset.Arg(0)
	// The signature goes beside the file, for whoever reads it later: a
	// FIFO or a device has nothing to put it beside (and opening a FIFO
	// would wait for a writer).
	f, info, err := regfile.Open(file)
	if nr, ok := regfile.AsNotRegular(err); ok {
		return c.cannotRun("give the catalog's own file: its signature is written beside it, as FILE.minisig", "cannot sign %s", nr)
	}
	if err != nil {
		return c.cannotRun("check the FILE path", "failed to read the catalog: %v", err)
	}
	data, err := regfile.ReadAll(f, make([]byte, 0, min(info.Size(), catalog.MaxInputBytes)+1), catalog.MaxInputBytes)
	f.Close()
	if err != nil {
		return c.cannotRun("check the FILE path", "failed to read the catalog: %v", err)
	}
	// Only a catalog that mcp would serve is worth signing.
	if _, err := catalog.Parse(data); err != nil {
		return c.contractError(err, source{"catalog", file}, "", "")
	}
	key, code := c.readSecretKey(context.Background(), *keyPath, pw)
	if key == nil {
		return code
	}
	name := filepath.Base(file)
	if *as != "" {
		name = *as
	}
	sig, err := sign.SignFile(key, name, data)
	if err != nil {
		return c.errorf("", "%v", err)
	}
	out := file + sign.SignatureSuffix
	if err := sign.WriteSignature(out, sig); err != nil {
		return c.cannotRun("", "%v", err)
	}
	if name != filepath.Base(file) {
		fmt.Fprintf(c.stdout, "wrote %s: signed by key %s as %s (rename both into place: %s and %s)\n", out, key.ID(), name, name, name+sign.SignatureSuffix)
		return exitOK
	}
	fmt.Fprintf(c.stdout, "wrote %s: signed by key %s\n", out, key.ID())
	return exitOK
}
