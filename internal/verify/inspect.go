package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Info describes a tarball without trusting it (the `inspect --json` shape).
type Info struct {
	Path      string          `json:"path"`
	Size      int64           `json:"size"`
	Integrity string          `json:"integrity"`
	Entries   []Entry         `json:"entries"`
	Unpacked  int64           `json:"unpacked"`
	Manifest  *Summary        `json:"manifest"`
	Signing   json.RawMessage `json:"signing"`
	// Signature says where the signing block puts the signature and
	// whether the tarball holds it; absent without a signing block.
	Signature *Signature `json:"signature,omitempty"`
	Canonical bool       `json:"canonical"`
	// Bundle is the tarball's Sigstore bundle (pack.json.sigstore, up to
	// 1 MiB) when it has one, for describing its signer; nil otherwise.
	Bundle []byte `json:"-"`
}

// Entry is one file of the tarball.
type Entry struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	Mode int64  `json:"mode"`
}

// Summary is the gist of the tarball's pack.json.
type Summary struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Kind        string `json:"kind,omitempty"`
	Description string `json:"description,omitempty"`
	License     string `json:"license,omitempty"`
	Runtime     string `json:"runtime,omitempty"`
	Entry       string `json:"entry,omitempty"`
	Nodes       int    `json:"nodes"`
	Agents      int    `json:"agents"`
	// Spec is the spec version pack.json follows (v1, v2) and SpecFrom what
	// told it, as `wopkit validate` detects it.
	Spec     string `json:"spec"`
	SpecFrom string `json:"specFrom"`
	// Contents counts the kind's entries (nodes, agents, chains, prompts,
	// cards, templates, artifactTypes) present in pack.json.
	Contents []Count `json:"contents"`
	// Provider is a connection pack's provider (its content: it has no
	// array of entries).
	Provider *Provider `json:"provider,omitempty"`
	// AgentList is each agent with the eval suite it names, and whether the
	// tarball holds that file.
	AgentList []AgentSummary `json:"agentList,omitempty"`
	// ToolManifests are the tool install manifests the tarball holds
	// (tools/<id>.tool.json).
	ToolManifests []string `json:"toolManifests,omitempty"`
}

// AgentSummary is one agent of a pack and its eval suite.
type AgentSummary struct {
	AgentID   string `json:"agentId"`
	EvalSuite string `json:"evalSuite,omitempty"`
	// EvalPresent says the tarball holds EvalSuite.
	EvalPresent bool `json:"evalPresent,omitempty"`
}

// Count is the number of one kind of entry in pack.json.
type Count struct {
	Of string `json:"of"`
	N  int    `json:"n"`
}

// Inspect reads the tarball at path with the reader's safety limits and
// describes it. Nothing is verified: see File for that.
func Inspect(path string, lim *tarball.Limits) (*Info, error) {
	l := tarball.DefaultLimits
	if lim != nil {
		l = *lim
	}
	data, err := readTarball(path, l)
	if err != nil {
		return nil, err
	}
	if err := notATarball(path, data); err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	info := &Info{Path: path, Size: int64(len(data)), Integrity: "sha256-" + base64.StdEncoding.EncodeToString(sum[:]),
		Entries: []Entry{}}
	// Every entry passes the safe reader, but only pack.json and a Sigstore
	// bundle are held: the others are streamed past (a 400 MiB entry costs
	// no memory).
	keep := func(name string) bool { return name == tarball.ManifestName || name == sign.SigstoreFile }
	a, err := readArchive(bytes.NewReader(data), l, keep, func(h tarball.Header) {
		info.Entries = append(info.Entries, Entry{Name: h.Name, Size: h.Size, Mode: h.Mode})
		info.Unpacked += h.Size
	})
	if err != nil {
		return nil, err
	}
	pf := a.Get("pack.json")
	if pf == nil {
		return nil, werr.New(werr.Invalid, "tarball_manifest_missing", "%s has no pack.json", path)
	}
	var doc struct {
		Name        string          `json:"name"`
		Version     string          `json:"version"`
		Kind        string          `json:"kind"`
		Description string          `json:"description"`
		License     string          `json:"license"`
		Signing     json.RawMessage `json:"signing"`
		Provider    json.RawMessage `json:"provider"`
		Runtime     struct {
			Language string `json:"language"`
			Entry    string `json:"entry"`
		} `json:"runtime"`
	}
	if err := registry.DecodeTop(pf.Data, &doc); err != nil {
		return nil, manifestUnreadable(err, path)
	}
	// The entries: every array member the kind table names (a connection's
	// provider is one object, described below).
	var members map[string]json.RawMessage
	if err := registry.DecodeTop(pf.Data, &members); err != nil {
		return nil, manifestUnreadable(err, path)
	}
	n := map[string]int{}
	info.Manifest = &Summary{Name: doc.Name, Version: doc.Version, Kind: doc.Kind, Description: doc.Description,
		License: doc.License, Runtime: doc.Runtime.Language, Entry: doc.Runtime.Entry, Contents: []Count{}}
	for _, c := range kinds.Contents() {
		var items []json.RawMessage
		if c.Object {
			continue
		}
		if err := untrusted.DecodeJSON(memberFold(members, c.Member), &items); err != nil {
			return nil, manifestUnreadable(fmt.Errorf("%s: %w", c.Member, err), path)
		}
		if len(items) == 0 {
			continue
		}
		n[c.Member] = len(items)
		info.Manifest.Contents = append(info.Manifest.Contents, Count{Of: c.Member, N: len(items)})
	}
	info.Manifest.Nodes, info.Manifest.Agents = n["nodes"], n["agents"]
	info.Manifest.Spec, info.Manifest.SpecFrom = "v1", "default"
	if d, err := jsondoc.Parse(pf.Data); err == nil {
		sp, from := kinds.DetectSpec(d.Root)
		info.Manifest.Spec, info.Manifest.SpecFrom = string(sp), from
	}
	if p, _ := kinds.PackNamed(doc.Kind); p.HoldsProvider() {
		info.Manifest.Provider = providerOf(doc.Provider)
	}
	info.Signing = doc.Signing
	names := make(map[string]bool, len(info.Entries))
	for _, e := range info.Entries {
		names[e.Name] = true
	}
	info.Signature = signatureOf(doc.Signing, func(name string) bool { return names[name] })
	if f := a.Get(sign.SigstoreFile); f != nil {
		info.Bundle = f.Data
	}
	info.Canonical = jcs.IsCanonical(pf.Data)
	var agents []struct {
		AgentID      string `json:"agentId"`
		EvalSuiteRef string `json:"evalSuiteRef"`
	}
	if raw := memberFold(members, "agents"); raw != nil && untrusted.DecodeJSON(raw, &agents) == nil {
		for _, ag := range agents {
			ref := strings.TrimPrefix(ag.EvalSuiteRef, "./")
			info.Manifest.AgentList = append(info.Manifest.AgentList, AgentSummary{AgentID: ag.AgentID, EvalSuite: ref, EvalPresent: ref != "" && names[ref]})
		}
	}
	for _, e := range info.Entries {
		if strings.HasSuffix(e.Name, ".tool.json") {
			info.Manifest.ToolManifests = append(info.Manifest.ToolManifests, e.Name)
		}
	}
	return info, nil
}

// memberFold is the member of m named name in any letter case, as
// encoding/json matches a struct field (null when absent).
func memberFold(m map[string]json.RawMessage, name string) json.RawMessage {
	for k, v := range m {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return json.RawMessage("null")
}
