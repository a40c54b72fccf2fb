//! The `image.*` operators: exact result types and errors, table-driven: static,
//! symbolic (`n`) and `?` inputs, layouts (packed ones too), and each error's message.

mod common;
use common::{check, ints, string};
use relay_core::AttrValue;

fn floats(v: &[f64]) -> AttrValue {
    AttrValue::List(v.iter().map(|&x| AttrValue::Float(x)).collect())
}

#[test]
fn resize_table() {
    let r1 = "image.resize1d";
    let r2 = "image.resize2d";
    let r3 = "image.resize3d";
    let s1 = [("size", ints(&[16])), ("roi", floats(&[0.0, 0.0]))];
    let s2 = [("size", ints(&[224, 224])), ("roi", floats(&[0.0; 4]))];
    let nhwc = [
        ("size", ints(&[64, 48])),
        ("layout", string("NHWC")),
        ("out_dtype", string("float16")),
    ];
    let packed = [("size", ints(&[14, 14])), ("layout", string("NCHW16c"))];
    let s3 = [("size", ints(&[8, 16, 16])), ("roi", floats(&[0.0; 6]))];
    check(&[
        (r1, &["Tensor[(1, 3, 8), float32]"], &s1, Ok("Tensor[(1, 3, 16), float32]")),
        (r1, &["Tensor[(n, 8, ?), float32]"], &[("size", ints(&[4])), ("layout", string("NWC"))], Ok("Tensor[(n, 4, ?), float32]")),
        (r2, &["Tensor[(1, 3, 112, 112), float32]"], &s2, Ok("Tensor[(1, 3, 224, 224), float32]")),
        (r2, &["Tensor[(n, h, w, 3), uint8]"], &nhwc, Ok("Tensor[(n, 64, 48, 3), float16]")),
        (r2, &["Tensor[(?, ?, ?, ?), float32]"], &s2, Ok("Tensor[(?, ?, 224, 224), float32]")),
        (r2, &["Tensor[(1, 4, 7, 7, 16), float32]"], &packed, Ok("Tensor[(1, 4, 14, 14, 16), float32]")),
        (r3, &["Tensor[(1, 3, 4, 8, 8), float32]"], &s3, Ok("Tensor[(1, 3, 8, 16, 16), float32]")),
        (r3, &["Tensor[(n, d, h, w, 2), float32]"], &[("size", ints(&[2, 3, 4])), ("layout", string("NDHWC"))], Ok("Tensor[(n, 2, 3, 4, 2), float32]")),
        (r2, &["_"], &s2, Err("waiting: Resize2D")),
        // Errors.
        (r2, &["Tensor[(1, 3, 112, 112), float32]"], &[], Err("`image.resize2d` needs `size` (TVM's relation crashes without it)")),
        (r2, &["Tensor[(1, 3, 112, 112), float32]"], &[("size", ints(&[224]))], Err("`size` of `image.resize2d` must have 2 values, it has 1")),
        (r1, &["Tensor[(1, 3, 8), float32]"], &[("size", ints(&[0]))], Err("`size` must be at least 1, found 0")),
        (r2, &["Tensor[(1, 3, 112, 112), float32]"], &[("size", ints(&[224, 224])), ("roi", floats(&[0.0, 0.0]))], Err("`roi` of `image.resize2d` must have 4 values, it has 2")),
        (r2, &["Tensor[(1, 3, 112), float32]"], &s2, Err("`image.resize2d` expects data of rank 4 (layout NCHW), found `Tensor[(1, 3, 112), float32]`")),
        (r2, &["Tensor[(1, 3, 112, 112), float32]"], &[("size", ints(&[224, 224])), ("layout", string("NCW"))], Err("`layout` \"NCW\" is not supported: it must order the axes of NCHW, each possibly packed by a factor")),
        (r2, &["Tensor[(1, 3, 112, 112, 4), float32]"], &[("size", ints(&[10, 10])), ("layout", string("NCHW4h"))], Err("`layout` NCHW4h packs H by 4, but the output's H is 10, not a multiple of 4")),
    ]);
}

#[test]
fn crop_and_resize_table() {
    let op = "image.crop_and_resize";
    let a = [("crop_size", ints(&[7, 7]))];
    let nhwc = [
        ("crop_size", ints(&[7, 5])),
        ("layout", string("NHWC")),
        ("out_dtype", string("float16")),
    ];
    check(&[
        (op, &["Tensor[(1, 256, 32, 32), float32]", "Tensor[(10, 4), float32]", "Tensor[(10), int32]"], &a, Ok("Tensor[(10, 256, 7, 7), float32]")),
        (op, &["Tensor[(n, h, w, 3), float32]", "Tensor[(b, 4), float32]", "Tensor[(b), int32]"], &nhwc, Ok("Tensor[(b, 7, 5, 3), float16]")),
        (op, &["Tensor[(?, 3, ?, ?), float32]", "Tensor[(?, 4), float32]", "Tensor[(?), int32]"], &a, Ok("Tensor[(?, 3, 7, 7), float32]")),
        (op, &["Tensor[(1, 256, 32, 32), float32]", "Tensor[(10, 4), float32]", "_"], &a, Err("waiting: CropAndResize")),
        (op, &["Tensor[(1, 256, 32, 32), float32]", "Tensor[(10, 5), float32]", "Tensor[(10), int32]"], &a, Err("the boxes of `image.crop_and_resize` must be (num_boxes, 4), found `Tensor[(10, 5), float32]`")),
        (op, &["Tensor[(1, 256, 32, 32), float32]", "Tensor[(10, 4), float32]", "Tensor[(9), int32]"], &a, Err("the box indices of `image.crop_and_resize` must be (10), one per box, found `Tensor[(9), int32]`")),
        (op, &["Tensor[(1, 256, 32, 32), float32]", "Tensor[(10, 4), float32]", "Tensor[(10), int32]"], &[], Err("`image.crop_and_resize` needs `crop_size` (TVM's relation crashes without it)")),
    ]);
}

#[test]
fn dilation2d_table() {
    let op = "image.dilation2d";
    let a = [("padding", ints(&[1, 1]))];
    let strided = [
        ("strides", ints(&[2, 2])),
        ("dilations", ints(&[2, 2])),
        ("data_layout", string("NHWC")),
        ("kernel_layout", string("HWI")),
        ("out_dtype", string("float16")),
    ];
    check(&[
        (op, &["Tensor[(1, 8, 16, 16), float32]", "Tensor[(8, 3, 3), float32]"], &a, Ok("Tensor[(1, 8, 16, 16), float32]")),
        // (17 - 5) / 2 + 1 = 7.
        (op, &["Tensor[(n, 17, 17, 4), float32]", "Tensor[(3, 3, 4), float32]"], &strided, Ok("Tensor[(n, 7, 7, 4), float16]")),
        (op, &["Tensor[(1, c, ?, w), float32]", "Tensor[(c, 3, 3), float32]"], &a, Ok("Tensor[(1, c, ?, w), float32]")),
        (op, &["Tensor[(1, 8, 16, 16), float32]", "_"], &a, Err("waiting: Dilation2D")),
        (op, &["Tensor[(1, 8, 16, 16), float32]", "Tensor[(4, 3, 3), float32]"], &a, Err("the weight of `image.dilation2d` has 4 channels (axis 0, `I` of IHW), but the data has 8")),
        (op, &["Tensor[(1, 8, 16, 16), float32]", "Tensor[(8, 3, 3, 1), float32]"], &a, Err("`image.dilation2d` expects a weight of rank 3 (layout IHW), found `Tensor[(8, 3, 3, 1), float32]`")),
        (op, &["Tensor[(1, 8, 2, 2), float32]", "Tensor[(8, 3, 3), float32]"], &[], Err("the output of `image.dilation2d` would be empty along H: its size is 0 (data 2, padding 0, dilated kernel 3, stride 1)")),
    ]);
}

#[test]
fn sampling_grids_table() {
    let ag = "image.affine_grid";
    let gs = "image.grid_sample";
    let target = [("target_shape", ints(&[16, 32]))];
    check(&[
        (ag, &["Tensor[(4, 2, 3), float32]"], &target, Ok("Tensor[(4, 2, 16, 32), float32]")),
        (ag, &["Tensor[(n, 2, 3), float32]"], &target, Ok("Tensor[(n, 2, 16, 32), float32]")),
        (ag, &["Tensor[(?, ?, 3), float32]"], &target, Ok("Tensor[(?, 2, 16, 32), float32]")),
        (ag, &["Tensor[(4, 3, 3), float32]"], &target, Err("the data of `image.affine_grid` must be affine matrices (batch, 2, 3), found `Tensor[(4, 3, 3), float32]`")),
        (ag, &["Tensor[(4, 2, 3), float32]"], &[("target_shape", ints(&[16]))], Err("`target_shape` of `image.affine_grid` must have 2 values, it has 1")),
        (gs, &["Tensor[(1, 4, 16, 16), float32]", "Tensor[(1, 2, 8, 8), float32]"], &[], Ok("Tensor[(1, 4, 8, 8), float32]")),
        (gs, &["Tensor[(n, c, h, w), float32]", "Tensor[(n, 2, 7, ?), float32]"], &[], Ok("Tensor[(n, c, 7, ?), float32]")),
        (gs, &["Tensor[(n, 4, 8, 8, 8), float32]", "Tensor[(n, 3, 2, 4, 6), float32]"], &[("layout", string("NCDHW"))], Ok("Tensor[(n, 4, 2, 4, 6), float32]")),
        (gs, &["Tensor[(1, 16, 16, 4), float32]", "Tensor[(1, 2, 8, 8), float32]"], &[("layout", string("NHWC"))], Ok("Tensor[(1, 8, 8, 4), float32]")),
        (gs, &["Tensor[(1, 4, 16, 16), float32]", "_"], &[], Err("waiting: GridSample")),
        (gs, &["Tensor[(1, 4, 16, 16), float32]", "Tensor[(2, 2, 8, 8), float32]"], &[], Err("the grid of `image.grid_sample` must be (1, 2, H', W') for 4-D data, found `Tensor[(2, 2, 8, 8), float32]`")),
        (gs, &["Tensor[(1, 4, 16, 16), float32]", "Tensor[(1, 3, 8, 8), float32]"], &[], Err("the grid of `image.grid_sample` must be (1, 2, H', W') for 4-D data, found `Tensor[(1, 3, 8, 8), float32]`")),
        (gs, &["Tensor[(4, 16, 16), float32]", "Tensor[(1, 2, 8, 8), float32]"], &[], Err("the data of `image.grid_sample` must be 4-D or 5-D, found `Tensor[(4, 16, 16), float32]`")),
        (gs, &["Tensor[(1, 4, 8, 16, 16), float32]", "Tensor[(1, 3, 8, 8, 8), float32]"], &[], Err("`layout` \"NCHW\" is not supported: it must order the axes of NCDHW, each possibly packed by a factor")),
    ]);
}

/// A crop-and-resize head as TVM prints it (resize, sampling grid, crops): each binding
/// has the type TVM printed on it.
#[test]
fn an_image_pipeline_as_tvm_prints_it() {
    let src = r#"#[version = "0.0.5"]
def @main(%image: Tensor[(1, 3, 112, 112), float32], %theta: Tensor[(1, 2, 3), float32], %boxes: Tensor[(5, 4), float32], %ids: Tensor[(5), int32]) {
  %0 = image.resize2d(%image, size=[224, 224], roi=[0f, 0f, 0f, 0f], rounding_method="", cubic_alpha=-0.75f) /* ty=Tensor[(1, 3, 224, 224), float32] */;
  %1 = image.affine_grid(%theta, target_shape=[56, 56]) /* ty=Tensor[(1, 2, 56, 56), float32] */;
  %2 = image.grid_sample(%0, %1, padding_mode="border") /* ty=Tensor[(1, 3, 56, 56), float32] */;
  %3 = image.crop_and_resize(%2, %boxes, %ids, crop_size=[14, 14], method="nearest_neighbor") /* ty=Tensor[(5, 3, 14, 14), float32] */;
  image.resize2d(%3, size=[7, 7], roi=[0f, 0f, 0f, 0f], layout="NCHW", method="cubic", out_dtype="float16") /* ty=Tensor[(5, 3, 7, 7), float16] */
}
"#;
    let (found, main) = common::bindings(src);
    assert_eq!(found, common::printed(src));
    assert_eq!(found.len(), 4);
    assert_eq!(
        main,
        "fn (Tensor[(1, 3, 112, 112), float32], Tensor[(1, 2, 3), float32], Tensor[(5, 4), float32], Tensor[(5), int32]) -> Tensor[(5, 3, 7, 7), float16]"
    );
}
