//! TVM's `image.*` operators: the resizes, `crop_and_resize`, the sampling grids and
//! morphological dilation.
//!
//! The relations are imperative where they read layouts ([`resize`]: the resizes and
//! `crop_and_resize`; [`sampling`]: `grid_sample` and `dilation2d`), a clause for
//! `affine_grid`. Layouts are TVM's, packed ones included (`NCHW16c`), read by the
//! level-2 layout helpers. Attribute names, types and defaults are TVM's C++ ones
//! (`include/tvm/relay/attrs/image.h`): `size` and `crop_size` have no C++ default and
//! are printed as `None` when unset, which the relations refuse (TVM's crash).

pub mod resize;
pub mod sampling;

pub use resize::{CropAndResize, Resize1D, Resize2D, Resize3D};
pub use sampling::{AffineGrid, Dilation2D, GridSample};

use relay_core::relay_op;

relay_op! {
    /// Resizes the W axis of `data` (`NCW` through `layout`, packed ones too) to
    /// `size[0]` (required), of `out_dtype` (default: the data's). `roi`, when set, has
    /// 2 values (TVM's Python API passes `[0f, 0f]`).
    ///
    /// ```text
    /// %y = image.resize1d(%x, size=[16], roi=[0f, 0f])  // (1, 3, 8) f32 -> (1, 3, 16) f32
    /// ```
    image.resize1d : fn<t1, t2>(data: t1) -> t2 where Resize1D,
        attrs Resize1DAttrs,
        level 5;

    /// Resizes the H and W axes of `data` (`NCHW` through `layout`: `NHWC`, `NCHW16c`,
    /// ...) to `size` (required), of `out_dtype` (default: the data's). `roi`, when set,
    /// has 4 values.
    ///
    /// ```text
    /// %y = image.resize2d(%x, size=[224, 224], roi=[0f, 0f, 0f, 0f], method="linear")  // (1, 3, 112, 112) f32 -> (1, 3, 224, 224) f32
    /// %y = image.resize2d(%x, size=[64, 64], roi=[0f, 0f, 0f, 0f], layout="NHWC", out_dtype="float16")  // (n, 32, 32, 3) f32 -> (n, 64, 64, 3) f16
    /// ```
    image.resize2d : fn<t1, t2>(data: t1) -> t2 where Resize2D,
        attrs Resize2DAttrs,
        level 5;

    /// Resizes the D, H and W axes of `data` (`NCDHW` through `layout`) to `size`
    /// (required), of `out_dtype` (default: the data's). `roi`, when set, has 6 values.
    ///
    /// ```text
    /// %y = image.resize3d(%x, size=[8, 16, 16], roi=[0f, 0f, 0f, 0f, 0f, 0f])  // (1, 3, 4, 8, 8) f32 -> (1, 3, 8, 16, 16) f32
    /// ```
    image.resize3d : fn<t1, t2>(data: t1) -> t2 where Resize3D,
        attrs Resize3DAttrs,
        level 5;

    /// Crops `data` (`NCHW` through `layout`) at each of `boxes` `(num_boxes, 4)` of the
    /// images `box_indices` `(num_boxes)` and resizes each crop to `crop_size`
    /// (required): `(num_boxes, C, crop_size[0], crop_size[1])` in the data's layout, of
    /// `out_dtype` (default: the data's).
    ///
    /// ```text
    /// %y = image.crop_and_resize(%x, %b, %i, crop_size=[7, 7])  // (1, 256, 32, 32) f32, (10, 4) f32, (10) i32 -> (10, 256, 7, 7) f32
    /// ```
    image.crop_and_resize : fn<t1, t2, t3, t4>(data: t1, boxes: t2, box_indices: t3) -> t4 where CropAndResize,
        attrs {
            crop_size: Option<[int]> = None,
            layout: str = "NCHW",
            method: str = "bilinear",
            extrapolation_value: float = 0.0,
            out_dtype: Option<dtype> = None,
        },
        level 5;

    /// Morphological 2-D dilation of `data` (`NCHW` through `data_layout`) by a
    /// structuring element `(C, kh, kw)` (`IHW` through `kernel_layout`): `nn.conv2d`'s
    /// output size with `dilations` for its dilation, the data's channels, in the data's
    /// layout, of `out_dtype` (default: the data's).
    ///
    /// ```text
    /// %y = image.dilation2d(%x, %w, padding=[1, 1])  // (1, 8, 16, 16) f32, (8, 3, 3) f32 -> (1, 8, 16, 16) f32
    /// ```
    image.dilation2d : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Dilation2D,
        attrs {
            strides: [int] = [1, 1],
            padding: [int] = [0, 0],
            dilations: [int] = [1, 1],
            data_layout: str = "NCHW",
            kernel_layout: str = "IHW",
            out_dtype: Option<dtype> = None,
        },
        level 2;

    /// The sampling grid of affine matrices `(batch, 2, 3)` over `target_shape` (required,
    /// (H, W)): `(batch, 2, H, W)`.
    ///
    /// ```text
    /// %y = image.affine_grid(%x, target_shape=[16, 32])  // (n, 2, 3) f32 -> (n, 2, 16, 32) f32
    /// ```
    image.affine_grid : fn<t1, t2>(data: t1) -> t2 where AffineGrid,
        attrs { target_shape: [int] },
        level 5;

    /// Samples `data` at `grid`: 4-D data `(N, C, H, W)` at a grid `(N, 2, H', W')` gives
    /// `(N, C, H', W')`; 5-D data (`layout="NCDHW"`) at `(N, 3, D', H', W')` gives
    /// `(N, C, D', H', W')`.
    ///
    /// ```text
    /// %y = image.grid_sample(%x, %g)  // (1, 4, 16, 16) f32, (1, 2, 8, 8) f32 -> (1, 4, 8, 8) f32
    /// ```
    image.grid_sample : fn<t1, t2, t3>(data: t1, grid: t2) -> t3 where GridSample,
        attrs {
            method: str = "bilinear",
            layout: str = "NCHW",
            padding_mode: str = "zeros",
            align_corners: bool = true,
        },
        level 5;
}
