package proctest

import (
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestFind(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no /proc here")
	}
	token := "77." + strconv.Itoa(os.Getpid())
	cmd := exec.Command("sleep", token)
	cmd.Env = append(os.Environ(), "PROCTEST_TOKEN="+token)
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start sleep:", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	pid := cmd.Process.Pid
	// Start returns once the kernel has closed the child's close-on-exec
	// files, which is before it sets up the new program's arguments and
	// environment: until then /proc shows an empty command line.
	if !Until(30*time.Second, func() bool { return len(WithArg(token)) > 0 }) {
		t.Fatalf("sleep %d never showed its arguments in /proc", pid)
	}
	for name, got := range map[string][]int{
		"WithEnv":  WithEnv("PROCTEST_TOKEN=" + token),
		"Sleeping": Sleeping(token),
		"WithArg":  WithArg(token),
	} {
		if !slices.Equal(got, []int{pid}) {
			t.Errorf("%s found %v, want exactly the sleep started, %d", name, got, pid)
		}
	}
	for name, got := range map[string][]int{
		"WithEnv of a prefix":  WithEnv("PROCTEST_TOKEN=" + token[:3]),
		"Sleeping of a prefix": Sleeping(token[:3]),
	} {
		if len(got) != 0 {
			t.Errorf("%s found %v, want none: the match is whole", name, got)
		}
	}
}
