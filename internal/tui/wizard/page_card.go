package wizard

import (
	"github.com/openwop/wopkit/internal/kinds"
	"github.com/openwop/wopkit/internal/tui/wizard/ask"

	"fmt"

	"charm.land/huh/v2"

	"github.com/openwop/wopkit/internal/scaffold"
)

// A card pack: the pack's identity (the identity page), then for each card
// its page, its inputs (a page per input and a list page), then the list
// of cards. The scaffold's CardPackAnswers hold the cards; the identity
// answers are the pack's.

func init() {
	askKind(scaffold.KindCard, "card")
	registerList("cards", func(a *answers) int {
		if a.What != scaffold.KindCard {
			return 0
		}
		return len(a.cardPack().Cards)
	})
	card := func(a *answers, i int) *scaffold.CardAnswers { return &a.cardPack().Cards[i] }
	register(&page{id: "card", title: "card", order: declOrder, doc: docPack, each: "cards",
		owns: paths("cards.%d"), groups: cardGroups})
	register(&page{id: "input", title: "card input", order: declOrder, doc: docPack, each: "cards",
		sub:  func(a *answers, i int) int { return len(a.cardPack().Cards[i].Inputs) },
		owns: paths("cards.%d.inputs.%d"), groups: cardInputGroups})
	register(&page{id: "inputs", title: "card inputs", order: declOrder, doc: docPack, each: "cards",
		owns: paths("cards.%d.inputs"), groups: listGroups,
		list: entryList("input", "inputs", "input", 0, card,
			func(c *scaffold.CardAnswers) int { return len(c.Inputs) },
			func(c *scaffold.CardAnswers, k int) string { return c.Inputs[k].ID + " (" + c.Inputs[k].Type + ")" },
			func(c *scaffold.CardAnswers) {
				c.Inputs = append(c.Inputs, scaffold.CardInputAnswers{ID: fmt.Sprintf("input%d", len(c.Inputs)+1),
					Type: scaffold.CardInputTypes()[0], Options: []string{}})
			},
			func(c *scaffold.CardAnswers, k int) { c.Inputs = removeAt(c.Inputs, k) })})
	register(&page{id: "cards", title: "cards", order: declOrder, doc: docPack, owns: paths("cards"),
		when: func(a *answers, _ pos) bool { return a.What == scaffold.KindCard }, groups: listGroups,
		list: &listSpec{noun: "card", plural: "cards", min: 1,
			count: func(a *answers, _ pos) int { return len(a.cardPack().Cards) },
			label: func(a *answers, _ pos, k int) string { return a.cardPack().Cards[k].ID },
			add: func(a *answers, _ pos) {
				c := scaffold.CardAnswers{}.Defaults()
				c.ID = fmt.Sprintf("card%d", len(a.cardPack().Cards)+1)
				a.cardPack().Cards = append(a.cardPack().Cards, c)
			},
			remove: func(a *answers, _ pos, k int) { a.cardPack().Cards = removeAt(a.cardPack().Cards, k) },
			entry:  entryOf("card")}})
}

// cardPack is the answers of a card pack.
func (a *answers) cardPack() *scaffold.CardPackAnswers {
	return declaredOf[scaffold.CardPackAnswers](a, scaffold.KindCard)
}

func cardGroups(w *wizard, at pos) []*huh.Group {
	k, c := w.k, &w.a.cardPack().Cards[at.i]
	key := func(f string) string { return fmt.Sprintf("cards.%d.%s", at.i, f) }
	text := ask.Pointed(k, kinds.CardPack, scaffold.CardFieldPointer)
	return []*huh.Group{
		w.k.Group(
			qualified(w, kinds.CardPack, key("id"), "Card id", ask.Str{P: &c.ID, Def: c.ID}, fmt.Sprintf("/cards/%d/cardTypeId", at.i)).
				Description(k.Fit("appended to the pack name to form the cardTypeId", ask.DescInset)),
			text(key("systemPrompt"), "System prompt", ask.Str{P: &c.SystemPrompt, Def: c.SystemPrompt}),
			k.Long(key("template"), "Template", "the prompt; {{id}} is an input's slot, each input has one",
				ask.Str{P: &c.Template, Def: c.Template}, kinds.CardPack, scaffold.CardFieldPointer(key("template"))),
		),
		w.k.Group(
			ask.Omittable(k, key("temperature"), "Temperature", &c.Temperature, kinds.CardPack, scaffold.CardFieldPointer(key("temperature"))),
			k.Optional(key("outputArtifactType"), "Output artifact type", &c.Output, kinds.CardPack, scaffold.CardFieldPointer(key("outputArtifactType"))).
				Placeholder("(optional)"),
		),
	}
}

func cardInputGroups(w *wizard, at pos) []*huh.Group {
	k, in := w.k, &w.a.cardPack().Cards[at.i].Inputs[at.j]
	key := func(f string) string { return fmt.Sprintf("cards.%d.inputs.%d.%s", at.i, at.j, f) }
	text := ask.Pointed(k, kinds.CardPack, scaffold.CardFieldPointer)
	return []*huh.Group{w.k.Group(
		text(key("id"), "Input id", ask.Str{P: &in.ID, Def: in.ID}).Description(k.Fit("the template uses it as {{id}}", ask.DescInset)),
		k.Choose(ask.Choice{Key: key("type"), Title: "Type",
			Desc: k.Help(kinds.CardPack, scaffold.CardFieldPointer(key("type"))),
			Opts: huh.NewOptions(ask.WithCurrent(scaffold.CardInputTypes(), in.Type)...),
			Acc:  huh.NewPointerAccessor(&in.Type)}),
		text(key("label"), "Label", ask.Str{P: &in.Label, Def: in.Label}),
		k.Yes(key("required"), "Required?", huh.NewPointerAccessor(&in.Required)),
		// the options before the default, which a select's must be one of
		text(key("options"), "Options", ask.List{P: &in.Options, Def: in.Options}).Description(k.Fit("a select's choices, comma-separated", ask.DescInset)),
		k.Optional(key("default"), "Default", &in.Default, "", "").Placeholder("(optional, read as the type: a number, true, a, b)"),
	)}
}
