//go:build !windows

package atomicfile

// dirSyncUnsupported reports whether err is the system saying that a
// directory cannot be synced (Windows; see syncdir_windows.go): never here.
func dirSyncUnsupported(error) bool { return false }
