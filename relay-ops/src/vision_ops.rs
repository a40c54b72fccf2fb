//! TVM's `vision.*` operators: SSD's multibox priors and decoding, the non-maximum
//! suppressions, the R-CNN region operators and YOLO's reorganization.
//!
//! Relations whose results are read off the inputs' shapes are clauses ([`multibox`]'s
//! `MultiBoxTransformLoc`, [`nms`], [`rcnn`]'s `RoiPooled` and `YoloReorg`);
//! those that count the values of a list of floats are imperative (`MultiBoxPrior`,
//! `Proposal`). Attribute names, types and defaults are TVM's C++ ones
//! (`include/tvm/relay/attrs/vision.h`). The inputs TVM's relations do not read (a
//! suppression's maximum output size and threshold, say) are not read here either.

pub mod multibox;
pub mod nms;
pub mod rcnn;
mod util;

pub use multibox::{MultiBoxPrior, MultiBoxTransformLoc};
pub use nms::{
    AllClassNonMaxSuppression, GetValidCounts, NonMaxSuppression, RegularNonMaxSuppression,
};
pub use rcnn::{Proposal, RoiPooled, YoloReorg};

use relay_core::relay_op;

relay_op! {
    /// The anchor boxes of a feature map `(N, C, H, W)`:
    /// `(1, H * W * (len(sizes) + len(ratios) - 1), 4)` of the data's dtype. `steps` and
    /// `offsets` have two values each.
    ///
    /// ```text
    /// %y = vision.multibox_prior(%x, sizes=[0.2f, 0.3f], ratios=[1f, 2f, 0.5f], steps=[0.25f, 0.25f], clip=True)  // (1, 256, 4, 4) f32 -> (1, 64, 4) f32
    /// ```
    vision.multibox_prior : fn<t1, t2>(data: t1) -> t2 where MultiBoxPrior,
        attrs {
            sizes: [float] = [1.0],
            ratios: [float] = [1.0],
            steps: [float] = [-1.0, -1.0],
            offsets: [float] = [0.5, 0.5],
            clip: bool = false,
        },
        level 5;

    /// Decodes SSD's predictions: class probabilities `(B, classes, A)`, locations
    /// `(B, 4 * A)` and anchors `(1, A, 4)` give the boxes `(B, A, 6)` and the valid
    /// counts `(B)` of `int32`.
    ///
    /// ```text
    /// %y = vision.multibox_transform_loc(%c, %l, %a, threshold=0.05f)  // (1, 3, 64) f32, (1, 256) f32, (1, 64, 4) f32 -> ((1, 64, 6) f32, (1) i32)
    /// ```
    vision.multibox_transform_loc : fn<t1, t2, t3, t4>(cls_prob: t1, loc_pred: t2, anchor: t3) -> t4 where MultiBoxTransformLoc,
        attrs {
            clip: bool = true,
            threshold: float = 0.01,
            variances: [float] = [0.1, 0.1, 0.2, 0.2],
            keep_background: bool = false,
        },
        level 5;

    /// Moves the boxes `(B, N, K)` scoring above `score_threshold` (a scalar argument) to
    /// the top: the valid counts `(B)` of `int32`, the boxes and their indices `(B, N)`
    /// of `int32`. The attribute `score_threshold` (no C++ default, printed as `None`) is
    /// not read.
    ///
    /// ```text
    /// %y = vision.get_valid_counts(%x, 0.5f, id_index=0, score_index=1)  // (1, 100, 6) f32 -> ((1) i32, (1, 100, 6) f32, (1, 100) i32)
    /// ```
    vision.get_valid_counts : fn<t1, t2, t3>(data: t1, score_threshold: t2) -> t3 where GetValidCounts,
        attrs {
            score_threshold: Option<float> = None,
            id_index: int = 0,
            score_index: int = 1,
        },
        level 5;

    /// Non-maximum suppression of boxes `(B, N, K)` with valid counts `(B)`: with
    /// `return_indices`, the kept indices `(B, N)` and their count `(B, 1)` of `int32`,
    /// else the boxes.
    ///
    /// ```text
    /// %y = vision.non_max_suppression(%d, %v, %i, -1, 0.45f, force_suppress=True, top_k=400, return_indices=False)  // (1, 64, 6) f32, (1) i32, (1, 64) i32 -> (1, 64, 6) f32
    /// %y = vision.non_max_suppression(%d, %v, %i, %m, %t)  // (n, 64, 6) f32, (n) i32, (n, 64) i32, () i32, () f32 -> ((n, 64) i32, (n, 1) i32)
    /// ```
    vision.non_max_suppression : fn<t1, t2, t3, t4, t5, t6>(data: t1, valid_count: t2, indices: t3, max_output_size: t4, iou_threshold: t5) -> t6 where NonMaxSuppression,
        attrs {
            force_suppress: bool = false,
            top_k: int = -1,
            coord_start: int = 2,
            score_index: int = 1,
            id_index: int = 0,
            return_indices: bool = true,
            invalid_to_bottom: bool = false,
        },
        level 5;

    /// Non-maximum suppression of each class: boxes `(B, N, 4)` and scores
    /// `(B, classes, N)` give, for `output_format="onnx"`, the selected indices
    /// `(B * classes * N, 3)` and their count `(1)` of `int64`; for `"tensorflow"` the
    /// indices `(B, classes * N, 2)` of `int64`, the scores `(B, classes * N)` of
    /// `float32` and the counts `(B)` of `int64`.
    ///
    /// ```text
    /// %y = vision.all_class_non_max_suppression(%b, %s, %m, %t, %u)  // (1, 100, 4) f32, (1, 3, 100) f32, (1) i64, () f32, () f32 -> ((300, 3) i64, (1) i64)
    /// %y = vision.all_class_non_max_suppression(%b, %s, %m, %t, %u, output_format="tensorflow")  // (n, 100, 4) f32, (n, 3, 100) f32, () i64, () f32, () f32 -> ((n, 300, 2) i64, (n, 300) f32, (n) i64)
    /// ```
    vision.all_class_non_max_suppression : fn<t1, t2, t3, t4, t5, t6>(boxes: t1, scores: t2, max_output_boxes_per_class: t3, iou_threshold: t4, score_threshold: t5) -> t6 where AllClassNonMaxSuppression,
        attrs { output_format: str = "onnx" },
        level 5;

    /// TFLite's detection post-processing: boxes `(B, N, 4)` and scores
    /// `(B, N, classes)` give boxes `(B, M, 4)`, classes `(B, M)` and scores `(B, M)` of
    /// `float32` and the detection counts `(B)` of `int32`, `M` = `max_detections`. Every
    /// attribute is required (none has a C++ default).
    ///
    /// ```text
    /// %y = vision.regular_non_max_suppression(%b, %s, max_detections_per_class=10, max_detections=10, num_classes=90, iou_threshold=0.6f, score_threshold=0.3f)  // (1, 1917, 4) f32, (1, 1917, 91) f32 -> ((1, 10, 4) f32, (1, 10) f32, (1, 10) f32, (1) i32)
    /// ```
    vision.regular_non_max_suppression : fn<t1, t2, t3>(boxes: t1, scores: t2) -> t3 where RegularNonMaxSuppression,
        attrs {
            max_detections_per_class: int,
            max_detections: int,
            num_classes: int,
            iou_threshold: float,
            score_threshold: float,
        },
        level 5;

    /// Region-of-interest align: data `(N, C, H, W)` (or `NHWC`) and regions `(R, 5)`
    /// give `(R, C, ph, pw)` (or `(R, ph, pw, C)`), `(ph, pw)` = `pooled_size` (required,
    /// as `spatial_scale`).
    ///
    /// ```text
    /// %y = vision.roi_align(%x, %r, pooled_size=[7, 7], spatial_scale=0.0625f, sample_ratio=2)  // (1, 256, 32, 32) f32, (100, 5) f32 -> (100, 256, 7, 7) f32
    /// ```
    vision.roi_align : fn<t1, t2, t3>(data: t1, rois: t2) -> t3 where RoiPooled,
        attrs {
            pooled_size: [int],
            spatial_scale: float,
            sample_ratio: int = -1,
            layout: str = "NCHW",
            mode: str = "avg",
        },
        level 5;

    /// Region-of-interest pooling: shapes as `vision.roi_align`'s.
    ///
    /// ```text
    /// %y = vision.roi_pool(%x, %r, pooled_size=[7, 7], spatial_scale=0.0625f, layout="NHWC")  // (1, 32, 32, 256) f32, (n, 5) f32 -> (n, 7, 7, 256) f32
    /// ```
    vision.roi_pool : fn<t1, t2, t3>(data: t1, rois: t2) -> t3 where RoiPooled,
        attrs { pooled_size: [int], spatial_scale: float, layout: str = "NCHW" },
        level 5;

    /// Region proposals: with `A = len(scales) * len(ratios)` anchors, scores
    /// `(B, 2 * A, H, W)`, box deltas `(B, 4 * A, H, W)` and image sizes `(B, 3)` give
    /// `(B * rpn_post_nms_top_n, 5)`.
    ///
    /// ```text
    /// %y = vision.proposal(%c, %b, %i, scales=[2f, 4f, 8f, 16f, 32f], ratios=[0.5f, 1f, 2f], rpn_post_nms_top_n=300)  // (1, 30, 38, 50) f32, (1, 60, 38, 50) f32, (1, 3) f32 -> (300, 5) f32
    /// ```
    vision.proposal : fn<t1, t2, t3, t4>(cls_prob: t1, bbox_pred: t2, im_info: t3) -> t4 where Proposal,
        attrs {
            scales: [float] = [4.0, 8.0, 16.0, 32.0],
            ratios: [float] = [0.5, 1.0, 2.0],
            feature_stride: int = 16,
            threshold: float = 0.7,
            rpn_pre_nms_top_n: int = 6000,
            rpn_post_nms_top_n: int = 300,
            rpn_min_size: int = 16,
            iou_loss: bool = false,
        },
        level 5;

    /// YOLO's reorganization: `(N, C, H, W)` becomes
    /// `(N, C * stride * stride, H / stride, W / stride)`.
    ///
    /// ```text
    /// %y = vision.yolo_reorg(%x, stride=2)  // (1, 64, 26, 26) f32 -> (1, 256, 13, 13) f32
    /// ```
    vision.yolo_reorg : fn<t1, t2>(data: t1) -> t2 where YoloReorg,
        attrs { stride: int = 1 },
        level 5;
}
