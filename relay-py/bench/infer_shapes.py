"""`relay_types.infer_shapes` against `onnx.shape_inference.infer_shapes`, model in and
model out, on one ONNX model (by default the reference workload of 100k nodes, written
by the `relay` command).

    relay workload 100000 --onnx > w100k.onnx
    python relay-py/bench/infer_shapes.py w100k.onnx [--repeat 5]

Each figure is the best of `--repeat` runs of the whole call from Python (wall clock, and
the process's CPU time): for both, the `ModelProto` is serialized, inferred and parsed
back. Also shown: where relay_types'
time goes (serializing, the native call on bytes, parsing the result).
"""

import argparse
import time

import onnx
import onnx.shape_inference

import relay_types


def best(f, repeat):
    """The best wall-clock time and the best CPU time of the process over `repeat` runs
    (on a shared machine the CPU time is the steadier figure), and the result."""
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        out = f()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return (min(wall), min(cpu)), out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    # The weights stay outside: a shape checker (either) never reads them.
    model = onnx.load(args.model, load_external_data=False)
    data = model.SerializeToString()
    print(f"{args.model}: {len(model.graph.node)} nodes, {len(data) / 1e6:.1f} MB")

    ours, out = best(lambda: relay_types.infer_shapes(model), args.repeat)
    theirs, ref = best(lambda: onnx.shape_inference.infer_shapes(model), args.repeat)
    theirs_dp, _ = best(
        lambda: onnx.shape_inference.infer_shapes(model, data_prop=True), args.repeat
    )
    ser, _ = best(model.SerializeToString, args.repeat)
    native, out_bytes = best(lambda: relay_types.infer_shapes(data), args.repeat)
    parse, _ = best(lambda: onnx.ModelProto.FromString(out_bytes), args.repeat)
    chk, _ = best(lambda: relay_types.check(data), args.repeat)

    print(f"value_info: relay_types {len(out.graph.value_info)}, onnx {len(ref.graph.value_info)}")
    rows = [
        ("relay_types.infer_shapes (ModelProto in and out)", ours),
        ("onnx infer_shapes", theirs),
        ("onnx infer_shapes, data_prop=True", theirs_dp),
        ("  relay_types: SerializeToString", ser),
        ("  relay_types: infer_shapes on bytes (native)", native),
        ("  relay_types: ModelProto.FromString of the result", parse),
        ("relay_types.check (bytes)", chk),
    ]
    print(f"{'':<52} {'wall':>8}    {'CPU':>8}")
    for name, (wall, cpu) in rows:
        print(f"{name:<52} {wall * 1000:8.1f} ms {cpu * 1000:8.1f} ms")
    for what, i in (("wall", 0), ("CPU", 1)):
        print(
            f"speed-up over onnx infer_shapes ({what}): {theirs[i] / ours[i]:.1f}x "
            f"({theirs_dp[i] / ours[i]:.1f}x over data_prop=True)"
        )


if __name__ == "__main__":
    main()
