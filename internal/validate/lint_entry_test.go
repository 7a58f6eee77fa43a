package validate_test

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/openwop/wopkit/internal/proctest"
	"github.com/openwop/wopkit/internal/sandbox"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/testwait"
	"github.com/openwop/wopkit/internal/validate"
)

// scaffoldJS writes a javascript pack with two nodes through the scaffold.
func scaffoldJS(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: OW017 loads the entry with node")
	}
	if err := sandbox.Supported(); err != nil {
		t.Skipf("OW017 refuses to run node here (TestOW017RefusedWithoutSandbox): %v", err)
	}
	return writeJSPack(t)
}

// writeJSPack is scaffoldJS without its checks.
func writeJSPack(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "p")
	a := scaffold.PackAnswers{}.Defaults()
	a.Name = "vendor.acme.js"
	a.Runtime.Language = "javascript"
	plan, err := scaffold.PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	src, err := scaffold.OpenPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := scaffold.NodeAnswers{}.Defaults()
	n.ID = "shout"
	plan, err = scaffold.PlanNode(src, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

func ow017(t *testing.T, dir string, run bool) []validate.Problem {
	t.Helper()
	v, err := validate.New(validate.Options{RunEntry: run})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := v.Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []validate.Problem
	for _, p := range rep.Problems() {
		if p.Rule == "OW017" {
			out = append(out, p)
		}
	}
	return out
}

// TestOW017ScaffoldedPackPasses: a javascript pack made by the scaffold,
// with a node added, exports what its manifest declares.
func TestOW017ScaffoldedPackPasses(t *testing.T) {
	t.Parallel()
	dir := scaffoldJS(t)
	if ps := ow017(t, dir, true); len(ps) != 0 {
		t.Fatalf("scaffolded pack fails OW017: %v", ps)
	}
}

// TestOW017FindsMissingExports: the registry's failure (the typeId map only
// as the default export), a typeId missing from nodes, a module that does
// not load; and nothing runs without RunEntry.
func TestOW017FindsMissingExports(t *testing.T) {
	t.Parallel()
	dir := scaffoldJS(t)
	entry := filepath.Join(dir, "index.mjs")
	orig, _ := os.ReadFile(entry)
	for _, c := range []struct {
		name, src, want string
	}{
		{"default only", strings.Replace(string(orig), "export const nodes", "const nodes", 1), "exports no `nodes` object"},
		{"typeId missing", string(orig) + "\ndelete nodes[\"vendor.acme.js.shout\"];\n", `"vendor.acme.js.shout" is not a key`},
		{"extra export", string(orig) + "\nnodes[\"vendor.acme.js.ghost\"] = () => {};\n", "does not declare"},
		{"throws", "throw new Error(\"boom\");\n", "boom"},
		{"writes a file", "import fs from \"node:fs\";\nfs.writeFileSync(" + "\"" + filepath.ToSlash(filepath.Join(dir, "pwned")) + "\", \"x\");\nexport const nodes = {};\n", "could not load"},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(entry, []byte(c.src), 0o644)
			defer os.WriteFile(entry, orig, 0o644)
			ps := ow017(t, dir, true)
			if len(ps) == 0 || !strings.Contains(ps[0].Message, c.want) {
				t.Fatalf("want a problem saying %q, got %v", c.want, ps)
			}
			if ps := ow017(t, dir, false); len(ps) != 0 {
				t.Errorf("RunEntry off still ran the entry: %v", ps)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("the entry could write a file while being checked")
	}
}

// The tests below are hostile packs, written as an attacker would write
// them: each one leaked, stopped wopkit or ran away before OW017 ran node
// in internal/sandbox.

// hostileEntry writes src as the entry of a scaffolded javascript pack.
func hostileEntry(t *testing.T, src string) string {
	t.Helper()
	dir := scaffoldJS(t)
	if err := os.WriteFile(filepath.Join(dir, "index.mjs"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// entryTimeout sets validate.EntryTimeout for one test.
func entryTimeout(t *testing.T, d time.Duration) {
	old := validate.EntryTimeout
	validate.EntryTimeout = d
	t.Cleanup(func() { validate.EntryTimeout = old })
}

func messages(ps []validate.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Message + " (" + p.Hint + ")\n")
	}
	return b.String()
}

// TestOW017RefusesLinksOut: a link in the pack to a secret outside it
// (relative, absolute, a linked directory, a hard link) is refused before
// node starts; the secret never reaches the report. A link that stays
// inside is fine.
func TestOW017RefusesLinksOut(t *testing.T) {
	outside := t.TempDir()
	secret := "TOPSECRET-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if err := os.WriteFile(filepath.Join(outside, "shadow"), []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	// The entry throws what it read: were node started, the secret would be
	// in the problem's message.
	leak := func(name string) string {
		return "import fs from \"node:fs\";\nthrow new Error(fs.readFileSync(new URL(\"./" + name + "\", import.meta.url), \"utf8\"));\n"
	}
	for _, c := range []struct {
		name, read string
		plant      func(dir string) error
	}{
		{"relative symlink", "leak", func(dir string) error {
			rel, _ := filepath.Rel(dir, filepath.Join(outside, "shadow"))
			return os.Symlink(rel, filepath.Join(dir, "leak"))
		}},
		{"absolute symlink", "leak", func(dir string) error {
			return os.Symlink(filepath.Join(outside, "shadow"), filepath.Join(dir, "leak"))
		}},
		{"symlinked directory", "lib/shadow", func(dir string) error { return os.Symlink(outside, filepath.Join(dir, "lib")) }},
		{"chain of links", "a", func(dir string) error {
			if err := os.Symlink("b", filepath.Join(dir, "a")); err != nil {
				return err
			}
			return os.Symlink(filepath.Join(outside, "shadow"), filepath.Join(dir, "b"))
		}},
		{"hard link", "leak", func(dir string) error { return os.Link(filepath.Join(outside, "shadow"), filepath.Join(dir, "leak")) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := hostileEntry(t, leak(c.read))
			if err := c.plant(dir); err != nil {
				t.Skipf("cannot plant the link here: %v", err)
			}
			ps := ow017(t, dir, true)
			all := messages(ps)
			if strings.Contains(all, secret) {
				t.Fatalf("the secret reached the report:\n%s", all)
			}
			if len(ps) == 0 || !strings.Contains(all, "was not loaded") || !strings.Contains(all, "could read through it") {
				t.Fatalf("want the link refused before node starts, got:\n%s", all)
			}
			if strings.Contains(all, "could not load") {
				t.Errorf("node ran:\n%s", all)
			}
		})
	}
	t.Run("link inside the pack", func(t *testing.T) {
		dir := scaffoldJS(t)
		os.Symlink("index.mjs", filepath.Join(dir, "alias.mjs"))
		if ps := ow017(t, dir, true); len(ps) != 0 {
			t.Fatalf("a link inside the pack is refused: %s", messages(ps))
		}
	})
}

// listen opens a loopback TCP listener and a Unix socket and reports
// whatever connects to them.
func listen(t *testing.T) (tcpAddr, sock string, got <-chan string) {
	t.Helper()
	tl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sock = filepath.Join(t.TempDir(), "s")
	ul, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan string, 4)
	for _, l := range []net.Listener{tl, ul} {
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.SetReadDeadline(time.Now().Add(time.Second))
				b, _ := io.ReadAll(c)
				ch <- l.Addr().Network() + ": " + string(b)
				c.Close()
			}
		}()
	}
	return tl.Addr().String(), sock, ch
}

// TestOW017NoNetwork: the entry connects to a loopback TCP listener and a
// Unix socket the test opened; neither receives anything.
func TestOW017NoNetwork(t *testing.T) {
	t.Parallel()
	addr, sock, got := listen(t)
	host, port, _ := net.SplitHostPort(addr)
	src := `import net from "node:net";
const send = (opts) => new Promise((done) => {
  try {
    const s = net.connect(opts, () => { s.end("SECRET from the entry"); done(); });
    s.on("error", () => done());
  } catch (e) { done(); }
});
await send({ host: "` + host + `", port: ` + port + ` });
await send({ path: ` + strconv.Quote(sock) + ` });
export const nodes = { "vendor.acme.js.shout": async () => ({}) };
export default nodes;
`
	dir := hostileEntry(t, src)
	ow017(t, dir, true)
	select {
	case s := <-got:
		t.Fatalf("the entry reached a socket: %s", s)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestOW017NoSignals: the entry stops wopkit (its parent) and kills a
// process the test started; wopkit is not stopped and the process lives.
// The validation runs in a child test process, so that a stop shows as a
// failure instead of a hang.
func TestOW017NoSignals(t *testing.T) {
	t.Parallel()
	if os.Getenv("OW017_SIGNALS_PACK") != "" {
		return // the child's part is TestOW017SignalsChild
	}
	victim := exec.Command("sleep", "60")
	if err := victim.Start(); err != nil {
		t.Skipf("cannot start sleep: %v", err)
	}
	defer victim.Process.Kill()
	dead := make(chan struct{})
	go func() { victim.Wait(); close(dead) }()
	pid := strconv.Itoa(victim.Process.Pid)
	dir := hostileEntry(t, `
for (const sig of ["SIGSTOP", "SIGKILL"]) { try { process.kill(process.ppid, sig); } catch (e) {} }
for (const sig of ["SIGKILL", "SIGSTOP"]) { try { process.kill(`+pid+`, sig); } catch (e) {} }
export const nodes = { "vendor.acme.js.shout": async () => ({}) };
`)
	child := exec.Command(os.Args[0], "-test.run=^TestOW017SignalsChild$", "-test.v")
	child.Env = append(os.Environ(), "OW017_SIGNALS_PACK="+dir)
	var out strings.Builder
	child.Stdout, child.Stderr = &out, &out
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- child.Wait() }()
	deadline := time.After(testwait.Ceiling)
	for {
		select {
		case err := <-exited:
			if err != nil || !strings.Contains(out.String(), "PASS") {
				t.Fatalf("the validating process failed (%v):\n%s", err, out.String())
			}
			select {
			case <-dead:
				t.Fatal("the entry killed a process the test started")
			case <-time.After(100 * time.Millisecond):
			}
			return
		case <-deadline:
			child.Process.Kill()
			t.Fatalf("the validating process did not finish:\n%s", out.String())
		case <-time.After(20 * time.Millisecond):
			if proctest.State(child.Process.Pid) == "T" {
				resume(child.Process)
				child.Process.Kill()
				t.Fatal("the entry stopped the validating process (SIGSTOP to its parent)")
			}
		}
	}
}

// TestOW017SignalsChild is TestOW017NoSignals's validating process.
func TestOW017SignalsChild(t *testing.T) {
	dir := os.Getenv("OW017_SIGNALS_PACK")
	if dir == "" {
		t.Skip("run by TestOW017NoSignals")
	}
	entryTimeout(t, 5*time.Second)
	ow017(t, dir, true)
}

// TestOW017MemoryCapped: an entry that allocates 1.5 GiB (buffers, or
// arrays on the V8 heap) is stopped at the memory limit, reported as an
// OW017 problem, not at the time limit (far off).
func TestOW017MemoryCapped(t *testing.T) {
	entryTimeout(t, time.Minute)
	for name, alloc := range map[string]string{
		"buffers": "keep.push(Buffer.alloc(32 << 20, 1));",
		"arrays":  "keep.push(new Array(4 << 20).fill(i));",
	} {
		t.Run(name, func(t *testing.T) {
			dir := hostileEntry(t, "const keep = [];\nfor (let i = 0; i < 48; i++) { "+alloc+" }\n"+
				"export const nodes = { \"vendor.acme.js.shout\": async () => keep.length };\n")
			ps := ow017(t, dir, true)
			all := messages(ps)
			if !strings.Contains(all, "memory") && !strings.Contains(all, "allocation failed") || strings.Contains(all, "did not finish loading") {
				t.Fatalf("want an out-of-memory problem, got:\n%s", all)
			}
		})
	}
}

// TestOW017TimeoutKillsGroup: an entry that loops forever (after trying
// to leave a detached child behind) is killed with its whole process group
// at EntryTimeout; nothing of it survives.
func TestOW017TimeoutKillsGroup(t *testing.T) {
	entryTimeout(t, time.Second) // the loop burns a core until then
	tag := "1000." + strconv.Itoa(os.Getpid()) + strconv.Itoa(time.Now().Nanosecond()/1000)
	dir := hostileEntry(t, `import cp from "node:child_process";
try { cp.spawn("sleep", ["`+tag+`"], { detached: true, stdio: "ignore" }).unref(); } catch (e) {}
for (;;) {}
`)
	ps := ow017(t, dir, true)
	if all := messages(ps); !strings.Contains(all, "did not finish loading it within 1s") {
		t.Fatalf("want the timeout reported, got:\n%s", all)
	}
	time.Sleep(100 * time.Millisecond)
	for _, s := range []string{tag, dir} {
		if pids := proctest.Find(s); len(pids) > 0 {
			for _, p := range pids {
				killPid(p)
			}
			t.Errorf("processes of the entry outlived it (%q): %v", s, pids)
		}
	}
}

// TestOW017OffRunsNothing: without RunEntry node never starts, even for an
// entry that would loop until the timeout: the node on PATH is a script
// that leaves a mark before it runs the real one, and no mark is left (with
// RunEntry it is).
func TestOW017OffRunsNothing(t *testing.T) {
	entryTimeout(t, time.Second)
	dir := hostileEntry(t, "for (;;) {}\n")
	if runtime.GOOS == "windows" {
		t.Skip("the marking node is a shell script")
	}
	real, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	mark := filepath.Join(t.TempDir(), "node-ran")
	script := "#!/bin/sh\necho ran >> '" + mark + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "node"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	if ps := ow017(t, dir, false); len(ps) != 0 {
		t.Fatalf("RunEntry off reported OW017: %s", messages(ps))
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("RunEntry off: node ran")
	}
	ow017(t, dir, true)
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("RunEntry on: the marking node did not run (%v), so its absence above proves nothing", err)
	}
}

// TestOW017RefusedWithoutSandbox: where the sandbox cannot be set up (not
// Linux amd64/arm64, no seccomp), OW017 does not start node and says why.
func TestOW017RefusedWithoutSandbox(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: OW017 loads the entry with node")
	}
	if sandbox.Supported() == nil {
		t.Skip("the sandbox works here: the hostile-pack tests cover OW017")
	}
	dir := writeJSPack(t)
	ps := ow017(t, dir, true)
	if all := messages(ps); len(ps) != 1 || !strings.Contains(all, "cannot be set up here") {
		t.Fatalf("want one problem saying the sandbox cannot be set up, got:\n%s", all)
	}
}

// TestOW017RefusesPatternPaths (issue 24, item 4): node reads
// --allow-fs-read=<dir>/* as a pattern, so a pack folder named `*pack`
// opened its whole parent folder, and one ending in `,` (split by node 20)
// opened the whole file system. Such a folder is refused before node
// starts; a secret beside it never reaches the report.
func TestOW017RefusesPatternPaths(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"*pack", "p,", "a,b", "x*"} {
		t.Run(name, func(t *testing.T) {
			src := scaffoldJS(t)
			parent := t.TempDir()
			secret := "TOPSECRET-" + strconv.FormatInt(time.Now().UnixNano(), 36)
			if err := os.WriteFile(filepath.Join(parent, "shadow"), []byte(secret), 0o600); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(parent, name)
			if err := os.Rename(src, dir); err != nil {
				t.Skipf("cannot name a folder %q here: %v", name, err)
			}
			leak := "import fs from \"node:fs\";\nthrow new Error(fs.readFileSync(" + strconv.Quote(filepath.Join(parent, "shadow")) + ", \"utf8\"));\n"
			os.WriteFile(filepath.Join(dir, "index.mjs"), []byte(leak), 0o644)
			ps := ow017(t, dir, true)
			all := messages(ps)
			if strings.Contains(all, secret) {
				t.Fatalf("the secret beside the pack reached the report:\n%s", all)
			}
			if !strings.Contains(all, "was not loaded") || !strings.Contains(all, "pattern") {
				t.Fatalf("want the folder refused before node starts, got:\n%s", all)
			}
		})
	}
}
