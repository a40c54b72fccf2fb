"""`check_relay` on Relay text and on objects with `astext()` (as `tvm.IRModule`)."""

import pytest

import relay_types

PROGRAM = """\
def @main(%x: Tensor[(n, 3), float32], %w: Tensor[(4, 3), float32]) {
  let %y = nn.dense(%x, %w);
  nn.relu(%y)
}
"""


def test_signature_globals_and_values():
    r = relay_types.check_relay(PROGRAM)
    assert r.ok and r.diagnostics == ()
    sig = "fn (Tensor[(n, 3), float32], Tensor[(4, 3), float32]) -> Tensor[(n, 4), float32]"
    assert r.signature == sig
    assert r.globals == {"main": sig}
    assert list(r.values) == ["x", "w", "y"]
    y = r.values["y"]
    assert (y.type, y.shape, y.dtype) == ("Tensor[(n, 4), float32]", ("n", 4), "float32")


def test_a_type_error_with_its_span_and_rendering():
    text = 'def @main(%x: Tensor[(n, 3), float32]) {\n  add(%x, ones(shape=[4], dtype="float32"))\n}\n'
    r = relay_types.check_relay(text, name="model.relay")
    assert not r.ok
    [d] = r.errors
    assert d.message == (
        "`Tensor[(n, 3), float32]` and `Tensor[(4), float32]` do not broadcast: "
        "dimension 1 of the first is 3 and dimension 0 of the second is 4"
    )
    assert (d.span.line, d.span.column) == (2, 11)
    assert text[d.span.start : d.span.end] == 'ones(shape=[4], dtype="float32")'
    assert d.node is None
    assert d.rendered.startswith(f"error: {d.message}\n  ┌─ model.relay:2:11\n")
    assert "= from the relation `Broadcast` of `add`" in d.rendered


def test_a_parse_error():
    r = relay_types.check_relay("def @main( {")
    [d] = r.errors
    assert d.severity == "error"
    assert d.span.line == 1
    assert r.globals == {}


def test_the_prelude_is_in_scope():
    r = relay_types.check_relay("def @f(%xs: List[int32]) { @length(%xs) }")
    assert r.ok
    assert r.globals == {"f": "fn (List[int32]) -> int32"}
    assert r.signature == "fn (List[int32]) -> int32"


class FakeIRModule:
    """What `check_relay` uses of a `tvm.IRModule`: its `astext()`."""

    def astext(self):
        return 'def @main(%x: Tensor[(2, 2), int64]) { multiply(%x, %x) }'


def test_an_ir_module_through_astext():
    r = relay_types.check_relay(FakeIRModule())
    assert r.signature == "fn (Tensor[(2, 2), int64]) -> Tensor[(2, 2), int64]"


def test_tvm_ir_module_when_installed():
    tvm = pytest.importorskip("tvm")
    from tvm import relay

    x = relay.var("x", shape=(2, 3), dtype="float32")
    mod = tvm.IRModule.from_expr(relay.Function([x], relay.nn.relu(x)))
    r = relay_types.check_relay(mod)
    assert r.signature == "fn (Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32]"


def test_other_objects_are_refused():
    with pytest.raises(TypeError, match="got int"):
        relay_types.check_relay(3)
