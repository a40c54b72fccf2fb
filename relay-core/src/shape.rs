//! Shape computations shared by relations (the runtime of the `broadcast` builtin).

use crate::dim::{Dim, Dims};

/// Two dimensions that cannot be broadcast together.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BroadcastClash {
    /// The index of the clashing dimension in the first shape.
    pub lhs_index: usize,
    /// The index of the clashing dimension in the second shape.
    pub rhs_index: usize,
    /// The first shape's dimension.
    pub lhs: Dim,
    /// The second shape's dimension.
    pub rhs: Dim,
}

/// NumPy broadcasting of two shapes, right-aligned, with symbolic dimensions.
///
/// Per pair of dimensions, in this order: equal (by normal form) gives that dimension;
/// a constant `1` gives the other (so `1` with `?` is `?`); a pair that still mentions an
/// unknown is undecided (it could be `1`, even next to `?`), so the whole answer is
/// `Ok(None)`; `?` gives the other; anything else (`3` vs `5`, `n` vs `m`, `n` vs `5`)
/// is a clash. The longer shape's leading dimensions are kept.
///
/// ```
/// use relay_core::{shape::broadcast, Dims};
/// let mut dims = Dims::new();
/// let (one, three, five) = (dims.konst(1), dims.konst(3), dims.konst(5));
/// assert_eq!(broadcast(&dims, &[five, one], &[three]), Ok(Some(vec![five, three])));
/// assert!(broadcast(&dims, &[three], &[five]).is_err());
/// assert_eq!(broadcast(&dims, &[one], &[Dims::ANY]), Ok(Some(vec![Dims::ANY])));
/// assert_eq!(broadcast(&dims, &[Dims::ANY], &[three]), Ok(Some(vec![three])));
/// ```
pub fn broadcast(dims: &Dims, a: &[Dim], b: &[Dim]) -> Result<Option<Vec<Dim>>, BroadcastClash> {
    let mut out = Vec::with_capacity(a.len().max(b.len()));
    let decided = broadcast_each(dims, a, b, |d| out.push(d))?;
    Ok(decided.then_some(out))
}

/// [`broadcast`], giving each dimension of the result to `push`, in order: whether the
/// result is decided.
pub fn broadcast_each(
    dims: &Dims,
    a: &[Dim],
    b: &[Dim],
    mut push: impl FnMut(Dim),
) -> Result<bool, BroadcastClash> {
    let n = a.len().max(b.len());
    let mut undecided = false;
    for k in 0..n {
        // k counts output positions from the left; align both inputs to the right.
        let ai = (k + a.len()).checked_sub(n);
        let bi = (k + b.len()).checked_sub(n);
        let d = match (ai, bi) {
            (Some(i), None) => a[i],
            (None, Some(j)) => b[j],
            (Some(i), Some(j)) => {
                let (x, y) = (a[i], b[j]);
                // The order matters: `1` wins over `?` (`(1)` with `(?)` is `(?)`), and
                // an unknown paired with `?` could still be `1` (then the answer is `?`).
                if x == y || dims.as_const(y) == Some(1) {
                    x
                } else if dims.as_const(x) == Some(1) {
                    y
                } else if dims.has_vars(x) || dims.has_vars(y) {
                    undecided = true;
                    x
                } else if dims.is_any(y) {
                    x
                } else if dims.is_any(x) {
                    y
                } else {
                    return Err(BroadcastClash {
                        lhs_index: i,
                        rhs_index: j,
                        lhs: x,
                        rhs: y,
                    });
                }
            }
            (None, None) => unreachable!("k < max(len)"),
        };
        push(d);
    }
    Ok(!undecided)
}
