package leaks

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// gitleaks.json is gitleaks.toml (gitleaks' own config/gitleaks.toml of
// GitleaksVersion, kept beside it) converted at update time, not at run
// time: scripts/gitleaks-rules.py reads the TOML with Python's tomllib and
// writes the same tables as JSON, with the TOML's sha256. The tests hold
// the TOML to GitleaksSHA256, the JSON to the TOML (that digest, and the
// script's output when python3 is there). To update: replace gitleaks.toml
// with the new release's, set both constants, run `go generate
// ./internal/leaks`.
//
//go:generate python3 ../../scripts/gitleaks-rules.py gitleaks.toml gitleaks.json

//go:embed gitleaks.json
var gitleaksJSON []byte

// GitleaksVersion is the gitleaks release gitleaks.toml comes from;
// GitleaksSHA256 its digest (a test holds the file, and the JSON made from
// it, to it: update both together, from that release's config/gitleaks.toml).
const (
	GitleaksVersion = "v8.30.1"
	GitleaksSHA256  = "e163e53b9e7e8a8511e77271e2b323ed057759542a6d988258afe3a1fa329caf"
)

// fileRule is one [[rules]] table as written.
type fileRule struct {
	ID          string          `json:"id"`
	Description string          `json:"description"`
	Regex       string          `json:"regex"`
	Path        string          `json:"path"`
	SecretGroup int             `json:"secretGroup"`
	Entropy     float64         `json:"entropy"`
	Keywords    []string        `json:"keywords"`
	Allowlists  []fileAllowlist `json:"allowlists"`
}

// fileAllowlist is one allowlist table as written.
type fileAllowlist struct {
	Description string   `json:"description"`
	Condition   string   `json:"condition"`   // "" (OR) or "AND"
	RegexTarget string   `json:"regexTarget"` // "" (the secret), "match" or "line"
	Regexes     []string `json:"regexes"`
	Paths       []string `json:"paths"`
	StopWords   []string `json:"stopwords"`
}

// fileConfig is the whole file.
type fileConfig struct {
	SourceSHA256 string        `json:"sourceSha256"` // of the TOML it was made from
	Title        string        `json:"title"`
	MinVersion   string        `json:"minVersion"`
	Allowlist    fileAllowlist `json:"allowlist"`
	Rules        []fileRule    `json:"rules"`
}

// parseConfig reads the converted rule file; it refuses one made from
// another TOML than GitleaksSHA256's.
func parseConfig(data []byte) (*fileConfig, error) {
	cfg := &fileConfig{}
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("gitleaks rules: %w", err)
	}
	if cfg.SourceSHA256 != GitleaksSHA256 {
		return nil, fmt.Errorf("gitleaks rules: made from a gitleaks.toml of sha256 %s, not %s's %s: run go generate ./internal/leaks", cfg.SourceSHA256, GitleaksVersion, GitleaksSHA256)
	}
	return cfg, nil
}
