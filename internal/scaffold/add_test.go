package scaffold

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/jsondoc"
	"github.com/openwop/wopkit/internal/jsonedit"
	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// copyFixturePack copies a real source pack into a temporary directory,
// adding the placeholder entry the fixtures lack. It skips when the shared
// fixtures are absent.
func copyFixturePack(t *testing.T, name string) string {
	t.Helper()
	src := fixtures.Path(t, "source-packs", name)
	dst := filepath.Join(t.TempDir(), name)
	fixtures.CopyInto(t, src, dst)
	if name != "core.openwop.agents.react" {
		if err := os.WriteFile(filepath.Join(dst, "index.mjs"), []byte("export const nodes = {};\nexport default nodes;\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

var fixturePackNames = []string{"core.openwop.agents.react", "community.openwop-team.demo", "core.openwop.a2a"}

// TestAddIntoFixturePacks adds an agent (with an eval suite), a node and an
// eval suite into each real source pack. pack.json with the new entry
// removed must equal the original byte for byte, and the new entry and
// files must validate strictly.
func TestAddIntoFixturePacks(t *testing.T) {
	t.Parallel()
	v, _ := validate.New(validate.Options{Strict: true})
	for _, name := range fixturePackNames {
		for _, kind := range []string{"agent", "node", "eval"} {
			t.Run(name+"/"+kind, func(t *testing.T) {
				dir := copyFixturePack(t, name)
				orig, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
				src, err := OpenPack(dir)
				if err != nil {
					t.Fatal(err)
				}
				var p *Plan
				var added string // pointer of the new entry
				switch kind {
				case "agent":
					a := AgentAnswers{}.Defaults()
					a.ID = "helper"
					e := EvalAnswers{}.Defaults()
					a.Eval = &e
					p, err = PlanAgent(src, a, v)
					added = jsondoc.Index("/agents", len(src.AgentIDs()))
				case "node":
					n := NodeAnswers{}.Defaults()
					n.ID = "shout"
					p, err = PlanNode(src, n, v)
					if src.Language == "remote" {
						if werr.CodeOf(err) != "scaffold_remote_pack" {
							t.Fatalf("node into an agent-only pack: %v", err)
						}
						return
					}
					added = jsondoc.Index("/nodes", len(src.NodeIDs()))
				case "eval":
					if len(src.AgentIDs()) == 0 {
						_, err = PlanEval(src, EvalAnswers{}.Defaults(), v)
						if err == nil || !strings.Contains(err.Error(), "has no agent") {
							t.Fatalf("eval for a pack without agents: %v", err)
						}
						return
					}
					p, err = PlanEval(src, EvalAnswers{}.Defaults(), v)
					added = "/agents/0/evalSuiteRef"
				}
				if err != nil {
					t.Fatalf("plan: %v", err)
				}
				if err := p.Write(dir, false); err != nil {
					t.Fatal(err)
				}
				now, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
				back, err := jsonedit.Remove(now, added)
				if err != nil {
					t.Fatal(err)
				}
				if srcHad := jsondoc.SplitPointer(added)[0]; !bytes.Contains(orig, []byte(`"`+srcHad+`"`)) {
					// the array member itself was created: remove it too
					back, _ = jsonedit.Remove(now, "/"+srcHad)
				}
				if !bytes.Equal(back, orig) {
					t.Errorf("pack.json changed outside the new entry:\n%s", back)
				}
				checkNewParts(t, v, dir, added, p)
			})
		}
	}
}

// checkNewParts validates the pack and fails on problems in the new entry
// or the new files (the real packs' own problems are not ours).
func checkNewParts(t *testing.T, v *validate.Validator, dir, added string, p *Plan) {
	t.Helper()
	rep, err := v.Path(dir)
	if err != nil {
		t.Fatal(err)
	}
	newFiles := map[string]bool{}
	for _, f := range p.Files {
		if f.Path != "pack.json" {
			newFiles[f.Path] = true
		}
	}
	for _, fr := range rep.Files {
		rel := strings.TrimPrefix(filepath.ToSlash(fr.Path), filepath.ToSlash(dir)+"/")
		for _, pr := range append(fr.Errors, fr.Warnings...) {
			if newFiles[rel] || strings.HasSuffix(rel, "pack.json") && strings.HasPrefix(pr.Pointer, added) {
				t.Errorf("%s: %s", rel, pr.String())
			}
		}
	}
}

// TestAddRefusesExistingIDs refuses an agent or node id already in the pack,
// saying why, and writes nothing.
func TestAddRefusesExistingIDs(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "p")
	a := PackAnswers{}.Defaults()
	a.Name = "vendor.acme.p"
	ag := AgentAnswers{}.Defaults()
	ev := EvalAnswers{}.Defaults()
	ag.Eval = &ev
	a.Agents = []AgentAnswers{ag}
	p, err := PlanPack(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Write(dir, false); err != nil {
		t.Fatal(err)
	}
	src, err := OpenPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		plan func() error
		want string
	}{
		{"agent suffix", func() error { _, err := PlanAgent(src, AgentAnswers{}.Defaults(), nil); return err }, "agent vendor.acme.p.assistant already exists"},
		{"agent full id", func() error {
			x := AgentAnswers{}.Defaults()
			x.ID = "vendor.acme.p.assistant"
			_, err := PlanAgent(src, x, nil)
			return err
		}, "already exists"},
		{"node", func() error { _, err := PlanNode(src, NodeAnswers{}.Defaults(), nil); return err }, "node vendor.acme.p.hello already exists"},
		{"eval twice", func() error { _, err := PlanEval(src, EvalAnswers{}.Defaults(), nil); return err }, "already has an eval suite"},
		{"eval unknown agent", func() error {
			e := EvalAnswers{}.Defaults()
			e.TargetAgentID = "nobody"
			_, err := PlanEval(src, e, nil)
			return err
		}, "has no agent vendor.acme.p.nobody"},
		{"agent outside the pack's namespace", func() error {
			x := AgentAnswers{}.Defaults()
			x.ID = "vendor.other.x.y"
			_, err := PlanAgent(src, x, nil)
			return err
		}, "id:"},
		{"node with bad port", func() error {
			n := NodeAnswers{}.Defaults()
			n.ID, n.Inputs = "other", []string{"two words"}
			_, err := PlanNode(src, n, nil)
			return err
		}, "is not an identifier"},
	}
	before, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	for _, tt := range tests {
		err := tt.plan()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
	after, _ := os.ReadFile(filepath.Join(dir, "pack.json"))
	if !bytes.Equal(before, after) {
		t.Error("a refused plan changed pack.json")
	}
}

// TestAddNodeAppendsCode adds a node to a scaffolded JavaScript pack and
// checks that the appended implementation is registered in the nodes map.
func TestAddNodeAppendsCode(t *testing.T) {
	t.Parallel()
	dir := scaffoldPack(t, packCases()[indexCase("javascript/nodes-only")])
	src, err := OpenPack(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := NodeAnswers{}.Defaults()
	n.ID = "hello-again"
	p, err := PlanNode(src, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	entry := p.File("index.mjs")
	if entry == nil || !entry.Update {
		t.Fatalf("index.mjs not updated: %v", p.Paths())
	}
	if !strings.Contains(string(entry.Data), `nodes["vendor.acme.hello.hello-again"] = helloAgain;`) {
		t.Errorf("node not registered:\n%s", entry.Data)
	}
}

// TestAddKeepsLayout adds an agent into pack.json files written in other
// layouts (tabs, CRLF, four spaces, one line) with unknown members and
// escapes: everything but the new entry stays byte for byte, and the new
// entry uses the file's own indentation.
func TestAddKeepsLayout(t *testing.T) {
	t.Parallel()
	base := `{"zz-unknown": {"keep": "me \u2014 \/ <>"}, "name": "vendor.acme.lay", "version": "1.0.0", "engines": {"openwop": ">=1.0.0 <2.0.0"},` +
		` "agents": [{"agentId": "vendor.acme.lay.first", "persona": "First", "modelClass": "general", "systemPrompt": "Hi."}],` +
		` "runtime": {"language": "remote", "entry": "pack.json"}}`
	layouts := map[string]func(string) string{
		"one line": func(s string) string { return s },
		"tabs":     func(s string) string { return indent(s, "\t", "\n") },
		"crlf-4":   func(s string) string { return indent(s, "    ", "\r\n") },
	}
	for name, lay := range layouts {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			orig := []byte(lay(base))
			os.WriteFile(filepath.Join(dir, "pack.json"), orig, 0o644)
			src, err := OpenPack(dir)
			if err != nil {
				t.Fatal(err)
			}
			a := AgentAnswers{}.Defaults()
			a.PromptInline, a.Handoff = true, false
			p, err := PlanAgent(src, a, nil)
			if err != nil {
				t.Fatal(err)
			}
			out := p.File("pack.json").Data
			back, err := jsonedit.Remove(out, "/agents/1")
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(back, orig) {
				t.Errorf("layout not kept:\n%q\n%q", back, orig)
			}
			st := jsonedit.Detect(orig)
			if st.Indent != "" && !bytes.Contains(out, []byte(st.Newline+st.Indent+st.Indent+st.Indent+`"agentId": "vendor.acme.lay.assistant"`)) {
				t.Errorf("new entry not in the file's indentation:\n%s", out)
			}
		})
	}
}

// indent pretty-prints compact JSON with the given unit and line ending,
// keeping string contents (and their escapes) as they are.
func indent(s, unit, nl string) string {
	var b strings.Builder
	depth, inStr := 0, false
	line := func() { b.WriteString(nl + strings.Repeat(unit, depth)) }
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			b.WriteByte(c)
			if c == '\\' {
				i++
				b.WriteByte(s[i])
			} else if c == '"' {
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			b.WriteByte(c)
		case '{', '[':
			b.WriteByte(c)
			depth++
			line()
		case '}', ']':
			depth--
			line()
			b.WriteByte(c)
		case ',':
			b.WriteByte(c)
			line()
		case ' ':
		case ':':
			b.WriteString(": ")
		default:
			b.WriteByte(c)
		}
	}
	return b.String() + nl
}
