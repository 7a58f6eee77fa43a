package wizard

import (
	"strings"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/sign"
)

// registryClone is where the summary's commands clone the registry when
// no checkout was named (WOPKIT_REGISTRY).
const (
	registryClone = "../openwop-registry"
	registryURL   = "https://github.com/openwop/openwop-registry"
)

// towardPR is how a finished run's summary ends (issue 44, item 7): the
// commands that lead from what it made to the registry's pull request,
// each as it would run: a key for a pack not signed yet, the pack signed,
// the public key of a new pair added to the registry's keychain, the
// release published into the checkout. Nothing for a tool manifest or a
// standalone document, which are not published alone.
func towardPR(a *answers, opts session, res create.Result) []string {
	if !a.isPack() || res.DryRun {
		return nil
	}
	var cmds []string
	reg := opts.Registry
	if reg == "" {
		reg = registryClone
		cmds = append(cmds, "git clone "+registryURL+" "+reg)
	}
	c := create.Command
	name := a.name()
	ns := namespaceOf(name)
	tgz, pub, keyID := res.Tarball, res.PublicKey, res.KeyID
	switch {
	case res.Tarball == "": // only the files: a key, then the signed release
		method := scaffold.KeySignMethod(a.Pack.Spec)
		prefix := strings.TrimSuffix(strings.TrimSpace(a.keyPathFor("new")), ".key")
		if prefix == "" { // no key suggested yet: one named after the organisation
			prefix = strings.TrimSuffix(strings.TrimSuffix(ns, ".*"), ".")
			prefix = prefix[strings.LastIndex(prefix, ".")+1:]
		}
		keyID = scaffold.KeyID(prefix)
		pub = prefix + ".pub"
		tgz = name + "-" + a.Pack.Version + ".tgz"
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

// towardHead heads the commands toward the pull request in a summary.
const towardHead = "toward the pull request:"

// summaryWith is a run's summary with the commands toward the pull
// request at its end.
func summaryWith(sum, cmds []string) []string {
	if len(cmds) == 0 {
		return sum
	}
	sum = append(sum, "", towardHead)
	for _, c := range cmds {
		sum = append(sum, "  "+c)
	}
	return sum
}
