package report

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/termsafe"
)

// SARIFSchema and SARIFVersion identify the SARIF format written: OASIS
// SARIF 2.1.0 (errata 01), the version GitHub code scanning reads.
const (
	SARIFSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	SARIFVersion = "2.1.0"
)

// srcRoot is the uriBaseId of relative artifact locations: the directory
// wopkit ran in (GitHub resolves it to the repository's root).
const srcRoot = "%SRCROOT%"

// Tool is the analysis tool a SARIF run names.
type Tool struct {
	Name           string // wopkit
	Version        string // the module version from the build info
	InformationURI string
}

// SARIFOptions say what one SARIF run describes.
type SARIFOptions struct {
	Tool Tool
	// Dir is the working directory: paths inside it are written relative
	// to it (uriBaseId %SRCROOT%), others as absolute file URIs.
	Dir string
	// Category tells this run from other runs of the same tool on the same
	// commit (runAutomationDetails.id, GitHub's upload category), such as
	// "wopkit/validate/".
	Category string
}

// WriteSARIF writes the findings as a SARIF 2.1.0 log of one run: the tool
// with every rule the findings use (descriptions and help links from
// RuleFor), and one result per finding with its rule, level, message,
// location (artifact URI and region) and a partial fingerprint.
func WriteSARIF(w io.Writer, findings []Finding, o SARIFOptions) error {
	run := sarifRun{
		Tool:        sarifTool{Driver: sarifDriver{Name: o.Tool.Name, Version: o.Tool.Version, InformationURI: o.Tool.InformationURI, Rules: []sarifRule{}}},
		Results:     []sarifResult{},
		ColumnKind:  "unicodeCodePoints", // jsondoc counts columns in code points
		Invocations: []sarifInvocation{{ExecutionSuccessful: true}},
	}
	if v := strings.TrimPrefix(o.Tool.Version, "v"); semverish(v) {
		run.Tool.Driver.SemanticVersion = v
	}
	if o.Category != "" {
		run.AutomationDetails = &sarifAutomation{ID: o.Category}
	}
	if o.Dir != "" && filepath.IsAbs(o.Dir) {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLocation{srcRoot: {URI: fileURI(o.Dir, true)}}
	}
	index := map[string]int{}
	for _, f := range findings {
		i, ok := index[f.Rule]
		if !ok {
			i = len(run.Tool.Driver.Rules)
			index[f.Rule] = i
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRuleOf(RuleFor(f.Rule)))
		}
		run.Results = append(run.Results, sarifResultOf(f, i, o.Dir))
	}
	return termsafe.WriteJSON(w, sarifLog{Schema: SARIFSchema, Version: SARIFVersion, Runs: []sarifRun{run}}, "  ")
}

func sarifRuleOf(r Rule) sarifRule {
	return sarifRule{ID: r.ID, Name: ruleName(r.ID),
		ShortDescription: sarifText{Text: r.Short}, FullDescription: sarifText{Text: r.Full},
		Help: sarifHelp{Text: r.Help + " " + r.HelpURI, Markdown: r.Help + " [More](" + r.HelpURI + ")"}, HelpURI: r.HelpURI,
		DefaultConfiguration: sarifConfig{Level: string(r.Level)}}
}

// ruleName is a rule's name in SARIF's PascalCase convention (reportingDescriptor.name):
// schema/additionalProperties is SchemaAdditionalProperties, pack_yanked PackYanked.
func ruleName(id string) string {
	var b strings.Builder
	up := true
	for _, r := range id {
		switch {
		case r == '/' || r == '_' || r == '-' || r == '.':
			up = true
		case up:
			b.WriteString(strings.ToUpper(string(r)))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func sarifResultOf(f Finding, ruleIndex int, dir string) sarifResult {
	disk, member := f.Split()
	loc := sarifArtifactLocation{}
	if rel, ok := relPath(dir, disk); ok {
		loc.URI, loc.URIBaseID = (&url.URL{Path: rel}).String(), srcRoot
	} else {
		loc.URI = fileURI(disk, false)
	}
	// GitHub needs a region with startLine on every result: a finding on a
	// whole file, or inside a tarball, points at its first line.
	line, col := f.position()
	region := sarifRegion{StartLine: max(line, 1)}
	if col > 0 {
		region.StartColumn = col
	}
	res := sarifResult{RuleID: f.Rule, RuleIndex: ruleIndex, Level: string(f.Level), Message: sarifText{Text: f.text()},
		Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{ArtifactLocation: loc, Region: region}}}}
	if member != "" || f.Pointer != "" {
		res.Properties = &sarifResultProps{Member: member, Pointer: f.Pointer}
		if member != "" && f.Line > 0 {
			res.Properties.MemberLine, res.Properties.MemberColumn = f.Line, f.Column
		}
	}
	// The fingerprint names the problem by what it is, not by where its line
	// moved to: rule, file, member, pointer and message.
	h := sha256.Sum256([]byte(strings.Join([]string{f.Rule, filepath.ToSlash(disk), member, f.Pointer, f.Message}, "\x00")))
	res.PartialFingerprints = map[string]string{"wopkitProblem/v1": hex.EncodeToString(h[:16])}
	return res
}

// fileURI is the absolute file URI of path (with a trailing slash for a
// directory, as originalUriBaseIds requires).
func fileURI(path string, dir bool) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/...
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// semverish reports whether v looks like MAJOR.MINOR.PATCH[-pre][+build].
func semverish(v string) bool {
	core, _, _ := strings.Cut(v, "+")
	core, _, _ = strings.Cut(core, "-")
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// The SARIF 2.1.0 objects wopkit writes (only the members it uses).
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                        `json:"tool"`
		AutomationDetails  *sarifAutomation                 `json:"automationDetails,omitempty"`
		Invocations        []sarifInvocation                `json:"invocations"`
		OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds,omitempty"`
		ColumnKind         string                           `json:"columnKind"`
		Results            []sarifResult                    `json:"results"`
	}
	sarifAutomation struct {
		ID string `json:"id"`
	}
	sarifInvocation struct {
		ExecutionSuccessful bool `json:"executionSuccessful"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name            string      `json:"name"`
		Version         string      `json:"version,omitempty"`
		SemanticVersion string      `json:"semanticVersion,omitempty"`
		InformationURI  string      `json:"informationUri,omitempty"`
		Rules           []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string      `json:"id"`
		Name                 string      `json:"name"`
		ShortDescription     sarifText   `json:"shortDescription"`
		FullDescription      sarifText   `json:"fullDescription"`
		Help                 sarifHelp   `json:"help"`
		HelpURI              string      `json:"helpUri"`
		DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
	}
	sarifConfig struct {
		Level string `json:"level"`
	}
	sarifText struct {
		Text string `json:"text"`
	}
	sarifHelp struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifText         `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
		Properties          *sarifResultProps `json:"properties,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation sarifPhysical `json:"physicalLocation"`
	}
	sarifPhysical struct {
		ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
		Region           sarifRegion           `json:"region"`
	}
	sarifArtifactLocation struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	// sarifResultProps is a result's property bag: the JSON pointer of the
	// offending value and, for a file inside a tarball, the member and the
	// position in it.
	sarifResultProps struct {
		Pointer      string `json:"pointer,omitempty"`
		Member       string `json:"member,omitempty"`
		MemberLine   int    `json:"memberLine,omitempty"`
		MemberColumn int    `json:"memberColumn,omitempty"`
	}
)
