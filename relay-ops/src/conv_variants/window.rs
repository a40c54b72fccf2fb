//! The size of a sliding window's output, shared by the convolution variants, the
//! deformable convolution and `image.dilation2d`.

use crate::level2::util::{empty, konst, plus};
use relay_core::{Dim, RelCx, RelError};

/// How one spatial axis is convolved: the total padding, the dilation and the stride.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Window {
    pub(crate) pad: i64,
    pub(crate) dilation: i64,
    pub(crate) stride: i64,
}

/// `floordiv(h + pad - (1 + (k - 1) * dilation), stride) + 1`, the output size of axis
/// `letter` of operator `op` for an input of `h` and a kernel of `k` (`?` stays `?`).
/// A constant size below 1 is an error blaming argument 0 (TVM types an empty or
/// negative dimension).
pub(crate) fn out_size(
    cx: &mut RelCx<'_>,
    op: &str,
    letter: char,
    h: Dim,
    k: Dim,
    w: Window,
) -> Result<Dim, RelError> {
    let km1 = plus(cx, k, -1)?;
    let dk = cx.tcx().dims.scale(km1, w.dilation)?;
    let dk = plus(cx, dk, 1)?;
    let x = plus(cx, h, w.pad)?;
    let x = cx.tcx().dims.sub(x, dk)?;
    let s = konst(cx, w.stride);
    let x = cx.tcx().dims.floordiv(x, s)?;
    let size = plus(cx, x, 1)?;
    if let Some(c) = empty(cx, size) {
        return Err(RelError::at(
            0,
            format!(
                "the output of `{op}` would be empty along {letter}: its size is {c} (data {}, padding {}, dilated kernel {}, stride {})",
                cx.show_dim(h),
                w.pad,
                cx.show_dim(dk),
                w.stride
            ),
        ));
    }
    Ok(size)
}

/// The output's H and W ([`out_size`]) for the data's `hw` and the kernel's `khw`, each
/// axis windowed by its total padding, dilation and stride.
pub(crate) fn out_hw(
    cx: &mut RelCx<'_>,
    op: &str,
    (hw, khw): (&[Dim], &[Dim]),
    (pads, dilation, strides): (&[i64], &[i64], &[i64]),
) -> Result<[Dim; 2], RelError> {
    let mut out = [hw[0]; 2];
    for (i, letter) in ['H', 'W'].into_iter().enumerate() {
        let win = Window {
            pad: pads[i],
            dilation: dilation[i],
            stride: strides[i],
        };
        out[i] = out_size(cx, op, letter, hw[i], khw[i], win)?;
    }
    Ok(out)
}
