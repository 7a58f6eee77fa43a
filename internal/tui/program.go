package tui

import (
	"context"
	"errors"
	"io"

	tea "charm.land/bubbletea/v2"

	"github.com/openwop/wopkit/internal/validate"
	"github.com/openwop/wopkit/internal/werr"
)

// ValidatorOr is v, or the checks the wizard and the editor use when the
// caller gives none (placeholders reported).
func ValidatorOr(v *validate.Validator) (*validate.Validator, error) {
	if v != nil {
		return v, nil
	}
	return validate.New(validate.Options{Placeholders: true})
}

// Run drives a program (the app) to its end on the terminal, or on in
// and out when given.
func Run(ctx context.Context, m tea.Model, in io.Reader, out io.Writer) error {
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if in != nil {
		opts = append(opts, tea.WithInput(in))
	}
	if out != nil {
		opts = append(opts, tea.WithOutput(out))
	}
	if _, err := tea.NewProgram(m, opts...).Run(); err != nil {
		if errors.Is(err, tea.ErrInterrupted) || errors.Is(err, context.Canceled) {
			return nil
		}
		return werr.Wrap(werr.Env, "terminal_failed", err, "the terminal UI stopped").
			WithHint("run in a terminal at least 40x10, or use the non-interactive commands")
	}
	return nil
}
