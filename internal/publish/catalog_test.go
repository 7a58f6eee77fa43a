package publish

import (
	"path/filepath"
	"strings"
	"testing"

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
