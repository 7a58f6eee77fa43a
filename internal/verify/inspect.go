package verify

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"

	"github.com/openwop/wopkit/internal/jcs"
	"github.com/openwop/wopkit/internal/registry"
	"github.com/openwop/wopkit/internal/tarball"
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
	Canonical bool            `json:"canonical"`
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
	sum := sha256.Sum256(data)
	info := &Info{Path: path, Size: int64(len(data)), Integrity: "sha256-" + base64.StdEncoding.EncodeToString(sum[:]),
		Entries: []Entry{}}
	// Every entry passes the safe reader, but only pack.json is held: the
	// others are streamed past (a 400 MiB entry costs no memory).
	a, err := readArchive(data, l, func(name string) bool { return name == tarball.ManifestName }, func(h tarball.Header) {
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
		Nodes       []any           `json:"nodes"`
		Agents      []any           `json:"agents"`
		Signing     json.RawMessage `json:"signing"`
		Runtime     struct {
			Language string `json:"language"`
			Entry    string `json:"entry"`
		} `json:"runtime"`
	}
	keep := func(k string) bool {
		switch k {
		case "name", "version", "kind", "description", "license", "nodes", "agents", "signing", "runtime":
			return true
		}
		return false
	}
	if err := registry.DecodeTop(pf.Data, keep, &doc); err != nil {
		return nil, werr.Wrap(werr.Invalid, "pack_manifest_invalid", err, "pack.json in %s is not valid JSON", path)
	}
	info.Manifest = &Summary{Name: doc.Name, Version: doc.Version, Kind: doc.Kind, Description: doc.Description,
		License: doc.License, Runtime: doc.Runtime.Language, Entry: doc.Runtime.Entry, Nodes: len(doc.Nodes), Agents: len(doc.Agents)}
	info.Signing = doc.Signing
	info.Canonical = jcs.IsCanonical(pf.Data)
	return info, nil
}
