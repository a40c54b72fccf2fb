#!/usr/bin/env bash
# Peak memory (maximum resident set) of `relay check` on the reference workload at
# N = 1,000 to 1,000,000 operators, next to the size of the source text.
# Usage: scripts/peak-memory.sh [N...]   (needs GNU time at /usr/bin/time)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p relay-cli
relay=target/release/relay
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '%10s %12s %12s %8s %8s\n' N source_KiB peak_KiB ratio seconds
for n in "${@:-1000 10000 100000 1000000}"; do
  for m in $n; do
    "$relay" workload "$m" > "$dir/w.relay"
    src=$(( $(stat -c %s "$dir/w.relay") / 1024 ))
    out=$( { /usr/bin/time -f '%M %e' "$relay" check "$dir/w.relay" > /dev/null; } 2>&1 | tail -1)
    peak=${out% *}
    secs=${out#* }
    printf '%10s %12s %12s %8s %8s\n' "$m" "$src" "$peak" "$(awk "BEGIN{printf \"%.2f\", $peak/$src}")" "$secs"
  done
done
