package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// modulePath is wopkit's module path: `go install
// github.com/openwop/wopkit/cmd/wopkit@VERSION` installs it.
const modulePath = "github.com/openwop/wopkit"

// buildInfo is what `wopkit version` reports; `version --json` prints it
// with every field present (fields may be added, never removed).
type buildInfo struct {
	// Version is the module version: v1.2.3 when installed with `go install
	// ...@v1.2.3`, a pseudo-version (v0.0.0-<time>-<rev>[+dirty]) when built
	// in a checkout, "(devel)" when the toolchain records none, or the value
	// set at link time (-ldflags "-X main.version=...").
	Version string `json:"version"`
	// Module is the main module's path (github.com/openwop/wopkit).
	Module string `json:"module"`
	// Revision, Time and Modified are the build info's vcs.revision,
	// vcs.time and vcs.modified: "", "" and false when the binary was not
	// built from a VCS checkout (a `go install ...@version` from the module
	// proxy, or a build with -buildvcs=false).
	Revision string `json:"revision"`
	Time     string `json:"time"`
	Modified bool   `json:"modified"`
	// GoVersion is the toolchain that built wopkit; Platform its GOOS/GOARCH.
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// readBuildInfo reads the running binary's build info, the link-time
// version winning over the recorded module version.
func readBuildInfo() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return buildInfoFrom(version, bi)
}

// buildInfoFrom is readBuildInfo for a given link-time version and build
// info (nil when the binary has none).
func buildInfoFrom(linked string, bi *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: linked, Module: modulePath, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		if b.Version == "" {
			b.Version = "(devel)"
		}
		return b
	}
	if bi.Main.Path != "" {
		b.Module = bi.Main.Path
	}
	if b.Version == "" {
		b.Version = bi.Main.Version
	}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	if bi.GoVersion != "" {
		b.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// newVersionCmd builds `wopkit version`: the module version, the VCS
// revision it was built from, and the toolchain.
func newVersionCmd() *cobra.Command {
	var out OutputOptions
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the wopkit version and the revision it was built from",
		Long: "version prints the module version (v1.2.3 for `go install " + modulePath + "/cmd/wopkit@v1.2.3`,\n" +
			"a pseudo-version for a build in a checkout), the VCS revision, its time and whether the checkout had\n" +
			"uncommitted changes (from the binary's build info), and the Go toolchain. The first line is always\n" +
			"`wopkit VERSION`. --json prints one object: version, module, revision, time, modified, goVersion, platform.",
		Example: "  wopkit version\n  wopkit version --json | jq -r .revision",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return printVersion(cmd.OutOrStdout(), readBuildInfo(), out.JSON)
		},
	}
	out.AddFlags(cmd)
	return cmd
}

func printVersion(w io.Writer, b buildInfo, asJSON bool) error {
	if asJSON {
		return writeJSON(w, b)
	}
	rev := "unknown (not built from a VCS checkout)"
	if b.Revision != "" {
		rev = b.Revision
		if b.Time != "" {
			rev += " (" + b.Time + ")"
		}
		if b.Modified {
			rev += ", with uncommitted changes"
		}
	}
	_, err := fmt.Fprintf(w, "wopkit %s\nmodule:   %s\nrevision: %s\ngo:       %s %s\n", b.Version, b.Module, rev, b.GoVersion, b.Platform)
	return err
}
