"""Times `relay check` (the whole process) against ONNX's C++ `infer_shapes` (in
process, the model loaded) on one model, in rounds: per round, the median of 15 runs
of `relay check` and of 7 calls of `infer_shapes`, and their ratio. The machine's speed
moves between hours: compare the two within one round.

Usage: python3 scripts/onnx-speed.py MODEL RELAY_BINARY [ROUNDS]
(`relay workload 100000 --onnx > w.onnx` writes the README's model; `onnx` from PyPI.)
"""
import statistics
import subprocess
import sys
import time

import onnx

path, relay = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 4
model = onnx.load(path, load_external_data=False)


def relay_run():
    t = time.perf_counter()
    subprocess.run([relay, "check", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def onnx_run():
    t = time.perf_counter()
    onnx.shape_inference.infer_shapes(model)
    return time.perf_counter() - t


for r in range(rounds):
    a = statistics.median(relay_run() for _ in range(15))
    b = statistics.median(onnx_run() for _ in range(7))
    print(f"round {r}: relay check {a * 1000:.1f} ms, infer_shapes {b * 1000:.1f} ms, ratio {a / b:.3f}", flush=True)
