//! TVM's level-1 operators: element-wise arithmetic and math, concatenation, dense
//! layers, softmax and normalizations.
//!
//! The element-wise binary operators broadcast with NumPy's rule ([`Broadcast`]); the
//! element-wise unary operators keep the type of their argument ([`Identity`]):
//!
//! ```text
//! %z = add(%x, %y)       // (n, 1) f32, (3) f32 -> (n, 3) f32
//! %z = subtract(%x, %y)  // (2, 3) f32, (3) f32 -> (2, 3) f32
//! %y = exp(%x)           // (n, 3) f32 -> (n, 3) f32
//! ```
//!
//! Every relation here waits while an argument it needs is unknown, instead of failing;
//! dense and matmul check the contraction dimension; concatenate looks at every input at
//! once, so its outcome does not depend on the order of solving.

use crate::level3::util::{agree, shown};
use crate::relations::{Broadcast, Identity};
use relay_core::relation::axis_index;
use relay_core::{relation, relay_op, Progress, RelCx, RelError, RelResult};

// ---------------------------------------------------------------------------------------
// Relations
// ---------------------------------------------------------------------------------------

/// `softmax`'s and `log_softmax`'s relation: the identity on a tensor, with
/// `axis` ∈ `[-ndim, ndim)`.
#[relation(
    Softmax(X @ Tensor(s, bt), O) :-
        is_axis(attrs.axis, X),
        O = Tensor(s, bt),
        attrs(axis: int = -1)
)]
pub struct Softmax;

/// `bias_add`'s and `prelu`'s relation: the bias (the slopes) is the vector `(C)` of
/// `C = data.shape[axis]` (inferred backward when unknown), the result is the data's type.
#[relation(
    BiasAdd(X @ Tensor(s, bt), B, O) :-
        is_axis(attrs.axis, X),
        B = Tensor([s[attrs.axis]], bt),
        O = Tensor(s, bt),
        attrs(axis: int = 1)
)]
pub struct BiasAdd;

/// `dropout`'s relation: the result is the pair (output, mask), both of the data's type.
#[relation(Dropout(I, (I, I)) :- true)]
pub struct Dropout;

/// `batch_norm`'s relation: gamma, beta, moving mean and moving variance are `(C)` of
/// `C = data.shape[axis]` (inferred backward); the result is `(data, (C), (C))`.
#[relation(
    BatchNorm(X @ Tensor(s, bt), G, B, M, V, O) :-
        // `axis`, gamma and beta as `Norm` checks them.
        Norm(X, G, B, Tensor(s, bt)),
        c = s[attrs.axis],
        assert(M = Tensor([c], bt), "`moving_mean` must be `Tensor[({}), {}]` (the dimension of the data `{}` along `axis` {}), found `{}`", c, bt, X, attrs.axis, M),
        assert(V = Tensor([c], bt), "`moving_var` must be `Tensor[({}), {}]` (the dimension of the data `{}` along `axis` {}), found `{}`", c, bt, X, attrs.axis, V),
        O = (Tensor(s, bt), Tensor([c], bt), Tensor([c], bt)),
        attrs(axis: int = 1)
)]
pub struct BatchNorm;

/// `layer_norm`'s and `group_norm`'s relation (`instance_norm` has [`InstanceNorm`]):
/// gamma and beta are `(C)` of `C = data.shape[axis]` (inferred backward); the result is
/// the data's type.
#[relation(
    Norm(X @ Tensor(s, bt), G, B, O) :-
        is_axis(attrs.axis, X),
        c = s[attrs.axis],
        assert(G = Tensor([c], bt), "`gamma` must be `Tensor[({}), {}]` (the dimension of the data `{}` along `axis` {}), found `{}`", c, bt, X, attrs.axis, G),
        assert(B = Tensor([c], bt), "`beta` must be `Tensor[({}), {}]` (the dimension of the data `{}` along `axis` {}), found `{}`", c, bt, X, attrs.axis, B),
        O = Tensor(s, bt),
        attrs(axis: int)
)]
pub struct Norm;

/// `instance_norm`'s relation: [`Norm`]'s, on data of rank at least 3 (a batch, the
/// channels and a spatial axis), as TVM's `InstanceNormRel` requires.
#[relation(
    InstanceNorm(X @ Tensor(s, _), G, B, O) :-
        assert(
            len(s) >= 3,
            "`nn.instance_norm` expects data of rank at least 3 (batch, channels, spatial axes), found `{}`",
            X
        ),
        Norm(X, G, B, O),
        attrs(axis: int)
)]
pub struct InstanceNorm;

/// `expand_dims`'s relation: `num_newaxis` ones inserted at `axis` ∈ `[-ndim-1, ndim]`
/// (a negative axis counts from the end: `-1` appends). Backward too: a result of known
/// rank gives the data (its dimensions less the inserted ones, which must be 1), or the
/// reason no data can give it.
#[relation(ExpandDims)]
pub fn expand_dims_rel(cx: &mut RelCx<'_>) -> RelResult {
    let axis = cx.attrs().int("axis")?.unwrap_or(0);
    let n = cx.attrs().int("num_newaxis")?.unwrap_or(1);
    if n < 0 {
        return Err(RelError::new("`num_newaxis` must not be negative"));
    }
    if n > 65536 {
        return Err(RelError::new(format!("`num_newaxis` is too large: {n}")));
    }
    let n = n as usize;
    if let Some((dims, dt)) = cx.tensor_dims(0)? {
        let k = cx.insert_axis(0, "axis", axis, dims.len())?;
        let one = cx.tcx().dims.konst(1);
        let mut out = dims[..k].to_vec();
        out.extend(std::iter::repeat_n(one, n));
        out.extend_from_slice(&dims[k..]);
        cx.unify_tensor(1, &out, dt)?;
        return Ok(Progress::Solved);
    }
    let Some((out, dt)) = cx.tensor_dims(1)? else {
        return Ok(Progress::NotYet);
    };
    // The result is known and the data is not: what data could give it.
    let o = shown(cx, 1);
    let Some(rank) = out.len().checked_sub(n) else {
        return Err(RelError::at(
            1,
            format!(
                "it inserts {n} axes, more than the rank of `{o}` ({})",
                out.len()
            ),
        ));
    };
    let Some(k) = axis_index(axis, rank + 1) else {
        return Err(RelError::at(
            1,
            format!(
                "`{o}` needs data of rank {rank}, and `axis` {axis} is out of range for inserting into it (from -{} to {rank})",
                rank + 1
            ),
        ));
    };
    let one = cx.tcx().dims.konst(1);
    for (i, &d) in out.iter().enumerate().skip(k).take(n) {
        agree(cx, 1, d, one, |d, _| {
            format!("`axis` {axis} inserts a dimension of 1 at position {i}, where `{o}` has {d}")
        })?;
    }
    let mut data = out[..k].to_vec();
    data.extend_from_slice(&out[k + n..]);
    cx.unify_tensor(0, &data, dt)?;
    Ok(Progress::Solved)
}

/// `nn.dense`'s relation: `nn.matmul`'s ([`Matmul`]) with the weight transposed,
/// `(units, k)`: the data `(.., k)`, the result `(.., units)` of `out_dtype` (the data's
/// dtype by default). The contraction dimensions must agree (TVM never checks them).
/// With `units`, an unknown weight is inferred (backward) with the data's dtype; it waits
/// while the data, or the weight without `units`, is unknown.
#[relation(
    Dense(X @ Tensor(sa, bt), W @ Tensor(sw, wt), O) :-
        if attrs.units != None {
            assert(attrs.units >= 0, "`units` must not be negative, found {}", attrs.units),
        },
        assert(len(sa) >= 1, "the data of `nn.dense` must be at least 1-D, found `{}`", X),
        assert(len(sw) == 2, "the weight of `nn.dense` must be 2-D, found `{}`", W),
        assert(
            sw[1] = sa[-1],
            "the contraction dimensions of `nn.dense` differ: dimension {} of the data is {} and dimension 1 of the weight is {}",
            len(sa) - 1, sa[-1], sw[1]
        ),
        if attrs.units != None {
            assert(sw[0] = attrs.units, "`units` is {} but dimension 0 of the weight of `nn.dense` is {}", attrs.units, sw[0]),
            // Backward: an unknown weight is `(units, k)`, of the data's dtype.
            sw = [attrs.units, sa[-1]],
            default(wt, bt),
            u = attrs.units,
        } else {
            u = sw[0],
        },
        if attrs.out_dtype == None { odt = bt } else { odt = attrs.out_dtype },
        O = Tensor([..sa[..-1], u], odt),
        attrs(units: Option<int> = None, out_dtype: Option<dtype> = None)
)]
pub struct Dense;

/// `nn.matmul`'s relation: A is `(.., m, k)` (`(.., k, m)` with `transpose_a`), B is
/// `(k, units)` (`(units, k)` with `transpose_b`), the result `(.., m, units)` of
/// `out_dtype` (A's dtype by default). With `units`, an unknown B is inferred (backward)
/// with A's dtype; the contraction dimensions must agree (TVM never checks them); it
/// waits while A, or B without `units`, is unknown. (Each transposition is a branch, so
/// that every position is a constant.)
#[relation(
    Matmul(A @ Tensor(sa, bt), B @ Tensor(sb, wt), O) :-
        if attrs.units != None {
            assert(attrs.units >= 0, "`units` must not be negative, found {}", attrs.units),
        },
        if attrs.transpose_a {
            assert(len(sa) >= 2, "the data of `nn.matmul` must be at least 2-D when `transpose_a` is set, found `{}`", A),
            k = sa[-2],
        } else {
            assert(len(sa) >= 1, "the data of `nn.matmul` must be at least 1-D, found `{}`", A),
            k = sa[-1],
        },
        assert(len(sb) == 2, "the weight of `nn.matmul` must be 2-D, found `{}`", B),
        if attrs.transpose_b {
            assert(
                sb[1] = k,
                "the contraction dimensions of `nn.matmul` differ: dimension {} of the data is {} and dimension 1 of the weight is {}",
                if attrs.transpose_a { len(sa) - 2 } else { len(sa) - 1 }, k, sb[1]
            ),
        } else {
            assert(
                sb[0] = k,
                "the contraction dimensions of `nn.matmul` differ: dimension {} of the data is {} and dimension 0 of the weight is {}",
                if attrs.transpose_a { len(sa) - 2 } else { len(sa) - 1 }, k, sb[0]
            ),
        },
        if attrs.units != None {
            // Backward: an unknown B is `(k, units)` (`(units, k)`), of A's dtype.
            if attrs.transpose_b {
                assert(sb[0] = attrs.units, "`units` is {} but dimension 0 of the weight of `nn.matmul` is {}", attrs.units, sb[0]),
                sb = [attrs.units, k],
            } else {
                assert(sb[1] = attrs.units, "`units` is {} but dimension 1 of the weight of `nn.matmul` is {}", attrs.units, sb[1]),
                sb = [k, attrs.units],
            },
            default(wt, bt),
            u = attrs.units,
        } else if attrs.transpose_b {
            u = sb[0],
        } else {
            u = sb[1],
        },
        if attrs.out_dtype == None { odt = bt } else { odt = attrs.out_dtype },
        if attrs.transpose_a {
            O = Tensor([..sa[..-2], sa[-1], u], odt)
        } else {
            O = Tensor([..sa[..-1], u], odt)
        },
        attrs(
            units: Option<int> = None,
            out_dtype: Option<dtype> = None,
            transpose_a: bool = false,
            transpose_b: bool = false
        )
)]
pub struct Matmul;

/// `concatenate`'s relation: a tuple of tensors of one rank and dtype, joined along
/// `axis` ∈ `[-ndim, ndim)`. The joined dimension is the sum of the fields' (`?` if one
/// is `?`); every other dimension must agree across the fields, `?` agreeing with
/// anything, and is the first that is not `?` (`?` only if every field has `?` there).
#[relation(
    Concatenate(X, O) :-
        assert(X = Tuple(..fs), "`concatenate` takes a tuple of tensors, found `{}`", X),
        assert(len(fs) >= 1, "`concatenate` needs at least one tensor"),
        for f in fs {
            assert(f = Tensor(_, _), "`concatenate` takes a tuple of tensors, found the field `{}`", f),
        },
        fs[0] = Tensor(s0, bt),
        r = len(s0),
        for i in 1..len(fs) {
            assert(
                len(shape(fs[i])) == r,
                "`concatenate` needs tensors of one rank: field 0 `{}` has rank {} and field {} `{}` has rank {}",
                fs[0], r, i, fs[i], len(shape(fs[i]))
            ),
            assert(
                dtype(fs[i]) = bt,
                "`concatenate` needs tensors of one dtype: field 0 is `{}` and field {} is `{}`",
                fs[0], i, fs[i]
            ),
        },
        assert(
            -r <= attrs.axis && attrs.axis < r,
            "`axis` {} is out of range for tensors of rank {}: it must be in [{}, {})",
            attrs.axis, r, -r, r
        ),
        a = attrs.axis % r,
        // For each axis, the first field whose dimension there is not `?` (field 0 if
        // every one is `?`): the others agree with it.
        first = [[..[i for i in 0..len(fs) if !is_any(shape(fs[i])[d])], 0][0] for d in 0..r],
        out = [shape(fs[first[d]])[d] for d in 0..r],
        for d in 0..r {
            for i in 0..len(fs) {
                if d != a && !is_any(shape(fs[i])[d]) {
                    assert(
                        shape(fs[i])[d] = out[d],
                        "`concatenate` along axis {} needs the other dimensions to agree: dimension {} of field {} `{}` is {} and of field {} `{}` is {}",
                        a, d, first[d], fs[first[d]], out[d], i, fs[i], shape(fs[i])[d]
                    ),
                },
            },
        },
        O = Tensor([..out[..a], sum([shape(f)[a] for f in fs]), ..out[a + 1..]], bt),
        attrs(axis: int = 0)
)]
pub struct Concatenate;

// ---------------------------------------------------------------------------------------
// Operators
// ---------------------------------------------------------------------------------------

relay_op! {
    /// Element-wise addition with NumPy broadcasting.
    ///
    /// ```text
    /// %z = add(%x, %y)  // (n, 1) f32, (3) f32 -> (n, 3) f32
    /// ```
    add : fn<t1 : Type, t2 : Type, t3 : Type>(lhs: t1, rhs: t2) -> t3 where Broadcast,
        level 1;

    /// Element-wise subtraction with NumPy broadcasting; no attributes.
    ///
    /// ```text
    /// %z = subtract(%x, %y)  // (n, 1) f32, (3) f32 -> (n, 3) f32
    /// ```
    subtract,

    /// Element-wise multiplication with NumPy broadcasting; no attributes.
    ///
    /// ```text
    /// %z = multiply(%x, %y)  // (2, 1, 4) f32, (3, 1) f32 -> (2, 3, 4) f32
    /// ```
    multiply,

    /// Element-wise division with NumPy broadcasting; no attributes.
    ///
    /// ```text
    /// %z = divide(%x, %y)  // (n, 3) f32, (1) f32 -> (n, 3) f32
    /// ```
    divide,

    /// Element-wise floor division with NumPy broadcasting; no attributes.
    ///
    /// ```text
    /// %z = floor_divide(%x, %y)  // (4) i32, () i32 -> (4) i32
    /// ```
    floor_divide,

    /// Element-wise floor modulo with NumPy broadcasting; no attributes.
    ///
    /// ```text
    /// %z = floor_mod(%x, %y)  // (4) i32, () i32 -> (4) i32
    /// ```
    floor_mod,

    /// Element-wise modulo (truncated, as C's `%`) with NumPy broadcasting; no attributes.
    ///
    /// ```text
    /// %z = mod(%x, %y)  // (2, 3) i32, (3) i32 -> (2, 3) i32
    /// ```
    mod,

    /// Element-wise truncated division with NumPy broadcasting; no attributes.
    ///
    /// ```text
    /// %z = trunc_divide(%x, %y)  // (2, 3) i32, (3) i32 -> (2, 3) i32
    /// ```
    trunc_divide,

    /// Element-wise truncated modulo with NumPy broadcasting; no attributes.
    ///
    /// ```text
    /// %z = trunc_mod(%x, %y)  // (2, 3) i32, (3) i32 -> (2, 3) i32
    /// ```
    trunc_mod : fn<t1, t2, t3>(lhs: t1, rhs: t2) -> t3 where Broadcast, level 1;

    /// Element-wise `e^x`; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = exp(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    exp,

    /// Element-wise natural logarithm; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = log(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    log,

    /// Element-wise base-2 logarithm; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = log2(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    log2,

    /// Element-wise base-10 logarithm; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = log10(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    log10,

    /// Element-wise square root; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = sqrt(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    sqrt,

    /// Element-wise reciprocal square root; the result has the argument's type. No
    /// attributes.
    ///
    /// ```text
    /// %y = rsqrt(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    rsqrt,

    /// Element-wise logistic sigmoid; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = sigmoid(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    sigmoid,

    /// Element-wise hyperbolic tangent; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = tanh(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    tanh,

    /// Element-wise sine; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = sin(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    sin,

    /// Element-wise cosine; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = cos(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    cos,

    /// Element-wise tangent; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = tan(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    tan,

    /// Element-wise hyperbolic sine; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = sinh(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    sinh,

    /// Element-wise hyperbolic cosine; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = cosh(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    cosh,

    /// Element-wise arc sine; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = asin(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    asin,

    /// Element-wise arc cosine; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = acos(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    acos,

    /// Element-wise arc tangent; the result has the argument's type. No attributes.
    ///
    /// ```text
    /// %y = atan(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    atan,

    /// Element-wise inverse hyperbolic sine; the result has the argument's type. No
    /// attributes.
    ///
    /// ```text
    /// %y = asinh(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    asinh,

    /// Element-wise inverse hyperbolic cosine; the result has the argument's type. No
    /// attributes.
    ///
    /// ```text
    /// %y = acosh(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    acosh,

    /// Element-wise inverse hyperbolic tangent; the result has the argument's type. No
    /// attributes.
    ///
    /// ```text
    /// %y = atanh(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    atanh,

    /// Element-wise Gauss error function; the result has the argument's type. No
    /// attributes.
    ///
    /// ```text
    /// %y = erf(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    erf,

    /// Element-wise rectified linear unit, `max(x, 0)`; the result has the argument's
    /// type. No attributes.
    ///
    /// ```text
    /// %y = nn.relu(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    nn.relu : fn<t1, t2>(data: t1) -> t2 where Identity, level 1;

    /// Joins a tuple of tensors of one rank and dtype along `axis`.
    ///
    /// `axis` is in `[-ndim, ndim)`. The joined dimension is the sum (`?` if any input has
    /// `?` there); the others must agree (`?` agrees with anything).
    ///
    /// ```text
    /// %y = concatenate((%a, %b), axis=1)  // (n, 2) f32, (n, 3) f32 -> (n, 5) f32
    /// ```
    concatenate : fn<t1, t2>(data: t1) -> t2 where Concatenate,
        attrs { axis: int = 0 },
        level 1;

    /// Inserts `num_newaxis` dimensions of size 1 at `axis`.
    ///
    /// `axis`: in `[-ndim-1, ndim]`; negative counts from the end, `-1` appends.
    /// `num_newaxis`: not negative.
    ///
    /// ```text
    /// %y = expand_dims(%x, axis=1, num_newaxis=2)  // (n, 3) f32 -> (n, 1, 1, 3) f32
    /// ```
    expand_dims : fn<t1, t2>(data: t1) -> t2 where ExpandDims,
        attrs { axis: int, num_newaxis: int = 1 },
        level 1;

    /// A fully connected layer: `data · weightᵀ`, data `(.., k)`, weight `(units, k)`.
    ///
    /// `units`: when given, an unknown weight is inferred as `(units, k)` with the data's
    /// dtype; TVM's C++ gives it no default and always prints it, `units=None` when unset.
    /// `out_dtype`: the data's dtype; TVM prints it unset as `out_dtype=""`. The
    /// contraction dimensions `k` must agree.
    ///
    /// ```text
    /// %y = nn.dense(%x, %w, units=64)  // (n, 768) f32, (64, 768) f32 -> (n, 64) f32
    /// %y = nn.dense(%x, %w, units=None, out_dtype="")  // (n, 768) f16, (64, 768) f16 -> (n, 64) f16
    /// ```
    nn.dense : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Dense,
        attrs DenseAttrs,
        level 1;

    /// A matrix product `A · B`, each side optionally transposed: A `(.., m, k)`
    /// (`(.., k, m)` with `transpose_a`), B `(k, units)` (`(units, k)` with
    /// `transpose_b`).
    ///
    /// `units`: when given, an unknown B is inferred. `out_dtype`: A's dtype. The
    /// contraction dimensions `k` must agree.
    ///
    /// ```text
    /// %y = nn.matmul(%a, %b)  // (n, 768) f32, (768, 64) f32 -> (n, 64) f32
    /// ```
    nn.matmul : fn<t1, t2, t3>(tensor_a: t1, tensor_b: t2) -> t3 where Matmul,
        attrs {
            units: Option<int> = None,
            out_dtype: Option<dtype> = None,
            transpose_a: bool = false,
            transpose_b: bool = false,
        },
        level 1;

    /// Softmax along `axis`; the result has the argument's type.
    ///
    /// ```text
    /// %y = nn.softmax(%x, axis=1)  // (n, 10) f32 -> (n, 10) f32
    /// ```
    nn.softmax,

    /// Log-softmax along `axis`; the result has the argument's type.
    ///
    /// ```text
    /// %y = nn.log_softmax(%x)  // (n, 10) f32 -> (n, 10) f32
    /// ```
    nn.log_softmax : fn<t1, t2>(data: t1) -> t2 where Softmax,
        attrs { axis: int = -1 },
        level 1;

    /// Adds a vector `bias` of `C = data.shape[axis]` along `axis`; the result has the
    /// data's type, and an unknown bias is inferred as `(C)`.
    ///
    /// ```text
    /// %y = nn.bias_add(%x, %b)  // (n, 16, 8, 8) f32, (16) f32 -> (n, 16, 8, 8) f32
    /// ```
    nn.bias_add : fn<t1, t2, t3>(data: t1, bias: t2) -> t3 where BiasAdd,
        attrs { axis: int = 1 },
        level 1;

    /// Dropout; the result is the pair (output, mask), both of the data's type.
    ///
    /// ```text
    /// %y = nn.dropout(%x, rate=0.2)  // (n, 3) f32 -> ((n, 3) f32, (n, 3) f32)
    /// ```
    nn.dropout : fn<t1, t2>(data: t1) -> t2 where Dropout,
        attrs { rate: float = 0.5 },
        level 1;

    /// Batch normalization along `axis` (the channel axis, `C = data.shape[axis]`).
    /// gamma, beta, moving_mean and moving_var are `(C)` (inferred when unknown); the
    /// result is `(normalized data, new mean (C), new variance (C))`.
    ///
    /// `axis`: in `[-ndim, ndim)`.
    ///
    /// ```text
    /// %y = nn.batch_norm(%x, %g, %b, %m, %v)  // (n, 16, 8, 8) f32, (16) f32, (16) f32, (16) f32, (16) f32 -> ((n, 16, 8, 8) f32, (16) f32, (16) f32)
    /// ```
    nn.batch_norm : fn<t1, t2, t3, t4, t5, t6>(
        data: t1, gamma: t2, beta: t3, moving_mean: t4, moving_var: t5
    ) -> t6 where BatchNorm,
        attrs { axis: int = 1, epsilon: float = 0.00001, center: bool = true, scale: bool = true },
        level 1;

    /// Layer normalization along `axis` (`C = data.shape[axis]`); gamma and beta are
    /// `(C)` (inferred when unknown); the result has the data's type.
    ///
    /// `axis`: in `[-ndim, ndim)`.
    ///
    /// ```text
    /// %y = nn.layer_norm(%x, %g, %b)  // (n, 128, 768) f32, (768) f32, (768) f32 -> (n, 128, 768) f32
    /// ```
    nn.layer_norm : fn<t1, t2, t3, t4>(data: t1, gamma: t2, beta: t3) -> t4 where Norm,
        attrs { axis: int = -1, epsilon: float = 0.00001, center: bool = true, scale: bool = true },
        level 1;

    /// Instance normalization of data of rank at least 3, channels along `axis`
    /// (`C = data.shape[axis]`); gamma and beta are `(C)` (inferred when unknown); the
    /// result has the data's type.
    ///
    /// `axis`: in `[-ndim, ndim)`.
    ///
    /// ```text
    /// %y = nn.instance_norm(%x, %g, %b)  // (n, 16, 8, 8) f32, (16) f32, (16) f32 -> (n, 16, 8, 8) f32
    /// ```
    nn.instance_norm : fn<t1, t2, t3, t4>(data: t1, gamma: t2, beta: t3) -> t4 where InstanceNorm,
        attrs { axis: int = 1, epsilon: float = 0.00001, center: bool = true, scale: bool = true },
        level 1;

    /// Group normalization: channels along `axis` (`C = data.shape[axis]`) in
    /// `num_groups` groups; gamma and beta are `(C)` (inferred when unknown); the result
    /// has the data's type.
    ///
    /// `num_groups`: TVM's C++ default; the type does not depend on it. `axis`: in `[-ndim,
    /// ndim)`.
    ///
    /// ```text
    /// %y = nn.group_norm(%x, %g, %b, num_groups=4)  // (n, 16, 8, 8) f32, (16) f32, (16) f32 -> (n, 16, 8, 8) f32
    /// ```
    nn.group_norm : fn<t1, t2, t3, t4>(data: t1, gamma: t2, beta: t3) -> t4 where Norm,
        attrs {
            num_groups: int = 0,
            axis: int = 1,
            epsilon: float = 0.00001,
            center: bool = true,
            scale: bool = true,
        },
        level 1;
}
