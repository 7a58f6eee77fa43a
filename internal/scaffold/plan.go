package scaffold

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/openwop/wopkit/internal/atomicfile"

	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/packref"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// Plan is the set of files a scaffold will write, computed without writing
// anything (the wizard's review screen shows it).
type Plan struct {
	Kind  string   // pack, agent, node, eval or tool
	Files []File   // in the order they are listed to the user
	Notes []string // what the author should know or do next
	// Placeholders are the values the files still hold that a scaffold
	// writes to be replaced (validate's rule PH001, from the list of
	// internal/placeholder): warnings, which the review lists and
	// `validate --strict` refuses, not problems that stop the files.
	Placeholders FieldErrors
	// Test is the command that runs the scaffolded tests, run in the
	// pack's folder ("" when the runtime scaffolds none): the create
	// workflow's next steps say it with the folder to cd to.
	Test string
	// Evals are the agents whose eval suites the plan writes, as `wopkit
	// eval` names them: an agentId of the pack, or a standalone agent
	// manifest's file (*.json). The create workflow's next steps say how to
	// run each suite.
	Evals []string

	owners map[string]string // generated file -> the answer field it comes from
	// pack and version name the pack the schemas are written for: their
	// $id (validate.PackSchemaID); empty for a standalone agent (no $id).
	pack, version string
}

// schemaID returns the $id of the schema written at ref, "" outside a pack.
func (p *Plan) schemaID(ref string) string {
	if p.pack == "" || p.version == "" {
		return ""
	}
	return validate.PackSchemaID(p.pack, p.version, ref)
}

// own records which answer field a generated file comes from.
func (p *Plan) own(path, field string) {
	if p.owners == nil {
		p.owners = map[string]string{}
	}
	p.owners[path] = field
}

// File is one file of a plan.
type File struct {
	Path string      // slash-separated, relative to the target directory
	Data []byte      // the complete new content
	Mode fs.FileMode // 0644, or 0755 for executables
	// Update marks a file that exists and is changed on purpose (pack.json
	// when an agent is added); it is replaced without --force.
	Update bool
	// Base is, for an Update, the content the new one was computed from:
	// Write refuses (file_changed_since_read) when the file no longer holds
	// it, and writes through a symbolic link and keeps the file's mode.
	Base []byte
}

// Paths returns the plan's file paths, in order.
func (p *Plan) Paths() []string {
	out := make([]string, len(p.Files))
	for i, f := range p.Files {
		out[i] = f.Path
	}
	return out
}

// File returns the planned file at path, or nil.
func (p *Plan) File(path string) *File {
	for i := range p.Files {
		if p.Files[i].Path == path {
			return &p.Files[i]
		}
	}
	return nil
}

// FS returns the planned files as a file system over base (base may be
// nil): validation sees the pack as it will be, before anything is written.
func (p *Plan) FS(base fs.FS) fs.FS {
	m := fstest.MapFS{}
	for _, f := range p.Files {
		m[f.Path] = &fstest.MapFile{Data: f.Data, Mode: f.Mode}
	}
	if base == nil {
		return m
	}
	return overlayFS{top: m, base: base}
}

// overlayFS shows planned files over an existing pack's files.
type overlayFS struct {
	top  fstest.MapFS
	base fs.FS
}

// Open opens a planned file, else the existing one.
func (o overlayFS) Open(name string) (fs.File, error) {
	if _, ok := o.top[name]; ok {
		return o.top.Open(name)
	}
	if f, err := o.base.Open(name); err == nil {
		return f, nil
	}
	return o.top.Open(name)
}

// Stat describes a planned file (or a folder the plan makes), else the
// existing one.
func (o overlayFS) Stat(name string) (fs.FileInfo, error) {
	if fi, err := fs.Stat(o.top, name); err == nil {
		return fi, nil
	}
	return fs.Stat(o.base, name)
}

// Lstat is Stat without following an existing link (a planned file is
// never one): a reader sees a link in the folder as the link it is.
func (o overlayFS) Lstat(name string) (fs.FileInfo, error) {
	if fi, err := fs.Stat(o.top, name); err == nil {
		return fi, nil
	}
	return fs.Lstat(o.base, name)
}

// ReadLink reads an existing link (a planned file is not one).
func (o overlayFS) ReadLink(name string) (string, error) {
	if _, err := fs.Stat(o.top, name); err == nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return fs.ReadLink(o.base, name)
}

// ReadDir merges the planned and the existing entries of a directory.
func (o overlayFS) ReadDir(name string) ([]fs.DirEntry, error) {
	a, errA := fs.ReadDir(o.base, name)
	b, errB := fs.ReadDir(o.top, name)
	if errA != nil && errB != nil {
		return nil, errA
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, e := range append(b, a...) {
		if !seen[e.Name()] {
			seen[e.Name()] = true
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (p *Plan) add(path string, data []byte) {
	p.Files = append(p.Files, File{Path: path, Data: data, Mode: 0o644})
}

func (p *Plan) addJSON(path string, v any) error {
	b, err := jsonedit.Render(v, jsonedit.DefaultStyle, "")
	if err != nil {
		return werr.Wrap(werr.Env, "scaffold_render", err, "cannot render %s", path)
	}
	p.add(path, append(b, '\n'))
	return nil
}

// Write writes the plan into dir, all or nothing: every file goes to a
// temporary name in its own directory first, and only when all are written
// are they renamed into place. Existing files are refused, all listed,
// unless force is set (files marked Update are always replaced).
func (p *Plan) Write(dir string, force bool) error {
	if dir == "" {
		dir = "."
	}
	if err := p.checkPaths(); err != nil {
		return err
	}
	var exists []string
	for _, f := range p.Files {
		if f.Update {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f.Path))); err == nil {
			exists = append(exists, f.Path)
		}
	}
	if len(exists) > 0 && !force {
		return werr.New(werr.Invalid, "scaffold_exists", "%s already holds %s", dir, strings.Join(exists, ", ")).
			WithHint("choose another --dir, or pass --force to overwrite them")
	}
	created, err := p.mkdirs(dir)
	if err != nil {
		return err
	}
	batch := atomicfile.Batch{Place: dir} // nothing is written through a link that leaves it
	// New files first, pack.json last: atomicfile renames replacements after
	// new files, in the order added, so pack.json never names a missing file.
	files := make([]File, 0, len(p.Files))
	for _, last := range []bool{false, true} {
		for _, f := range p.Files {
			if (f.Path == "pack.json") == last {
				files = append(files, f)
			}
		}
	}
	for _, f := range files {
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		final := filepath.Join(dir, filepath.FromSlash(f.Path))
		add := func() error { return batch.Add(final, f.Data, mode) }
		if f.Update && f.Base != nil {
			add = func() error { return batch.Replace(final, f.Data, f.Base, mode) }
		}
		if err := add(); err != nil {
			batch.Abort()
			removeEmpty(created)
			return err
		}
	}
	if err := batch.Commit(); err != nil {
		removeEmpty(created)
		return err
	}
	return nil
}

// checkPaths refuses plans with unsafe or duplicate paths.
func (p *Plan) checkPaths() error {
	seen := map[string]bool{}
	for _, f := range p.Files {
		if clean, err := packref.Path(f.Path); !fs.ValidPath(f.Path) || f.Path == "." || err != nil || clean != f.Path {
			return werr.New(werr.Invalid, "scaffold_path_unsafe", "planned file %q is not a path inside the target directory", f.Path).
				WithHint("use a relative path without ..")
		}
		if seen[f.Path] {
			return werr.New(werr.Invalid, "scaffold_path_duplicate", "two planned files are both named %s", f.Path).
				WithHint("give the node or agent another id")
		}
		seen[f.Path] = true
	}
	return nil
}

// mkdirs creates the directories the plan needs, returning those it made:
// the target folder and the missing folders above it (the folder the user
// named), then the plan's folders inside it, through the target folder's
// place (a folder of the plan that is a link leading out of it is never
// written through: the batch refuses it).
func (p *Plan) mkdirs(dir string) ([]string, error) {
	var created []string
	var chain []string
	for c := dir; ; c = filepath.Dir(c) {
		if _, err := os.Stat(c); err == nil || c == filepath.Dir(c) {
			break
		}
		chain = append([]string{c}, chain...)
	}
	for _, c := range chain {
		if err := atomicfile.Mkdir(c, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return created, werr.Wrap(werr.Env, "write_failed", err, "cannot create directory %s", c)
		}
		created = append(created, c)
	}
	place, err := atomicfile.OpenPlace(dir)
	if err != nil {
		return created, err
	}
	defer place.Close()
	need := map[string]bool{}
	for _, f := range p.Files {
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			need[d] = true
		}
	}
	dirs := make([]string, 0, len(need))
	for d := range need {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs) // a parent before what it holds
	for _, d := range dirs {
		c := place.In(d)
		err := place.Mkdir(c, 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return created, err
		}
		created = append(created, c)
	}
	return created, nil
}

// removeEmpty removes the directories a failed write created, deepest first;
// a directory that is not empty stays.
func removeEmpty(dirs []string) {
	for i := len(dirs) - 1; i >= 0; i-- {
		atomicfile.Remove(dirs[i])
	}
}
