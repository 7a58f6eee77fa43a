//go:build linux && !amd64 && !arm64

package sandbox

// No filter is written for this architecture: Supported says so and the
// child refuses to start the program.
const (
	auditArch = 0
	x32Bit    = 0

	sysIoctl            = 0
	sysPrlimit64        = 0
	sysClone            = 0
	sysKill             = 0
	sysTkill            = 0
	sysTgkill           = 0
	sysRtSigqueueinfo   = 0
	sysRtTgsigqueueinfo = 0
)

var archDenied, archNetDenied []uint32
