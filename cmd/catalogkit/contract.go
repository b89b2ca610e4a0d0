package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/shared/regfile"
)

const jsonFlagHelp = `on a contract error, print {"error": {"code", "input", "source", "path", "offset", "detail"}} on stdout instead of a message on stderr; input, source and offset only where they apply (cmd/catalogkit/error.schema.json); exit status 1 all the same`

// contractFlags starts the flags of discover and validate: the two they
// share, --catalog (whose value it returns) and --json.
func (c *cli) contractFlags(name, usage, example string) (*flag.FlagSet, *string) {
	fs := c.flags(name, usage, example)
	fs.BoolVar(&c.jsonErrors, "json", false, jsonFlagHelp)
	return fs, fs.String("catalog", "", "catalog `FILE` (JSON array of tool definitions); - reads stdin")
}

const discoverExample = `catalogkit discover --catalog conformance/synthetic-catalog.json --family reading
catalogkit discover --catalog conformance/synthetic-catalog.json --family all --name tab.select
catalogkit discover --catalog catalog.json --family files --names   # names, titles and descriptions first`

func runDiscover(c *cli, args []string) int {
	fs, catalogFile := c.contractFlags("discover", "--catalog FILE --family F [--name N] [--names]", discoverExample)
	family := fs.String("family", "", "family `F` to list, or \"all\" for every family")
	name := fs.String("name", "", "exact tool name `N` to return (optional)")
	names := fs.Bool("names", false, "leave out each tool's inputSchema and origin: its name, family, effect, title and description only")
	if code, ok := c.parse(fs, args, false); !ok {
		return code
	}
	if *catalogFile == "" || !flagSet(fs, "family") {
		return c.badUsage("discover needs --catalog and --family")
	}
	cat, code, ok := c.loadCatalog(*catalogFile)
	if !ok {
		return code
	}
	var descs []catalog.Description
	var err error
	if flagSet(fs, "name") {
		descs, err = cat.DiscoverTool(*family, *name)
	} else {
		descs, err = cat.Discover(*family)
	}
	if err != nil {
		return c.contractError(err, source{}, *catalogFile, "")
	}
	if *names {
		out := make([]catalog.Summary, len(descs))
		for i, d := range descs {
			out[i] = d.Summary()
		}
		return c.printJSON(out)
	}
	if descs == nil {
		descs = []catalog.Description{}
	}
	return c.printJSON(descs)
}

const validateExample = `catalogkit validate --catalog conformance/synthetic-catalog.json --name page.read --arguments '{"tab_id": 3}'
catalogkit validate --catalog conformance/synthetic-catalog.json --name page.find --arguments @args.json`

func runValidate(c *cli, args []string) int {
	fs, catalogFile := c.contractFlags("validate", "--catalog FILE --name N --arguments JSON|@FILE|-", validateExample)
	name := fs.String("name", "", "exact tool name `N`")
	arguments := fs.String("arguments", "", "the call's arguments: a `JSON` object, @FILE to read a file, or - for stdin")
	if code, ok := c.parse(fs, args, false); !ok {
		return code
	}
	if *catalogFile == "" || !flagSet(fs, "name") || !flagSet(fs, "arguments") {
		return c.badUsage("validate needs --catalog, --name and --arguments")
	}
	if *catalogFile == "-" && *arguments == "-" {
		return c.usageError("put the catalog or the arguments in a file", "--catalog and --arguments cannot both read stdin")
	}
	cat, code, ok := c.loadCatalog(*catalogFile)
	if !ok {
		return code
	}
	argText, argSource, err := c.readArgument(*arguments)
	if err != nil {
		return c.cannotRun("check the @FILE path", "failed to read arguments: %v", err)
	}
	argValue, err := catalog.ParseJSON(argText)
	if err != nil {
		if hint := keyValueHint(argText); hint != "" && argSource.file == "" {
			return c.printContractError(err, argSource, hint)
		}
		return c.contractError(err, argSource, "", "")
	}
	res, err := cat.ValidateArguments(*name, argValue)
	if err != nil {
		return c.contractError(err, source{}, *catalogFile, *name)
	}
	return c.printJSON(res)
}

// flagSet reports whether the flag was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	found := false
	fs.Visit(func(f *flag.Flag) { found = found || f.Name == name })
	return found
}

// A source says which input text a contract error is in: the catalog or
// the arguments, and the file it was read from ("-" for stdin; "" for
// arguments given inline). The zero source is the call itself.
type source struct {
	input, file string
}

// String names the source in a message: catalog "f.json", catalog
// (stdin), arguments, arguments file "a.json", arguments (stdin).
func (s source) String() string {
	switch {
	case s.input == "":
		return ""
	case s.file == "-":
		return s.input + " (stdin)"
	case s.file == "":
		return s.input
	case s.input == "arguments":
		return fmt.Sprintf("arguments file %q", s.file)
	}
	return fmt.Sprintf("%s %q", s.input, s.file)
}

// readArgument returns the bytes of an argument given inline, as @FILE or as
// - (stdin), and its source.
func (c *cli) readArgument(arg string) ([]byte, source, error) {
	switch {
	case arg == "-":
		b, err := c.readInput("-")
		return b, source{"arguments", "-"}, err
	case strings.HasPrefix(arg, "@"):
		b, err := c.readInput(arg[1:])
		return b, source{"arguments", arg[1:]}, err
	}
	return []byte(arg), source{input: "arguments"}, nil
}

// loadCatalog reads and compiles a catalog file ("-" for stdin). On failure it
// has printed the error and returns the exit status: 3 if the file could not
// be read, 1 for a contract error.
func (c *cli) loadCatalog(file string) (*catalog.Catalog, int, bool) {
	data, err := c.readInput(file)
	if err != nil {
		return nil, c.cannotRun("check the --catalog path", "failed to read catalog: %v", err), false
	}
	cat, err := catalog.Parse(data)
	if err != nil {
		return nil, c.contractError(err, source{"catalog", file}, "", ""), false
	}
	return cat, 0, true
}

// readInput reads a file, or stdin for "-", up to one byte past the JSON
// layer's limit (so that the parser, not a silent cut, reports an input that
// is too large). A regular file is read into a buffer of its size, so that
// the input costs its size once; a FIFO or a terminal is read as it comes.
// Opening a FIFO waits for a writer, and reading waits for data: a signal
// still ends the command (see runInterruptible).
func (c *cli) readInput(name string) ([]byte, error) {
	if name == "-" {
		return regfile.ReadAll(c.stdin, make([]byte, 0, 512), catalog.MaxInputBytes)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 512
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = int(min(info.Size(), catalog.MaxInputBytes)) + 1
	}
	return regfile.ReadAll(f, make([]byte, 0, size), catalog.MaxInputBytes)
}

// contractError prints a catalog error with its stable code, where it is and
// what to do, and returns exit status 1. catalogFile and name, when known,
// make the hint a command that can be run as it is.
func (c *cli) contractError(err error, src source, catalogFile, name string) int {
	var ce *catalog.Error
	if !errors.As(err, &ce) {
		return c.errorf("", "%v", err)
	}
	return c.printContractError(ce, src, hintFor(ce, catalogFile, name))
}

// printContractError prints a catalog error with the hint given and returns
// exit status 1.
func (c *cli) printContractError(err error, src source, hint string) int {
	var ce *catalog.Error
	if !errors.As(err, &ce) {
		return c.errorf("", "%v", err)
	}
	if c.jsonErrors {
		return c.printJSONError(ce, src)
	}
	if src.input == "" {
		return c.errorf(hint, "%s", ce)
	}
	return c.errorf(hint, "%s: %s", src, ce)
}

// keyValueHint returns, for arguments written as key=value pairs (tab_id=3,
// or a=1 b=x), a hint showing the JSON object they most likely mean; ""
// for anything else.
func keyValueHint(text []byte) string {
	t := strings.TrimSpace(string(text))
	if t == "" || strings.ContainsAny(t[:1], "{[\"") || !strings.Contains(t, "=") {
		return ""
	}
	var members []string
	for _, pair := range strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		key, value, ok := strings.Cut(pair, "=")
		if !ok || key == "" {
			return ""
		}
		k, _ := json.Marshal(key)
		if _, err := strconv.ParseInt(value, 10, 64); err != nil && value != "true" && value != "false" {
			v, _ := json.Marshal(value)
			value = string(v)
		}
		members = append(members, string(k)+": "+value)
	}
	return "--arguments takes a JSON object, not key=value pairs: --arguments " + shellWord("{"+strings.Join(members, ", ")+"}")
}

func hintFor(e *catalog.Error, catalogFile, name string) string {
	discover := "catalogkit discover --catalog " + shellWord(catalogFile) + " --family all"
	if catalogFile == "" || catalogFile == "-" {
		discover = "catalogkit discover --catalog FILE --family all"
	}
	switch e.Code {
	case catalog.InvalidJSON:
		return "fix the JSON text at the position shown (strict JSON: UTF-8, no duplicate keys, no comments, nothing after the value, at most 32 MiB and 64 levels)"
	case catalog.InvalidLabel:
		if !strings.HasPrefix(e.Path, "$") {
			return "a label is 1 to 80 characters: a lowercase letter, then lowercase letters, digits, '.', '_' or '-'"
		}
		fallthrough
	case catalog.InvalidCatalog, catalog.InvalidFields, catalog.DuplicateTool,
		catalog.InvalidMetadata, catalog.InvalidSpec:
		return "fix the value at the path shown; one bad definition rejects the whole catalog (rules: go doc github.com/catalogkit/catalogkit/catalog)"
	case catalog.UnknownFamily:
		return "list the enabled tools and their families: " + discover
	case catalog.ToolNotAvailableInFamily:
		return "the tool is disabled, in another family, or absent; list the enabled tools: " + discover
	case catalog.InvalidArgumentKeys, catalog.InvalidArgumentValue:
		if name != "" && catalog.IsLabel(name) {
			discover += " --name " + name
		}
		return "compare the arguments with the tool's inputSchema: " + discover
	}
	return ""
}

// shellWord quotes s for a POSIX shell when it needs quoting.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '_' || r == '-' || r == '+' || r == ':' || r == '@' || r == ',' ||
			'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// printJSONError prints a contract error as a JSON object on stdout and
// returns exit status 1.
func (c *cli) printJSONError(e *catalog.Error, src source) int {
	type jsonError struct {
		Code   catalog.Code `json:"code"`
		Input  string       `json:"input,omitempty"`  // which input text: "catalog" or "arguments"
		Source string       `json:"source,omitempty"` // the file it was read from, as given; "-" for stdin
		Path   string       `json:"path"`
		Offset *int         `json:"offset,omitempty"` // INVALID_JSON only
		Detail string       `json:"detail"`
	}
	out := jsonError{Code: e.Code, Input: src.input, Source: src.file, Path: e.Path, Detail: e.Detail}
	if e.Offset >= 0 {
		out.Offset = &e.Offset
	}
	if code := c.printJSON(struct {
		Error jsonError `json:"error"`
	}{out}); code != 0 {
		return code
	}
	return exitCheckFailed
}

// printJSON prints v as indented JSON, keeping the order of its keys.
func (c *cli) printJSON(v any) int {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return c.cannotRun("this is a bug in catalogkit: please report it", "failed to encode the result: %v", err)
	}
	if _, err := c.stdout.Write(out.Bytes()); err != nil {
		return c.cannotRun("", "failed to write the result: %v", err)
	}
	return exitOK
}
