package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
)

// Where the files go, as the review lists them: the folder and its files,
// the key, the tarball and the files beside it. A file already in one of
// those places is a problem on the review, with its fix.

// releaseFiles are the tarball and the files packing writes beside it
// (none when the pack is only written).
func releaseFiles(a *answers, opts NewOptions) []string {
	if !a.isPack() || a.SignMethod == "skip" {
		return nil
	}
	return scaffold.ReleaseFiles(a.name(), a.Pack.Version, opts.Output, detachedExt(a.SignMethod))
}

// detachedExt is the suffix of the signature a signing method writes
// beside the tarball ("" for none).
func detachedExt(method string) string {
	switch method {
	case sign.MethodManual, sign.MethodV2:
		return sign.DetachedSigExt
	case sign.MethodSigstore, signKeyless:
		return sigstore.DetachedExt
	}
	return ""
}

// releaseProblems: a tarball or a file beside it already there would be
// replaced by packing (a release signed before, with another key maybe).
func releaseProblems(a *answers, opts NewOptions) []scaffold.FieldError {
	var there []string
	for _, f := range releaseFiles(a, opts) {
		if _, err := os.Lstat(f); err == nil {
			there = append(there, f)
		}
	}
	if len(there) == 0 {
		return nil
	}
	fe := scaffold.FieldError{Field: "version", File: "pack.json",
		Message: fmt.Sprintf("%s already %s: packing would replace a release made before", andList(there), agree(len(there), "exists", "exist")),
		Hint:    "choose another version (or name): the tarball is named after them; or move the existing files away"}
	if opts.Output != "" {
		fe.Hint = "move the existing files away, or start again with another --output"
	}
	return []scaffold.FieldError{fe}
}

// checkoutProblem: a new private key would be written into a git work
// tree that does not ignore it.
func checkoutProblem(a *answers, prefix string) *scaffold.FieldError {
	root := scaffold.KeyCheckout(prefix)
	if root == "" {
		return nil
	}
	fe := scaffold.FieldError{Field: "keyPath", File: docSign,
		Message: prefix + ".key would be written into the git checkout " + root + ", which does not ignore it"}
	fe.Hint = "add it to the checkout's .gitignore, or keep the key outside the checkout"
	if d := a.KeyAuto.Default; d.Checkout != "" && d.New != prefix {
		fe.Hint = "leave the key file empty for " + d.New + " (outside the checkout), or add " + filepath.Base(prefix) + ".key to .gitignore"
	}
	return &fe
}

// where lists where the files of a plan go, for the review.
func where(a *answers, opts NewOptions, plan *scaffold.Plan) []string {
	if plan == nil {
		return nil
	}
	dir := filepath.ToSlash(targetDir(a, opts))
	out := []string{fmt.Sprintf("%s will be written in %s: %s", plural(len(plan.Files), "file", "files"), dir, strings.Join(plan.Paths(), ", "))}
	if !a.isPack() || a.SignMethod == "skip" {
		return out
	}
	switch {
	case a.SignMethod == signKeyless:
		out = append(out, "signed keyless with Sigstore (no key file)")
	case needsKey(a.SignMethod) && a.KeyChoice == "new":
		prefix := strings.TrimSuffix(strings.TrimSpace(a.KeyPath), ".key")
		line := "a new key pair: " + prefix + ".key (keep it secret) and " + prefix + ".pub"
		if d := a.KeyAuto.Default; d.Checkout != "" && prefix == d.New {
			line += ", kept in your config folder, not in the git checkout " + d.Checkout
		}
		out = append(out, line)
	case needsKey(a.SignMethod):
		out = append(out, "signed with the existing key "+strings.TrimSpace(a.KeyPath)+" (key id "+a.KeyID+")")
	}
	files := releaseFiles(a, opts)
	base := strings.TrimSuffix(files[0], ".tgz")
	var beside []string
	for _, f := range files[1:] {
		beside = append(beside, strings.TrimPrefix(f, base))
	}
	return append(out, "packed to "+files[0]+", with its "+andList(beside)+" beside it")
}

// keyNote is the summary's word on where a new key pair went.
func keyNote(a *answers, prefix string) string {
	if d := a.KeyAuto.Default; d.Checkout != "" && prefix == d.New {
		return " (kept in your config folder, not in the git checkout " + d.Checkout + ")"
	}
	return ""
}

// andList joins words as a sentence does: "a", "a and b", "a, b and c".
func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
