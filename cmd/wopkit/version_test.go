package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

// The build info gives the module version and the VCS revision, time and
// state; a link-time version wins; a binary without build info or without
// VCS stamps still reports a version and empty VCS fields.
func TestVersionBuildInfo(t *testing.T) {
	t.Parallel()
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-25T16:35:57Z"}, {Key: "vcs.modified", Value: "true"}}
	for _, tc := range []struct {
		name, linked string
		bi           *debug.BuildInfo
		want         buildInfo
	}{
		{"go install @version", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v1.2.3"}},
			buildInfo{Version: "v1.2.3", Module: modulePath, GoVersion: "go1.26.8"}},
		{"checkout", "", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261125163557-0123456789ab+dirty"}, Settings: vcs},
			buildInfo{Version: "v0.0.0-20261125163557-0123456789ab+dirty", Module: modulePath, Revision: "0123456789abcdef0123456789abcdef01234567",
				Time: "2026-11-25T16:35:57Z", Modified: true, GoVersion: "go1.26.8"}},
		{"linked", "v9.9.9", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: vcs[:2]},
			buildInfo{Version: "v9.9.9", Module: modulePath, Revision: "0123456789abcdef0123456789abcdef01234567", GoVersion: "go1.26.8"}},
		{"no version recorded", "", &debug.BuildInfo{GoVersion: "go1.26.8"},
			buildInfo{Version: "(devel)", Module: modulePath, GoVersion: "go1.26.8"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := buildInfoFrom(tc.linked, tc.bi)
			tc.want.Platform = got.Platform
			if got != tc.want || got.Platform == "" {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
	if b := buildInfoFrom("", nil); b.Version != "(devel)" || b.Module != modulePath || b.GoVersion == "" {
		t.Errorf("no build info: %+v", b)
	}
	var out bytes.Buffer
	printVersion(&out, buildInfoFrom("", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: modulePath, Version: "v1.2.3"}, Settings: vcs}), false)
	for _, want := range []string{"wopkit v1.2.3\n", "revision: 0123456789abcdef0123456789abcdef01234567 (2026-11-25T16:35:57Z), with uncommitted changes\n", "go:       go1.26.8 "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
}

// `wopkit version --json` has a stable shape: every field, always.
func TestVersionCommand(t *testing.T) {
	t.Parallel()
	out, errOut, code := runCmd(t, "version", "--json")
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil || code != 0 {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errOut)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"goVersion", "modified", "module", "platform", "revision", "time", "version"}; !slices.Equal(keys, want) {
		t.Errorf("--json keys %v, want %v", keys, want)
	}
	if m["module"] != modulePath || m["version"] == "" {
		t.Errorf("--json: %s", out)
	}
	out, _, code = runCmd(t, "version")
	if code != 0 || !strings.HasPrefix(out, "wopkit "+m["version"].(string)+"\n") || !strings.Contains(out, "revision: ") {
		t.Errorf("text: exit %d\n%s", code, out)
	}
	if _, _, code := runCmd(t, "version", "extra"); code != 2 {
		t.Errorf("an argument: exit %d, want 2", code)
	}
}

// The documented install path works: `go install
// github.com/openwop/wopkit/cmd/wopkit@VERSION`, from a module proxy (a
// file:// one holding the committed tree, HEAD, as that version), builds a
// wopkit whose `version` reports VERSION. This checks the module path of
// go.mod, the main package's path and that go.mod has no replace directive
// (go install pkg@version refuses one). Dependencies come from the module
// cache: without them the test skips.
func TestVersionGoInstall(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("go install from a local module proxy skipped in -short mode")
	}
	for _, tool := range []string{"go", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not found: skipping the go install check", tool)
		}
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout (%v): skipping the go install check", err)
	}
	repo := strings.TrimSpace(string(top))
	// The version is named after the commit: a second run of the same
	// commit finds wopkit's packages, at the same place in the module
	// cache, in the build cache instead of compiling them again.
	head, err := exec.Command("git", "-C", repo, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Skipf("git rev-parse HEAD: %v", err)
	}
	v := "v0.99.0-test.h" + strings.TrimSpace(string(head))
	proxy := t.TempDir()
	dir := filepath.Join(proxy, filepath.FromSlash(modulePath), "@v")
	os.MkdirAll(dir, 0o755)
	zipPath := filepath.Join(dir, v+".zip")
	if out, err := exec.Command("git", "-C", repo, "archive", "--format=zip", "--prefix="+modulePath+"@"+v+"/", "-o", zipPath, "HEAD").CombinedOutput(); err != nil {
		t.Fatalf("git archive: %v\n%s", err, out)
	}
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	var gomod []byte
	for _, f := range zr.File {
		if f.Name == modulePath+"@"+v+"/go.mod" {
			r, _ := f.Open()
			var b bytes.Buffer
			b.ReadFrom(r)
			r.Close()
			gomod = b.Bytes()
		}
	}
	zr.Close()
	if !bytes.HasPrefix(gomod, []byte("module "+modulePath+"\n")) {
		t.Fatalf("go.mod at HEAD does not declare module %s:\n%.200s", modulePath, gomod)
	}
	os.WriteFile(filepath.Join(dir, v+".mod"), gomod, 0o644)
	os.WriteFile(filepath.Join(dir, v+".info"), []byte(`{"Version":"`+v+`","Time":"2026-01-01T00:00:00Z"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "list"), []byte(v+"\n"), 0o644)

	// GOBIN, too, is kept per commit: go install then finds the binary it
	// would link up to date (by its build ID) and only checks it, instead
	// of linking it again (4 s of CPU); the first run of a commit links.
	gobin := t.TempDir()
	if c, err := os.UserCacheDir(); err == nil {
		root := filepath.Join(c, "wopkit-tests", "gobin")
		removeOldGobins(root, v)
		if d := filepath.Join(root, v); os.MkdirAll(d, 0o755) == nil {
			gobin = d
		}
	}
	cmd := exec.Command("go", "install", modulePath+"/cmd/wopkit@"+v)
	cmd.Dir = t.TempDir() // outside any module
	// The user's module cache serves the dependencies (no network). The
	// version is left in it for the next run of the same commit (a run
	// beside this one may be building it); those of other commits, an
	// hour old, are removed.
	modcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	m := strings.TrimSpace(string(modcache))
	removeOldTestVersions(m, v)
	cmd.Env = append(os.Environ(), "GOPROXY=file://"+filepath.ToSlash(proxy), "GOSUMDB=off", "GOFLAGS=-modcacherw",
		"GOBIN="+gobin, "GOWORK=off", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		if s := string(out); strings.Contains(s, "not found") && !strings.Contains(s, modulePath+"@") {
			t.Skipf("dependencies not in the module cache: %s", s)
		}
		t.Fatalf("go install %s/cmd/wopkit@%s: %v\n%s", modulePath, v, err, out)
	}
	out, err := exec.Command(filepath.Join(gobin, "wopkit"), "version", "--json").Output()
	if err != nil {
		t.Fatalf("installed wopkit version: %v", err)
	}
	var b buildInfo
	if err := json.Unmarshal(out, &b); err != nil || b.Version != v || b.Module != modulePath {
		t.Errorf("installed wopkit reports %s, want version %s", out, v)
	}
}

// removeOldGobins removes the GOBIN folders of root (one per version)
// last changed an hour ago or more, but keep.
func removeOldGobins(root, keep string) {
	old := time.Now().Add(-time.Hour)
	dirs, _ := filepath.Glob(filepath.Join(root, "v0.99.0-test.*"))
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil && filepath.Base(d) != keep && fi.ModTime().Before(old) {
			os.RemoveAll(d)
		}
	}
}

// removeOldTestVersions removes from the module cache m the versions
// TestVersionGoInstall put there (v0.99.0-test.*) an hour ago or more,
// but keep.
func removeOldTestVersions(m, keep string) {
	old := time.Now().Add(-time.Hour)
	base := filepath.Join(m, filepath.FromSlash(modulePath)+"@v0.99.0-test.")
	dl := filepath.Join(m, "cache", "download", filepath.FromSlash(modulePath), "@v")
	dirs, _ := filepath.Glob(base + "*")
	for _, d := range dirs {
		v := strings.TrimPrefix(d, filepath.Join(m, filepath.FromSlash(modulePath))+"@")
		if fi, err := os.Stat(d); err != nil || v == keep || fi.ModTime().After(old) {
			continue
		}
		os.RemoveAll(d)
		files, _ := filepath.Glob(filepath.Join(dl, v+".*"))
		for _, f := range files {
			os.Remove(f)
		}
	}
}
