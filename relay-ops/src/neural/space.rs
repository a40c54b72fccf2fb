//! Moving data between the channels, the batch and the spatial axes (`nn.depth_to_space`,
//! `nn.space_to_depth`, `nn.space_to_batch_nd`, `nn.batch_to_space_nd`), and
//! `nn.mirror_pad`.
//!
//! Imperative: block sizes and lists of pairs read from attributes; divisions that must be
//! exact (TVM floors them where the kernels need them exact: an error here).

use super::pool::div_exact;
use crate::level2::util::{one_of, Layout};
use crate::level3::util::arith;
use relay_core::{relation, Dim, Progress, RelCx, RelError, RelResult};

/// `d + c`.
fn plus(cx: &mut RelCx<'_>, d: Dim, c: i64) -> Result<Dim, RelError> {
    let k = cx.tcx().dims.konst(c);
    cx.tcx().dims.add(d, k).map_err(arith(0))
}

/// `block_size` of `op`, at least 1, and its square.
fn block_size(cx: &RelCx<'_>, op: &str) -> Result<(i64, i64), RelError> {
    let b = cx.attrs().int("block_size")?.unwrap_or(1);
    match b.checked_mul(b) {
        Some(sq) if b >= 1 => Ok((b, sq)),
        _ => Err(RelError::new(format!(
            "`block_size` of `{op}` must be at least 1 and its square fit in 64 bits, found {b}"
        ))),
    }
}

/// `nn.depth_to_space` (`to_space`) or `nn.space_to_depth`: in NCHW (through `layout`,
/// packed layouts as TVM's `BijectiveLayout` reads them), `C` is divided by
/// `block_size²` and H, W multiplied by `block_size`, or the reverse.
fn sub_pixel(cx: &mut RelCx<'_>, op: &str, to_space: bool) -> RelResult {
    let (b, sq) = block_size(cx, op)?;
    if to_space {
        one_of(cx, op, "mode", &["DCR", "CRD"])?;
    }
    let name = cx.attrs().str("layout")?.unwrap_or("NCHW").to_owned();
    let layout = Layout::new("layout", &name, "NCHW")?;
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let mut d = layout.canonical_arg(cx, op, (0, "data"), &dims, "NCHW")?;
    if to_space {
        d[1] = div_exact(cx, d[1], sq, |c| {
            format!("the data's {c} channels are not divisible by `block_size`² = {sq} (`{op}`)")
        })?;
        for x in &mut d[2..4] {
            *x = cx.tcx().dims.scale(*x, b).map_err(arith(0))?;
        }
    } else {
        d[1] = cx.tcx().dims.scale(d[1], sq).map_err(arith(0))?;
        for (i, axis) in [(2, 'H'), (3, 'W')] {
            d[i] = div_exact(cx, d[i], b, |c| {
                format!("the data's {axis} ({c}) is not divisible by `block_size` = {b} (`{op}`)")
            })?;
        }
    }
    layout.unify_output(cx, &d, "NCHW", dt)?;
    Ok(Progress::Solved)
}

relations_running! {
    DepthToSpace = depth_to_space_rel(sub_pixel, "nn.depth_to_space", true);
    SpaceToDepth = space_to_depth_rel(sub_pixel, "nn.space_to_depth", false);
}

/// Attribute `attr` of `op`, a list of `n` non-negative `(before, after)` pairs.
fn pairs(cx: &RelCx<'_>, op: &str, attr: &str, n: usize) -> Result<Vec<[i64; 2]>, RelError> {
    let lists = cx
        .attrs()
        .int_lists(attr)?
        .ok_or_else(|| RelError::new(format!("attribute `{attr}` is missing")))?;
    if lists.len() != n {
        return Err(RelError::new(format!(
            "`{attr}` of `{op}` has {} pairs, it needs {n}",
            lists.len()
        )));
    }
    lists
        .iter()
        .enumerate()
        .map(|(i, p)| match *p.as_slice() {
            [a, b] if a >= 0 && b >= 0 => Ok([a, b]),
            [_, _] => Err(RelError::new(format!(
                "`{attr}[{i}]` of `{op}` must not be negative, found [{}, {}]",
                p[0], p[1]
            ))),
            _ => Err(RelError::new(format!(
                "`{attr}[{i}]` of `{op}` must be a (before, after) pair, it has {} values",
                p.len()
            ))),
        })
        .collect()
}

/// A block shape, its product, and a `(before, after)` pair per block axis.
type Blocks = (Vec<i64>, i64, Vec<[i64; 2]>);

/// `block_shape` of `op` (each at least 1), its product, and its pairs attribute `attr`
/// (`paddings` or `crops`, one pair per block axis).
fn blocks(cx: &RelCx<'_>, op: &str, attr: &str) -> Result<Blocks, RelError> {
    let block = cx.attrs().ints("block_shape")?.unwrap_or_default();
    if let Some(b) = block.iter().find(|&&b| b < 1) {
        return Err(RelError::new(format!(
            "`block_shape` of `{op}` must be at least 1, found {b}"
        )));
    }
    let product = block
        .iter()
        .try_fold(1i64, |p, &b| p.checked_mul(b))
        .ok_or_else(|| RelError::new(format!("`block_shape` of `{op}` is too large")))?;
    let p = pairs(cx, op, attr, block.len())?;
    Ok((block, product, p))
}

/// The data's dimensions, of a rank above the number of block axes `m`.
fn blocked_data(
    cx: &mut RelCx<'_>,
    op: &str,
    m: usize,
) -> Result<Option<(Vec<Dim>, relay_core::DTy)>, RelError> {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(None);
    };
    if dims.len() <= m {
        return Err(cx.error_showing(0, |t| {
            format!(
                "`{op}` with {m} block axes needs data of rank at least {}, found `{t}`",
                m + 1
            )
        }));
    }
    Ok(Some((dims, dt)))
}

/// The relation of `nn.space_to_batch_nd`: each spatial axis `1 + i` padded by
/// `paddings[i]` and divided (exactly) by `block_shape[i]`, the batch multiplied by the
/// blocks' product.
#[relation(SpaceToBatchND)]
pub fn space_to_batch_nd_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.space_to_batch_nd";
    let (block, product, pads) = blocks(cx, op, "paddings")?;
    let Some((mut dims, dt)) = blocked_data(cx, op, block.len())? else {
        return Ok(Progress::NotYet);
    };
    dims[0] = cx.tcx().dims.scale(dims[0], product).map_err(arith(0))?;
    for (i, (&b, p)) in block.iter().zip(&pads).enumerate() {
        let total = p[0]
            .checked_add(p[1])
            .ok_or_else(|| RelError::new(format!("`paddings[{i}]` of `{op}` is too large")))?;
        let padded = plus(cx, dims[1 + i], total)?;
        dims[1 + i] = div_exact(cx, padded, b, |c| {
            format!(
                "axis {} of the data padded to {c} is not divisible by `block_shape[{i}]` = {b} (`{op}`)",
                1 + i
            )
        })?;
    }
    cx.unify_tensor(1, &dims, dt)?;
    Ok(Progress::Solved)
}

/// The relation of `nn.batch_to_space_nd`: the batch divided (exactly) by the product of
/// `block_shape`, each spatial axis `1 + i` multiplied by `block_shape[i]` and cropped
/// by `crops[i]` (a constant result must not be negative).
#[relation(BatchToSpaceND)]
pub fn batch_to_space_nd_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.batch_to_space_nd";
    let (block, product, crops) = blocks(cx, op, "crops")?;
    let Some((mut dims, dt)) = blocked_data(cx, op, block.len())? else {
        return Ok(Progress::NotYet);
    };
    dims[0] = div_exact(cx, dims[0], product, |c| {
        format!("the data's batch {c} is not divisible by the product of `block_shape`, {product} (`{op}`)")
    })?;
    for (i, (&b, c)) in block.iter().zip(&crops).enumerate() {
        let total = c[0]
            .checked_add(c[1])
            .and_then(i64::checked_neg)
            .ok_or_else(|| RelError::new(format!("`crops[{i}]` of `{op}` is too large")))?;
        let grown = cx.tcx().dims.scale(dims[1 + i], b).map_err(arith(0))?;
        let d = plus(cx, grown, total)?;
        if let Some(n) = cx.tcx_ref().dims.as_const(d).filter(|&n| n < 0) {
            return Err(RelError::at(
                0,
                format!(
                    "`crops[{i}]` of `{op}` crops axis {} to a negative size, {n}",
                    1 + i
                ),
            ));
        }
        dims[1 + i] = d;
    }
    cx.unify_tensor(1, &dims, dt)?;
    Ok(Progress::Solved)
}

/// The relation of `nn.mirror_pad`: each axis grows by its `pad_width` pair. A mirror
/// cannot reach beyond the axis: with a constant dimension `d`, a width above `d`
/// (`"SYMMETRIC"`) or above `d - 1` (`"REFLECT"`) is an error (TVM does not check).
#[relation(MirrorPad)]
pub fn mirror_pad_rel(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.mirror_pad";
    one_of(cx, op, "mode", &["SYMMETRIC", "REFLECT"])?;
    let reflect = cx.attrs().str("mode")? == Some("REFLECT");
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let widths = match pairs(cx, op, "pad_width", dims.len()) {
        Ok(w) => w,
        Err(e) => {
            return Err(cx.error_showing(0, |t| format!("{} (the data is `{t}`)", e.message)));
        }
    };
    let mut out = Vec::with_capacity(dims.len());
    for (i, (&d, w)) in dims.iter().zip(&widths).enumerate() {
        if let Some(n) = cx.tcx_ref().dims.as_const(d) {
            let most = if reflect { n.saturating_sub(1) } else { n };
            if w[0] > most || w[1] > most {
                let mode = if reflect { "REFLECT" } else { "SYMMETRIC" };
                return Err(RelError::at(
                    0,
                    format!(
                        "`pad_width[{i}]` [{}, {}] of `{op}` reaches beyond axis {i} of size {n}: \"{mode}\" pads at most {most}",
                        w[0], w[1]
                    ),
                ));
            }
        }
        let total = w[0]
            .checked_add(w[1])
            .ok_or_else(|| RelError::new(format!("`pad_width[{i}]` of `{op}` is too large")))?;
        out.push(plus(cx, d, total)?);
    }
    cx.unify_tensor(1, &out, dt)?;
    Ok(Progress::Solved)
}
