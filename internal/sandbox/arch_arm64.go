//go:build linux && arm64

package sandbox

const (
	auditArch = 0xc00000b7 // AUDIT_ARCH_AARCH64
	x32Bit    = 0

	sysIoctl            = 29
	sysPrlimit64        = 261
	sysClone            = 220
	sysKill             = 129
	sysTkill            = 130
	sysTgkill           = 131
	sysRtSigqueueinfo   = 138
	sysRtTgsigqueueinfo = 240
)

// archDenied are the arm64 numbers of the syscalls the filter refuses
// (include/uapi/asm-generic/unistd.h).
var archNetDenied = []uint32{
	198, 199, 203, 200, 201, 202, 242, // socket socketpair connect bind listen accept accept4
	206, 211, 269, // sendto sendmsg sendmmsg
}

// archDenied are the other syscalls refused (the network ones are in
// archNetDenied).
var archDenied = []uint32{
	157, 154, 164, // setsid setpgid setrlimit
	117, 270, 271, 272, // ptrace process_vm_readv process_vm_writev kcmp
	97, 268, // unshare setns
	40, 39, 41, 51, // mount umount2 pivot_root chroot
	105, 273, 106, 104, 294, 142, // init_module finit_module delete_module kexec_load kexec_file_load reboot
	224, 225, 89, 60, // swapon swapoff acct quotactl
	265, 264, 241, 280, 282, // open_by_handle_at name_to_handle_at perf_event_open bpf userfaultfd
	219, 217, 218, // keyctl add_key request_key
}
