"""Exact symbolic shapes for ONNX models, and type checking for TVM Relay text.

``infer_shapes`` is a drop-in for ``onnx.shape_inference.infer_shapes``: it returns the
model with every value's type in ``value_info`` and on the graph outputs, with symbolic
dimensions written as ``dim_param`` strings (``N``, ``N*S``, ``floordiv(H + 1, 2)``).
``check`` and ``check_relay`` return a :class:`CheckResult`: the signature, every value's
shape and dtype, and the diagnostics.

The checker runs without the GIL: calls from several threads run side by side. ``onnx``
is needed only when an ``onnx.ModelProto`` is passed or returned.

>>> import relay_types
>>> r = relay_types.check_relay("def @main(%x: Tensor[(n, 3), float32]) { nn.relu(%x) }")
>>> r.signature
'fn (Tensor[(n, 3), float32]) -> Tensor[(n, 3), float32]'
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterator, List, Mapping, NamedTuple, Optional, Tuple, Union

from . import _native

__all__ = [
    "CheckError",
    "CheckResult",
    "Diagnostic",
    "Inferred",
    "Node",
    "Span",
    "Value",
    "check",
    "check_relay",
    "infer_shapes",
]

#: A dimension: a number, a symbol or an expression over symbols (``"N*S"``), or
#: ``None`` when it is not known.
Dim = Union[int, str, None]

ModelLike = Union["onnx.ModelProto", bytes, str, "os.PathLike[str]"]  # noqa: F821


@dataclass(frozen=True)
class Node:
    """The ONNX node a diagnostic is about."""

    index: int
    """Its index among the graph's nodes."""
    name: str
    """Its name (may be empty)."""
    op_type: str
    """Its op type, with its domain when that is not the default one."""


@dataclass(frozen=True)
class Span:
    """Where in a Relay program's text a diagnostic points."""

    start: int
    """The first byte."""
    end: int
    """One past the last byte."""
    line: int
    """The line of ``start``, from 1."""
    column: int
    """The column of ``start``, in characters, from 1."""


@dataclass(frozen=True)
class Diagnostic:
    """A problem found in a model or program. ``str()`` of it is ``rendered``."""

    severity: str
    """``"error"`` or ``"warning"``."""
    message: str
    """What is wrong, in one line."""
    node: Optional[Node]
    """The ONNX node it is about, if one."""
    span: Optional[Span]
    """Where in a Relay program's text it is, if there."""
    notes: Tuple[str, ...]
    """Further facts: the types that clash, a hint."""
    rendered: str
    """The diagnostic as ``relay check`` prints it (the node, or the source line)."""
    unsupported: bool = False
    """It reports something the checker does not support yet (an ONNX operator), not a
    mistake in the model."""

    def __str__(self) -> str:
        return self.rendered


@dataclass(frozen=True)
class Value:
    """A value of a model or program and its type."""

    name: str
    """Its name (an ONNX value name, a Relay variable without ``%``)."""
    type: str
    """Its type in Relay's syntax (``Tensor[(N, 3), float32]``); ``?`` when not known."""
    shape: Optional[Tuple[Dim, ...]]
    """Its dimensions (ints, symbol strings, ``None`` where not known); ``None`` when it
    is not a tensor or its rank is not known."""
    dtype: Optional[str]
    """Its dtype (``float32``), if a tensor whose dtype is known."""


@dataclass(frozen=True)
class CheckResult:
    """A checked ONNX model or Relay program."""

    signature: str
    """The graph's type (``fn (inputs) -> outputs``); for Relay text, ``@main``'s (or
    the last global's if there is no ``@main``)."""
    globals: Mapping[str, str]
    """Each global's type by name (``main`` for an ONNX graph)."""
    values: Mapping[str, Value]
    """Each value's type by name: an ONNX graph's inputs, initializers and node outputs;
    a Relay program's parameters and ``let`` bindings."""
    diagnostics: Tuple[Diagnostic, ...]
    """Errors and warnings, in the order of the graph or the text."""

    @property
    def errors(self) -> Tuple[Diagnostic, ...]:
        """The diagnostics that are errors."""
        return tuple(d for d in self.diagnostics if d.severity == "error")

    @property
    def ok(self) -> bool:
        """Whether it is well typed (no error)."""
        return not self.errors

    def rendered(self) -> str:
        """Every diagnostic as ``relay check`` prints it, one after the other."""
        return "".join(d.rendered for d in self.diagnostics)


class CheckError(ValueError):
    """A model or program that is not well typed. ``str()`` is its errors rendered (the
    node, its op type and the types that clash); ``result`` holds everything inferred."""

    def __init__(self, result: CheckResult) -> None:
        super().__init__("".join(d.rendered for d in result.errors).rstrip("\n"))
        self.result = result

    @property
    def diagnostics(self) -> Tuple[Diagnostic, ...]:
        """The errors."""
        return self.result.errors


class Inferred(NamedTuple):
    """What ``infer_shapes(model, strict=False)`` returns."""

    model: Any
    """The model with its inferred types (the kind that was passed: ``ModelProto`` for a
    ``ModelProto``, ``bytes`` otherwise)."""
    result: CheckResult
    """The check's result, with its diagnostics."""


def _value(raw: Tuple[str, str, Optional[List[Dim]], Optional[str]]) -> Value:
    name, ty, dims, dtype = raw
    return Value(name, ty, tuple(dims) if dims is not None else None, dtype)


class _Values(Mapping[str, Value]):
    """The values of a checked model by name, each made into a :class:`Value` when it
    is looked up (a model of 100k nodes has as many)."""

    __slots__ = ("_native",)

    def __init__(self, native: Any) -> None:
        self._native = native

    def __getitem__(self, name: str) -> Value:
        raw = self._native.get(name) if isinstance(name, str) else None
        if raw is None:
            raise KeyError(name)
        return _value(raw)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name in self._native

    def __iter__(self) -> Iterator[str]:
        return iter(self._native.names())

    def __len__(self) -> int:
        return len(self._native)

    def __repr__(self) -> str:
        return f"{{{', '.join(f'{k!r}: {v!r}' for k, v in self.items())}}}"


def _result(raw: Tuple[Any, ...]) -> CheckResult:
    signature, globals_, values, diags = raw
    return CheckResult(
        signature=signature,
        globals=dict(globals_),
        values=_Values(values),
        diagnostics=tuple(
            Diagnostic(
                severity=sev,
                message=msg,
                node=Node(*node) if node is not None else None,
                span=Span(*span) if span is not None else None,
                notes=tuple(notes),
                rendered=rendered,
                unsupported=unsupported,
            )
            for sev, msg, node, span, notes, rendered, unsupported in diags
        ),
    )


def _source(model: Any) -> Tuple[Union[bytes, str], str, bool]:
    """The model's bytes or path, its name in diagnostics, and whether it is a
    ``ModelProto`` (whose result is one too)."""
    if isinstance(model, bytes):
        return model, "<model>", False
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        return path, path, False
    if hasattr(model, "SerializeToString") and hasattr(model, "graph"):
        return model.SerializeToString(), model.graph.name or "<model>", True
    raise TypeError(
        "a model is an `onnx.ModelProto`, its bytes, or a path to a `.onnx` file; "
        f"got {type(model).__name__}"
    )


def infer_shapes(
    model: ModelLike,
    strict: bool = True,
    *,
    check_type: bool = True,
    strict_mode: Optional[bool] = None,
    data_prop: bool = True,
) -> Any:
    """The model with every value's type inferred: a drop-in for
    ``onnx.shape_inference.infer_shapes``.

    ``model`` is an ``onnx.ModelProto``, the model's bytes, or a path to a ``.onnx``
    file. Every node output that is not a graph output gets a ``value_info`` entry, and
    the graph outputs get their types; symbolic dimensions are ``dim_param`` strings in
    Relay's syntax (``N``, ``N*S``, ``floordiv(H + 1, 2)``), which this checker reads
    back. Where the model already declares a dimension that inference does not know
    better, the declared one is kept.

    With ``strict`` (the default), a model that is not well typed raises
    :class:`CheckError`, whose text is the rendered diagnostics (the node, its op type,
    both types). With ``strict=False``, returns :class:`Inferred`: the model with what
    could be inferred, and the result with the diagnostics beside it.

    Returns an ``onnx.ModelProto`` when one was passed, otherwise the model's bytes.
    ``check_type`` and ``data_prop`` are accepted for compatibility with onnx's function
    (types are always checked and shape values always propagated); ``strict_mode``, if
    given, is ``strict``. A file that is not an ONNX model raises ``ValueError``.

    >>> import onnx, relay_types
    >>> model = onnx.load("model.onnx")                      # doctest: +SKIP
    >>> inferred = relay_types.infer_shapes(model)           # doctest: +SKIP
    """
    del check_type, data_prop
    if strict_mode is not None:
        strict = strict_mode
    source, name, is_proto = _source(model)
    # The values are listed only where they are returned (or the model has errors).
    out, raw = _native.infer_onnx(source, name, not strict)
    result = _result(raw)
    if strict and not result.ok:
        raise CheckError(result)
    if is_proto:
        out = type(model).FromString(out)
    return out if strict else Inferred(out, result)


def check(model: ModelLike) -> CheckResult:
    """Checks an ONNX model (an ``onnx.ModelProto``, its bytes, or a path to a ``.onnx``
    file): its signature, every value's shape and dtype, and the diagnostics.

    A file that is not an ONNX model raises ``ValueError``.

    >>> r = relay_types.check("model.onnx")                  # doctest: +SKIP
    >>> r.signature                                          # doctest: +SKIP
    'fn (Tensor[(N, 3, 224, 224), float32]) -> Tensor[(N, 1000), float32]'
    """
    source, name, _ = _source(model)
    return _result(_native.check_onnx(source, name))


def check_relay(program: Union[str, Any], name: str = "<relay>") -> CheckResult:
    """Type-checks a Relay program: its text, or a ``tvm.IRModule`` (through its
    ``astext()``). The standard prelude (``@map``, ``List``, ...) is in scope. ``name``
    names the text in rendered diagnostics.

    >>> relay_types.check_relay("def @main(%x: Tensor[(2, 3), float32]) { nn.relu(%x) }").ok
    True
    """
    if not isinstance(program, str):
        astext = getattr(program, "astext", None)
        if astext is None:
            raise TypeError(
                "a Relay program is its text or a `tvm.IRModule`; "
                f"got {type(program).__name__}"
            )
        program = astext()
    return _result(_native.check_relay(program, name))
