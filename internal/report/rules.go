package report

import (
	"strings"
	"unicode"

	"github.com/openwop/wopkit/internal/semdiff"
	"github.com/openwop/wopkit/internal/validate"
)

// DocsBase is where wopkit's documentation is read on the web: rule help
// links point into docs/RULES.md and docs/GUIDE.md there.
const DocsBase = "https://github.com/openwop/wopkit/blob/main/"

// Rule describes a rule id for SARIF's tool.driver.rules.
type Rule struct {
	ID    string
	Level Level // the rule's default level
	Short string
	Full  string
	Help  string
	// HelpURI is the section of docs/RULES.md (or docs/GUIDE.md) that explains
	// the rule.
	HelpURI string
}

// sections maps a lint rule's id prefix to the heading of docs/RULES.md
// whose table lists it.
var sections = map[string]string{
	"OW": "Node packs (`pack.json`)",
	"PK": "v2 pack manifests (every kind, and version manifests)",
	"WC": "Workflow-chain packs",
	"CD": "Card, form-content, prompt and artifact-type packs",
	"FC": "Card, form-content, prompt and artifact-type packs",
	"PR": "Card, form-content, prompt and artifact-type packs",
	"AT": "Card, form-content, prompt and artifact-type packs",
	"CN": "Card, form-content, prompt and artifact-type packs",
	"EV": "Agent eval suites",
	"IM": "Tool install manifests",
	"PH": "Every document `wopkit new` writes (only with `validate --strict`)",
}

// DiffSection is the docs/RULES.md heading of the changes wopkit diff counts.
const DiffSection = "What `wopkit diff` counts"

// jsonSection is the docs/RULES.md heading of the json/... problems.
const jsonSection = "JSON syntax and bounds (every file wopkit reads as JSON)"

// jsonRules are the json/... problems, as docs/RULES.md's table words them.
var jsonRules = map[string][2]string{ // meaning, fix
	"json/syntax":         {"not JSON (a missing comma, a trailing comma, an unclosed string...)", "fix the JSON at the position given"},
	"json/duplicate_key":  {"an object names a key twice (canonical JSON, and so signatures, need each key once)", "keep one of the two members"},
	"json/encoding":       {"not UTF-8, or a byte-order mark", "save the file as UTF-8 without a BOM"},
	"json/empty":          {"an empty file", "write the document, or start from `wopkit new`"},
	"json/too_deep":       {"nesting deeper than 256 levels", "a manifest, schema or suite is never this deep: check the file"},
	"json/too_many_nodes": {"more than 250,000 values in one document: a small hostile file is refused before it is decoded into gigabytes", "check it is the right file, or split it"},
}

// packSection is the docs/RULES.md heading of what pack refuses, which
// validate reports on a pack directory under pack's codes.
const packSection = "What `pack` refuses (pack directories)"

// packRefusals are those codes, as docs/RULES.md's table words them.
var packRefusals = map[string][2]string{ // meaning, fix
	"pack_json_invalid":     {"a .json file that JSON.parse refuses, referenced or not (the registry parses every JSON file of a pack)", "fix the file, or remove it (or list it in .openwopignore)"},
	"pack_unsafe_entry":     {"a named pipe, device, socket or directory where a file is expected, or a symbolic link that leads outside the pack or nowhere", "packs hold regular files only: copy the file in"},
	"pack_file_forbidden":   {"version-control data, node_modules, a lock file, an environment or credentials file", "remove it, or list it in .openwopignore"},
	"pack_private_key":      {"a file whose content holds a private key", "move the key out (keep only the .pub), or list it in .openwopignore"},
	"pack_secret":           {"a file whose content holds a credential (npm, GitHub, AWS, Slack... tokens)", "remove it (revoke it if it was shared) and read it from the environment at run time"},
	"pack_file_ignored":     {"a file pack.json references that .openwopignore excludes: the tarball would lack it", "remove the matching pattern (or add a !path line), or fix the reference"},
	"pack_too_large":        {"pack.json, a file or the unpacked pack over the size limits", "make it smaller; for a private pack, --max-size"},
	"pack_manifest_invalid": {"a pack.json pack cannot read", "fix pack.json"},
	"tarball_windows_name":  {"a name Windows reads as a device or as another file", "rename the file, or list it in .openwopignore"},
	"tarball_unsafe_name":   {"a name with control or bidirectional characters", "rename the file, or list it in .openwopignore"},
	"tarball_name_too_long": {"a path over 100 bytes", "rename the file, or list it in .openwopignore"},
}

// verifyCodes are verify's stable error codes (docs/CLI.md), in words.
var verifyCodes = map[string]string{
	"pack_signature_invalid":      "the signature does not verify against the trusted key",
	"pack_namespace_unauthorized": "the key that verifies is not granted the pack's namespace in the registry's keychain",
	"pack_integrity_mismatch":     "the tarball's integrity differs from the registry's version manifest",
	"release_integrity_mismatch":  "the tarball's integrity, name or version differs from the version manifest beside it (a release interrupted between its renames)",
	"release_manifest_invalid":    "the .json beside the tarball is not a version manifest (no integrity)",
	"pack_identity_mismatch":      "the tarball's name or version differs from the registry's record or its path",
	"pack_signing_mismatch":       "the signing method, scheme or key id differs from what the registry records",
	"pack_key_mismatch":           "the key given is not the key the signing block names",
	"pack_yanked":                 "the registry yanked this version",
	"registry_inconsistent":       "the registry's per-pack index disagrees with its version manifest",
	"signature_missing":           "the tarball carries no signature to verify",
	"key_unknown":                 "the key is not in the registry's keychain",
	"key_revoked":                 "the key is revoked or compromised in the registry's keychain",
	"key_unreadable":              "the key file the keychain names cannot be read",
	"tarball_manifest_missing":    "the tarball has no pack.json at its root",
	"tarball_path_traversal":      "a tarball entry's path leaves the pack",
	"tarball_unsafe_entry":        "a tarball entry is a link, device or other unsafe type",
	"tarball_duplicate_entry":     "a tarball names an entry twice",
	"tarball_too_large":           "the tarball is over the size limits",
	"tarball_corrupt":             "the tarball cannot be read as gzip and tar",
}

// RuleFor describes a rule id: a lint rule from internal/validate's table,
// the schema, JSON, tarball and kind problems by family, verify's error
// codes, and RuleNote.
func RuleFor(id string) Rule {
	for _, r := range validate.Rules() {
		if r.ID == id {
			return lintRule(r)
		}
	}
	family, rest, _ := strings.Cut(id, "/")
	for _, r := range semdiff.Rules() {
		if r.ID == id {
			level := map[semdiff.Level]Level{semdiff.Breaking: LevelError, semdiff.Feature: LevelWarning}[r.Level]
			if level == "" {
				level = LevelNote
			}
			return Rule{ID: id, Level: level, Short: string(r.Level) + ": " + r.Meaning,
				Full: "wopkit diff counts this change as " + string(r.Level) + ": " + r.Meaning + ".",
				Help: "A breaking change needs a major version (a minor one before 1.0.0); a feature a minor one; a fix a patch.", HelpURI: DocsBase + "docs/RULES.md" + anchor(DiffSection)}
		}
	}
	switch {
	case id == semdiff.RuleVersionTooLow:
		return Rule{ID: id, Level: LevelError, Short: "the new version's bump is smaller than its changes require",
			Full: "wopkit diff found changes that need a larger version bump than the new version makes (breaking: major; feature: minor; fix: patch).",
			Help: "Raise the version in pack.json, or undo the breaking changes.", HelpURI: DocsBase + "docs/RULES.md" + anchor(DiffSection)}
	case id == RuleNote:
		return Rule{ID: id, Level: LevelNote, Short: "a note: a file wopkit could not check fully, or a remark on a verified tarball",
			Full: "Notes fail nothing: they say what was not checked (a pack kind no schema covers, files a signature does not cover) or what the registry records about a version (a rotated key, a deprecation, a newer version).",
			Help: "Read the note; nothing needs fixing unless it names something you expected to be checked.", HelpURI: DocsBase + "docs/GUIDE.md" + anchor("Validation")}
	case family == "json" && rest != "":
		meaning, fix := "the file is not JSON wopkit reads ("+rest+")", "fix the JSON at the position given"
		if m, ok := jsonRules[id]; ok {
			meaning, fix = m[0], m[1]
		}
		return Rule{ID: id, Level: LevelError, Short: "JSON: " + meaning, Full: "The file does not parse: " + meaning + ". Reported at its line and column instead of a lint rule.",
			Help: "Fix: " + fix + ".", HelpURI: DocsBase + "docs/RULES.md" + anchor(jsonSection)}
	case family == "schema" && rest != "":
		return Rule{ID: id, Level: LevelError, Short: "the document does not match its JSON Schema (" + rest + ")",
			Full: "The document fails the \"" + rest + "\" keyword of the JSON Schema of its kind and spec version (the schemas embedded in wopkit, or --schemas DIR). The message says what is wrong, at the line and column of the offending value.",
			Help: "Follow the hint of each result; `wopkit validate --json` lists every problem with its JSON pointer.", HelpURI: DocsBase + "docs/GUIDE.md" + anchor("Validation")}
	case family == "tarball" && rest != "":
		what := "the tarball is refused by wopkit's safe reader (" + rest + ")"
		if d, ok := verifyCodes[rest]; ok {
			what = d
		}
		return Rule{ID: id, Level: LevelError, Short: what, Full: "The tarball is refused before any of its files is read: " + what + ". wopkit never extracts a tarball to disk.",
			Help: "Rebuild the tarball with `wopkit pack`.", HelpURI: DocsBase + "docs/GUIDE.md" + anchor("Hostile input")}
	case family == "kind":
		return Rule{ID: id, Level: LevelError, Short: "the document's kind cannot be told",
			Full: "wopkit could not tell what the document is (a pack manifest, an agent, an eval suite, a tool manifest...), so it could not choose a schema.",
			Help: "Give --kind, or add the members that tell the kind (see Validation in docs/GUIDE.md).", HelpURI: DocsBase + "docs/GUIDE.md" + anchor("Validation")}
	}
	if m, ok := packRefusals[id]; ok {
		return Rule{ID: id, Level: LevelError, Short: "pack would refuse it: " + m[0],
			Full: "wopkit pack would refuse the pack directory: " + m[0] + ". validate runs pack's collection as a dry run and reports each refusal on the file it is about.",
			Help: "Fix: " + m[1] + ".", HelpURI: DocsBase + "docs/RULES.md" + anchor(packSection)}
	}
	d, ok := verifyCodes[id]
	if !ok {
		d = "verification failed (" + id + ")"
	}
	return Rule{ID: id, Level: LevelError, Short: d,
		Full: "wopkit verify refused the tarball: " + d + ". The code is stable (docs/CLI.md lists verify's codes); the message says what was found.",
		Help: "Follow the hint of the result; `wopkit verify --json` gives the code, message and hint.", HelpURI: DocsBase + "docs/GUIDE.md" + anchor("Packing and signing")}
}

// lintRule describes a lint rule from its table entry.
func lintRule(r validate.Rule) Rule {
	level := LevelError
	if r.Severity == validate.Warning {
		level = LevelWarning
	}
	var kinds []string
	for _, k := range r.Kinds {
		kinds = append(kinds, string(k))
	}
	full := r.Summary + ". Lint rule, " + string(r.Severity) + "; applies to " + strings.Join(kinds, ", ")
	if len(r.Specs) > 0 {
		var specs []string
		for _, s := range r.Specs {
			specs = append(specs, string(s))
		}
		full += " (spec " + strings.Join(specs, ", ") + ")"
	}
	if r.NeedsFiles {
		full += "; reads the pack's other files"
	}
	full += "."
	sec := sections[r.ID[:min(2, len(r.ID))]]
	uri := DocsBase + "docs/RULES.md" + anchor(sec)
	if sec == "" {
		uri = DocsBase + "docs/RULES.md"
	}
	return Rule{ID: r.ID, Level: level, Short: r.Summary, Full: full,
		Help:    "docs/RULES.md (" + r.ID + ", in \"" + sec + "\") says what the rule checks and how to fix it; `wopkit validate --rules` lists every rule.",
		HelpURI: uri}
}

// anchor returns the fragment GitHub gives a Markdown heading: lower case,
// spaces to hyphens, every other character but letters, digits, hyphens and
// underscores dropped.
func anchor(heading string) string {
	var b strings.Builder
	b.WriteByte('#')
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
