//go:build linux

package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/openwop/wopkit/internal/proctest"
	"github.com/openwop/wopkit/internal/testwait"
)

// probeEnv makes the test binary, started inside the sandbox, run one probe
// (see probe) instead of the tests.
const probeEnv = "SANDBOX_TEST_PROBE"

// runnerEnv makes the test binary run `sleep TAG` in the sandbox and wait
// to be killed (TestParentDeathKillsProgram); its value is TAG, then
// ",ns" or ",nons".
const runnerEnv = "SANDBOX_TEST_RUNNER"

func runner(v string) {
	tag, mode, _ := strings.Cut(v, ",")
	namespacesOff.Store(mode != "ns")
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		os.Exit(2)
	}
	err = Run(context.Background(), &Cmd{Path: sleep, Args: []string{tag}, Env: []string{}, Limits: Limits{Timeout: time.Minute}})
	fmt.Println("Run returned:", err)
	os.Exit(1)
}

func TestMain(m *testing.M) {
	if p := os.Getenv(probeEnv); p != "" {
		probe(p, os.Args[1:])
		os.Exit(0)
	}
	if tag := os.Getenv(runnerEnv); tag != "" {
		runner(tag)
	}
	os.Exit(m.Run())
}

// probe is what a hostile program tries; it prints one line per attempt.
func probe(what string, args []string) {
	switch what {
	case "hello":
		fmt.Println("hello from", os.Getpid())
	case "net":
		for _, fam := range []int{syscall.AF_INET, syscall.AF_INET6, syscall.AF_UNIX, syscall.AF_NETLINK} {
			_, err := syscall.Socket(fam, syscall.SOCK_STREAM, 0)
			fmt.Printf("socket %d: %v\n", fam, err)
		}
		_, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_DGRAM, 0)
		fmt.Printf("socketpair: %v\n", err)
		for _, a := range args {
			c, err := net.DialTimeout(map[bool]string{true: "unix", false: "tcp"}[strings.HasPrefix(a, "/")], a, time.Second)
			if err == nil {
				c.Write([]byte("SECRET"))
				c.Close()
			}
			fmt.Printf("dial %s: %v\n", a, err)
		}
	case "signals":
		// args: the test process (sent the harmless SIGWINCH, so that a
		// leak shows as a nil error without stopping the test), then victims.
		for i, a := range args {
			pid, _ := strconv.Atoi(a)
			if pid <= 1 {
				continue
			}
			sig := syscall.SIGKILL
			if i == 0 {
				sig = syscall.SIGWINCH
			}
			fmt.Printf("kill %d: %v\n", pid, syscall.Kill(pid, sig))
			fmt.Printf("tgkill %d: %v\n", pid, tgkill(pid, pid, sig))
			fmt.Printf("rt_sigqueueinfo %d: %v\n", pid, sigqueue(pid, sig))
		}
		// Signal 0 only checks: were the filter missing, this must not
		// reach every process of the user.
		fmt.Printf("kill -1: %v\n", syscall.Kill(-1, 0))
		fmt.Printf("kill self 0: %v\n", syscall.Kill(os.Getpid(), 0))
		_, err := syscall.Setsid()
		fmt.Printf("setsid: %v\n", err)
		fmt.Printf("setpgid: %v\n", syscall.Setpgid(0, 0))
		fmt.Printf("unshare: %v\n", syscall.Unshare(syscall.CLONE_NEWUSER))
		_, _, e := syscall.RawSyscall(sysIoUringSetup, 1, 0, 0)
		fmt.Printf("io_uring_setup: %v\n", e)
		// Lowering a limit is always allowed outside: refused here, as is
		// raising one (which root could do).
		var lim syscall.Rlimit
		if err := syscall.Getrlimit(syscall.RLIMIT_CORE, &lim); err != nil {
			fmt.Printf("getrlimit failed: %v\n", err)
		}
		fmt.Printf("setrlimit: %v\n", syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: 64, Max: 64}))
	case "escape":
		// A child that would outlive the program, then a busy loop.
		c := exec.Command("sleep", args[0])
		c.Start()
		fmt.Println("started", c.Process.Pid)
		for spins := 0; ; spins++ { // busy
		}
	case "memory":
		var keep [][]byte
		for i := 0; i < 64; i++ {
			b := make([]byte, 32<<20)
			for j := range b {
				b[j] = 1
			}
			keep = append(keep, b)
			fmt.Println("MiB", (i+1)*32)
		}
		runtime.KeepAlive(keep)
	}
}

func sigqueue(pid int, sig syscall.Signal) error {
	var info [128]byte
	info[0] = byte(sig)
	info[8] = 0xff // si_code SI_QUEUE (-1), little-endian
	info[9], info[10], info[11] = 0xff, 0xff, 0xff
	_, _, e := syscall.RawSyscall(syscall.SYS_RT_SIGQUEUEINFO, uintptr(pid), uintptr(sig), uintptr(unsafe.Pointer(&info[0])))
	if e != 0 {
		return e
	}
	return nil
}

func tgkill(tgid, tid int, sig syscall.Signal) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_TGKILL, uintptr(tgid), uintptr(tid), uintptr(sig))
	if e != 0 {
		return e
	}
	return nil
}

// runProbe runs the test binary's probe in the sandbox, with and without
// namespaces (ns).
func runProbe(t *testing.T, ns bool, what string, lim Limits, args ...string) (string, error) {
	t.Helper()
	if err := Supported(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	namespacesOff.Store(!ns)
	t.Cleanup(func() { namespacesOff.Store(false) })
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	// A generous ceiling: Run returns its context's error, not what the
	// test expects, if the program is still there when it passes.
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Ceiling)
	defer cancel()
	err = Run(ctx, &Cmd{Path: exe, Args: args, Dir: t.TempDir(), Env: []string{probeEnv + "=" + what, "PATH=/usr/bin:/bin"},
		Stdout: &out, Stderr: &out, Limits: lim})
	return out.String(), err
}

func eachMode(t *testing.T, f func(t *testing.T, ns bool)) {
	for _, ns := range []bool{false, true} {
		t.Run(map[bool]string{false: "seccomp", true: "seccomp+namespaces"}[ns], func(t *testing.T) { f(t, ns) })
	}
}

func TestRunsProgram(t *testing.T) {
	eachMode(t, func(t *testing.T, ns bool) {
		out, err := runProbe(t, ns, "hello", Limits{Timeout: testwait.Ceiling})
		if err != nil || !strings.HasPrefix(out, "hello from") {
			t.Fatalf("%v: %s", err, out)
		}
	})
}

// TestNoNetwork: no socket of any family, and nothing reaches a loopback
// TCP listener or a Unix socket the test opened.
func TestNoNetwork(t *testing.T) {
	eachMode(t, func(t *testing.T, ns bool) {
		tcp, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer tcp.Close()
		sock := filepath.Join(t.TempDir(), "s")
		unix, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer unix.Close()
		got := make(chan string, 2)
		for _, l := range []net.Listener{tcp, unix} {
			go func() {
				if c, err := l.Accept(); err == nil {
					got <- l.Addr().String()
					c.Close()
				}
			}()
		}
		out, err := runProbe(t, ns, "net", Limits{Timeout: testwait.Ceiling}, tcp.Addr().String(), sock)
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if !strings.Contains(line, "operation not permitted") {
				t.Errorf("not refused: %s", line)
			}
		}
		select {
		case a := <-got:
			t.Errorf("the listener at %s was reached", a)
		case <-time.After(200 * time.Millisecond):
		}
	})
}

// TestNoSignals: the program cannot stop its parent, kill another process,
// or leave its process group.
func TestNoSignals(t *testing.T) {
	eachMode(t, func(t *testing.T, ns bool) {
		victim := exec.Command("sleep", "60")
		if err := victim.Start(); err != nil {
			t.Fatal(err)
		}
		defer victim.Process.Kill()
		dead := make(chan struct{})
		go func() { victim.Wait(); close(dead) }()
		out, err := runProbe(t, ns, "signals", Limits{Timeout: testwait.Ceiling}, strconv.Itoa(os.Getpid()), strconv.Itoa(victim.Process.Pid))
		if err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			refused := strings.Contains(line, "operation not permitted")
			if strings.HasPrefix(line, "kill self") == refused {
				t.Errorf("%s (want only the signal to itself allowed)", line)
			}
		}
		select {
		case <-dead:
			t.Error("the sleep process was killed")
		case <-time.After(100 * time.Millisecond):
		}
		if st := proctest.State(os.Getpid()); st == "T" {
			syscall.Kill(os.Getpid(), syscall.SIGCONT)
			t.Error("the test process was stopped")
		}
	})
}

// TestTimeoutKillsGroup: a busy program that started a child is killed at
// the timeout, its child with it (ErrTimeout, not the ceiling's error: Run
// did not wait for the child).
func TestTimeoutKillsGroup(t *testing.T) {
	eachMode(t, func(t *testing.T, ns bool) {
		tag := fmt.Sprintf("1000.%d%d", os.Getpid(), time.Now().UnixNano()%1e6)
		out, err := runProbe(t, ns, "escape", Limits{Timeout: 1500 * time.Millisecond}, tag)
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("want ErrTimeout, got %v: %s", err, out)
		}
		if !strings.Contains(out, "started") {
			t.Fatalf("the child did not start: %s", out)
		}
		time.Sleep(100 * time.Millisecond)
		if pids := proctest.Find("sleep\x00" + tag); len(pids) > 0 {
			for _, p := range pids {
				syscall.Kill(p, syscall.SIGKILL)
			}
			t.Errorf("the child outlived the program: %v", pids)
		}
	})
}

// TestMemoryCapped: a program that keeps allocating (2 GiB) dies at the
// memory limit: an exit error, not ErrTimeout (the time limit, far off)
// nor a clean exit (it allocated it all).
func TestMemoryCapped(t *testing.T) {
	eachMode(t, func(t *testing.T, ns bool) {
		out, err := runProbe(t, ns, "memory", Limits{Timeout: time.Minute, Memory: 256 << 20})
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("want an exit error, got %v: %s", err, out)
		}
		if strings.Contains(out, "MiB 512") {
			t.Errorf("allocated past the limit: %s", out)
		}
	})
}

// TestCPUCapped: CPU time is bounded by RLIMIT_CPU even with a long wall
// clock limit.
func TestCPUCapped(t *testing.T) {
	out, err := runProbe(t, false, "escape", Limits{Timeout: testwait.Ceiling, CPU: time.Second}, "0.1")
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("want an exit error, got %v: %s", err, out)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || (ws.Signal() != syscall.SIGXCPU && ws.Signal() != syscall.SIGKILL) {
		t.Errorf("want SIGXCPU or SIGKILL, got %v", ee)
	}
}

// TestSetupFailureRefuses: a program that cannot be started is a
// SetupError, not an exit status.
func TestSetupFailureRefuses(t *testing.T) {
	err := Run(context.Background(), &Cmd{Path: "/nonexistent/prog", Limits: Limits{Timeout: time.Second}})
	var se *SetupError
	if Supported() == nil && !errors.As(err, &se) {
		t.Fatalf("want a SetupError, got %v", err)
	}
	if err := Run(context.Background(), &Cmd{Path: "relative", Limits: Limits{Timeout: time.Second}}); !errors.As(err, &se) {
		t.Fatalf("relative path: want a SetupError, got %v", err)
	}
}

// TestParentDeathKillsProgram: when the process that called Run dies, the
// program dies with it (the parent-death signal), whatever the timeout.
func TestParentDeathKillsProgram(t *testing.T) {
	eachMode(t, func(t *testing.T, ns bool) {
		if err := Supported(); err != nil {
			t.Skipf("no sandbox here: %v", err)
		}
		tag := fmt.Sprintf("1000.%d%d", os.Getpid(), time.Now().UnixNano()%1e6)
		mode := map[bool]string{true: "ns", false: "nons"}[ns]
		r := exec.Command(os.Args[0], "-test.run=^$")
		r.Env = append(os.Environ(), runnerEnv+"="+tag+","+mode)
		var out bytes.Buffer
		r.Stdout, r.Stderr = &out, &out
		if err := r.Start(); err != nil {
			t.Fatal(err)
		}
		defer r.Process.Kill()
		var pids []int
		for i := 0; i < 250 && len(pids) == 0; i++ {
			time.Sleep(20 * time.Millisecond)
			pids = proctest.Find("sleep\x00" + tag)
		}
		if len(pids) == 0 {
			t.Fatalf("the program did not start: %s", out.String())
		}
		r.Process.Kill()
		r.Wait()
		for i := 0; i < 100; i++ {
			if len(proctest.Find("sleep\x00"+tag)) == 0 {
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
		t.Fatalf("the program outlived the process that ran it: %v", pids)
	})
}

// TestAllowNetwork: with AllowNetwork the program reaches a loopback
// listener; the rest of the filter stays (no signals out).
func TestAllowNetwork(t *testing.T) {
	eachMode(t, func(t *testing.T, ns bool) {
		if err := Supported(); err != nil {
			t.Skipf("no sandbox here: %v", err)
		}
		namespacesOff.Store(!ns)
		t.Cleanup(func() { namespacesOff.Store(false) })
		tcp, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer tcp.Close()
		got := make(chan struct{}, 1)
		go func() {
			if c, err := tcp.Accept(); err == nil {
				got <- struct{}{}
				c.Close()
			}
		}()
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		err = Run(context.Background(), &Cmd{Path: exe, Args: []string{tcp.Addr().String()}, Dir: t.TempDir(), Env: []string{probeEnv + "=net", "PATH=/usr/bin:/bin"},
			Stdout: &out, Stderr: &out, AllowNetwork: true, Limits: Limits{Timeout: testwait.Ceiling}})
		if err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		select {
		case <-got:
		case <-time.After(5 * time.Second):
			t.Fatalf("the listener was not reached: %s", out.String())
		}
		if !strings.Contains(out.String(), "dial "+tcp.Addr().String()+": <nil>") {
			t.Errorf("dial failed: %s", out.String())
		}
	})
}
