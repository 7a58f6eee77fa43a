package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/bump"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/validate"
)

// The next steps the road from `wopkit new` to a merged pull request
// prints, each a command that runs as printed from the folder the author
// is in: new --yes → keygen → keychain add → pack --sign → publish → the
// pull request's branch, commit and checks.

// registryPath is the registry checkout the next steps name: the one
// WOPKIT_REGISTRY names, else ../openwop-registry (where the README clones
// it).
func registryPath() string {
	if r := os.Getenv(registryEnv); r != "" {
		return r
	}
	return "../openwop-registry"
}

// orgOf is the organisation of a pack name (acme in vendor.acme.hello),
// the namespace a key signs.
func orgOf(name string) string {
	parts := strings.Split(name, ".")
	if len(parts) < 3 {
		return ""
	}
	return parts[1]
}

// shellWord quotes s for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// newPackNext is the step after `new pack --yes`: the signing key, named
// after the pack's organisation (none when the name has none).
func newPackNext(plan *scaffold.Plan) string {
	for _, f := range plan.Files {
		if f.Path != "pack.json" {
			continue
		}
		var m struct {
			Name string `json:"name"`
		}
		if untrusted.DecodeJSON(f.Data, &m) != nil {
			return ""
		}
		if org := orgOf(m.Name); org != "" {
			return "make your signing key (skip it if you have one): wopkit keygen --out " + shellWord(org)
		}
	}
	return ""
}

// keygenNext is the step after keygen: the key's onboarding pull request.
func keygenNext(prefix string) string {
	base := filepath.Base(prefix)
	return "put the key in the registry's keychain (its onboarding pull request): wopkit keychain add --registry " +
		shellWord(registryPath()) + " --key-id " + shellWord(base+"-1") + " --public-key " + shellWord(prefix+".pub") +
		" --namespace " + shellWord("vendor."+base+".*")
}

// keychainNext is the step after keychain add: packing and signing with
// the key the pack in this folder or one below it whose name the key's
// namespaces grant (DIR when there is not exactly one), with the private
// key beside the public one keychain add was given.
func keychainNext(pubPath, keyID string, namespaces []string) string {
	key := strings.TrimSuffix(pubPath, ".pub") + ".key"
	if _, err := os.Stat(key); err != nil {
		key = "KEY"
	}
	dir := packFor(namespaces)
	if dir == "" {
		dir = "DIR"
	}
	return "pack and sign it with this key: wopkit pack " + shellWord(dir) + " --sign v2 --key " + shellWord(key) + " --key-id " + shellWord(keyID)
}

// packFor is the one pack folder (".", or a folder in it) whose pack's
// name one of namespaces grants, or "".
func packFor(namespaces []string) string {
	cands, _ := filepath.Glob(filepath.Join("*", "pack.json"))
	cands = append([]string{"pack.json"}, cands...)
	found := ""
	for _, pj := range cands {
		data, err := untrusted.ReadNamed(pj, validate.MaxFileSize)
		if err != nil {
			continue
		}
		var m struct {
			Name string `json:"name"`
		}
		if untrusted.DecodeJSON(data, &m) != nil {
			continue
		}
		for _, ns := range namespaces {
			if prefix, ok := strings.CutSuffix(ns, "*"); ok && strings.HasPrefix(m.Name, prefix) || ns == m.Name {
				if found != "" {
					return ""
				}
				found = filepath.Dir(pj)
				break
			}
		}
	}
	return found
}

// packNext is the step after a signed pack: publishing it.
func packNext(tgz string) string {
	return "publish it into your registry checkout: wopkit publish " + shellWord(tgz) + " --registry " + shellWord(registryPath())
}

// printPRSteps prints the commands of a pull request (publish.Plan's
// PRSteps): the branch and the commit, then the checks the pull request
// will run, named from the registry's workflows, to run before pushing.
func printPRSteps(w io.Writer, what string, steps []string) {
	safeLine(w, "next: %s (a branch and the commit; then push the branch and open the pull request):", what)
	var checks []string
	for _, s := range steps {
		if strings.HasPrefix(s, "git ") {
			safeLine(w, "  %s", s)
		} else {
			checks = append(checks, s)
		}
	}
	if len(checks) > 0 {
		safeLine(w, "the checks the pull request runs (the registry's .github/workflows), to run before you push:")
		for _, s := range checks {
			safeLine(w, "  %s", s)
		}
	}
}

// bumpNext are the steps after a bump: the new version packed and signed,
// then published. The key is the one the road made (keygen --out ORG, key
// id ORG-1) when ORG.key is in this folder or beside the pack's folder;
// KEY and ID otherwise.
func bumpNext(res *bump.Result, registry string) []string {
	spec := kinds.V2
	if data, err := untrusted.ReadNamed(filepath.Join(res.Path, "pack.json"), validate.MaxFileSize); err == nil {
		if d, err := jsondoc.Parse(data); err == nil {
			spec, _ = kinds.DetectSpec(d.Root)
		}
	}
	key, keyID := "KEY", "ID"
	if org := orgOf(res.Name); org != "" {
		cands := []string{org + ".key"}
		if abs, err := filepath.Abs(res.Path); err == nil {
			if wd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(wd, filepath.Join(filepath.Dir(abs), org+".key")); err == nil {
					cands = append(cands, rel)
				}
			}
		}
		for _, c := range cands {
			if _, err := os.Stat(c); err == nil {
				key, keyID = c, org+"-1"
				break
			}
		}
	}
	if registry == "" {
		registry = registryPath()
	}
	return []string{
		"pack and sign the new version: wopkit pack " + shellWord(res.Path) + " --sign " + scaffold.KeySignMethod(string(spec)) +
			" --key " + shellWord(key) + " --key-id " + shellWord(keyID),
		"then publish it: wopkit publish " + shellWord(res.Name+"-"+res.New+".tgz") + " --registry " + shellWord(registry),
	}
}
