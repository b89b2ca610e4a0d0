package verify

import (
	"fmt"
	"io"

	"github.com/catalogkit/catalogkit/internal/release/archive"
)

// stepParse runs the strict reader over the archive, checks the names
// against the writer's selection rules ([archive.Reader.CheckSelection]),
// then decompresses every
// entry on all cores, each worker reusing one [archive.Stream], so that every
// size and CRC-32 is checked before anything is written.
func (v *verifier) stepParse(s *StepResult) []*archive.Error {
	a, err := archive.NewReader(v.src, v.rep.Size, v.lim)
	if err != nil {
		return []*archive.Error{archive.AsError(err)}
	}
	v.arch = a
	// A name the writer never writes is refused here, before any step
	// writes a file: the extracted tree would hold what the packager
	// leaves out (.git/config is configuration git runs).
	if problems := a.CheckSelection(); len(problems) > 0 {
		return problems
	}
	streams := make([]archive.Stream, workers(len(a.Entries)))
	if err := forEach(v.ctx, len(a.Entries), func(w, i int) *archive.Error {
		st := &streams[w]
		st.Reset(a, a.Entries[i])
		if _, err := st.WriteTo(io.Discard); err != nil {
			return archive.AsError(err)
		}
		return nil
	}); err != nil {
		return []*archive.Error{err}
	}
	s.Summary = fmt.Sprintf("%d entries in the exact layout of the format, %d bytes uncompressed, every size and crc-32 checked while streaming (limits: %d entries, %d bytes per file, %d in total, ratio %d:1)",
		len(a.Entries), a.Total, v.lim.MaxEntries, v.lim.MaxFileSize, v.lim.MaxTotalSize, v.lim.MaxRatio)
	return nil
}
