"""Calls from several threads at once: each gets its own, correct, result."""

from concurrent.futures import ThreadPoolExecutor

from onnx import TensorProto, helper

import relay_types


def chain(n, rank_dim):
    """`x: float[N, rank_dim]` through `n` Relu/Neg nodes."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", rank_dim])
    nodes = [
        helper.make_node("Relu" if i % 2 else "Neg", [f"v{i}" if i else "x"], [f"v{i + 1}"])
        for i in range(n)
    ]
    y = helper.make_tensor_value_info(f"v{n}", TensorProto.FLOAT, None)
    g = helper.make_graph(nodes, "chain", [x], [y])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    return m.SerializeToString()


def test_threads_check_side_by_side():
    models = [(chain(2000, d), d) for d in range(1, 9)]

    def run(job):
        data, d = job
        out = relay_types.infer_shapes(data)
        return relay_types.check(out).values[f"v{2000}"].shape, d

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(run, models * 3))
    assert results == [(("N", d), d) for _, d in models * 3]


def test_relay_from_threads():
    texts = [f"def @main(%x: Tensor[(n, {d}), float32]) {{ nn.relu(%x) }}" for d in range(1, 17)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        sigs = list(pool.map(lambda t: relay_types.check_relay(t).signature, texts))
    assert sigs == [f"fn (Tensor[(n, {d}), float32]) -> Tensor[(n, {d}), float32]" for d in range(1, 17)]
