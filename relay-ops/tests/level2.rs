//! Level-2 operators: exact result types and errors, table-driven, for every relation: a
//! static case, a symbolic case (`n` batch and a symbolic spatial dimension), a case with
//! `?`, and error cases with their messages; backward inference of convolution weights;
//! conv2d's output size against the direct formula on every small parameter combination.

mod common;
use common::oracles::{conv_empty_message, conv_out};
use common::{boolean, check, check_args, infer, int, ints, string};
use relay_core::AttrValue;

fn f(v: f64) -> AttrValue {
    AttrValue::Float(v)
}

fn pairs(v: &[[i64; 2]]) -> AttrValue {
    AttrValue::List(v.iter().map(|p| ints(p)).collect())
}

#[test]
fn conv2d_table() {
    check(&[
        // Static, with the weight known.
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 32, 32), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("padding", ints(&[1, 1]))],
            Ok("Tensor[(1, 16, 32, 32), float32]"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 32, 32), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("strides", ints(&[2, 2])), ("padding", ints(&[1]))],
            Ok("Tensor[(1, 16, 16, 16), float32]"),
        ),
        // Padding of four values: (top, left, bottom, right).
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 10, 10), float32]", "Tensor[(4, 3, 3, 3), float32]"],
            &[("padding", ints(&[1, 0, 2, 0]))],
            Ok("Tensor[(1, 4, 11, 8), float32]"),
        ),
        // Dilation.
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 10, 10), float32]", "Tensor[(4, 3, 3, 3), float32]"],
            &[("dilation", ints(&[2, 3]))],
            Ok("Tensor[(1, 4, 6, 4), float32]"),
        ),
        // Layouts: NHWC data, HWIO kernel, and an out_layout.
        (
            "nn.conv2d",
            &["Tensor[(1, 32, 32, 3), float32]", "Tensor[(3, 3, 3, 16), float32]"],
            &[
                ("padding", ints(&[1, 1])),
                ("data_layout", string("NHWC")),
                ("kernel_layout", string("HWIO")),
            ],
            Ok("Tensor[(1, 32, 32, 16), float32]"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 6), float32]", "Tensor[(4, 3, 1, 1), float32]"],
            &[("out_layout", string("NHWC"))],
            Ok("Tensor[(1, 8, 6, 4), float32]"),
        ),
        // out_dtype.
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 8), int8]", "Tensor[(4, 3, 3, 3), int8]"],
            &[("out_dtype", string("int32"))],
            Ok("Tensor[(1, 4, 6, 6), int32]"),
        ),
        // Depthwise as TVM: a weight with `groups` output channels is (C, channels / C, kh, kw).
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "Tensor[(4, 2, 3, 3), float32]"],
            &[("channels", int(8)), ("kernel_size", ints(&[3, 3])), ("groups", int(4))],
            Ok("Tensor[(1, 8, 6, 6), float32]"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "Tensor[(4, 1, 3, 3), float32]"],
            &[("channels", int(8)), ("kernel_size", ints(&[3, 3])), ("groups", int(4))],
            Err("the weight has 1 input channels per group (axis 1, `I` of OIHW), but `channels` over the data's channels give 2"),
        ),
        // Grouped.
        (
            "nn.conv2d",
            &["Tensor[(1, 8, 8, 8), float32]", "Tensor[(16, 2, 3, 3), float32]"],
            &[("groups", int(4))],
            Ok("Tensor[(1, 16, 6, 6), float32]"),
        ),
        // Symbolic batch and spatial dimensions: normal forms with floordiv by a constant.
        (
            "nn.conv2d",
            &["Tensor[(n, 3, h, w), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("padding", ints(&[1, 1]))],
            Ok("Tensor[(n, 16, h, w), float32]"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(n, 3, h, 9), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("strides", ints(&[2, 2]))],
            Ok("Tensor[(n, 16, floordiv(h + 1, 2) - 1, 4), float32]"),
        ),
        // A symbolic channel count compares by normal form.
        (
            "nn.conv2d",
            &["Tensor[(1, 2*c, 5, 5), float32]", "Tensor[(8, c*2, 3, 3), float32]"],
            &[],
            Ok("Tensor[(1, 8, 3, 3), float32]"),
        ),
        // `?` stays `?`; a `?` channel count accepts the weight's.
        (
            "nn.conv2d",
            &["Tensor[(?, ?, ?, 32), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("padding", ints(&[1, 1]))],
            Ok("Tensor[(?, 16, ?, 32), float32]"),
        ),
        // The weight is not known yet and cannot be inferred: the relation waits.
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 8), float32]", "_"],
            &[("channels", int(4))],
            Err("waiting: Conv2D"),
        ),
        (
            "nn.conv2d",
            &["_", "_"],
            &[("channels", int(4)), ("kernel_size", ints(&[3, 3]))],
            Err("waiting: Conv2D"),
        ),
        // Errors.
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 32, 32), float32]", "Tensor[(16, 4, 3, 3), float32]"],
            &[],
            Err("the weight has 4 input channels per group (axis 1, `I` of OIHW), but the data's 3 input channels over `groups` = 1 give 3"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 32, 32), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("channels", int(8))],
            Err("the weight has 16 output channels (axis 0, `O` of OIHW), but `channels` is 8"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 32, 32), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("kernel_size", ints(&[5, 5]))],
            Err("the weight has 3 as kernel size along H (axis 2, `H` of OIHW), but `kernel_size[0]` is 5"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 32), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[],
            Err("`nn.conv2d` expects data of rank 4 (layout NCHW), found `Tensor[(1, 3, 32), float32]`"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 32, 32), float32]", "Tensor[(16, 3, 3), float32]"],
            &[],
            Err("`nn.conv2d` expects a weight of rank 4 (layout OIHW), found `Tensor[(16, 3, 3), float32]`"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 6, 8, 8), float32]", "_"],
            &[("groups", int(4)), ("channels", int(8)), ("kernel_size", ints(&[3, 3]))],
            Err("the data's 6 input channels are not divisible by `groups` = 4"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 2, 2), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[],
            Err("the output of `nn.conv2d` would be empty along H: its size is 0 (data 2, padding 0, dilated kernel 3, stride 1)"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("padding", ints(&[1, 1, 1]))],
            Err("`padding` must have 1 or 2 or 4 values, it has 3"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("strides", ints(&[1, 0]))],
            Err("`strides` must be at least 1, found 0"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("data_layout", string("NCDW"))],
            Err("`data_layout` \"NCDW\" is not supported: it must order the axes of NCHW, each possibly packed by a factor"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("data_layout", string("NCHW16c"))],
            Err("`nn.conv2d` expects data of rank 5 (layout NCHW16c), found `Tensor[(1, 3, 8, 8), float32]`"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 8), float32]", "Tensor[(16, 3, 3, 3), float32]"],
            &[("kernel_layout", string("OIHH"))],
            Err("`kernel_layout` \"OIHH\" is not a layout: an axis occurs twice"),
        ),
        (
            "nn.conv2d",
            &["(Tensor[(1, 3, 8, 8), float32],)", "Tensor[(16, 3, 3, 3), float32]"],
            &[],
            Err("expected a tensor, found `(Tensor[(1, 3, 8, 8), float32],)`"),
        ),
    ]);
}

#[test]
fn conv_weights_are_inferred_backward() {
    check_args(&[
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 32, 32), float32]", "_"],
            &[
                ("channels", int(16)),
                ("kernel_size", ints(&[3, 3])),
                ("padding", ints(&[1, 1])),
            ],
            "Tensor[(1, 16, 32, 32), float32]",
            &[
                "Tensor[(1, 3, 32, 32), float32]",
                "Tensor[(16, 3, 3, 3), float32]",
            ],
        ),
        // Mapped back to the kernel layout.
        (
            "nn.conv2d",
            &["Tensor[(1, 32, 32, 3), float32]", "_"],
            &[
                ("channels", int(16)),
                ("kernel_size", ints(&[3, 5])),
                ("data_layout", string("NHWC")),
                ("kernel_layout", string("HWIO")),
            ],
            "Tensor[(1, 30, 28, 16), float32]",
            &[
                "Tensor[(1, 32, 32, 3), float32]",
                "Tensor[(3, 5, 3, 16), float32]",
            ],
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 32, 32, 8), float32]", "_"],
            &[
                ("channels", int(8)),
                ("groups", int(8)),
                ("kernel_size", ints(&[3, 3])),
                ("data_layout", string("NHWC")),
                ("kernel_layout", string("HWOI")),
            ],
            "Tensor[(1, 30, 30, 8), float32]",
            &[
                "Tensor[(1, 32, 32, 8), float32]",
                "Tensor[(3, 3, 8, 1), float32]",
            ],
        ),
        // Grouped, symbolic channels and batch.
        (
            "nn.conv2d",
            &["Tensor[(n, 2*c, h, w), float32]", "_"],
            &[
                ("channels", int(6)),
                ("kernel_size", ints(&[1, 1])),
                ("groups", int(2)),
            ],
            "Tensor[(n, 6, h, w), float32]",
            &[
                "Tensor[(n, 2*c, h, w), float32]",
                "Tensor[(6, c, 1, 1), float32]",
            ],
        ),
        (
            "nn.conv1d",
            &["Tensor[(2, 4, 10), float32]", "_"],
            &[("channels", int(8)), ("kernel_size", ints(&[3]))],
            "Tensor[(2, 8, 8), float32]",
            &["Tensor[(2, 4, 10), float32]", "Tensor[(8, 4, 3), float32]"],
        ),
        (
            "nn.conv3d",
            &["Tensor[(1, 4, 8, 8, 8), float16]", "_"],
            &[("channels", int(2)), ("kernel_size", ints(&[1, 2, 3]))],
            "Tensor[(1, 2, 8, 7, 6), float16]",
            &[
                "Tensor[(1, 4, 8, 8, 8), float16]",
                "Tensor[(2, 4, 1, 2, 3), float16]",
            ],
        ),
        (
            "nn.conv2d_transpose",
            &["Tensor[(1, 16, 8, 8), float32]", "_"],
            &[
                ("channels", int(8)),
                ("kernel_size", ints(&[3, 3])),
                ("strides", ints(&[2, 2])),
            ],
            "Tensor[(1, 8, 17, 17), float32]",
            &[
                "Tensor[(1, 16, 8, 8), float32]",
                "Tensor[(16, 8, 3, 3), float32]",
            ],
        ),
        (
            "nn.conv1d_transpose",
            &["Tensor[(1, 8, 10), float32]", "_"],
            &[
                ("channels", int(4)),
                ("kernel_size", ints(&[3])),
                ("groups", int(2)),
            ],
            "Tensor[(1, 4, 12), float32]",
            &["Tensor[(1, 8, 10), float32]", "Tensor[(8, 2, 3), float32]"],
        ),
        (
            "nn.conv3d_transpose",
            &["Tensor[(1, 8, 4, 4, 4), float32]", "_"],
            &[("channels", int(4)), ("kernel_size", ints(&[3, 3, 3]))],
            "Tensor[(1, 4, 6, 6, 6), float32]",
            &[
                "Tensor[(1, 8, 4, 4, 4), float32]",
                "Tensor[(8, 4, 3, 3, 3), float32]",
            ],
        ),
    ]);
}

/// Grouped convolutions: depthwise (weight `(C, channels / C, k...)`) only when `groups`
/// is both the data's channel count and the weight's output channels (TVM since
/// apache/tvm#11681, conv2d and conv3d); otherwise the weight is `(channels, C / groups,
/// k...)`.
#[test]
fn grouped_convolutions() {
    check(&[
        // `groups` = the weight's output channels but not the data's channels: grouped.
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "Tensor[(2, 2, 1, 1), float32]"],
            &[("kernel_size", ints(&[1, 1])), ("channels", int(2)), ("groups", int(2))],
            Ok("Tensor[(1, 2, 8, 8), float32]"),
        ),
        (
            "nn.conv3d",
            &["Tensor[(1, 16, 224, 224, 224), float32]", "Tensor[(4, 4, 1, 1, 1), float32]"],
            &[("kernel_size", ints(&[1, 1, 1])), ("channels", int(4)), ("groups", int(4))],
            Ok("Tensor[(1, 4, 224, 224, 224), float32]"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "Tensor[(2, 3, 1, 1), float32]"],
            &[("kernel_size", ints(&[1, 1])), ("channels", int(2)), ("groups", int(2))],
            Err("the weight has 3 input channels per group (axis 1, `I` of OIHW), but the data's 4 input channels over `groups` = 2 give 2"),
        ),
        // Read as depthwise before #11681 (`groups` = the weight's output channels): an
        // error now, as in TVM.
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "Tensor[(2, 4, 1, 1), float32]"],
            &[("kernel_size", ints(&[1, 1])), ("channels", int(8)), ("groups", int(2))],
            Err("the weight has 2 output channels (axis 0, `O` of OIHW), but `channels` is 8"),
        ),
        // Depthwise: `groups` = C = the weight's output channels.
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "Tensor[(4, 3, 3, 3), float32]"],
            &[("kernel_size", ints(&[3, 3])), ("channels", int(12)), ("groups", int(4))],
            Ok("Tensor[(1, 12, 6, 6), float32]"),
        ),
        (
            "nn.conv3d",
            &["Tensor[(1, 4, 8, 8, 8), float32]", "Tensor[(4, 2, 3, 3, 3), float32]"],
            &[("kernel_size", ints(&[3, 3, 3])), ("channels", int(8)), ("groups", int(4))],
            Ok("Tensor[(1, 8, 6, 6, 6), float32]"),
        ),
        (
            "nn.conv3d",
            &["Tensor[(1, 4, 8, 8, 8), float32]", "Tensor[(4, 3, 3, 3, 3), float32]"],
            &[("kernel_size", ints(&[3, 3, 3])), ("channels", int(8)), ("groups", int(4))],
            Err("the weight has 3 input channels per group (axis 1, `I` of OIDHW), but `channels` over the data's channels give 2"),
        ),
        // conv1d has no depthwise form (in TVM neither): the weight is (channels, C / groups, k).
        (
            "nn.conv1d",
            &["Tensor[(1, 4, 10), float32]", "Tensor[(4, 2, 3), float32]"],
            &[("kernel_size", ints(&[3])), ("channels", int(8)), ("groups", int(4))],
            Err("the weight has 4 output channels (axis 0, `O` of OIW), but `channels` is 8"),
        ),
        (
            "nn.conv1d",
            &["Tensor[(1, 4, 10), float32]", "Tensor[(8, 1, 3), float32]"],
            &[("kernel_size", ints(&[3])), ("channels", int(8)), ("groups", int(4))],
            Ok("Tensor[(1, 8, 8), float32]"),
        ),
        // An unknown weight with `groups` = C and `channels` != C could be either form:
        // the relation waits for the weight (TVM asks for it).
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "_"],
            &[("kernel_size", ints(&[3, 3])), ("channels", int(8)), ("groups", int(4))],
            Err("waiting: Conv2D"),
        ),
    ]);
    // Unambiguous unknown weights are inferred: grouped (`groups` != C), and depthwise
    // with `channels` = C (both forms agree).
    check_args(&[
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "_"],
            &[
                ("kernel_size", ints(&[1, 1])),
                ("channels", int(2)),
                ("groups", int(2)),
            ],
            "Tensor[(1, 2, 8, 8), float32]",
            &[
                "Tensor[(1, 4, 8, 8), float32]",
                "Tensor[(2, 2, 1, 1), float32]",
            ],
        ),
        (
            "nn.conv3d",
            &["Tensor[(1, 16, 224, 224, 224), float32]", "_"],
            &[
                ("kernel_size", ints(&[1, 1, 1])),
                ("channels", int(4)),
                ("groups", int(4)),
            ],
            "Tensor[(1, 4, 224, 224, 224), float32]",
            &[
                "Tensor[(1, 16, 224, 224, 224), float32]",
                "Tensor[(4, 4, 1, 1, 1), float32]",
            ],
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 8, 8), float32]", "_"],
            &[
                ("kernel_size", ints(&[3, 3])),
                ("channels", int(4)),
                ("groups", int(4)),
            ],
            "Tensor[(1, 4, 6, 6), float32]",
            &[
                "Tensor[(1, 4, 8, 8), float32]",
                "Tensor[(4, 1, 3, 3), float32]",
            ],
        ),
    ]);
}

/// Packed layouts (`NCHW16c`, `OIHW16i16o`, `NCHW4n4c`, ...) as TVM's `BijectiveLayout`
/// maps them to and from the canonical `NCHW` / `OIHW`: a packed axis is its outer
/// dimension times its factor. Where TVM rounds up or does not check, a packed dimension
/// that does not divide, or an inner dimension other than its factor, is an error.
#[test]
fn packed_layouts() {
    let packed = |data: &str, kernel: &str| {
        vec![
            ("data_layout", string(data)),
            ("kernel_layout", string(kernel)),
        ]
    };
    let with = |mut v: Vec<(&'static str, AttrValue)>, more: &[(&'static str, AttrValue)]| {
        v.extend_from_slice(more);
        v
    };
    let nchw16c = with(
        packed("NCHW16c", "OIHW16i16o"),
        &[
            ("padding", ints(&[1, 1, 1, 1])),
            ("channels", int(64)),
            ("kernel_size", ints(&[3, 3])),
        ],
    );
    check(&[
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 56, 56, 16), float32]", "Tensor[(4, 4, 3, 3, 16, 16), float32]"],
            &nchw16c,
            Ok("Tensor[(1, 4, 56, 56, 16), float32]"),
        ),
        // Packed data, an unpacked weight and output.
        (
            "nn.conv2d",
            &["Tensor[(1, 2, 8, 8, 16), float32]", "Tensor[(8, 32, 3, 3), float32]"],
            &[("data_layout", string("NCHW16c")), ("out_layout", string("NCHW"))],
            Ok("Tensor[(1, 8, 6, 6), float32]"),
        ),
        // The batch packed too (6-D, as TVM's tensor-core layouts), and a symbolic batch.
        (
            "nn.conv2d",
            &["Tensor[(2, 4, 8, 8, 4, 4), float32]", "Tensor[(4, 4, 1, 1, 4, 4), float32]"],
            &packed("NCHW4n4c", "OIHW4i4o"),
            Ok("Tensor[(2, 4, 8, 8, 4, 4), float32]"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(n, 1, 8, 8, 4), float32]", "Tensor[(8, 1, 3, 3), float32]"],
            &packed("NCHW4n", "OIHW"),
            Ok("Tensor[(n, 8, 6, 6, 4), float32]"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 8, 8, 2, 8), float32]", "Tensor[(3, 3, 16, 4), float32]"],
            &[
                ("data_layout", string("NHWC8c")),
                ("kernel_layout", string("HWIO")),
                ("out_layout", string("NHWC2c")),
            ],
            Ok("Tensor[(1, 6, 6, 2, 2), float32]"),
        ),
        (
            "nn.conv1d",
            &["Tensor[(1, 2, 10, 4), float32]", "Tensor[(2, 2, 3, 4, 4), float32]"],
            &[("data_layout", string("NCW4c")), ("kernel_layout", string("OIW4i4o"))],
            Ok("Tensor[(1, 2, 8, 4), float32]"),
        ),
        (
            "nn.conv3d",
            &["Tensor[(1, 1, 4, 4, 4, 8), float32]", "Tensor[(8, 8, 1, 1, 1), float32]"],
            &packed("NCDHW8c", "OIDHW"),
            Ok("Tensor[(1, 1, 4, 4, 4, 8), float32]"),
        ),
        (
            "nn.conv2d_transpose",
            &["Tensor[(1, 1, 8, 8, 16), float32]", "Tensor[(1, 8, 3, 3, 16), float32]"],
            &[
                ("data_layout", string("NCHW16c")),
                ("kernel_layout", string("IOHW16i")),
                ("out_layout", string("NCHW")),
                ("strides", ints(&[2, 2])),
            ],
            Ok("Tensor[(1, 8, 17, 17), float32]"),
        ),
        // `?` stays `?`.
        (
            "nn.conv2d",
            &["Tensor[(?, 4, ?, 56, 16), float32]", "Tensor[(4, 4, 3, 3, 16, 16), float32]"],
            &nchw16c,
            Ok("Tensor[(?, 4, ?, 56, 16), float32]"),
        ),
        // Errors: an inner dimension that is not its factor, a packed dimension that does
        // not divide, a mismatch naming both axes of a packed one.
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 56, 56, 8), float32]", "Tensor[(4, 4, 3, 3, 16, 16), float32]"],
            &nchw16c,
            Err("dimension 4 of the data is 8, but `16c` of `data_layout` NCHW16c needs 16"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 56, 56, 16), float32]", "Tensor[(4, 4, 3, 3, 16, 8), float32]"],
            &nchw16c,
            Err("dimension 5 of the weight is 8, but `16o` of `kernel_layout` OIHW16i16o needs 16"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 4, 56, 56, 16), float32]", "Tensor[(4, 2, 3, 3, 16, 16), float32]"],
            &nchw16c,
            Err("the weight has 32 input channels per group (axes 1 and 4, `I` and `16i` of OIHW16i16o), but the data's 64 input channels over `groups` = 1 give 64"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 2, 8, 8, 16), float32]", "Tensor[(20, 32, 3, 3), float32]"],
            &[("data_layout", string("NCHW16c"))],
            Err("`out_layout` NCHW16c packs C by 16, but the output's C is 20, not a multiple of 16"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, 8, 8), float32]", "_"],
            &with(packed("NCHW", "OIHW16i16o"), &[("channels", int(16)), ("kernel_size", ints(&[3, 3]))]),
            Err("`kernel_layout` OIHW16i16o packs I by 16, but the weight's I is 3, not a multiple of 16"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 3, h, 8), float32]", "Tensor[(4, 3, 3, 3), float32]"],
            &[("out_layout", string("NCHW2h"))],
            Err("`out_layout` NCHW2h packs H by 2, but the output's H is h - 2, not known to be a multiple of 2"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 1, 8, 8, 4, 8), float32]", "Tensor[(4, 32, 3, 3), float32]"],
            &[("data_layout", string("NCHW4c8c"))],
            Err("`data_layout` \"NCHW4c8c\" is not supported: it must order the axes of NCHW, each possibly packed by a factor"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(1, 1, 8, 8, 4), float32]", "Tensor[(4, 4, 3, 3), float32]"],
            &[("data_layout", string("NCHW4x"))],
            Err("`data_layout` \"NCHW4x\" is not supported: it must order the axes of NCHW, each possibly packed by a factor"),
        ),
    ]);
    // The weight inferred backward in the packed kernel layout.
    check_args(&[(
        "nn.conv2d",
        &["Tensor[(1, 4, 56, 56, 16), float32]", "_"],
        &nchw16c,
        "Tensor[(1, 4, 56, 56, 16), float32]",
        &[
            "Tensor[(1, 4, 56, 56, 16), float32]",
            "Tensor[(4, 4, 3, 3, 16, 16), float32]",
        ],
    )]);
    // Pools keep the packed axes (a packed H or W is refused, as in TVM).
    check(&[
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 7, 7, 16), float32]"],
            &[
                ("pool_size", ints(&[3, 3])),
                ("strides", ints(&[2, 2])),
                ("padding", ints(&[1, 1])),
                ("ceil_mode", boolean(true)),
                ("layout", string("NCHW16c")),
            ],
            Ok("Tensor[(1, 4, 4, 4, 16), float32]"),
        ),
        (
            "nn.avg_pool2d",
            &["Tensor[(2, 4, 8, 8, 4, 4), float32]"],
            &[
                ("pool_size", ints(&[2, 2])),
                ("strides", ints(&[2, 2])),
                ("layout", string("NCHW4n4c")),
            ],
            Ok("Tensor[(2, 4, 4, 4, 4, 4), float32]"),
        ),
        (
            "nn.global_avg_pool2d",
            &["Tensor[(n, 4, 7, 7, 16), float32]"],
            &[("layout", string("NCHW16c"))],
            Ok("Tensor[(n, 4, 1, 1, 16), float32]"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 8, 8, 8), float32]"],
            &[("pool_size", ints(&[2, 2])), ("layout", string("NCHW16c"))],
            Err("dimension 4 of the data is 8, but `16c` of `layout` NCHW16c needs 16"),
        ),
    ]);
}

#[test]
fn conv1d_and_conv3d_table() {
    check(&[
        (
            "nn.conv1d",
            &["Tensor[(1, 4, 10), float32]", "Tensor[(8, 4, 3), float32]"],
            &[("padding", ints(&[1]))],
            Ok("Tensor[(1, 8, 10), float32]"),
        ),
        (
            "nn.conv1d",
            &["Tensor[(1, 10, 4), float32]", "Tensor[(3, 4, 8), float32]"],
            &[
                ("data_layout", string("NWC")),
                ("kernel_layout", string("WIO")),
                ("strides", ints(&[3])),
            ],
            Ok("Tensor[(1, 3, 8), float32]"),
        ),
        (
            "nn.conv1d",
            &["Tensor[(n, 4, w), float32]", "Tensor[(8, 4, 3), float32]"],
            &[("strides", ints(&[2])), ("padding", ints(&[0, 1]))],
            Ok("Tensor[(n, 8, floordiv(w, 2)), float32]"),
        ),
        (
            "nn.conv1d",
            &["Tensor[(1, 4, ?), float32]", "Tensor[(8, 4, 3), float32]"],
            &[],
            Ok("Tensor[(1, 8, ?), float32]"),
        ),
        (
            "nn.conv1d",
            &["Tensor[(1, 4, 10), float32]", "Tensor[(8, 4, 3), float32]"],
            &[("strides", ints(&[1, 1]))],
            Err("`strides` must have 1 value, it has 2"),
        ),
        (
            "nn.conv3d",
            &[
                "Tensor[(1, 4, 8, 8, 8), float32]",
                "Tensor[(8, 4, 3, 3, 3), float32]",
            ],
            &[("padding", ints(&[1, 1, 1]))],
            Ok("Tensor[(1, 8, 8, 8, 8), float32]"),
        ),
        (
            "nn.conv3d",
            &[
                "Tensor[(1, 8, 8, 8, 4), float32]",
                "Tensor[(3, 3, 3, 4, 8), float32]",
            ],
            &[
                ("data_layout", string("NDHWC")),
                ("kernel_layout", string("DHWIO")),
                ("padding", ints(&[0, 0, 0, 1, 1, 1])),
            ],
            Ok("Tensor[(1, 7, 7, 7, 8), float32]"),
        ),
        (
            "nn.conv3d",
            &[
                "Tensor[(n, 4, d, 8, ?), float32]",
                "Tensor[(8, 4, 3, 3, 3), float32]",
            ],
            &[],
            Ok("Tensor[(n, 8, d - 2, 6, ?), float32]"),
        ),
        (
            "nn.conv3d",
            &[
                "Tensor[(1, 4, 8, 8, 8), float32]",
                "Tensor[(8, 4, 3, 3, 3), float32]",
            ],
            &[("data_layout", string("NCHW"))],
            Err("`data_layout` \"NCHW\" is not supported: it must order the axes of NCDHW, each possibly packed by a factor"),
        ),
    ]);
}

#[test]
fn conv_transpose_table() {
    check(&[
        (
            "nn.conv2d_transpose",
            &["Tensor[(1, 16, 8, 8), float32]", "Tensor[(16, 8, 3, 3), float32]"],
            &[("strides", ints(&[2, 2])), ("padding", ints(&[1, 1])), ("output_padding", ints(&[1, 1]))],
            Ok("Tensor[(1, 8, 16, 16), float32]"),
        ),
        (
            "nn.conv2d_transpose",
            &["Tensor[(n, 16, h, 8), float32]", "Tensor[(16, 8, 3, 3), float32]"],
            &[("strides", ints(&[2, 2]))],
            Ok("Tensor[(n, 8, 2*h + 1, 17), float32]"),
        ),
        (
            "nn.conv2d_transpose",
            &["Tensor[(1, 16, ?, 8), float32]", "Tensor[(16, 8, 3, 3), float32]"],
            &[("groups", int(2))],
            Ok("Tensor[(1, 16, ?, 10), float32]"),
        ),
        (
            "nn.conv2d_transpose",
            &["Tensor[(1, 16, 8, 8), float32]", "Tensor[(8, 8, 3, 3), float32]"],
            &[],
            Err("the weight has 8 input channels (axis 0, `I` of IOHW), but the data has 16"),
        ),
        (
            "nn.conv2d_transpose",
            &["Tensor[(1, 16, 8, 8), float32]", "Tensor[(16, 8, 3, 3), float32]"],
            &[("channels", int(6)), ("groups", int(4))],
            Err("`channels` = 6 is not divisible by `groups` = 4"),
        ),
        (
            "nn.conv1d_transpose",
            &["Tensor[(1, 8, 10), float32]", "Tensor[(8, 4, 3), float32]"],
            &[("strides", ints(&[2]))],
            Ok("Tensor[(1, 4, 21), float32]"),
        ),
        (
            "nn.conv1d_transpose",
            &["Tensor[(n, 8, w), float32]", "Tensor[(8, 4, 3), float32]"],
            &[("dilation", ints(&[2])), ("padding", ints(&[1]))],
            Ok("Tensor[(n, 4, w + 2), float32]"),
        ),
        (
            "nn.conv1d_transpose",
            &["Tensor[(1, 8, ?), float32]", "Tensor[(8, 4, 3), float32]"],
            &[],
            Ok("Tensor[(1, 4, ?), float32]"),
        ),
        (
            "nn.conv1d_transpose",
            &["Tensor[(1, 8, 10), float32]", "Tensor[(8, 4, 3), float32]"],
            &[("channels", int(5))],
            Err("the weight has 4 output channels per group (axis 1, `O` of IOW), but `channels` = 5 over `groups` = 1 give 5"),
        ),
        // conv1d_transpose's canonical kernel layout is IOW (its default); OIW swaps them.
        (
            "nn.conv1d_transpose",
            &["Tensor[(1, 8, 10), float32]", "Tensor[(4, 8, 3), float32]"],
            &[("kernel_layout", string("OIW"))],
            Ok("Tensor[(1, 4, 12), float32]"),
        ),
        (
            "nn.conv3d_transpose",
            &["Tensor[(1, 8, 4, 4, 4), float32]", "Tensor[(8, 4, 3, 3, 3), float32]"],
            &[("strides", ints(&[2, 2, 2])), ("output_padding", ints(&[1, 0, 0]))],
            Ok("Tensor[(1, 4, 10, 9, 9), float32]"),
        ),
        (
            "nn.conv3d_transpose",
            &["Tensor[(n, 8, d, ?, 4), float32]", "Tensor[(8, 4, 3, 3, 3), float32]"],
            &[],
            Ok("Tensor[(n, 4, d + 2, ?, 6), float32]"),
        ),
        (
            "nn.conv3d_transpose",
            &["Tensor[(1, 8, 4, 4, 4), float32]", "Tensor[(8, 4, 3, 3, 3), float32]"],
            &[("kernel_size", ints(&[3, 3]))],
            Err("`kernel_size` must have 3 values, it has 2"),
        ),
    ]);
}

/// conv2d's output size against the direct formula, on every combination of small sizes,
/// kernels, strides, dilations and paddings.
#[test]
fn conv2d_output_size_matches_the_formula() {
    let mut checked = 0;
    for h in 1..=7i64 {
        for k in 1..=3i64 {
            for stride in 1..=3i64 {
                for dil in 1..=2i64 {
                    for (pt, pb) in [(0i64, 0i64), (1, 0), (1, 1), (2, 1)] {
                        let w = 5i64;
                        let data = format!("Tensor[(2, 3, {h}, {w}), float32]");
                        let got = infer(
                            "nn.conv2d",
                            &[&data, "_"],
                            &[
                                ("channels", int(4)),
                                ("kernel_size", ints(&[k, 1])),
                                ("strides", ints(&[stride, 1])),
                                ("dilation", ints(&[dil, 1])),
                                ("padding", ints(&[pt, 0, pb, 0])),
                            ],
                        );
                        let want = conv_out(h, pt + pb, k, stride, dil)
                            .map(|out| format!("Tensor[(2, 4, {out}, {w}), float32]"))
                            .map_err(|_| {
                                conv_empty_message("nn.conv2d", "H", h, pt + pb, k, stride, dil)
                            });
                        assert_eq!(
                            got, want,
                            "h={h} k={k} stride={stride} dil={dil} pad=({pt}, {pb})"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert_eq!(checked, 7 * 3 * 3 * 2 * 4);
}

#[test]
fn pool_table() {
    check(&[
        (
            "nn.max_pool2d",
            &["Tensor[(1, 64, 112, 112), float32]"],
            &[("pool_size", ints(&[3, 3])), ("strides", ints(&[2, 2])), ("padding", ints(&[1, 1]))],
            Ok("Tensor[(1, 64, 56, 56), float32]"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 6, 6), float32]"],
            &[("pool_size", ints(&[3, 3])), ("strides", ints(&[2, 2])), ("ceil_mode", boolean(true))],
            Ok("Tensor[(1, 4, 3, 3), float32]"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 6, 6), float32]"],
            &[("pool_size", ints(&[3, 3])), ("strides", ints(&[2, 2]))],
            Ok("Tensor[(1, 4, 2, 2), float32]"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 8, 8, 16), float32]"],
            &[("pool_size", ints(&[2, 2])), ("strides", ints(&[2, 2])), ("layout", string("NCHW16c"))],
            Ok("Tensor[(1, 4, 4, 4, 16), float32]"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 9, 9, 4), float32]"],
            &[("pool_size", ints(&[2, 2])), ("dilation", ints(&[2, 2])), ("layout", string("NHWC")), ("out_layout", string("NCHW"))],
            Ok("Tensor[(1, 4, 7, 7), float32]"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(n, 4, h, ?), float32]"],
            &[("pool_size", ints(&[2, 2])), ("strides", ints(&[2, 2]))],
            Ok("Tensor[(n, 4, floordiv(h, 2), ?), float32]"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 6), float32]"],
            &[("pool_size", ints(&[1, 1]))],
            Err("`nn.max_pool2d` expects data of rank 4 (layout NCHW), found `Tensor[(1, 4, 6), float32]`"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 6, 6), float32]"],
            &[("pool_size", ints(&[1, 1])), ("layout", string("NCHW4h"))],
            Err("`nn.max_pool2d` does not support a split H axis (`layout` \"NCHW4h\")"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 6, 6), float32]"],
            &[("pool_size", ints(&[1, 1])), ("layout", string("NCDW"))],
            Err("`layout` \"NCDW\" of `nn.max_pool2d` has no axis H"),
        ),
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 2, 6), float32]"],
            &[("pool_size", ints(&[3, 3]))],
            Err("the output of `nn.max_pool2d` would be empty along H: its size is 0 (data 2, padding 0, dilated window 3, stride 1)"),
        ),
        ("nn.max_pool2d", &["_"], &[("pool_size", ints(&[2, 2]))], Err("waiting: MaxPool2D")),
        // `pool_size` has no default (none in TVM's C++; the Python API's (1, 1) is not one).
        (
            "nn.max_pool2d",
            &["Tensor[(1, 4, 6, 6), float32]"],
            &[("strides", ints(&[2, 2]))],
            Err("`nn.max_pool2d` needs attribute `pool_size` of type `[int]`"),
        ),
        (
            "nn.avg_pool2d",
            &["Tensor[(1, 32, 32, 16), float32]"],
            &[("pool_size", ints(&[2, 2])), ("strides", ints(&[2, 2])), ("layout", string("NHWC")), ("count_include_pad", boolean(true))],
            Ok("Tensor[(1, 16, 16, 16), float32]"),
        ),
        (
            "nn.avg_pool2d",
            &["Tensor[(n, 3, h, w), float32]"],
            &[("pool_size", ints(&[3, 3])), ("padding", ints(&[1, 1]))],
            Ok("Tensor[(n, 3, h, w), float32]"),
        ),
        (
            "nn.avg_pool2d",
            &["Tensor[(?, 3, 7, 7), float32]"],
            &[("pool_size", ints(&[7, 7]))],
            Ok("Tensor[(?, 3, 1, 1), float32]"),
        ),
        (
            "nn.avg_pool2d",
            &["Tensor[(1, 3, 7, 7), float32]"],
            &[("pool_size", ints(&[0, 1]))],
            Err("`pool_size` must be at least 1, found 0"),
        ),
        (
            "nn.max_pool1d",
            &["Tensor[(1, 4, 9), float32]"],
            &[("pool_size", ints(&[2])), ("strides", ints(&[2]))],
            Ok("Tensor[(1, 4, 4), float32]"),
        ),
        (
            "nn.max_pool1d",
            &["Tensor[(n, w, 4), float32]"],
            &[("pool_size", ints(&[2])), ("strides", ints(&[2])), ("ceil_mode", boolean(true)), ("layout", string("NWC"))],
            Ok("Tensor[(n, floordiv(w + 1, 2), 4), float32]"),
        ),
        (
            "nn.max_pool1d",
            &["Tensor[(?, 4, ?), float32]"],
            &[("pool_size", ints(&[2]))],
            Ok("Tensor[(?, 4, ?), float32]"),
        ),
        (
            "nn.max_pool1d",
            &["Tensor[(1, 4, 9), float32]"],
            &[("pool_size", ints(&[1])), ("padding", ints(&[1, 1, 1]))],
            Err("`padding` must have 1 or 2 values, it has 3"),
        ),
        (
            "nn.avg_pool1d",
            &["Tensor[(1, 4, 10), float32]"],
            &[("pool_size", ints(&[3])), ("strides", ints(&[2])), ("ceil_mode", boolean(true))],
            Ok("Tensor[(1, 4, 5), float32]"),
        ),
        (
            "nn.avg_pool1d",
            &["Tensor[(n, 4, w), float32]"],
            &[("pool_size", ints(&[3])), ("padding", ints(&[1, 0]))],
            Ok("Tensor[(n, 4, w - 1), float32]"),
        ),
        (
            "nn.avg_pool1d",
            &["Tensor[(1, ?, 10), float32]"],
            &[("pool_size", ints(&[10]))],
            Ok("Tensor[(1, ?, 1), float32]"),
        ),
        (
            "nn.avg_pool1d",
            &["Tensor[(1, 4, 10), float32]"],
            &[("pool_size", ints(&[1])), ("out_layout", string("NCHW"))],
            Err("`out_layout` \"NCHW\" is not supported: it must order the axes of `layout` \"NCW\""),
        ),
        (
            "nn.max_pool3d",
            &["Tensor[(1, 4, 8, 8, 8), float32]"],
            &[("pool_size", ints(&[2, 2, 2])), ("strides", ints(&[2, 2, 2]))],
            Ok("Tensor[(1, 4, 4, 4, 4), float32]"),
        ),
        (
            "nn.max_pool3d",
            &["Tensor[(n, d, 8, ?, 4), float32]"],
            &[("pool_size", ints(&[3, 3, 3])), ("layout", string("NDHWC"))],
            Ok("Tensor[(n, d - 2, 6, ?, 4), float32]"),
        ),
        (
            "nn.max_pool3d",
            &["Tensor[(1, 4, 8, 8), float32]"],
            &[("pool_size", ints(&[1, 1, 1]))],
            Err("`nn.max_pool3d` expects data of rank 5 (layout NCDHW), found `Tensor[(1, 4, 8, 8), float32]`"),
        ),
        (
            "nn.avg_pool3d",
            &["Tensor[(1, 4, 8, 8, 8), float32]"],
            &[("pool_size", ints(&[2])), ("padding", ints(&[1]))],
            Ok("Tensor[(1, 4, 9, 9, 9), float32]"),
        ),
        (
            "nn.avg_pool3d",
            &["Tensor[(n, 4, d, h, ?), float32]"],
            &[("pool_size", ints(&[2, 2, 2])), ("strides", ints(&[2, 2, 2])), ("ceil_mode", boolean(true))],
            Ok("Tensor[(n, 4, floordiv(d + 1, 2), floordiv(h + 1, 2), ?), float32]"),
        ),
        (
            "nn.avg_pool3d",
            &["Tensor[(1, 4, 8, 8, 8), float32]"],
            &[("pool_size", ints(&[1, 1, 1])), ("dilation", ints(&[1, 1]))],
            Err("`dilation` must have 3 values, it has 2"),
        ),
    ]);
}

#[test]
fn global_pool_table() {
    check(&[
        ("nn.global_avg_pool2d", &["Tensor[(1, 512, 7, 7), float32]"], &[], Ok("Tensor[(1, 512, 1, 1), float32]")),
        ("nn.global_avg_pool2d", &["Tensor[(n, c, h, w), float32]"], &[], Ok("Tensor[(n, c, 1, 1), float32]")),
        ("nn.global_avg_pool2d", &["Tensor[(?, 8, ?, ?), float16]"], &[], Ok("Tensor[(?, 8, 1, 1), float16]")),
        (
            "nn.global_avg_pool2d",
            &["Tensor[(1, 512, 7), float32]"],
            &[],
            Err("`nn.global_avg_pool2d` expects data of rank 4 (layout NCHW), found `Tensor[(1, 512, 7), float32]`"),
        ),
        ("nn.global_max_pool2d", &["Tensor[(1, 7, 7, 512), float32]"], &[("layout", string("NHWC"))], Ok("Tensor[(1, 1, 1, 512), float32]")),
        (
            "nn.global_max_pool2d",
            &["Tensor[(n, h, w, 8), float32]"],
            &[("layout", string("NHWC")), ("out_layout", string("NCHW"))],
            Ok("Tensor[(n, 8, 1, 1), float32]"),
        ),
        ("nn.global_max_pool2d", &["Tensor[(1, ?, 3, 3), float32]"], &[], Ok("Tensor[(1, ?, 1, 1), float32]")),
        (
            "nn.global_max_pool2d",
            &["Tensor[(1, 4, 3, 3), float32]"],
            &[("layout", string("NC"))],
            Err("`layout` \"NC\" of `nn.global_max_pool2d` has no axis H"),
        ),
    ]);
}

#[test]
fn batch_flatten_table() {
    check(&[
        (
            "nn.batch_flatten",
            &["Tensor[(4, 2, 3), float32]"],
            &[],
            Ok("Tensor[(4, 6), float32]"),
        ),
        (
            "nn.batch_flatten",
            &["Tensor[(n, 2, d, 3), float32]"],
            &[],
            Ok("Tensor[(n, 6*d), float32]"),
        ),
        (
            "nn.batch_flatten",
            &["Tensor[(2, ?, 3), float32]"],
            &[],
            Ok("Tensor[(2, ?), float32]"),
        ),
        (
            "nn.batch_flatten",
            &["Tensor[(7), int8]"],
            &[],
            Ok("Tensor[(7, 1), int8]"),
        ),
        ("nn.batch_flatten", &["_"], &[], Err("waiting: Flatten")),
        (
            "nn.batch_flatten",
            &["Tensor[(), float32]"],
            &[],
            Err("index 0 is out of range for a shape of rank 0"),
        ),
    ]);
}

#[test]
fn pad_table() {
    check(&[
        (
            "nn.pad",
            &["Tensor[(1, 3, 4, 4), float32]", "float32"],
            &[("pad_width", pairs(&[[0, 0], [0, 0], [1, 1], [2, 2]]))],
            Ok("Tensor[(1, 3, 6, 8), float32]"),
        ),
        (
            "nn.pad",
            &["Tensor[(n, h), float32]", "_"],
            &[
                ("pad_width", pairs(&[[0, 0], [1, 2]])),
                ("pad_mode", string("edge")),
            ],
            Ok("Tensor[(n, h + 3), float32]"),
        ),
        (
            "nn.pad",
            &["Tensor[(?, 5), int32]", "int32"],
            &[
                ("pad_width", pairs(&[[1, 1], [0, 1]])),
                ("pad_mode", string("reflect")),
            ],
            Ok("Tensor[(?, 6), int32]"),
        ),
        (
            "nn.pad",
            &["_", "float32"],
            &[("pad_width", pairs(&[[1, 1]]))],
            Err("waiting: Pad"),
        ),
        (
            "nn.pad",
            &["Tensor[(1, 3), float32]", "float32"],
            &[("pad_width", pairs(&[[1, 1]]))],
            Err("`pad_width` has 1 pairs but the data `Tensor[(1, 3), float32]` has rank 2"),
        ),
        // Negative widths crop (TVM's test_pad_run_dynamic_pad_value): down to 0, not below.
        (
            "nn.pad",
            &["Tensor[(4, 6, 3, 5), float32]", "float32"],
            &[
                ("pad_width", pairs(&[[-1, -1], [2, -2], [0, -3], [4, 4]])),
                ("pad_mode", string("reflect")),
            ],
            Ok("Tensor[(2, 6, 0, 13), float32]"),
        ),
        (
            "nn.pad",
            &["Tensor[(1, 3), float32]", "float32"],
            &[("pad_width", pairs(&[[1, 1], [0, -1]]))],
            Ok("Tensor[(3, 2), float32]"),
        ),
        (
            "nn.pad",
            &["Tensor[(n, ?), float32]", "float32"],
            &[("pad_width", pairs(&[[-1, 0], [-5, -5]]))],
            Ok("Tensor[(n - 1, ?), float32]"),
        ),
        (
            "nn.pad",
            &["Tensor[(4, 6, 3, 5), float32]", "float32"],
            &[("pad_width", pairs(&[[0, 0], [0, 0], [-2, -2], [0, 0]]))],
            Err("padding axis 2 gives it a negative size: 3 + -2 + -2 is -1"),
        ),
        // Checked arithmetic: no wrapping around.
        (
            "nn.pad",
            &["Tensor[(3), float32]", "float32"],
            &[("pad_width", pairs(&[[i64::MAX, i64::MAX]]))],
            Err("padding axis 0 overflows: 3 + 9223372036854775807 + 9223372036854775807 is beyond 64 bits"),
        ),
        (
            "nn.pad",
            &["Tensor[(3, 5), float32]", "float32"],
            &[("pad_width", pairs(&[[0, 0], [i64::MAX - 4, 0]]))],
            Err("padding axis 1 overflows: 5 + 9223372036854775803 + 0 is beyond 64 bits"),
        ),
        (
            "nn.pad",
            &["Tensor[(3), float32]", "float32"],
            &[("pad_width", pairs(&[[i64::MIN, i64::MIN]]))],
            Err("padding axis 0 overflows: 3 + -9223372036854775808 + -9223372036854775808 is beyond 64 bits"),
        ),
        (
            "nn.pad",
            &["Tensor[(1, 3), float32]", "Tensor[(2), float32]"],
            &[("pad_width", pairs(&[[1, 1], [0, 1]]))],
            Err("the pad value must be a scalar, found `Tensor[(2), float32]`"),
        ),
        (
            "nn.pad",
            &["Tensor[(1, 3), float32]", "float32"],
            &[
                ("pad_width", pairs(&[[1, 1], [0, 1]])),
                ("pad_mode", string("wrap")),
            ],
            Err("`pad_mode` must be \"constant\", \"edge\" or \"reflect\", found \"wrap\""),
        ),
        (
            "nn.pad",
            &["Tensor[(1, 3), float32]", "float32"],
            &[],
            Err("`nn.pad` needs attribute `pad_width` of type `[[int]]`"),
        ),
    ]);
}

#[test]
fn upsampling_table() {
    check(&[
        (
            "nn.upsampling",
            &["Tensor[(1, 3, 16, 16), float32]"],
            &[("scale_h", f(2.0)), ("scale_w", f(2.0))],
            Ok("Tensor[(1, 3, 32, 32), float32]"),
        ),
        ("nn.upsampling", &["Tensor[(1, 3, 5, 16), float32]"], &[("scale_h", f(1.5)), ("scale_w", int(3))], Ok("Tensor[(1, 3, 8, 48), float32]")),
        (
            "nn.upsampling",
            &["Tensor[(1, 16, 16, 3), float32]"],
            &[("scale_h", f(2.0)), ("scale_w", f(1.0)), ("layout", string("NHWC")), ("method", string("bilinear")), ("align_corners", boolean(true))],
            Ok("Tensor[(1, 32, 16, 3), float32]"),
        ),
        (
            "nn.upsampling",
            &["Tensor[(n, 3, h, w), float32]"],
            &[("scale_h", f(2.0)), ("scale_w", f(0.5))],
            Ok("Tensor[(n, 3, 2*h, floordiv(w + 1, 2)), float32]"),
        ),
        ("nn.upsampling", &["Tensor[(n, 3, h, ?), float32]"], &[("scale_h", f(0.1)), ("scale_w", int(1))], Ok("Tensor[(n, 3, ?, ?), float32]")),
        (
            "nn.upsampling",
            &["Tensor[(1, 3, 4, 4), float32]"],
            &[("scale_h", f(1.0)), ("scale_w", f(1.0)), ("method", string("area"))],
            Err("`method` of `nn.upsampling` must be \"nearest_neighbor\", \"bilinear\" or \"bicubic\", found \"area\""),
        ),
        (
            "nn.upsampling",
            &["Tensor[(1, 3, 4, 4), float32]"],
            &[("scale_h", f(1.0)), ("scale_w", f(0.0))],
            Err("`scale_w` must be positive, found 0.0"),
        ),
        // The scales have no default (none in TVM's C++; the Python API's 1 is not one).
        (
            "nn.upsampling",
            &["Tensor[(1, 3, 4, 4), float32]"],
            &[("scale_h", f(2.0))],
            Err("`nn.upsampling` needs attribute `scale_w` of type `float`"),
        ),
    ]);
}

#[test]
fn normalization_table() {
    check(&[
        (
            "nn.lrn",
            &["Tensor[(1, 8, 4, 4), float32]"],
            &[("size", int(3))],
            Ok("Tensor[(1, 8, 4, 4), float32]"),
        ),
        (
            "nn.lrn",
            &["Tensor[(n, c, h, w), float32]"],
            &[("axis", int(-1))],
            Ok("Tensor[(n, c, h, w), float32]"),
        ),
        (
            "nn.lrn",
            &["Tensor[(?, 8), float32]"],
            &[],
            Ok("Tensor[(?, 8), float32]"),
        ),
        (
            "nn.lrn",
            &["Tensor[(1, 8), float32]"],
            &[("axis", int(2))],
            Err("`axis` 2 is out of range for `Tensor[(1, 8), float32]` (rank 2)"),
        ),
        (
            "nn.lrn",
            &["Tensor[(1, 8), float32]"],
            &[("size", int(0))],
            Err("`size` must be at least 1"),
        ),
        (
            "nn.l2_normalize",
            &["Tensor[(2, 8), float32]"],
            &[("eps", f(1e-10)), ("axis", ints(&[1]))],
            Ok("Tensor[(2, 8), float32]"),
        ),
        (
            "nn.l2_normalize",
            &["Tensor[(n, h, ?), float16]"],
            &[("eps", f(1e-5))],
            Ok("Tensor[(n, h, ?), float16]"),
        ),
        (
            "nn.l2_normalize",
            &["Tensor[(2, 8), float32]"],
            &[],
            Err("`nn.l2_normalize` needs attribute `eps` of type `float`"),
        ),
        (
            "nn.l2_normalize",
            &["(float32, float32)"],
            &[("eps", f(1e-5))],
            Err("expected a tensor, found `(float32, float32)`"),
        ),
    ]);
}

/// No relation fails because an input is not known yet: it waits.
#[test]
fn every_relation_waits_for_unknown_data() {
    let w = "Tensor[(16, 3, 3, 3), float32]";
    check(&[
        (
            "nn.conv1d",
            &["_", "Tensor[(8, 4, 3), float32]"],
            &[],
            Err("waiting: Conv1D"),
        ),
        ("nn.conv2d", &["_", w], &[], Err("waiting: Conv2D")),
        ("nn.conv3d", &["_", "_"], &[], Err("waiting: Conv3D")),
        (
            "nn.conv1d_transpose",
            &["_", "_"],
            &[],
            Err("waiting: Conv1DTranspose"),
        ),
        (
            "nn.conv2d_transpose",
            &["Tensor[(1, 3, 4, 4), float32]", "_"],
            &[],
            Err("waiting: Conv2DTranspose"),
        ),
        (
            "nn.conv3d_transpose",
            &["_", "_"],
            &[],
            Err("waiting: Conv3DTranspose"),
        ),
        (
            "nn.max_pool1d",
            &["_"],
            &[("pool_size", ints(&[1]))],
            Err("waiting: MaxPool1D"),
        ),
        (
            "nn.max_pool3d",
            &["_"],
            &[("pool_size", ints(&[1, 1, 1]))],
            Err("waiting: MaxPool3D"),
        ),
        (
            "nn.avg_pool1d",
            &["_"],
            &[("pool_size", ints(&[1]))],
            Err("waiting: AvgPool1D"),
        ),
        (
            "nn.avg_pool2d",
            &["_"],
            &[("pool_size", ints(&[1, 1]))],
            Err("waiting: AvgPool2D"),
        ),
        (
            "nn.avg_pool3d",
            &["_"],
            &[("pool_size", ints(&[1, 1, 1]))],
            Err("waiting: AvgPool3D"),
        ),
        (
            "nn.global_avg_pool2d",
            &["_"],
            &[],
            Err("waiting: GlobalAvgPool2D"),
        ),
        (
            "nn.global_max_pool2d",
            &["_"],
            &[],
            Err("waiting: GlobalMaxPool2D"),
        ),
        (
            "nn.upsampling",
            &["_"],
            &[("scale_h", f(2.0)), ("scale_w", f(2.0))],
            Err("waiting: UpSampling"),
        ),
        ("nn.lrn", &["_"], &[], Err("waiting: Lrn")),
        (
            "nn.l2_normalize",
            &["_"],
            &[("eps", f(1e-5))],
            Err("waiting: L2Normalize"),
        ),
        // The pad value is not needed to type the result.
        (
            "nn.pad",
            &["Tensor[(2), float32]", "_"],
            &[("pad_width", pairs(&[[1, 0]]))],
            Ok("Tensor[(3), float32]"),
        ),
    ]);
}

/// A weight with `?` dimensions: a `?` channel count accepts the data's, a `?` kernel size
/// gives a `?` output size.
#[test]
fn conv_weights_with_any() {
    check(&[
        (
            "nn.conv2d",
            &[
                "Tensor[(1, 3, 8, 8), float32]",
                "Tensor[(?, ?, 3, ?), float32]",
            ],
            &[],
            Ok("Tensor[(1, ?, 6, ?), float32]"),
        ),
        (
            "nn.conv2d",
            &[
                "Tensor[(1, 3, 8, 8), float32]",
                "Tensor[(16, ?, 3, 3), float32]",
            ],
            &[("channels", int(16)), ("kernel_size", ints(&[3, 3]))],
            Ok("Tensor[(1, 16, 6, 6), float32]"),
        ),
        (
            "nn.conv2d_transpose",
            &[
                "Tensor[(1, 3, 8, 8), float32]",
                "Tensor[(?, 2, ?, 3), float32]",
            ],
            &[],
            Ok("Tensor[(1, 2, ?, 10), float32]"),
        ),
    ]);
}

/// A symbolic kernel size (from the weight) gives a symbolic output size.
#[test]
fn conv_with_a_symbolic_kernel() {
    check(&[
        (
            "nn.conv2d",
            &["Tensor[(n, 3, h, w), float32]", "Tensor[(16, 3, k, k), float32]"],
            &[],
            Ok("Tensor[(n, 16, h - k + 1, w - k + 1), float32]"),
        ),
        (
            "nn.conv2d",
            &["Tensor[(n, 3, h, w), float32]", "Tensor[(16, 3, k, k), float32]"],
            &[("kernel_size", ints(&[3, 3]))],
            Err("the weight has k as kernel size along H (axis 2, `H` of OIHW), but `kernel_size[0]` is 3"),
        ),
        (
            "nn.conv1d_transpose",
            &["Tensor[(n, 8, w), float32]", "Tensor[(8, 4, k), float32]"],
            &[("strides", ints(&[2]))],
            Ok("Tensor[(n, 4, k + 2*w - 2), float32]"),
        ),
    ]);
}

/// Pooling's output size against the direct formula, with and without `ceil_mode`.
#[test]
fn pool2d_output_size_matches_the_formula() {
    for h in 1..=8i64 {
        for p in 1..=3i64 {
            for stride in 1..=3i64 {
                for dil in 1..=2i64 {
                    for pad in 0..=1i64 {
                        for ceil in [false, true] {
                            let got = infer(
                                "nn.max_pool2d",
                                &[&format!("Tensor[(1, 2, {h}, 4), float32]")],
                                &[
                                    ("pool_size", ints(&[p, 1])),
                                    ("strides", ints(&[stride, 1])),
                                    ("dilation", ints(&[dil, 1])),
                                    ("padding", ints(&[pad, 0])),
                                    ("ceil_mode", boolean(ceil)),
                                ],
                            );
                            let window = (p - 1) * dil + 1;
                            let num = h + 2 * pad - window + if ceil { stride - 1 } else { 0 };
                            let size = num.div_euclid(stride) + 1;
                            if size >= 1 {
                                let want = format!("Tensor[(1, 2, {size}, 4), float32]");
                                assert_eq!(
                                    got,
                                    Ok(want),
                                    "h={h} p={p} s={stride} d={dil} pad={pad} ceil={ceil}"
                                );
                            } else {
                                assert!(
                                    got.as_ref()
                                        .is_err_and(|e| e.contains("would be empty along H")),
                                    "h={h} p={p} s={stride} d={dil} pad={pad} ceil={ceil}: {got:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Huge attributes are errors, never overflows.
#[test]
fn huge_attributes_are_errors() {
    let x = "Tensor[(1, 3, 8, 8), float32]";
    check(&[
        (
            "nn.conv2d",
            &[x, "Tensor[(4, 3, 3, 3), float32]"],
            &[("padding", ints(&[i64::MAX]))],
            Err("`padding` is too large"),
        ),
        (
            "nn.conv2d_transpose",
            &[x, "Tensor[(3, 3, 3, 3), float32]"],
            &[("output_padding", ints(&[i64::MIN + 1, 0]))],
            Err("`output_padding` must be at least 0, found -9223372036854775807"),
        ),
        (
            "nn.max_pool2d",
            &[x],
            &[
                ("pool_size", ints(&[i64::MAX, 1])),
                ("dilation", ints(&[2, 1])),
            ],
            Err("the attributes of `nn.max_pool2d` are too large"),
        ),
        (
            "nn.conv2d",
            &[x, "_"],
            &[
                ("channels", int(4)),
                ("kernel_size", ints(&[i64::MAX, 1])),
                ("dilation", ints(&[3, 1])),
            ],
            Err("dimension arithmetic overflows 64 bits"),
        ),
    ]);
}
