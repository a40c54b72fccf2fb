//! The relations of the SSD multibox operators: the prior (anchor) boxes and the
//! decoding of the predicted locations.

use super::util::list_len;
use relay_core::{relation, Progress, RelCx, RelResult};

/// `MultiBoxPrior(data, out)`: a feature map `(N, C, H, W)` gives its anchor boxes
/// `(1, H * W * (len(sizes) + len(ratios) - 1), 4)` of the data's dtype. `sizes` and
/// `ratios` have at least one value each, `steps` and `offsets` two (TVM checks none of
/// them: its compute reads two of each).
#[relation(MultiBoxPrior)]
pub fn multibox_prior(cx: &mut RelCx<'_>) -> RelResult {
    let op = "vision.multibox_prior";
    let sizes = list_len(cx, op, "sizes", 1, false)?;
    let ratios = list_len(cx, op, "ratios", 1, false)?;
    list_len(cx, op, "steps", 2, true)?;
    list_len(cx, op, "offsets", 2, true)?;
    let Some((data, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if data.len() != 4 {
        return Err(cx.error_showing(0, |t| {
            format!("the data of `{op}` must be 4-D (N, C, H, W), found `{t}`")
        }));
    }
    // Both counts are lengths of lists held in memory: their sum fits.
    let per_pixel = (sizes + ratios - 1) as i64;
    let dims = &mut cx.tcx().dims;
    let hw = dims.mul(data[2], data[3])?;
    let boxes = dims.scale(hw, per_pixel)?;
    let (one, four) = (dims.konst(1), dims.konst(4));
    cx.unify_tensor(1, &[one, boxes, four], dt)?;
    Ok(Progress::Solved)
}

/// `vision.multibox_transform_loc`'s relation: class probabilities `(B, classes, A)`,
/// location predictions `(B, 4 * A)` and anchors `(1, A, 4)` give the decoded boxes
/// `(B, A, 6)` of the probabilities' dtype and the valid counts `(B)` of `int32`. The
/// anchor counts must agree, and so must the batches of the probabilities and the
/// predictions (TVM does not compare them).
#[relation(
    MultiBoxTransformLoc(C @ Tensor(sc, bt), L @ Tensor(sl, _), A @ Tensor(sa, _), O) :-
        assert(len(sc) == 3, "the class probabilities of `vision.multibox_transform_loc` must be 3-D (batch, classes, anchors), found `{}`", C),
        assert(len(sl) == 2, "the location predictions of `vision.multibox_transform_loc` must be 2-D (batch, 4 * anchors), found `{}`", L),
        assert(len(sa) == 3, "the anchors of `vision.multibox_transform_loc` must be 3-D (1, anchors, 4), found `{}`", A),
        assert(sa[2] = 4, "the anchors of `vision.multibox_transform_loc` must be 3-D (1, anchors, 4), found `{}`", A),
        assert(sa[1] = sc[2], "`vision.multibox_transform_loc` has {} anchors in its class probabilities but {} in its anchors", sc[2], sa[1]),
        assert(sl[1] = 4 * sc[2], "`vision.multibox_transform_loc` has {} location predictions for {} anchors, not 4 per anchor", sl[1], sc[2]),
        assert(sl[0] = sc[0], "the batch of the location predictions of `vision.multibox_transform_loc` is {}, but the class probabilities' is {}", sl[0], sc[0]),
        assert(!is_int(sc[2]) || sc[2] > 0, "`vision.multibox_transform_loc` needs at least one anchor"),
        O = (Tensor([sc[0], sc[2], 6], bt), Tensor([sc[0]], int32))
)]
pub struct MultiBoxTransformLoc;
