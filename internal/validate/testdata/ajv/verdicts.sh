#!/usr/bin/env bash
# Regenerates verdicts.json: the verdicts of ajv (the JSON Schema 2020-12 validator the OpenWOP registry
# uses; an implementation independent of wopkit's) on
#   - every real published v1 pack.json in ../shared/fixtures (node-pack, v1 seeds) and the tool manifests;
#   - every version manifest (x.json beside x.tgz) in ../shared/fixtures (v1) and ../shared/spec-v2/registry (v2):
#     once as "version-manifest" (valid = the registry version-manifest schema accepts it AND, with the registry's
#     fields removed, its pack kind's schema accepts it) and once as "<id>!pack" (the kind schema alone);
#   - the hand-written cases in ../verdicts: NAME.KIND.SPEC.json (KIND a `validate --kind` name, SPEC v1|v2), and
#     the older NAME.{pack,agent,agentref,eval,tool}.json (v1).
# world_ajv_test.go checks that wopkit's schema verdict equals ajv's on each. Needs node, npm and jq; installs
# ajv-cli into a temporary directory. The schema files are the embedded ones (repo schemas/); which file checks
# which (spec, kind) is written out below, independently of wopkit's table.
#   usage: internal/validate/testdata/ajv/verdicts.sh   (from anywhere)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
fixtures=$(cd "$repo/../shared/fixtures" 2>/dev/null && pwd || true)
specv2=$(cd "$repo/../shared/spec-v2" 2>/dev/null && pwd || true)
schemas="$repo/schemas"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ajvdir=${AJV_DIR:-$work/ajv}
if [ ! -x "$ajvdir/node_modules/.bin/ajv" ]; then
  mkdir -p "$ajvdir" && (cd "$ajvdir" && npm install --silent --no-audit --no-fund ajv-cli@5.0.0 ajv-formats@3.0.1 ajv@8 >/dev/null)
fi
ajv="$ajvdir/node_modules/.bin/ajv"
strip='with_entries(select(.key as $k | ["integrity","publishedAt","tarballUrl","signatureUrl","yanked","yankedReason","deprecated","deprecationReason","versionDeprecated","supersededBy","advisoryUrl"] | index($k) | not))'

schemafile() { # schemafile SPEC KIND -> path of the schema, "" when none
  case $1/$2 in
    */tool-manifest) echo "$schemas/install-manifest-v0.4.json";;
    v1/node-pack) echo "$schemas/node-pack-manifest.schema.json";;
    v1/agent) echo "$schemas/agent-manifest.schema.json";;
    v1/agent-ref) echo "$schemas/agent-ref.schema.json";;
    v1/eval-suite) echo "$schemas/agent-eval-suite.schema.json";;
    v1/prompt-ref) echo "$schemas/prompt-ref.schema.json";;
    v1/workflow-chain-pack) echo "$schemas/registry-v1/workflow-chain-pack-manifest.schema.json";;
    v1/prompt-pack) echo "$schemas/registry-v1/prompt-pack-manifest.schema.json";;
    v1/card-pack) echo "$schemas/registry-v1/chat-card-pack-manifest.schema.json";;
    v1/form-content-pack) echo "$schemas/registry-v1/form-content-pack-manifest.schema.json";;
    v1/artifact-type-pack) echo "$schemas/registry-v1/artifact-type-pack-manifest.schema.json";;
    v1/version-manifest) echo "$schemas/registry-v1/registry-version-manifest.schema.json";;
    v2/node-pack) echo "$schemas/v2/node-pack-manifest.schema.json";;
    v2/agent) echo "$schemas/v2/agent-manifest.schema.json";;
    v2/agent-ref) echo "$schemas/v2/agent-ref.schema.json";;
    v2/eval-suite) echo "$schemas/v2/agent-eval-suite.schema.json";;
    v2/prompt-ref) echo "$schemas/v2/prompt-ref.schema.json";;
    v2/workflow-chain-pack) echo "$schemas/v2/workflow-chain-pack-manifest.schema.json";;
    v2/connection-pack) echo "$schemas/v2/connection-pack-manifest.schema.json";;
    v2/prompt-pack) echo "$schemas/v2/prompt-pack-manifest.schema.json";;
    v2/card-pack) echo "$schemas/v2/chat-card-pack-manifest.schema.json";;
    v2/form-content-pack) echo "$schemas/v2/form-content-pack-manifest.schema.json";;
    v2/artifact-type-pack) echo "$schemas/v2/artifact-type-pack-manifest.schema.json";;
    v2/frontend-plugin) echo "$schemas/v2/frontend-plugin-manifest.schema.json";;
    v2/version-manifest) echo "$schemas/v2/registry-version-manifest.schema.json";;
  esac
}
packkind() { # packkind KIND-FIELD -> wopkit kind name
  case $1 in
    node|null|"") echo node-pack;; workflow-chain) echo workflow-chain-pack;; connection) echo connection-pack;;
    prompt) echo prompt-pack;; card) echo card-pack;; form-content) echo form-content-pack;;
    artifact-type) echo artifact-type-pack;; *) echo other;;
  esac
}
ajvcheck() { # ajvcheck SCHEMA DATA -> exit status; every other file of the schema's set is a $ref target
  local s=$1 refs=() f
  case $s in
    "$schemas"/v2/*) for f in "$schemas"/v2/*.json; do [ "$f" = "$s" ] || refs+=(-r "$f"); done;;
    "$schemas"/registry-v1/*) for f in "$schemas"/registry-v1/*.json "$schemas"/agent-manifest.schema.json "$schemas"/prompt-ref.schema.json; do [ "$f" = "$s" ] || refs+=(-r "$f"); done;;
    */install-manifest-v0.4.json) ;;
    *) for f in "$schemas"/agent-manifest.schema.json "$schemas"/prompt-ref.schema.json; do [ "$f" = "$s" ] || refs+=(-r "$f"); done;;
  esac
  (cd "$ajvdir" && "$ajv" validate --spec=draft2020 --strict=false -c ajv-formats -s "$s" "${refs[@]}" -d "$2") >/dev/null 2>&1
}
verdict() { # verdict SPEC KIND FILE -> true|false
  local s; s=$(schemafile "$1" "$2")
  if [ "$2" = version-manifest ]; then
    local inner; inner=$(schemafile "$1" "$(packkind "$(jq -r '.kind' "$3")")")
    jq "$strip" "$3" > "$work/stripped.json"
    if ajvcheck "$s" "$3" && { [ -z "$inner" ] || ajvcheck "$inner" "$work/stripped.json"; }; then echo true; else echo false; fi
    return
  fi
  if ajvcheck "$s" "$3"; then echo true; else echo false; fi
}
out="$work/verdicts.json"
{
  echo "{"
  first=1
  emit() { [ $first = 1 ] || echo ","; first=0; printf '  "%s": {"kind": "%s", "spec": "%s", "valid": %s}' "$1" "$3" "$2" "$(verdict "$2" "$3" "$4")"; }
  manifests() { # manifests PREFIX SPEC FILE...: a version manifest and its pack
    local prefix=$1 spec=$2 f rel; shift 2
    for f in "$@"; do
      case $f in *.sbom.json|*/index.json) continue;; esac
      rel=${f#"$prefix"/}
      emit "$rel" "$spec" version-manifest "$f"
      jq "$strip" "$f" > "$work/pack.json"
      emit "$rel!pack" "$spec" "$(packkind "$(jq -r '.kind' "$f")")" "$work/pack.json"
    done
  }
  if [ -n "$fixtures" ]; then
    for t in "$fixtures"/registry/v1/packs/*/-/*.tgz; do
      name=$(basename "$(dirname "$(dirname "$t")")"); ver=$(basename "$t" .tgz)
      tar -xzOf "$t" pack.json > "$work/p.json" 2>/dev/null || tar -xzOf "$t" ./pack.json > "$work/p.json"
      emit "registry/$name/$ver/pack.json" v1 node-pack "$work/p.json"
    done
    manifests "$fixtures" v1 "$fixtures"/registry/v1/packs/*/-/*.json
    for f in "$fixtures"/tool-manifests/*.json; do emit "tool-manifests/$(basename "$f")" v1 tool-manifest "$f"; done
  fi
  if [ -n "$specv2" ]; then
    manifests "$(dirname "$specv2")" v2 "$specv2"/registry/v2/packs/*/-/*.json
  fi
  for f in "$here"/../verdicts/*.json; do
    b=$(basename "$f")
    case $b in
      *.v1.json|*.v2.json) s=${b%.json}; spec=${s##*.}; s=${s%.*}; k=${s##*.};;
      *.pack.json) spec=v1; k=node-pack;; *.agent.json) spec=v1; k=agent;; *.agentref.json) spec=v1; k=agent-ref;;
      *.eval.json) spec=v1; k=eval-suite;; *.tool.json) spec=v1; k=tool-manifest;;
    esac
    emit "verdicts/$b" "$spec" "$k" "$f"
  done
  echo; echo "}"
} > "$out"
cp "$out" "$here/verdicts.json"
cat "$here/verdicts.json"
