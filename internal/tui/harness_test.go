package tui

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/cursor"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/openwop/wopkit/internal/tui/common"
	"github.com/openwop/wopkit/internal/validate"
)

// updating reports whether -update was given: rewrite the golden files in
// testdata/golden. The flag itself is registered by teatest's golden
// package, which this test binary links.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestMain keeps the tests' keys out of the user's configuration folder:
// a wizard run inside a git checkout (this one) keeps a new key there. It
// starts the real-terminal test's lanes first (startEarly).
func TestMain(m *testing.M) {
	// The tests allocate like the wizard does, a draw for every key, and
	// with Go's default GOGC=100 a fifth of their CPU went to the collector;
	// wopkit itself runs with GOGC=400 (internal/gctune). GOGC set in the
	// environment wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	dir, err := os.MkdirTemp("", "wopkit-tui-config-*")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state")) // drafts (userstate)
	flag.Parse()
	after := startEarly() // the terminal test's lanes, beside the serial tests
	code := m.Run()
	after()
	os.RemoveAll(dir)
	os.Exit(code)
}

// driver runs an app headlessly: it feeds messages to Update and runs the
// returned commands synchronously, as the bubbletea runtime would, until no
// message is left or the program asks to quit.
type driver struct {
	t    *testing.T
	a    *app
	quit bool
}

func newDriver(t *testing.T, s func(*common.Context) screen) *driver {
	t.Helper()
	ctx := common.New(true)
	d := &driver{t: t, a: newApp(ctx, s(ctx))}
	d.run(d.a.Init())
	return d
}

// cmdLimit bounds the wait for one command's message: every command the
// driver runs yields its message (planning, writing and packing take
// seconds on a busy machine), so reaching it means a timer the driver does
// not know, which it names.
const cmdLimit = 2 * time.Minute

var cmdType = reflect.TypeOf((tea.Cmd)(nil))

// timers are the commands that only wait: the text cursor's blink (530 ms,
// re-armed for ever). The driver drops them at once instead of waiting. A
// closure's code pointer is the same for every call of the function that
// makes it.
var timers = map[uintptr]bool{reflect.ValueOf(blinkCmd()).Pointer(): true}

func blinkCmd() tea.Cmd {
	c := cursor.New()
	c.Focus()
	return c.Blink()
}

// run executes cmd and feeds what it yields back in, breadth first, each
// command's message awaited (no fixed waits).
func (d *driver) run(cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 2000 {
			d.t.Fatal("the program does not settle: more than 2000 commands")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil || timers[reflect.ValueOf(c).Pointer()] {
			continue
		}
		done := make(chan tea.Msg, 1)
		go func() { done <- c() }()
		var msg tea.Msg
		select {
		case msg = <-done:
		case <-time.After(cmdLimit):
			d.t.Fatalf("a command yields no message after %v: %s", cmdLimit, runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name())
		}
		if msg == nil {
			continue
		}
		if _, ok := msg.(tea.QuitMsg); ok {
			d.quit = true
			return
		}
		// tea.BatchMsg and tea.Sequence's unexported message are both lists of commands.
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			for i := range v.Len() {
				queue = append(queue, v.Index(i).Interface().(tea.Cmd))
			}
			continue
		}
		_, next := d.a.Update(msg)
		queue = append(queue, next)
	}
}

// send delivers messages one at a time, settling after each.
func (d *driver) send(msgs ...tea.Msg) *driver {
	for _, m := range msgs {
		if d.quit {
			d.t.Fatalf("message %T sent after the program quit", m)
		}
		d.run(func() tea.Msg { return m })
	}
	return d
}

// keys sends key presses: names such as "enter", "ctrl+s", "down", or text
// typed character by character when prefixed with "type:".
func (d *driver) keys(ks ...string) *driver {
	for _, k := range ks {
		if text, ok := strings.CutPrefix(k, "type:"); ok {
			for _, r := range text {
				d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			continue
		}
		d.send(keyMsg(k))
	}
	return d
}

// namedKeys are the keys tests name by word.
var namedKeys = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
	"right": tea.KeyRight, "left": tea.KeyLeft, "backspace": tea.KeyBackspace,
}

func keyMsg(name string) tea.KeyPressMsg {
	if code, ok := namedKeys[name]; ok {
		return tea.KeyPressMsg{Code: code}
	}
	if c, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(name[0]), Text: name}
}

// view is the screen as a terminal shows it, without escape sequences and
// trailing blanks.
func (d *driver) view() string {
	lines := strings.Split(ansi.Strip(d.a.render()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// pkgDir is the package's folder, where testdata is (a test may t.Chdir away).
var pkgDir, _ = os.Getwd()

// golden compares the view with testdata/golden/name.txt (-update rewrites it).
func (d *driver) golden(name string) {
	d.t.Helper()
	path := filepath.Join(pkgDir, "testdata", "golden", name+".txt")
	got := d.view()
	if updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			d.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		d.t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		d.t.Errorf("view differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// copyPack copies testdata/pack into a temporary directory.
func copyPack(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata", "pack", "pack.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "pack.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var testValidator = func() *validate.Validator {
	v, err := validate.New(validate.Options{Placeholders: true})
	if err != nil {
		panic(err)
	}
	return v
}()

func editorOn(t *testing.T, path string) func(*common.Context) screen {
	return func(ctx *common.Context) screen {
		e, err := loadEditor(ctx, testValidator, path)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}
