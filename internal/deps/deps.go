//go:build tools

// Package deps pins the modules wopkit builds on, so that `go mod tidy` keeps
// every requirement while packages are being written in parallel. It is never
// compiled into the binary.
package deps

import (
	_ "charm.land/bubbles/v2/textarea"
	_ "charm.land/bubbletea/v2"
	_ "charm.land/fang/v2"
	_ "charm.land/huh/v2"
	_ "charm.land/lipgloss/v2"
	_ "github.com/charmbracelet/x/exp/teatest/v2"
	_ "github.com/github/go-spdx/v2/spdxexp"
	_ "github.com/mattn/go-runewidth"
	_ "github.com/sigstore/sigstore-go/pkg/bundle"
	_ "github.com/sigstore/sigstore-go/pkg/root"
	_ "github.com/sigstore/sigstore-go/pkg/sign"
	_ "github.com/sigstore/sigstore-go/pkg/testing/ca"
	_ "github.com/sigstore/sigstore-go/pkg/verify"
	_ "github.com/spf13/cobra"
)
