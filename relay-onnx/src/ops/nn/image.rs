//! The image operators: `DepthToSpace` and `SpaceToDepth` (TVM's), `GridSample`,
//! `AffineGrid`, `Col2Im`, `CenterCropPad` and `ImageDecoder`.

use super::{arith, as_const, konst, same_dim, sizes_nonneg, spatial_input};
use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown, value_of, Val};
use relay_core::op::AttrConst;
use relay_core::{relation, relay_op, DTy, DType, Dims, Progress, RelCx, RelError, RelResult};

relay_op! {
    /// ONNX `GridSample`: `data` `(N, C, D1, ..)` sampled at `grid` `(N, O1, .., r)`
    /// gives `(N, C, O1, ..)`.
    onnx.grid_sample : fn<x, g, y>(data: x, grid: g) -> y where OnnxGridSample,
        level 10;

    /// ONNX `AffineGrid`: `theta` `(N, 2, 3)` or `(N, 3, 4)` and the value of `size`
    /// `(N, C, H, W)` or `(N, C, D, H, W)` give `(N, H, W, 2)` or `(N, D, H, W, 3)`.
    onnx.affine_grid : fn<t, s, y>(theta: t, size: s) -> y where OnnxAffineGrid,
        level 10;

    /// ONNX `Col2Im`: `(N, C * prod(block_shape), L)` and the values of `image_shape`
    /// and `block_shape` give `(N, C, image_shape..)`.
    onnx.col2im : fn<x, i, b, y>(data: x, image_shape: i, block_shape: b) -> y where OnnxCol2Im,
        level 10;

    /// ONNX `CenterCropPad`: the axes `axes` (all by default) take the value of `shape`.
    onnx.center_crop_pad : fn<x, s, y>(data: x, shape: s) -> y where OnnxCenterCropPad,
        attrs { axes: Option<[int]> = None },
        level 10;
    /// ONNX `ImageDecoder`: an encoded image (a `uint8` vector) decoded into
    /// `(height, width, channels)` `uint8`, where the height and width are the image's (new
    /// symbols) and the channels 3 (`RGB`, `BGR`) or 1 (`Grayscale`).
    onnx.image_decoder : fn<x, h, w, y>(encoded: x, height: h, width: w) -> y where OnnxImageDecoder,
        attrs { pixel_format: str = "RGB" },
        level 10;
}

/// `OnnxGridSample(data, grid, out)`.
#[relation(OnnxGridSample)]
pub fn onnx_grid_sample(cx: &mut RelCx<'_>) -> RelResult {
    let (Some((x, dt)), Some((g, _))) = (cx.tensor_dims(0)?, cx.tensor_dims(1)?) else {
        return Ok(Progress::NotYet);
    };
    spatial_input(cx, &x, "`GridSample`")?;
    let n = x.len() - 2;
    if g.len() != x.len() {
        let (sx, sg) = (shown(cx, 0), shown(cx, 1));
        return Err(RelError::at(
            1,
            format!("the grid `{sg}` must have the rank of the input `{sx}`"),
        ));
    }
    same_dim(cx, g[0], x[0], 1, |a, b| {
        format!("the grid has a batch of {a}, and the input {b}")
    })?;
    if let Some(c) = as_const(cx, g[n + 1]) {
        if c != n as i64 {
            let t = shown(cx, 1);
            return Err(RelError::at(
                1,
                format!("the grid `{t}` ends with {c}, and it must be {n} for {n} spatial axes"),
            ));
        }
    }
    let mut out = vec![x[0], x[1]];
    out.extend_from_slice(&g[1..=n]);
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxAffineGrid(theta, size value, out)`.
#[relation(OnnxAffineGrid)]
pub fn onnx_affine_grid(cx: &mut RelCx<'_>) -> RelResult {
    let Some((theta, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let size = match value_of(cx, 1)? {
        Val::Known(size) => size,
        // Not known: `theta` `(N, 2, 3)` or `(N, 3, 4)` still gives the rank.
        _ => match theta.get(1).and_then(|&d| as_const(cx, d)) {
            Some(k @ (2 | 3)) if theta.len() == 3 => {
                let mut out = vec![theta[0]];
                out.extend(vec![Dims::ANY; k as usize]);
                out.push(konst(cx, k));
                return out_tensor(cx, 2, &out, dt);
            }
            _ => return Ok(Progress::NotYet),
        },
    };
    if size.len() != 4 && size.len() != 5 {
        return Err(RelError::at(
            1,
            format!(
                "`size` has {} values; it is (N, C, H, W) or (N, C, D, H, W)",
                size.len()
            ),
        ));
    }
    sizes_nonneg(cx, &size, 1, "size")?;
    // The batch is `theta`'s when the value does not say it.
    let n = match theta.first() {
        Some(&t) if cx.tcx_ref().dims.is_any(size[0]) => t,
        _ => size[0],
    };
    let mut out = vec![n];
    out.extend_from_slice(&size[2..]);
    let k = konst(cx, size.len() as i64 - 2);
    out.push(k);
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxCol2Im(data, image_shape value, block_shape value, out)`.
#[relation(OnnxCol2Im)]
pub fn onnx_col2im(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let (Val::Known(img), Val::Known(block)) = (value_of(cx, 1)?, value_of(cx, 2)?) else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 3 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the input is `{t}`, and it must be `(N, C * block, L)`"),
        ));
    }
    if img.len() != block.len() {
        return Err(RelError::at(
            2,
            format!(
                "`block_shape` has {} values, and `image_shape` {}",
                block.len(),
                img.len()
            ),
        ));
    }
    for &b in &block {
        if let Some(c) = as_const(cx, b) {
            if c < 1 {
                return Err(RelError::at(
                    2,
                    format!("`block_shape` has {c}, and a block is at least 1"),
                ));
            }
        }
    }
    let dims = &mut cx.tcx().dims;
    let prod = dims.product(&block).map_err(arith(2))?;
    let c = match (dims.as_const(x[1]), dims.as_const(prod)) {
        (Some(a), Some(b)) if b > 0 => {
            if a % b != 0 {
                return Err(RelError::at(
                    2,
                    format!(
                        "the input's {a} channels are not a multiple of the block's {b} elements"
                    ),
                ));
            }
            dims.konst(a / b)
        }
        (_, Some(b)) => dims.exact_div(x[1], b).unwrap_or(Dims::ANY),
        _ => Dims::ANY,
    };
    let mut out = vec![x[0], c];
    sizes_nonneg(cx, &img, 1, "image_shape")?;
    out.extend(img);
    out_tensor(cx, 3, &out, dt)
}

/// `OnnxCenterCropPad(data, shape value, out)`.
#[relation(OnnxCenterCropPad)]
pub fn onnx_center_crop_pad(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let shape = match value_of(cx, 1)? {
        Val::Known(shape) => Some(shape),
        Val::Absent => return Err(RelError::at(1, "`shape` is required")),
        Val::Unknown => None,
    };
    let r = x.len();
    let axes: Vec<usize> = match cx.attrs().ints("axes")? {
        Some(a) => {
            let mut out = Vec::with_capacity(a.len());
            for &v in &a {
                out.push(crate::ops::util::axis_in(v, r, 0)?);
            }
            out
        }
        None => (0..r).collect(),
    };
    // Not known: the cropped or padded axes are not either.
    let shape = shape.unwrap_or_else(|| vec![Dims::ANY; axes.len()]);
    if shape.len() != axes.len() {
        return Err(RelError::at(
            1,
            format!("`shape` has {} values for {} axes", shape.len(), axes.len()),
        ));
    }
    sizes_nonneg(cx, &shape, 1, "shape")?;
    let mut out = x;
    for (j, &k) in axes.iter().enumerate() {
        out[k] = shape[j];
    }
    out_tensor(cx, 2, &out, dt)
}

/// `OnnxImageDecoder(encoded, height, width, out)`.
#[relation(OnnxImageDecoder)]
pub fn onnx_image_decoder(cx: &mut RelCx<'_>) -> RelResult {
    let Some((x, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if x.len() != 1 || dt != DTy::Known(DType::UINT8) {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("the encoded image is `{t}`, and must be a `uint8` vector"),
        ));
    }
    let c = match cx.attrs().str("pixel_format")? {
        Some("RGB" | "BGR") | None => 3,
        Some("Grayscale") => 1,
        Some(f) => {
            return Err(RelError::at(
                0,
                format!("`pixel_format` is `{f}`; it is `RGB`, `BGR` or `Grayscale`"),
            ))
        }
    };
    let (Val::Known(h), Val::Known(w)) = (value_of(cx, 1)?, value_of(cx, 2)?) else {
        return Ok(Progress::NotYet);
    };
    // The height and width are one new symbol each (`Fresh`), or in Relay text what the
    // caller gives.
    let (&[h], &[w]) = (h.as_slice(), w.as_slice()) else {
        return Err(RelError::new(
            "the height and width are one size each, as the shapes `(h)` and `(w)`",
        ));
    };
    let c = konst(cx, c);
    out_tensor(cx, 3, &[h, w, c], DTy::Known(DType::UINT8))
}

onnx_ops! {
    "" DepthToSpace since 1 => "nn.depth_to_space"(In(0)) { block_size: Attr("blocksize"), mode: AttrOr("mode", AttrConst::Str("DCR")) };
    "" SpaceToDepth since 1 => "nn.space_to_depth"(In(0)) { block_size: Attr("blocksize") };
    "" GridSample since 16 => "onnx.grid_sample"(In(0), In(1));
    "" AffineGrid since 20 => "onnx.affine_grid"(In(0), Value(1));
    "" Col2Im since 18 => "onnx.col2im"(In(0), Value(1), Value(2));
    "" CenterCropPad since 18 => "onnx.center_crop_pad"(In(0), Value(1)) { axes: Attr("axes") };
    "" ImageDecoder since 20 => "onnx.image_decoder"(In(0), Fresh, Fresh) { pixel_format: Attr("pixel_format") };
}
