package publish

import (
	"slices"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
)

// The checks a pull request runs are named from the registry's own
// workflows: the checks of registry-publish.yml, packs-check.yml and
// vendored-sync.yml, not what auto-register.yml writes back.
func TestPRChecksFromTheRegistryWorkflows(t *testing.T) {
	t.Parallel()
	co := fixtures.RegistryCheckout(t)
	got := PRChecks(co)
	for _, want := range []string{
		"node registry/scripts/build-index.mjs --check",
		"node registry/scripts/verify-signatures.mjs",
		"node registry/scripts/conformance-check.mjs",
		"node registry/scripts/generate-sbom.mjs --check",
		"node registry/scripts/check-advisories.mjs",
		"node scripts/check-agent-tool-allowlist.mjs",
		"node scripts/check-pack-schema-ids.mjs",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("PRChecks lacks %q: %q", want, got)
		}
	}
	for _, c := range got {
		if c == "node registry/scripts/build-index.mjs" || c == "node scripts/auto-register.mjs --dry-run" {
			t.Errorf("PRChecks names a step that writes: %q", c)
		}
	}
}
