//! The `vision.*` operators: exact result types and errors, table-driven: static,
//! symbolic (`n`) and `?` inputs, each error's message, and an SSD detection head as TVM
//! prints it.

mod common;
use common::{check, int, ints, string};
use relay_core::AttrValue;

fn floats(v: &[f64]) -> AttrValue {
    AttrValue::List(v.iter().map(|&x| AttrValue::Float(x)).collect())
}

fn float(x: f64) -> AttrValue {
    AttrValue::Float(x)
}

#[test]
fn multibox_table() {
    let p = "vision.multibox_prior";
    let t = "vision.multibox_transform_loc";
    let a = [
        ("sizes", floats(&[0.2, 0.3])),
        ("ratios", floats(&[1.0, 2.0, 0.5])),
        ("steps", floats(&[0.25, 0.25])),
    ];
    check(&[
        // 4 * 4 positions, 2 + 3 - 1 boxes each.
        (p, &["Tensor[(1, 256, 4, 4), float32]"], &a, Ok("Tensor[(1, 64, 4), float32]")),
        (p, &["Tensor[(n, 256, h, w), float16]"], &[], Ok("Tensor[(1, h*w, 4), float16]")),
        (p, &["Tensor[(1, 256, ?, 4), float32]"], &a, Ok("Tensor[(1, ?, 4), float32]")),
        (p, &["_"], &a, Err("waiting: MultiBoxPrior")),
        (p, &["Tensor[(256, 4, 4), float32]"], &a, Err("the data of `vision.multibox_prior` must be 4-D (N, C, H, W), found `Tensor[(256, 4, 4), float32]`")),
        (p, &["Tensor[(1, 256, 4, 4), float32]"], &[("sizes", floats(&[]))], Err("`sizes` of `vision.multibox_prior` must have at least 1 values, it has 0")),
        (p, &["Tensor[(1, 256, 4, 4), float32]"], &[("steps", floats(&[0.1]))], Err("`steps` of `vision.multibox_prior` must have 2 values, it has 1")),
    ]);
    let cls = "Tensor[(1, 3, 64), float32]";
    let loc = "Tensor[(1, 256), float32]";
    let anchor = "Tensor[(1, 64, 4), float32]";
    check(&[
        (t, &[cls, loc, anchor], &[("threshold", float(0.05))], Ok("(Tensor[(1, 64, 6), float32], Tensor[(1), int32])")),
        (t, &["Tensor[(n, 21, a), float32]", "Tensor[(n, 4*a), float32]", "Tensor[(1, a, 4), float32]"], &[], Ok("(Tensor[(n, a, 6), float32], Tensor[(n), int32])")),
        (t, &["Tensor[(?, 21, 64), float32]", "Tensor[(?, ?), float32]", "Tensor[(1, ?, 4), float32]"], &[], Ok("(Tensor[(?, 64, 6), float32], Tensor[(?), int32])")),
        (t, &[cls, "_", anchor], &[], Err("waiting: MultiBoxTransformLoc")),
        (t, &[cls, loc, "Tensor[(1, 32, 4), float32]"], &[], Err("`vision.multibox_transform_loc` has 64 anchors in its class probabilities but 32 in its anchors")),
        (t, &[cls, "Tensor[(1, 128), float32]", anchor], &[], Err("`vision.multibox_transform_loc` has 128 location predictions for 64 anchors, not 4 per anchor")),
        (t, &[cls, "Tensor[(2, 256), float32]", anchor], &[], Err("the batch of the location predictions of `vision.multibox_transform_loc` is 2, but the class probabilities' is 1")),
        (t, &["Tensor[(3, 64), float32]", loc, anchor], &[], Err("the class probabilities of `vision.multibox_transform_loc` must be 3-D (batch, classes, anchors), found `Tensor[(3, 64), float32]`")),
        (t, &[cls, loc, "Tensor[(1, 64, 5), float32]"], &[], Err("the anchors of `vision.multibox_transform_loc` must be 3-D (1, anchors, 4), found `Tensor[(1, 64, 5), float32]`")),
        (t, &["Tensor[(1, 3, 0), float32]", "Tensor[(1, 0), float32]", "Tensor[(1, 0, 4), float32]"], &[], Err("`vision.multibox_transform_loc` needs at least one anchor")),
    ]);
}

#[test]
fn suppression_table() {
    let g = "vision.get_valid_counts";
    let n = "vision.non_max_suppression";
    let a = "vision.all_class_non_max_suppression";
    let r = "vision.regular_non_max_suppression";
    let no_indices = [("return_indices", AttrValue::Bool(false))];
    check(&[
        (g, &["Tensor[(1, 100, 6), float32]", "float32"], &[], Ok("(Tensor[(1), int32], Tensor[(1, 100, 6), float32], Tensor[(1, 100), int32])")),
        (g, &["Tensor[(n, ?, 5), float16]", "_"], &[], Ok("(Tensor[(n), int32], Tensor[(n, ?, 5), float16], Tensor[(n, ?), int32])")),
        (g, &["_", "float32"], &[], Err("waiting: GetValidCounts")),
        (g, &["Tensor[(100, 6), float32]", "float32"], &[], Err("the data of `vision.get_valid_counts` must be 3-D (batch, boxes, values), found `Tensor[(100, 6), float32]`")),
        (n, &["Tensor[(1, 64, 6), float32]", "Tensor[(1), int32]", "Tensor[(1, 64), int32]", "int32", "float32"], &[], Ok("(Tensor[(1, 64), int32], Tensor[(1, 1), int32])")),
        (n, &["Tensor[(n, b, 6), float32]", "Tensor[(n), int32]", "_", "_", "_"], &no_indices, Ok("Tensor[(n, b, 6), float32]")),
        (n, &["Tensor[(?, 64, 6), float32]", "Tensor[(?), int32]", "_", "_", "_"], &[], Ok("(Tensor[(?, 64), int32], Tensor[(?, 1), int32])")),
        (n, &["Tensor[(1, 64, 6), float32]", "_", "_", "_", "_"], &[], Err("waiting: NonMaxSuppression")),
        (n, &["Tensor[(2, 64, 6), float32]", "Tensor[(1), int32]", "_", "_", "_"], &[], Err("`vision.non_max_suppression` has 1 valid counts for a batch of 2")),
        (n, &["Tensor[(2, 64, 6), float32]", "Tensor[(2, 1), int32]", "_", "_", "_"], &[], Err("the valid counts of `vision.non_max_suppression` must be 1-D (batch), found `Tensor[(2, 1), int32]`")),
        (a, &["Tensor[(1, 100, 4), float32]", "Tensor[(1, 3, 100), float32]", "_", "_", "_"], &[], Ok("(Tensor[(300, 3), int64], Tensor[(1), int64])")),
        (a, &["Tensor[(n, b, 4), float32]", "Tensor[(n, 3, b), float32]", "_", "_", "_"], &[("output_format", string("tensorflow"))], Ok("(Tensor[(n, 3*b, 2), int64], Tensor[(n, 3*b), float32], Tensor[(n), int64])")),
        (a, &["Tensor[(?, 100, 4), float32]", "Tensor[(?, 3, 100), float32]", "_", "_", "_"], &[], Ok("(Tensor[(?, 3), int64], Tensor[(1), int64])")),
        (a, &["Tensor[(?, 100, 4), float32]", "Tensor[(?, 3, 100), float32]", "_", "_", "_"], &[("output_format", string("tensorflow"))], Ok("(Tensor[(?, 300, 2), int64], Tensor[(?, 300), float32], Tensor[(?), int64])")),
        (a, &["Tensor[(1, 100, 4), float32]", "Tensor[(1, 3, 99), float32]", "_", "_", "_"], &[], Err("the scores of `vision.all_class_non_max_suppression` are for 99 boxes, but there are 100")),
        (a, &["Tensor[(1, 100, 4), float32]", "Tensor[(1, 3, 100), float32]", "_", "_", "_"], &[("output_format", string("tflite"))], Err("`output_format` of `vision.all_class_non_max_suppression` must be \"onnx\" or \"tensorflow\"")),
        (a, &["Tensor[(1, 100, 5), float32]", "Tensor[(1, 3, 100), float32]", "_", "_", "_"], &[], Err("the boxes of `vision.all_class_non_max_suppression` must be 3-D (batch, boxes, 4), found `Tensor[(1, 100, 5), float32]`")),
    ]);
    let reg = [
        ("max_detections_per_class", int(10)),
        ("max_detections", int(10)),
        ("num_classes", int(90)),
        ("iou_threshold", float(0.6)),
        ("score_threshold", float(0.3)),
    ];
    let mut negative = reg.to_vec();
    negative[1] = ("max_detections", int(-1));
    check(&[
        (r, &["Tensor[(1, 1917, 4), float32]", "Tensor[(1, 1917, 91), float32]"], &reg, Ok("(Tensor[(1, 10, 4), float32], Tensor[(1, 10), float32], Tensor[(1, 10), float32], Tensor[(1), int32])")),
        (r, &["Tensor[(n, b, 4), float32]", "Tensor[(n, b, ?), float32]"], &reg, Ok("(Tensor[(n, 10, 4), float32], Tensor[(n, 10), float32], Tensor[(n, 10), float32], Tensor[(n), int32])")),
        (r, &["Tensor[(1, 1917, 4), float32]", "Tensor[(1, 1900, 91), float32]"], &reg, Err("the scores of `vision.regular_non_max_suppression` are for 1900 boxes, but there are 1917")),
        (r, &["Tensor[(1, 1917, 4), float32]", "Tensor[(1, 1917, 91), float32]"], &negative, Err("`max_detections` must not be negative, found -1")),
        (r, &["Tensor[(1, 1917, 4), float32]", "Tensor[(1, 1917, 91), float32]"], &[], Err("`vision.regular_non_max_suppression` needs attribute `max_detections_per_class` of type `int`")),
    ]);
}

#[test]
fn regions_table() {
    let al = "vision.roi_align";
    let po = "vision.roi_pool";
    let pr = "vision.proposal";
    let y = "vision.yolo_reorg";
    let a = [
        ("pooled_size", ints(&[7, 7])),
        ("spatial_scale", float(0.0625)),
    ];
    let nhwc = [
        ("pooled_size", ints(&[7, 5])),
        ("spatial_scale", float(0.0625)),
        ("layout", string("NHWC")),
    ];
    check(&[
        (
            al,
            &[
                "Tensor[(1, 256, 32, 32), float32]",
                "Tensor[(100, 5), float32]",
            ],
            &a,
            Ok("Tensor[(100, 256, 7, 7), float32]"),
        ),
        (
            al,
            &["Tensor[(n, h, w, c), float32]", "Tensor[(r, 5), float32]"],
            &nhwc,
            Ok("Tensor[(r, 7, 5, c), float32]"),
        ),
        (
            po,
            &["Tensor[(1, ?, 32, 32), float32]", "Tensor[(?, 5), float32]"],
            &a,
            Ok("Tensor[(?, ?, 7, 7), float32]"),
        ),
        (
            po,
            &[
                "Tensor[(1, 32, 32, 256), float16]",
                "Tensor[(n, 5), float16]",
            ],
            &nhwc,
            Ok("Tensor[(n, 7, 5, 256), float16]"),
        ),
        (
            al,
            &["Tensor[(1, 256, 32, 32), float32]", "_"],
            &a,
            Err("waiting: RoiPooled"),
        ),
        (
            al,
            &[
                "Tensor[(1, 256, 32, 32), float32]",
                "Tensor[(100, 4), float32]",
            ],
            &a,
            Err("the regions must be 2-D (regions, 5), found `Tensor[(100, 4), float32]`"),
        ),
        (
            al,
            &[
                "Tensor[(1, 256, 32, 32), float32]",
                "Tensor[(100, 5), float32]",
            ],
            &[("pooled_size", ints(&[7])), ("spatial_scale", float(1.0))],
            Err("`pooled_size` must have 2 values, it has 1"),
        ),
        (
            po,
            &[
                "Tensor[(1, 256, 32, 32), float32]",
                "Tensor[(100, 5), float32]",
            ],
            &[
                ("pooled_size", ints(&[7, 7])),
                ("spatial_scale", float(1.0)),
                ("layout", string("NCHW4c")),
            ],
            Err("`layout` must be \"NCHW\" or \"NHWC\""),
        ),
        (
            po,
            &[
                "Tensor[(256, 32, 32), float32]",
                "Tensor[(100, 5), float32]",
            ],
            &a,
            Err("the data must be 4-D, found `Tensor[(256, 32, 32), float32]`"),
        ),
    ]);
    let p = [
        ("scales", floats(&[2.0, 4.0, 8.0, 16.0, 32.0])),
        ("ratios", floats(&[0.5, 1.0, 2.0])),
        ("rpn_post_nms_top_n", int(300)),
    ];
    check(&[
        (pr, &["Tensor[(1, 30, 38, 50), float32]", "Tensor[(1, 60, 38, 50), float32]", "Tensor[(1, 3), float32]"], &p, Ok("Tensor[(300, 5), float32]")),
        // The defaults: 4 scales by 3 ratios.
        (pr, &["Tensor[(n, 24, h, w), float32]", "Tensor[(n, 48, h, w), float32]", "Tensor[(n, 3), float32]"], &[], Ok("Tensor[(300*n, 5), float32]")),
        (pr, &["Tensor[(?, 24, ?, ?), float32]", "Tensor[(?, 48, 7, 7), float32]", "Tensor[(?, 3), float32]"], &[], Ok("Tensor[(?, 5), float32]")),
        (pr, &["Tensor[(1, 30, 38, 50), float32]", "_", "Tensor[(1, 3), float32]"], &p, Err("waiting: Proposal")),
        (pr, &["Tensor[(1, 24, 38, 50), float32]", "Tensor[(1, 60, 38, 50), float32]", "Tensor[(1, 3), float32]"], &p, Err("the class probabilities of `vision.proposal` have 24 channels, but its 15 anchors (`scales` by `ratios`) need 30")),
        (pr, &["Tensor[(1, 30, 38, 50), float32]", "Tensor[(1, 60, 38, 49), float32]", "Tensor[(1, 3), float32]"], &p, Err("the width of the box predictions of `vision.proposal` is 49, but the class probabilities' is 50")),
        (pr, &["Tensor[(1, 30, 38, 50), float32]", "Tensor[(1, 60, 38, 50), float32]", "Tensor[(1, 4), float32]"], &p, Err("the image sizes of `vision.proposal` must be 2-D (batch, 3), found `Tensor[(1, 4), float32]`")),
        (pr, &["Tensor[(1, 30, 38, 50), float32]", "Tensor[(1, 60, 38, 50), float32]", "Tensor[(1, 3), float32]"], &[("rpn_post_nms_top_n", int(0))], Err("`rpn_post_nms_top_n` must be at least 1, found 0")),
    ]);
    check(&[
        (y, &["Tensor[(1, 64, 26, 26), float32]"], &[("stride", int(2))], Ok("Tensor[(1, 256, 13, 13), float32]")),
        (y, &["Tensor[(n, c, h, ?), float32]"], &[("stride", int(2))], Ok("Tensor[(n, 4*c, floordiv(h, 2), ?), float32]")),
        (y, &["Tensor[(1, 64, 26, 26), float32]"], &[], Ok("Tensor[(1, 64, 26, 26), float32]")),
        (y, &["Tensor[(1, 64, 25, 26), float32]"], &[("stride", int(2))], Err("the height 25 of `Tensor[(1, 64, 25, 26), float32]` is not a multiple of `stride` 2")),
        (y, &["Tensor[(1, 64, 26, 26), float32]"], &[("stride", int(0))], Err("`stride` must be at least 1, found 0")),
        (y, &["Tensor[(64, 26, 26), float32]"], &[("stride", int(2))], Err("the data of `vision.yolo_reorg` must be 4-D (N, C, H, W), found `Tensor[(64, 26, 26), float32]`")),
    ]);
}

/// An SSD detection head as TVM prints it (after MXNet's `MultiBoxDetection` is
/// converted): the anchors of two feature maps, concatenated, the decoded boxes and
/// their suppression. Each binding has the type TVM printed on it.
#[test]
fn an_ssd_detection_head_as_tvm_prints_it() {
    let src = r#"#[version = "0.0.5"]
def @main(%feat1: Tensor[(1, 512, 19, 19), float32], %feat2: Tensor[(1, 1024, 10, 10), float32], %cls: Tensor[(1, 21, 1966), float32], %loc: Tensor[(1, 7864), float32]) -> Tensor[(1, 1966, 6), float32] {
  %0 = vision.multibox_prior(%feat1, sizes=[0.1f, 0.141f], ratios=[1f, 2f, 0.5f], steps=[0.0266667f, 0.0266667f], clip=True) /* ty=Tensor[(1, 1444, 4), float32] */;
  %1 = vision.multibox_prior(%feat2, sizes=[0.2f], ratios=[1f, 2f, 0.5f], steps=[0.05f, 0.05f]) /* ty=Tensor[(1, 300, 4), float32] */;
  %2 = reshape(%0, newshape=[1, -1]) /* ty=Tensor[(1, 5776), float32] */;
  %3 = reshape(%1, newshape=[1, -1]) /* ty=Tensor[(1, 1200), float32] */;
  %4 = (%2, %3) /* ty=(Tensor[(1, 5776), float32], Tensor[(1, 1200), float32]) */;
  %5 = concatenate(%4, axis=1) /* ty=Tensor[(1, 6976), float32] */;
  %6 = reshape(%5, newshape=[1, -1, 4]) /* ty=Tensor[(1, 1744, 4), float32] */;
  %7 = vision.multibox_prior(%feat2, sizes=[0.3f, 0.4f], ratios=[1f], steps=[0.05f, 0.05f]) /* ty=Tensor[(1, 200, 4), float32] */;
  %8 = (%6, %7) /* ty=(Tensor[(1, 1744, 4), float32], Tensor[(1, 200, 4), float32]) */;
  %9 = concatenate(%8, axis=1) /* ty=Tensor[(1, 1944, 4), float32] */;
  %10 = strided_slice(%9, begin=[0, 0, 0], end=[1, 22, 4], strides=[1, 1, 1], axes=None) /* ty=Tensor[(1, 22, 4), float32] */;
  %11 = (%9, %10) /* ty=(Tensor[(1, 1944, 4), float32], Tensor[(1, 22, 4), float32]) */;
  %12 = concatenate(%11, axis=1) /* ty=Tensor[(1, 1966, 4), float32] */;
  %13 = vision.multibox_transform_loc(%cls, %loc, %12, threshold=0.01f, variances=[0.1f, 0.1f, 0.2f, 0.2f]) /* ty=(Tensor[(1, 1966, 6), float32], Tensor[(1), int32]) */;
  %14 = %13.0 /* ty=Tensor[(1, 1966, 6), float32] */;
  %15 = %13.1 /* ty=Tensor[(1), int32] */;
  vision.non_max_suppression(%14, %15, %15, -1 /* ty=int32 */, 0.45f /* ty=float32 */, force_suppress=True, top_k=400, return_indices=False) /* ty=Tensor[(1, 1966, 6), float32] */
}
"#;
    let (found, main) = common::bindings(src);
    assert_eq!(found, common::printed(src));
    assert_eq!(found.len(), 16);
    assert_eq!(
        main,
        "fn (Tensor[(1, 512, 19, 19), float32], Tensor[(1, 1024, 10, 10), float32], Tensor[(1, 21, 1966), float32], Tensor[(1, 7864), float32]) -> Tensor[(1, 1966, 6), float32]"
    );
}

/// The TensorFlow and ONNX forms of suppression as TVM prints them: valid counts, then
/// the suppression returning indices; and all-class suppression.
#[test]
fn suppressions_as_tvm_prints_them() {
    let src = r#"#[version = "0.0.5"]
def @main(%boxes: Tensor[(1, 100, 4), float32], %scores: Tensor[(1, 3, 100), float32], %data: Tensor[(1, 100, 6), float32]) {
  %0 = vision.get_valid_counts(%data, 0.3f /* ty=float32 */, score_threshold=None) /* ty=(Tensor[(1), int32], Tensor[(1, 100, 6), float32], Tensor[(1, 100), int32]) */;
  %1 = %0.1 /* ty=Tensor[(1, 100, 6), float32] */;
  %2 = %0.0 /* ty=Tensor[(1), int32] */;
  %3 = %0.2 /* ty=Tensor[(1, 100), int32] */;
  %4 = vision.non_max_suppression(%1, %2, %3, 10 /* ty=int32 */, 0.5f /* ty=float32 */, top_k=-1, coord_start=2, score_index=1, id_index=0) /* ty=(Tensor[(1, 100), int32], Tensor[(1, 1), int32]) */;
  %5 = vision.all_class_non_max_suppression(%boxes, %scores, meta[relay.Constant][0] /* ty=Tensor[(1), int64] */, 0.5f /* ty=float32 */, 0f /* ty=float32 */, output_format="onnx") /* ty=(Tensor[(300, 3), int64], Tensor[(1), int64]) */;
  (%4, %5)
}
"#;
    let (found, _) = common::bindings(src);
    assert_eq!(found, common::printed(src));
    assert_eq!(found.len(), 6);
}
