#!/usr/bin/env bash
# Times `wopkit verify` of 281 v1 versions against the registry root, in one process, beside the registry's own
# verifier (registry/scripts/verify-signatures.mjs, Node) on the same 281 versions, and prints the ratio.
# The corpus: the v1 registry slice of ../shared/fixtures (7 signed versions) with each version copied
# round-robin to 281 versions, the count of the live v1 registry (the copies keep their bytes, so every
# signature holds). verify-signatures.mjs walks the tree; wopkit is given the 281 tarballs and their .sig.
# Needs node, and a work tree of openwop/openwop-registry (its scripts) named by WOPKIT_REGISTRY_CHECKOUT;
# hyperfine (apt-get install hyperfine) or falls back to bash time.
#   usage: WOPKIT_REGISTRY_CHECKOUT=~/openwop-registry internal/verify/testdata/compare-verify-speed.sh [COUNT]
set -euo pipefail
count=${1:-281}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
shared=$(cd "$repo/../shared" && pwd)
checkout=${WOPKIT_REGISTRY_CHECKOUT:?set WOPKIT_REGISTRY_CHECKOUT to a clone of https://github.com/openwop/openwop-registry}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
(cd "$repo" && go build -o "$t/wopkit" ./cmd/wopkit)
mkdir -p "$t/reg/registry" "$t/flat"
cp -r "$checkout/registry/scripts" "$t/reg/registry/"
cp -r "$shared/fixtures/registry/." "$t/reg/registry/"
cp "$shared/registry-data/package.json" "$t/reg/"
mapfile -t orig < <(ls "$t"/reg/registry/v1/packs/*/-/*.tgz)
n=${#orig[@]}
for i in $(seq 0 $((count - 1))); do
  src=${orig[$((i % n))]}
  base=${src%.tgz}
  if [ "$i" -ge "$n" ]; then # a copy beside the original, under another version name (the script reads the name only)
    for ext in tgz sig json; do cp "$base.$ext" "$base-c$i.$ext"; done
  fi
  cp "$base.tgz" "$t/flat/v$i.tgz"; cp "$base.sig" "$t/flat/v$i.sig"
done
echo "corpus: $(ls "$t"/reg/registry/v1/packs/*/-/*.tgz | wc -l) versions in the tree, $(ls "$t"/flat/*.tgz | wc -l) tarballs for wopkit, $(du -cb "$t"/flat/*.tgz | tail -1 | cut -f1) bytes"
node_cmd="node $t/reg/registry/scripts/verify-signatures.mjs"
wop_cmd="$t/wopkit verify --allow-yanked --registry $t/reg/registry $t/flat/*.tgz"
bash -c "$node_cmd" | tail -1
bash -c "$wop_cmd" | tail -1
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 3 --runs 30 --export-json "$t/h.json" "bash -c \"$node_cmd >/dev/null\"" "bash -c \"$wop_cmd >/dev/null\"" >/dev/null
  python3 - "$t/h.json" <<'PY'
import json,sys
r=json.load(open(sys.argv[1]))["results"]
a,w=r[0]["median"],r[1]["median"]
print(f"verify-signatures.mjs median {a*1000:.1f} ms, wopkit median {w*1000:.1f} ms, ratio wopkit/node = {w/a:.3f}")
PY
else
  runs=10
  t0=$(date +%s%N); for _ in $(seq $runs); do bash -c "$node_cmd >/dev/null"; done; t1=$(date +%s%N)
  for _ in $(seq $runs); do bash -c "$wop_cmd >/dev/null"; done; t2=$(date +%s%N)
  a=$(( (t1-t0)/(runs*1000000) )); w=$(( (t2-t1)/(runs*1000000) ))
  echo "verify-signatures.mjs mean ${a} ms, wopkit mean ${w} ms, ratio wopkit/node = $(python3 -c "print(f'{$w/$a:.3f}')")"
fi
