// Package gctune sets the garbage collector for a short-lived command-line
// process before the heavier packages initialise: jsonschema alone compiles
// every draft's metaschema in its init (1.7 MB, 21k allocations), and with the
// default GOGC=100 the collector runs several times before main starts.
//
// Go initialises packages in import-path order among those whose imports are
// ready; this package imports only runtime/debug, so it runs before
// github.com/santhosh-tekuri/jsonschema and google.golang.org/protobuf. It
// trades memory for time with GOGC=400, and bounds that trade with a soft
// memory limit, so streaming a 200 MB pack still stays well under 64 MB
// resident. GOGC and GOMEMLIMIT set in the environment win.
package gctune

import (
	"os"
	"runtime/debug"
)

// Percent and Limit are the settings applied at start-up.
const (
	Percent = 400
	Limit   = 40 << 20
)

func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(Limit)
	}
}
