//! `Resize` and `Upsample`.

use super::{arith, as_const, konst, sizes_nonneg};
use crate::onnx_ops;
use crate::ops::util::{float_list, out_tensor, value_of, Val};
use relay_core::{relation, relay_op, Dim, Dims, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// ONNX `Resize` and `Upsample`: each axis `floor(D * scale)` for the constant
    /// `scales`, or the value of `sizes` (on `axes`, adjusted to keep the aspect ratio by
    /// `keep_aspect_ratio_policy`).
    onnx.resize : fn<x, s, y>(data: x, sizes: s) -> y where OnnxResize,
        attrs {
            scales: Option<[float]> = None,
            axes: Option<[int]> = None,
            keep_aspect_ratio_policy: str = "stretch"
        },
        level 10;
}

/// `D * scale` rounded down, symbolic when `D` is and the scale an integer or the
/// inverse of one; `?` else.
fn scaled(cx: &mut RelCx<'_>, d: Dim, scale: f64) -> Result<Dim, RelError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(RelError::at(
            0,
            format!("a scale of {scale}: it must be positive"),
        ));
    }
    if let Some(c) = as_const(cx, d) {
        let v = (c as f64 * scale).floor();
        if v > i64::MAX as f64 / 2.0 {
            return Err(RelError::at(0, format!("scaling {c} by {scale} overflows")));
        }
        return Ok(konst(cx, v as i64));
    }
    if d == Dims::ANY {
        return Ok(Dims::ANY);
    }
    if scale.fract() == 0.0 && scale < (1u64 << 31) as f64 {
        return cx.tcx().dims.scale(d, scale as i64).map_err(arith(0));
    }
    let inv = 1.0 / scale;
    if (inv - inv.round()).abs() < 1e-9 && inv < (1u64 << 31) as f64 {
        let k = konst(cx, inv.round() as i64);
        return cx.tcx().dims.floordiv(d, k).map_err(arith(0));
    }
    Ok(Dims::ANY)
}

/// `OnnxResize(data, sizes value, out)`.
#[relation(OnnxResize)]
pub fn onnx_resize(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = x.len();
    let axes: Vec<usize> = match cx.attrs().ints("axes")? {
        Some(a) if !a.is_empty() => {
            let mut out = Vec::with_capacity(a.len());
            for &v in &a {
                let k = crate::ops::util::axis_in(v, r, 0)?;
                if out.contains(&k) {
                    return Err(RelError::at(0, format!("axis {v} is given twice")));
                }
                out.push(k);
            }
            out
        }
        _ => (0..r).collect(),
    };
    let sizes = match value_of(cx, 1)? {
        Val::Known(s) if !s.is_empty() => Some(s),
        // Not known (computed from data): the resized axes are not either.
        Val::Unknown => Some(vec![Dims::ANY; axes.len()]),
        _ => None,
    };
    let mut out = x.clone();
    if let Some(sizes) = sizes {
        if sizes.len() != axes.len() {
            return Err(RelError::at(
                1,
                format!("`sizes` has {} values for {} axes", sizes.len(), axes.len()),
            ));
        }
        sizes_nonneg(cx, &sizes, 1, "sizes")?;
        let policy = cx
            .attrs()
            .str("keep_aspect_ratio_policy")?
            .unwrap_or("stretch")
            .to_string();
        match policy.as_str() {
            "stretch" => {
                for (j, &k) in axes.iter().enumerate() {
                    out[k] = sizes[j];
                }
            }
            "not_larger" | "not_smaller" => {
                let mut scale: Option<f64> = None;
                for (j, &k) in axes.iter().enumerate() {
                    let (Some(s), Some(d)) = (as_const(cx, sizes[j]), as_const(cx, x[k])) else {
                        for &k in &axes {
                            out[k] = Dims::ANY;
                        }
                        return out_tensor(cx, 2, &out, dt);
                    };
                    let f = s as f64 / d as f64;
                    scale = Some(match scale {
                        None => f,
                        Some(p) if policy == "not_larger" => p.min(f),
                        Some(p) => p.max(f),
                    });
                }
                let scale = scale.unwrap_or(1.0);
                for &k in &axes {
                    let d = as_const(cx, x[k]).unwrap_or(0);
                    out[k] = konst(cx, (scale * d as f64).round() as i64);
                }
            }
            other => {
                return Err(RelError::at(
                    0,
                    format!("`keep_aspect_ratio_policy` is \"{other}\"; it is one of stretch, not_larger, not_smaller"),
                ))
            }
        }
        return out_tensor(cx, 2, &out, dt);
    }
    match float_list(cx, "scales")? {
        Some(s) if !s.is_empty() => {
            if s.len() != axes.len() {
                return Err(RelError::at(
                    0,
                    format!("`scales` has {} values for {} axes", s.len(), axes.len()),
                ));
            }
            for (j, &k) in axes.iter().enumerate() {
                // ONNX computes with the float32 scale.
                out[k] = scaled(cx, x[k], s[j] as f32 as f64)?;
            }
        }
        _ => {
            // Neither is known: the rank is.
            for &k in &axes {
                out[k] = Dims::ANY;
            }
        }
    }
    out_tensor(cx, 2, &out, dt)
}

onnx_ops! {
    "" Upsample since 7 => "onnx.resize"(In(0), AttrInts("sizes")) { scales: Attr("scales") };
    "" Upsample since 9 => "onnx.resize"(In(0), AttrInts("sizes")) { scales: Floats(1) };
    "" Resize since 10 => "onnx.resize"(In(0), AttrInts("sizes")) { scales: Floats(1) };
    "" Resize since 11 => "onnx.resize"(In(0), Value(3)) { scales: Floats(2) };
    "" Resize since 18 => "onnx.resize"(In(0), Value(3)) {
        scales: Floats(2), axes: Attr("axes"), keep_aspect_ratio_policy: Attr("keep_aspect_ratio_policy")
    };
}
