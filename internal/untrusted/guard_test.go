package untrusted

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/openwop/wopkit/internal/guard"
)

// rawReaders are the calls that open, read or decode input without this
// layer: outside it, each one must be listed in trustedReads with the
// reason its input is not a stranger's (or is bounded another way).
var rawReaders = map[string][]string{
	"os":                              {"Open", "OpenFile", "ReadFile", "DirFS", "ReadDir"},
	"io/ioutil":                       {"ReadFile", "ReadDir"},
	"encoding/json":                   {"Unmarshal", "NewDecoder"},
	"net/http":                        {"Get", "Post", "Head", "DefaultClient"},
	modulePath + "/internal/safefile": {"Open", "OpenIn", "ReadFile", "ReadFileIn"},
}

const modulePath = "github.com/openwop/wopkit"

// layerDirs are the layer itself and test tooling that never ships.
var layerDirs = []string{
	"internal/untrusted",                  // this layer
	"internal/safefile",                   // its non-blocking open primitive
	"internal/fixtures",                   // test support: reads ../shared
	"internal/sign/sigstore/sigstoretest", // test servers
	"internal/tarball/benchtree",          // benchmark data
}

// trustedReads are the reads outside the layer, by file and enclosing
// function, with why each may read without it. A new raw read fails the
// test until it goes through the layer or is added here with a reason a
// reviewer accepts; an entry whose read is gone fails too, so the list stays
// true.
var trustedReads = map[string]string{
	// The author's own answers and the wizard's own files.
	"cmd/wopkit/new.go:dropNodeKind":                             "the author's own --values file, read bounded by untrusted.ReadNamed",
	"cmd/wopkit/new.go:packKind":                                 "the author's own --values file, read bounded by untrusted.ReadNamed",
	"internal/scaffold/render.go:Runtime":                        "wopkit's embedded templates",
	"internal/leaks/config.go:parseConfig":                       "wopkit's embedded gitleaks rules (gitleaks.json, converted from gitleaks.toml at update time)",
	"internal/scaffold/set.go:Values":                            "the author's own --values/--set answers, into wopkit's answer structs",
	"internal/scaffold/set.go:clone":                             "re-decoding wopkit's own answer structs",
	"internal/scaffold/set.go:fromMap":                           "re-decoding wopkit's own answer structs",
	"internal/scaffold/set.go:toMap":                             "re-decoding wopkit's own answer structs",
	"internal/scaffold/set.go:typed":                             "a value the author typed after --set",
	"internal/scaffold/kind.go:orderedKeys":                      "re-decoding wopkit's own answer structs (the --set keys of a kind)",
	"internal/tui/wizard/page_decl.go:declared.UnmarshalJSON":    "a declarative kind's part of the wizard's own draft, read bounded by untrusted.ReadNamed (loadDraft)",
	"internal/tui/wizard/review_labels.go:answers.clone":         "re-decoding the wizard's own answers (a copy to build a page on)",
	"internal/tui/wizard/page_decl.go:copyAnswers":               "re-decoding a kind's answers the wizard holds (a copy to plan, or to adopt from the command line)",
	"internal/tui/editor/editor_external.go:editor.editExternal": "the file the author's own $EDITOR just wrote",
	"internal/tui/editor/editor_input.go:schemaTyped":            "a value the author typed into the editor, read as the field's schema type",
	"internal/tui/editor/editor_input.go:editor.typedValue":      "a value the author typed into the editor",
	"internal/tui/wizard/drafts/drafts.go:List":                  "the file names of the wizard's own drafts, in the user's state folder (owner-checked), each read bounded",
	"internal/tui/wizard/draftstore.go:decodeDraft":              "the wizard's own drafts, in the user's state folder (owner-checked, 0600), read bounded by drafts.Load and drafts.List",
	"internal/tui/tuitest/tuitest.go:Driver.Golden":              "a golden file of wopkit's own tests (testdata/golden), read by the tests' driver",
	"internal/tui/wizard/run.go:upgradeDraft":                    "the wizard's own draft (loadDraft read it bounded), in the shape an older wopkit kept it",
	"internal/validate/lint_kinds.go:(package)":                  "a declaration embedded in wopkit",
	"internal/validate/lint_events.go:(package)":                 "the spec's event names, embedded in wopkit",
	"internal/validate/help.go:catalogueHelp":                    "the wizard's help catalogue, embedded in wopkit",
	"internal/proctest/proctest.go:State":                        "/proc of the test's own child processes (a test-only package)",
	"internal/proctest/proctest.go:Find":                         "/proc of the test's own child processes (a test-only package)",
	"internal/tui/wizard/listpage.go:wizard.listNext":            "the wizard's own answers, encoded a moment before to undo a removal",
	"internal/sign/sigstore/token.go:checkToken":                 "the signer's own OIDC identity token (SIGSTORE_ID_TOKEN or the issuer's answer), for a diagnosis",
	// Pack manifests, after the layer has checked them.
	"internal/pack/manifest.go:ParseManifest":   "a manifest untrusted.CheckJSON accepted first, decoded into a map (exact names)",
	"internal/pack/manifest.go:topLevelMembers": "a manifest untrusted.CheckJSON accepted first (ParseManifest), members in order",
	"internal/pack/secrets.go:privateJWK":       "classification only: does a packed file hold a private JSON Web Key (bounded by the entry limit)",
}

// TestUntrustedInputGoesThroughTheLayer is to the trust layer what
// TestWizardHoldsNoRules is to the wizard: it fails when code outside
// internal/untrusted opens, reads or decodes input another way.
func TestUntrustedInputGoesThroughTheLayer(t *testing.T) {
	found := guard.Find(t, filepath.Join("..", ".."), layerDirs, rawReaders)
	guard.Check(t, found, trustedReads, func(k, where string) string {
		return fmt.Sprintf("%s reads input without internal/untrusted (%s): read a stranger's file with untrusted.OpenDir/ReadFile/DirFS and decode with untrusted.DecodeJSON; if the input is the user's own, add %q to trustedReads with the reason", k, where, k)
	})
}
