//go:build !unix

package verify

// cpuTime is not measured on this platform (no getrusage): the benchmarks'
// cpu-ns figures read 0 there.
func cpuTime() int64 { return 0 }
