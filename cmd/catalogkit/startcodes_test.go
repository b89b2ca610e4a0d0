package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/catalogkit/catalog"
	"github.com/catalogkit/catalogkit/internal/mcpserve"
	"github.com/catalogkit/catalogkit/internal/release/sign"
)

// startCodes are the codes mcp can fail to start with, and their exit
// statuses: its own, the key's and the signature's (internal/release/sign),
// SIGNATURE_MISSING, and the catalog's that loading a catalog can give.
var startCodes = map[string]int{
	CodeUsage: exitUsage, CodeCannotRead: exitCannotRun, CodeCannotListen: exitCannotRun,
	string(sign.CodeKeyFormat): 1, string(sign.CodeKeyAlgorithm): 1, string(sign.CodeNotPublicKey): 1,
	string(mcpserve.CodeSignatureMissing): 1,
	string(sign.CodeSigFormat):            1, string(sign.CodeSigAlgorithm): 1, string(sign.CodeUnknownKey): 1,
	string(sign.CodeBadSignature): 1, string(sign.CodeCommentForged): 1, string(sign.CodeCommentFormat): 1,
	string(sign.CodeWrongFile):  1,
	string(catalog.InvalidJSON): 1, string(catalog.InvalidCatalog): 1, string(catalog.InvalidFields): 1,
	string(catalog.InvalidLabel): 1, string(catalog.DuplicateTool): 1, string(catalog.InvalidMetadata): 1,
	string(catalog.InvalidSpec): 1,
}

// TestStartFailureTable: docs/mcp.md's table of start failures lists every
// code mcp can fail to start with, once, with its exit status, and nothing
// else; the transcripts' --json lines give codes of the table only.
func TestStartFailureTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "### Start failures")
	if !ok {
		t.Fatal("docs/mcp.md has no section Start failures")
	}
	row := regexp.MustCompile("(?m)^\\| `([A-Z_]+)` \\| ([0-9]) \\|")
	got := map[string]int{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		if _, dup := got[m[1]]; dup {
			t.Errorf("%s is in the table twice", m[1])
		}
		got[m[1]], _ = strconv.Atoi(m[2])
	}
	if diff := cmp.Diff(startCodes, got); diff != "" {
		t.Errorf("docs/mcp.md's start failures (-want +got):\n%s", diff)
	}
	transcript, err := os.ReadFile("testdata/mcp.ct")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, m := range regexp.MustCompile(`\{"error":\{"code":"([A-Z_]+)","detail":.*"exit":([0-9])`).FindAllStringSubmatch(string(transcript), -1) {
		seen++
		if exit, ok := startCodes[m[1]]; !ok || strconv.Itoa(exit) != m[2] {
			t.Errorf("mcp --json failed with %s, exit %s: not in the table so", m[1], m[2])
		}
	}
	if seen < 4 {
		t.Errorf("testdata/mcp.ct has %d --json start failures, want several", seen)
	}
}
