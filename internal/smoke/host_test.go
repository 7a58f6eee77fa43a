package smoke

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/fixtures"
)

// mutations is ../shared/oracles/registry-smoke/mutations.json, in part.
type mutations struct {
	Mutations []struct {
		ID       string   `json:"id"`
		Pack     string   `json:"pack"`
		Verdict  string   `json:"verdict"`
		Checks   []string `json:"checks"`
		Failures []string `json:"failures"`
		Diff     string   `json:"diff"`
	} `json:"mutations"`
}

// noVerdict are the mutations the script gives no verdict on (it crashes,
// exits 13, hangs, or exits 0 before printing), with the code wopkit fails
// the mutated node with.
var noVerdict = map[string]string{
	"007-pure-throws-null":          "pack_node_error",
	"019-never-resolves-no-handles": "sandbox_timeout",
	"020-never-resolves-with-timer": "sandbox_timeout",
	"021-node-calls-process-exit":   "sandbox_invocation_error",
}

// TestRecordedMutations applies each of the oracle's 22 mutations (and the
// unmutated baseline) to a copy of its pack from the registry checkout and
// requires the script's verdict: pass or fail, the same check lines and the
// same failures by check. Where the script gives none, wopkit fails the
// mutated node with its code, and the other nodes still run.
func TestRecordedMutations(t *testing.T) {
	t.Parallel()
	reg, _ := registryOracle(t)
	b, err := os.ReadFile(filepath.Join(fixtures.Shared(t, "oracles", "registry-smoke"), "mutations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ms mutations
	if err := json.Unmarshal(b, &ms); err != nil {
		t.Fatal(err)
	}
	if len(ms.Mutations) != 23 {
		t.Fatalf("%d mutations recorded, want 22 and the baseline", len(ms.Mutations))
	}
	for _, m := range ms.Mutations {
		t.Run(m.ID, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), m.Pack)
			copyTree(t, filepath.Join(reg, "packs", m.Pack), dir)
			if err := applyDiff(dir, "packs/"+m.Pack+"/", m.Diff); err != nil {
				t.Fatal(err)
			}
			rep, err := Run(context.Background(), dir, Options{Timeout: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if code, ok := noVerdict[m.ID]; ok {
				if strings.HasPrefix(m.Verdict, "pass") || strings.HasPrefix(m.Verdict, "fail") {
					t.Fatalf("the oracle has a verdict (%s) for a mutation listed as having none", m.Verdict)
				}
				var failed []NodeVerdict
				for _, nv := range rep.Nodes {
					if nv.Status != Passed {
						failed = append(failed, nv)
					}
				}
				if rep.Passed || len(failed) != 1 || failed[0].TypeID != "core.crypto.hash" || failed[0].Check != CheckRun || failed[0].Code != code {
					t.Errorf("got passed %v, nodes not passed %+v; want only core.crypto.hash failed with %s", rep.Passed, failed, code)
				}
				return
			}
			for _, b := range compare(rep, m.Verdict == "pass", m.Checks, m.Failures) {
				t.Error(b)
			}
		})
	}
}

// copyTree copies the regular files and folders of src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// applyDiff applies a unified diff (git's, paths below prefix) to the
// files in dir: each hunk's old lines must be found where it says, or
// elsewhere in the file.
func applyDiff(dir, prefix, diff string) error {
	var file string
	var lines []string
	flush := func() error {
		if file == "" {
			return nil
		}
		return os.WriteFile(filepath.Join(dir, filepath.FromSlash(file)), []byte(strings.Join(lines, "\n")), 0o644)
	}
	rows := strings.Split(diff, "\n")
	for i := 0; i < len(rows); i++ {
		r := rows[i]
		switch {
		case strings.HasPrefix(r, "+++ b/"):
			if err := flush(); err != nil {
				return err
			}
			file = strings.TrimPrefix(strings.TrimPrefix(r, "+++ b/"), prefix)
			b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
			if err != nil {
				return err
			}
			lines = strings.Split(string(b), "\n")
		case strings.HasPrefix(r, "@@ "):
			var old, new []string
			j := i + 1
			for ; j < len(rows) && !strings.HasPrefix(rows[j], "@@ ") && !strings.HasPrefix(rows[j], "diff --git "); j++ {
				row := rows[j]
				switch {
				case strings.HasPrefix(row, " "):
					old, new = append(old, row[1:]), append(new, row[1:])
				case strings.HasPrefix(row, "-"):
					old = append(old, row[1:])
				case strings.HasPrefix(row, "+"):
					new = append(new, row[1:])
				case row == "":
					if j == len(rows)-1 {
						continue
					}
					old, new = append(old, ""), append(new, "")
				}
			}
			from, _, _ := strings.Cut(strings.TrimPrefix(strings.Fields(r)[1], "-"), ",")
			start, _ := strconv.Atoi(from)
			at := find(lines, old, max(start-1, 0))
			if at < 0 {
				return fmt.Errorf("%s: hunk %q does not apply", file, r)
			}
			lines = slices.Concat(lines[:at], new, lines[at+len(old):])
			i = j - 1
		}
	}
	return flush()
}

// find returns where block starts in lines, trying near first.
func find(lines, block []string, near int) int {
	match := func(at int) bool {
		return at >= 0 && at+len(block) <= len(lines) && slices.Equal(lines[at:at+len(block)], block)
	}
	if match(near) {
		return near
	}
	for at := range lines {
		if match(at) {
			return at
		}
	}
	return -1
}
