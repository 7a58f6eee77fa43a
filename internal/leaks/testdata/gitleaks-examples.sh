#!/bin/sh
# Writes gitleaks-examples.json: every example string of gitleaks v8.30.1's
# default rules (the true positives, tps, and false positives, fps, that
# each rule's generator in cmd/generate/config/rules validates itself
# against), and, for each, the rules gitleaks' own detector (its default
# configuration, decoding to depth 5 as its command line does) reports.
#
#   internal/leaks/testdata/gitleaks-examples.sh [OUT]
#
# It fetches the gitleaks module through the Go module proxy (go mod
# download), and in a temporary module outside the repository runs the
# rules' own generator functions (they build many examples from random
# strings: each run writes other values) with Validate and
# ValidateWithPaths replaced by functions that record the examples. Nothing
# of gitleaks is kept but the data written (MIT, internal/leaks/LICENSE.gitleaks).
set -eu
OUT=${1:-$(cd "$(dirname "$0")" && pwd)/gitleaks-examples.json}
VER=v8.30.1
MOD=github.com/zricethezav/gitleaks/v8
DIR=$(go mod download -json "$MOD@$VER" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -d "$DIR" ] || { echo "cannot download $MOD@$VER" >&2; exit 1; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/rules" "$WORK/utils"
cp "$DIR"/cmd/generate/config/rules/*.go "$WORK/rules/"
rm -f "$WORK"/rules/*_test.go
cp "$DIR"/cmd/generate/config/utils/generate.go "$DIR"/cmd/generate/config/utils/patterns.go "$WORK/utils/"
sed -i "s#\"$MOD/cmd/generate/config/utils\"#\"glgen/utils\"#" "$WORK"/rules/*.go
cat > "$WORK/utils/record.go" <<'GO'
package utils

import "github.com/zricethezav/gitleaks/v8/config"

// Example is one example string of a rule.
type Example struct {
	Rule, Path, Text string
	TP               bool
}

// Recorded are the examples Validate and ValidateWithPaths were given.
var Recorded []Example

func Validate(rule config.Rule, tps, fps []string) *config.Rule {
	for _, s := range tps {
		Recorded = append(Recorded, Example{Rule: rule.RuleID, Text: s, TP: true})
	}
	for _, s := range fps {
		Recorded = append(Recorded, Example{Rule: rule.RuleID, Text: s})
	}
	return &rule
}

func ValidateWithPaths(rule config.Rule, tps, fps map[string]string) *config.Rule {
	for p, s := range tps {
		Recorded = append(Recorded, Example{Rule: rule.RuleID, Path: p, Text: s, TP: true})
	}
	for p, s := range fps {
		Recorded = append(Recorded, Example{Rule: rule.RuleID, Path: p, Text: s})
	}
	return &rule
}
GO
{
	cat <<'GO'
package main

import (
	"encoding/json"
	"os"
	"sort"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"

	"glgen/rules"
	"glgen/utils"
)

type example struct {
	Rule     string   `json:"rule"`
	TP       bool     `json:"tp"`
	Path     string   `json:"path,omitempty"`
	Text     string   `json:"text"`
	Gitleaks []string `json:"gitleaks"` // the rules gitleaks' default detector reports
}

func main() {
	_ = []*config.Rule{
GO
	sed -n '/configRules := \[\]\*config.Rule{/,/^	}/p' "$DIR/cmd/generate/config/main.go" | sed '1d;$d'
	cat <<'GO'
	}
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		panic(err)
	}
	d.MaxDecodeDepth = 5 // the command line's default (--max-decode-depth)
	var out []example
	for _, e := range utils.Recorded {
		found := map[string]bool{}
		for _, f := range d.Detect(detect.Fragment{Raw: e.Text, FilePath: e.Path}) {
			found[f.RuleID] = true
		}
		ids := []string{}
		for id := range found {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		out = append(out, example{Rule: e.Rule, TP: e.TP, Path: e.Path, Text: e.Text, Gitleaks: ids})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Rule != out[j].Rule {
			return out[i].Rule < out[j].Rule
		}
		return out[i].TP && !out[j].TP
	})
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
GO
} > "$WORK/main.go"
printf 'module glgen\n\ngo 1.24\n\nrequire %s %s\n' "$MOD" "$VER" > "$WORK/go.mod"
(cd "$WORK" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 && GOFLAGS=-mod=mod go run . > "$WORK/out.json")
mv "$WORK/out.json" "$OUT"
echo "wrote $OUT ($(grep -c '"rule"' "$OUT") examples)"
