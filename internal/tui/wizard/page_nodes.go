package wizard

import (
	"fmt"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
	"github.com/openwop/wopkit/internal/validate"
)

// A pack's nodes: one page per node, then the list of nodes.

func init() {
	registerList("nodes", func(a *answers) int { return len(a.Pack.Nodes) })
	register(&page{id: "node", title: "node", order: 40, doc: docPack, each: "nodes",
		when: func(a *answers, _ pos) bool { return a.hasNodes() }, owns: paths("nodes.%d"), groups: nodeGroups})
	register(&page{id: "nodes", title: "nodes", order: 45, doc: docPack,
		when: func(a *answers, _ pos) bool { return a.hasNodes() }, owns: paths("nodes"), groups: listGroups,
		list: &listSpec{noun: "node", plural: "nodes", min: 1,
			count: func(a *answers, _ pos) int { return len(a.Pack.Nodes) },
			label: func(a *answers, _ pos, k int) string { return a.Pack.Nodes[k].ID },
			add: func(a *answers, _ pos) {
				a.Pack.Nodes = append(a.Pack.Nodes, scaffold.NewNode(len(a.Pack.Nodes)))
			},
			remove: func(a *answers, _ pos, k int) { a.Pack.Nodes = removeAt(a.Pack.Nodes, k) },
			entry: func(_ pos, k int) func(pos) bool {
				return func(p pos) bool { return p.pg.id == "node" && p.i == k }
			}}})
}

// nodeGroups ask one node: identity, kind and ports.
func nodeGroups(w *wizard, at pos) []*huh.Group {
	k, a, i := w.k, w.a, at.i
	n := &a.Pack.Nodes[i]
	def := scaffold.NewNode(i)
	nk := validate.NodePack
	key := func(f string) string { return fmt.Sprintf("nodes.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/nodes/%d/%s", i, f) }
	id := str{p: &n.ID, def: def.ID}
	return []*huh.Group{
		w.k.group(
			k.reg(k.text(key("id"), "Node id", id, "", "").Description(k.fit("appended to the pack name to form the typeId", descInset)),
				titled("Node id", ptr("typeId"), k.check(nk, ptr("typeId"), func(s string) any { return a.name() + "." + id.value(s).(string) }))),
			k.derived(key("label"), "Label", &n.Label, nk, ptr("label")),
			k.text(key("description"), "Description", str{p: &n.Description, def: def.Description}, nk, ptr("description")),
		),
		w.k.group(
			k.choose(choice{key: key("category"), title: "Category",
				desc: k.help(nk, ptr("category")), opts: k.enum(nk, ptr("category")),
				acc: huh.NewPointerAccessor(&n.Category)}),
			k.choose(choice{key: key("role"), title: "Role",
				desc: k.help(nk, ptr("role")), opts: huh.NewOptions(scaffold.NodeRoles...),
				acc: huh.NewPointerAccessor(&n.Role)}),
			k.multi(key("capabilities"), "Capabilities", k.help(nk, ptr("capabilities")), fixed(k.v.Field(nk, ptr("capabilities")).Enum), &n.Capabilities, ""),
		),
		w.k.group(
			k.text(key("inputs"), "Input ports", list{p: &n.Inputs, def: def.Inputs}, "", "").Description(k.fit("comma-separated names", descInset)),
			k.text(key("outputs"), "Output ports", list{p: &n.Outputs, def: def.Outputs}, "", "").Description(k.fit("comma-separated names", descInset)),
		),
	}
}
