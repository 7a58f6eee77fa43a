package publish

import "syscall"

// memoryTempRoot is a folder in memory for the tests' temporary folders:
// /dev/shm when it is a writable tmpfs with 1 GiB free, else "". On the
// disk, creating, syncing and removing the thousands of small files of the
// checkouts the tests copy, publish into and compare costs more system time
// than everything else the tests do (ext4 here: 3.7 of the 4.1 CPU-seconds
// of TestKillInProcessAtEveryPoint); tmpfs keeps every behaviour the tests
// check (os.Root, links, FIFOs, renames, locks), and its fsync returns at
// once. Nothing is run from it (it may be mounted noexec): see diskTempDir.
func memoryTempRoot() string {
	const dir, tmpfsMagic = "/dev/shm", 0x01021994
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil || st.Type != tmpfsMagic || uint64(st.Bavail)*uint64(st.Bsize) < 1<<30 {
		return ""
	}
	if syscall.Access(dir, 2|1) != nil { // W_OK|X_OK
		return ""
	}
	return dir
}
