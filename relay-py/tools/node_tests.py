"""Scores ``relay_types.infer_shapes`` on ONNX's backend node tests, through Python: the
same scoring as ``relay-onnx``'s ``node_tests`` example, on the model that
``infer_shapes`` returns.

Each test's integer inputs (``test_data_set_0/input_*.pb``), and its float inputs of
static declared shape (scales, range bounds), become initializers so that shape values
are known; the declared output types are taken off the model and compared
with the types ``infer_shapes`` writes on the outputs. Each output is exact (every
dimension and the dtype as declared), less precise, a conflict (a dimension or dtype
that disagrees, or an error on a model the tests say is well typed) or unsupported (it
depends on an operator the checker does not read yet). A test is exact when all its
outputs are. Tests with sequence or optional outputs are left out.

    python node_tests.py DIR [--list FILE] [--min-exact N] [--onnx]

With ``--onnx``, scores ONNX's own C++ inference instead
(``onnx.shape_inference.infer_shapes`` with data propagation, strict mode: an error it
raises on a test's model is a conflict), on the same models, for the README's table.

Exits 1 on a conflict or on fewer exact tests than ``--min-exact``.
"""

import argparse
import os
import sys

import onnx


EXACT, LESS, UNSUPPORTED, CONFLICT = range(4)
NAMES = ["Exact", "LessPrecise", "Unsupported", "Conflict"]
# ONNX's integer and bool element types, and its float ones: the ones whose values the
# checker reads.
INT_TYPES = {2, 3, 4, 5, 6, 7, 9, 12, 13}
FLOAT_TYPES = {1, 10, 11, 16}
MAX_ELEMS = 1024


def is_static(vi):
    """Whether a graph input is a tensor whose every dimension is a number."""
    t = vi.type
    if t.WhichOneof("value") != "tensor_type" or not t.tensor_type.HasField("shape"):
        return False
    return all(d.HasField("dim_value") for d in t.tensor_type.shape.dim)


def fold_inputs(model, path):
    """Each integer input of the test's first data set as an initializer, and each float
    one whose declared shape is static (folding one of symbolic shape would change the
    signature the declared outputs are written in)."""
    graph = model.graph
    inits = {t.name for t in graph.initializer}
    inputs = [i for i in graph.input if i.name not in inits]
    for k, vi in enumerate(inputs):
        p = os.path.join(path, "test_data_set_0", f"input_{k}.pb")
        if not os.path.exists(p):
            continue
        try:
            with open(p, "rb") as f:
                t = onnx.TensorProto.FromString(f.read())
        except Exception:
            continue
        count = 1
        for d in t.dims:
            count *= d
        kind = t.data_type in INT_TYPES or (t.data_type in FLOAT_TYPES and is_static(vi))
        if kind and t.data_location != onnx.TensorProto.EXTERNAL and count <= MAX_ELEMS:
            t.name = vi.name
            graph.initializer.append(t)


class _OnnxResult:
    """ONNX's inference seen as ``relay_types``' result: its error, if it raised one."""

    def __init__(self, error=None):
        self.errors = [error] if error else []
        self.values = {}


class _OnnxError:
    unsupported = False

    def __init__(self, e):
        self.rendered = f"{type(e).__name__}: {e}"
        self.message = self.rendered


def onnx_infer(model):
    try:
        out = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
        return out, _OnnxResult()
    except Exception as e:  # noqa: BLE001 - any failure on a valid model is a conflict
        return model, _OnnxResult(_OnnxError(e))


def relay_infer(model):
    import relay_types

    return relay_types.infer_shapes(model, strict=False)


def score_test(path, infer=relay_infer):
    with open(os.path.join(path, "model.onnx"), "rb") as f:
        model = onnx.ModelProto.FromString(f.read())
    graph = model.graph
    if any(o.type.WhichOneof("value") != "tensor_type" for o in graph.output):
        return None
    fold_inputs(model, path)
    declared = {o.name: o.type.tensor_type for o in graph.output}
    for o in graph.output:
        o.ClearField("type")
    out, result = infer(model)
    errors = [d for d in result.errors if not d.unsupported]
    unsupported = [d for d in result.errors if d.unsupported]
    scores, detail = [], []
    for o in out.graph.output:
        want = declared[o.name]
        if not o.HasField("type"):
            # Not typed: it depends on an error or an unsupported operator, or nothing
            # is known of it.
            scores.append(CONFLICT if errors else UNSUPPORTED if unsupported else LESS)
            continue
        have = o.type.tensor_type
        s = EXACT
        if have.elem_type == 0:
            s = LESS
        elif have.elem_type != want.elem_type:
            s = CONFLICT
        if want.HasField("shape"):
            if not have.HasField("shape"):
                s = max(s, LESS)
            elif len(want.shape.dim) != len(have.shape.dim):
                s = CONFLICT
            else:
                for w, h in zip(want.shape.dim, have.shape.dim):
                    if w.HasField("dim_value") and h.HasField("dim_value"):
                        if w.dim_value != h.dim_value:
                            s = max(s, CONFLICT)
                    else:
                        s = max(s, LESS)
        if errors:
            s = CONFLICT
        if s != EXACT:
            value = result.values.get(o.name)
            detail.append(f"{o.name}: {value.type if value else '?'}; ")
        scores.append(s)
    if errors:
        detail.append("errors: " + " | ".join(d.rendered.replace("\n", " ") for d in errors))
    if unsupported:
        detail.append("unsupported: " + " | ".join(d.message for d in unsupported))
    return max(scores, default=EXACT), scores, "".join(detail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--list")
    ap.add_argument("--min-exact", type=int)
    ap.add_argument("--onnx", action="store_true", help="score ONNX's own inference instead")
    args = ap.parse_args()
    infer = onnx_infer if args.onnx else relay_infer
    tests, outputs, report = {}, [0, 0, 0, 0], []
    for name in sorted(os.listdir(args.dir)):
        scored = score_test(os.path.join(args.dir, name), infer)
        if scored is None:
            continue
        test, scores, detail = scored
        for s in scores:
            outputs[s] += 1
        report.append(f"{name}\t{NAMES[test]}\t{detail}\n")
        tests[name] = test

    def count(s):
        return sum(1 for v in tests.values() if v == s)

    print(
        f"{len(tests)} tensor tests: {count(EXACT)} exact, {count(LESS)} less precise, "
        f"{count(UNSUPPORTED)} unsupported, {count(CONFLICT)} conflicts "
        f"({'ONNX C++ infer_shapes' if args.onnx else 'through Python'})"
    )
    print(
        f"{sum(outputs)} outputs: {outputs[EXACT]} exact, {outputs[LESS]} less precise, "
        f"{outputs[UNSUPPORTED]} unsupported, {outputs[CONFLICT]} conflicts"
    )
    if args.list:
        with open(args.list, "w") as f:
            f.writelines(report)
    failed = False
    if count(CONFLICT):
        print("conflicts:", file=sys.stderr)
        for n, s in tests.items():
            if s == CONFLICT:
                print(f"  {n}", file=sys.stderr)
        failed = True
    if args.min_exact is not None and count(EXACT) < args.min_exact:
        print(f"{count(EXACT)} exact, fewer than the {args.min_exact} expected", file=sys.stderr)
        failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
