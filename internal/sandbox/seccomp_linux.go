package sandbox

import (
	"syscall"
	"unsafe"
)

// The kernel's constants for prctl and seccomp-BPF (linux/prctl.h,
// linux/seccomp.h, linux/filter.h).
const (
	prGetSeccomp      = 21
	prSetSeccomp      = 22
	prSetNoNewPrivs   = 38
	seccompModeFilter = 2

	retKillProcess = 0x80000000
	retErrno       = 0x00050000
	retAllow       = 0x7fff0000

	bpfLdWAbs  = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeqK    = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJgeK    = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfJsetK   = 0x45 // BPF_JMP | BPF_JSET | BPF_K
	bpfRetK    = 0x06 // BPF_RET | BPF_K
	offNr      = 0    // seccomp_data.nr
	offArch    = 4    // seccomp_data.arch
	offArg0Low = 16   // low 32 bits of seccomp_data.args[0] (little-endian)
	offArg1Low = 24
	offArg2Low = 32

	tiocsti   = 0x5412
	tioclinux = 0x541c

	// cloneNewMask is every CLONE_NEW* flag clone(2) takes.
	cloneNewMask = 0x7e020000
)

// Syscalls numbered alike on amd64 and arm64 (added after Linux 5.0).
const (
	sysPidfdSendSignal = 424
	sysIoUringSetup    = 425
	sysIoUringEnter    = 426
	sysIoUringRegister = 427
	sysOpenTree        = 428
	sysMoveMount       = 429
	sysFsopen          = 430
	sysFsconfig        = 431
	sysFsmount         = 432
	sysFspick          = 433
	sysPidfdOpen       = 434
	sysClone3          = 435
	sysPidfdGetfd      = 438
	sysMountSetattr    = 442
)

// commonDenied are the syscalls refused with EPERM on every architecture
// (the per-architecture ones are in archDenied).
var commonDenied = []uint32{
	sysPidfdSendSignal, sysPidfdOpen, sysPidfdGetfd,
	sysIoUringSetup, sysIoUringEnter, sysIoUringRegister,
	sysOpenTree, sysMoveMount, sysFsopen, sysFsconfig, sysFsmount, sysFspick, sysMountSetattr,
}

type sockFilter struct {
	code uint16
	jt   uint8
	jf   uint8
	k    uint32
}

type sockFprog struct {
	len    uint16
	filter *sockFilter
}

func stmt(code uint16, k uint32) sockFilter { return sockFilter{code: code, k: k} }
func jump(code uint16, k uint32, jt, jf uint8) sockFilter {
	return sockFilter{code: code, jt: jt, jf: jf, k: k}
}

// filter builds the program for a process whose pid is self: see the
// package documentation for what it refuses (the sockets only when net is
// false).
func filter(self uint32, net bool) []sockFilter {
	eperm := stmt(bpfRetK, retErrno|uint32(syscall.EPERM))
	allow := stmt(bpfRetK, retAllow)
	p := []sockFilter{
		stmt(bpfLdWAbs, offArch),
		jump(bpfJeqK, auditArch, 1, 0),
		stmt(bpfRetK, retKillProcess),
		stmt(bpfLdWAbs, offNr),
	}
	if x32Bit != 0 {
		// x32 numbers are the same syscalls under another number.
		p = append(p, jump(bpfJgeK, x32Bit, 0, 1), eperm)
	}
	denied := append(append([]uint32{}, commonDenied...), archDenied...)
	if !net {
		denied = append(denied, archNetDenied...)
	}
	for _, nr := range denied {
		p = append(p, jump(bpfJeqK, nr, 0, 1), eperm)
	}
	// clone3 passes its flags in memory the filter cannot read: ENOSYS
	// makes the C library fall back to clone, whose flags it can.
	p = append(p, jump(bpfJeqK, sysClone3, 0, 1), stmt(bpfRetK, retErrno|uint32(syscall.ENOSYS)))
	p = append(p,
		jump(bpfJeqK, sysClone, 0, 3),
		stmt(bpfLdWAbs, offArg0Low),
		jump(bpfJsetK, cloneNewMask, 0, 1),
		eperm,
		stmt(bpfLdWAbs, offNr), // the clone check loaded arg0; reload nr
	)
	// Terminal input injection (TIOCSTI, TIOCLINUX) on an inherited
	// terminal.
	p = append(p,
		jump(bpfJeqK, sysIoctl, 0, 5),
		stmt(bpfLdWAbs, offArg1Low),
		jump(bpfJeqK, tiocsti, 1, 0),
		jump(bpfJeqK, tioclinux, 0, 1),
		eperm,
		allow,
	)
	// prlimit64 may read limits (new_limit NULL), not set them: root could
	// raise its own hard limits.
	p = append(p,
		jump(bpfJeqK, sysPrlimit64, 0, 6),
		stmt(bpfLdWAbs, offArg2Low),
		jump(bpfJeqK, 0, 0, 2),
		stmt(bpfLdWAbs, offArg2Low+4),
		jump(bpfJeqK, 0, 1, 0),
		eperm,
		allow,
	)
	// Signals: only to this process (first argument self) or, for kill, its
	// own process group (0).
	for _, s := range []struct {
		nr        uint32
		ownGroup  bool
		blockSize uint8
	}{
		{sysKill, true, 5}, {sysTkill, false, 4}, {sysTgkill, false, 4},
		{sysRtSigqueueinfo, false, 4}, {sysRtTgsigqueueinfo, false, 4},
	} {
		p = append(p, jump(bpfJeqK, s.nr, 0, s.blockSize), stmt(bpfLdWAbs, offArg0Low))
		if s.ownGroup {
			p = append(p, jump(bpfJeqK, 0, 2, 0))
		}
		p = append(p, jump(bpfJeqK, self, 1, 0), eperm, allow)
	}
	return append(p, allow)
}

// installFilter sets no_new_privs and installs the filter on the calling
// thread; it returns why it could not.
func installFilter(net bool) string {
	if auditArch == 0 {
		return "no seccomp filter for this architecture"
	}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return "PR_SET_NO_NEW_PRIVS: " + e.Error()
	}
	prog := filter(uint32(syscall.Getpid()), net)
	fprog := sockFprog{len: uint16(len(prog)), filter: &prog[0]}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetSeccomp, seccompModeFilter, uintptr(unsafe.Pointer(&fprog))); e != 0 {
		return "seccomp filter: " + e.Error()
	}
	return ""
}
