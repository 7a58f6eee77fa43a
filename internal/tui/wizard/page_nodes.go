package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"fmt"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
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
	nk := kinds.NodePack
	key := func(f string) string { return fmt.Sprintf("nodes.%d.%s", i, f) }
	ptr := func(f string) string { return fmt.Sprintf("/nodes/%d/%s", i, f) }
	id := ask.Str{P: &n.ID, Def: def.ID}
	return []*huh.Group{
		w.k.Group(
			k.Reg(k.Text(key("id"), "Node id", id, "", "").Description(k.Fit("appended to the pack name to form the typeId", ask.DescInset)),
				ask.Titled("Node id", ptr("typeId"), k.Check(nk, ptr("typeId"), func(s string) any { return a.name() + "." + id.Value(s).(string) }))),
			k.Derived(key("label"), "Label", &n.Label, nk, ptr("label")),
			k.Text(key("description"), "Description", ask.Str{P: &n.Description, Def: def.Description}, nk, ptr("description")),
		),
		w.k.Group(
			k.Choose(ask.Choice{Key: key("category"), Title: "Category",
				Desc: k.Help(nk, ptr("category")), Opts: k.Enum(nk, ptr("category")),
				Acc: huh.NewPointerAccessor(&n.Category)}),
			k.Choose(ask.Choice{Key: key("role"), Title: "Role",
				Desc: k.Help(nk, ptr("role")), Opts: huh.NewOptions(scaffold.NodeRoles...),
				Acc: huh.NewPointerAccessor(&n.Role)}),
			k.Multi(key("capabilities"), "Capabilities", k.Help(nk, ptr("capabilities")), ask.Fixed(k.V.Field(nk, ptr("capabilities")).Enum), &n.Capabilities, ""),
		),
		w.k.Group(
			k.Text(key("inputs"), "Input ports", ask.List{P: &n.Inputs, Def: def.Inputs}, "", "").Description(k.Fit("comma-separated names", ask.DescInset)),
			k.Text(key("outputs"), "Output ports", ask.List{P: &n.Outputs, Def: def.Outputs}, "", "").Description(k.Fit("comma-separated names", ask.DescInset)),
		),
	}
}
