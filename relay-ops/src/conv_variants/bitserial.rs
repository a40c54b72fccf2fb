//! Bit-packing and the bit-serial dense layer.

use crate::level2::util::{konst, need};
use relay_core::{relation, Attrs, DTy, Progress, RelCx, RelError, RelResult};

/// `BitPack(data, out)`: the data of `pack_type` with axis `pack_axis` divided by the
/// type's width in bits and a new axis of `bits` inserted at `bit_axis`. Axes count from
/// the end when negative, as in TVM's compute (`bit_axis = -1` inserts before the last
/// axis; TVM's relation leaves a negative `bit_axis` out, so that its type disagrees with
/// its compute). `pack_type` must be set (TVM's relation divides by its width, 0 when it
/// is unset) and an integer type; a constant packed axis must be a multiple of its width.
#[relation(BitPack)]
pub fn bitpack(cx: &mut RelCx<'_>) -> RelResult {
    let op = "nn.bitpack";
    let bits = need(cx, "bits", Attrs::int)?;
    if bits < 1 {
        return Err(RelError::new(format!(
            "`bits` must be at least 1, found {bits}"
        )));
    }
    let pack_axis = need(cx, "pack_axis", Attrs::int)?;
    let bit_axis = need(cx, "bit_axis", Attrs::int)?;
    let Some(pack_type) = cx.attrs().dtype("pack_type")? else {
        return Err(RelError::new(format!(
            "`pack_type` of `{op}` must be set: the bits are packed into it"
        )));
    };
    if !pack_type.is_int() || pack_type.lanes() != 1 {
        return Err(RelError::new(format!(
            "`pack_type` of `{op}` must be an integer type, found {pack_type}"
        )));
    }
    let width = i64::from(pack_type.bits());
    let Some((data, _)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let p = cx.axis(0, "pack_axis", pack_axis, data.len())?;
    let rank = data.len() as i64;
    if bit_axis < -rank || bit_axis > rank {
        return Err(cx.error_showing(0, |t| {
            format!(
                "`bit_axis` {bit_axis} is out of range for `{t}` (from {} to {rank})",
                -rank
            )
        }));
    }
    let b = if bit_axis < 0 {
        bit_axis + rank
    } else {
        bit_axis
    } as usize;
    let d = data[p];
    if let Some(c) = cx.tcx_ref().dims.as_const(d).filter(|c| c % width != 0) {
        return Err(RelError::at(
            0,
            format!("axis {p} of the data of `{op}` is {c}, not a multiple of the {width} bits of `pack_type` {pack_type}"),
        ));
    }
    let w = konst(cx, width);
    let mut out = data.clone();
    out[p] = cx.tcx().dims.floordiv(d, w)?;
    let bits = konst(cx, bits);
    out.insert(b, bits);
    cx.unify_tensor(1, &out, DTy::Known(pack_type))?;
    Ok(Progress::Solved)
}

/// `nn.bitserial_dense`'s relation: the data's shape with its last dimension `units`
/// (required: TVM's relation crashes without it), of `out_dtype` (default: the data's).
/// The weight, unpacked or bit-packed, is not read (as in TVM).
#[relation(
    BitserialDense(X @ Tensor(s, bt), _, O) :-
        assert(len(s) >= 1, "the data of `nn.bitserial_dense` must be at least 1-D, found `{}`", X),
        assert(attrs.units != None, "`nn.bitserial_dense` needs `units`"),
        assert(attrs.units >= 0, "`units` must not be negative, found {}", attrs.units),
        if attrs.out_dtype == None { odt = bt } else { odt = attrs.out_dtype },
        O = Tensor([..s[..-1], attrs.units], odt),
        attrs(units: Option<int> = None, out_dtype: Option<dtype> = None)
)]
pub struct BitserialDense;
