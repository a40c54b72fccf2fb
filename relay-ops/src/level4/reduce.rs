//! Reductions: `Reduce` (sum, mean, ...), `ArgReduce` (argmax, argmin) and `Variance`.
//! `Reduce` holds the goals the three share; the other two are goals calling it. The
//! reduced axes `r`, per TVM: `axis` None or empty → every axis (even with `exclude`);
//! negative axes count from the end; an axis out of range or listed twice is an error;
//! `exclude` takes the complement. The output `O` has the reduced axes as `1` with
//! `keepdims`, and drops them otherwise.

use relay_core::relation;

/// `Reduce(data, out)` (sum, mean, max, ...): `out` is `data` reduced over the axes of
/// `axis`/`exclude`, with `keepdims`; same dtype. Waits for the rank of `data`.
#[relation(
    Reduce(Tensor(s, bt), O) :-
        if attrs.axis == None || len(attrs.axis) == 0 {
            r = [i for i in 0..len(s)]
        } else {
            for i in 0..len(attrs.axis) {
                assert(
                    -len(s) <= attrs.axis[i] && attrs.axis[i] < len(s),
                    "`axis` {} is out of range for a tensor of rank {}", attrs.axis[i], len(s)
                ),
                assert(
                    !(attrs.axis[i] % len(s) in [a % len(s) for a in attrs.axis[..i]]),
                    "`axis` lists axis {} twice", attrs.axis[i] % len(s)
                ),
            },
            ax = [a % len(s) for a in attrs.axis],
            if attrs.exclude { r = [i for i in 0..len(s) if !(i in ax)] } else { r = ax },
        },
        if attrs.keepdims {
            O = Tensor([if i in r { 1 } else { s[i] } for i in 0..len(s)], bt)
        } else {
            O = Tensor([s[i] for i in 0..len(s) if !(i in r)], bt)
        },
        attrs(axis: Option<[int]> = None, keepdims: bool = false, exclude: bool = false)
)]
pub struct Reduce;

/// `ArgReduce(data, out)` (argmax, argmin): like `Reduce`, with an `int32` result (the
/// index dtype).
#[relation(
    ArgReduce(Tensor(s, _), O) :-
        // `Reduce` of the data's shape, as indices.
        Reduce(Tensor(s, int32), O),
        attrs(axis: Option<[int]> = None, keepdims: bool = false, exclude: bool = false)
)]
pub struct ArgReduce;

/// `Variance(data, mean, out)` (variance, std): `out` as for `Reduce`; `mean` has the
/// dtype of `data` and its rank, each dimension equal to the data's or `1` (the mean over
/// the same axes with `keepdims`). The output is given as soon as `data` is known; the
/// check of `mean` waits for `mean`.
#[relation(
    Variance(X @ Tensor(s, bt), M, O) :-
        Reduce(X, O),
        M = Tensor(sm, mt),
        mt = bt,
        assert(len(sm) == len(s), "`mean` has rank {}, the data has rank {}", len(sm), len(s)),
        for i in 0..len(s) {
            assert(
                sm[i] == s[i] || sm[i] == 1,
                "axis {} of `mean` is {}, expected 1 or the data's {}", i, sm[i], s[i]
            ),
        },
        attrs(axis: Option<[int]> = None, keepdims: bool = false, exclude: bool = false)
)]
pub struct Variance;
