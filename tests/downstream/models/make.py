"""Writes the ONNX models of the downstream crate's tests (run from the repository root:
`python3 tests/downstream/models/make.py`; needs the `onnx` package).

- `patches.onnx`: x: float[N, 3, 32, 32] -> com.example.Patches(patch_size=4) -> p,
  then MatMul by a weight w: float[48, 8] -> y. `Patches` is the downstream crate's own
  operator `my.patches`, declared with its ONNX mapping in `tests/downstream/src/lib.rs`.
- `patches_bad.onnx`: the same over an image of height 30, not a multiple of 4.
"""

import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def model(height: int) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, height, 32])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.zeros((48, 8), dtype=np.float32), "w")
    nodes = [
        helper.make_node("Patches", ["x"], ["p"], name="patches", domain="com.example", patch_size=4),
        helper.make_node("MatMul", ["p", "w"], ["y"], name="project"),
    ]
    graph = helper.make_graph(nodes, "patch_embedding", [x], [y], initializer=[w])
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("com.example", 1)]
    m = helper.make_model(graph, opset_imports=opsets, producer_name="tests/downstream/models/make.py")
    m.ir_version = 8
    return m


if __name__ == "__main__":
    onnx.save(model(32), os.path.join(HERE, "patches.onnx"))
    onnx.save(model(30), os.path.join(HERE, "patches_bad.onnx"))
