#!/usr/bin/env bash
# Regenerates verdicts.json: the verdicts of ajv (the JSON Schema 2020-12 validator the OpenWOP registry
# uses; an implementation independent of wopkit's) on every real published manifest in
# ../shared/fixtures and on the hand-written cases in ../verdicts. verdicts_test.go checks that wopkit's
# schema verdict equals ajv's on each. Needs node and npm; installs ajv-cli into a temporary directory.
#   usage: internal/validate/testdata/ajv/verdicts.sh   (from anywhere)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
fixtures=$(cd "$repo/../shared/fixtures" 2>/dev/null && pwd || true)
schemas="$repo/schemas"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ajvdir=${AJV_DIR:-$work/ajv}
if [ ! -x "$ajvdir/node_modules/.bin/ajv" ]; then
  mkdir -p "$ajvdir" && (cd "$ajvdir" && npm install --silent --no-audit --no-fund ajv-cli@5.0.0 ajv-formats@3.0.1 ajv@8 >/dev/null)
fi
ajv="$ajvdir/node_modules/.bin/ajv"
verdict() { # verdict KIND FILE -> true|false
  local refs=()
  local s
  case $1 in
    node-pack) s=node-pack-manifest.schema.json; refs=(-r "$schemas/agent-manifest.schema.json" -r "$schemas/prompt-ref.schema.json");;
    agent) s=agent-manifest.schema.json; refs=(-r "$schemas/prompt-ref.schema.json");;
    agent-ref) s=agent-ref.schema.json;;
    eval-suite) s=agent-eval-suite.schema.json;;
    tool-manifest) s=install-manifest-v0.4.json;;
  esac
  if (cd "$ajvdir" && "$ajv" validate --spec=draft2020 --strict=false -c ajv-formats -s "$schemas/$s" "${refs[@]}" -d "$2") >/dev/null 2>&1; then
    echo true; else echo false; fi
}
out="$work/verdicts.json"
{
  echo "{"
  first=1
  emit() { [ $first = 1 ] || echo ","; first=0; printf '  "%s": {"kind": "%s", "valid": %s}' "$1" "$2" "$(verdict "$2" "$3")"; }
  if [ -n "$fixtures" ]; then
    for t in "$fixtures"/registry/v1/packs/*/-/*.tgz; do
      name=$(basename "$(dirname "$(dirname "$t")")"); ver=$(basename "$t" .tgz)
      tar -xzOf "$t" pack.json > "$work/p.json" 2>/dev/null || tar -xzOf "$t" ./pack.json > "$work/p.json"
      emit "registry/$name/$ver/pack.json" node-pack "$work/p.json"
    done
    for f in "$fixtures"/tool-manifests/*.json; do emit "tool-manifests/$(basename "$f")" tool-manifest "$f"; done
  fi
  for f in "$here"/../verdicts/*.json; do
    b=$(basename "$f")
    case $b in *.pack.json) k=node-pack;; *.agent.json) k=agent;; *.agentref.json) k=agent-ref;; *.eval.json) k=eval-suite;; *.tool.json) k=tool-manifest;; esac
    emit "verdicts/$b" "$k" "$f"
  done
  echo; echo "}"
} > "$out"
cp "$out" "$here/verdicts.json"
cat "$here/verdicts.json"
