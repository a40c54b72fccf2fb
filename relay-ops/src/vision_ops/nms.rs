//! The relations of the non-maximum suppressions and of `vision.get_valid_counts`.
//! Clauses: their results are tuples of shapes read off the inputs.

use relay_core::relation;

/// `vision.get_valid_counts`'s relation: boxes `(B, N, K)` give the valid counts `(B)`
/// of `int32`, the boxes moved (the data's type) and their indices `(B, N)` of `int32`.
/// The score threshold is not read.
#[relation(
    GetValidCounts(D @ Tensor(s, bt), _, O) :-
        assert(len(s) == 3, "the data of `vision.get_valid_counts` must be 3-D (batch, boxes, values), found `{}`", D),
        O = (Tensor([s[0]], int32), Tensor(s, bt), Tensor([s[0], s[1]], int32))
)]
pub struct GetValidCounts;

/// `vision.non_max_suppression`'s relation: boxes `(B, N, K)` and their valid counts
/// `(B)` give, with `return_indices`, the kept indices `(B, N)` and their count `(B, 1)`,
/// both `int32`, else the boxes' type. The valid counts' length must be the batch (TVM
/// does not compare them); the indices, the maximum output size and the threshold are
/// not read.
#[relation(
    NonMaxSuppression(D @ Tensor(s, bt), V @ Tensor(sv, _), _, _, _, O) :-
        assert(len(s) == 3, "the data of `vision.non_max_suppression` must be 3-D (batch, boxes, values), found `{}`", D),
        assert(len(sv) == 1, "the valid counts of `vision.non_max_suppression` must be 1-D (batch), found `{}`", V),
        assert(sv[0] = s[0], "`vision.non_max_suppression` has {} valid counts for a batch of {}", sv[0], s[0]),
        if attrs.return_indices {
            O = (Tensor([s[0], s[1]], int32), Tensor([s[0], 1], int32))
        } else {
            O = Tensor(s, bt)
        },
        attrs(return_indices: bool = true)
)]
pub struct NonMaxSuppression;

/// `vision.all_class_non_max_suppression`'s relation: boxes `(B, N, 4)` and scores
/// `(B, classes, N)` give, as `output_format` says, `"onnx"`: the selected indices
/// `(B * classes * N, 3)` and their count `(1)`, both `int64`; `"tensorflow"`: the indices
/// `(B, classes * N, 2)` of `int64`, the scores `(B, classes * N)` of `float32` and the
/// counts `(B)` of `int64` (`?` where a factor is `?`). The boxes and the scores must
/// agree (TVM does not compare them), and another `output_format` is an error (TVM reads
/// it as `"tensorflow"`).
#[relation(
    AllClassNonMaxSuppression(B @ Tensor(sb, _), S @ Tensor(ss, _), _, _, _, O) :-
        assert(len(sb) == 3, "the boxes of `vision.all_class_non_max_suppression` must be 3-D (batch, boxes, 4), found `{}`", B),
        assert(len(ss) == 3, "the scores of `vision.all_class_non_max_suppression` must be 3-D (batch, classes, boxes), found `{}`", S),
        assert(sb[2] = 4, "the boxes of `vision.all_class_non_max_suppression` must be 3-D (batch, boxes, 4), found `{}`", B),
        assert(ss[0] = sb[0], "the batch of the scores of `vision.all_class_non_max_suppression` is {}, but the boxes' is {}", ss[0], sb[0]),
        assert(ss[2] = sb[1], "the scores of `vision.all_class_non_max_suppression` are for {} boxes, but there are {}", ss[2], sb[1]),
        if attrs.output_format == "onnx" {
            O = (Tensor([sb[0] * ss[1] * sb[1], 3], int64), Tensor([1], int64))
        } else if attrs.output_format == "tensorflow" {
            O = (
                Tensor([sb[0], ss[1] * sb[1], 2], int64),
                Tensor([sb[0], ss[1] * sb[1]], float32),
                Tensor([sb[0]], int64)
            )
        } else {
            assert(false, "`output_format` of `vision.all_class_non_max_suppression` must be \"onnx\" or \"tensorflow\"")
        },
        attrs(output_format: str = "onnx")
)]
pub struct AllClassNonMaxSuppression;

/// `vision.regular_non_max_suppression`'s relation: boxes `(B, N, 4)` and scores
/// `(B, N, classes)` give the detections: boxes `(B, M, 4)`, classes `(B, M)` and scores
/// `(B, M)` of `float32` and their number `(B)` of `int32`, with `M` = `max_detections`.
/// The boxes and the scores must agree (TVM does not compare them).
#[relation(
    RegularNonMaxSuppression(B @ Tensor(sb, _), S @ Tensor(ss, _), O) :-
        assert(len(sb) == 3, "the boxes of `vision.regular_non_max_suppression` must be 3-D (batch, boxes, 4), found `{}`", B),
        assert(len(ss) == 3, "the scores of `vision.regular_non_max_suppression` must be 3-D (batch, boxes, classes), found `{}`", S),
        assert(sb[2] = 4, "the boxes of `vision.regular_non_max_suppression` must be 3-D (batch, boxes, 4), found `{}`", B),
        assert(ss[0] = sb[0], "the batch of the scores of `vision.regular_non_max_suppression` is {}, but the boxes' is {}", ss[0], sb[0]),
        assert(ss[1] = sb[1], "the scores of `vision.regular_non_max_suppression` are for {} boxes, but there are {}", ss[1], sb[1]),
        assert(attrs.max_detections >= 0, "`max_detections` must not be negative, found {}", attrs.max_detections),
        m = attrs.max_detections,
        O = (
            Tensor([sb[0], m, 4], float32),
            Tensor([sb[0], m], float32),
            Tensor([sb[0], m], float32),
            Tensor([sb[0]], int32)
        ),
        attrs(max_detections: int)
)]
pub struct RegularNonMaxSuppression;
