#!/usr/bin/env bash
# registry-history.sh: run `wopkit diff` over every pair of consecutive versions that a registry
# checkout holds (v1 tarballs and v2 version manifests alike, as `wopkit diff NAME@VERSION` reads
# them), and check that each pair gives a verdict, exit 0 (the version meets its changes) or 1 (it
# does not), and never an error (2, 3, or a crash). This is issue 28's whole-history check; the
# registry's full history is not in ../shared, so point it at a clone of openwop/openwop-registry.
# Usage: scripts/registry-history.sh REGISTRY_CHECKOUT [WOPKIT_BINARY]   (builds ./cmd/wopkit when no
#        binary is given). Prints one line per pair and a tally. Exit: 0 every pair had a verdict,
#        1 some pair gave an error, 3 the checkout has no packs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
reg=${1:?usage: registry-history.sh REGISTRY_CHECKOUT [WOPKIT_BINARY]}
wopkit=${2:-}
if [ -z "$wopkit" ]; then
	wopkit=$(mktemp -d)/wopkit
	(cd "$repo" && go build -o "$wopkit" ./cmd/wopkit)
fi
root=$reg
[ -d "$root/registry" ] && root=$root/registry
declare -A seen=()
pairs=0 ok=0 low=0 bad=0
for packdir in "$root"/v1/packs/* "$root"/v2/packs/*; do
	[ -d "$packdir/-" ] || continue
	name=$(basename "$packdir")
	[ -n "${seen[$name]:-}" ] && continue
	seen[$name]=1
	# every version of the pack, in either tree, in semver order (pre-releases before their release)
	mapfile -t versions < <(
		for f in "$root"/v1/packs/"$name"/-/*.tgz "$root"/v2/packs/"$name"/-/*.json; do
			[ -e "$f" ] || continue
			b=$(basename "$f")
			case $b in *.sbom.json) continue ;; esac
			b=${b%.tgz}
			echo "${b%.json}"
		done | sort -u | sort -V
	)
	for ((i = 1; i < ${#versions[@]}; i++)); do
		old=${versions[i - 1]} new=${versions[i]}
		pairs=$((pairs + 1))
		set +e
		"$wopkit" diff "$name@$old" "$name@$new" --registry "$reg" --json >/dev/null 2>"${TMPDIR:-/tmp}/registry-history.err"
		rc=$?
		set -e
		case $rc in
		0) ok=$((ok + 1)); echo "exit 0  $name $old → $new" ;;
		1) low=$((low + 1)); echo "exit 1  $name $old → $new" ;;
		*) bad=$((bad + 1)); echo "ERROR $rc $name $old → $new: $(head -c 300 "${TMPDIR:-/tmp}/registry-history.err")" ;;
		esac
	done
done
echo "registry-history: $pairs pairs: $ok exit 0, $low exit 1, $bad errors"
[ "$pairs" -gt 0 ] || exit 3
[ "$bad" -eq 0 ]
