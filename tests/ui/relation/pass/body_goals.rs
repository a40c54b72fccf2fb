//! Every body form: equations both ways, comparisons, `assert`, arithmetic, indexing
//! (negative too), slices, every builtin, attributes of every type with and without
//! defaults, Rust functions, and trailing commas.

use relay_core::clause::Value;
use relay_core::{relation, RelCx, RelError};

fn first_dim(_cx: &mut RelCx<'_>, args: &[Value]) -> Result<Value, RelError> {
    args[0]
        .dim()
        .map(Value::Dim)
        .ok_or_else(|| RelError::new("expected a dimension"))
}

#[relation(
    Everything(Tensor(s, bt), Tensor(t, bt), O) :-
        len(s) == 2,
        len(t) >= 1,
        s[-1] != 0,
        assert(s[0] <= 1024, "the batch is too large"),
        assert(attrs.keep, "`keep` must be set"),
        n = prod(s) + sum(t) - len(s) * 2,
        m = min(n, max(s[0], s[1])) / 2 % 7,
        k = floordiv(n, 2) + floormod(n, 3) - -1,
        r = rust(first_dim)(k),
        u = broadcast(s, t),
        Tensor(w, dt) = Tensor([r, m, ..u[1..], ..t[..attrs.axis], ..attrs.shape], bt),
        O = Tensor(w, dt),
        assert(attrs.dtype == dt, "dtype mismatch"),
        attrs(axis: int = -1, keep: bool = true, dtype: dtype = float32, shape: shape = [1, 2]),
)]
pub struct Everything;

#[relation(NoDefaults(T, O) :- O = T, attrs(a: int, b: bool), attrs(c: dtype))]
pub struct NoDefaults;

fn main() {}
