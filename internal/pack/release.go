package pack

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
)

// testHookBeforeRename, if set, runs after both temporary files are complete
// and synced, just before the first rename; an error aborts the release.
var testHookBeforeRename func() error

// testHookAfterSelect, if set, runs after the files are selected.
var testHookAfterSelect func()

// WriteRelease packs the release tree dir into outDir (created if missing):
// the archive [ArchiveName](version) and [SumsName], a one-line file in
// "sha256sum -c" format. Each is written to a temporary file in outDir
// (named ".catalogkit-*.tmp"), synced, and renamed into place, archive
// first; on any failure the temporary files are removed and no partial file
// is left under a final name (an existing release there is left as it was).
func WriteRelease(dir, outDir string, opts Options) (res *Result, err error) {
	version, err := ReadVersion(dir)
	if err != nil {
		return nil, err
	}
	files, err := Select(dir)
	if err != nil {
		return nil, err
	}
	if testHookAfterSelect != nil {
		testHookAfterSelect()
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("failed to create output directory: %w", err)
	}

	var temps []string
	defer func() {
		if err != nil {
			for _, t := range temps {
				os.Remove(t)
			}
		}
	}()
	create := func(write func(w *bufio.Writer) error) (string, error) {
		f, err := os.CreateTemp(outDir, ".catalogkit-*.tmp")
		if err != nil {
			return "", err
		}
		temps = append(temps, f.Name())
		bw := bufio.NewWriterSize(f, 1<<20)
		err = write(bw)
		if err == nil {
			err = bw.Flush()
		}
		if err == nil {
			err = f.Chmod(0o644)
		}
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return f.Name(), err
	}

	zipTmp, err := create(func(w *bufio.Writer) error {
		res, err = Build(dir, version, files, w, opts)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("failed to write release: %w", err)
	}
	sumsTmp, err := create(func(w *bufio.Writer) error {
		_, err := fmt.Fprintf(w, "%s  %s\n", res.SHA256, res.Name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("failed to write %s: %w", SumsName, err)
	}
	if testHookBeforeRename != nil {
		if err := testHookBeforeRename(); err != nil {
			return nil, err
		}
	}
	if err := os.Rename(zipTmp, filepath.Join(outDir, res.Name)); err != nil {
		return nil, fmt.Errorf("failed to write release: %w", err)
	}
	temps = temps[1:]
	if err := os.Rename(sumsTmp, filepath.Join(outDir, SumsName)); err != nil {
		return nil, fmt.Errorf("failed to write %s: %w", SumsName, err)
	}
	temps = nil
	if d, err := os.Open(outDir); err == nil {
		d.Sync() // best effort: make the renames durable
		d.Close()
	}
	return res, nil
}
