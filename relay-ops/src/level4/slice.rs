//! `StridedSlice` and `SliceLike`.
//!
//! Imperative: per-axis index arithmetic with defaults that depend on the stride's sign,
//! clamping, two slice modes and an optional list of axes — the clause notation has no
//! conditionals and no loops over attribute lists.

use relay_core::{relation, Dim, Progress, RelCx, RelError, RelResult};

/// An `end` at or beyond this means "to the end" (TVM's convention for open slices).
const OPEN: i64 = i32::MAX as i64;

/// One sliced axis: begin and end as given (`None`: open), the stride.
struct AxisSlice {
    axis: usize,
    begin: Option<i64>,
    end: Option<i64>,
    stride: i64,
}

/// The size of `extent[begin:end:stride]`.
///
/// A constant extent gives the exact size with TVM's clamping (negatives count from the
/// end; clamped to `[0, extent]`, or `[-1, extent - 1]` for a negative stride). `?` gives
/// `?`. A symbolic extent `n` gives the size in terms of `n`, taking the indices to be in
/// bounds (`[0:-1]` is `n - 1`, `[2:]` is `n - 2`, `[-3:-1]` is `2`, `[::2]` is
/// `floordiv(n + 1, 2)`), except when the far end of the slice is an absolute position
/// (`[1:3]`, `[:10000]`), which may lie beyond `n`: then `?`.
/// Begin and end in the wrong order for the stride's sign is an error.
fn slice_size(cx: &mut RelCx<'_>, extent: Dim, s: &AxisSlice) -> Result<Dim, RelError> {
    let AxisSlice {
        axis,
        begin,
        end,
        stride,
    } = *s;
    if stride == 0 {
        return Err(RelError::at(0, format!("`strides` is 0 at axis {axis}")));
    }
    let dims = &mut cx.tcx().dims;
    if dims.is_any(extent) {
        return Ok(extent);
    }
    if let Some(n) = dims.as_const(extent) {
        // In `i128`, where no sum or difference of these `i64`s overflows (and
        // `|i64::MIN|` is a step like any other).
        let (n, stride) = (i128::from(negative_extent(axis, n)?), i128::from(stride));
        let (lo, hi) = if stride < 0 { (-1, n - 1) } else { (0, n) };
        let canon = |i: i64| {
            let i = i128::from(i);
            if i < 0 { i + n } else { i }.clamp(lo, hi)
        };
        let b = begin.map_or(if stride < 0 { hi } else { 0 }, canon);
        let e = end.map_or(if stride < 0 { -1 } else { n }, canon);
        let range = if stride < 0 { b - e } else { e - b };
        if range < 0 {
            return Err(order_error(axis, begin, end, stride as i64));
        }
        let step = stride.abs();
        let size = (range + step - 1) / step;
        // At most `n`, so it fits.
        return Ok(dims.konst(size as i64));
    }
    // A symbolic extent `n`. Indices relative to the ends of the axis (a begin from the
    // start, any negative index, an open end) are taken to be in bounds; a far end given
    // as an absolute position (a non-negative `end` for a positive stride, a non-negative
    // `begin` for a negative one) gives `?`.
    let index = |dims: &mut relay_core::Dims, i: i64| -> Result<Dim, RelError> {
        if i >= 0 {
            Ok(dims.konst(i))
        } else {
            let k = dims.konst(i);
            dims.add(extent, k).map_err(RelError::from)
        }
    };
    let one = dims.konst(1);
    let last = dims.sub(extent, one)?;
    let b = match begin {
        None => {
            if stride < 0 {
                last
            } else {
                dims.konst(0)
            }
        }
        Some(i) if stride < 0 && i >= OPEN => last,
        // The far end as an absolute position: it may lie beyond `n` (often a sentinel
        // such as 10000 for "to the end"), so the size is not known.
        Some(i) if stride < 0 && i >= 0 => return Ok(relay_core::Dims::ANY),
        Some(i) => index(dims, i)?,
    };
    let e = match end {
        None => {
            if stride < 0 {
                dims.konst(-1)
            } else {
                extent
            }
        }
        Some(i) if stride > 0 && i >= OPEN => extent,
        Some(i) if stride > 0 && i >= 0 => return Ok(relay_core::Dims::ANY),
        Some(i) if stride < 0 && i <= -OPEN => dims.konst(-1),
        Some(i) => index(dims, i)?,
    };
    let range = if stride < 0 {
        dims.sub(b, e)
    } else {
        dims.sub(e, b)
    }?;
    if dims.as_const(range).is_some_and(|r| r < 0) {
        return Err(order_error(axis, begin, end, stride));
    }
    let step = stride.unsigned_abs();
    if step == 1 {
        return Ok(range);
    }
    let Ok(step) = i64::try_from(step) else {
        // A step of 2^63 is longer than any axis: one element, or none.
        let one = dims.konst(1);
        return dims
            .apply(relay_core::DimOp::Min, range, one)
            .map_err(RelError::from);
    };
    let k = dims.konst(step - 1);
    let up = dims.add(range, k)?;
    let step = dims.konst(step);
    dims.floordiv(up, step).map_err(RelError::from)
}

/// `n`, unless it is negative: an axis of negative length (which a signature such as
/// `Tensor[(n - 5), float32]` instantiated with `n = 3` makes) cannot be sliced.
fn negative_extent(axis: usize, n: i64) -> Result<i64, RelError> {
    if n < 0 {
        return Err(RelError::at(
            0,
            format!("`strided_slice` at axis {axis}: the axis has a negative length, {n}"),
        ));
    }
    Ok(n)
}

fn order_error(axis: usize, begin: Option<i64>, end: Option<i64>, stride: i64) -> RelError {
    let show = |i: Option<i64>| i.map_or("none".to_string(), |i| i.to_string());
    RelError::at(
        0,
        format!(
            "`strided_slice` at axis {axis}: begin {} and end {} are in the wrong order for stride {stride}",
            show(begin),
            show(end)
        ),
    )
}

/// `StridedSlice(data, out)`, with TVM's attributes `begin`, `end`, `strides`, `axes`,
/// `slice_mode` (`"end"` or `"size"`). Without `axes`, the lists cover the leading axes
/// (stride 1 and an open slice for the rest); with `axes`, they give one entry per listed
/// axis (`strides` may have one entry for all). In `"size"` mode, `end` is a size from the
/// (normalized) begin, negative meaning "to the end", and strides are ignored.
#[relation(StridedSlice)]
pub fn strided_slice(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let rank = dims.len();
    let begin = cx.attrs().int_or_ints("begin")?.unwrap_or_default();
    let end = cx.attrs().int_or_ints("end")?.unwrap_or_default();
    let strides = cx.attrs().int_or_ints("strides")?.unwrap_or_default();
    let axes = cx.attrs().int_or_ints("axes")?;
    let mode = cx.attrs().str("slice_mode")?.unwrap_or("end").to_owned();
    let size_mode = match mode.as_str() {
        "end" => false,
        "size" => true,
        _ => {
            return Err(RelError::new(format!(
                "`slice_mode` must be \"end\" or \"size\", found {mode:?}"
            )))
        }
    };
    let mut slices = Vec::new();
    match axes {
        Some(axes) => {
            for (name, len) in [("begin", begin.len()), ("end", end.len())] {
                if len != axes.len() {
                    return Err(RelError::new(format!(
                        "`{name}` has {len} entries, `axes` has {}",
                        axes.len()
                    )));
                }
            }
            if strides.len() > 1 && strides.len() != axes.len() {
                return Err(RelError::new(format!(
                    "`strides` has {} entries, `axes` has {}",
                    strides.len(),
                    axes.len()
                )));
            }
            let mut seen = vec![false; rank];
            for (k, &a) in axes.iter().enumerate() {
                let axis = cx.axis(0, "axes", a, rank)?;
                if std::mem::replace(&mut seen[axis], true) {
                    return Err(RelError::at(0, format!("`axes` lists axis {axis} twice")));
                }
                let stride = match strides.len() {
                    0 => 1,
                    1 => strides[0],
                    _ => strides[k],
                };
                slices.push(AxisSlice {
                    axis,
                    begin: Some(begin[k]),
                    end: Some(end[k]),
                    stride,
                });
            }
        }
        None => {
            for (name, len) in [
                ("begin", begin.len()),
                ("end", end.len()),
                ("strides", strides.len()),
            ] {
                if len > rank {
                    return Err(RelError::at(
                        0,
                        format!("`{name}` has {len} entries, the data has rank {rank}"),
                    ));
                }
            }
            for axis in 0..rank {
                slices.push(AxisSlice {
                    axis,
                    begin: begin.get(axis).copied(),
                    end: end.get(axis).copied(),
                    stride: strides.get(axis).copied().unwrap_or(1),
                });
            }
        }
    }
    let mut out = dims.clone();
    for mut s in slices {
        if size_mode {
            // `end` is a size: from the begin, or to the end when negative.
            let b = s.begin.unwrap_or(0);
            s.stride = 1;
            match s.end {
                Some(size) if size >= 0 => {
                    let extent = dims[s.axis];
                    let ds = &mut cx.tcx().dims;
                    out[s.axis] = match ds.as_const(extent) {
                        Some(n) => {
                            let n = negative_extent(s.axis, n)?;
                            // `b + n` for a negative `b` and `n - b` for `b` in `[0, n]`
                            // do not overflow.
                            let b = if b < 0 { b + n } else { b }.clamp(0, n);
                            ds.konst(size.min(n - b))
                        }
                        None if ds.is_any(extent) => extent,
                        None => ds.konst(size),
                    };
                    continue;
                }
                _ => s.end = None,
            }
        }
        out[s.axis] = slice_size(cx, dims[s.axis], &s)?;
    }
    cx.unify_tensor(1, &out, dt)?;
    Ok(Progress::Solved)
}

/// `SliceLike(data, shape_like, out)`: `data` with the dimensions of `axes` (every axis
/// `shape_like` has, when `None`) taken from `shape_like`; a constant dimension of
/// `shape_like` larger than the data's is an error.
#[relation(SliceLike)]
pub fn slice_like(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let Some((like, _)) = cx.tensor_dims(1)? else {
        return Ok(Progress::NotYet);
    };
    let axes: Vec<usize> = match cx.attrs().int_or_ints("axes")? {
        None => (0..dims.len().min(like.len())).collect(),
        Some(axes) => {
            let mut out = Vec::new();
            for a in axes {
                let i = cx.axis(0, "axes", a, dims.len())?;
                if i >= like.len() {
                    return Err(RelError::at(
                        1,
                        format!(
                            "`axes` names axis {i}, `shape_like` has rank {}",
                            like.len()
                        ),
                    ));
                }
                out.push(i);
            }
            out
        }
    };
    let mut out = dims.clone();
    for i in axes {
        let ds = &cx.tcx_ref().dims;
        if let (Some(t), Some(s)) = (ds.as_const(like[i]), ds.as_const(dims[i])) {
            if t > s {
                return Err(RelError::at(
                    1,
                    format!("axis {i} of `shape_like` is {t}, larger than the data's {s}"),
                ));
            }
        }
        out[i] = like[i];
    }
    cx.unify_tensor(2, &out, dt)?;
    Ok(Progress::Solved)
}
