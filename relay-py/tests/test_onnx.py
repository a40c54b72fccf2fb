"""`infer_shapes` and `check` on ONNX models built with onnx.helper."""

import onnx
import pytest
from onnx import TensorProto, helper

import relay_types

F, I64 = TensorProto.FLOAT, TensorProto.INT64


def model(nodes, inputs, outputs, inits=(), value_info=(), opset=17):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits), value_info=list(value_info))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def x_nsd():
    return helper.make_tensor_value_info("x", F, ["N", "S", 768])


def ints(name, values, dims=None):
    return helper.make_tensor(name, I64, [len(values)] if dims is None else dims, values)


def exporter_reshape():
    """`Reshape(x, Concat(Shape(x)[0] * Shape(x)[1], 768))`, as exporters write it."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i0"], ["d0"], axis=0),
        helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
        helper.make_node("Mul", ["d0", "d1"], ["p"]),
        helper.make_node("Unsqueeze", ["p", "ax"], ["pu"]),
        helper.make_node("Concat", ["pu", "c768"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["r"]),
        helper.make_node("Relu", ["r"], ["y"]),
    ]
    inits = [ints("i0", [0], []), ints("i1", [1], []), ints("ax", [0]), ints("c768", [768])]
    y = helper.make_tensor_value_info("y", F, None)
    return model(nodes, [x_nsd()], [y], inits)


def dims(vi):
    out = []
    for d in vi.type.tensor_type.shape.dim:
        which = d.WhichOneof("value")
        out.append(d.dim_value if which == "dim_value" else d.dim_param if which else None)
    return out


def by_name(values):
    return {v.name: v for v in values}


def test_fills_the_value_info_onnx_leaves_unknown():
    m = exporter_reshape()
    ours = relay_types.infer_shapes(m)
    assert isinstance(ours, onnx.ModelProto)
    vi = by_name(ours.graph.value_info)
    assert dims(vi["r"]) == ["N*S", 768]
    assert vi["r"].type.tensor_type.elem_type == F
    assert dims(ours.graph.output[0]) == ["N*S", 768]
    assert dims(vi["shape"]) == [2]
    assert vi["p"].type.tensor_type.elem_type == I64 and dims(vi["p"]) == []
    # onnx's own inference, with data propagation, names the product an unknown.
    theirs = onnx.shape_inference.infer_shapes(m, data_prop=True)
    first = dims(by_name(theirs.graph.value_info)["r"])[0]
    assert first is None or first.startswith("unk__"), first
    onnx.checker.check_model(ours)


def test_the_result_reads_back_and_infers_the_same():
    once = relay_types.infer_shapes(exporter_reshape())
    again = relay_types.infer_shapes(once)
    assert again == once
    r = relay_types.check(once)
    assert r.ok and r.diagnostics == ()
    assert r.values["r"].shape == ("N*S", 768)


def test_every_node_output_gets_a_value_info_in_order():
    ours = relay_types.infer_shapes(exporter_reshape())
    assert [v.name for v in ours.graph.value_info] == ["s", "d0", "d1", "p", "pu", "shape", "r"]
    # The rest of the model is as it was.
    assert ours.graph.initializer == exporter_reshape().graph.initializer
    assert ours.graph.node == exporter_reshape().graph.node


def test_bytes_in_bytes_out_and_a_path():
    m = exporter_reshape()
    out = relay_types.infer_shapes(m.SerializeToString())
    assert isinstance(out, bytes)
    assert onnx.ModelProto.FromString(out) == relay_types.infer_shapes(m)


def test_a_path(tmp_path):
    p = tmp_path / "m.onnx"
    onnx.save(exporter_reshape(), str(p))
    r = relay_types.check(p)
    assert r.signature == "fn (Tensor[(N, S, 768), float32]) -> Tensor[(N*S, 768), float32]"
    out = onnx.ModelProto.FromString(relay_types.infer_shapes(str(p)))
    assert dims(out.graph.output[0]) == ["N*S", 768]


def test_check_lists_every_value():
    r = relay_types.check(exporter_reshape())
    assert r.globals == {"main": r.signature}
    x = r.values["x"]
    assert (x.shape, x.dtype, x.type) == (("N", "S", 768), "float32", "Tensor[(N, S, 768), float32]")
    assert r.values["c768"].shape == (1,)
    assert r.values["d0"].type == "int64"
    assert r.values["r"].type == "Tensor[(N*S, 768), float32]"


def test_floordiv_dims_as_dim_param():
    x = helper.make_tensor_value_info("x", F, [1, 3, "H", "W"])
    w = helper.make_tensor("w", F, [8, 3, 3, 3], [0.0] * 216)
    conv = helper.make_node("Conv", ["x", "w"], ["y"], strides=[2, 2], pads=[1, 1, 1, 1])
    y = helper.make_tensor_value_info("y", F, None)
    out = relay_types.infer_shapes(model([conv], [x], [y], [w]))
    assert dims(out.graph.output[0]) == [1, 8, "floordiv(H + 1, 2)", "floordiv(W + 1, 2)"]


def broadcast_clash():
    a = helper.make_tensor_value_info("a", F, ["N", 3])
    b = helper.make_tensor_value_info("b", F, [4])
    nodes = [
        helper.make_node("Relu", ["a"], ["r"]),
        helper.make_node("Add", ["r", "b"], ["s"], name="add0"),
        helper.make_node("Neg", ["a"], ["n"]),
    ]
    outs = [helper.make_tensor_value_info(n, F, None) for n in ("s", "n")]
    return model(nodes, [a, b], outs)


def test_strict_raises_the_rendered_diagnostic():
    with pytest.raises(relay_types.CheckError) as e:
        relay_types.infer_shapes(broadcast_clash())
    text = str(e.value)
    assert text.startswith("error: ")
    assert "node 1 `add0` (Add)" in text
    assert "Tensor[(N, 3), float32]" in text and "Tensor[(4), float32]" in text
    [d] = e.value.diagnostics
    assert d.node == relay_types.Node(1, "add0", "Add")
    # What was inferred comes with the error.
    assert e.value.result.values["r"].shape == ("N", 3)
    assert d.severity == "error" and not d.unsupported
    assert str(d) == d.rendered and d.rendered.startswith(text.splitlines()[0])


def test_not_strict_returns_what_it_could_infer():
    out, result = relay_types.infer_shapes(broadcast_clash(), strict=False)
    assert not result.ok and len(result.errors) == 1
    outputs = {o.name: o for o in out.graph.output}
    # The node that does not depend on the clash is typed; of the clash's output, only
    # its dtype is known.
    assert dims(outputs["n"]) == ["N", 3]
    assert outputs["s"].type.tensor_type.elem_type == F
    assert not outputs["s"].type.tensor_type.HasField("shape")
    assert [v.name for v in out.graph.value_info] == ["r"]


def test_strict_mode_keyword_as_onnx_spells_it():
    out = relay_types.infer_shapes(broadcast_clash(), strict_mode=False)
    assert isinstance(out, relay_types.Inferred)


def test_an_unsupported_operator_is_named():
    x = helper.make_tensor_value_info("x", F, [2])
    node = helper.make_node("NoSuchOp", ["x"], ["y"], name="mystery")
    y = helper.make_tensor_value_info("y", F, None)
    r = relay_types.check(model([node], [x], [y]))
    [d] = r.errors
    assert d.unsupported
    assert d.node == relay_types.Node(0, "mystery", "NoSuchOp")
    assert "NoSuchOp" in d.message


def test_declared_dims_are_kept_where_inference_knows_less():
    # `r` is declared `(batch, ?)` where inference has `(N*S, 768)`: an exporter's name
    # becomes what it is in the inputs' symbols, an unset dimension the inferred one.
    m = exporter_reshape()
    m.graph.value_info.append(helper.make_tensor_value_info("r", F, ["batch", None]))
    out = relay_types.infer_shapes(m)
    r = [v for v in out.graph.value_info if v.name == "r"]
    assert len(r) == 1 and dims(r[0]) == ["N*S", 768]
    # A declared number is kept where inference has a symbol that could be it (a
    # size that depends on data), and any declared dimension where it has nothing.
    x = helper.make_tensor_value_info("x", F, [5])
    nodes = [helper.make_node("NonZero", ["x"], ["nz"]), helper.make_node("Shape", ["nz"], ["s"])]
    y = helper.make_tensor_value_info("nz", I64, [1, 3])
    out = relay_types.infer_shapes(model(nodes, [x], [y]))
    assert dims(out.graph.output[0]) == [1, 3]


def test_a_declared_output_that_disagrees_is_an_error():
    m = exporter_reshape()
    m.graph.output[0].CopyFrom(helper.make_tensor_value_info("y", F, ["N*S", 512]))
    with pytest.raises(relay_types.CheckError) as e:
        relay_types.infer_shapes(m)
    assert "graph output `y` is declared `Tensor[(N*S, 512), float32]`" in str(e.value)
    assert "dimension 1: declared 512, inferred 768" in str(e.value)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "the file is empty, not an ONNX model"),
        (b"\x08\x08\x3a\x10\x0a", "the file is truncated"),
    ],
)
def test_bytes_that_are_not_a_model(data, message):
    with pytest.raises(ValueError) as e:
        relay_types.infer_shapes(data)
    assert message in str(e.value)
    assert not isinstance(e.value, relay_types.CheckError)


def test_a_missing_file():
    with pytest.raises(OSError, match="cannot read `/no/such/model.onnx`"):
        relay_types.check("/no/such/model.onnx")


def test_other_objects_are_refused():
    with pytest.raises(TypeError, match="got int"):
        relay_types.check(3)
