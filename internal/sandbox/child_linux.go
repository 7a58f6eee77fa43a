package sandbox

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
)

// init turns the re-executed binary into the sandboxed program: when the
// sentinel is set it never returns (it execs the program, or exits 126
// after writing why on the status pipe).
func init() {
	if os.Getenv(sentinel) == "" {
		return
	}
	// no_new_privs and the filter belong to the calling thread, which is
	// the one that execs.
	runtime.LockOSThread()
	var st syscall.Stat_t
	if syscall.Fstat(statusFD, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		// Not started by Run (the sentinel came from elsewhere): no pipe to
		// report on, and nothing to run.
		os.Stderr.WriteString("wopkit: " + sentinel + " is set: not started by the sandbox, refusing to run\n")
		os.Exit(126)
	}
	syscall.CloseOnExec(statusFD)
	if err := child(os.Args); err != "" {
		syscall.Write(statusFD, []byte(err))
		os.Exit(126)
	}
}

// child sets the limits and execs the program; it returns only on failure.
func child(args []string) string {
	if len(args) < 6 {
		return "bad arguments"
	}
	cpu, err1 := strconv.ParseUint(args[1], 10, 64)
	mem, err2 := strconv.ParseUint(args[2], 10, 64)
	fsize, err3 := strconv.ParseUint(args[3], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || cpu == 0 || mem == 0 || (args[4] != "net" && args[4] != "nonet") {
		return "bad limits"
	}
	net := args[4] == "net"
	path, argv := args[5], append([]string{args[5]}, args[6:]...)
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, sentinel+"=") {
			env = append(env, kv)
		}
	}
	for _, l := range []struct {
		name     string
		res      int
		cur, max uint64
	}{
		{"RLIMIT_CPU", syscall.RLIMIT_CPU, cpu, cpu + 1},
		{"RLIMIT_DATA", syscall.RLIMIT_DATA, mem, mem},
		{"RLIMIT_FSIZE", syscall.RLIMIT_FSIZE, fsize, fsize},
		{"RLIMIT_CORE", syscall.RLIMIT_CORE, 0, 0},
	} {
		if err := syscall.Setrlimit(l.res, &syscall.Rlimit{Cur: l.cur, Max: l.max}); err != nil {
			return l.name + ": " + err.Error()
		}
	}
	if err := installFilter(net); err != "" {
		return err
	}
	err := syscall.Exec(path, argv, env)
	return "exec " + path + ": " + err.Error()
}
