package wizard

import (
	"strings"

	"github.com/openwop/wopkit/internal/create"
	"github.com/openwop/wopkit/internal/tui/wizard/toward"
)

// towardPR are the commands a finished run's summary ends with (see
// internal/tui/wizard/toward): none for a tool manifest or a standalone
// document.
func towardPR(a *answers, opts session, res create.Result) []string {
	if !a.isPack() {
		return nil
	}
	return toward.Commands(toward.Pack{Name: a.name(), Version: a.Pack.Version, Spec: a.Pack.Spec,
		KeyPrefix: strings.TrimSuffix(strings.TrimSpace(a.keyPathFor("new")), ".key"), Registry: opts.Registry}, res)
}
