package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/proc"
	"github.com/openwop/wopkit/internal/sandbox"
	"github.com/openwop/wopkit/internal/untrusted"
)

// OW017: a JavaScript pack's entry, loaded with node, exports a `nodes`
// object with one function per nodes[].typeId (docs/FORMATS.md §6; the
// registry's gate checks the same).
//
// Loading the entry runs the author's code. So the rule runs only when
// Options.RunEntry is set (the CLI sets it with --run-entry or
// WOPKIT_RUN_ENTRY=1; off by default), only for a pack read from a
// directory on disk (never a tarball, never the TUI's in-memory copy), and
// only when node is installed. Before node starts, the pack directory is
// walked (sandbox.CheckTree): a link that leads out of it, a file with
// several hard links, a device, FIFO or socket is a problem and node is
// not started. node (20 or later) then runs in internal/sandbox (no
// sockets, no signals to other processes, CPU and memory limits, its own
// process group killed whole at EntryTimeout; where that sandbox cannot be
// set up, a problem says so and node is not started), in the pack
// directory, with an empty environment and node's permission model (reads
// limited to the pack, no writes, no child processes or workers).

// EntryTimeout bounds how long loading an entry may take (wall clock; the
// CPU time of node is bounded by the same number of seconds).
var EntryTimeout = 10 * time.Second

// EntryMemory bounds node's private writable memory (RLIMIT_DATA); the V8
// heap is given half of it (--max-old-space-size).
const EntryMemory = 512 << 20

// RunEntryEnv is the environment switch that turns OW017 on where the
// command line does not say (`WOPKIT_RUN_ENTRY=1`), for one's own CI.
const RunEntryEnv = "WOPKIT_RUN_ENTRY"

// maxEscapes bounds the problems reported for links out of one pack.
const maxEscapes = 20

// diskFS is a pack's files read from a directory on disk: the only packs
// whose entry OW017 loads.
type diskFS struct {
	fs.FS
	dir string
}

// packFS reads the pack through the untrusted layer: inside the pack only
// (a link out is refused, never followed), FIFOs refused before opening,
// files bounded. A directory that cannot be opened as a root reads as empty.
func packFS(dir string) fs.FS {
	fsys, err := untrusted.DirFS(dir)
	if err != nil {
		fsys = failedFS{err}
	}
	return diskFS{FS: fsys, dir: dir}
}

// failedFS is a directory that could not be opened: every read fails with
// why.
type failedFS struct{ err error }

func (f failedFS) Open(string) (fs.File, error) { return nil, f.err }

// The methods of os.DirFS, passed through so that readers keep using them
// (Stat and Lstat never open a file, so a FIFO never blocks).
func (d diskFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(d.FS, name) }
func (d diskFS) ReadFile(name string) ([]byte, error)       { return fs.ReadFile(d.FS, name) }
func (d diskFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(d.FS, name) }
func (d diskFS) ReadLink(name string) (string, error)       { return fs.ReadLink(d.FS, name) }
func (d diskFS) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(d.FS, name) }

// NodeAvailable reports whether OW017 can run (node is on PATH).
func NodeAvailable() bool {
	_, err := proc.LookPath("node")
	return err == nil
}

// EntryCheckable reports whether OW017 would load an entry for path: a
// directory whose pack.json names a javascript runtime.entry. The CLI uses
// it to say that the rule was skipped.
func EntryCheckable(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return false
	}
	d, err := untrusted.OpenDir(path)
	if err != nil {
		return false
	}
	defer d.Close()
	var m struct {
		Runtime struct {
			Language string `json:"language"`
			Entry    string `json:"entry"`
		} `json:"runtime"`
	}
	if d.ReadJSON("pack.json", MaxFileSize, &m) != nil {
		return false
	}
	return m.Runtime.Language == "javascript" && m.Runtime.Entry != ""
}

const entryProbe = `
const url = require("node:url");
import(url.pathToFileURL(process.argv[1]).href).then((m) => {
  const kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  const fns = (o) => (o && typeof o === "object" ? Object.keys(o).map((k) => [k, kind(o[k])]) : null);
  process.stdout.write(JSON.stringify({ nodes: kind(m.nodes), nodeKeys: fns(m.nodes), defaultKeys: fns(m.default) }));
}, (e) => { process.stdout.write(JSON.stringify({ error: String(e && e.stack || e).split("\n").slice(0, 3).join(" | ") })); });
`

// entryExports is what the probe prints. The keys come as [name, kind]
// pairs, not an object: two exported names differing only in letter case
// are two keys, which untrusted.DecodeJSON would refuse as one.
type entryExports struct {
	Nodes       string     `json:"nodes"`
	NodePairs   [][]string `json:"nodeKeys"`
	DefaultKeys [][]string `json:"defaultKeys"`
	Error       string     `json:"error"`
}

func checkEntryExports(c *lintCtx) {
	if !c.opts.RunEntry {
		return
	}
	dfs, ok := c.fsys.(diskFS)
	if !ok || c.doc.Lookup("/runtime/language").Text() != "javascript" {
		return
	}
	entry := strings.TrimPrefix(c.doc.Lookup("/runtime/entry").Text(), "./")
	if entry == "" || strings.Contains(entry, "..") || filepath.IsAbs(entry) {
		return
	}
	if st, err := fs.Stat(dfs.FS, entry); err != nil || !st.Mode().IsRegular() {
		return // OW006 reports it
	}
	nodeBin, err := proc.LookPath("node")
	if err != nil {
		return // the CLI says that nothing ran
	}
	dir, flag, ok := entryPreflight(c, nodeBin, dfs.dir, entry)
	if !ok {
		return
	}
	exp, err := loadEntry(nodeBin, flag, dir, entry)
	var le *loadError
	switch {
	case errors.As(err, &le):
		c.report("/runtime/entry", false, fmt.Sprintf("runtime.entry %q: %s", entry, le.msg), le.hint)
		return
	case err != nil:
		c.report("/runtime/entry", false, fmt.Sprintf("node could not load runtime.entry %q: %v", entry, err),
			"run `node "+entry+"` in the pack directory to see why; the registry loads the entry the same way")
		return
	case exp.Error != "":
		c.report("/runtime/entry", false, fmt.Sprintf("node could not load runtime.entry %q: %s", entry, exp.Error),
			"fix the module so that `node -e 'import(\"./"+entry+"\")'` succeeds in the pack directory")
		return
	case exp.Nodes != "object":
		hint := "add `export const nodes = { \"<typeId>\": fn, ... }` (and `export default nodes`), mapping every typeId to its function"
		if len(exp.DefaultKeys) > 0 {
			hint = "the typeId map is only the default export: add `export const nodes = <that object>;` beside `export default nodes`"
		}
		c.report("/runtime/entry", false, fmt.Sprintf("runtime.entry %q exports no `nodes` object (it is %s); the registry's packs export one (docs/FORMATS.md §6); %s", entry, exp.Nodes, c.refusal("its smoke test, scripts/test-packs.mjs")), hint)
		return
	}
	kinds := map[string]string{}
	for _, kv := range exp.NodePairs {
		if len(kv) == 2 {
			kinds[kv[0]] = kv[1]
		}
	}
	declared := map[string]bool{}
	for _, n := range c.items("/nodes") {
		ptr := jsondoc.Index(n.parent, n.i)
		id := n.n.Get("typeId")
		if id == nil || id.Kind != jsondoc.String {
			continue
		}
		declared[id.Str] = true
		switch k, ok := kinds[id.Str]; {
		case !ok:
			c.report(ptr+"/typeId", false, fmt.Sprintf("typeId %q is not a key of the `nodes` object runtime.entry %q exports", id.Str, entry),
				"add the node's function to `nodes` under exactly this typeId, or remove the node from pack.json")
		case k != "function":
			c.report(ptr+"/typeId", false, fmt.Sprintf("nodes[%q] exported by %q is a %s, not a function", id.Str, entry, k),
				"map the typeId to the node's async function")
		}
	}
	for _, kv := range exp.NodePairs {
		if len(kv) == 2 && !declared[kv[0]] {
			declared[kv[0]] = true // once
			c.report("/nodes", false, fmt.Sprintf("runtime.entry %q exports nodes[%q], which pack.json does not declare in nodes[]", entry, kv[0]),
				"declare the node in pack.json, or remove it from the exported `nodes` object")
		}
	}
}

// entryPreflight decides whether node may start: the sandbox can be set up
// here, the pack directory (resolved) has no way out for a reader confined
// to it by path, and node has a permission model. Otherwise it
// reports why as OW017 problems and returns false. It returns the resolved
// directory and node's permission flag.
func entryPreflight(c *lintCtx, nodeBin, packDir, entry string) (dir, flag string, ok bool) {
	const ptr = "/runtime/entry"
	if err := sandbox.Supported(); err != nil {
		c.report(ptr, false, fmt.Sprintf("runtime.entry %q was not loaded: OW017 runs node only in its sandbox, which cannot be set up here: %v", entry, err),
			"run validate --run-entry on Linux (amd64 or arm64), or validate without --run-entry")
		return "", "", false
	}
	escapes, err := sandbox.CheckTree(packDir, maxEscapes+1)
	if err != nil {
		c.report(ptr, false, fmt.Sprintf("runtime.entry %q was not loaded: the pack directory could not be checked for links out of it: %v", entry, err),
			"OW017 starts node only on a pack directory it could check whole")
		return "", "", false
	}
	for i, e := range escapes {
		if i == maxEscapes {
			c.report(ptr, false, "… and more entries of the pack that lead outside it", "")
			break
		}
		c.report(ptr, false, fmt.Sprintf("runtime.entry %q was not loaded: %s in the pack is %s", entry, e.Path, e.Reason),
			"node limits reads by path, so the entry could read through it what it leads to: replace it with a regular file (a copy), or validate without --run-entry")
	}
	if len(escapes) > 0 {
		return "", "", false
	}
	flag = nodePermissionFlag(nodeBin)
	if flag == "" {
		c.report(ptr, false, fmt.Sprintf("runtime.entry %q was not loaded: this node has no permission model (node 20 or later has one), which OW017 needs to keep reads inside the pack", entry),
			"install node 20 or later, or validate without --run-entry")
		return "", "", false
	}
	dir, err = filepath.EvalSymlinks(packDir)
	if err == nil {
		dir, err = filepath.Abs(dir)
	}
	if err != nil {
		c.report(ptr, false, fmt.Sprintf("runtime.entry %q was not loaded: %v", entry, err), "")
		return "", "", false
	}
	if strings.ContainsAny(dir, nodePatternChars) {
		c.report(ptr, false, fmt.Sprintf("runtime.entry %q was not loaded: the pack's folder %q has %s in its path, which node's --allow-fs-read would read as a pattern (a wider set of folders than the pack's)",
			entry, dir, describePatternChars(dir)),
			"copy or move the pack to a folder whose path has no * and no comma, then validate it there; or validate without --run-entry")
		return "", "", false
	}
	return dir, flag, true
}

// nodePatternChars are the characters node's permission flags do not take
// literally in a path: * is a wildcard, and some node 20 releases split
// --allow-fs-read on commas. A pack folder whose path has one is refused:
// node has no way to escape them.
const nodePatternChars = "*,"

// describePatternChars names the pattern characters path has.
func describePatternChars(path string) string {
	var names []string
	if strings.Contains(path, "*") {
		names = append(names, "a *")
	}
	if strings.Contains(path, ",") {
		names = append(names, "a comma")
	}
	return strings.Join(names, " and ")
}

// loadError is a failure of loading the entry with its own advice.
type loadError struct{ msg, hint string }

func (e *loadError) Error() string { return e.msg }

// loadEntry imports entry (relative to dir) with node in the sandbox and
// reports what it exports.
func loadEntry(nodeBin, permissionFlag, dir, entry string) (*entryExports, error) {
	args := []string{
		fmt.Sprintf("--max-old-space-size=%d", EntryMemory>>21), // MiB: half of EntryMemory
		permissionFlag, "--allow-fs-read=" + dir + string(filepath.Separator) + "*",
		"-e", entryProbe, filepath.Join(dir, filepath.FromSlash(entry)),
	}
	var out, errb bytes.Buffer
	err := sandbox.Run(context.Background(), &sandbox.Cmd{
		Path:   nodeBin,
		Args:   args,
		Dir:    dir,
		Env:    []string{"NODE_OPTIONS=", "NO_COLOR=1"},
		Stdout: &limitedBuffer{buf: &out, max: 1 << 20},
		Stderr: &limitedBuffer{buf: &errb, max: 4096},
		Limits: sandbox.Limits{Timeout: EntryTimeout, CPU: EntryTimeout, Memory: EntryMemory},
	})
	var se *sandbox.SetupError
	stderr := errb.String()
	switch {
	case errors.As(err, &se):
		return nil, &loadError{"not loaded: " + se.Error() + "; node was not started",
			"OW017 runs node only in its sandbox; validate without --run-entry, or see why the sandbox fails here"}
	case errors.Is(err, sandbox.ErrTimeout):
		return nil, &loadError{fmt.Sprintf("node did not finish loading it within %s (its process group was killed)", EntryTimeout),
			"loading the entry must not wait or loop: move work into the node functions"}
	case strings.Contains(stderr, "out of memory") || strings.Contains(stderr, "allocation failed"):
		return nil, &loadError{fmt.Sprintf("node ran out of memory loading it (the limit is %d MiB)", EntryMemory>>20),
			"loading the entry must not allocate much: move work into the node functions"}
	case errors.Is(err, sandbox.ErrLimit):
		return nil, &loadError{fmt.Sprintf("node was killed loading it: over its CPU time (%s) or memory (%d MiB) limit (%v)", EntryTimeout, EntryMemory>>20, err),
			"loading the entry must not compute much: move work into the node functions"}
	}
	var exp entryExports
	if jerr := untrusted.DecodeJSON(out.Bytes(), &exp); jerr != nil {
		msg := strings.TrimSpace(stderr)
		if msg == "" && err != nil {
			msg = err.Error()
		}
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = "it printed no result"
		}
		return nil, errors.New(msg)
	}
	return &exp, nil
}

var (
	permissionMu    sync.Mutex
	permissionFlags = map[string]string{}
)

// nodePermissionFlag returns the flag that turns on node's permission model
// (--permission from node 23.5, --experimental-permission in node 20 to
// 22), or "" when this node has none. It runs node once per binary, on no
// file.
func nodePermissionFlag(nodeBin string) string {
	permissionMu.Lock()
	defer permissionMu.Unlock()
	if v, ok := permissionFlags[nodeBin]; ok {
		return v
	}
	flag := ""
	for _, f := range []string{"--permission", "--experimental-permission"} {
		cmd := proc.Command(nodeBin, []string{f, "-e", "process.exit(process.permission && !process.permission.has('fs.read', '/') ? 0 : 3)"},
			os.TempDir(), []string{"NODE_OPTIONS="})
		if cmd.Run() == nil {
			flag = f
			break
		}
	}
	permissionFlags[nodeBin] = flag
	return flag
}

type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		if len(p) > room {
			l.buf.Write(p[:room])
		} else {
			l.buf.Write(p)
		}
	}
	return len(p), nil
}
