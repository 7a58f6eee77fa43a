package main

import (
	"os"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/publish"
)

// newPublishCmd builds `wopkit publish TGZ`: stage a signed release into a
// registry checkout (--registry) or upload it to a registry's HTTP API
// (--url).
func newPublishCmd() *cobra.Command {
	o := &publishOptions{}
	var rebuildIndex bool // options.go belongs to the shared options: the one publish-only flag stays here
	cmd := &cobra.Command{
		Use:   "publish TGZ",
		Short: "Stage a signed release into a registry checkout, or upload it to a registry",
		Long: "publish first validates the pack inside the tarball as `wopkit validate --for-registry` does and\n" +
			"refuses it on any error (pack_invalid), then verifies it as the registry's publish gate does (the\n" +
			"signature, against the registry's key for the signing block's key id, which must be active and granted\n" +
			"the pack's namespace; the registry's size limits; the security advisories; a SemVer version greater\n" +
			"than the latest, and never one equal in precedence to a published one) and then, with --registry DIR,\n" +
			"writes into the tree exactly what the registry's own scripts would: the .tgz, .sig and version\n" +
			"manifest, the version's CycloneDX SBOM and the aggregate SBOM, the per-pack and registry indexes and\n" +
			"the schema mirror. Every file is read and written inside the registry root (a link leading out of it\n" +
			"is refused), and the files are written as one transaction: a run killed at any moment leaves the\n" +
			"tree as it was or as the publication makes it, once the next publish, yank or deprecate has opened\n" +
			"it (it completes or undoes what its journal in your state folder records; --dry-run changes nothing).\n" +
			"A .wopkit-transaction folder your wopkit did not write (a clone of someone else's checkout) is never\n" +
			"run: it is refused (transaction_not_ours) and left as it is.\n" +
			"A release already published with the same bytes writes only what its publication still lacks\n" +
			"(nothing: a no-op); with other bytes it is refused (version_conflict).\n" +
			"A checkout whose registry index lists packs whose folders are missing (a sparse or partial checkout)\n" +
			"is refused (registry_partial): rebuilding the index from it would remove them; --rebuild-index\n" +
			"rebuilds it from the packs the checkout holds anyway, and the plan lists the entries it removes.\n" +
			"With --url URL it PUTs the tarball to the registry's HTTP API instead, with the API key read from\n" +
			"the environment variable --token-env names (never printed).",
		Example: "  wopkit publish hello-1.0.0.tgz --registry ../openwop-registry --dry-run\n" +
			"  wopkit publish hello-1.0.0.tgz --registry ../openwop-registry\n" +
			"  wopkit publish hello-0.9.0.tgz --registry ../openwop-registry --spec v1\n" +
			"  WOPKIT_REGISTRY_TOKEN=... wopkit publish hello-1.0.0.tgz --url https://packs.example.com",
		Args: usageArgs(cobra.ExactArgs(1)),
		PreRunE: func(*cobra.Command, []string) error {
			if (o.Tree.Registry == "") == (o.URL == "") {
				return usageErr("publish needs exactly one of --registry DIR and --url URL", "stage into a registry checkout with --registry, or upload with --url")
			}
			if o.URL != "" && (o.DryRun || o.AllowOlder || o.AllowBreaking || rebuildIndex) {
				return usageErr("--dry-run, --allow-older, --allow-breaking and --rebuild-index apply to --registry", "the registry behind --url decides for itself")
			}
			return o.Tree.Validate()
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			out := cmd.OutOrStdout()
			if o.URL != "" {
				res, err := publish.Upload(cmd.Context(), publish.UploadOptions{Tarball: args[0], SigPath: o.Sig, URL: o.URL,
					Spec: o.Tree.Spec, Token: os.Getenv(o.TokenEnv)})
				if err != nil {
					return err
				}
				if o.Output.JSON {
					return writeJSON(out, res)
				}
				if res.Created {
					safeLine(out, "published %s@%s to %s (%s)", res.Name, res.Version, res.URL, res.Integrity)
				} else {
					safeLine(out, "%s@%s is already published at %s with the same bytes", res.Name, res.Version, res.URL)
				}
				return nil
			}
			unlock, err := publish.LockRegistry(o.Tree.Registry)
			if err != nil {
				return err
			}
			defer unlock()
			plan, err := publish.Stage(cmd.Context(), publish.Options{Tarball: args[0], SigPath: o.Sig,
				Registry: o.Tree.Registry, Spec: o.Tree.Spec, AllowOlder: o.AllowOlder, AllowBreaking: o.AllowBreaking, RebuildIndex: rebuildIndex, DryRun: o.DryRun})
			if err != nil {
				return err
			}
			if err := finishPlan(cmd, plan, o.DryRun, o.Output.JSON); err != nil || o.DryRun || o.Output.JSON || plan.NoOp {
				return err
			}
			printPRSteps(out, "open the pull request from the checkout", plan.PRSteps())
			return nil
		},
	}
	f := cmd.Flags()
	o.Tree.AddFlags(cmd)
	f.StringVar(&o.URL, "url", "", "registry base URL to upload to with the HTTP API (PUT .../packs/<name>/-/<version>.tgz)")
	f.StringVar(&o.TokenEnv, "token-env", publish.DefaultTokenEnv, "environment variable holding the registry API key (for --url)")
	f.StringVar(&o.Sig, "sig", "", "detached signature (default: <tgz without .tgz>.sig when present, else the one inside the tarball)")
	f.BoolVar(&o.AllowOlder, "allow-older", false, "publish a version that is not greater than the latest (a maintenance release)")
	f.BoolVar(&o.AllowBreaking, "allow-breaking", false, "publish a version whose bump is smaller than its changes since the version it follows need (refused by default: version_bump_too_small; `wopkit diff` lists them)")
	f.BoolVar(&rebuildIndex, "rebuild-index", false, "rebuild the registry index from the packs this checkout holds even when it lists packs whose folders are missing (their entries are removed)")
	f.BoolVar(&o.DryRun, "dry-run", false, "list every file that would be written or changed, and the index entries' diff; write nothing (a run of yours interrupted earlier is neither completed nor undone: it is refused, transaction_pending)")
	o.Output.AddFlags(cmd)
	return cmd
}

// finishPlan applies a plan (unless dryRun) and prints it.
func finishPlan(cmd *cobra.Command, plan *publish.Plan, dryRun, asJSON bool) error {
	if !dryRun {
		if err := plan.Apply(); err != nil {
			return err
		}
	}
	if asJSON {
		return writeJSON(cmd.OutOrStdout(), struct {
			*publish.Plan
			DryRun bool `json:"dryRun"`
		}{plan, dryRun})
	}
	plan.WriteText(cmd.OutOrStdout(), dryRun)
	return nil
}
