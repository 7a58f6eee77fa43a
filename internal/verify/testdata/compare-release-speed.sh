#!/usr/bin/env bash
# Times `wopkit verify --registry ROOT` of every version of a registry checkout, and `wopkit version` (start-up),
# for this tree's wopkit beside an earlier release's, side by side in one run: the two binaries alternate (A B A B ...)
# so that a burst of load weighs on both alike; prints the median CPU time (user+sys, the steady figure on a busy
# machine) and wall time of each and the median of the pairwise ratios new/old. Needs git and python3.
#   usage: WOPKIT_REGISTRY_CHECKOUT=~/openwop-registry internal/verify/testdata/compare-release-speed.sh [OLD_REV] [RUNS]
# OLD_REV defaults to aeba6e3 (the release before issue 45); RUNS to 40. `wopkit version` is run 30 times per sample.
set -euo pipefail
old_rev=${1:-aeba6e3}
runs=${2:-40}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
checkout=${WOPKIT_REGISTRY_CHECKOUT:?set WOPKIT_REGISTRY_CHECKOUT to a clone of https://github.com/openwop/openwop-registry}
t=$(mktemp -d)
trap 'git -C "$repo" worktree remove --force "$t/old" >/dev/null 2>&1 || true; rm -rf "$t"' EXIT
git -C "$repo" worktree add --detach "$t/old" "$old_rev" >/dev/null 2>&1
(cd "$t/old" && go build -o "$t/wopkit-old" ./cmd/wopkit)
(cd "$repo" && go build -o "$t/wopkit-new" ./cmd/wopkit)
cd "$checkout/registry"
mapfile -t tgzs < <(ls v*/packs/*/-/*.tgz)
echo "registry: ${#tgzs[@]} versions in $checkout/registry; old = $old_rev; load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
for b in old new; do "$t/wopkit-$b" verify "${tgzs[@]}" --registry . >"$t/out-$b" 2>&1 || true; done
cmp -s "$t/out-old" "$t/out-new" && echo "outputs: identical" || echo "outputs: DIFFER (diff $t/out-old $t/out-new)"
# sample OLD|NEW verify|version appends "cpu wall" of one run to $t/WHAT-WHICH: the children's user+sys time from
# wait4 (microseconds; GNU time prints hundredths, too coarse for a run of 0.1 s).
sample() {
  local bin="$t/wopkit-$1" args
  if [ "$2" = verify ]; then args=(verify "${tgzs[@]}" --registry .); else args=(version); fi
  local n=1; [ "$2" = version ] && n=30
  python3 - "$n" "$bin" "${args[@]}" >>"$t/$2-$1" <<'PY'
import os, resource, subprocess, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
before, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
for _ in range(n):
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(f"{cpu:.6f} {time.monotonic() - t0:.6f}")
PY
}
for what in verify version; do
  for _ in 1 2; do sample old "$what"; sample new "$what"; done # warm-up
  rm -f "$t/$what-old" "$t/$what-new"
  for _ in $(seq "$runs"); do sample old "$what"; sample new "$what"; done
done
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for what in verify version; do
  oc=$(cut -d' ' -f1 "$t/$what-old" | median); nc=$(cut -d' ' -f1 "$t/$what-new" | median)
  ow=$(cut -d' ' -f2 "$t/$what-old" | median); nw=$(cut -d' ' -f2 "$t/$what-new" | median)
  rc=$(paste -d' ' "$t/$what-new" "$t/$what-old" | awk '$3 > 0 {print $1 / $3}' | median)
  echo "$what: cpu median old ${oc}s new ${nc}s (pairwise ratio new/old ${rc}); wall median old ${ow}s new ${nw}s"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)"
