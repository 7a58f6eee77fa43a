package scaffold

import (
	"slices"
	"strings"

	"github.com/openwop/wopkit/internal/placeholder"
)

// secretWords are the last words of a variable name that holds a
// credential (API_KEY, GITHUB_TOKEN, CLIENT_SECRET, DB_PASSWORD, ...).
var secretWords = []string{"KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "CREDENTIAL", "CREDENTIALS", "PAT"}

// SecretName reports whether a variable named name holds a credential:
// its last word (after the last underscore, a trailing number skipped) is
// KEY, TOKEN, SECRET, PASSWORD or the like, in any letter case, or a word
// of it is SECRET or PASSWORD (CLIENT_SECRET_VALUE). ACCESS_KEY_ID and
// TOKEN_URL are not.
func SecretName(name string) bool {
	words := strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	if n := len(words); n > 1 && strings.Trim(words[n-1], "0123456789") == "" {
		words = words[:n-1]
	}
	if len(words) == 0 {
		return false
	}
	return slices.Contains(secretWords, words[len(words)-1]) ||
		slices.Contains(words, "SECRET") || slices.Contains(words, "PASSWORD")
}

// EnvPrompt is the prompt of a variable named name when none is given.
func EnvPrompt(name string) string { return placeholder.EnvPrompt(name) }

// PromptText is the prompt the owner sees: the one given, else the one
// its name gives (EnvPrompt).
func (e EnvAnswers) PromptText() string {
	if strings.TrimSpace(e.Prompt) == "" {
		return EnvPrompt(e.Name)
	}
	return e.Prompt
}

// IsSecret is whether the variable is a secret: as given, else as its
// name says (SecretName).
func (e EnvAnswers) IsSecret() bool {
	if e.Secret == nil {
		return SecretName(e.Name)
	}
	return *e.Secret
}

// SetSecret records the secret flag an author gives; the flag the name
// implies is left derived (nil), so that it follows a new name.
func (e *EnvAnswers) SetSecret(secret bool) {
	if secret == SecretName(e.Name) {
		e.Secret = nil
		return
	}
	e.Secret = &secret
}

// resolved is the variable with its derived prompt and secret flag filled in.
func (e EnvAnswers) resolved() envDoc {
	return envDoc{Name: e.Name, Prompt: e.PromptText(), Secret: e.IsSecret(), Required: e.Required}
}
