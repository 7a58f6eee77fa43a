package validate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/openwop/wopkit/internal/jsondoc"
)

// OW017: a JavaScript pack's entry, loaded with node, exports a `nodes`
// object with one function per nodes[].typeId (SPEC-NOTES §6; the
// registry's gate checks the same).
//
// Loading the entry runs the author's code. So the rule runs only when
// Options.RunEntry is set (the CLI sets it for `validate` of a directory,
// on by default, off with --run-entry=false), only for a pack read from a
// directory on disk (never a tarball, never the TUI's in-memory copy), and
// only when node is installed: without node nothing is executed and the
// rule is skipped (the CLI says so). node runs with a timeout, in the pack
// directory, with an empty environment and, where node supports it, its
// permission model (reads limited to the pack, no writes, no child
// processes or workers).

// EntryTimeout bounds how long loading an entry may take.
var EntryTimeout = 10 * time.Second

// diskFS is a pack's files read from a directory on disk: the only packs
// whose entry OW017 loads.
type diskFS struct {
	fs.FS
	dir string
}

func packFS(dir string) fs.FS { return diskFS{FS: os.DirFS(dir), dir: dir} }

// The methods of os.DirFS, passed through so that readers keep using them
// (Stat and Lstat never open a file, so a FIFO never blocks).
func (d diskFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(d.FS, name) }
func (d diskFS) ReadFile(name string) ([]byte, error)       { return fs.ReadFile(d.FS, name) }
func (d diskFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(d.FS, name) }
func (d diskFS) ReadLink(name string) (string, error)       { return fs.ReadLink(d.FS, name) }
func (d diskFS) Lstat(name string) (fs.FileInfo, error)     { return fs.Lstat(d.FS, name) }

// NodeAvailable reports whether OW017 can run (node is on PATH).
func NodeAvailable() bool {
	_, err := exec.LookPath("node")
	return err == nil
}

const entryProbe = `
const url = require("node:url");
import(url.pathToFileURL(process.argv[1]).href).then((m) => {
  const kind = (v) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  const fns = (o) => (o && typeof o === "object" ? Object.fromEntries(Object.keys(o).map((k) => [k, kind(o[k])])) : null);
  process.stdout.write(JSON.stringify({ nodes: kind(m.nodes), nodeKeys: fns(m.nodes), defaultKeys: fns(m.default) }));
}, (e) => { process.stdout.write(JSON.stringify({ error: String(e && e.stack || e).split("\n").slice(0, 3).join(" | ") })); });
`

type entryExports struct {
	Nodes       string            `json:"nodes"`
	NodeKeys    map[string]string `json:"nodeKeys"`
	DefaultKeys map[string]string `json:"defaultKeys"`
	Error       string            `json:"error"`
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
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return
	}
	dir, err := filepath.Abs(dfs.dir)
	if err != nil {
		return
	}
	exp, err := loadEntry(nodeBin, dir, entry)
	if err != nil {
		c.report("/runtime/entry", false, fmt.Sprintf("node could not load runtime.entry %q: %v", entry, err),
			"run `node "+entry+"` in the pack directory to see why; the registry loads the entry the same way")
		return
	}
	if exp.Error != "" {
		c.report("/runtime/entry", false, fmt.Sprintf("node could not load runtime.entry %q: %s", entry, exp.Error),
			"fix the module so that `node -e 'import(\"./"+entry+"\")'` succeeds in the pack directory")
		return
	}
	if exp.Nodes != "object" {
		hint := "add `export const nodes = { \"<typeId>\": fn, ... }` (and `export default nodes`), mapping every typeId to its function"
		if len(exp.DefaultKeys) > 0 {
			hint = "the typeId map is only the default export: add `export const nodes = <that object>;` beside `export default nodes`"
		}
		c.report("/runtime/entry", false, fmt.Sprintf("runtime.entry %q exports no `nodes` object (it is %s); SPEC-NOTES §6 requires one, the registry refuses the pack", entry, exp.Nodes), hint)
		return
	}
	declared := map[string]bool{}
	for _, n := range c.items("/nodes") {
		ptr := jsondoc.Index(n.parent, n.i)
		id := n.n.Get("typeId")
		if id == nil || id.Kind != jsondoc.String {
			continue
		}
		declared[id.Str] = true
		switch k, ok := exp.NodeKeys[id.Str]; {
		case !ok:
			c.report(ptr+"/typeId", false, fmt.Sprintf("typeId %q is not a key of the `nodes` object runtime.entry %q exports", id.Str, entry),
				"add the node's function to `nodes` under exactly this typeId, or remove the node from pack.json")
		case k != "function":
			c.report(ptr+"/typeId", false, fmt.Sprintf("nodes[%q] exported by %q is a %s, not a function", id.Str, entry, k),
				"map the typeId to the node's async function")
		}
	}
	for k := range exp.NodeKeys {
		if !declared[k] {
			c.report("/nodes", false, fmt.Sprintf("runtime.entry %q exports nodes[%q], which pack.json does not declare in nodes[]", entry, k),
				"declare the node in pack.json, or remove it from the exported `nodes` object")
		}
	}
}

// loadEntry imports entry (relative to dir) with node and reports what it
// exports.
func loadEntry(nodeBin, dir, entry string) (*entryExports, error) {
	ctx, cancel := context.WithTimeout(context.Background(), EntryTimeout)
	defer cancel()
	args := []string{}
	if nodeHasPermissionModel(nodeBin) {
		args = append(args, "--experimental-permission", "--allow-fs-read="+dir+string(filepath.Separator)+"*")
	}
	args = append(args, "-e", entryProbe, filepath.Join(dir, filepath.FromSlash(entry)))
	cmd := exec.CommandContext(ctx, nodeBin, args...)
	cmd.Dir = dir
	cmd.Env = []string{"NODE_OPTIONS=", "NO_COLOR=1"}
	var out, errb bytes.Buffer
	cmd.Stdout = &limitedBuffer{buf: &out, max: 1 << 20}
	cmd.Stderr = &limitedBuffer{buf: &errb, max: 4096}
	err := cmd.Run()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("it did not finish loading within %s", EntryTimeout)
	}
	var exp entryExports
	if jerr := json.Unmarshal(out.Bytes(), &exp); jerr != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" && err != nil {
			msg = err.Error()
		}
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		return nil, errors.New(msg)
	}
	return &exp, nil
}

var (
	permissionMu    sync.Mutex
	permissionModel = map[string]bool{}
)

// nodeHasPermissionModel reports whether node accepts --experimental-permission
// (node 20 and later).
func nodeHasPermissionModel(nodeBin string) bool {
	permissionMu.Lock()
	defer permissionMu.Unlock()
	if v, ok := permissionModel[nodeBin]; ok {
		return v
	}
	out, err := exec.Command(nodeBin, "--version").Output()
	ok := false
	if err == nil {
		var major int
		fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), "%d", &major)
		ok = major >= 20
	}
	permissionModel[nodeBin] = ok
	return ok
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
