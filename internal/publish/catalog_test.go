package publish

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/fixtures"
	"github.com/openwop/wopkit/internal/publish/jsjson"
	"github.com/openwop/wopkit/internal/sign"
)

// An agent's `openwop:<typeId>` tool resolves against the nodes of the
// registry tree it is published into, as the registry's
// check-agent-tool-allowlist does: a node another pack of the tree declares
// is taken, a typeId no pack declares is refused (OW020), before anything
// is written.
func TestPublishResolvesToolAllowlistAgainstTheTree(t *testing.T) {
	t.Parallel()
	dir := minimalRegistry(t)
	root := filepath.Join(dir, "registry")
	key := addTestKey(t, root, "active")
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, "community.wopkit-test.hello", "1.0.0", nil), Registry: dir})
	withTool := func(tool string) func(*jsjson.Obj) {
		return func(m *jsjson.Obj) {
			agent := jsjson.NewObj().Set("agentId", "community.wopkit-test.other.helper").Set("persona", "Helper").
				Set("modelClass", "general").Set("role", "assistant").Set("systemPrompt", "Help the user.").
				Set("toolAllowlist", []any{tool})
			m.Set("agents", []any{agent})
			m.Set("peerDependencies", jsjson.NewObj().Set("agentRuntime", "supported").Set("aiProviders", "supported"))
		}
	}
	const other = "community.wopkit-test.other"
	dangling := release(t, key, sign.MethodV2, other, "1.0.0", withTool("openwop:community.wopkit-test.hello.nope"))
	refuse(t, Options{Tarball: dangling, Registry: dir}, "pack_invalid")
	if _, err := Stage(t.Context(), Options{Tarball: dangling, Registry: dir}); !strings.Contains(err.Error(), "[OW020]") {
		t.Fatalf("a dangling openwop: tool: %v", err)
	}
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, other, "1.0.0", withTool("openwop:community.wopkit-test.hello.hello")), Registry: dir})
}

// The registry catalog an agent's tool resolves against is the tree of each
// Stage, whatever the process staged before (the validator of releases is
// made once per process: validators.go): the same release is taken by the
// tree that declares the node, refused by one that does not, then taken
// again.
func TestEachStageResolvesAgainstItsOwnTree(t *testing.T) {
	t.Parallel()
	with := minimalRegistry(t)
	key := addTestKey(t, filepath.Join(with, "registry"), "active")
	without := t.TempDir()
	fixtures.CopyInto(t, with, without)
	publishOK(t, Options{Tarball: release(t, key, sign.MethodV2, "community.wopkit-test.hello", "1.0.0", nil), Registry: with})
	tgz := release(t, key, sign.MethodV2, "community.wopkit-test.other", "1.0.0", func(m *jsjson.Obj) {
		agent := jsjson.NewObj().Set("agentId", "community.wopkit-test.other.helper").Set("persona", "Helper").
			Set("modelClass", "general").Set("role", "assistant").Set("systemPrompt", "Help the user.").
			Set("toolAllowlist", []any{"openwop:community.wopkit-test.hello.hello"})
		m.Set("agents", []any{agent})
		m.Set("peerDependencies", jsjson.NewObj().Set("agentRuntime", "supported").Set("aiProviders", "supported"))
	})
	for i, dir := range []string{with, without, with, without} {
		_, err := Stage(t.Context(), Options{Tarball: tgz, Registry: dir})
		if refused := err != nil && strings.Contains(err.Error(), "[OW020]"); refused != (dir == without) {
			t.Errorf("stage %d, into the tree %s the node: %v", i+1, map[bool]string{true: "without", false: "with"}[dir == without], err)
		}
	}
}
