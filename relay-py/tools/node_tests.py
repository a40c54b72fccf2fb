"""Scores ``relay_types.infer_shapes`` on ONNX's backend node tests, through Python: the
same scoring as ``relay-onnx``'s ``node_tests`` example, on the model that
``infer_shapes`` returns.

Each test's integer inputs (``test_data_set_0/input_*.pb``) become initializers so that
shape values are known; the declared output types are taken off the model and compared
with the types ``infer_shapes`` writes on the outputs. Each output is exact (every
dimension and the dtype as declared), less precise, a conflict (a dimension or dtype
that disagrees, or an error on a model the tests say is well typed) or unsupported (it
depends on an operator the checker does not read yet). A test is exact when all its
outputs are. Tests with sequence or optional outputs are left out.

    python node_tests.py DIR [--list FILE] [--min-exact N]

Exits 1 on a conflict or on fewer exact tests than ``--min-exact``.
"""

import argparse
import os
import sys

import onnx

import relay_types

EXACT, LESS, UNSUPPORTED, CONFLICT = range(4)
NAMES = ["Exact", "LessPrecise", "Unsupported", "Conflict"]
# ONNX's integer and bool element types: the ones whose values the checker reads.
INT_TYPES = {2, 3, 4, 5, 6, 7, 9, 12, 13}
MAX_ELEMS = 1024


def fold_inputs(model, path):
    """Each integer input of the test's first data set as an initializer."""
    graph = model.graph
    inits = {t.name for t in graph.initializer}
    inputs = [i.name for i in graph.input if i.name not in inits]
    for k, name in enumerate(inputs):
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
        if (
            t.data_type in INT_TYPES
            and t.data_location != onnx.TensorProto.EXTERNAL
            and count <= MAX_ELEMS
        ):
            t.name = name
            graph.initializer.append(t)


def score_test(path):
    with open(os.path.join(path, "model.onnx"), "rb") as f:
        model = onnx.ModelProto.FromString(f.read())
    graph = model.graph
    if any(o.type.WhichOneof("value") != "tensor_type" for o in graph.output):
        return None
    fold_inputs(model, path)
    declared = {o.name: o.type.tensor_type for o in graph.output}
    for o in graph.output:
        o.ClearField("type")
    out, result = relay_types.infer_shapes(model, strict=False)
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
    args = ap.parse_args()
    tests, outputs, report = {}, [0, 0, 0, 0], []
    for name in sorted(os.listdir(args.dir)):
        scored = score_test(os.path.join(args.dir, name))
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
        f"{count(UNSUPPORTED)} unsupported, {count(CONFLICT)} conflicts (through Python)"
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
