// Package tuitest drives the terminal UI headlessly for the wizard's and the
// editor's tests: a Driver feeds messages to the app router (internal/tui)
// and runs the commands they return synchronously, as the bubbletea runtime
// would, and compares what the screen shows with golden files. It holds no
// test of its own; only test files import it.
package tuitest

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
	_ "github.com/charmbracelet/x/exp/golden" // registers -update, which Golden reads

	"github.com/openwop/wopkit/internal/tui"
	"github.com/openwop/wopkit/internal/tui/common"
)

// updating reports whether -update was given: rewrite the golden files in
// testdata/golden. The flag itself is registered by the golden package,
// imported above.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Driver runs an app headlessly: it feeds messages to Update and runs the
// returned commands synchronously, as the bubbletea runtime would, until no
// message is left or the program asks to quit.
type Driver struct {
	T    testing.TB // the test it reports to
	App  *tui.App   // the router, its screens on top of one another
	Quit bool       // the program asked to quit
}

// New starts an app on the screen first builds (plain: no colour).
func New(t testing.TB, first func(*common.Context) tui.Screen) *Driver {
	t.Helper()
	ctx := common.New(true)
	d := &Driver{T: t, App: tui.NewApp(ctx, first(ctx))}
	d.Run(d.App.Init())
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

// Run executes cmd and feeds what it yields back in, breadth first, each
// command's message awaited (no fixed waits).
func (d *Driver) Run(cmd tea.Cmd) {
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 2000 {
			d.T.Fatal("the program does not settle: more than 2000 commands")
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
			d.T.Fatalf("a command yields no message after %v: %s", cmdLimit, runtime.FuncForPC(reflect.ValueOf(c).Pointer()).Name())
		}
		if msg == nil {
			continue
		}
		if _, ok := msg.(tea.QuitMsg); ok {
			d.Quit = true
			return
		}
		// tea.BatchMsg and tea.Sequence's unexported message are both lists of commands.
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			for i := range v.Len() {
				queue = append(queue, v.Index(i).Interface().(tea.Cmd))
			}
			continue
		}
		_, next := d.App.Update(msg)
		queue = append(queue, next)
	}
}

// Send delivers messages one at a time, settling after each.
func (d *Driver) Send(msgs ...tea.Msg) *Driver {
	for _, m := range msgs {
		if d.Quit {
			d.T.Fatalf("message %T sent after the program quit", m)
		}
		d.Run(func() tea.Msg { return m })
	}
	return d
}

// Keys sends key presses: names such as "enter", "ctrl+s", "down", or text
// typed character by character when prefixed with "type:".
func (d *Driver) Keys(ks ...string) *Driver {
	for _, k := range ks {
		if text, ok := strings.CutPrefix(k, "type:"); ok {
			for _, r := range text {
				d.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
			}
			continue
		}
		d.Send(Key(k))
	}
	return d
}

// namedKeys are the keys tests name by word.
var namedKeys = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "up": tea.KeyUp, "down": tea.KeyDown,
	"right": tea.KeyRight, "left": tea.KeyLeft, "backspace": tea.KeyBackspace,
}

// Key is the key press a name says: "enter", "ctrl+b", "x".
func Key(name string) tea.KeyPressMsg {
	if code, ok := namedKeys[name]; ok {
		return tea.KeyPressMsg{Code: code}
	}
	if c, ok := strings.CutPrefix(name, "ctrl+"); ok {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(name[0]), Text: name}
}

// View is the screen as a terminal shows it, without escape sequences and
// trailing blanks.
func (d *Driver) View() string {
	lines := strings.Split(ansi.Strip(d.App.Render()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}

// pkgDir is the test's package folder, where testdata is (a test may
// t.Chdir away).
var pkgDir, _ = os.Getwd()

// Golden compares the view with testdata/golden/name.txt in the test's
// package (-update rewrites it).
func (d *Driver) Golden(name string) {
	d.T.Helper()
	path := filepath.Join(pkgDir, "testdata", "golden", name+".txt")
	got := d.View()
	if updating() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			d.T.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		d.T.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		d.T.Errorf("view differs from %s:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// Main is the TestMain of the terminal UI's packages: GOGC=400 as wopkit
// itself runs (internal/gctune; GOGC set in the environment wins: the tests
// allocate like the wizard, a draw for every key, and at GOGC=100 a fifth
// of their CPU went to the collector), the tests' keys and drafts kept out
// of the user's folders (XDG_CONFIG_HOME and XDG_STATE_HOME in a temporary
// folder: a wizard run inside a git checkout keeps a new key there), flags
// parsed, then early (when not nil) started before the tests and the
// function it returns run after them.
func Main(m *testing.M, early func() func()) {
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
	after := func() {}
	if early != nil {
		after = early()
	}
	code := m.Run()
	after()
	os.RemoveAll(dir)
	os.Exit(code)
}
