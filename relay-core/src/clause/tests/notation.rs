//! The forms added for issue 18's gaps: `?` in a term, float arithmetic with dimensions,
//! string values, variadic tuples.

use super::{both, run};
use crate::attrs::AttrValue;
use crate::clause::Value;
use crate::relation;
use crate::relation::Relation;
use crate::solve::Outcome;
use crate::testing::TestSolver;
use crate::{RelCx, RelError};

/// `nonzero`: the count of the nonzero elements is known only at run time.
#[relation(ArgWhere(Tensor(s, _), O) :- O = Tensor([?, len(s)], int64))]
struct ArgWhere;

/// A shape whose first dimension must be `?`, named in a head pattern.
#[relation(AnyFirst(Tensor([?, n], bt), O) :- O = Tensor([n], bt))]
struct AnyFirst;

#[test]
fn any_is_a_dimension_term() {
    let a = ArgWhere::REF;
    assert_eq!(
        run(a, &["Tensor[(2, 3, 4), float32]"], &[]),
        Ok("Tensor[(?, 3), int64]".into())
    );
    assert_eq!(
        run(a, &["Tensor[(), bool]"], &[]),
        Ok("Tensor[(?, 0), int64]".into())
    );
    assert_eq!(
        run(AnyFirst::REF, &["Tensor[(?, 5), int8]"], &[]),
        Ok("Tensor[(5), int8]".into())
    );
}

/// `topk` without `is_int`: a symbolic axis cannot be ordered against `k`.
#[relation(
    TopK(Tensor([..b, n], bt), O) :-
        assert(attrs.k <= n, "`k` is {} but the axis has {}", attrs.k, n),
        O = Tensor([..b, attrs.k], bt),
        attrs(k: int)
)]
struct TopK;

/// The same, accepting a symbolic axis.
#[relation(
    TopKSym(Tensor([..b, n], bt), O) :-
        if is_int(n) { assert(attrs.k <= n, "`k` is {} but the axis has {}", attrs.k, n) },
        O = Tensor([..b, attrs.k], bt),
        attrs(k: int)
)]
struct TopKSym;

/// Sides that are not a variable are not named.
#[relation(Halve(Tensor([n], bt), O) :- n * 2 > 4, O = Tensor([n], bt))]
struct Halve;

#[test]
fn an_order_on_a_symbol_suggests_is_int() {
    let k = [("k", AttrValue::Int(3))];
    assert_eq!(
        run(TopK::REF, &["Tensor[(2, 8), float32]"], &k),
        Ok("Tensor[(2, 3), float32]".into())
    );
    assert_eq!(
        run(TopK::REF, &["Tensor[(2), float32]"], &k),
        Err("`k` is 3 but the axis has 2".into())
    );
    assert_eq!(
        run(TopK::REF, &["Tensor[(h), float32]"], &k),
        Err("cannot decide `attrs.k <= n`: `3` and `h` have no known order; to accept a symbolic dimension, test `is_int(n)` first (`if is_int(n) { .. }`)".into())
    );
    assert_eq!(
        run(TopKSym::REF, &["Tensor[(h), float32]"], &k),
        Ok("Tensor[(3), float32]".into())
    );
    assert_eq!(
        run(Halve::REF, &["Tensor[(h), float32]"], &[]),
        Err("cannot decide `n * 2 > 4`: `2*h` and `4` have no known order; to accept a symbolic dimension, test it with `is_int(..)` first".into())
    );
}

/// `image.resize2d` by scales: `floor(h * scale)`, as TVM computes it.
#[relation(
    Resize(Tensor([n, c, h, w], bt), O) :-
        O = Tensor([n, c, h * attrs.scales[0], attrs.scales[-1] * w], bt),
        attrs(scales: [float] = [1.0, 1])
)]
struct Resize;

/// `nn.upsampling`: one float attribute per axis.
#[relation(
    Upsample(Tensor([h, w], bt), O) :-
        O = Tensor([h * attrs.scale_h, w * 0.5], bt),
        attrs(scale_h: float = 2)
)]
struct Upsample;

fn floats(v: &[f64]) -> AttrValue {
    AttrValue::List(v.iter().map(|&f| AttrValue::Float(f)).collect())
}

#[test]
fn floats_scale_dimensions_with_floor() {
    let r = Resize::REF;
    let x = "Tensor[(1, 3, 5, 7), float32]";
    assert_eq!(
        both(r, &[x], &[]),
        Ok("Tensor[(1, 3, 5, 7), float32]".into())
    );
    assert_eq!(
        both(r, &[x], &[("scales", floats(&[1.5, 2.0]))]),
        Ok("Tensor[(1, 3, 7, 14), float32]".into())
    );
    // An integer is a float; a single value is a list of one.
    assert_eq!(
        both(
            r,
            &[x],
            &[(
                "scales",
                AttrValue::List(vec![AttrValue::Int(3), AttrValue::Float(0.3)])
            )]
        ),
        Ok("Tensor[(1, 3, 15, 2), float32]".into())
    );
    assert_eq!(
        both(r, &[x], &[("scales", AttrValue::Float(0.5))]),
        Ok("Tensor[(1, 3, 2, 3), float32]".into())
    );
    // A symbol: exact by an integral factor, `?` otherwise.
    assert_eq!(
        both(
            r,
            &["Tensor[(1, 3, h, w), float32]"],
            &[("scales", floats(&[2.0, 1.5]))]
        ),
        Ok("Tensor[(1, 3, 2*h, ?), float32]".into())
    );
    assert_eq!(
        both(
            r,
            &["Tensor[(1, 3, ?, 4), float32]"],
            &[("scales", floats(&[2.0, 2.0]))]
        ),
        Ok("Tensor[(1, 3, ?, 8), float32]".into())
    );
    assert_eq!(
        both(r, &[x], &[("scales", floats(&[]))]),
        Err("index 0 is out of range for `scales`, which has 0 values".into())
    );
    assert_eq!(
        both(
            r,
            &["Tensor[(1, 1, 9007199254740992, 1), float32]"],
            &[("scales", floats(&[1.0, 1.0]))]
        ),
        Err(
            "cannot scale the dimension 9007199254740992 by a float exactly: it is 2^53 or more"
                .into()
        )
    );
    assert_eq!(
        both(
            r,
            &["Tensor[(1, 1, 4503599627370496, 1), float32]"],
            &[("scales", floats(&[4096.0, 1.0]))]
        ),
        Err("`floor(4503599627370496 * 4096.0)` does not fit a dimension".into())
    );
    assert_eq!(
        both(r, &[x], &[("scales", AttrValue::Str("big".into()))]),
        Err("the attribute `scales` must be a list of floats, found `\"big\"`".into())
    );

    let u = Upsample::REF;
    assert_eq!(
        both(u, &["Tensor[(3, 5), int8]"], &[]),
        Ok("Tensor[(6, 2), int8]".into())
    );
    assert_eq!(
        both(
            u,
            &["Tensor[(3, 5), int8]"],
            &[("scale_h", AttrValue::Float(1.5))]
        ),
        Ok("Tensor[(4, 2), int8]".into())
    );
}

/// The output shape of an einsum `equation` over two shapes (no ellipsis, no checks
/// beyond the letters' dimensions).
fn einsum(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    let equation = args[0].text(cx.tcx()).unwrap_or_default().to_string();
    let (Some((ins, out)), [_, a, b]) = (equation.split_once("->"), args) else {
        return Err(RelError::new(format!(
            "expected `in,in->out`, found {equation:?}"
        )));
    };
    let shapes = [a.shape().unwrap(), b.shape().unwrap()];
    let mut letters = Vec::new();
    for (spec, s) in ins.split(',').zip(shapes) {
        let dims = cx.tcx().shape_dims(s).unwrap().to_vec();
        letters.extend(spec.chars().zip(dims));
    }
    let mut dims = Vec::new();
    for c in out.chars() {
        match letters.iter().find(|l| l.0 == c) {
            Some(&(_, d)) => dims.push(d),
            None => return Err(RelError::new(format!("`{c}` is not an input's letter"))),
        }
    }
    Ok(Value::Shape(cx.tcx().shape(&dims)))
}

#[relation(
    Einsum(Tensor(a, bt), Tensor(b, bt), O) :-
        if attrs.equation == "" {
            O = Tensor([], bt)
        } else {
            O = Tensor(rust(einsum)(attrs.equation, a, b), bt)
        },
        attrs(equation: str)
)]
struct Einsum;

/// A string literal passed on.
#[relation(MatMul(Tensor(a, bt), Tensor(b, bt), O) :- O = Tensor(rust(einsum)("ij,jk->ik", a, b), bt))]
struct MatMul;

#[test]
fn strings_are_passed_to_rust_functions() {
    let e = Einsum::REF;
    let (x, y) = ("Tensor[(2, 3), float32]", "Tensor[(3, 4), float32]");
    let eq = |s: &str| [("equation", AttrValue::Str(s.into()))];
    assert_eq!(
        both(e, &[x, y], &eq("ij,jk->ik")),
        Ok("Tensor[(2, 4), float32]".into())
    );
    assert_eq!(
        both(e, &[x, y], &eq("ij,jk->ki")),
        Ok("Tensor[(4, 2), float32]".into())
    );
    assert_eq!(both(e, &[x, y], &eq("")), Ok("float32".into()));
    assert_eq!(
        both(e, &[x, y], &eq("ij,jk->z")),
        Err("`z` is not an input's letter".into())
    );
    assert_eq!(
        both(e, &[x, y], &eq("ij")),
        Err("expected `in,in->out`, found \"ij\"".into())
    );
    assert_eq!(
        both(MatMul::REF, &[x, y], &[]),
        Ok("Tensor[(2, 4), float32]".into())
    );
}

/// The positions of the letters of `attrs.keep` among `"abcd"` (a shape of integers).
fn letters(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    let keep = args[0].text(cx.tcx()).unwrap_or_default().to_string();
    let mut dims = Vec::new();
    for c in keep.chars() {
        match "abcd".find(c) {
            Some(i) => dims.push(cx.tcx().dims.konst(i as i64)),
            None => return Err(RelError::new(format!("`{c}` is not one of `abcd`"))),
        }
    }
    Ok(Value::Shape(cx.tcx().shape(&dims)))
}

/// The rank of a shape, as a dimension.
fn rank_of(cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    let n = cx.tcx().shape_dims(args[0].shape().unwrap()).unwrap().len();
    Ok(Value::Dim(cx.tcx().dims.konst(n as i64)))
}

/// A `str` attribute in a message; Rust calls that declare their kinds: a shape as the
/// indices of a gather, a dimension that nothing else gives `r`'s kind.
#[relation(
    Keep(Tensor(s, bt), O) :-
        assert(len(s) == 4, "`{}` reads 4 axes, found {}", attrs.keep, len(s)),
        r = rust(rank_of -> dim)(s),
        O = Tensor([r, ..s[rust(letters -> shape)(attrs.keep)]], bt),
        attrs(keep: str = "ad")
)]
struct Keep;

#[test]
fn strings_show_in_messages_and_rust_calls_declare_kinds() {
    let keep = |s: &str| [("keep", AttrValue::Str(s.into()))];
    let x = "Tensor[(2, 3, 4, 5), float32]";
    assert_eq!(
        both(Keep::REF, &[x], &[]),
        Ok("Tensor[(4, 2, 5), float32]".into())
    );
    assert_eq!(
        both(Keep::REF, &[x], &keep("cb")),
        Ok("Tensor[(4, 4, 3), float32]".into())
    );
    assert_eq!(
        both(Keep::REF, &["Tensor[(2, 3), float32]"], &keep("ab")),
        Err("`\"ab\"` reads 4 axes, found 2".into())
    );
    assert_eq!(
        both(Keep::REF, &[x], &keep("az")),
        Err("`z` is not one of `abcd`".into())
    );
}

/// Goals written once and called: the first axis of `X`, of the dtype of `D`.
#[relation(
    FirstAxis(X @ Tensor(s, _), Tensor(_, dt), O) :-
        assert(len(s) >= 1, "`{}` has no axis", X),
        O = Tensor([s[0]], dt)
)]
struct FirstAxis;

/// [`FirstAxis`] of the data's dtype.
#[relation(First(X @ Tensor(_, bt), O) :- FirstAxis(X, Tensor([], bt), O))]
struct First;

/// [`FirstAxis`] as indices, after a check of its own.
#[relation(
    FirstIndex(X @ Tensor(s, _), O) :-
        assert(len(s) <= 3, "`{}` has more than 3 axes", X),
        FirstAxis(X, Tensor([], int32), O)
)]
struct FirstIndex;

#[test]
fn a_goal_calls_another_relation() {
    let x = "Tensor[(3, 4), float16]";
    assert_eq!(
        both(First::REF, &[x], &[]),
        Ok("Tensor[(3), float16]".into())
    );
    assert_eq!(
        both(FirstIndex::REF, &[x], &[]),
        Ok("Tensor[(3), int32]".into())
    );
    assert_eq!(
        both(First::REF, &["Tensor[(), float16]"], &[]),
        Err("`float16` has no axis".into())
    );
    assert_eq!(
        both(FirstIndex::REF, &["Tensor[(1, 2, 3, 4), float16]"], &[]),
        Err("`Tensor[(1, 2, 3, 4), float16]` has more than 3 axes".into())
    );
    // The called relation's failure blames the caller's argument it comes from.
    let mut t = TestSolver::new();
    let x = t.ty("Tensor[(), float16]");
    let o = t.solver.fresh_ty();
    t.solver.add_relation(First::REF, &[x, o], None, 0);
    let Outcome::Failed(e) = t.solver.solve() else {
        panic!("expected a failure")
    };
    assert_eq!(
        (e[0].relation, e[0].arg, e[0].message.as_str()),
        ("First", Some(0), "`float16` has no axis")
    );
}

/// The data's type, its `axis` an axis of it.
#[relation(
    Along(X @ Tensor(s, bt), O) :-
        is_axis(attrs.axis, X),
        O = Tensor(s, bt),
        attrs(axis: int = -1)
)]
struct Along;

#[test]
fn is_axis_holds_or_fails_with_its_message() {
    let x = "Tensor[(2, 3), float32]";
    for a in [-2, -1, 0, 1] {
        assert_eq!(
            both(Along::REF, &[x], &[("axis", AttrValue::Int(a))]),
            Ok(x.into())
        );
    }
    for a in [-3, 2] {
        assert_eq!(
            both(Along::REF, &[x], &[("axis", AttrValue::Int(a))]),
            Err(format!(
                "`axis` {a} is out of range for `Tensor[(2, 3), float32]` (rank 2)"
            ))
        );
    }
    // The rank unknown, it waits.
    assert_eq!(
        run(Along::REF, &["_"], &[("axis", AttrValue::Int(5))]),
        Err("waiting".into())
    );
}

/// Joins a tuple of tensors along their first axis: a fold over the fields.
#[relation(
    Join(X, O) :-
        assert(X = Tuple(..fs), "expected a tuple, found `{}`", X),
        assert(len(fs) >= 1, "expected at least one tensor"),
        fs[0] = Tensor([_, ..rest], bt),
        for f in fs {
            assert(f = Tensor(_, bt), "expected tensors of `{}`, found `{}`", bt, f),
            assert(shape(f)[1..] = rest, "expected `[_, ..{}]`, found `{}`", rest, f),
        },
        O = Tensor([sum([shape(f)[0] for f in fs]), ..rest], bt)
)]
struct Join;

#[test]
fn tuples_of_any_length_are_taken_apart_and_folded() {
    let j = Join::REF;
    // `both`: the fast path runs the calls that succeed without giving up, and agrees
    // with the general interpreter.
    assert_eq!(
        both(
            j,
            &["(Tensor[(2, 3), float32], Tensor[(n, 3), float32], Tensor[(4, 3), float32])"],
            &[]
        ),
        Ok("Tensor[(n + 6, 3), float32]".into())
    );
    assert_eq!(
        both(j, &["(Tensor[(2), int8],)"], &[]),
        Ok("Tensor[(2), int8]".into())
    );
    assert_eq!(
        both(
            j,
            &["(Tensor[(?, 3), float32], Tensor[(1, 3), float32])"],
            &[]
        ),
        Ok("Tensor[(?, 3), float32]".into())
    );
    // The assert's message replaces the mismatch of the pattern, as of an equation.
    assert_eq!(
        run(j, &["Tensor[(2), int8]"], &[]),
        Err("expected a tuple, found `Tensor[(2), int8]`".into())
    );
    assert_eq!(
        both(j, &["()"], &[]),
        Err("expected at least one tensor".into())
    );
    assert_eq!(
        run(j, &["(Tensor[(2), int8], Tensor[(2), float32])"], &[]),
        Err("expected tensors of `int8`, found `Tensor[(2), float32]`".into())
    );
    assert_eq!(
        run(j, &["(Tensor[(2), int8], (int8,))"], &[]),
        Err("expected tensors of `int8`, found `(int8,)`".into())
    );
    assert_eq!(
        run(j, &["(Tensor[(2, 3), int8], Tensor[(2, 4), int8])"], &[]),
        Err("expected `[_, ..(3)]`, found `Tensor[(2, 4), int8]`".into())
    );
    assert_eq!(run(j, &["_"], &[]), Err("waiting".into()));
    // A field still unknown: the sum waits for it, then the field is checked.
    let mut t = TestSolver::new();
    let a = t.ty("Tensor[(2, 3), int8]");
    let b = t.solver.fresh_ty();
    let input = t.solver.tcx.tuple(&[a, b]);
    let out = t.solver.fresh_ty();
    t.solver.add_relation(j, &[input, out], None, 0);
    assert!(matches!(t.solver.solve(), Outcome::UnderConstrained(_)));
    let known = t.ty("Tensor[(5, 3), int8]");
    t.solver.unify(b, known).unwrap();
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(out), "Tensor[(7, 3), int8]");
}

/// The first field, then the others; the others rebuilt around a last field.
#[relation(Rotate(Tuple(first, ..others), O) :- O = (..others, first))]
struct Rotate;

/// The last field, from the other end.
#[relation(Last((.._, last), O) :- O = last)]
struct Last;

#[test]
fn rest_patterns_match_and_build_tuples() {
    let three = "(Tensor[(1), int8], Tensor[(2), int8], Tensor[(3), int8])";
    assert_eq!(
        both(Rotate::REF, &[three], &[]),
        Ok("(Tensor[(2), int8], Tensor[(3), int8], Tensor[(1), int8])".into())
    );
    assert_eq!(run(Rotate::REF, &["(int8,)"], &[]), Ok("(int8,)".into()));
    assert_eq!(
        run(Rotate::REF, &["()"], &[]),
        Err("expected a tuple of at least 1 field, found `()`".into())
    );
    assert_eq!(
        run(Rotate::REF, &["int8"], &[]),
        Err("expected a tuple of at least 1 field, found `int8`".into())
    );
    assert_eq!(
        both(Last::REF, &[three], &[]),
        Ok("Tensor[(3), int8]".into())
    );
    // Backward: the output names the input's fields but the first.
    let mut t = TestSolver::new();
    let a = t.ty("Tensor[(1), int8]");
    let b = t.solver.fresh_ty();
    let input = t.solver.tcx.tuple(&[a, b]);
    let out = t.ty("(Tensor[(2), int8], Tensor[(1), int8])");
    t.solver.add_relation(Rotate::REF, &[input, out], None, 0);
    assert_eq!(t.solver.solve(), Outcome::Solved);
    assert_eq!(t.show_resolved(b), "Tensor[(2), int8]");
}

/// Indexing a tuple, its length, and `dtype`.
#[relation(
    Pick(T, O) :-
        assert(len(T) > attrs.i, "{} has {} fields", T, len(T)),
        O = Tensor([len(T)], dtype(T[attrs.i])),
        attrs(i: int)
)]
struct Pick;

#[test]
fn fields_are_indexed_and_counted() {
    let pair = "(Tensor[(1), int8], Tensor[(2), float16])";
    let i = |v| [("i", AttrValue::Int(v))];
    assert_eq!(
        both(Pick::REF, &[pair], &i(1)),
        Ok("Tensor[(2), float16]".into())
    );
    assert_eq!(
        both(Pick::REF, &[pair], &i(-2)),
        Ok("Tensor[(2), int8]".into())
    );
    assert_eq!(
        run(Pick::REF, &[pair], &i(-3)),
        Err("index -3 is out of range for a tuple of 2 fields".into())
    );
    assert_eq!(
        run(Pick::REF, &["((int8,), Tensor[(2), float16])"], &i(0)),
        Err("expected a tensor, found `(int8,)`".into())
    );
    assert_eq!(
        run(Pick::REF, &["Tensor[(2), float16]"], &i(0)),
        Err("expected a tuple, found `Tensor[(2), float16]`".into())
    );
}

/// The dimensions that are `?`, counted.
#[relation(CountAny(Tensor(s, bt), O) :- O = Tensor([sum([if is_any(d) { 1 } else { 0 } for d in s])], bt))]
struct CountAny;

#[test]
fn is_any_tells_the_dimension_of_run_time_size() {
    assert_eq!(
        run(CountAny::REF, &["Tensor[(?, 2, n, ?), int8]"], &[]),
        Ok("Tensor[(2), int8]".into())
    );
    assert_eq!(
        run(CountAny::REF, &["Tensor[(), int8]"], &[]),
        Ok("Tensor[(0), int8]".into())
    );
}

/// A variable bound in a loop's body is one variable across the iterations: every field
/// has the dtype of the first.
#[relation(
    OneDType(X, O) :-
        X = Tuple(..fs),
        for f in fs { f = Tensor(_, bt) },
        O = Tensor([len(fs)], bt)
)]
struct OneDType;

/// Every dimension of every field is one `d`.
#[relation(
    Nested(X, O) :-
        X = Tuple(..fs),
        for f in fs { for i in 0..len(shape(f)) { shape(f)[i] = d } },
        O = Tensor([d], int8)
)]
struct Nested;

#[test]
fn a_variable_bound_in_a_loop_is_one_across_its_iterations() {
    let r = OneDType::REF;
    assert_eq!(
        both(r, &["(Tensor[(1), int8], Tensor[(2, 3), int8])"], &[]),
        Ok("Tensor[(2), int8]".into())
    );
    assert_eq!(
        both(r, &["(Tensor[(1), int8], Tensor[(2), float32])"], &[]),
        Err("dtype: int8 vs float32".into())
    );
    // No field: nothing binds `bt`, and the output waits for it.
    assert_eq!(both(r, &["()"], &[]), Err("waiting".into()));
    // Bound in an inner loop too: one variable across both loops' iterations.
    assert_eq!(
        both(
            Nested::REF,
            &["(Tensor[(2, 2), int8], Tensor[(2, 2), int8])"],
            &[]
        ),
        Ok("Tensor[(2), int8]".into())
    );
    assert_eq!(
        both(
            Nested::REF,
            &["(Tensor[(2, 2), int8], Tensor[(2, 3), int8])"],
            &[]
        ),
        Err("3 vs 2".into())
    );
}
