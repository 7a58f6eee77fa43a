#!/usr/bin/env bash
# registry-history.sh: run `wopkit diff` over every pair of consecutive versions that a registry
# checkout holds (v1 tarballs and v2 version manifests alike, as `wopkit diff NAME@VERSION` reads
# them), and check that each pair gives a verdict, exit 0 (the version meets its changes) or 1 (it
# does not), and never an error (2, 3, or a crash). This is issue 28's whole-history check; the
# registry's full history is not in ../shared, so point it at a clone of openwop/openwop-registry.
# Usage: scripts/registry-history.sh REGISTRY_CHECKOUT [WOPKIT_BINARY]   (builds ./cmd/wopkit when no
#        binary is given). Prints one line per pair (its exit, the highest level of its changes, the bump
#        the version made, and the seconds it took), a tally, the table of level × bump over the pairs and
#        the slowest pair. Exit: 0 every pair had a verdict, 1 some pair gave an error, 3 the checkout has
#        no packs.
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
declare -A seen=() table=()
pairs=0 ok=0 low=0 bad=0 slowest=0 slowpair=""
out=${TMPDIR:-/tmp}/registry-history.out
# bump is the part of the version that went up from $1 to $2 (major, minor, patch, or none).
bump() {
	local a b
	IFS=.- read -r -a a <<<"$1"
	IFS=.- read -r -a b <<<"$2"
	if [ "${a[0]}" != "${b[0]}" ]; then echo major
	elif [ "${a[1]:-}" != "${b[1]:-}" ]; then echo minor
	elif [ "${a[2]:-}" != "${b[2]:-}" ]; then echo patch
	else echo none; fi
}
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
		start=$(date +%s%N)
		"$wopkit" diff "$name@$old" "$name@$new" --registry "$reg" --json >"$out" 2>"${TMPDIR:-/tmp}/registry-history.err"
		rc=$?
		ms=$((($(date +%s%N) - start) / 1000000))
		set -e
		level=none
		for l in fix feature breaking; do
			grep -q "\"level\":\"$l\"" "$out" && level=$l
		done
		b=$(bump "$old" "$new")
		if [ "$rc" -le 1 ]; then table[$level,$b]=$((${table[$level,$b]:-0} + 1)); fi
		if [ "$ms" -gt "$slowest" ]; then slowest=$ms slowpair="$name $old → $new"; fi
		what=$(printf '%-8s %-5s %5d ms' "$level" "$b" "$ms")
		case $rc in
		0) ok=$((ok + 1)); echo "exit 0  $what  $name $old → $new" ;;
		1) low=$((low + 1)); echo "exit 1  $what  $name $old → $new" ;;
		*) bad=$((bad + 1)); echo "ERROR $rc $name $old → $new: $(head -c 300 "${TMPDIR:-/tmp}/registry-history.err")" ;;
		esac
	done
done
echo "registry-history: $pairs pairs: $ok exit 0, $low exit 1, $bad errors; slowest ${slowest} ms ($slowpair)"
echo "level \\ bump   major  minor  patch   none"
for l in breaking feature fix none; do
	printf '%-13s' "$l"
	for b in major minor patch none; do printf ' %6d' "${table[$l,$b]:-0}"; done
	echo
done
[ "$pairs" -gt 0 ] || exit 3
[ "$bad" -eq 0 ]
