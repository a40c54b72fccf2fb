//! Layouts and the convolution variants: exact result types and errors, table-driven, for
//! every operator: static, symbolic (`n`) and `?` inputs, backward inference where the
//! relation assigns inputs (the packed convolutions' weights, the deformable
//! convolution's offset and weight), and error cases with their messages.

mod common;
use common::{check, check_args, int, ints, string};
use relay_core::AttrValue;

fn lt(src: &str, dst: &str) -> Vec<(&'static str, AttrValue)> {
    vec![("src_layout", string(src)), ("dst_layout", string(dst))]
}

#[test]
fn layout_transform_table() {
    let op = "layout_transform";
    let a = lt("NCHW", "NCHW16c");
    let b = lt("NCHW16c", "NCHW");
    let c = lt("NCHW16c", "NCHW8c");
    let d = lt("NCHW8c", "NCHW16c");
    let e = lt("NCHW", "NCHW4c");
    let f = lt("NCHW", "NHWC");
    let g = lt("NC", "NC16n");
    let h = lt("OIHW", "OIHW2i8o4i");
    let i = lt("ABC", "CAB");
    let j = lt("NCHW", "NHWC16c");
    let k = lt("NCHW4c", "NHWC");
    check(&[
        (op, &["Tensor[(1, 32, 56, 56), float32]"], &a, Ok("Tensor[(1, 2, 56, 56, 16), float32]")),
        (op, &["Tensor[(1, 2, 56, 56, 16), float32]"], &b, Ok("Tensor[(1, 32, 56, 56), float32]")),
        (op, &["Tensor[(1, 2, 56, 56, 16), int8]"], &c, Ok("Tensor[(1, 4, 56, 56, 8), int8]")),
        // Not a multiple: rounded up, as TVM pads with zeros.
        (op, &["Tensor[(1, 3, 7, 7, 8), float32]"], &d, Ok("Tensor[(1, 2, 7, 7, 16), float32]")),
        (op, &["Tensor[(1, 3, 224, 224), float32]"], &e, Ok("Tensor[(1, 1, 224, 224, 4), float32]")),
        (op, &["Tensor[(48, 64), float32]"], &g, Ok("Tensor[(3, 64, 16), float32]")),
        // An axis packed twice, its factor the product.
        (op, &["Tensor[(64, 32, 3, 3), int8]"], &h, Ok("Tensor[(8, 4, 3, 3, 2, 8, 4), int8]")),
        (op, &["Tensor[(8, 4, 3, 3, 2, 8, 4), int8]"], &lt("OIHW2i8o4i", "OIHW"), Ok("Tensor[(64, 32, 3, 3), int8]")),
        // Any letters, any order.
        (op, &["Tensor[(2, 3, 4), float32]"], &i, Ok("Tensor[(4, 2, 3), float32]")),
        (op, &["Tensor[(1, 32, 8, 8), float32]"], &j, Ok("Tensor[(1, 8, 8, 2, 16), float32]")),
        // Symbolic.
        (op, &["Tensor[(n, 64, h, w), float32]"], &f, Ok("Tensor[(n, h, w, 64), float32]")),
        (op, &["Tensor[(n, 4*c, 7, 7), float32]"], &e, Ok("Tensor[(n, c, 7, 7, 4), float32]")),
        (op, &["Tensor[(n, c, 7, 7), float32]"], &e, Ok("Tensor[(n, floordiv(c + 3, 4), 7, 7, 4), float32]")),
        (op, &["Tensor[(n, 8, 7, 7, 4), float32]"], &k, Ok("Tensor[(n, 7, 7, 32), float32]")),
        // `?`.
        (op, &["Tensor[(?, ?, 7, 7), float32]"], &e, Ok("Tensor[(?, ?, 7, 7, 4), float32]")),
        (op, &["Tensor[(1, 2, 7, 7, ?), float32]"], &b, Ok("Tensor[(1, 32, 7, 7), float32]")),
        (op, &["_"], &a, Err("waiting: LayoutTransform")),
        // Errors.
        (op, &["Tensor[(1, 32, 56, 56), float32]"], &lt("NCHW", "NCH16c"), Err("`layout_transform` cannot convert from NCHW to NCH16c: their primal axes differ (NCHW and NCH)")),
        (op, &["Tensor[(1, 32, 56, 56), float32]"], &lt("NCHW", "NCHW4d"), Err("`dst_layout` \"NCHW4d\" is not a layout: its axis `d` has no primal axis `D`")),
        (op, &["Tensor[(1, 32, 56, 56), float32]"], &lt("NCHW", ""), Err("`dst_layout` \"\" is not a layout: it is empty")),
        (op, &["Tensor[(1, 32, 56), float32]"], &a, Err("`layout_transform` expects data of rank 4 (layout NCHW), found `Tensor[(1, 32, 56), float32]`")),
        (op, &["Tensor[(1, 2, 56, 56, 8), float32]"], &b, Err("dimension 4 of the data is 8, but `16c` of `src_layout` NCHW16c needs 16")),
    ]);
}

fn nchwc(data: &str, kernel: &str, out: &str) -> Vec<(&'static str, AttrValue)> {
    vec![
        ("padding", ints(&[1, 1, 1, 1])),
        ("channels", int(64)),
        ("kernel_size", ints(&[3, 3])),
        ("data_layout", string(data)),
        ("kernel_layout", string(kernel)),
        ("out_layout", string(out)),
    ]
}

#[test]
fn packed_convolutions_table() {
    let op = "nn.contrib_conv2d_NCHWc";
    let a = nchwc("NCHW8c", "OIHW8i16o", "NCHW16c");
    let mut int8 = nchwc("NCHW8c", "OIHW2i16o4i", "NCHW16c");
    int8[1] = ("channels", int(128));
    int8.push(("out_dtype", string("int32")));
    let from_weight = vec![
        ("data_layout", string("NCHW8c")),
        ("kernel_layout", string("OIHW8i8o")),
    ];
    check(&[
        (op, &["Tensor[(1, 4, 56, 56, 8), float32]", "Tensor[(4, 4, 3, 3, 8, 16), float32]"], &a, Ok("Tensor[(1, 4, 56, 56, 16), float32]")),
        // TVM's x86 int8 layout: I packed twice (2 and 4, 8 in all).
        (op, &["Tensor[(1, 8, 28, 28, 8), int8]", "Tensor[(8, 8, 3, 3, 2, 16, 4), int8]"], &int8, Ok("Tensor[(1, 8, 28, 28, 16), int32]")),
        (op, &["Tensor[(n, 4, 56, 56, 8), float32]", "Tensor[(4, 4, 3, 3, 8, 16), float32]"], &a, Ok("Tensor[(n, 4, 56, 56, 16), float32]")),
        (op, &["Tensor[(1, 4, ?, w, 8), float32]", "Tensor[(4, 4, 3, 3, 8, 16), float32]"], &a, Ok("Tensor[(1, 4, ?, w, 16), float32]")),
        // Without `channels` and `kernel_size` (TVM's relation crashes): from the weight.
        (op, &["Tensor[(1, 4, 10, 10, 8), float32]", "Tensor[(2, 4, 3, 3, 8, 8), float32]"], &from_weight, Ok("Tensor[(1, 2, 8, 8, 8), float32]")),
        (op, &["Tensor[(1, 4, 10, 10, 8), float32]", "_"], &from_weight, Err("waiting: Conv2DNCHWc")),
        (op, &["Tensor[(1, 4, 56, 56, 8), float32]", "Tensor[(4, 2, 3, 3, 8, 16), float32]"], &a, Err("the weight has 16 input channels per group (axes 1 and 4, `I` and `8i` of OIHW8i16o), but the data's 32 input channels over `groups` = 1 give 32")),
        (op, &["Tensor[(1, 32, 56, 56), float32]", "_"], &a, Err("`nn.contrib_conv2d_NCHWc` expects data of rank 5 (layout NCHW8c), found `Tensor[(1, 32, 56, 56), float32]`")),
        (op, &["Tensor[(1, 4, 56, 56, 4), float32]", "_"], &a, Err("dimension 4 of the data is 4, but `8c` of `data_layout` NCHW8c needs 8")),
    ]);
    let dw = "nn.contrib_depthwise_conv2d_NCHWc";
    let mut d = nchwc("NCHW8c", "OIHW1i8o", "NCHW8c");
    d[1] = ("channels", int(32));
    d.push(("groups", int(32)));
    check(&[
        (dw, &["Tensor[(1, 4, 28, 28, 8), float32]", "Tensor[(4, 1, 3, 3, 1, 8), float32]"], &d, Ok("Tensor[(1, 4, 28, 28, 8), float32]")),
        (dw, &["Tensor[(n, 4, h, 28, 8), float32]", "Tensor[(4, 1, 3, 3, 1, 8), float32]"], &d, Ok("Tensor[(n, 4, h, 28, 8), float32]")),
        (dw, &["Tensor[(1, 4, 28, 28, 8), float32]", "Tensor[(4, 2, 3, 3, 1, 8), float32]"], &d, Err("the weight has 2 input channels per group (axes 1 and 4, `I` and `1i` of OIHW1i8o), but `channels` over the data's channels give 1")),
    ]);
    // Backward inference: the weight from `channels` and `kernel_size`, in its layout.
    check_args(&[
        (
            op,
            &["Tensor[(1, 4, 56, 56, 8), float32]", "_"],
            &a,
            "Tensor[(1, 4, 56, 56, 16), float32]",
            &[
                "Tensor[(1, 4, 56, 56, 8), float32]",
                "Tensor[(4, 4, 3, 3, 8, 16), float32]",
            ],
        ),
        (
            op,
            &["Tensor[(1, 8, 28, 28, 8), int8]", "_"],
            &int8,
            "Tensor[(1, 8, 28, 28, 16), int32]",
            &[
                "Tensor[(1, 8, 28, 28, 8), int8]",
                "Tensor[(8, 8, 3, 3, 2, 16, 4), int8]",
            ],
        ),
        (
            dw,
            &["Tensor[(1, 4, 28, 28, 8), float32]", "_"],
            &d,
            "Tensor[(1, 4, 28, 28, 8), float32]",
            &[
                "Tensor[(1, 4, 28, 28, 8), float32]",
                "Tensor[(4, 1, 3, 3, 1, 8), float32]",
            ],
        ),
    ]);
}

#[test]
fn dense_pack_table() {
    let op = "nn.contrib_dense_pack";
    let l = |s: &str| vec![("weight_layout", string(s))];
    let n16 = l("NC16n");
    let mut units = n16.clone();
    units.push(("units", int(32)));
    let mut int32 = l("NC16n4c");
    int32.push(("out_dtype", string("int32")));
    check(&[
        (op, &["Tensor[(4, 64), float32]", "Tensor[(3, 64, 16), float32]"], &n16, Ok("Tensor[(4, 48), float32]")),
        (op, &["Tensor[(n, 64), uint8]", "Tensor[(2, 16, 16, 4), int8]"], &int32, Ok("Tensor[(n, 32), int32]")),
        (op, &["Tensor[(?, k), float32]", "Tensor[(3, k, 16), float32]"], &n16, Ok("Tensor[(?, 48), float32]")),
        (op, &["Tensor[(4, 64), float32]", "Tensor[(?, 64, 16), float32]"], &n16, Ok("Tensor[(4, ?), float32]")),
        (op, &["Tensor[(4, 64), float32]", "_"], &n16, Err("waiting: DensePack")),
        (op, &["Tensor[(4, 64), float32]", "Tensor[(3, 64, 16), float32]"], &units, Err("`units` is 32 but the weight of `nn.contrib_dense_pack` has 48 (axes 0 and 2, `N` and `16n` of NC16n)")),
        (op, &["Tensor[(4, 32), float32]", "Tensor[(3, 64, 16), float32]"], &n16, Err("the contraction dimensions of `nn.contrib_dense_pack` differ: the data has 32 and the weight 64 (axis 1, `C` of NC16n)")),
        (op, &["Tensor[(2, 4, 64), float32]", "Tensor[(3, 64, 16), float32]"], &n16, Err("the data of `nn.contrib_dense_pack` must be 2-D, found `Tensor[(2, 4, 64), float32]`")),
        (op, &["Tensor[(4, 64), float32]", "Tensor[(48, 64), float32]"], &n16, Err("`nn.contrib_dense_pack` expects a weight of rank 3 (layout NC16n), found `Tensor[(48, 64), float32]`")),
        (op, &["Tensor[(4, 64), float32]", "Tensor[(3, 64, 8), float32]"], &n16, Err("dimension 2 of the weight is 8, but `16n` of `weight_layout` NC16n needs 16")),
    ]);
}

#[test]
fn weight_transforms_table() {
    let w2 = "nn.contrib_conv2d_winograd_weight_transform";
    let w3 = "nn.contrib_conv3d_winograd_weight_transform";
    let nn = "nn.contrib_conv2d_winograd_nnpack_weight_transform";
    let gemm = "nn.contrib_conv2d_gemm_weight_transform";
    let tile = [("tile_size", int(4))];
    let algo = [("convolution_algorithm", int(2))];
    let algo16 = [
        ("convolution_algorithm", int(2)),
        ("out_dtype", string("float16")),
    ];
    let tiles = [("tile_N", int(4)), ("tile_K", int(16))];
    check(&[
        (w2, &["Tensor[(64, 32, 3, 3), float32]"], &tile, Ok("Tensor[(6, 6, 64, 32), float32]")),
        (w2, &["Tensor[(o, i, 3, 5), float32]"], &tile, Ok("Tensor[(6, 8, o, i), float32]")),
        (w2, &["Tensor[(64, 32, ?, 3), float32]"], &tile, Ok("Tensor[(?, 6, 64, 32), float32]")),
        (w2, &["_"], &tile, Err("waiting: Conv2DWinogradWeightTransform")),
        (w2, &["Tensor[(64, 32, 3), float32]"], &tile, Err("the weight of `nn.contrib_conv2d_winograd_weight_transform` must be 4-D (OIHW), found `Tensor[(64, 32, 3), float32]`")),
        (w2, &["Tensor[(64, 32, 3, 3), float32]"], &[("tile_size", int(0))], Err("`tile_size` must be at least 1, found 0")),
        (w3, &["Tensor[(64, 32, 3, 3, 3), float32]"], &tile, Ok("Tensor[(6, 6, 6, 64, 32), float32]")),
        (w3, &["Tensor[(64, 32, 1, 3, 3), float32]"], &tile, Ok("Tensor[(6, 6, 1, 64, 32), float32]")),
        (w3, &["Tensor[(o, 32, 8, 3, h), float32]"], &tile, Ok("Tensor[(6, h + 3, 8, o, 32), float32]")),
        (w3, &["Tensor[(64, 32, d, 3, 3), float32]"], &tile, Err("the kernel depth of `nn.contrib_conv3d_winograd_weight_transform` must be a constant, found d")),
        (w3, &["Tensor[(64, 32, ?, 3, 3), float32]"], &tile, Err("the kernel depth of `nn.contrib_conv3d_winograd_weight_transform` must be a constant, found ?")),
        (nn, &["Tensor[(64, 32, 3, 3), float32]"], &algo, Ok("Tensor[(64, 32, 8, 8), float32]")),
        (nn, &["Tensor[(o, ?, 3, 3), float32]"], &algo16, Ok("Tensor[(o, ?, 8, 8), float16]")),
        (nn, &["Tensor[(64, 32, 3, 3, 3), float32]"], &algo, Err("the weight of `nn.contrib_conv2d_winograd_nnpack_weight_transform` must be 4-D (OIHW), found `Tensor[(64, 32, 3, 3, 3), float32]`")),
        // K = 3 * 3 * 32 = 288 rows padded to 320 (a multiple of 4 * 16), N = 64 columns.
        (gemm, &["Tensor[(3, 3, 32, 64), int8]"], &tiles, Ok("Tensor[(16, 20, 4, 16), int8]")),
        (gemm, &["Tensor[(3, 3, 32, 64), float32]"], &tiles, Ok("Tensor[(16, 20, 16, 4), float32]")),
        (gemm, &["Tensor[(3, 3, 32, 62), uint8]"], &tiles, Ok("Tensor[(16, 20, 4, 16), uint8]")),
        (gemm, &["Tensor[(1, 1, 64, n), float32]"], &tiles, Ok("Tensor[(floordiv(n + 3, 4), 4, 16, 4), float32]")),
        (gemm, &["Tensor[(3, 3, 32), int8]"], &tiles, Err("the weight of `nn.contrib_conv2d_gemm_weight_transform` must be 4-D (HWIO), found `Tensor[(3, 3, 32), int8]`")),
        (gemm, &["Tensor[(3, 3, 32, 64), int8]"], &[("tile_N", int(0)), ("tile_K", int(16))], Err("`tile_N` must be at least 1, found 0")),
    ]);
}

#[test]
fn convolutions_without_their_weight_table() {
    let w2 = "nn.contrib_conv2d_winograd_without_weight_transform";
    let w3 = "nn.contrib_conv3d_winograd_without_weight_transform";
    let gemm = "nn.contrib_conv2d_gemm_without_weight_transform";
    let a2 = [
        ("tile_size", int(4)),
        ("padding", ints(&[1, 1, 1, 1])),
        ("channels", int(64)),
        ("kernel_size", ints(&[3, 3])),
    ];
    let strided = [
        ("tile_size", int(4)),
        ("strides", ints(&[2, 2])),
        ("channels", int(64)),
        ("kernel_size", ints(&[3, 3])),
        ("out_layout", string("NHWC")),
    ];
    let a3 = [
        ("tile_size", int(4)),
        ("padding", ints(&[1, 1, 1])),
        ("channels", int(64)),
        ("kernel_size", ints(&[3, 3, 3])),
    ];
    let g = [
        ("padding", ints(&[1, 1, 1, 1])),
        ("channels", int(64)),
        ("kernel_size", ints(&[3, 3])),
        ("data_layout", string("NHWC")),
        ("kernel_layout", string("HWIO")),
        ("out_dtype", string("int32")),
    ];
    let w = "Tensor[(6, 6, 64, 32), float32]";
    check(&[
        (w2, &["Tensor[(1, 32, 56, 56), float32]", w], &a2, Ok("Tensor[(1, 64, 56, 56), float32]")),
        (w2, &["Tensor[(n, 32, h, w), float32]", w], &a2, Ok("Tensor[(n, 64, h, w), float32]")),
        (w2, &["Tensor[(?, 32, 9, ?), float32]", w], &strided, Ok("Tensor[(?, 4, ?, 64), float32]")),
        // The weight is not read: the output does not wait for it.
        (w2, &["Tensor[(1, 32, 56, 56), float32]", "_"], &a2, Ok("Tensor[(1, 64, 56, 56), float32]")),
        (w2, &["_", w], &a2, Err("waiting: Conv2DWinograd")),
        (w2, &["Tensor[(1, 32, 56, 56), float32]", w], &[("tile_size", int(4)), ("kernel_size", ints(&[3, 3]))], Err("`nn.contrib_conv2d_winograd_without_weight_transform` needs `channels`: its weight is not read (TVM's relation requires it too)")),
        (w2, &["Tensor[(1, 32, 56, 56), float32]", w], &[("tile_size", int(4)), ("channels", int(64))], Err("`nn.contrib_conv2d_winograd_without_weight_transform` needs `kernel_size`: its weight is not read (TVM's relation requires it too)")),
        (w2, &["Tensor[(1, 32, 2, 2), float32]", w], &[("tile_size", int(4)), ("channels", int(64)), ("kernel_size", ints(&[3, 3]))], Err("the output of `nn.contrib_conv2d_winograd_without_weight_transform` would be empty along H: its size is 0 (data 2, padding 0, dilated kernel 3, stride 1)")),
        (w2, &["Tensor[(1, 32, 56, 56), float32]", "(float32,)"], &a2, Err("expected a tensor, found `(float32,)`")),
        (w3, &["Tensor[(1, 32, 8, 28, 28), float32]", "_"], &a3, Ok("Tensor[(1, 64, 8, 28, 28), float32]")),
        (w3, &["Tensor[(n, 32, d, ?, 28), float16]", "_"], &a3, Ok("Tensor[(n, 64, d, ?, 28), float16]")),
        (w3, &["Tensor[(1, 32, 28, 28), float32]", "_"], &a3, Err("`nn.contrib_conv3d_winograd_without_weight_transform` expects data of rank 5 (layout NCDHW), found `Tensor[(1, 32, 28, 28), float32]`")),
        (gemm, &["Tensor[(1, 56, 56, 32), int8]", "Tensor[(16, 20, 4, 16), int8]"], &g, Ok("Tensor[(1, 56, 56, 64), int32]")),
        (gemm, &["Tensor[(n, h, ?, 32), int8]", "_"], &g, Ok("Tensor[(n, h, ?, 64), int32]")),
        (gemm, &["Tensor[(1, 56, 56, 32), int8]", "_"], &[("channels", int(64)), ("kernel_size", ints(&[3, 3])), ("data_layout", string("NHWC")), ("kernel_layout", string("OIDHW"))], Err("`kernel_layout` \"OIDHW\" is not supported: it must order the axes of HWIO, each possibly packed by a factor")),
        // The kernel layout is read only to be checked: `HWOI4o` holds the axes of HWIO.
        (gemm, &["Tensor[(1, 56, 56, 32), int8]", "_"], &[("channels", int(64)), ("kernel_size", ints(&[3, 3])), ("data_layout", string("NHWC")), ("kernel_layout", string("HWOI4o"))], Ok("Tensor[(1, 54, 54, 64), int8]")),
    ]);
    let bs = "nn.bitserial_conv2d";
    let b = [
        ("padding", ints(&[1, 1])),
        ("channels", int(32)),
        ("kernel_size", ints(&[3, 3])),
        ("pack_dtype", string("uint32")),
        ("out_dtype", string("int16")),
    ];
    let nhwc = [
        ("strides", ints(&[2, 2])),
        ("channels", int(32)),
        ("data_layout", string("NHWC")),
        ("kernel_layout", string("HWIO")),
    ];
    check(&[
        (bs, &["Tensor[(1, 64, 16, 16), int16]", "Tensor[(32, 64, 3, 3), int16]"], &b, Ok("Tensor[(1, 32, 16, 16), int16]")),
        // The default `kernel_size` is [3, 3]; an unset `out_dtype` is the data's.
        (bs, &["Tensor[(n, 17, 17, 64), int8]", "_"], &nhwc, Ok("Tensor[(n, 8, 8, 32), int8]")),
        (bs, &["Tensor[(1, ?, 16, 16), int16]", "_"], &b, Ok("Tensor[(1, 32, 16, 16), int16]")),
        (bs, &["Tensor[(1, 64, 16, 16), int16]", "_"], &[("kernel_size", ints(&[3, 3]))], Err("`nn.bitserial_conv2d` needs `channels`: its weight is not read (TVM's relation requires it too)")),
    ]);
}

#[test]
fn deformable_convolution_table() {
    let op = "nn.deformable_conv2d";
    let a = [
        ("padding", ints(&[1, 1])),
        ("channels", int(64)),
        ("kernel_size", ints(&[3, 3])),
    ];
    let dg = [
        ("strides", ints(&[2, 2])),
        ("deformable_groups", int(2)),
        ("groups", int(2)),
        ("kernel_size", ints(&[3, 3])),
    ];
    let x = "Tensor[(1, 32, 28, 28), float32]";
    let off = "Tensor[(1, 18, 28, 28), float32]";
    let w = "Tensor[(64, 32, 3, 3), float32]";
    check(&[
        (op, &[x, off, w], &a, Ok("Tensor[(1, 64, 28, 28), float32]")),
        (op, &["Tensor[(n, 32, h, 28), float32]", "_", w], &a, Ok("Tensor[(n, 64, h, 28), float32]")),
        (op, &["Tensor[(1, 32, ?, 28), float32]", "_", "_"], &a, Ok("Tensor[(1, 64, ?, 28), float32]")),
        // From the weight, grouped, two deformable groups.
        (op, &["Tensor[(1, 32, 9, 9), float32]", "_", "Tensor[(16, 16, 3, 3), float32]"], &dg, Ok("Tensor[(1, 16, 4, 4), float32]")),
        (op, &[x, "_", "_"], &[("kernel_size", ints(&[3, 3]))], Err("waiting: DeformableConv2D")),
        (op, &[x, off, "Tensor[(64, 16, 3, 3), float32]"], &a, Err("the weight has 16 input channels per group (axis 1, `I` of OIHW), but the data's 32 input channels over `groups` = 1 give 32")),
        (op, &[x, off, "Tensor[(64, 32, 5, 5), float32]"], &a, Err("the weight has 5 as kernel height (axis 2, `H` of OIHW), but `kernel_size[0]` is 3")),
        (op, &[x, "Tensor[(1, 9, 28, 28), float32]", w], &a, Err("the offset of `nn.deformable_conv2d` must be `Tensor[(1, 18, 28, 28), float32]` (two coordinates per kernel element and deformable group), found `Tensor[(1, 9, 28, 28), float32]`")),
        (op, &[x, off, w], &[("deformable_groups", int(0))], Err("`deformable_groups` must be at least 1, found 0")),
        (op, &["Tensor[(1, 30, 28, 28), float32]", "_", "_"], &[("groups", int(4))], Err("the data's 30 input channels are not divisible by `groups` = 4")),
    ]);
    check_args(&[
        (
            op,
            &[x, "_", "_"],
            &a,
            "Tensor[(1, 64, 28, 28), float32]",
            &[x, off, w],
        ),
        (
            op,
            &[
                "Tensor[(n, 32, 9, 9), float16]",
                "_",
                "Tensor[(16, 16, 3, 3), float16]",
            ],
            &dg,
            "Tensor[(n, 16, 4, 4), float16]",
            &[
                "Tensor[(n, 32, 9, 9), float16]",
                "Tensor[(n, 36, 4, 4), float16]",
                "Tensor[(16, 16, 3, 3), float16]",
            ],
        ),
    ]);
}

#[test]
fn backward_weight_table() {
    let op = "nn.conv2d_backward_weight";
    let a = [
        ("padding", ints(&[1, 1, 1, 1])),
        ("channels", int(16)),
        ("kernel_size", ints(&[3, 3])),
        ("kernel_layout", string("NCHW")),
        ("out_layout", string("OIHW")),
    ];
    let dw = [
        ("groups", int(8)),
        ("channels", int(8)),
        ("kernel_size", ints(&[3, 3])),
        ("kernel_layout", string("NCHW")),
    ];
    let nhwc = [
        ("kernel_size", ints(&[5, 5])),
        ("data_layout", string("NHWC")),
        ("kernel_layout", string("NHWC")),
        ("out_layout", string("HWIO")),
        ("out_dtype", string("float32")),
    ];
    check(&[
        (op, &["Tensor[(1, 16, 32, 32), float32]", "Tensor[(1, 8, 32, 32), float32]"], &a, Ok("Tensor[(16, 8, 3, 3), float32]")),
        (op, &["Tensor[(n, 16, h, w), float32]", "Tensor[(n, 8, h, w), float32]"], &a, Ok("Tensor[(16, 8, 3, 3), float32]")),
        (op, &["Tensor[(?, ?, 32, 32), float32]", "Tensor[(2, ?, 32, 32), float32]"], &a, Ok("Tensor[(16, ?, 3, 3), float32]")),
        // Depthwise: (channels, channels / groups, ...).
        (op, &["Tensor[(1, 8, 16, 16), float32]", "Tensor[(1, 8, 16, 16), float32]"], &dw, Ok("Tensor[(8, 1, 3, 3), float32]")),
        // `""` for the weight's layout is `OIHW`; other layouts, another dtype.
        (op, &["Tensor[(2, 12, 12, 4), float16]", "Tensor[(2, 16, 16, 3), float16]"], &nhwc, Ok("Tensor[(5, 5, 3, 4), float32]")),
        (op, &["Tensor[(1, 16, 32, 32), float32]", "_"], &a, Err("waiting: Conv2DBackwardWeight")),
        (op, &["Tensor[(1, 16, 32, 32), float32]", "Tensor[(1, 8, 32, 32), float32]"], &[("kernel_size", ints(&[3, 3]))], Err("`kernel_layout` \"OIHW\" is not supported: it must order the axes of NCHW, each possibly packed by a factor")),
        (op, &["Tensor[(1, 16, 32, 32), float32]", "Tensor[(1, 8, 32, 32), float32]"], &[("kernel_layout", string("NCHW"))], Err("`nn.conv2d_backward_weight` needs `kernel_size`")),
        (op, &["Tensor[(2, 16, 32, 32), float32]", "Tensor[(1, 8, 32, 32), float32]"], &a, Err("the batch of the data of `nn.conv2d_backward_weight` is 1, but the gradient's is 2")),
        (op, &["Tensor[(1, 8, 32, 32), float32]", "Tensor[(1, 8, 32, 32), float32]"], &a, Err("the gradient of `nn.conv2d_backward_weight` has 8 channels, but `channels` is 16")),
        (op, &["Tensor[(1, 8, 16, 16), float32]", "Tensor[(1, 8, 16, 16), float32]"], &[("groups", int(8)), ("kernel_size", ints(&[3, 3])), ("kernel_layout", string("NCHW"))], Err("`nn.conv2d_backward_weight` needs `channels` for a depthwise convolution")),
    ]);
}

#[test]
fn bitserial_table() {
    let bp = "nn.bitpack";
    let a = [
        ("bits", int(2)),
        ("pack_axis", int(1)),
        ("bit_axis", int(2)),
        ("pack_type", string("uint32")),
    ];
    let last = [("bits", int(2)), ("pack_type", string("uint32"))];
    let end = [
        ("bits", int(2)),
        ("bit_axis", int(4)),
        ("pack_axis", int(-3)),
        ("pack_type", string("uint8")),
    ];
    check(&[
        (bp, &["Tensor[(1, 64, 8, 8), int16]"], &a, Ok("Tensor[(1, 2, 2, 8, 8), uint32]")),
        // `bit_axis = -1` (the default) inserts before the last axis, as TVM's compute.
        (bp, &["Tensor[(1, 64, 8, 8), int16]"], &last, Ok("Tensor[(1, 2, 8, 2, 8), uint32]")),
        (bp, &["Tensor[(n, 64, h, w), int8]"], &end, Ok("Tensor[(n, 8, h, w, 2), uint8]")),
        (bp, &["Tensor[(n, ?, 8), int8]"], &a, Ok("Tensor[(n, ?, 2, 8), uint32]")),
        (bp, &["Tensor[(1, 64, 8, 8), int16]"], &[("bits", int(2))], Err("`pack_type` of `nn.bitpack` must be set: the bits are packed into it")),
        (bp, &["Tensor[(1, 64, 8, 8), int16]"], &[("pack_type", string("float32"))], Err("`pack_type` of `nn.bitpack` must be an integer type, found float32")),
        (bp, &["Tensor[(1, 48, 8, 8), int16]"], &a, Err("axis 1 of the data of `nn.bitpack` is 48, not a multiple of the 32 bits of `pack_type` uint32")),
        (bp, &["Tensor[(1, 64, 8, 8), int16]"], &[("pack_axis", int(4)), ("pack_type", string("uint32"))], Err("`pack_axis` 4 is out of range for `Tensor[(1, 64, 8, 8), int16]` (rank 4)")),
        (bp, &["Tensor[(1, 64, 8, 8), int16]"], &[("bit_axis", int(5)), ("pack_type", string("uint32"))], Err("`bit_axis` 5 is out of range for `Tensor[(1, 64, 8, 8), int16]` (from -4 to 4)")),
        (bp, &["Tensor[(1, 64, 8, 8), int16]"], &[("bits", int(0)), ("pack_type", string("uint32"))], Err("`bits` must be at least 1, found 0")),
    ]);
    let bd = "nn.bitserial_dense";
    let d = [
        ("units", int(16)),
        ("pack_dtype", string("uint32")),
        ("out_dtype", string("int16")),
    ];
    check(&[
        (
            bd,
            &["Tensor[(4, 64), int16]", "Tensor[(16, 64), int16]"],
            &d,
            Ok("Tensor[(4, 16), int16]"),
        ),
        (
            bd,
            &["Tensor[(n, ?, 64), int8]", "_"],
            &[("units", int(16))],
            Ok("Tensor[(n, ?, 16), int8]"),
        ),
        (
            bd,
            &["Tensor[(4, 64), int16]", "_"],
            &[],
            Err("`nn.bitserial_dense` needs `units`"),
        ),
        (
            bd,
            &["int16", "_"],
            &d,
            Err("the data of `nn.bitserial_dense` must be at least 1-D, found `int16`"),
        ),
    ]);
}

#[test]
fn correlation_and_dilate_table() {
    let c = "nn.correlation";
    let a = [("max_displacement", int(4)), ("padding", ints(&[4, 4]))];
    let strided = [
        ("kernel_size", int(3)),
        ("max_displacement", int(4)),
        ("stride1", int(2)),
        ("stride2", int(2)),
        ("padding", ints(&[4, 4, 4, 4])),
    ];
    let x = "Tensor[(1, 64, 32, 32), float32]";
    check(&[
        (c, &[x, x], &a, Ok("Tensor[(1, 81, 32, 32), float32]")),
        // border 5, D = 2 * 2 + 1, H' = ceil((32 + 8 - 10) / 2).
        (c, &[x, x], &strided, Ok("Tensor[(1, 25, 15, 15), float32]")),
        (c, &["Tensor[(n, 64, h, ?), float32]", "Tensor[(n, 64, h, ?), float32]"], &a, Ok("Tensor[(n, 81, h, ?), float32]")),
        (c, &[x, "_"], &a, Err("waiting: Correlation")),
        (c, &[x, "Tensor[(1, 64, 32, 16), float32]"], &a, Err("the two data of `nn.correlation` must have one shape, found `Tensor[(1, 64, 32, 32), float32]` and `Tensor[(1, 64, 32, 16), float32]`")),
        (c, &[x, x], &[("layout", string("NHWC"))], Err("`layout` of `nn.correlation` must be \"NCHW\"")),
        (c, &[x, x], &[("kernel_size", int(2))], Err("`kernel_size` must be a positive odd number, found 2")),
        (c, &[x, x], &[("padding", ints(&[1, 1, 1]))], Err("`padding` must have 1, 2 or 4 values, it has 3")),
        (c, &["Tensor[(1, 64, 4, 4), float32]", "Tensor[(1, 64, 4, 4), float32]"], &[("max_displacement", int(4))], Err("the output of `nn.correlation` would be empty along H: its size is -4")),
    ]);
    let d = "nn.dilate";
    check(&[
        (d, &["Tensor[(1, 4, 4, 3), float32]"], &[("strides", ints(&[1, 2, 2, 1]))], Ok("Tensor[(1, 7, 7, 3), float32]")),
        (d, &["Tensor[(n, 4), float32]"], &[("strides", ints(&[2, 3]))], Ok("Tensor[(2*n - 1, 10), float32]")),
        (d, &["Tensor[(?, 4), float32]"], &[], Ok("Tensor[(?, 4), float32]")),
        (d, &["Tensor[(1, 4, 4, 3), float32]"], &[], Err("`strides` of `nn.dilate` must have one value per axis of `Tensor[(1, 4, 4, 3), float32]`, it has 2")),
        (d, &["Tensor[(4, 4), float32]"], &[("strides", ints(&[0, 1]))], Err("`strides` must be at least 1, found 0")),
    ]);
}

/// An NCHWc convolution chain as TVM's x86 layout alteration prints it: the data and the
/// weight laid out in packed layouts, the packed convolution, and back to `NCHW`. Each
/// binding has the type TVM printed on it.
#[test]
fn an_nchwc_convolution_chain_as_tvm_prints_it() {
    let src = r#"#[version = "0.0.5"]
def @main(%data: Tensor[(1, 32, 56, 56), float32], %weight: Tensor[(64, 32, 3, 3), float32], %bias: Tensor[(64), float32]) -> Tensor[(1, 64, 56, 56), float32] {
  %0 = layout_transform(%data, src_layout="NCHW", dst_layout="NCHW8c") /* ty=Tensor[(1, 4, 56, 56, 8), float32] */;
  %1 = layout_transform(%weight, src_layout="OIHW", dst_layout="OIHW8i16o") /* ty=Tensor[(4, 4, 3, 3, 8, 16), float32] */;
  %2 = nn.contrib_conv2d_NCHWc(%0, %1, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3], data_layout="NCHW8c", kernel_layout="OIHW8i16o", out_layout="NCHW16c") /* ty=Tensor[(1, 4, 56, 56, 16), float32] */;
  %3 = reshape(%bias, newshape=[1, 4, 1, 1, 16]) /* ty=Tensor[(1, 4, 1, 1, 16), float32] */;
  %4 = add(%2, %3) /* ty=Tensor[(1, 4, 56, 56, 16), float32] */;
  %5 = nn.relu(%4) /* ty=Tensor[(1, 4, 56, 56, 16), float32] */;
  %6 = nn.contrib_depthwise_conv2d_NCHWc(%5, meta[relay.Constant][0] /* ty=Tensor[(4, 1, 3, 3, 1, 16), float32] */, padding=[1, 1, 1, 1], groups=64, channels=64, kernel_size=[3, 3], data_layout="NCHW16c", kernel_layout="OIHW1i16o", out_layout="NCHW16c") /* ty=Tensor[(1, 4, 56, 56, 16), float32] */;
  layout_transform(%6, src_layout="NCHW16c", dst_layout="NCHW") /* ty=Tensor[(1, 64, 56, 56), float32] */
}
"#;
    let (found, main) = common::bindings(src);
    assert_eq!(found, common::printed(src));
    assert_eq!(found.len(), 7);
    assert_eq!(
        main,
        "fn (Tensor[(1, 32, 56, 56), float32], Tensor[(64, 32, 3, 3), float32], Tensor[(64), float32]) -> Tensor[(1, 64, 56, 56), float32]"
    );
}
