package scaffold

import (
	"slices"
	"testing"
)

// Issue 17: a multi-select's choices that depend on other answers come
// from the current answers, not the suggestions the page started with.
func TestChoicesFollowAnswers(t *testing.T) {
	t.Parallel()
	a := ArtifactTypeAnswers{}.Defaults()
	a.Properties = []string{"title", " body", "", "title"}
	if got := a.RequiredChoices(); !slices.Equal(got, []string{"title", "body"}) {
		t.Errorf("RequiredChoices = %q", got)
	}
	tool := ToolAnswers{Scopes: []ScopeAnswers{{Resource: "net.outbound"}, {Resource: "gmail.messages"}}}
	if got := tool.ScopeChoices(); !slices.Equal(got, []string{"net.outbound", "gmail.messages"}) {
		t.Errorf("ScopeChoices = %q", got)
	}
	c := ChainAnswers{Parameters: []ParamAnswers{{Name: "url"}, {Name: "lang"}}}
	if got := c.ParamChoices(); !slices.Equal(got, []string{"url", "lang"}) {
		t.Errorf("ParamChoices = %q", got)
	}
	kept, dropped := Ticked([]string{"title", "summary"}, a.RequiredChoices())
	if !slices.Equal(kept, []string{"title"}) || !slices.Equal(dropped, []string{"summary"}) {
		t.Errorf("Ticked = %q, %q", kept, dropped)
	}
	if kept, _ := Ticked(nil, nil); kept == nil {
		t.Error("Ticked keeps nil: an answer written as null")
	}
}
