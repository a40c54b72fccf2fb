//! The relations of the R-CNN operators (`roi_align`, `roi_pool`, `proposal`) and of
//! `yolo_reorg`.

use super::util::list_len;
use crate::level2::util::need;
use crate::level3::util::agree;
use relay_core::{relation, Attrs, Progress, RelCx, RelError, RelResult};

/// `vision.roi_align`'s and `vision.roi_pool`'s relation: the data `(N, C, H, W)`
/// (`layout` `"NCHW"`, or `(N, H, W, C)` for `"NHWC"`) and regions `(R, 5)` give
/// `(R, C, ph, pw)` (`(R, ph, pw, C)`), `(ph, pw)` = `pooled_size`, of the data's dtype.
/// TVM checks neither the regions' 5 values nor `pooled_size`'s length.
#[relation(
    RoiPooled(D @ Tensor(s, bt), R @ Tensor(sr, _), O) :-
        assert(len(s) == 4, "the data must be 4-D, found `{}`", D),
        assert(len(sr) == 2, "the regions must be 2-D (regions, 5), found `{}`", R),
        assert(sr[1] = 5, "the regions must be 2-D (regions, 5), found `{}`", R),
        assert(len(attrs.pooled_size) == 2, "`pooled_size` must have 2 values, it has {}", len(attrs.pooled_size)),
        for p in attrs.pooled_size {
            assert(p >= 1, "`pooled_size` must be at least 1, found {}", p),
        },
        if attrs.layout == "NCHW" {
            O = Tensor([sr[0], s[1], ..attrs.pooled_size], bt)
        } else if attrs.layout == "NHWC" {
            O = Tensor([sr[0], ..attrs.pooled_size, s[3]], bt)
        } else {
            assert(false, "`layout` must be \"NCHW\" or \"NHWC\"")
        },
        attrs(pooled_size: [int], layout: str = "NCHW")
)]
pub struct RoiPooled;

/// `Proposal(cls_prob, bbox_pred, im_info, out)`: with `A = len(scales) * len(ratios)`
/// anchors per position, scores `(B, 2 * A, H, W)`, box deltas `(B, 4 * A, H, W)` and
/// image sizes `(B, 3)` give the proposals `(B * rpn_post_nms_top_n, 5)` of the scores'
/// dtype. TVM checks only the image sizes' 3; here the anchor counts, the batches and
/// the feature map sizes must agree too. The result does not wait for the deltas and the
/// sizes, which are checked once known.
#[relation(Proposal)]
pub fn proposal(cx: &mut RelCx<'_>) -> RelResult {
    let op = "vision.proposal";
    let scales = list_len(cx, op, "scales", 1, false)?;
    let ratios = list_len(cx, op, "ratios", 1, false)?;
    let top_n = need(cx, "rpn_post_nms_top_n", Attrs::int)?;
    if top_n < 1 {
        return Err(RelError::new(format!(
            "`rpn_post_nms_top_n` must be at least 1, found {top_n}"
        )));
    }
    // Lengths of lists held in memory: their product fits unless absurd.
    let anchors = i64::try_from(scales)
        .ok()
        .and_then(|s| s.checked_mul(i64::try_from(ratios).ok()?))
        .ok_or_else(|| RelError::new(format!("`{op}` has too many anchors")))?;
    let Some((cls, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    if cls.len() != 4 {
        return Err(cx.error_showing(0, |t| format!("the class probabilities of `{op}` must be 4-D (batch, 2 * anchors, height, width), found `{t}`")));
    }
    let two_a = cx.tcx().dims.konst(2 * anchors);
    agree(cx, 0, cls[1], two_a, |c, a| {
        format!("the class probabilities of `{op}` have {c} channels, but its {anchors} anchors (`scales` by `ratios`) need {a}")
    })?;
    let rows = cx.tcx().dims.scale(cls[0], top_n)?;
    let five = cx.tcx().dims.konst(5);
    cx.unify_tensor(3, &[rows, five], dt)?;
    let (Some((bbox, _)), Some((info, _))) = (cx.tensor_dims(1)?, cx.tensor_dims(2)?) else {
        return Ok(Progress::NotYet);
    };
    if bbox.len() != 4 {
        return Err(cx.error_showing(1, |t| format!("the box predictions of `{op}` must be 4-D (batch, 4 * anchors, height, width), found `{t}`")));
    }
    let four_a = cx.tcx().dims.konst(4 * anchors);
    agree(cx, 1, bbox[1], four_a, |c, a| {
        format!(
            "the box predictions of `{op}` have {c} channels, but its {anchors} anchors need {a}"
        )
    })?;
    for (i, what) in [(0, "batch"), (2, "height"), (3, "width")] {
        agree(cx, 1, bbox[i], cls[i], |b, c| {
            format!("the {what} of the box predictions of `{op}` is {b}, but the class probabilities' is {c}")
        })?;
    }
    let three = cx.tcx().dims.konst(3);
    if info.len() != 2 || cx.unify_dim(info[1], three, 2).is_err() {
        return Err(cx.error_showing(2, |t| {
            format!("the image sizes of `{op}` must be 2-D (batch, 3), found `{t}`")
        }));
    }
    agree(cx, 2, info[0], cls[0], |i, c| {
        format!(
            "the batch of the image sizes of `{op}` is {i}, but the class probabilities' is {c}"
        )
    })?;
    Ok(Progress::Solved)
}

/// `vision.yolo_reorg`'s relation: `(N, C, H, W)` becomes
/// `(N, C * stride * stride, H / stride, W / stride)`; a constant H or W must be a
/// multiple of `stride` (TVM rounds down, and its compute's reshape then fails).
#[relation(
    YoloReorg(X @ Tensor(s, bt), O) :-
        assert(len(s) == 4, "the data of `vision.yolo_reorg` must be 4-D (N, C, H, W), found `{}`", X),
        assert(attrs.stride >= 1, "`stride` must be at least 1, found {}", attrs.stride),
        assert(!is_int(s[2]) || s[2] % attrs.stride == 0, "the height {} of `{}` is not a multiple of `stride` {}", s[2], X, attrs.stride),
        assert(!is_int(s[3]) || s[3] % attrs.stride == 0, "the width {} of `{}` is not a multiple of `stride` {}", s[3], X, attrs.stride),
        O = Tensor([s[0], s[1] * attrs.stride * attrs.stride, s[2] / attrs.stride, s[3] / attrs.stride], bt),
        attrs(stride: int = 1)
)]
pub struct YoloReorg;
