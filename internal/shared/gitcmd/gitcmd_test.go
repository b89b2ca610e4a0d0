package gitcmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunIsolated checks that git answers about the directory it is given,
// whatever the caller's GIT_ variables and global configuration say.
func TestRunIsolated(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ctx := context.Background()
	repo, other := t.TempDir(), t.TempDir()
	for _, dir := range []string{repo, other} {
		if _, err := Run(ctx, dir, "init", "-q"); err != nil {
			t.Fatal(err)
		}
	}
	global := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(global, []byte("[user]\n\tname = from the global configuration\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)

	tests := []struct {
		reason string
		args   []string
		want   string // in the output; "" means git must fail
	}{
		{"GIT_DIR and GIT_WORK_TREE do not point git elsewhere", []string{"rev-parse", "--show-toplevel"}, repo},
		{"the global configuration is not read", []string{"config", "--get", "user.name"}, ""},
	}
	for _, tt := range tests {
		out, err := Run(ctx, repo, tt.args...)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%s: git %s = %q, want a failure", tt.reason, strings.Join(tt.args, " "), out)
		case tt.want != "" && err != nil:
			t.Errorf("%s: git %s: %v", tt.reason, strings.Join(tt.args, " "), err)
		case tt.want != "" && strings.TrimSpace(string(out)) != tt.want:
			t.Errorf("%s: git %s = %q, want %q", tt.reason, strings.Join(tt.args, " "), out, tt.want)
		}
	}
	for _, kv := range Env() {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_WORK_TREE=") || kv == "GIT_CONFIG_GLOBAL="+global {
			t.Errorf("Env() keeps the caller's %s", kv)
		}
	}
}
