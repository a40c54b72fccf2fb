//! Oracles the operator tests compare inference with, written from the rules directly
//! (NumPy's broadcasting, the convolution size formula, printed shapes).

/// A dimension of the Broadcast checks: a constant, the symbol `n`, or `?`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum D {
    C(i64),
    N,
    Any,
}

/// `d` in the text syntax.
pub fn show(d: D) -> String {
    match d {
        D::C(c) => c.to_string(),
        D::N => "n".into(),
        D::Any => "?".into(),
    }
}

/// `Tensor[(dims), float32]` as the printer writes it (`float32` for rank 0).
pub fn tensor(dims: &[D]) -> String {
    tensor_of(dims, "float32")
}

/// `Tensor[(dims), dtype]` as the printer writes it (`dtype` for rank 0).
pub fn tensor_of(dims: &[D], dtype: &str) -> String {
    if dims.is_empty() {
        return dtype.into();
    }
    let dims: Vec<String> = dims.iter().map(|&d| show(d)).collect();
    format!("Tensor[({}), {dtype}]", dims.join(", "))
}

/// NumPy's rule (right-aligned; a 1 stretches; equal dimensions agree), with `?` known
/// only at run time (it agrees with everything; a static dimension other than 1 wins over
/// it, and `1` with `?` is `?`) and `n` a symbol equal only to itself. The error names
/// the leftmost clash. Both arguments are `float32`, as is the result.
pub fn numpy_broadcast(a: &[D], b: &[D]) -> Result<String, String> {
    numpy_broadcast_to(a, b, "float32")
}

/// [`numpy_broadcast`] with a result of dtype `out` (`bool` for the comparisons).
pub fn numpy_broadcast_to(a: &[D], b: &[D], out_dtype: &str) -> Result<String, String> {
    let n = a.len().max(b.len());
    let mut out = Vec::new();
    for k in 0..n {
        let ai = (k + a.len()).checked_sub(n);
        let bi = (k + b.len()).checked_sub(n);
        out.push(match (ai, bi) {
            (Some(i), None) => a[i],
            (None, Some(j)) => b[j],
            (Some(i), Some(j)) => {
                let (x, y) = (a[i], b[j]);
                if x == y || y == D::C(1) {
                    x
                } else if x == D::C(1) {
                    y
                } else if y == D::Any {
                    x
                } else if x == D::Any {
                    y
                } else {
                    return Err(format!(
                        "`{}` and `{}` do not broadcast: dimension {i} of the first is {} and dimension {j} of the second is {}",
                        tensor(a),
                        tensor(b),
                        show(x),
                        show(y)
                    ));
                }
            }
            (None, None) => unreachable!(),
        });
    }
    Ok(tensor_of(&out, out_dtype))
}

/// The dimensions of a printed tensor type of constant shape (`[]` for a rank-0 tensor,
/// which prints as its dtype).
pub fn dims_of(ty: &str) -> Vec<i64> {
    if !ty.starts_with("Tensor[(") {
        return Vec::new();
    }
    let inner = &ty["Tensor[(".len()..ty.find(')').unwrap()];
    inner
        .split(", ")
        .filter(|d| !d.is_empty())
        .map(|d| d.parse().unwrap())
        .collect()
}

/// The output size of a convolution along one axis, by the direct formula
/// `floor((size + pad - dilated kernel) / stride) + 1` with the dilated kernel
/// `1 + (kernel - 1) * dilation`; `Err(size)` with that (non-positive) size when the
/// output would be empty.
pub fn conv_out(size: i64, pad: i64, kernel: i64, stride: i64, dilation: i64) -> Result<i64, i64> {
    let span = size + pad - (1 + (kernel - 1) * dilation);
    let out = span.div_euclid(stride) + 1;
    if span < 0 {
        Err(out)
    } else {
        Ok(out)
    }
}

/// The message of a convolution whose output would be empty along `axis`.
pub fn conv_empty_message(
    op: &str,
    axis: &str,
    size: i64,
    pad: i64,
    kernel: i64,
    stride: i64,
    dilation: i64,
) -> String {
    let out = conv_out(size, pad, kernel, stride, dilation).unwrap_err();
    format!(
        "the output of `{op}` would be empty along {axis}: its size is {out} (data {size}, padding {pad}, dilated kernel {}, stride {stride})",
        1 + (kernel - 1) * dilation
    )
}
