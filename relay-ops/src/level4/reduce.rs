//! Reductions: `Reduce` (sum, mean, ...), `ArgReduce` (argmax, argmin) and `Variance`.
//!
//! The three share their goals up to the output (a clause cannot call another), so
//! `reduction!` writes them into each. The reduced axes `r`, per TVM: `axis` None or
//! empty → every axis (even with `exclude`); negative axes count from the end; an axis
//! out of range or listed twice is an error; `exclude` takes the complement. The output
//! `O` has the reduced axes as `1` with `keepdims`, and drops them otherwise.

use relay_core::relation;

/// `#[relation]` on `pub struct $name`: the reduction of the data `Tensor(s, _)` in
/// `$head` into `O`, of dtype `$dtype`, then `$goals`.
macro_rules! reduction {
    ($(#[$doc:meta])* $name:ident($($head:tt)*), $dtype:tt $(, $($goals:tt)*)?) => {
        $(#[$doc])*
        #[relation(
            $name($($head)*) :-
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
                    O = Tensor([if i in r { 1 } else { s[i] } for i in 0..len(s)], $dtype)
                } else {
                    O = Tensor([s[i] for i in 0..len(s) if !(i in r)], $dtype)
                },
                $($($goals)*,)?
                attrs(axis: Option<[int]> = None, keepdims: bool = false, exclude: bool = false)
        )]
        pub struct $name;
    };
}

reduction!(
    /// `Reduce(data, out)` (sum, mean, max, ...): `out` is `data` reduced over the axes
    /// of `axis`/`exclude`, with `keepdims`; same dtype. Waits for the rank of `data`.
    Reduce(Tensor(s, bt), O),
    bt
);

reduction!(
    /// `ArgReduce(data, out)` (argmax, argmin): like `Reduce`, with an `int32` result
    /// (the index dtype).
    ArgReduce(Tensor(s, _), O),
    int32
);

reduction!(
    /// `Variance(data, mean, out)` (variance, std): `out` as for `Reduce`; `mean` has the
    /// dtype of `data` and its rank, each dimension equal to the data's or `1` (the mean
    /// over the same axes with `keepdims`). The output is given as soon as `data` is
    /// known; the check of `mean` waits for `mean`.
    Variance(Tensor(s, bt), M, O),
    bt,
    M = Tensor(sm, mt),
    mt = bt,
    assert(len(sm) == len(s), "`mean` has rank {}, the data has rank {}", len(sm), len(s)),
    for i in 0..len(s) {
        assert(
            sm[i] == s[i] || sm[i] == 1,
            "axis {} of `mean` is {}, expected 1 or the data's {}", i, sm[i], s[i]
        ),
    }
);
