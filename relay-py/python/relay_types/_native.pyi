"""The native part of ``relay_types`` (Rust, through pyo3): plain tuples, wrapped by the
package's functions into result objects. Each call releases the GIL while it checks."""

import os
from typing import List, Optional, Tuple, Union

_Dim = Union[int, str, None]
#: name, type in Relay's syntax, dims (None: rank not known), dtype
_Value = Tuple[str, str, Optional[List[_Dim]], Optional[str]]
#: severity, message, node (index, name, op_type), span (start, end, line, column),
#: notes, rendered text, unsupported
_Diag = Tuple[
    str,
    str,
    Optional[Tuple[int, str, str]],
    Optional[Tuple[int, int, int, int]],
    List[str],
    str,
    bool,
]
class Values:
    """A checked model's values by name, made into Python objects when asked for."""

    def __len__(self) -> int: ...
    def __contains__(self, name: str) -> bool: ...
    def get(self, name: str) -> Optional[_Value]:
        """The value of this name; None if there is none."""
    def names(self) -> List[str]:
        """The names, in the order of the model or program (each once)."""

#: signature, globals (name, type), values, diagnostics
_Check = Tuple[str, List[Tuple[str, str]], Values, List[_Diag]]

def check_onnx(source: Union[bytes, str, os.PathLike[str]], name: str) -> _Check:
    """Checks an ONNX model (its bytes, or a path): raises ValueError for bytes that are
    not a model, OSError for a file that cannot be read."""

def infer_onnx(
    source: Union[bytes, str, os.PathLike[str]], name: str, values: bool = True
) -> Tuple[bytes, _Check]:
    """Checks an ONNX model and returns its bytes with the inferred types written in; the
    result's values are listed with `values`, or where the model has errors."""

def check_relay(text: str, name: str) -> _Check:
    """Type-checks a Relay program's text with the standard prelude in scope."""
