package main

import (
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/sign/sigstore"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/verify"
	"github.com/openwop/wopkit/internal/words"
)

// newInspectCmd builds `wopkit inspect TGZ`: entries, sizes, the manifest
// summary, the signing block and the integrity, without verifying anything.
func newInspectCmd() *cobra.Command {
	var out OutputOptions
	var size SizeOptions
	cmd := &cobra.Command{
		Use:   "inspect TGZ",
		Short: "Show a tarball's entries, sizes, manifest summary, signing block and integrity",
		Long: "inspect reads the tarball through the safe reader (hostile archives are refused) and describes\n" +
			"it. It trusts nothing and verifies nothing: use `wopkit verify` for that.",
		Example: "  wopkit inspect core.openwop.a2a-1.1.0.tgz\n  wopkit inspect hello-1.0.0.tgz --json | jq .signing",
		Args:    usageArgs(cobra.ExactArgs(1)),
		PreRunE: func(*cobra.Command, []string) error { return size.Validate() },
		RunE: func(cmd *cobra.Command, args []string) error {
			info, err := verify.Inspect(args[0], size.Limits())
			if err != nil {
				return inert(err)
			}
			return printInspect(cmd.OutOrStdout(), describeSigner(info), out.JSON)
		},
	}
	out.AddFlags(cmd)
	size.AddFlags(cmd)
	return cmd
}

// inspectInfo is the `inspect --json` object: the tarball description plus,
// for a Sigstore-signed pack, who its bundle names as signer (unverified).
type inspectInfo struct {
	*verify.Info
	Signer      *sign.SignerIdentity `json:"signer,omitempty"`
	SignerError string               `json:"signerError,omitempty"`
}

// describeSigner adds to info, for a pack whose signing method is sigstore,
// who its bundle names as signer (read, not verified). The bundle is the
// one Inspect held; the signing block is read as the registry reads it.
func describeSigner(info *verify.Info) *inspectInfo {
	out := &inspectInfo{Info: info}
	var blk struct {
		Method string `json:"method"`
	}
	if untrusted.DecodeJSON(info.Signing, &blk) != nil || blk.Method != sign.MethodSigstore {
		return out
	}
	if info.Bundle == nil {
		out.SignerError = "the tarball has no " + sign.SigstoreFile
		return out
	}
	var err error
	if out.Signer, err = sigstore.Summarize(info.Bundle); err != nil {
		out.SignerError = err.Error()
	}
	return out
}

func printInspect(w io.Writer, d *inspectInfo, asJSON bool) error {
	if asJSON {
		return writeJSON(w, d)
	}
	info := d.Info
	m := info.Manifest
	safeLine(w, "%s: %d bytes, integrity %s", info.Path, info.Size, info.Integrity)
	safeLine(w, "pack:      %s %s (%s)", m.Name, m.Version, packGist(m))
	if m.Description != "" {
		safeLine(w, "           %s", m.Description)
	}
	from, ok := specFrom[m.SpecFrom]
	if marks, isMarks := strings.CutPrefix(m.SpecFrom, kinds.MarksReason); isMarks {
		from, ok = "told by its v2 marks ("+marks+"): its engines.openwop range names no ceiling", true
	}
	if !ok {
		from = m.SpecFrom
	}
	safeLine(w, "spec:      %s, %s", m.Spec, from)
	signing := "none in pack.json (unsigned, or a legacy ed25519 pack signed over the whole .tgz by its detached .sig)"
	if len(info.Signing) > 0 {
		signing = string(info.Signing)
	}
	safeLine(w, "signing:   %s", signing)
	if s := info.Signature; s != nil {
		safeLine(w, "signature: %s", signatureGist(s))
	}
	if s := d.Signer; s != nil {
		who := "key " + s.KeyHint + " (keyed bundle)"
		if s.Identity != "" {
			who = s.Identity + " (issuer " + s.Issuer + ")"
		}
		logged := "no transparency-log entry"
		if s.LogIndex >= 0 {
			logged = fmt.Sprintf("transparency-log index %d", s.LogIndex)
		}
		safeLine(w, "signer:    %s, %s (as the bundle says: not verified)", who, logged)
	} else if d.SignerError != "" {
		safeLine(w, "signer:    unreadable Sigstore bundle: %s", d.SignerError)
	}
	canon := "no: pack.json is not in canonical (JCS) form"
	if info.Canonical {
		canon = "yes: pack.json is its own canonical (JCS) form"
	}
	safeLine(w, "canonical: %s", canon)
	for i, a := range m.AgentList {
		label := "agents:   "
		if i > 0 {
			label = "          "
		}
		eval := "no eval suite"
		switch {
		case a.EvalSuite != "" && a.EvalPresent:
			eval = "eval suite " + a.EvalSuite
		case a.EvalSuite != "":
			eval = "eval suite " + a.EvalSuite + ", MISSING from the tarball"
		}
		safeLine(w, "%s %s (%s)", label, a.AgentID, eval)
	}
	for i, t := range m.ToolManifests {
		label := "tools:    "
		if i > 0 {
			label = "          "
		}
		safeLine(w, "%s %s (tool install manifest)", label, t)
	}
	safeLine(w, "entries:   %d files, %d bytes unpacked", len(info.Entries), info.Unpacked)
	for _, e := range info.Entries {
		safeLine(w, "  %s %10d  %s", fs.FileMode(e.Mode).Perm(), e.Size, e.Name)
	}
	return nil
}

// packGist says what a pack is: its spec version, its kind (a v1 pack
// without one is a node pack; a v2 pack must state it), what it holds with
// counts in words, and its runtime when it has one.
func packGist(m *verify.Summary) string {
	kind := m.Kind + " pack"
	switch {
	case m.Kind == "" && m.Spec == "v2":
		kind = "pack without the kind v2 requires"
	case m.Kind == "":
		kind = "node pack"
	}
	agentOnly := (m.Kind == "" || m.Kind == kinds.NodeName) && m.Nodes == 0 && m.Agents > 0
	if agentOnly { // an agent-only pack is not called a node pack (issue 11)
		kind = "agent-only pack"
		if m.Kind == kinds.NodeName {
			kind += " (kind node)"
		}
	}
	g := m.Spec + " " + kind
	var parts []string
	for _, c := range m.Contents {
		parts = append(parts, words.Plural(c.N, contentNoun(c.Of)))
	}
	if p := m.Provider; p != nil {
		parts = append(parts, providerGist(p))
	}
	if len(parts) == 0 {
		g += ", empty"
	} else {
		g += ": " + strings.Join(parts, ", ")
	}
	if m.Runtime != "" {
		g += "; runtime " + m.Runtime
		if m.Entry != "" {
			g += " " + m.Entry
		}
	}
	return g
}

// providerGist says what a connection pack's provider is, how it is
// reached and how it authenticates.
func providerGist(p *verify.Provider) string {
	g := "provider " + p.ID
	if p.DisplayName != "" {
		g += " (" + p.DisplayName + ")"
	}
	switch p.Reach {
	case "mcp":
		g += ", reached as an MCP server at " + p.Target
	case "openapi":
		g += ", reached through the OpenAPI document " + p.Target
	case "integration":
		g += ", reached through the integration node " + p.Target
	default:
		g += ", no reach declared"
	}
	if p.Auth != "" {
		g += ", auth " + p.Auth
		if p.AuthFlow != "" {
			g += " (" + p.AuthFlow + ")"
		}
	}
	return g
}

// signatureGist says where the signing block puts the signature and
// whether the tarball holds it (read, not verified).
func signatureGist(s *verify.Signature) string {
	switch {
	case s.Detached:
		return "none in the tarball: the legacy ed25519 method signs the whole .tgz, in the detached .sig beside it"
	case s.Problem != "":
		return "unknown: " + s.Problem
	case s.Present:
		return s.File + ", in the tarball (not verified: `wopkit verify` checks it)"
	}
	return "MISSING: the signing block expects " + s.File + ", which the tarball does not hold" +
		" (signed but never attached: `wopkit verify` takes a detached .sig beside the tarball or given with --sig)"
}

// contentNoun is the singular noun of a pack.json content array.
func contentNoun(member string) string {
	if c, ok := kinds.ContentOf(member); ok {
		return c.Noun
	}
	return strings.TrimSuffix(member, "s")
}

// specFrom says in words what told a document's spec version
// (kinds.DetectSpec's reasons).
var specFrom = map[string]string{
	"$schema":    "named by its $schema",
	"signing":    "told by the shape of its signing block",
	"tarballUrl": "told by its tarballUrl",
	"engines":    "told by its engines.openwop range, which admits major 2",
	"default":    "the version of documents that do not say",
}
