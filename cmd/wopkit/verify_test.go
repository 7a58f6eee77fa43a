package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// runCmd runs the wopkit root command with args and returns stdout, stderr
// and the exit code main would use.
func runCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	root := newRootCmd()
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		errOut.WriteString(err.Error())
	}
	return out.String(), errOut.String(), exitCode(err)
}

func TestVerifyCommand(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	a2a := filepath.Join(reg, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz")
	legacy := filepath.Join(reg, "v1", "packs", "vendor.openwop.rust-hello", "-", "1.0.0.tgz")
	myndhyve := filepath.Join(reg, "keys", "myndhyve-internal-1.pub")

	t.Run("one tarball, json object", func(t *testing.T) {
		out, _, code := runCmd(t, "verify", a2a, "--registry", reg, "--json")
		var r map[string]any
		if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 {
			t.Fatalf("exit %d, %v: %s", code, err, out)
		}
		for _, k := range []string{"path", "verified", "method", "keyId", "name", "version", "integrity", "integrityChecked", "coversOnly", "error"} {
			if _, ok := r[k]; !ok {
				t.Errorf("missing %q in %s", k, out)
			}
		}
		if r["verified"] != true || r["integrityChecked"] != true || r["error"] != nil || r["keyId"] != "openwop-team-1" {
			t.Errorf("%s", out)
		}
	})
	t.Run("several, json array, yanked refused", func(t *testing.T) {
		out, _, code := runCmd(t, "verify", a2a, legacy, "--registry", reg, "--json")
		var rs []map[string]any
		if err := json.Unmarshal([]byte(out), &rs); err != nil || code != 1 || len(rs) != 2 {
			t.Fatalf("exit %d, %v: %s", code, err, out)
		}
		e, _ := rs[1]["error"].(map[string]any)
		if rs[0]["verified"] != true || rs[1]["yanked"] != true || rs[1]["verified"] != false || e["code"] != "pack_yanked" {
			t.Errorf("yanked legacy version not refused with pack_yanked: %v", rs[1])
		}
	})
	t.Run("several, json array, yanked allowed", func(t *testing.T) {
		out, _, code := runCmd(t, "verify", a2a, legacy, "--registry", reg, "--json", "--allow-yanked")
		var rs []map[string]any
		if err := json.Unmarshal([]byte(out), &rs); err != nil || code != 0 || len(rs) != 2 {
			t.Fatalf("exit %d, %v: %s", code, err, out)
		}
		if rs[1]["yanked"] != true || rs[1]["method"] != "ed25519" || rs[1]["verified"] != true {
			t.Errorf("legacy: %v", rs[1])
		}
		if notes, _ := json.Marshal(rs[1]["notes"]); !strings.Contains(string(notes), "yanked") {
			t.Errorf("an accepted yanked version carries no warning: %s", notes)
		}
	})
	t.Run("wrong key fails with exit 1 and a stable code", func(t *testing.T) {
		out, _, code := runCmd(t, "verify", a2a, "--key", myndhyve, "--json")
		var r map[string]any
		json.Unmarshal([]byte(out), &r)
		e, _ := r["error"].(map[string]any)
		if code != 1 || r["verified"] != false || e["code"] != "pack_signature_invalid" {
			t.Errorf("exit %d: %s", code, out)
		}
	})
	t.Run("one failure among several: exit 1", func(t *testing.T) {
		_, _, code := runCmd(t, "verify", a2a, filepath.Join(t.TempDir(), "nope.tgz"), "--registry", reg)
		if code != 3 {
			t.Errorf("only unreadable files failed: exit %d, want 3", code)
		}
		bad := filepath.Join(t.TempDir(), "bad.tgz")
		os.WriteFile(bad, []byte("not gzip"), 0o644)
		out, _, code := runCmd(t, "verify", a2a, bad, "--registry", reg)
		if code != 1 || !bytes.Contains([]byte(out), []byte("FAIL")) || !bytes.Contains([]byte(out), []byte("tarball_corrupt")) {
			t.Errorf("exit %d: %s", code, out)
		}
	})
	t.Run("text says only pack.json is covered without a registry", func(t *testing.T) {
		out, _, code := runCmd(t, "verify", a2a, "--key", filepath.Join(reg, "keys", "openwop-team-1.pub"))
		if code != 0 || !bytes.Contains([]byte(out), []byte("only pack.json is covered")) {
			t.Errorf("exit %d: %s", code, out)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no trust", []string{"verify", a2a}},
		{"no args", []string{"verify", "--registry", reg}},
		{"--sig with several", []string{"verify", a2a, legacy, "--sig", "x.sig", "--registry", reg}},
		{"unknown flag", []string{"verify", a2a, "--nope"}},
	} {
		t.Run("usage/"+tc.name, func(t *testing.T) {
			if _, _, code := runCmd(t, tc.args...); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
		})
	}
}

func TestInspectCommand(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	tgz := filepath.Join(reg, "v1", "packs", "core.openwop.agents.react", "-", "1.0.3.tgz")
	out, _, code := runCmd(t, "inspect", tgz, "--json")
	var info struct {
		Integrity string `json:"integrity"`
		Entries   []struct {
			Name string `json:"name"`
			Size int64  `json:"size"`
		} `json:"entries"`
		Manifest struct {
			Name   string `json:"name"`
			Agents int    `json:"agents"`
		} `json:"manifest"`
		Signing   map[string]string `json:"signing"`
		Canonical bool              `json:"canonical"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil || code != 0 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	if info.Integrity != "sha256-QX7oZLRcM8O6s9hN216kkBi2z76M9BkfrThr4R9hNB4=" || len(info.Entries) != 7 ||
		info.Manifest.Name != "core.openwop.agents.react" || info.Manifest.Agents != 1 ||
		info.Signing["publicKeyRef"] != "openwop-team-1" || !info.Canonical {
		t.Errorf("%s", out)
	}
	if out, _, code := runCmd(t, "inspect", tgz); code != 0 || !bytes.Contains([]byte(out), []byte("prompts/react.md")) {
		t.Errorf("text: exit %d: %s", code, out)
	}
}

// Sigstore options given beside packs that are not Sigstore-signed do not
// fail them: the Sigstore verifier is built only for a Sigstore bundle.
func TestVerifyTrustedRootBesideManualPack(t *testing.T) {
	t.Parallel()
	reg := fixtures.Registry(t)
	a2a := filepath.Join(reg, "v1", "packs", "core.openwop.a2a", "-", "1.1.0.tgz")
	root := filepath.Join(t.TempDir(), "trusted_root.json")
	os.WriteFile(root, []byte("{}"), 0o644)
	if out, errOut, code := runCmd(t, "verify", a2a, "--registry", reg, "--trusted-root", root); code != 0 {
		t.Errorf("exit %d: %s %s", code, out, errOut)
	}
}
