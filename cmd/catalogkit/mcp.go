package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/mcpserve"
	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/sign"
	"github.com/catalogkit/catalogkit/internal/release/verify"
)

const mcpExample = `
catalogkit mcp --catalog conformance/synthetic-catalog.json        # stdio: a host starts it
catalogkit mcp --catalog catalog.json --key catalog.pub --http :8080  # HTTP on 127.0.0.1:8080
kill -HUP PID                                                       # re-read the catalog now`

// mcpPoll is how often mcp looks whether the catalog or its signature
// changed on disk.
const mcpPoll = time.Second

// runMCP serves a catalog to agents over the Model Context Protocol.
func runMCP(c *cli, args []string) int {
	fset := c.flags("mcp", "--catalog FILE [--key PUB]... [--http ADDR] [--json]", mcpExample)
	file := fset.String("catalog", "", "the catalog `FILE` to serve; re-read on SIGHUP and when it (or its signature) changes")
	var keys keyFiles
	fset.Var(&keys, "key", "serve the catalog only if FILE.minisig verifies with the minisign public key `PUB` (repeat for several keys); without it the catalog is served as unsigned")
	addr := fset.String("http", "", "serve stateless streamable HTTP on `ADDR` (HOST:PORT; a port alone, :PORT, listens on 127.0.0.1 only) instead of stdio")
	asJSON := fset.Bool("json", false, `when mcp cannot start, print {"error": {"code", "exit", "detail", "hint"}} as one line on stderr (stdout is the protocol's) instead of a message; the codes are docs/mcp.md's table`)
	if code, ok := c.parse(fset, args, false); !ok {
		return code
	}
	fail := func(f failure) int {
		if *asJSON {
			return c.printFailureJSON(f)
		}
		return c.report(f)
	}
	switch {
	case *file == "":
		return fail(usage(c, "mcp needs --catalog FILE"))
	case *file == "-":
		return fail(usage(c, "mcp re-reads its catalog: give a file, not -"))
	}
	listen := ""
	if flagSet(fset, "http") {
		host, port, err := net.SplitHostPort(*addr)
		if err != nil {
			return fail(failure{CodeUsage, exitUsage, "give --http HOST:PORT, or :PORT for 127.0.0.1", fmt.Sprintf("--http %q: %v", *addr, err)})
		}
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return fail(failure{CodeUsage, exitUsage, "give --http HOST:PORT, or :PORT for 127.0.0.1, with PORT a number from 0 to 65535", fmt.Sprintf("--http %q: port %q is not a number from 0 to 65535", *addr, port)})
		}
		if host == "" {
			host = "127.0.0.1" // a port alone never listens beyond this machine
		}
		listen = net.JoinHostPort(host, port)
	}

	pubs, err := keys.load()
	if err != nil {
		return fail(keyFailure(err))
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// A message is at most mcpserve.MaxMessageBytes, and what a call
		// keeps of it (the line, its decoded copies, a result that echoes
		// it as text and as structuredContent) is a few times its length: a
		// soft limit at 6 times makes the garbage of one copy go before the
		// next is made, so that a call costs at most 10 times its message
		// and 64 MiB (measured: 364 MiB peak for 31 MiB of arguments
		// echoed back).
		debug.SetMemoryLimit(6*mcpserve.MaxMessageBytes + 64<<20)
	}
	srv, err := mcpserve.New(*file, pubs, mcpserve.Options{Version: buildVersion(), Log: c.stderr})
	if err != nil {
		return fail(loadFailure(*file, err))
	}
	snap := srv.Snapshot()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go reloadOnSignal(ctx, srv)
	go reloadOnChange(ctx, srv, *file)

	what := fmt.Sprintf("%s (sha256 %s, %s)", *file, snap.SHA256(), snap.Signer())
	if listen == "" {
		fmt.Fprintf(c.stderr, "catalogkit: mcp: serving %s on stdio\n", what)
		if err := srv.ServeStdio(ctx, io.NopCloser(c.stdin), nopWriteCloser{c.stdout}); err != nil && !errors.Is(err, io.EOF) {
			return c.cannotRun("", "mcp: %v", err)
		}
		return exitOK
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return fail(failure{CodeCannotListen, exitCannotRun, "choose another --http address, or stop what listens there", fmt.Sprintf("mcp: %v", err)})
	}
	fmt.Fprintf(c.stderr, "catalogkit: mcp: serving %s on http://%s/ (stateless streamable HTTP)\n", what, ln.Addr())
	// The handler bounds each body's time to arrive and the requests in
	// flight; the server bounds the headers' time and idle connections.
	hs := &http.Server{Handler: srv.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	if err := hs.Serve(ln); err != nil {
		return c.cannotRun("", "mcp: %v", err)
	}
	return exitOK
}

// A failure is why mcp (or drift) cannot start: a stable code (docs/mcp.md's
// table of start failures), the exit status, what to do and what was found.
type failure struct {
	code   string
	exit   int
	hint   string
	detail string
}

// The start failures' own codes; the others are the catalog's and the
// signature's.
const (
	CodeUsage        = "USAGE"
	CodeCannotRead   = "CANNOT_READ"
	CodeCannotListen = "CANNOT_LISTEN"
)

func usage(c *cli, detail string) failure {
	return failure{CodeUsage, exitUsage, usageHint(c.cmd), detail}
}

// report prints a failure as every command prints an error.
func (c *cli) report(f failure) int {
	c.printError(f.hint, "%s", f.detail)
	return f.exit
}

// printFailureJSON prints a failure as one JSON line on stderr.
func (c *cli) printFailureJSON(f failure) int {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": f.code, "exit": f.exit, "detail": f.detail, "hint": f.hint}})
	fmt.Fprintf(c.stderr, "%s\n", b)
	return f.exit
}

// keyFailure is a --key file that cannot be read (exit 3) or is not a
// minisign public key (exit 1, the signature package's code).
func keyFailure(err error) failure {
	var ae *archive.Error
	var se *sign.Error
	const hint = "give the minisign public key file (.pub) you trust"
	switch {
	case errors.As(err, &ae) && (ae.Code == archive.CodeIO || ae.Code == verify.CodeNotFile):
		return failure{CodeCannotRead, exitCannotRun, hint, fmt.Sprintf("cannot read --key: %v", err)}
	case errors.As(err, &ae):
		return failure{string(ae.Code), exitCheckFailed, hint, fmt.Sprintf("--key: %v", err)}
	case errors.As(err, &se):
		return failure{string(se.Code), exitCheckFailed, hint, fmt.Sprintf("--key: %v", err)}
	}
	return failure{CodeCannotRead, exitCannotRun, hint, fmt.Sprintf("--key: %v", err)}
}

// loadFailure is a catalog mcp will not serve: exit 3 when it cannot be
// read, 1 when it or its signature is refused, with the stable code.
func loadFailure(file string, err error) failure {
	var pe *fs.PathError
	var ce *catalog.Error
	var se *sign.Error
	var me *mcpserve.Error
	switch {
	case errors.As(err, &ce):
		return failure{string(ce.Code), exitCheckFailed, hintFor(ce, file, ""), fmt.Sprintf("%s: %s", source{"catalog", file}, ce)}
	case errors.As(err, &se):
		return failure{string(se.Code), exitCheckFailed, signatureHint(se.Code), fmt.Sprintf("refusing to serve %s: its signature %s: %v", file, file+sign.SignatureSuffix, err)}
	case errors.As(err, &me):
		return failure{string(me.Code), exitCheckFailed, "with --key, mcp serves only a catalog whose signature verifies: put its publisher's .minisig beside it, or serve it unsigned without --key",
			fmt.Sprintf("refusing to serve %s: %s: %s", file, me.Code, me.Detail)}
	case errors.As(err, &pe):
		return failure{CodeCannotRead, exitCannotRun, "check the --catalog path", fmt.Sprintf("failed to read the catalog: %v", err)}
	}
	return failure{CodeCannotRead, exitCannotRun, "", err.Error()}
}

// signatureHint says what to do about a catalog whose signature does not
// verify. It never tells whoever serves a catalog to sign it: a catalog that
// fails to verify may be a tampered copy, and signing it would bless it.
func signatureHint(code sign.Code) string {
	switch code {
	case sign.CodeNoKeys, sign.CodeKeyFormat, sign.CodeKeyAlgorithm, sign.CodeNotPublicKey:
		return "give --key the catalog publisher's public key file (the .pub that catalogkit keygen or minisign -G wrote)"
	}
	return "do not serve this copy: get the catalog and its .minisig again from whoever publishes it, and check that --key is their public key; " +
		"if you publish it, sign your own source again ('catalogkit sign'), never a copy that failed to verify"
}

// reloadOnSignal reloads on every SIGHUP until ctx ends.
func reloadOnSignal(ctx context.Context, srv *mcpserve.Server) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-hup:
			srv.Reload() // logs either way
		case <-ctx.Done():
			return
		}
	}
}

// reloadOnChange reloads when the catalog file or its signature changes
// (size, time, or another file renamed into place) until ctx ends. A
// catalog replaced before its signature is refused once, then served when
// the signature follows.
func reloadOnChange(ctx context.Context, srv *mcpserve.Server, file string) {
	paths := []string{file, file + sign.SignatureSuffix}
	last := make([]os.FileInfo, len(paths))
	for i, p := range paths {
		last[i], _ = os.Stat(p)
	}
	t := time.NewTicker(mcpPoll)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			changed := false
			for i, p := range paths {
				now, _ := os.Stat(p)
				changed = changed || fileChanged(last[i], now)
				last[i] = now
			}
			if changed {
				srv.Reload() // logs either way
			}
		case <-ctx.Done():
			return
		}
	}
}

// fileChanged reports whether a file (nil: missing) is another file, or the
// same one with another size or modification time.
func fileChanged(old, now os.FileInfo) bool {
	if old == nil || now == nil {
		return (old == nil) != (now == nil)
	}
	return !os.SameFile(old, now) || old.Size() != now.Size() || !old.ModTime().Equal(now.ModTime())
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
