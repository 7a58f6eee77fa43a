//go:build linux && amd64

package sandbox

const (
	auditArch = 0xc000003e // AUDIT_ARCH_X86_64
	x32Bit    = 0x40000000 // __X32_SYSCALL_BIT

	sysIoctl            = 16
	sysPrlimit64        = 302
	sysClone            = 56
	sysKill             = 62
	sysTkill            = 200
	sysTgkill           = 234
	sysRtSigqueueinfo   = 129
	sysRtTgsigqueueinfo = 297
)

// archDenied are the amd64 numbers of the syscalls the filter refuses
// (arch/x86/entry/syscalls/syscall_64.tbl).
var archNetDenied = []uint32{
	41, 53, 42, 49, 50, 43, 288, // socket socketpair connect bind listen accept accept4
	44, 46, 307, // sendto sendmsg sendmmsg
}

// archDenied are the other syscalls refused (the network ones are in
// archNetDenied).
var archDenied = []uint32{
	112, 109, 160, // setsid setpgid setrlimit
	101, 310, 311, 312, // ptrace process_vm_readv process_vm_writev kcmp
	272, 308, // unshare setns
	165, 166, 155, 161, // mount umount2 pivot_root chroot
	175, 313, 176, 246, 320, 169, // init_module finit_module delete_module kexec_load kexec_file_load reboot
	167, 168, 163, 179, // swapon swapoff acct quotactl
	304, 303, 298, 321, 323, // open_by_handle_at name_to_handle_at perf_event_open bpf userfaultfd
	250, 248, 249, // keyctl add_key request_key
	172, 173, // iopl ioperm
}
