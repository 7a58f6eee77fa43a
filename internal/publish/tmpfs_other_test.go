//go:build !linux

package publish

// memoryTempRoot: the tests' temporary folders stay where the system puts
// them (see tmpfs_linux_test.go).
func memoryTempRoot() string { return "" }
