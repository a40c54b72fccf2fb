#!/usr/bin/env bash
# Parse + inference of the reference workload in rounds, binaries in turn: per round and
# binary, N = 100,000 cold (the best of 10 runs) and warm (of 10), N = 1,000,000 cold (of
# 3), and the cold ratio of the two sizes; then each figure's median over the rounds.
# Cold: each run's memory fresh from the system; warm: reused (glibc tunables).
# Usage: scripts/rounds.sh [ROUNDS] [BINARY...]   (binaries of the workload_phases
# example; by default the current build's). The machine's speed moves between hours:
# compare binaries in one call, not figures of different calls.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
shift || true
if [ $# -eq 0 ]; then
  cargo build --release -q -p relay-ops --example workload_phases
  set -- target/release/examples/workload_phases
fi
cold=glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072
warm=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=4000000000
total() { GLIBC_TUNABLES=$1 REPS=$2 "$3" "$4" | sed -n 's/.*total \([0-9.]*\) ms.*/\1/p'; }
declare -A c1 w1 c2 r
for _ in $(seq "$rounds"); do
  for b in "$@"; do
    x=$(total "$cold" 10 "$b" 100000)
    y=$(total "$cold" 3 "$b" 1000000)
    c1[$b]+=" $x"
    c2[$b]+=" $y"
    r[$b]+=" $(awk "BEGIN { printf \"%.2f\", $y / $x }")"
    w1[$b]+=" $(total "$warm" 10 "$b" 100000)"
  done
done
median() { tr ' ' '\n' <<<"$*" | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf '%-50s %12s %12s %12s %10s\n' binary "100k cold" "100k warm" "1M cold" "1M/100k"
for b in "$@"; do
  printf '%-50s %9s ms %9s ms %9s ms %9s×\n' "$b" "$(median ${c1[$b]})" "$(median ${w1[$b]})" \
    "$(median ${c2[$b]})" "$(median ${r[$b]})"
  echo "  ratios by round:${r[$b]}"
done
