package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/catalogkit/catalogkit/internal/release/archive"
	"github.com/catalogkit/catalogkit/internal/release/zipdiff"
)

// The hash step's rebuild codes.
const (
	CodeRebuildMismatch archive.Code = "rebuild_mismatch" // the archive is not the bytes its commit packs to
	CodeRebuildRefused  archive.Code = "rebuild_refused"  // the packager refuses the commit's tree
)

// A RebuildSource names the git checkout and the revision to rebuild the
// archive from (Options.Rebuild).
type RebuildSource struct {
	Dir string
	Rev string // "" means the commit the signed trusted comment names, else HEAD
}

// ParseRebuild splits the --rebuild argument DIR[@REV]. An argument that is
// an existing folder as a whole is DIR, even with an "@" in it; otherwise
// DIR is the longest part before an "@" that is a folder, and REV the rest,
// which may hold "@" itself (HEAD@{1}). When the whole argument and a part
// before an "@" are both folders, it is ambiguous and refused: DIR/ names
// the folder, DIR/@REV the commit.
func ParseRebuild(arg string) (RebuildSource, error) {
	isDir := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.IsDir()
	}
	whole := isDir(arg)
	if whole && strings.HasSuffix(arg, "/") {
		return RebuildSource{Dir: arg}, nil // a path ending in / is a folder
	}
	for i := strings.LastIndex(arg, "@"); i > 0; i = strings.LastIndex(arg[:i], "@") {
		if dir, rev := arg[:i], arg[i+1:]; isDir(dir) {
			if whole {
				return RebuildSource{}, fmt.Errorf("--rebuild %q is ambiguous: both %q and %q are folders; write %q for the folder, or %q for the commit", arg, arg, dir, arg+"/", dir+"/@"+rev)
			}
			if rev == "" {
				return RebuildSource{}, fmt.Errorf("--rebuild %q: nothing after the @: give DIR or DIR@REV (a commit, branch or tag)", arg)
			}
			return RebuildSource{Dir: dir, Rev: rev}, nil
		}
	}
	if whole {
		return RebuildSource{Dir: arg}, nil
	}
	dir, _, _ := strings.Cut(arg, "@")
	return RebuildSource{}, fmt.Errorf("--rebuild %q: %q is not a folder: give your own git checkout of catalogkit, as DIR or DIR@REV", arg, dir)
}

// A Rebuild is what the hash step found rebuilding the archive (Report.Rebuild).
type Rebuild struct {
	Dir    string `json:"dir"`
	Rev    string `json:"rev"`    // as given, or "HEAD", or the signed commit
	Why    string `json:"why"`    // where Rev came from
	Commit string `json:"commit"` // its full hash
	Name   string `json:"name,omitempty"`
	Size   int64  `json:"size,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
	// Identical says the rebuilt bytes are the archive's; Diff explains
	// how they differ when they do not.
	Identical bool            `json:"identical"`
	Diff      *zipdiff.Report `json:"diff,omitempty"`
	DiffError string          `json:"diff_error,omitempty"`
}

// rebuild packs the commit of Options.Rebuild from a clean clone and
// compares its bytes with the archive's, which the hash step has just read and
// hashed. It runs after the signature and provenance checks, so that
// without a REV it rebuilds the commit the signed trusted comment names.
// Nothing of the archive is extracted or executed: on a mismatch, package
// zipdiff explains it from both files' bytes.
func (v *verifier) rebuild() *archive.Error {
	src := v.opts.Rebuild
	rb := &Rebuild{Dir: src.Dir, Rev: src.Rev, Why: "given as " + src.Dir + "@" + src.Rev}
	v.rep.Rebuild = rb
	switch {
	case src.Rev != "":
	case v.signed != nil && v.signed.Commit != "":
		rb.Rev, rb.Why = v.signed.Commit, "the commit the signed trusted comment names"
	default:
		rb.Rev, rb.Why = "HEAD", "HEAD: no @REV given, and no signature names a commit"
	}
	c, err := archive.ResolveCommit(src.Dir, rb.Rev)
	if err != nil {
		return archive.AsError(err)
	}
	rb.Commit = c.Hash
	out, err := os.CreateTemp(v.opts.TempDir, "catalogkit-rebuild-*.zip")
	if err != nil {
		return ioErr("", "creating the rebuilt archive", err)
	}
	defer func() {
		out.Close()
		os.Remove(out.Name())
	}()
	h := sha256.New()
	res, err := archive.PackCommit(v.ctx, c, v.opts.TempDir, io.MultiWriter(out, h), archive.Options{Limits: v.lim})
	var re *archive.RefusalError
	switch {
	case errors.As(err, &re):
		// The error lists every refused file: the report shows them once.
		return errf(CodeRebuildRefused, src.Dir, "commit %s cannot be packed, so it cannot be the archive's source: %v", c.Hash, err)
	case err != nil && v.ctx.Err() != nil:
		return interrupted(v.ctx.Err())
	case err != nil:
		return archive.AsError(err)
	}
	rb.Name, rb.Size, rb.SHA256 = res.Name, res.Size, hex.EncodeToString(h.Sum(nil))
	if rb.SHA256 == v.rep.SHA256 && rb.Size == v.rep.Size {
		rb.Identical = true
		return nil
	}
	if err := out.Close(); err != nil {
		return ioErr(out.Name(), "writing the rebuilt archive", err)
	}
	d, derr := zipdiff.DiffFiles(v.rep.Archive, out.Name(), zipdiff.DefaultLimits)
	if derr != nil {
		rb.DiffError = derr.Error()
	} else {
		d.B.Name = "rebuild of " + c.Hash[:12]
		rb.Diff = d
	}
	signedNote := ""
	if v.signed != nil && v.signed.Commit != c.Hash {
		signedNote = fmt.Sprintf(" (the signature names commit %s)", v.signed.Commit)
	}
	return errf(CodeRebuildMismatch, filepath.Base(v.rep.Archive), "not the bytes commit %s of %s packs to%s: the archive has %d bytes, sha256 %s; the rebuild has %d bytes, sha256 %s",
		c.Hash, src.Dir, signedNote, v.rep.Size, v.rep.SHA256, rb.Size, rb.SHA256)
}

// summary is the hash step's words for a rebuild that matched.
func (rb *Rebuild) summary() string {
	return fmt.Sprintf("the same %d bytes as commit %s of %s packs to in a clean clone (%s)", rb.Size, rb.Commit, rb.Dir, rb.Why)
}

// writeDiff writes the explanation of a rebuild mismatch, indented under
// the hash step's errors.
func (rb *Rebuild) writeDiff(w io.Writer) {
	var b bytes.Buffer
	switch {
	case rb.Diff != nil:
		rb.Diff.WriteText(&b)
	case rb.DiffError != "":
		fmt.Fprintf(&b, "catalogkit diff cannot read the archive: %s\n", rb.DiffError)
	default:
		return
	}
	for _, line := range strings.SplitAfter(strings.TrimSuffix(b.String(), "\n"), "\n") {
		io.WriteString(w, "      "+line)
	}
	io.WriteString(w, "\n")
}
