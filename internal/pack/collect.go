package pack

import (
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/atomicfile"
	"github.com/openwop/wopkit/internal/packref"
	"github.com/openwop/wopkit/internal/safefile"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// File is one file that goes into the tarball.
type File struct {
	Path string `json:"path"` // slash-separated, relative to the pack root
	Size int64  `json:"size"`
}

// packDirs are the directories packed whole (docs/FORMATS.md §3).
var packDirs = []string{"schemas", "prompts", "evals", "keys"}

// collected is what goes into a pack: from a directory (collect) or from
// an existing tarball (SignTarball).
type collected struct {
	files   map[string]int64 // rel path -> size
	missing []string         // referenced files that do not exist
	ignored []string         // referenced files .openwopignore excludes
	open    func(rel string) (io.ReadCloser, error)
}

// collector gathers the files of a pack directory. A packing run stops at
// the first refusal; a dry run (Check) lists every refusal and goes on.
type collector struct {
	src      source
	dir      string
	ig       *Ignorer
	c        *collected
	dry      bool
	refusals []Refusal
	// lenient: pack --no-validate, which packs a .json file that does not
	// parse (validation's concern; publish still refuses it)
	lenient bool
}

// refuse records that the file rel (pack-relative, "" for the pack as a
// whole) cannot be packed. It returns err when packing, which stops the
// collection, and nil in a dry run, which goes on.
func (k *collector) refuse(rel string, err error) error {
	if !k.dry {
		return err
	}
	var we *werr.Error
	if !errors.As(err, &we) {
		we = werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read %s in %s", rel, k.dir)
	}
	k.refusals = append(k.refusals, Refusal{File: rel, Err: we})
	return nil
}

// collect lists the files of the pack at root: pack.json, README*/LICENSE*,
// a Sigstore bundle (pack.json.sigstore),
// the runtime entry, every file the manifest references, the tool manifests
// of tools its agents name (packref.ToolFiles) that it ships, and the packDirs,
// minus what .openwopignore excludes. It refuses forbidden files, names the
// tarball reader refuses (checkName) and files holding private keys or
// credentials, naming them.
func collect(src source, dir string, m *Manifest, lenient bool) (*collected, error) {
	k := &collector{src: src, dir: dir, lenient: lenient}
	if err := k.run(m); err != nil {
		return nil, err
	}
	return k.c, nil
}

// run collects the pack's files into k.c (see collect).
func (k *collector) run(m *Manifest) error {
	src, dir := k.src, k.dir
	k.c = &collected{files: map[string]int64{}, open: src.open}
	c := k.c
	if data, err := src.readFile(IgnoreFile, 1<<20); err == nil {
		k.ig = ParseIgnore(data)
	} else if werr.CodeOf(err) == untrusted.CodeNotRegular {
		err := werr.New(werr.Invalid, "pack_unsafe_entry", "%s in %s is %s, not a regular file", IgnoreFile, dir, describeMode(src, IgnoreFile)).
			WithHint("make %s a regular file (or remove it)", IgnoreFile)
		if err := k.refuse(IgnoreFile, err); err != nil {
			return err
		}
	}
	ig := k.ig
	add := func(rel string, explicit bool) error {
		if _, ok := c.files[rel]; ok {
			return nil
		}
		if rel != ManifestFile && ig.Ignored(rel) {
			if explicit && !slices.Contains(c.ignored, rel) {
				c.ignored = append(c.ignored, rel)
			}
			return nil
		}
		if !explicit && atomicfile.IsTemp(path.Base(rel)) {
			return nil // a write's temporary file, left by a killed process
		}
		if why := forbiddenReason(rel); why != "" {
			return k.refuse(rel, werr.New(werr.Invalid, "pack_file_forbidden", "%s in %s is %s and is never packed", rel, dir, why).
				WithHint("remove it from the pack directory or list it in %s", IgnoreFile))
		}
		if err := checkName(rel, dir); err != nil {
			return k.refuse(rel, err)
		}
		st, err := src.stat(rel)
		if errors.Is(err, fs.ErrNotExist) && explicit {
			if rel != ManifestFile {
				c.missing = append(c.missing, rel)
				return nil
			}
			return werr.New(werr.Invalid, "pack_manifest_missing", "%s has no pack.json", dir).
				WithHint("run wopkit in a pack directory, or create one with `wopkit new pack`")
		}
		if err != nil {
			if lst, lerr := src.lstat(rel); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
				return k.refuse(rel, werr.Wrap(werr.Invalid, "pack_unsafe_entry", err, "%s in %s is a symbolic link that leads outside the pack or nowhere", rel, dir).
					WithHint("copy the file into the pack instead of linking to it"))
			}
			return k.refuse(rel, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read %s in %s", rel, dir))
		}
		if !st.Mode().IsRegular() {
			if st.IsDir() && !explicit {
				return nil
			}
			return k.refuse(rel, werr.New(werr.Invalid, "pack_unsafe_entry", "%s in %s is %s, not a regular file", rel, dir, safefile.Describe(st.Mode())).
				WithHint("packs hold regular files only"))
		}
		if len(rel) > 100 {
			return k.refuse(rel, werr.New(werr.Invalid, "tarball_name_too_long", "%s in %s: the path is %d bytes, the limit is 100", rel, dir, len(rel)).
				WithHint("shorten the path: registry tarballs have no long-name headers"))
		}
		c.files[rel] = st.Size()
		return nil
	}

	if err := add(ManifestFile, true); err != nil {
		return err
	}
	top, err := fs.ReadDir(src.fsys(), ".")
	if err != nil {
		return werr.Wrap(werr.Env, "pack_unreadable", err, "cannot list %s", dir)
	}
	for _, e := range top {
		up := strings.ToUpper(e.Name())
		if !e.IsDir() && (strings.HasPrefix(up, "README") || strings.HasPrefix(up, "LICENSE") || strings.HasPrefix(up, "LICENCE") ||
			e.Name() == sign.SigstoreFile) {
			if err := add(e.Name(), false); err != nil {
				return err
			}
		}
	}
	entry, refs, errs := references(m.Doc)
	if len(errs) > 0 {
		for _, e := range errs {
			if err := k.refuse(ManifestFile, e); err != nil {
				return err
			}
		}
	}
	if entry != "" {
		if err := add(entry, true); err != nil {
			return err
		}
	}
	for _, ref := range refs {
		// A bare name that is not a file may be an id, not a path.
		st, err := src.stat(ref)
		if !strings.Contains(ref, "/") && (err != nil || !st.Mode().IsRegular()) {
			continue
		}
		if err := add(ref, true); err != nil {
			return err
		}
	}
	for _, p := range packref.ToolFiles(m.Doc) { // the tools the agents name, when the pack ships them
		if st, err := src.stat(p); err == nil && st.Mode().IsRegular() {
			if err := add(p, false); err != nil {
				return err
			}
		}
	}
	for _, d := range packDirs {
		err := fs.WalkDir(src.fsys(), d, func(p string, e fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == d {
				return fs.SkipDir
			}
			if err != nil {
				if lst, lerr := src.lstat(p); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
					// Refused input (exit 1), as for a linked file.
					return k.refuse(p, werr.Wrap(werr.Invalid, "pack_unsafe_entry", err, "%s in %s is a symbolic link that leads outside the pack or nowhere", p, dir).
						WithHint("copy the directory into the pack instead of linking to it"))
				}
				return k.refuse(p, werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read %s in %s", p, dir))
			}
			if e.IsDir() {
				if why := forbiddenReason(p); why != "" && !ig.Ignored(p+"/x") {
					err := werr.New(werr.Invalid, "pack_file_forbidden", "%s in %s is %s and is never packed", p, dir, why).
						WithHint("remove it from the pack directory or list it in %s", IgnoreFile)
					if err := k.refuse(p, err); err != nil {
						return err
					}
					return fs.SkipDir // a dry run names the directory, not every file in it
				}
				return nil
			}
			return add(p, false)
		})
		if err != nil {
			return err
		}
	}
	names := make([]string, 0, len(c.files))
	for rel := range c.files {
		names = append(names, rel)
	}
	slices.Sort(names) // the first refusal is the same every run
	budget := newScanBudget()
	for _, rel := range names {
		err := checkSecrets(src, dir, rel, budget)
		if err == nil && !k.lenient {
			err = checkJSON(src, dir, rel)
		}
		if err != nil {
			if err := k.refuse(rel, err); err != nil {
				return err
			}
			delete(c.files, rel)
		}
	}
	return nil
}

// checkJSON refuses a .json file JSON.parse refuses: the registry parses
// every JSON file of a pack, referenced or not (pack_json_invalid).
func checkJSON(src source, dir, rel string) error {
	if !strings.HasSuffix(strings.ToLower(rel), ".json") {
		return nil
	}
	data, err := src.readFile(rel, untrusted.MaxPackFile)
	if err != nil {
		return nil // too large or unreadable: the size limits and the tarball say so
	}
	if err := untrusted.ParseError(data); err != nil {
		return JSONRefusal(dir+"/"+rel, err)
	}
	return nil
}

// JSONRefusal is the refusal of a pack file named where that JSON.parse
// refuses (see untrusted.ParseError).
func JSONRefusal(where string, err error) *werr.Error {
	return werr.Wrap(werr.Invalid, "pack_json_invalid", err, "%s is not JSON, and the registry refuses a pack with a .json file that does not parse, referenced or not", where).
		WithHint("fix the file, or rename or remove it (or list it in %s)", IgnoreFile)
}

// checkName refuses a file name the tarball reader would refuse, with the
// reader's code and hint (tarball.CheckName): control characters, names
// that display as others, and names Windows reads as another file or a
// device ("pack.json.", "pack.json:x", "aux.json", tarball_windows_name),
// which extracted there could replace pack.json. Two names that are one
// file on a case-insensitive file system are refused when the tarball is
// written (tarball_name_collision).
func checkName(rel, dir string) error {
	err := tarball.CheckName(rel)
	var we *werr.Error
	if err == nil || !errors.As(err, &we) {
		return err
	}
	return werr.New(we.Class, we.Code, "%s in %s cannot be packed: %s", rel, dir, we.Msg).
		WithHint("rename the file, or list it in %s", IgnoreFile)
}

// references returns the runtime entry and the other local files a
// manifest names, as internal/packref defines them (the files validate
// checks). An https:// URL names no file; a reference that is not a clean
// path inside the pack is refused with validate's rule id, never dropped:
// errs lists every such reference. A runtime entry that is not a path (a
// remote runtime's URL) is no file.
func references(doc map[string]any) (entry string, refs []string, errs []error) {
	refuse := func(r packref.Ref, pe *packref.Error) error {
		return werr.New(werr.Invalid, "pack_ref_invalid", "pack.json %s %s [%s]", r.Pointer, pe.Error(), pe.Rule()).
			WithHint("`wopkit validate` reports it with the same rule id; fix the reference in pack.json")
	}
	for _, r := range packref.Refs(doc) {
		p, err := packref.Path(r.Value)
		var pe *packref.Error
		switch {
		case r.Role == packref.Entry && errors.As(err, &pe) && pe.Code != packref.CodeUnclean:
			// not a path: a URL or id the runtime resolves
		case errors.As(err, &pe):
			errs = append(errs, refuse(r, pe))
		case r.Role == packref.Entry:
			entry = p
		case p != "":
			refs = append(refs, p)
		}
	}
	if entry == "" { // a remote runtime's local entry (e.g. "pack.json") still ships
		if rt, ok := doc["runtime"].(map[string]any); ok {
			if e, ok := rt["entry"].(string); ok {
				if p, err := packref.Path(e); err == nil {
					entry = p
				}
			}
		}
	}
	slices.Sort(refs)
	return entry, slices.Compact(refs), errs
}

// checkSecrets refuses a file whose content holds a private key or a
// credential, and the file that uses up the pack's scan budget (once: the
// files after it are not scanned, the pack is refused).
func checkSecrets(src source, dir, rel string, budget *scanBudget) error {
	if budget.spent {
		return nil
	}
	f, err := src.open(rel)
	if err != nil {
		return werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read %s in %s", rel, dir)
	}
	defer f.Close()
	what, err := scanSecrets(io.Reader(f), rel, budget)
	if errors.Is(err, ErrScanBudget) {
		budget.spent = true
		return scanBudgetErr(rel, dir)
	}
	if err != nil {
		return werr.Wrap(werr.Env, "pack_unreadable", err, "cannot read %s in %s", rel, dir)
	}
	if what != "" {
		if strings.Contains(strings.ToLower(what), "private") {
			return werr.New(werr.Invalid, "pack_private_key", "%s in %s holds %s; a private key is never packed", rel, dir, what).
				WithHint("move the key out of the pack directory (keep only the .pub), or list it in %s", IgnoreFile)
		}
		return werr.New(werr.Invalid, "pack_secret", "%s in %s holds %s; a credential is never packed", rel, dir, what).
			WithHint("remove the credential (revoke it if it was ever shared) and read it from the environment at run time, or list the file in %s", IgnoreFile)
	}
	return nil
}

// scanBudgetErr refuses the file at rel that used up the pack's secret scan
// budget (fail closed: it was not scanned to its end).
func scanBudgetErr(rel, dir string) error {
	return werr.New(werr.Invalid, CodeScanBudget, "%s in %s costs the secret scan more than its work budget (ten times what the dearest real code costs); it is refused unscanned", rel, dir).
		WithHint("text rarely holds this many; if the file need not ship, list it in %s", IgnoreFile)
}

// CodeScanBudget is the code of a pack refused because a file of it costs
// the secret scan more than its budget.
const CodeScanBudget = "pack_scan_budget"
