//! Shape-keeping and shape-making tensor relations: `meshgrid`, `sliding_window`,
//! `stft`, `dft`, `sequence_mask`, `matrix_set_diag`, `reverse_sequence`, `trilu`,
//! `unique`, `invert_permutation`.
//!
//! Imperative: lists of axes and attribute arithmetic, tuples of results.

use super::util::{arith, part, same_dims, shown, tuple_of_tensors, unify_or};
use relay_core::{relation, DTy, DType, Dim, DimOp, Dims, Progress, RelCx, RelError, RelResult};

/// The relation of `meshgrid((x...))`: scalars and 1-D tensors of one dtype give as
/// many grids, each of the shape of their lengths (`"xy"` indexing swaps the first
/// two).
#[relation(Meshgrid)]
pub fn meshgrid_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "meshgrid";
    let indexing = cx.attrs().str("indexing")?.unwrap_or("ij").to_owned();
    if indexing != "ij" && indexing != "xy" {
        return Err(RelError::new(format!(
            "`indexing` of `{op}` must be \"ij\" or \"xy\", found {indexing:?}"
        )));
    }
    let Some(fields) = tuple_of_tensors(cx, op, 0)? else {
        return Ok(Progress::NotYet);
    };
    let Some((_, dt)) = fields.first().cloned() else {
        return Err(RelError::at(0, format!("`{op}` needs at least one tensor")));
    };
    let mut grid = Vec::with_capacity(fields.len());
    for (k, (dims, fdt)) in fields.iter().enumerate() {
        let one = cx.tcx().dims.konst(1);
        match dims.as_slice() {
            [] => grid.push(one),
            [n] => grid.push(*n),
            _ => {
                return Err(cx.error_showing(0, |t| {
                    format!("`{op}` expects scalars or 1-D tensors, field {k} of `{t}` is not")
                }));
            }
        }
        if cx.unify_dtype(*fdt, dt, 0).is_err() {
            return Err(cx.error_showing(0, |t| {
                format!("`{op}` expects tensors of one dtype, found `{t}`")
            }));
        }
    }
    if indexing == "xy" && grid.len() >= 2 {
        grid.swap(0, 1);
    }
    let g = cx.mk_tensor(&grid, dt);
    let out = cx.tcx().tuple(&vec![g; fields.len()]);
    cx.unify(1, out)?;
    Ok(Progress::Solved)
}

/// The relation of `sliding_window(data)`: the dimensions before `axis`, then for each
/// window axis the number of windows `floordiv(d - window + stride, stride)`, then the
/// window's shape. `window_shape` and `strides` have one entry per window axis (from
/// `axis` on), each at least 1; a window larger than a constant axis is an error.
#[relation(SlidingWindow)]
pub fn sliding_window_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "sliding_window";
    let window = cx.attrs().ints("window_shape")?.unwrap_or_default();
    let strides = cx.attrs().ints("strides")?.unwrap_or_default();
    if window.len() != strides.len() {
        return Err(RelError::new(format!(
            "`window_shape` of `{op}` has {} entries, `strides` {}",
            window.len(),
            strides.len()
        )));
    }
    if let Some(bad) = window.iter().chain(&strides).find(|&&v| v < 1) {
        return Err(RelError::new(format!(
            "`window_shape` and `strides` of `{op}` must be at least 1, found {bad}"
        )));
    }
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    let first = cx.axis(0, "axis", a, dims.len().max(1))?;
    if first + window.len() > dims.len() {
        return Err(cx.error_showing(0, |t| {
            format!(
                "`{op}` slides a window of {} axes from axis {first} over `{t}`, which has rank {}",
                window.len(),
                dims.len()
            )
        }));
    }
    let mut out = dims[..first].to_vec();
    for (i, (&w, &s)) in window.iter().zip(&strides).enumerate() {
        let d = dims[first + i];
        let shift = cx.tcx().dims.konst(s - w);
        let x = cx.tcx().dims.add(d, shift).map_err(arith(0))?;
        let sd = cx.tcx().dims.konst(s);
        let n = cx.tcx().dims.floordiv(x, sd).map_err(arith(0))?;
        if let Some(c) = cx.tcx_ref().dims.as_const(d).filter(|&c| c < w) {
            return Err(RelError::at(
                0,
                format!(
                    "the window of `{op}` is {w} along axis {}, longer than the axis, {c}",
                    first + i
                ),
            ));
        }
        out.push(n);
    }
    for &w in &window {
        out.push(cx.tcx().dims.konst(w));
    }
    cx.unify_tensor(1, &out, dt)?;
    Ok(Progress::Solved)
}

/// The relation of `stft(data, window)`: data `(L)` or `(B, L)`, a 1-D window; the result
/// `([B,] F, frames, 2)` with `F = n_fft / 2 + 1` (`onesided`) or `n_fft`, `frames =
/// floordiv(L - n_fft, hop_length) + 1` (`?` for a `?` length). `n_fft` and
/// `hop_length` must be set (at least 1).
#[relation(Stft)]
pub fn stft_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "stft";
    let n_fft = cx.attrs().int("n_fft")?.unwrap_or(-1);
    let hop = cx.attrs().int("hop_length")?.unwrap_or(-1);
    for (name, v) in [("n_fft", n_fft), ("hop_length", hop)] {
        if v < 1 {
            return Err(RelError::new(format!(
                "`{name}` of `{op}` must be at least 1, found {v}"
            )));
        }
    }
    let onesided = cx.attrs().bool("onesided")?.unwrap_or(true);
    let win = cx.attrs().int("win_length")?.unwrap_or(-1);
    if let Some((w, _)) = part(cx, op, 1, "the window", &[1], false)? {
        if win >= 1 {
            let k = cx.tcx().dims.konst(win);
            same_dims(cx, 1, &[w[0]], &[k], |cx| {
                let t = shown(cx, 1);
                format!("`{op}` expects a window of `win_length` = {win}, found `{t}`")
            })?;
        }
    }
    let Some((dims, dt)) = part(cx, op, 0, "the data", &[1, 2], false)? else {
        return Ok(Progress::NotYet);
    };
    let len = *dims.last().expect("rank 1 or 2");
    let mut out = dims[..dims.len() - 1].to_vec();
    out.push(
        cx.tcx()
            .dims
            .konst(if onesided { n_fft / 2 + 1 } else { n_fft }),
    );
    let frames = if cx.tcx_ref().dims.is_any(len) {
        Dims::ANY
    } else {
        if let Some(c) = cx.tcx_ref().dims.as_const(len).filter(|&c| c < n_fft) {
            return Err(RelError::at(
                0,
                format!("`{op}` needs a signal of at least `n_fft` = {n_fft} samples, found {c}"),
            ));
        }
        let k = cx.tcx().dims.konst(-n_fft);
        let x = cx.tcx().dims.add(len, k).map_err(arith(0))?;
        let h = cx.tcx().dims.konst(hop);
        let x = cx.tcx().dims.floordiv(x, h).map_err(arith(0))?;
        let one = cx.tcx().dims.konst(1);
        cx.tcx().dims.add(x, one).map_err(arith(0))?
    };
    out.push(frames);
    out.push(cx.tcx().dims.konst(2));
    cx.unify_tensor(2, &out, dt)?;
    Ok(Progress::Solved)
}

/// The relation of `dft(re_data, im_data)`: the pair `(re, im)` of the parts' type; the
/// real and imaginary parts have one type (TVM keeps each part's own).
#[relation(Dft)]
pub fn dft_rel(cx: &mut RelCx<'_>) -> RelResult {
    let re = cx.arg(0);
    unify_or(cx, 1, re, |i, r| {
        format!("`dft` expects real and imaginary parts of one type, found `{r}` and `{i}`")
    })?;
    let Some(_) = part(cx, "dft", 0, "the real part", &[], false)? else {
        return Ok(Progress::NotYet);
    };
    let t = cx.tcx().tuple(&[re, re]);
    cx.unify(2, t)?;
    Ok(Progress::Solved)
}

/// The relation of `sequence_mask(data, valid_length)`: the data's type; `valid_length`
/// is 1-D, of the data's batch dimension (`1 - axis`), solved from the data (as TVM
/// assigns it).
#[relation(SequenceMask)]
pub fn sequence_mask_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "sequence_mask";
    let a = cx.attrs().int("axis")?.unwrap_or(0);
    if a != 0 && a != 1 {
        return Err(RelError::new(format!(
            "`axis` of `{op}` must be 0 or 1, found {a}"
        )));
    }
    let Some((dims, _)) = matrices(cx, op, ("the data", "data"))? else {
        return Ok(Progress::NotYet);
    };
    let d = cx.arg(0);
    cx.unify(2, d)?;
    let Some((_, ldt)) = cx.tensor(1)? else {
        return Ok(Progress::NotYet);
    };
    let want = cx.mk_tensor(&[dims[(1 - a) as usize]], ldt);
    let t = shown(cx, 0);
    unify_or(cx, 1, want, |l, _| {
        format!(
            "`{op}` expects one valid length per batch entry of `{t}` (axis {}), found `{l}`",
            1 - a
        )
    })?;
    Ok(Progress::Solved)
}

/// `min(a, b)` of two dimensions.
fn min(cx: &mut RelCx<'_>, a: Dim, b: Dim) -> Result<Dim, RelError> {
    cx.tcx().dims.apply(DimOp::Min, a, b).map_err(arith(0))
}

/// The relation of `matrix_set_diag(input, diagonal)`: the input's type (rank at least
/// 2, `(..., M, N)`); the diagonal of its dtype, `(..., L)` for one diagonal (`k1 = k2`)
/// or `(..., k2 - k1 + 1, L)` for a band, with `L = min(M + min(k2, 0), N - max(k1, 0))`
/// (the longest diagonal of the band), solved from the input. TVM computes `L` with the
/// signs of `k1`, `k2` the other way round and ignores the result of its check.
#[relation(MatrixSetDiag)]
pub fn matrix_set_diag_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "matrix_set_diag";
    let k1 = cx.attrs().int("k1")?.unwrap_or(0);
    let k2 = cx.attrs().int("k2")?.unwrap_or(0);
    if k1 > k2 {
        return Err(RelError::new(format!(
            "`k1` ({k1}) of `{op}` must not be greater than `k2` ({k2})"
        )));
    }
    let band = k2
        .checked_sub(k1)
        .and_then(|d| d.checked_add(1))
        .ok_or_else(|| RelError::new(format!("the band `k1`..`k2` of `{op}` is too wide")))?;
    let Some((dims, dt)) = matrices(cx, op, ("the input", "an input"))? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    let (m, n) = (dims[r - 2], dims[r - 1]);
    let ds = &cx.tcx_ref().dims;
    // In `i128`: `-m` of any `i64` fits.
    let below = |m: i64| i128::from(k1) <= -i128::from(m);
    if ds.as_const(m).is_some_and(below) || ds.as_const(n).is_some_and(|n| k2 >= n) {
        return Err(cx.error_showing(0, |t| {
            format!("the diagonals `k1` = {k1} to `k2` = {k2} of `{op}` are not all in `{t}`")
        }));
    }
    let i = cx.arg(0);
    cx.unify(2, i)?;
    let a = cx.tcx().dims.konst(k2.min(0));
    let rows = cx.tcx().dims.add(m, a).map_err(arith(0))?;
    let b = cx.tcx().dims.konst(-k1.max(0));
    let cols = cx.tcx().dims.add(n, b).map_err(arith(0))?;
    let len = min(cx, rows, cols)?;
    let mut want = dims[..r - 2].to_vec();
    if k1 != k2 {
        want.push(cx.tcx().dims.konst(band));
    }
    want.push(len);
    let expected = cx.mk_tensor(&want, dt);
    unify_or(cx, 1, expected, |d, e| {
        format!("`{op}` expects the diagonal `{e}`, found `{d}`")
    })?;
    Ok(Progress::Solved)
}

/// The relation of `reverse_sequence(data, seq_lengths)`: the data's type; `seq_lengths`
/// is a 1-D integer tensor of the data's `batch_axis` dimension, both axes in range.
#[relation(ReverseSequence)]
pub fn reverse_sequence_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "reverse_sequence";
    let Some((dims, _)) = part(cx, op, 0, "the data", &[], false)? else {
        return Ok(Progress::NotYet);
    };
    let b = cx.attrs().int("batch_axis")?.unwrap_or(0);
    let b = cx.axis(0, "batch_axis", b, dims.len())?;
    let s = cx.attrs().int("seq_axis")?.unwrap_or(1);
    cx.axis(0, "seq_axis", s, dims.len())?;
    let d = cx.arg(0);
    cx.unify(2, d)?;
    if let Some((l, _)) = part(cx, op, 1, "the sequence lengths", &[1], true)? {
        same_dims(cx, 1, &[l[0]], &[dims[b]], |cx| {
            let (l, t) = (shown(cx, 1), shown(cx, 0));
            format!(
                "`{op}` expects one sequence length per entry of axis {b} of `{t}`, found `{l}`"
            )
        })?;
        return Ok(Progress::Solved);
    }
    Ok(Progress::NotYet)
}

/// Argument 0 of `op`, a stack of matrices: its dimensions (at least two) and dtype,
/// `None` while unknown. `what` names it in messages, as [`part`] does ("the data") and
/// as the rank error does ("data").
fn matrices(
    cx: &mut RelCx<'_>,
    op: &str,
    (what, noun): (&str, &str),
) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
    let matrices = part(cx, op, 0, what, &[], false)?;
    if let Some((dims, _)) = &matrices {
        if dims.len() < 2 {
            return Err(cx.error_showing(0, |t| {
                format!("`{op}` expects {noun} of rank at least 2, found `{t}`")
            }));
        }
    }
    Ok(matrices)
}

/// The relation of `trilu(data, k)`: the data's type (rank at least 2: the last two
/// axes are the matrices); `k` is an integer scalar.
#[relation(Trilu)]
pub fn trilu_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "trilu";
    part(cx, op, 1, "`k` as", &[0], true)?;
    if matrices(cx, op, ("the data", "data"))?.is_none() {
        return Ok(Progress::NotYet);
    }
    let d = cx.arg(0);
    cx.unify(2, d)?;
    Ok(Progress::Solved)
}

/// The relation of `unique(data)`: for 1-D data `(n)`, the tuple (unique values `(n)`,
/// indices `(n)` int32, inverse indices `(n)` int32, the count of unique values `(1)`
/// int32, and with `return_counts` the counts `(n)` int32). The first `num_unique`
/// entries are meaningful.
#[relation(Unique)]
pub fn unique_rel(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = part(cx, "unique", 0, "the data", &[1], false)? else {
        return Ok(Progress::NotYet);
    };
    let i32t = DTy::Known(DType::INT32);
    let values = cx.mk_tensor(&dims, dt);
    let ints = cx.mk_tensor(&dims, i32t);
    let one = cx.tcx().dims.konst(1);
    let count = cx.mk_tensor(&[one], i32t);
    let mut fields = vec![values, ints, ints, count];
    if cx.attrs().bool("return_counts")?.unwrap_or(false) {
        fields.push(ints);
    }
    let t = cx.tcx().tuple(&fields);
    cx.unify(1, t)?;
    Ok(Progress::Solved)
}

/// The relation of `invert_permutation(data)`: a 1-D integer tensor, its own type (TVM's
/// `Identity`, which takes any tensor).
#[relation(InvertPermutation)]
pub fn invert_permutation_rel(cx: &mut RelCx<'_>) -> RelResult {
    let d = cx.arg(0);
    cx.unify(1, d)?;
    match part(cx, "invert_permutation", 0, "a permutation,", &[1], true)? {
        Some(_) => Ok(Progress::Solved),
        None => Ok(Progress::NotYet),
    }
}
