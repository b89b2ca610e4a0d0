package archive

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/catalogkit/catalogkit/internal/shared/atomicfile"
)

// LockName is the lock file WriteRelease holds in the output folder while
// it writes. It stays there (removing a lock file would let two runs lock
// two different files).
const LockName = ".catalogkit.lock"

// tempPattern names WriteRelease's temporary files in the output folder.
// Only a run holding the lock creates them, so any such file found under the
// lock was left by a run that was killed; the next run removes it.
const tempPattern = ".catalogkit-*.tmp"

// ErrLocked is returned (wrapped) when another process holds the output
// folder's lock.
var ErrLocked = errors.New("another catalogkit pack is writing to this folder")

// testHookPoint, if set, runs at each write point of WriteRelease, named as
// in the list in WriteRelease's documentation; an error aborts the release
// there as a crash would (a test kills the process in it).
var testHookPoint func(point string) error

// WriteRelease packs the release tree dir into outDir (created if missing):
// the archive [ArchiveName](version) and [SumsName], one line in
// "sha256sum -c" format, and, if opts.Sign is set, the files it returns
// ([SidecarNames]: the signature of SHA256SUMS, the provenance statement and
// its signature). Without opts.Sign, those files of this version are
// removed, so that outDir never keeps a signature of an earlier build. A
// reader of outDir never finds a SHA256SUMS that names different bytes than
// the zip beside it, nor a signature beside a file it does not sign, even if
// the process is killed or the machine crashes at any point:
//
//  1. It takes an exclusive lock on outDir/.catalogkit.lock, or fails with
//     [ErrLocked] at once if another pack holds it; then it removes the
//     temporary files killed runs left ("selected", "locked").
//  2. It writes the archive, SHA256SUMS and the signed files to temporary
//     files ".catalogkit-*.tmp" in outDir and syncs them ("zip-written",
//     "sums-written", "signed"). Nothing under a final name has changed yet.
//  3. If outDir already holds exactly these files, it removes the temporary
//     files and is done. Otherwise it first removes, and syncs the folder
//     ("sums-removed"), every signed file that is not the one being
//     written, and SHA256SUMS if it changes while a signature of it is
//     involved or while a different archive of the same name (the same
//     version rebuilt from other files) is replaced: from then on outDir
//     may lack SHA256SUMS or a signature, but never holds a mismatched
//     pair. (No sequence of renames of two names can switch both at once.)
//  4. It renames the archive into place and syncs the folder
//     ("zip-renamed"). SHA256SUMS, if present, still names the older
//     version's archive, which is still there.
//  5. It renames each signed file into place, a signature before the file it
//     signs, syncing the folder after each ("sidecar-renamed").
//  6. It renames SHA256SUMS into place and syncs the folder
//     ("sums-renamed"): the commit point.
//
// On any failure before step 3, and on cancellation of ctx before it, the
// temporary files are removed and outDir is as it was. Once step 3 has
// begun, cancellation is ignored: the renames take milliseconds.
func WriteRelease(ctx context.Context, dir, outDir string, opts Options) (res *Result, err error) {
	version, files, err := selectRelease(dir)
	if err != nil {
		return nil, err
	}
	if err := hook("selected"); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("failed to create output directory: %w", err)
	}
	unlock, err := lockDir(filepath.Join(outDir, LockName))
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := removeStale(outDir); err != nil {
		return nil, err
	}
	if err := hook("locked"); err != nil {
		return nil, err
	}

	var temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t)
		}
	}()
	create := func(write func(w io.Writer) error) (string, error) {
		tmp, err := atomicfile.Write(outDir, tempPattern, 0o644, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 1<<20) // the archive is written in small pieces
			if err := write(bw); err != nil {
				return err
			}
			return bw.Flush()
		})
		if tmp != "" {
			temps = append(temps, tmp)
		}
		return tmp, err
	}
	zipTmp, err := create(func(w io.Writer) error {
		res, err = Build(ctx, dir, version, files, w, opts)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("failed to write release: %w", err)
	}
	if err := hook("zip-written"); err != nil {
		return nil, err
	}
	sumsLine := []byte(res.SHA256 + "  " + res.Name + "\n")
	sumsTmp, err := create(atomicfile.Bytes(sumsLine))
	if err != nil {
		return nil, fmt.Errorf("failed to write %s: %w", SumsName, err)
	}
	if err := hook("sums-written"); err != nil {
		return nil, err
	}
	want, err := sidecars(opts.Sign, res, sumsLine)
	if err != nil {
		return nil, err
	}
	names := SidecarNames(res.Version)
	sideTmp := map[string]string{}
	for _, n := range names {
		if data, ok := want[n]; ok {
			if sideTmp[n], err = create(atomicfile.Bytes(data)); err != nil {
				return nil, fmt.Errorf("failed to write %s: %w", n, err)
			}
		}
	}
	if err := hook("signed"); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	zipPath, sumsPath := filepath.Join(outDir, res.Name), filepath.Join(outDir, SumsName)
	oldSum, err := fileSHA256(zipPath)
	if err != nil {
		return nil, fmt.Errorf("failed to read the archive already in %s: %w", outDir, err)
	}
	oldSums, err := readIfExists(sumsPath)
	if err != nil {
		return nil, err
	}
	// stale lists what must go before anything new is in place: a
	// signature or statement that is not the one being written, and
	// SHA256SUMS when it changes while a signature of it is involved or
	// the archive it names is being replaced.
	var stale []string
	missing := false
	for _, n := range names {
		old, err := readIfExists(filepath.Join(outDir, n))
		if err != nil {
			return nil, err
		}
		data, ok := want[n]
		switch {
		case old != nil && (!ok || !bytes.Equal(old, data)):
			stale = append(stale, n)
		case old == nil && ok:
			missing = true
		}
	}
	_, signsSums := want[SumsSigName]
	oldSig, _ := readIfExists(filepath.Join(outDir, SumsSigName))
	switch {
	case oldSum == res.SHA256 && bytes.Equal(oldSums, sumsLine) && len(stale) == 0 && !missing:
		return res, nil // the same release is already there
	case oldSums != nil && !bytes.Equal(oldSums, sumsLine) && (oldSum != "" && oldSum != res.SHA256 || signsSums || oldSig != nil):
		stale = append(stale, SumsName)
	}
	if len(stale) > 0 {
		for _, n := range stale {
			if err := os.Remove(filepath.Join(outDir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("failed to replace %s: %w", n, err)
			}
		}
		if err := syncAfter(outDir, "sums-removed"); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(zipTmp, zipPath); err != nil {
		return nil, fmt.Errorf("failed to write release: %w", err)
	}
	temps = temps[1:]
	if err := syncAfter(outDir, "zip-renamed"); err != nil {
		return nil, err
	}
	// Each signature is in place before the file it signs, and SHA256SUMS
	// last: a reader never finds a file beside a signature of other bytes.
	for _, n := range names {
		if tmp, ok := sideTmp[n]; ok {
			if err := os.Rename(tmp, filepath.Join(outDir, n)); err != nil {
				return nil, fmt.Errorf("failed to write %s: %w", n, err)
			}
			if err := syncAfter(outDir, "sidecar-renamed"); err != nil {
				return nil, err
			}
		}
	}
	if err := os.Rename(sumsTmp, sumsPath); err != nil {
		return nil, fmt.Errorf("failed to write %s: %w", SumsName, err)
	}
	temps = nil
	if err := syncAfter(outDir, "sums-renamed"); err != nil {
		return nil, err
	}
	return res, nil
}

// sidecars calls sign, if set, and checks that it returned only files of
// [SidecarNames], each once.
func sidecars(sign Signer, res *Result, sums []byte) (map[string][]byte, error) {
	want := map[string][]byte{}
	if sign == nil {
		return want, nil
	}
	list, err := sign(res, sums)
	if err != nil {
		return nil, fmt.Errorf("failed to sign the release: %w", err)
	}
	names := SidecarNames(res.Version)
	for _, sc := range list {
		if _, dup := want[sc.Name]; dup || !slices.Contains(names, sc.Name) {
			return nil, fmt.Errorf("the signer returned %q: want each of %q at most once", sc.Name, names)
		}
		want[sc.Name] = sc.Data
	}
	return want, nil
}

// readIfExists returns the bytes of the file at p, or nil if there is none.
func readIfExists(p string) ([]byte, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", p, err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

func hook(point string) error {
	if testHookPoint != nil {
		return testHookPoint(point)
	}
	return nil
}

// syncAfter makes the folder's entries durable, so that a later rename is
// never on disk before an earlier one, then runs the write point's hook.
func syncAfter(dir, point string) error {
	if err := atomicfile.SyncDir(dir); err != nil {
		return fmt.Errorf("failed to sync %s: %w", dir, err)
	}
	return hook(point)
}

// removeStale removes the temporary files of killed runs: under the lock,
// every regular file matching tempPattern is one.
func removeStale(dir string) error {
	stale, err := filepath.Glob(filepath.Join(dir, tempPattern))
	if err != nil {
		return err
	}
	for _, p := range stale {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("failed to remove a stale temporary file: %w", err)
			}
		}
	}
	return nil
}

// fileSHA256 returns the hex SHA-256 of the regular file at p, or "" if
// there is no file there.
func fileSHA256(p string) (string, error) {
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", p)
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// lockHolder describes the process named in a lock file, for the refusal.
func lockHolder(f *os.File) string {
	b := make([]byte, 64)
	n, _ := f.ReadAt(b, 0)
	if pid := strings.TrimSpace(string(b[:n])); pid != "" {
		return " (process " + pid + ")"
	}
	return ""
}
