// Package toward says how a wizard run's summary ends (issue 44, item 7):
// the commands that lead from what it made (the files, a release, a new
// key pair) to the registry's pull request, each as it would run.
package toward

import (
	"strings"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
)

// Pack is what the commands need of the wizard's answers.
type Pack struct {
	Name, Version string
	Spec          string // the pack's spec (v1 or v2): how it is signed
	KeyPrefix     string // the new key pair suggested (PREFIX.key), for the files alone
	Registry      string // the registry checkout named (WOPKIT_REGISTRY); "" clones one
}

// RegistryClone is where the summary's commands clone the registry when
// no checkout was named (WOPKIT_REGISTRY).
const (
	RegistryClone = "../openwop-registry"
	RegistryURL   = "https://github.com/openwop/openwop-registry"
)

// Commands are how a finished run's summary ends (issue 44, item 7): the
// commands that lead from what it made to the registry's pull request,
// each as it would run: a key for a pack not signed yet, the pack signed,
// the public key of a new pair added to the registry's keychain, the
// release published into the checkout. Nothing for a tool manifest or a
// standalone document, which are not published alone (the wizard asks
// Commands for packs only).
func Commands(p Pack, res create.Result) []string {
	if res.DryRun {
		return nil
	}
	var cmds []string
	reg := p.Registry
	if reg == "" {
		reg = RegistryClone
		cmds = append(cmds, "git clone "+RegistryURL+" "+reg)
	}
	c := create.Command
	name := p.Name
	ns := namespaceOf(name)
	tgz, pub, keyID := res.Tarball, res.PublicKey, res.KeyID
	switch {
	case res.Tarball == "": // only the files: a key, then the signed release
		method := scaffold.KeySignMethod(p.Spec)
		prefix := p.KeyPrefix
		if prefix == "" { // no key suggested yet: one named after the organisation
			prefix = strings.TrimSuffix(strings.TrimSuffix(ns, ".*"), ".")
			prefix = prefix[strings.LastIndex(prefix, ".")+1:]
		}
		keyID = scaffold.KeyID(prefix)
		pub = prefix + ".pub"
		tgz = name + "-" + p.Version + ".tgz"
		cmds = append(cmds, c+" keygen --out "+shellWord(prefix),
			c+" pack "+shellWord(res.Dir)+" --sign "+method+" --key "+shellWord(prefix+".key")+" --key-id "+keyID+" --output "+shellWord(tgz))
		cmds = append(cmds, keychainAdd(c, reg, keyID, pub, ns))
	case res.Signature == "": // packed, not signed: sign it first (the summary's next step says how)
		return nil
	case res.NewKey != "" && (res.Method == sign.MethodV2 || res.Method == sign.MethodManual):
		cmds = append(cmds, keychainAdd(c, reg, keyID, pub, ns))
	}
	return append(cmds, c+" publish "+shellWord(tgz)+" --registry "+shellWord(reg))
}

// keychainAdd is the command that adds a new publisher key to the
// registry checkout reg, for the namespace ns.
func keychainAdd(c, reg, keyID, pub, ns string) string {
	return c + " keychain add --registry " + shellWord(reg) + " --key-id " + keyID + " --public-key " + shellWord(pub) + " --namespace " + shellWord(ns)
}

// namespaceOf is the namespace a pack's key signs: its scope and
// organisation, then * (community.acme.* for community.acme.hello).
func namespaceOf(name string) string {
	parts := strings.SplitN(name, ".", 3)
	if len(parts) < 3 {
		return name
	}
	return parts[0] + "." + parts[1] + ".*"
}

// shellWord is s quoted for a POSIX shell when it needs it.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Head heads the commands toward the pull request in a summary.
const Head = "toward the pull request:"

// Summary is a run's summary with the commands toward the pull
// request at its end.
func Summary(sum, cmds []string) []string {
	if len(cmds) == 0 {
		return sum
	}
	sum = append(sum, "", Head)
	for _, c := range cmds {
		sum = append(sum, "  "+c)
	}
	return sum
}
