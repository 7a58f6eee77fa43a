#!/usr/bin/env bash
# Times `wopkit validate` against `ajv-cli` (the validator the OpenWOP registry uses) on the same hundred
# manifests and schemas, one process call each, and prints the ratio. The corpus is the real published
# manifests of ../shared/fixtures (pack.json of each registry tarball, the v0.4 tool manifests), copied
# round-robin to 100 files. Needs node, npm and hyperfine (apt-get install hyperfine) or falls back to bash time.
#   usage: internal/validate/testdata/ajv/compare-speed.sh [PACKS [TOOLS]]   (default 70 30; issue 27 measures 130 0)
set -euo pipefail
packs=${1:-70}
ntools=${2:-30}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
fixtures=$(cd "$repo/../shared/fixtures" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ajvdir=${AJV_DIR:-$work/ajv}
if [ ! -x "$ajvdir/node_modules/.bin/ajv" ]; then
  mkdir -p "$ajvdir" && (cd "$ajvdir" && npm install --silent --no-audit --no-fund ajv-cli@5.0.0 ajv-formats@3.0.1 ajv@8 >/dev/null)
fi
(cd "$repo" && go build -o "$work/wopkit" ./cmd/wopkit)
mkdir -p "$work/packs" "$work/tools"
srcs=()
for t in "$fixtures"/registry/v1/packs/*/-/*.tgz; do
  n=$(basename "$(dirname "$(dirname "$t")")")
  tar -xzOf "$t" pack.json > "$work/$n.json" 2>/dev/null || tar -xzOf "$t" ./pack.json > "$work/$n.json"
  srcs+=("$work/$n.json")
done
tools=("$fixtures"/tool-manifests/*.v0.4.json)
for i in $(seq 1 "$packs"); do cp "${srcs[$((i % ${#srcs[@]}))]}" "$work/packs/m$i.json"; done
for i in $(seq 1 "$ntools"); do cp "${tools[$((i % ${#tools[@]}))]}" "$work/tools/t$i.json"; done
s="$repo/schemas"
ajv="$ajvdir/node_modules/.bin/ajv"
ajv_tools="" wop_tools=""
if [ "$ntools" -gt 0 ]; then
  ajv_tools="$ajv validate --spec=draft2020 --strict=false -c ajv-formats -s $s/install-manifest-v0.4.json -d '$work/tools/*.json' >/dev/null 2>&1;"
  wop_tools="$work/tools/*.json"
fi
ajv_cmd="cd $ajvdir && { $ajv validate --spec=draft2020 --strict=false -c ajv-formats -s $s/node-pack-manifest.schema.json -r $s/agent-manifest.schema.json -r $s/prompt-ref.schema.json -d '$work/packs/*.json' >/dev/null 2>&1; $ajv_tools true; }"
wop_cmd="$work/wopkit validate $work/packs/*.json $wop_tools >/dev/null || true"
if command -v hyperfine >/dev/null; then
  hyperfine -N --warmup 3 --runs 20 --export-json "$work/h.json" "bash -c \"$ajv_cmd\"" "bash -c \"$wop_cmd\"" >/dev/null
  python3 - "$work/h.json" <<'PY'
import json,sys
r=json.load(open(sys.argv[1]))["results"]
a,w=r[0]["median"],r[1]["median"]
print(f"ajv-cli median {a*1000:.1f} ms, wopkit median {w*1000:.1f} ms, ratio wopkit/ajv = {w/a:.3f}")
PY
else
  t0=$(date +%s%N); for i in 1 2 3 4 5; do bash -c "$ajv_cmd"; done; t1=$(date +%s%N)
  for i in 1 2 3 4 5; do bash -c "$wop_cmd"; done; t2=$(date +%s%N)
  a=$(( (t1-t0)/5000000 )); w=$(( (t2-t1)/5000000 ))
  echo "ajv-cli mean ${a} ms, wopkit mean ${w} ms"
fi
