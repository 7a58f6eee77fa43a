package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/chainexp"
	"github.com/openwop/wopkit/internal/jsvalue"
	"github.com/openwop/wopkit/internal/werr"
)

// chainExpandOptions are the flags of `wopkit chain expand`.
type chainExpandOptions struct {
	Params      string
	ExpansionID string
	Packs       []string
	HostTypes   string
	Tree        bool
	MaxDepth    int
	Tenant      string
	NoDefaults  bool
	JSON        bool
	Size        SizeOptions
}

func (o *chainExpandOptions) AddFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.Params, "params", "", "JSON object of parameter values (checked against the chain's parameters schema)")
	f.StringVar(&o.ExpansionID, "expansion-id", "", "the expansion id in the new node ids (default: 4 random hex digits)")
	f.StringArrayVar(&o.Packs, "packs", nil, "a node pack (folder or .tgz) whose typeIds the host resolves (repeatable)")
	f.StringVar(&o.HostTypes, "host-types", "", "JSON array of exactly the typeIds the host provides (then core.* is not assumed)")
	f.BoolVar(&o.Tree, "tree", false, "expand sub-chains (config.subChainRef) as child workflows (RFC 0133)")
	f.IntVar(&o.MaxDepth, "max-depth", chainexp.DefaultMaxDepth, "with --tree: the deepest nesting of sub-chains")
	f.StringVar(&o.Tenant, "tenant", "local", "with --tree: the tenant the child workflow ids are scoped to")
	f.BoolVar(&o.NoDefaults, "no-defaults", false, "pass --params exactly as given (by default a parameter it lacks takes the schema's default, as a host's form does)")
	f.BoolVar(&o.JSON, "json", false, "print the fragment (or the refusal) as one JSON object (shape in CLI.md)")
	o.Size.AddFlags(cmd)
}

// newChainCmd builds `wopkit chain`, whose verb is `expand`.
func newChainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "chain",
		Short: "Work with workflow-chain packs: expand a chain as a host does",
		Args:  usageArgs(cobra.NoArgs),
	}
	cmd.AddCommand(newChainExpandCmd())
	return cmd
}

func newChainExpandCmd() *cobra.Command {
	o := &chainExpandOptions{}
	cmd := &cobra.Command{
		Use:   "expand [DIR] CHAIN",
		Short: "Print what a host splices into a workflow when an editor drops a chain",
		Long: "expand computes the spec's normative chain expansion (workflow-chain-packs.md §Expansion semantics)\n" +
			"exactly as the spec's reference library does: typeIds resolved first (the pack's own, --packs',\n" +
			"core.*; or exactly --host-types plus --packs'), the parameters checked against the chain's schema,\n" +
			"{{params.x}} tokens substituted, node ids prefixed, edges rewritten, capabilities copied.\n" +
			"DIR is a pack folder (default .), its pack.json, or a .tgz. Deferred expansion (RFC 0124) is not\n" +
			"part of v2.0 and is not done. See docs/CHAIN.md.\n\n" +
			"Exit status: 0 expanded, 1 refused (unresolvable typeId, invalid parameters, sub-chain cycle or\n" +
			"depth), 2 usage error, 3 the pack could not be read.",
		Example: "  wopkit chain expand ./my-chains vendor.acme.generatePRD --params params.json --expansion-id a8f3\n" +
			"  wopkit chain expand pack.tgz vendor.acme.onboard --tree --json | jq .children\n" +
			"  wopkit chain expand . vendor.acme.digest --host-types host-types.json --packs ../my-nodes",
		Args: usageArgs(cobra.RangeArgs(1, 2)),
		PreRunE: func(*cobra.Command, []string) error {
			if o.MaxDepth < 1 {
				return usageErr(fmt.Sprintf("--max-depth %d is too small", o.MaxDepth), "give 1 or more (8 is the spec's recommended bound)")
			}
			return o.Size.Validate()
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, chainID := ".", args[0]
			if len(args) == 2 {
				dir, chainID = args[0], args[1]
			}
			if !cmd.Flags().Changed("expansion-id") {
				o.ExpansionID = chainexp.NewExpansionID() // an empty one given is kept: the library accepts it
			}
			res, warnings, req, err := runChainExpand(o, dir, chainID)
			for _, w := range warnings {
				safeLine(cmd.ErrOrStderr(), "warning: %s", w)
			}
			out := cmd.OutOrStdout()
			if o.JSON {
				if err != nil {
					return jsonResult(out, chainErrorJSON(err), err)
				}
				_, werr := out.Write(append(jsvalue.Encode(res), '\n'))
				return werr
			}
			if err != nil {
				return err
			}
			_, err = io.WriteString(out, chainexp.Text(chainID, req.ExpansionID, res))
			return err
		},
	}
	o.AddFlags(cmd)
	return cmd
}

// runChainExpand reads the pack, the other packs and the flags' files, and
// expands.
func runChainExpand(o *chainExpandOptions, dir, chainID string) (*jsvalue.Object, []string, chainexp.Request, error) {
	req := chainexp.Request{ChainID: chainID, ExpansionID: o.ExpansionID, Tree: o.Tree, MaxDepth: o.MaxDepth, Tenant: o.Tenant}
	lim := *o.Size.Limits()
	p, err := chainexp.LoadPack(dir, lim)
	if err != nil {
		return nil, nil, req, err
	}
	var others []*chainexp.Pack
	for _, path := range o.Packs {
		q, err := chainexp.LoadPack(path, lim)
		if err != nil {
			return nil, nil, req, err
		}
		others = append(others, q)
	}
	var host []string
	if o.HostTypes != "" {
		if host, err = chainexp.ReadHostTypes(o.HostTypes); err != nil {
			return nil, nil, req, err
		}
	}
	req.Resolvable = chainexp.NewResolver(p, others, host).Resolvable
	if o.Params != "" {
		if req.Params, err = chainexp.ReadParams(o.Params); err != nil {
			return nil, nil, req, err
		}
	}
	ch, err := p.Chain(chainID)
	if err != nil {
		return nil, nil, req, err
	}
	if !o.NoDefaults {
		req.Params = chainexp.WithDefaults(ch, req.Params)
	}
	warnings := chainexp.PinWarnings(p, ch)
	res, err := chainexp.Run(p, req)
	return res, warnings, req, err
}

// chainErrorJSON is the --json form of a refusal: {"error": {code, message,
// details}}.
func chainErrorJSON(err error) *jsvalue.Object {
	msg := err.Error()
	details := &jsvalue.Object{}
	if e, ok := err.(*chainexp.Error); ok {
		msg, details = e.Err.Msg, e.Details
	} else if we, ok := err.(*werr.Error); ok {
		msg = we.Msg
	}
	code := werr.CodeOf(err)
	if code == "" {
		code = "error"
	}
	return &jsvalue.Object{Members: []jsvalue.Member{{Key: "error", Value: &jsvalue.Object{Members: []jsvalue.Member{
		{Key: "code", Value: code}, {Key: "message", Value: msg}, {Key: "details", Value: details},
	}}}}}
}
