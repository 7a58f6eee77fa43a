package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/run"
	"github.com/openwop/wopkit/internal/termsafe"
	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// newRunCmd builds `wopkit run [DIR] NODE`.
func newRunCmd() *cobra.Command {
	var o RunOptions
	var out OutputOptions
	cmd := &cobra.Command{
		Use:   "run [DIR] NODE",
		Short: "Run one node of a pack once, as a host would, in the sandbox",
		Long: "run checks --config and --input against the node's schemas, loads the pack's runtime.entry in a\n" +
			"separate node (20 or later) under the sandbox (no network, no processes, reads inside the pack,\n" +
			"writes in a temporary folder, an empty environment), calls nodes[typeId](ctx) with a host-shaped\n" +
			"ctx, maps the result as the reference host does and checks the outputs against the output schema.\n" +
			"A wasm pack's module runs in process instead, through RFC 0008's ABI (docs/RUN.md, \"wasm packs\").\n" +
			"NODE is the typeId or its last segment. Exit 0 success (or suspended), 1 failure, 2 usage, 3 no node.",
		Example: "  wopkit run hello --input in.json\n  echo '{\"text\":\"hi\"}' | wopkit run ./hello vendor.acme.hello.hello --input - --json\n" +
			"  wopkit run . fetch --mocks mocks.json --secrets .env.test",
		Args:    usageArgs(cobra.RangeArgs(1, 2)),
		PreRunE: func(*cobra.Command, []string) error { return o.Validate() },
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, name := ".", args[0]
			if len(args) == 2 {
				dir, name = args[0], args[1]
			}
			return runNode(cmd, dir, name, &o, out.JSON)
		},
	}
	o.AddFlags(cmd)
	out.AddFlags(cmd)
	return cmd
}

func runNode(cmd *cobra.Command, dir, name string, o *RunOptions, asJSON bool) error {
	p, err := run.LoadPack(dir)
	if err != nil {
		return err
	}
	if err := p.CheckRuntime(); err != nil {
		return err
	}
	n, err := p.Find(name)
	if err != nil {
		return err
	}
	in, err := o.read(cmd.InOrStdin())
	if err != nil {
		return err
	}
	pr, err := run.Prepare(p, n, in)
	if err != nil {
		return err
	}
	h, err := run.NewCaller(o.host(dir, p, cmd.ErrOrStderr()), p)
	if err != nil {
		return err
	}
	defer h.Close()
	r, err := run.Execute(cmd.Context(), h, p, n, pr)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if asJSON {
		if err := writeJSON(w, r); err != nil {
			return err
		}
	} else {
		printRun(w, r)
	}
	if !r.Passed() {
		return errSilent
	}
	return nil
}

// RunOptions are the flags of run (and, but for the files, of test).
type RunOptions struct {
	Input, Config, Mocks, Secrets, Resume string
	LimitOptions
}

// LimitOptions are --timeout, --memory and --allow-net.
type LimitOptions struct {
	Timeout  string
	Memory   string
	AllowNet bool
	timeout  time.Duration
	memory   uint64
}

// AddFlags registers --timeout, --memory, --allow-net.
func (o *LimitOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Timeout, "timeout", "30s", "time limit of one call (the node's process is killed at it)")
	cmd.Flags().StringVar(&o.Memory, "memory", "256MiB", "memory limit of node's heap (KiB, MiB, GiB)")
	cmd.Flags().BoolVar(&o.AllowNet, "allow-net", false, "let the node open sockets and resolve names")
}

// Validate parses the limits.
func (o *LimitOptions) Validate() error {
	d, err := time.ParseDuration(o.Timeout)
	if err != nil || d <= 0 {
		return usageErr("bad --timeout "+o.Timeout, "give a duration such as 30s or 2m")
	}
	o.timeout = d
	m, err := parseSize(o.Memory)
	if err != nil || m < 32<<20 {
		return usageErr("bad --memory "+o.Memory, "give a size of at least 32MiB, such as 256MiB or 1GiB")
	}
	o.memory = m
	return nil
}

// AddFlags registers run's flags.
func (o *RunOptions) AddFlags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&o.Input, "input", "", "input JSON file (- for standard input), checked against the node's input schema")
	cmd.Flags().StringVar(&o.Config, "config", "", "config JSON file, checked against the node's config schema")
	cmd.Flags().StringVar(&o.Mocks, "mocks", "", `host surfaces' canned answers: {"surface": {"method": [answer, …]}}`)
	cmd.Flags().StringVar(&o.Secrets, "secrets", "", "secrets for ctx.secrets: a JSON object or a .env file (never printed)")
	cmd.Flags().StringVar(&o.Resume, "resume", "", "a JSON file: call again after a suspension, suspend and interrupt returning its value")
	o.LimitOptions.AddFlags(cmd)
}

func (o *RunOptions) read(stdin io.Reader) (run.Input, error) {
	var in run.Input
	var err error
	if o.Input == "-" {
		in.InputName = "(standard input)"
		if in.Input, err = run.ReadStdin(stdin); err != nil {
			return in, err
		}
	}
	for _, f := range []struct {
		path string
		dst  *[]byte
		name *string
	}{
		{o.Input, &in.Input, &in.InputName}, {o.Config, &in.Config, &in.ConfigName}, {o.Mocks, &in.Mocks, &in.MocksName},
		{o.Secrets, &in.Secrets, &in.SecretsName}, {o.Resume, &in.Resume, &in.ResumeName},
	} {
		if f.path == "" || f.path == "-" {
			continue
		}
		b, err := untrusted.ReadNamed(f.path, 16<<20)
		if err != nil {
			if werr.CodeOf(err) != "" {
				return in, err
			}
			return in, werr.Wrap(werr.Env, "input_unreadable", err, "cannot read %s", f.path)
		}
		*f.dst, *f.name = b, f.path
	}
	return in, nil
}

func (o *LimitOptions) host(dir string, p *run.Pack, notice io.Writer) run.HostOptions {
	return run.HostOptions{Dir: dir, Entry: p.Entry, Timeout: o.timeout, Memory: o.memory, AllowNet: o.AllowNet, Notice: notice}
}

// printRun prints a run for people: the outputs, then what else happened.
func printRun(w io.Writer, r *run.Report) {
	var b bytes.Buffer
	switch r.Status {
	case "success":
		var v any
		untrusted.DecodeJSON(r.Outputs, &v)
		writeJSONIndent(&b, v)
	case "suspended":
		data := oneLineJSON(r.Interrupt.Data)
		fmt.Fprintf(&b, "suspended (%s): %s\n  call again with --resume FILE (the value suspend returns)\n", r.Interrupt.Kind, data)
	default:
		fmt.Fprintf(&b, "failure %s: %s\n", r.Error.Code, r.Error.Message)
		if r.Error.PackCode != nil {
			fmt.Fprintf(&b, "  packCode: %s\n", *r.Error.PackCode)
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "  %s:%d:%d %s: %s\n", p.File, p.Line, p.Column, pointerOrRoot(p.Pointer), p.Message)
	}
	for _, wn := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", wn)
	}
	for _, e := range r.Events {
		fmt.Fprintf(&b, "event %s %s\n", e.Type, clip(oneLineJSON(e.Payload), 200))
	}
	for _, l := range r.Logs {
		fmt.Fprintf(&b, "log %s %s\n", l.Level, clip(l.Message, 200))
	}
	if s := strings.TrimSpace(r.Stdout); s != "" {
		fmt.Fprintf(&b, "stdout: %s\n", clip(s, 400))
	}
	if r.Status != "failure" || r.DurationMs > 0 {
		fmt.Fprintf(&b, "%s in %d ms, peak memory %d MiB\n", r.Status, r.DurationMs, r.PeakMemoryBytes>>20)
	}
	w.Write([]byte(termsafe.Lines(b.String())))
}

// writeJSONIndent writes v indented, through the one JSON encoder.
func writeJSONIndent(b *bytes.Buffer, v any) {
	termsafe.WriteJSON(b, v, "  ")
}

// oneLineJSON is v as one line of JSON, through the one JSON encoder.
func oneLineJSON(v any) string {
	var b bytes.Buffer
	termsafe.WriteJSON(&b, v, "")
	return strings.TrimSuffix(b.String(), "\n")
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func clip(s string, n int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// parseSize reads 256MiB, 1GiB, 512KiB, 300MB or a number of bytes.
func parseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	mult := uint64(1)
	for _, u := range []struct {
		suffix string
		m      uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || n > (1<<44)/mult {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n * mult, nil
}
