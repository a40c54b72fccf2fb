#!/usr/bin/env bash
# Scores `relay-onnx` on ONNX's backend node tests: fetches the onnx 1.22.0 wheel (the last
# that ships them) from the package registry, unpacks its node tests into
# target/onnx-node-tests/, and runs examples/node_tests over them. Exits 1 on a conflict
# or on fewer exact tests than MIN_EXACT (default: the README's figure).
# With --python, scores through the Python package instead: `relay_types.infer_shapes` on
# each model (relay-py/tools/node_tests.py, the same scoring), run by $PYTHON (default
# python3), which must have `relay_types` and `onnx` installed.
# Usage: scripts/onnx-node-tests.sh [--python] [--list FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=target/onnx-node-tests
node="$dir/onnx/backend/test/data/node"
if [ ! -d "$node" ]; then
  mkdir -p "$dir/wheel"
  python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$dir/wheel" onnx==1.22.0
  python3 - "$dir" <<'PY'
import glob, sys, zipfile
out = sys.argv[1]
wheel = glob.glob(out + "/wheel/onnx-1.22.0-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    for m in z.namelist():
        if m.startswith("onnx/backend/test/data/node/"):
            z.extract(m, out)
PY
fi
min_exact=${MIN_EXACT:-1700}
if [ "${1:-}" = --python ]; then
  shift
  exec "${PYTHON:-python3}" relay-py/tools/node_tests.py "$node" --min-exact "$min_exact" "$@"
fi
# The test profile's build by default (what `cargo test` already compiled); PROFILE=release
# for a faster run after a change.
profile=${PROFILE:-dev}
cargo build -q --profile "$profile" -p relay-onnx --example node_tests
dir_of=$([ "$profile" = dev ] && echo debug || echo "$profile")
target/"$dir_of"/examples/node_tests "$node" --min-exact "$min_exact" "$@"
