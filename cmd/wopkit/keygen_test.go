package main

import (
	"bytes"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openwop/wopkit/internal/sign"
	"github.com/openwop/wopkit/internal/werr"
)

// fakeTerminal answers keygen's passphrase prompts in order, recording them.
type fakeTerminal struct {
	answers []string
	prompts []string
}

func (f *fakeTerminal) read(prompt string) ([]byte, error) {
	f.prompts = append(f.prompts, prompt)
	if len(f.answers) == 0 {
		return nil, werr.New(werr.Env, "key_passphrase_unavailable", "no more answers")
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	return []byte(a), nil
}

// keygenOn runs keygen with its prompts answered by term (nil: stdin is
// not a terminal).
func keygenOn(t *testing.T, term *fakeTerminal, args ...string) (string, string, error) {
	t.Helper()
	return keygenEnv(t, term, nil, args...)
}

// keygenEnv is keygenOn with the environment env (nil: empty).
func keygenEnv(t *testing.T, term *fakeTerminal, env map[string]string, args ...string) (string, string, error) {
	t.Helper()
	var secret sign.ReadSecret
	if term != nil {
		secret = term.read
	}
	cmd := newKeygenCmdWith(secret, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return out.String(), errOut.String(), err
}

// pemType is the PEM block type of the key file.
func pemType(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	blk, _ := pem.Decode(b)
	if blk == nil {
		t.Fatalf("%s holds no PEM", p)
	}
	return blk.Type
}

func TestKeygenAsksForAPassphraseOnATerminal(t *testing.T) {
	t.Parallel()
	t.Run("typed twice: encrypted", func(t *testing.T) {
		t.Parallel()
		prefix := filepath.Join(t.TempDir(), "acme")
		term := &fakeTerminal{answers: []string{"s3cret pass", "s3cret pass"}}
		out, errOut, err := keygenOn(t, term, "--out", prefix)
		if err != nil {
			t.Fatal(err)
		}
		if len(term.prompts) != 2 || !strings.Contains(term.prompts[1], "Repeat") {
			t.Errorf("prompts %q", term.prompts)
		}
		if got := pemType(t, prefix+".key"); got != "ENCRYPTED PRIVATE KEY" {
			t.Errorf("key PEM %q", got)
		}
		if st, err := os.Stat(prefix + ".key"); err != nil || (st.Mode().Perm() != 0o600 && os.PathSeparator == '/') {
			t.Errorf("key mode %v %v", st, err)
		}
		if !strings.Contains(out, "encrypted") || strings.Contains(out+errOut, "s3cret") || strings.Contains(out+errOut, "PRIVATE KEY") {
			t.Errorf("output %q %q", out, errOut)
		}
		// Signing opens it with the passphrase, and not without.
		if _, err := sign.LoadPrivateKey(prefix+".key", func() ([]byte, error) { return []byte("s3cret pass"), nil }); err != nil {
			t.Errorf("open with the passphrase: %v", err)
		}
		if _, err := sign.LoadPrivateKey(prefix+".key", func() ([]byte, error) { return []byte("wrong"), nil }); err == nil {
			t.Error("opened with a wrong passphrase")
		}
	})
	t.Run("empty answer: unencrypted, said", func(t *testing.T) {
		t.Parallel()
		prefix := filepath.Join(t.TempDir(), "acme")
		term := &fakeTerminal{answers: []string{""}}
		_, errOut, err := keygenOn(t, term, "--out", prefix)
		if err != nil {
			t.Fatal(err)
		}
		if len(term.prompts) != 1 || pemType(t, prefix+".key") != "PRIVATE KEY" || !strings.Contains(errOut, "unencrypted") {
			t.Errorf("prompts %q, stderr %q", term.prompts, errOut)
		}
	})
	t.Run("two different answers: refused, nothing written", func(t *testing.T) {
		t.Parallel()
		prefix := filepath.Join(t.TempDir(), "acme")
		_, _, err := keygenOn(t, &fakeTerminal{answers: []string{"one", "two"}}, "--out", prefix)
		if werr.CodeOf(err) != "key_passphrase_mismatch" {
			t.Errorf("%v, want key_passphrase_mismatch", err)
		}
		if _, err := os.Stat(prefix + ".key"); err == nil {
			t.Error("a key was written")
		}
	})
	t.Run("--no-passphrase: nothing asked", func(t *testing.T) {
		t.Parallel()
		prefix := filepath.Join(t.TempDir(), "acme")
		term := &fakeTerminal{}
		_, errOut, err := keygenOn(t, term, "--out", prefix, "--no-passphrase")
		if err != nil || len(term.prompts) != 0 || pemType(t, prefix+".key") != "PRIVATE KEY" || errOut != "" {
			t.Errorf("%v, prompts %q, stderr %q", err, term.prompts, errOut)
		}
	})
	t.Run("no terminal: nothing asked, a note", func(t *testing.T) {
		t.Parallel()
		prefix := filepath.Join(t.TempDir(), "acme")
		_, errOut, err := keygenOn(t, nil, "--out", prefix)
		if err != nil || pemType(t, prefix+".key") != "PRIVATE KEY" || !strings.Contains(errOut, "not encrypted") {
			t.Errorf("%v, stderr %q", err, errOut)
		}
		prefix = filepath.Join(t.TempDir(), "ci")
		if _, errOut, err := keygenOn(t, nil, "--out", prefix, "--no-passphrase"); err != nil || errOut != "" {
			t.Errorf("--no-passphrase with no terminal: %v, stderr %q", err, errOut)
		}
	})
	t.Run("both flags", func(t *testing.T) {
		t.Parallel()
		_, _, err := keygenOn(t, &fakeTerminal{}, "--out", filepath.Join(t.TempDir(), "k"), "--passphrase", "--no-passphrase")
		if werr.CodeOf(err) != "usage" {
			t.Errorf("%v, want usage", err)
		}
	})
}

// --passphrase without the environment variable asks on the terminal, and
// an empty answer is refused there (the flag asks for an encrypted key).
func TestKeygenPassphraseFlagAsks(t *testing.T) {
	t.Parallel()
	prefix := filepath.Join(t.TempDir(), "acme")
	if _, _, err := keygenOn(t, &fakeTerminal{answers: []string{"pw", "pw"}}, "--out", prefix, "--passphrase"); err != nil {
		t.Fatal(err)
	}
	if pemType(t, prefix+".key") != "ENCRYPTED PRIVATE KEY" {
		t.Error("not encrypted")
	}
	_, _, err := keygenOn(t, &fakeTerminal{answers: []string{""}}, "--out", filepath.Join(t.TempDir(), "e"), "--passphrase")
	if werr.CodeOf(err) != "key_passphrase_empty" {
		t.Errorf("%v, want key_passphrase_empty", err)
	}
}

// On a terminal, WOPKIT_KEY_PASSPHRASE is the passphrase when set, as it is
// for signing: nothing is asked; set empty, the key is unencrypted, said.
// With --passphrase and no terminal, only the variable can give it.
func TestKeygenPassphraseFromTheEnvironment(t *testing.T) {
	t.Parallel()
	prefix := filepath.Join(t.TempDir(), "acme")
	term := &fakeTerminal{}
	_, errOut, err := keygenEnv(t, term, map[string]string{sign.PassphraseEnv: "from env"}, "--out", prefix)
	if err != nil || len(term.prompts) != 0 || pemType(t, prefix+".key") != "ENCRYPTED PRIVATE KEY" || strings.Contains(errOut, "from env") {
		t.Fatalf("%v, prompts %q, stderr %q", err, term.prompts, errOut)
	}
	if _, err := sign.LoadPrivateKey(prefix+".key", func() ([]byte, error) { return []byte("from env"), nil }); err != nil {
		t.Errorf("open with the variable's passphrase: %v", err)
	}
	prefix = filepath.Join(t.TempDir(), "empty")
	_, errOut, err = keygenEnv(t, term, map[string]string{sign.PassphraseEnv: ""}, "--out", prefix)
	if err != nil || len(term.prompts) != 0 || pemType(t, prefix+".key") != "PRIVATE KEY" || !strings.Contains(errOut, "unencrypted") {
		t.Errorf("%v, prompts %q, stderr %q", err, term.prompts, errOut)
	}
	_, _, err = keygenEnv(t, nil, nil, "--out", filepath.Join(t.TempDir(), "k"), "--passphrase")
	if werr.CodeOf(err) != "key_passphrase_unavailable" {
		t.Errorf("--passphrase, no terminal, no variable: %v", err)
	}
	prefix = filepath.Join(t.TempDir(), "ci")
	if _, _, err := keygenEnv(t, nil, map[string]string{sign.PassphraseEnv: "ci pass"}, "--out", prefix, "--passphrase"); err != nil || pemType(t, prefix+".key") != "ENCRYPTED PRIVATE KEY" {
		t.Errorf("--passphrase from the variable with no terminal: %v", err)
	}
}

// Issue 44 item 5: an existing PREFIX.key is refused before any prompt.
func TestKeygenRefusesExistingBeforeAsking(t *testing.T) {
	t.Parallel()
	prefix := filepath.Join(t.TempDir(), "acme")
	os.WriteFile(prefix+".key", []byte("mine"), 0o600)
	term := &fakeTerminal{answers: []string{"a", "a"}}
	_, _, err := keygenOn(t, term, "--out", prefix)
	if werr.CodeOf(err) != "key_exists" || len(term.prompts) != 0 {
		t.Errorf("err %v after prompts %q: want key_exists before any prompt", err, term.prompts)
	}
	if b, _ := os.ReadFile(prefix + ".key"); string(b) != "mine" {
		t.Errorf("the existing key was replaced: %q", b)
	}
}
