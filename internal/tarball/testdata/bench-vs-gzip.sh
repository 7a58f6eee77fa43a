#!/bin/sh
# Times wopkit's tarball writer against `tar --sort=name -c DIR | gzip -6 -n`
# on the same generated tree (default 200 MiB: half text, half random bytes)
# and reports wall time, CPU time, max resident memory and output sizes.
#
#   internal/tarball/testdata/bench-vs-gzip.sh [MB] [WORKDIR]
#
# Targets: our wall time <= half of tar|gzip's, output <= 2% larger, max RSS < 64 MB.
set -eu
MB=${1:-200}
WORK=${2:-$(mktemp -d)}
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
for tool in tar gzip /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }
done
cd "$ROOT"
go build -o "$WORK/tgzbench" ./internal/tarball/testdata/tgzbench
if [ ! -d "$WORK/tree" ]; then
	"$WORK/tgzbench" gen "$WORK/tree" "$MB"
fi
cat "$WORK"/tree/*/* "$WORK"/tree/*/*/* >/dev/null 2>&1 || true # warm the page cache for both
echo "tree: $(du -sh "$WORK/tree" | cut -f1) in $(find "$WORK/tree" -type f | wc -l) files; $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "tar|gzip -6: %e s wall, %U s user, %S s sys, %M KB max RSS (gzip)" \
	sh -c "tar --sort=name -C '$WORK/tree' -c . | gzip -6 -n > '$WORK/ref.tgz'"
/usr/bin/time -f "wopkit:      %e s wall, %U s user, %S s sys, %M KB max RSS" \
	"$WORK/tgzbench" pack "$WORK/tree" "$WORK/ours.tgz"
ref=$(wc -c < "$WORK/ref.tgz")
ours=$(wc -c < "$WORK/ours.tgz")
echo "size: tar|gzip $ref bytes, wopkit $ours bytes ($(awk "BEGIN{printf \"%+.2f\", ($ours-$ref)*100/$ref}")%)"
gzip -t "$WORK/ours.tgz" && tar -tzf "$WORK/ours.tgz" >/dev/null && echo "gzip -t and tar -t accept the output"
echo "work dir: $WORK (remove when done)"
