package ask

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/werr"
)

// byteReader reads one byte at a time, so that each prompt's line reader
// takes only its line from a pipe, notes the end of the input, and hands
// each line read to the transcript.
type Lines struct {
	R    io.Reader
	T    *Transcript
	EOF  bool
	line []byte
}

func (b *Lines) Read(p []byte) (int, error) {
	if len(p) > 1 {
		p = p[:1]
	}
	n, err := b.R.Read(p)
	if n == 1 {
		if p[0] == '\n' {
			b.T.answered(strings.TrimSuffix(string(b.line), "\r"))
			b.line = b.line[:0]
		} else {
			b.line = append(b.line, p[0])
		}
	}
	if err == io.EOF {
		b.EOF = true
		b.T.ended()
	}
	return n, err
}

// inputIsTerminal reports whether the answers are typed on a terminal
// (else they come from a pipe or a file).
var IsTerminal = func(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Transcript is the accessible prompts' output. With answers from a pipe
// it echoes each answer after its question, so that a log reads as a
// transcript, and stops the prompts at an answer they refuse (huh's
// prompts would print why and read the next line, the next question's
// answer) or at the end of the input (where they would go on with the
// suggestions). huh's prompts loop until an answer is taken and offer no
// way out, so the transcript stops them with a panic (stopped) that run
// recovers.
type Transcript struct {
	Out     io.Writer
	Pipe    bool
	asked   strings.Builder // what was written since the last answer taken: the question
	answer  string
	pending bool  // an answer was read: the next write says whether it was taken
	stop    error // why the prompts were stopped
}

// stopped is the panic with which the transcript stops huh's prompts.
type stopped struct{}

// refusal is an answer from a pipe that a prompt refused.
type refusal struct{ question, answer, why string }

func (r *refusal) Error() string { return r.why }

// errEnded: the input ended before the questions did.
var errEnded = errors.New("the answers ended")

// answered is told of each line read: from a pipe it is echoed, and the
// next write says whether the prompt took it (a new line) or refused it
// (why).
func (t *Transcript) answered(line string) {
	if !t.Pipe {
		return
	}
	fmt.Fprintln(t.Out, line)
	t.answer, t.pending = line, true
}

// ended is told of the end of the input: from a pipe it ends the line of
// the question left unanswered and stops the prompts.
func (t *Transcript) ended() {
	if t.Pipe {
		fmt.Fprintln(t.Out)
		t.stop = errEnded
		panic(stopped{})
	}
}

func (t *Transcript) Write(p []byte) (int, error) {
	if t.pending {
		t.pending = false
		if string(p) != "\n" {
			t.stop = &refusal{question: t.question(), answer: t.answer, why: strings.TrimSpace(ansi.Strip(string(p)))}
			panic(stopped{})
		}
		t.asked.Reset()
	}
	t.asked.Write(p)
	return t.Out.Write(p)
}

// question is the first line of what was asked since the last answer: an
// input's title (with its suggestion), a choice's title above its options.
func (t *Transcript) question() string {
	// A prompt's help and a suggestion of several lines are printed
	// indented, before or after its title: the question is its first line
	// that is not indented (or, failing that, its first line).
	first := ""
	for _, l := range strings.Split(ansi.Strip(t.asked.String()), "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if l[0] != ' ' && l[0] != '\t' {
			return strings.TrimSpace(l)
		}
		if first == "" {
			first = strings.TrimSpace(l)
		}
	}
	return first
}

// Run runs a form's prompts; an error says why they were stopped.
func (t *Transcript) Run(prompts func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stopped); !ok {
				panic(r)
			}
			err = t.stop
		}
	}()
	t.asked.Reset()
	t.pending, t.stop = false, nil
	return prompts()
}

// Fail is the error of prompts stopped on page.
func (t *Transcript) Fail(err error, page string) error {
	var r *refusal
	switch {
	case errors.As(err, &r):
		return werr.New(werr.Invalid, "prompt_answer_refused", "%s, %q: the answer %q was refused: %s", page, r.question, r.answer, r.why).
			WithHint("answers read from a pipe are not asked again, since the next line answers the next question: fix that line and run again; an empty line keeps the suggestion")
	case errors.Is(err, errEnded):
		return Ended(page)
	}
	return werr.Wrap(werr.Env, "prompt_aborted", err, "the questions stopped").
		WithHint("run wopkit new again, or use --yes with --set to answer without prompts")
}

// Ended is the error of an input that ends before the questions do.
func Ended(page string) error {
	return werr.New(werr.Invalid, "prompt_input_ended", "the answers ended before the questions (at %q)", page).
		WithHint("give one line per question (an empty line keeps the suggestion)")
}

// SecretLine reads one line from r a byte at a time (the answers after it
// stay unread), without handing it to the transcript.
func SecretLine(r io.Reader) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for {
		n, err := r.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				return strings.TrimSuffix(string(b), "\r"), nil
			}
			b = append(b, one[0])
		}
		if err == io.EOF && len(b) > 0 {
			return string(b), nil
		}
		if err != nil {
			return "", err
		}
	}
}

// extraLimit bounds what Extra reads of the input left after the last
// question.
const extraLimit = 64 << 10

// Extra reads what is left of a piped input once every question is
// answered and says how many of its lines are not blank, and the first of
// them: answers the questions never took (a line too many, or one that
// answered a question other than the one meant). It waits at most wait for
// input that is not there yet (a script that feeds answers one by one and
// keeps the pipe open), and reads at most 64 KiB.
func (b *Lines) Extra(wait time.Duration) (n int, first string) {
	type result struct {
		n     int
		first string
	}
	done := make(chan result, 1)
	go func() {
		var r result
		var line []byte
		one := make([]byte, 1)
		end := func() {
			if s := strings.TrimSpace(string(line)); s != "" {
				if r.n == 0 {
					r.first = s
				}
				r.n++
			}
			line = line[:0]
		}
		for read := 0; read < extraLimit; read++ {
			k, err := b.R.Read(one)
			if k == 1 {
				if one[0] == '\n' {
					end()
				} else {
					line = append(line, one[0])
				}
			}
			if err != nil {
				break
			}
		}
		end()
		done <- r
	}()
	select {
	case r := <-done:
		return r.n, r.first
	case <-time.After(wait):
		return 0, "" // nothing more came: a script still holding the pipe open
	}
}
