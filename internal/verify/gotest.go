package verify

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"time"
)

// outputGrace is how long the tests step goes on reading go test's output after
// go test has ended: what it wrote is in the pipe already, so only a
// process it left behind holding the pipe open keeps it longer.
const outputGrace = 500 * time.Millisecond

// errOutputHeld is the decoding error when a process go test left behind
// held its output open past outputGrace.
var errOutputHeld = errors.New("a process the tests started still held go test's output open after go test ended")

// runEvents starts cmd with its standard output read as go test -json
// events, and waits for it. Reading never blocks the end: once cmd has
// exited (or was killed, when its context is done), what is left in the
// pipe is read for at most outputGrace, then reading stops, whoever holds
// the pipe's other end; not at all when ctx is done (the run was
// interrupted). It returns the events, the decoding error, and
// Wait's error (or Start's, with no events).
func runEvents(ctx context.Context, cmd *exec.Cmd) (events []testEvent, decodeErr, waitErr error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	cmd.Stdout = w
	err = cmd.Start()
	w.Close()
	if err != nil {
		return nil, nil, err
	}
	type decoded struct {
		events []testEvent
		err    error
	}
	done := make(chan decoded, 1)
	go func() {
		ev, err := decodeEvents(r)
		done <- decoded{ev, err}
	}()
	waitErr = cmd.Wait()
	grace := outputGrace
	if ctx.Err() != nil {
		grace = 0
	}
	r.SetReadDeadline(time.Now().Add(grace))
	d := <-done
	if errors.Is(d.err, os.ErrDeadlineExceeded) {
		d.err = errOutputHeld
	}
	return d.events, d.err, waitErr
}
