package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openwop/wopkit/internal/publish"
)

// keychainAddOptions are the flags of `wopkit keychain add`.
type keychainAddOptions struct {
	Registry   string
	KeyID      string
	PublicKey  string
	Namespaces []string
	Owner      string
	Contact    string
	Force      bool
	DryRun     bool
	Output     OutputOptions
}

// newKeychainCmd builds `wopkit keychain`: a registry checkout's keychain.
func newKeychainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keychain",
		Short: "A registry checkout's publisher keys: add yours (the onboarding pull request), list them",
		Args:  usageArgs(cobra.NoArgs),
	}
	cmd.AddCommand(newKeychainAddCmd(), newKeychainListCmd())
	return cmd
}

func newKeychainAddCmd() *cobra.Command {
	o := &keychainAddOptions{}
	cmd := &cobra.Command{
		Use:   "add",
		Short: "Add a publisher key to a registry checkout, as its onboarding pull request does",
		Long: "keychain add writes what the registry's onboarding pull request holds (its README, \"Adding a new\n" +
			"publisher key\"): the public key at keys/<keyId>.pub, a signingKeys entry (algorithm ed25519, status\n" +
			"\"active\", permittedNamespaces) and a namespaceAssignments entry per namespace in\n" +
			".well-known/openwop-registry.json. Every other byte of that document stays as it is; the entries are\n" +
			"written in its own layout. It refuses a key id already there (in any letter case), a public key already\n" +
			"there, a namespace another key may sign or is assigned, a namespace outside vendor.<org>.* and\n" +
			"community.<author>.* (unless --force), and a key that is not an Ed25519 SPKI PEM public key. Both files\n" +
			"are written as one transaction, as publish writes. Then commit them and open the pull request.",
		Example: "  wopkit keychain add --registry ../openwop-registry --key-id acme-1 --public-key acme.pub --namespace 'vendor.acme.*'\n" +
			"  wopkit keychain add --registry ../openwop-registry --key-id acme-1 --public-key acme.pub --namespace 'vendor.acme.*' \\\n" +
			"      --owner \"Acme Corp\" --contact https://github.com/acme --dry-run",
		Args: usageArgs(cobra.NoArgs),
		PreRunE: func(*cobra.Command, []string) error {
			switch {
			case o.Registry == "":
				return usageErr("--registry DIR is required", "point it at a clone of the registry: git clone https://github.com/openwop/openwop-registry")
			case o.KeyID == "":
				return usageErr("--key-id ID is required", "the id your packs' signing block names (pack --key-id), e.g. acme-1")
			case o.PublicKey == "":
				return usageErr("--public-key PUB is required", "the .pub that `wopkit keygen --out PREFIX` wrote")
			case len(o.Namespaces) == 0:
				return usageErr("--namespace GLOB is required", "the namespace the key signs, e.g. --namespace 'vendor.acme.*'")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			unlock, err := publish.LockRegistry(o.Registry)
			if err != nil {
				return err
			}
			defer unlock()
			plan, err := publish.AddKey(publish.KeyOptions{Registry: o.Registry, KeyID: o.KeyID, PublicKey: o.PublicKey,
				Namespaces: o.Namespaces, Owner: o.Owner, Contact: o.Contact, Force: o.Force, DryRun: o.DryRun})
			if err != nil {
				return err
			}
			if !o.DryRun {
				if err := plan.Apply(); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if o.Output.JSON {
				return writeJSON(out, struct {
					*publish.KeyPlan
					DryRun bool `json:"dryRun"`
				}{plan, o.DryRun})
			}
			if o.DryRun {
				fmt.Fprint(out, terminalDiff(out, plan.Diff))
			}
			verb := "added"
			if o.DryRun {
				verb = "would add"
			}
			safeLine(out, "%s key %s to %s (%d file(s)):", verb, plan.KeyID, plan.Registry, len(plan.Changes))
			safeLine(out, "  publicKeyUrl %s (on the registry's own origin)", plan.PublicKeyURL)
			for _, c := range plan.Changes {
				safeLine(out, "  %-6s %s (%d bytes)", c.Action, c.Path, c.Bytes)
			}
			for _, n := range plan.Notes {
				safeLine(out, "note: %s", n)
			}
			if !o.DryRun {
				printPRSteps(out, "commit these files (no private key) and open the key's pull request", plan.PRSteps())
				safeLine(out, "next: %s", keychainNext(o.PublicKey, plan.KeyID, plan.Namespaces))
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Registry, "registry", "", "checkout of a registry repository (or its registry/ directory)")
	f.StringVar(&o.KeyID, "key-id", "", "the key id: keys/<ID>.pub, and the id your packs' signing block names")
	f.StringVar(&o.PublicKey, "public-key", "", "the Ed25519 public key (SPKI PEM, the .pub of `wopkit keygen`)")
	f.StringArrayVar(&o.Namespaces, "namespace", nil, "a namespace the key may sign: vendor.<org>.* or community.<author>.* (repeatable)")
	f.StringVar(&o.Owner, "owner", "", "who owns the key and namespace (default: the namespace's org)")
	f.StringVar(&o.Contact, "contact", "", "where the maintainers reach the owner (https://… or mailto:…)")
	f.BoolVar(&o.Force, "force", false, "accept a namespace outside vendor.<org>.* and community.<author>.* (for the maintainers to decide)")
	f.BoolVar(&o.DryRun, "dry-run", false, "print the unified diff of what would change; write nothing")
	o.Output.AddFlags(cmd)
	return cmd
}

// keychainListOptions are the flags of `wopkit keychain list`.
type keychainListOptions struct {
	Registry string
	Output   OutputOptions
}

func newKeychainListCmd() *cobra.Command {
	o := &keychainListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List a registry checkout's publisher keys: status, namespaces, key file",
		Long: "keychain list prints each signingKeys entry of the registry's .well-known/openwop-registry.json: its\n" +
			"key id, status (an entry without one is active, as the registry's scripts read it), the namespaces it\n" +
			"may sign, the namespaces assigned to it, and whether keys/<keyId>.pub holds a public key (read inside\n" +
			"the registry root: a link leading out of it is refused and said). It changes nothing.",
		Example: "  wopkit keychain list --registry ../openwop-registry\n" +
			"  wopkit keychain list --registry ../openwop-registry --json",
		Args: usageArgs(cobra.NoArgs),
		PreRunE: func(*cobra.Command, []string) error {
			if o.Registry == "" {
				return usageErr("--registry DIR is required", "point it at a clone of the registry: git clone https://github.com/openwop/openwop-registry")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			kc, err := publish.ListKeys(o.Registry)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if o.Output.JSON {
				return writeJSON(out, kc)
			}
			safeLine(out, "%d key(s) in %s:", len(kc.Keys), kc.Registry)
			for _, k := range kc.Keys {
				status := k.Status
				if status == "" {
					status = "(no status)"
				}
				line := fmt.Sprintf("  %s  %s  %s", k.KeyID, status, strings.Join(k.PermittedNamespaces, ", "))
				if k.Operator != "" {
					line += "  (" + k.Operator + ")"
				}
				safeLine(out, "%s", line)
				if len(k.Assigned) > 0 {
					safeLine(out, "      assigned: %s", strings.Join(k.Assigned, ", "))
				}
				if k.KeyFileState != "ok" {
					safeLine(out, "      %s: %s", k.KeyFile, k.KeyFileState)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&o.Registry, "registry", "", "checkout of a registry repository (or its registry/ directory)")
	o.Output.AddFlags(cmd)
	return cmd
}
