#!/bin/sh
# Times `wopkit pack` against `tar --sort=name -c | gzip -6 -n` on the same
# generated pack: a 200 MiB runtime artifact (dist/app.bin, alternating
# 1 MiB chunks of Go source text and random bytes) plus a few small files.
# Reports wall time, CPU time, max resident memory (/usr/bin/time -v) and
# output sizes.
#
#   internal/pack/testdata/bench-pack.sh [MB] [WORKDIR]
#
# Targets (issue 3): wopkit's wall time <= half of tar|gzip's, output <= 2%
# larger, max RSS < 64 MB.
set -eu
MB=${1:-200}
WORK=${2:-$(mktemp -d)}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
for tool in tar gzip python3 /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done
(cd "$ROOT" && go build -o "$WORK/wopkit" ./cmd/wopkit)
TREE="$WORK/tree"
if [ ! -f "$TREE/dist/app.bin" ]; then
	mkdir -p "$TREE/dist" "$TREE/schemas"
	# Go's sources hold test PEM keys: defuse them, or pack rightly refuses.
	find "$(go env GOROOT)/src" -type f -name '*.go' -print0 | xargs -0 cat | sed 's/PRIVATE KEY/PRIVATE_KEY/g' |
		head -c $((MB * 1024 * 1024 / 2)) > "$WORK/text"
	python3 - "$WORK/text" "$TREE/dist/app.bin" "$MB" <<'PY'
import os, sys
text = open(sys.argv[1], 'rb').read()
mb = int(sys.argv[3])
with open(sys.argv[2], 'wb') as out:
    for i in range(mb):
        if i % 2 == 0:
            off = (i // 2) * (1 << 20)
            chunk = text[off:off + (1 << 20)]
            out.write(chunk + os.urandom((1 << 20) - len(chunk)))
        else:
            out.write(os.urandom(1 << 20))
PY
	rm -f "$WORK/text"
	cat > "$TREE/pack.json" <<'JSON'
{
  "name": "vendor.acme.big",
  "version": "1.0.0",
  "description": "A pack with a large runtime artifact",
  "license": "MIT",
  "engines": {"openwop": ">=1.1.0 <2.0.0"},
  "nodes": [{"typeId": "vendor.acme.big.run", "version": "1.0.0", "category": "data", "role": "transform", "label": "Run"}],
  "runtime": {"language": "wasm", "format": "wasm", "entry": "./dist/app.bin"}
}
JSON
	echo '# big' > "$TREE/README.md"
	echo 'MIT' > "$TREE/LICENSE"
	echo '{"type":"object"}' > "$TREE/schemas/in.json"
fi
cat "$TREE/dist/app.bin" > /dev/null # warm the page cache for both
echo "tree: $(du -sh "$TREE" | cut -f1); $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
stat() { grep -E 'Elapsed|User time|System time|Maximum resident' "$1" | sed 's/^\s*/    /'; }
/usr/bin/time -v sh -c "tar --sort=name -C '$TREE' -c . | gzip -6 -n > '$WORK/ref.tgz'" 2> "$WORK/ref.time"
echo "tar | gzip -6 -n:"; stat "$WORK/ref.time"
/usr/bin/time -v "$WORK/wopkit" pack "$TREE" --no-validate --level 6 --max-size 1000 -o "$WORK/ours.tgz" > /dev/null 2> "$WORK/ours.time"
echo "wopkit pack:"; stat "$WORK/ours.time"
ref=$(wc -c < "$WORK/ref.tgz")
ours=$(wc -c < "$WORK/ours.tgz")
echo "size: tar|gzip $ref bytes, wopkit $ours bytes ($(awk "BEGIN{printf \"%+.2f\", ($ours-$ref)*100/$ref}")%)"
tar -tzf "$WORK/ours.tgz" > /dev/null && echo "GNU tar lists wopkit's tarball"
echo "work dir: $WORK (remove when done)"
