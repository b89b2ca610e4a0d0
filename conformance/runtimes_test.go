package conformance

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/catalogkit/internal/testlib/skipreport"
)

// Proxies are ports written in other runtimes that pass lines between the
// runner and the command in their arguments, unchanged: each starts its
// runtime the way a real port of that language would, and the Go fake port
// answers. A runtime that writes on stdout at startup, or fails because
// another port shares what it should not, fails the protocol level.
var proxies = map[string]string{
	"Proxy.java": `import java.io.*;
public class Proxy {
  static void pump(InputStream in, OutputStream out, boolean close) {
    try {
      byte[] b = new byte[65536];
      for (int n; (n = in.read(b)) > 0; ) { out.write(b, 0, n); out.flush(); }
      if (close) out.close();
    } catch (IOException e) {}
  }
  public static void main(String[] args) throws Exception {
    Process p = new ProcessBuilder(args).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Thread in = new Thread(() -> pump(System.in, p.getOutputStream(), true));
    in.setDaemon(true);
    in.start();
    pump(p.getInputStream(), System.out, false);
    System.exit(p.waitFor());
  }
}
`,
	"proxy.js": `const { spawn } = require("child_process");
const p = spawn(process.argv[2], process.argv.slice(3), { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(p.stdin);
p.stdout.on("data", (b) => process.stdout.write(b));
p.on("exit", (code) => process.exit(code === null ? 1 : code));
`,
	"proxy.py": `import os, subprocess, sys, threading
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
def pump():
    for b in iter(lambda: os.read(0, 65536), b""):
        p.stdin.write(b)
    p.stdin.close()
threading.Thread(target=pump, daemon=True).start()
for b in iter(lambda: os.read(p.stdout.fileno(), 65536), b""):
    sys.stdout.buffer.write(b)
    sys.stdout.buffer.flush()
sys.exit(p.wait())
`,
}

// TestRuntimesStartCleanly runs every level (the protocol level's
// fresh-session cases keep several port processes running at once) through
// ports whose runtime is the JVM, Node, Python and Go, under the runner's
// default settings: every case must pass. The line-limit cases' 32 MiB
// lines are left out: they test a port's line reader, not how it starts,
// and through a proxy in front of the race-built test binary they cost
// minutes (TestProtocolLevel and TestPythonPort send them). It is the runner's promise that a port
// sees an ordinary process environment: when every port was the first
// process of a PID namespace of its own, every JVM saw its pid as 1, they
// met in /tmp/hsperfdata_USER/1 and the JVM's warning on stdout failed 12
// cases of a correct port.
func TestRuntimesStartCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("JVMs, Node and Python started by the dozen: make test runs it")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot find the test binary:", err)
	}
	dir := t.TempDir()
	for name, src := range proxies {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	missing := "conformance: %s is not installed, so a port in that runtime was NOT started under the runner; install it: sudo apt-get install %s"
	runtimes := []struct {
		name    string
		command func(t *testing.T) []string
	}{
		{"Go", func(*testing.T) []string { return nil }},
		{"JVM", func(t *testing.T) []string {
			javac := skipreport.Tool(t, "javac", fmt.Sprintf(missing, "javac", "default-jdk-headless"))
			java := skipreport.Tool(t, "java", fmt.Sprintf(missing, "java", "default-jdk-headless"))
			if out, err := exec.Command(javac, "-d", dir, filepath.Join(dir, "Proxy.java")).CombinedOutput(); err != nil {
				t.Fatalf("javac: %v\n%s", err, out)
			}
			return []string{java, "-cp", dir, "Proxy"}
		}},
		{"Node", func(t *testing.T) []string {
			return []string{skipreport.Tool(t, "node", fmt.Sprintf(missing, "node", "nodejs")), filepath.Join(dir, "proxy.js")}
		}},
		{"Python", func(t *testing.T) []string {
			return []string{skipreport.Tool(t, "python3", fmt.Sprintf(missing, "python3", "python3")), filepath.Join(dir, "proxy.py")}
		}},
	}
	cases, text := mustCases(t), mustTextCases(t)
	var protocol []*ProtocolCase
	for _, c := range mustProtocolCases(t) {
		if !strings.HasPrefix(c.ID, "protocol.line-limit.") {
			protocol = append(protocol, c)
		}
	}
	format2, err := Format2Cases()
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range runtimes {
		t.Run(rt.name, func(t *testing.T) {
			port := fakeCommand(t, "serve", -1)
			port.Command = append(rt.command(t), exe)
			// The runner's default timeouts, as a port author runs it.
			port.StartupTimeout, port.CallTimeout = 0, 0
			r := &Runner{Target: port}
			rep := r.RunCases(cases)
			r.RunFormat2(rep, format2)
			r.RunText(rep, text)
			r.RunProtocol(rep, protocol)
			port.Close()
			want := fmt.Sprintf("%d passed, 0 failed; format 2 level %d/%d; text level %d/%d; protocol level %d/%d",
				len(cases), len(format2), len(format2), len(text), len(text), len(protocol), len(protocol))
			if rep.Summary() != want {
				t.Errorf("a correct port in %s: %s, want %s\n%s", rt.name, rep.Summary(), want, textOf(rep))
			}
		})
	}
}

// TestPortTempDir checks that each port process gets a TMPDIR of its own,
// inside the runner's temporary folder, removed when the process ends:
// the protocol level's fresh sessions start port processes at once.
func TestPortTempDir(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip("cannot find the test binary:", err)
	}
	log := filepath.Join(t.TempDir(), "tmpdirs")
	port := fakeCommand(t, "serve", -1)
	port.Command = []string{"sh", "-c", `echo "$TMPDIR" >> "$0" && touch "$TMPDIR/left-behind" && exec "$1"`, log, exe}
	cases := slices.DeleteFunc(mustProtocolCases(t), func(c *ProtocolCase) bool { return !c.Fresh })
	if len(cases) == 0 {
		t.Fatal("no protocol case with a fresh session")
	}
	rep := &Report{}
	(&Runner{Target: port}).RunProtocol(rep, cases)
	port.Close()
	if !rep.OK() {
		t.Fatalf("%s\n%s", rep.Summary(), textOf(rep))
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	dirs := strings.Fields(string(data))
	if len(dirs) < 2 {
		t.Fatalf("%d port processes started, want at least 2 (fresh sessions): %q", len(dirs), dirs)
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		switch {
		case seen[d]:
			t.Errorf("TMPDIR %s given to two port processes", d)
		case filepath.Dir(d) != filepath.Clean(os.TempDir()):
			t.Errorf("TMPDIR %s is not a folder of the runner's temporary folder %s", d, os.TempDir())
		}
		seen[d] = true
		// Removed when the process ended, before Close returned.
		if _, err := os.Stat(d); err == nil {
			t.Errorf("TMPDIR %s is still there after the port ended", d)
		}
	}
}

// textOf returns the text report of rep.
func textOf(rep *Report) string {
	var b strings.Builder
	rep.WriteText(&b)
	return b.String()
}
