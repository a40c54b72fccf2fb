//! TVM's level-2 operators: convolutions and transposed convolutions, pooling, global
//! pooling, batch flattening, padding, upsampling and the local normalizations.
//!
//! The relations of the convolutions ([`Conv2D`], ...), the pools ([`MaxPool2D`], ...),
//! `nn.pad` ([`Pad`]) and `nn.upsampling` ([`UpSampling`]) are imperative: they read
//! layouts letter by letter and lists of lists. Layouts are TVM's: the canonical axes in
//! any order, each possibly packed by a factor (`NHWC`, `NCHW16c`, `NCHW4n4c`,
//! `OIHW16i16o`); a convolution maps its data, weight and result to and from `NCHW` and
//! `OIHW` (their 1-D and 3-D forms), as TVM's `BijectiveLayout` does, and a pool keeps the
//! packed axes as they are (it may not pack its spatial axes). `nn.batch_flatten` uses the shared
//! [`Flatten`] clause, and the normalizations the clauses [`Lrn`] and [`L2Normalize`].
//!
//! Attribute names, types and defaults are those of TVM's C++ attributes
//! (`include/tvm/relay/attrs/nn.h`), whose defaults TVM's text printer omits: an attribute
//! without a C++ default (`pool_size`, `scale_h`, `pad_width`, ...) is required, even where
//! TVM's Python API has a default for it. `out_layout = ""` means the data's layout,
//! `out_dtype = None` (printed by TVM as `""`) the data's dtype.

pub(crate) mod conv;
pub(crate) mod pool;
pub(crate) mod util;

pub use conv::{Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose, Conv3D, Conv3DTranspose};
pub use pool::{
    AvgPool1D, AvgPool2D, AvgPool3D, GlobalAvgPool2D, GlobalMaxPool2D, MaxPool1D, MaxPool2D,
    MaxPool3D, Pad, UpSampling,
};

use crate::relations::Flatten;
use relay_core::{relation, relay_op};

/// Local response normalization keeps the data's type; `axis` must be an axis of the data.
#[relation(
    Lrn(X @ Tensor(s, bt), O) :-
        O = Tensor(s, bt),
        assert(attrs.size >= 1, "`size` must be at least 1"),
        is_axis(attrs.axis, X),
        attrs(size: int = 5, axis: int = 1)
)]
pub struct Lrn;

/// L2 normalization keeps the data's type; each of `axis` must be an axis of the data.
#[relation(
    L2Normalize(X @ Tensor(s, bt), O) :-
        if attrs.axis != None {
            for a in attrs.axis {
                is_axis(a, X),
            },
        },
        O = Tensor(s, bt),
        attrs(axis: Option<[int]> = None)
)]
pub struct L2Normalize;

relay_op! {
    /// 1-D convolution of `data` (`NCW`) with `weight` (`OIW`).
    ///
    /// With `channels` and `kernel_size` the weight's type is inferred:
    /// `(channels, C / groups, kernel_size[0])` laid out in `kernel_layout` (no depthwise
    /// form, as in TVM). Otherwise the
    /// weight must be known and the attributes given are checked against it. The output
    /// is `(N, channels, W')` laid out in `out_layout`, with
    /// `W' = floordiv(W + pad - (1 + (kw - 1) * dilation), stride) + 1`.
    ///
    /// `padding`: one value, or (left, right). `data_layout`: `"NCW"` or `"NWC"`,
    /// `"NCW8c"`. `kernel_layout`: `"OIW"` or `"WIO"`. `out_layout`: the data's.
    /// `out_dtype`: the data's.
    ///
    /// ```text
    /// %y = nn.conv1d(%x, %w, padding=[1], channels=8, kernel_size=[3])  // (1, 4, 10) f32, (8, 4, 3) f32 -> (1, 8, 10) f32
    /// ```
    nn.conv1d : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv1D,
        attrs Conv1DAttrs,
        level 2;

    /// 2-D convolution of `data` (`NCHW`) with `weight` (`OIHW`).
    ///
    /// With `channels` and `kernel_size` the weight's type is inferred or checked:
    /// `(channels, C / groups, kh, kw)` laid out in `kernel_layout`, or for a depthwise
    /// convolution `(C, channels / C, kh, kw)`. A convolution is depthwise when `groups` is
    /// both the data's `C` and the weight's output channels (TVM since apache/tvm#11681;
    /// before, `groups` = the weight's output channels sufficed). A weight not known yet
    /// with `groups` = `C` != `channels` could take either form: the relation waits for
    /// it (TVM asks for the weight whenever `groups > 1`). Otherwise the weight must be
    /// known, and `kernel_size`, `channels` and `C / groups` are checked against it. The output is `(N, channels, H', W')`
    /// laid out in `out_layout`, with
    /// `H' = floordiv(H + pad_h - (1 + (kh - 1) * dilation[0]), strides[0]) + 1`.
    ///
    /// `padding`: 1 value: every side; 2: (top and bottom, left and right); 4: (top, left,
    /// bottom, right). `data_layout`: any order of NCHW, each axis possibly packed
    /// (`"NHWC"`, `"NCHW16c"`); `kernel_layout`: `"OIHW"`, `"HWIO"`, `"HWOI"`,
    /// `"OIHW16i16o"`, ...; `out_layout` (`""`) and `out_dtype` (`None`): the data's.
    ///
    /// ```text
    /// %y = nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1], channels=16, kernel_size=[3, 3])  // (1, 3, 32, 32) f32, (16, 3, 3, 3) f32 -> (1, 16, 16, 16) f32
    /// %y = nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3], data_layout="NCHW16c", kernel_layout="OIHW16i16o")  // (1, 4, 56, 56, 16) f32, (4, 4, 3, 3, 16, 16) f32 -> (1, 4, 56, 56, 16) f32
    /// ```
    nn.conv2d : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv2D,
        attrs Conv2DAttrs,
        level 2;

    /// 3-D convolution of `data` (`NCDHW`) with `weight` (`OIDHW`).
    ///
    /// As `nn.conv2d` with a depth axis: the inferred weight is
    /// `(channels, C / groups, kd, kh, kw)` (depthwise, `groups` = `C` = the weight's output
    /// channels: `(C, channels / C, kd, kh, kw)`), the output `(N, channels, D', H', W')`.
    ///
    /// `padding`: 1, 3 or 6 values. `data_layout`: `"NCDHW"` or `"NDHWC"`, `"NCDHW8c"`.
    /// `kernel_layout`: `"OIDHW"` or `"DHWIO"`. `out_layout`: the data's. `out_dtype`: the
    /// data's.
    ///
    /// ```text
    /// %y = nn.conv3d(%x, %w, padding=[1, 1, 1], channels=8, kernel_size=[3, 3, 3])  // (1, 4, 8, 8, 8) f32, (8, 4, 3, 3, 3) f32 -> (1, 8, 8, 8, 8) f32
    /// ```
    nn.conv3d : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv3D,
        attrs Conv3DAttrs,
        level 2;

    /// 1-D transposed convolution of `data` (`NCW`) with `weight` (`IOW`).
    ///
    /// The weight is `(C, channels / groups, kw)` in `IOW`; with `channels` and
    /// `kernel_size` it is inferred, otherwise checked. The output is `(N, channels, W')`
    /// with `W' = strides[0] * (W - 1) + (1 + (kw - 1) * dilation[0]) - pad + output_padding[0]`
    /// (without `channels`, `channels` is the weight's `O` times `groups`: TVM forgets the
    /// `groups` here, as it does not for 2-D and 3-D).
    ///
    /// `padding`: 1 or 2 values.
    ///
    /// ```text
    /// %y = nn.conv1d_transpose(%x, %w, strides=[2], channels=4, kernel_size=[3])  // (1, 8, 10) f32, (8, 4, 3) f32 -> (1, 4, 21) f32
    /// ```
    nn.conv1d_transpose : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv1DTranspose,
        attrs Conv1DTransposeAttrs,
        level 2;

    /// 2-D transposed convolution of `data` (`NCHW`) with `weight` (`IOHW`).
    ///
    /// The weight is `(C, channels / groups, kh, kw)` in `IOHW`; with `channels` and
    /// `kernel_size` it is inferred, otherwise checked. The output is
    /// `(N, channels, H', W')` with
    /// `H' = strides[0] * (H - 1) + (1 + (kh - 1) * dilation[0]) - pad_h + output_padding[0]`.
    ///
    /// `padding`: 1, 2 or 4 values.
    ///
    /// ```text
    /// %y = nn.conv2d_transpose(%x, %w, strides=[2, 2], padding=[1, 1], output_padding=[1, 1], channels=8, kernel_size=[3, 3])  // (1, 16, 8, 8) f32, (16, 8, 3, 3) f32 -> (1, 8, 16, 16) f32
    /// ```
    nn.conv2d_transpose : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv2DTranspose,
        attrs Conv2DTransposeAttrs,
        level 2;

    /// 3-D transposed convolution of `data` (`NCDHW`) with `weight` (`IODHW`).
    ///
    /// As `nn.conv2d_transpose` with a depth axis.
    ///
    /// ```text
    /// %y = nn.conv3d_transpose(%x, %w, channels=4, kernel_size=[3, 3, 3])  // (1, 8, 4, 4, 4) f32, (8, 4, 3, 3, 3) f32 -> (1, 4, 6, 6, 6) f32
    /// ```
    nn.conv3d_transpose : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv3DTranspose,
        attrs Conv3DTransposeAttrs,
        level 2;

    /// 1-D max pooling over the W axis of `layout`.
    ///
    /// `W' = floordiv(W + pad - ((pool_size - 1) * dilation + 1) + (ceil_mode ? strides - 1 : 0), strides) + 1`;
    /// the other axes are kept; `?` stays `?`.
    ///
    /// `padding`: 1 or 2 values. `out_layout`: the layout.
    ///
    /// ```text
    /// %y = nn.max_pool1d(%x, pool_size=[2], strides=[2])  // (1, 4, 9) f32 -> (1, 4, 4) f32
    /// ```
    nn.max_pool1d : fn<t1, t2>(data: t1) -> t2 where MaxPool1D,
        attrs MaxPool1DAttrs,
        level 2;

    /// 2-D max pooling over the H and W axes of `layout`.
    ///
    /// `H' = floordiv(H + pad_h - ((pool_size[0] - 1) * dilation[0] + 1) + (ceil_mode ? strides[0] - 1 : 0), strides[0]) + 1`,
    /// W alike; the other axes are kept.
    ///
    /// `padding`: 1, 2 or 4 values. `layout`: any layout with H and W, packed ones such as
    /// `NCHW16c` too.
    ///
    /// ```text
    /// %y = nn.max_pool2d(%x, pool_size=[3, 3], strides=[2, 2], padding=[1, 1])  // (1, 64, 112, 112) f32 -> (1, 64, 56, 56) f32
    /// ```
    nn.max_pool2d : fn<t1, t2>(data: t1) -> t2 where MaxPool2D,
        attrs MaxPool2DAttrs,
        level 2;

    /// 3-D max pooling over the D, H and W axes of `layout`.
    ///
    /// `padding`: 1, 3 or 6 values.
    ///
    /// ```text
    /// %y = nn.max_pool3d(%x, pool_size=[2, 2, 2], strides=[2, 2, 2])  // (1, 4, 8, 8, 8) f32 -> (1, 4, 4, 4, 4) f32
    /// ```
    nn.max_pool3d : fn<t1, t2>(data: t1) -> t2 where MaxPool3D,
        attrs MaxPool3DAttrs,
        level 2;

    /// 1-D average pooling over the W axis of `layout` (sizes as `nn.max_pool1d`).
    ///
    /// ```text
    /// %y = nn.avg_pool1d(%x, pool_size=[3], ceil_mode=True, strides=[2])  // (1, 4, 10) f32 -> (1, 4, 5) f32
    /// ```
    nn.avg_pool1d : fn<t1, t2>(data: t1) -> t2 where AvgPool1D,
        attrs AvgPool1DAttrs,
        level 2;

    /// 2-D average pooling over the H and W axes of `layout` (sizes as `nn.max_pool2d`).
    ///
    /// ```text
    /// %y = nn.avg_pool2d(%x, pool_size=[2, 2], strides=[2, 2], layout="NHWC")  // (1, 32, 32, 16) f32 -> (1, 16, 16, 16) f32
    /// ```
    nn.avg_pool2d : fn<t1, t2>(data: t1) -> t2 where AvgPool2D,
        attrs AvgPool2DAttrs,
        level 2;

    /// 3-D average pooling over the D, H and W axes of `layout` (sizes as `nn.max_pool3d`).
    ///
    /// ```text
    /// %y = nn.avg_pool3d(%x, pool_size=[2, 2, 2], strides=[2, 2, 2])  // (1, 4, 8, 8, 8) f32 -> (1, 4, 4, 4, 4) f32
    /// ```
    nn.avg_pool3d : fn<t1, t2>(data: t1) -> t2 where AvgPool3D,
        attrs AvgPool3DAttrs,
        level 2;

    /// Global 2-D average pooling: the H and W axes of `layout` become 1.
    ///
    /// `out_layout`: the layout.
    ///
    /// ```text
    /// %y = nn.global_avg_pool2d(%x)  // (1, 512, 7, 7) f32 -> (1, 512, 1, 1) f32
    /// ```
    nn.global_avg_pool2d : fn<t1, t2>(data: t1) -> t2 where GlobalAvgPool2D,
        attrs GlobalPool2DAttrs,
        level 2;

    /// Global 2-D max pooling: the H and W axes of `layout` become 1.
    ///
    /// `out_layout`: the layout.
    ///
    /// ```text
    /// %y = nn.global_max_pool2d(%x, layout="NHWC")  // (1, 7, 7, 512) f32 -> (1, 1, 1, 512) f32
    /// ```
    nn.global_max_pool2d : fn<t1, t2>(data: t1) -> t2 where GlobalMaxPool2D,
        attrs GlobalPool2DAttrs,
        level 2;

    /// Flattens every axis but the first: `(d0, d1, d2, ...)` becomes `(d0, d1 * d2 * ...)`
    /// (a `?` among them gives `?`). No attributes.
    ///
    /// ```text
    /// %y = nn.batch_flatten(%x)  // (n, 2, 3, 4) f32 -> (n, 24) f32
    /// ```
    nn.batch_flatten : fn<t1, t2>(data: t1) -> t2 where Flatten,
        level 2;

    /// Pads every axis of `data` by its `(before, after)` pair of `pad_width` with the
    /// scalar `pad_value`.
    ///
    /// `pad_width`: one `[before, after]` per axis; a negative width crops, as in TVM, down
    /// to a size of 0. `pad_mode`: `"constant"` or `"edge"`, `"reflect"`. The sizes are
    /// checked arithmetic: a sum beyond 64 bits is an error (TVM wraps around).
    ///
    /// ```text
    /// %y = nn.pad(%x, 0f, pad_width=[[0, 0], [0, 0], [1, 1], [2, 2]])  // (1, 3, 4, 4) f32 -> (1, 3, 6, 8) f32
    /// %y = nn.pad(%x, 0f, pad_width=[[-1, -1], [2, -2], [0, -3], [4, 4]], pad_mode="reflect")  // (4, 6, 3, 5) f32 -> (2, 6, 0, 13) f32
    /// ```
    nn.pad : fn<t1, t2, t3>(data: t1, pad_value: t2) -> t3 where Pad,
        attrs { pad_width: [[int]], pad_mode: str = "constant" },
        level 2;

    /// Upsamples the H and W axes of `layout` by `scale_h` and `scale_w`:
    /// `H' = round(H * scale_h)` (exact for a symbolic `H` when the scale is a fraction
    /// over a power of two, `?` otherwise).
    ///
    /// `method`: `"nearest_neighbor"` or `"bilinear"`, `"bicubic"`.
    ///
    /// ```text
    /// %y = nn.upsampling(%x, scale_h=2f, scale_w=2f)  // (1, 3, 16, 16) f32 -> (1, 3, 32, 32) f32
    /// ```
    nn.upsampling : fn<t1, t2>(data: t1) -> t2 where UpSampling,
        attrs {
            scale_h: float,
            scale_w: float,
            layout: str = "NCHW",
            method: str = "nearest_neighbor",
            align_corners: bool = false,
        },
        level 2;

    /// Local response normalization across `axis`; the type is the data's.
    ///
    /// `axis`: an axis of the data. The defaults are TVM's C++ ones; its Python API passes
    /// an alpha of 0.00001.
    ///
    /// ```text
    /// %y = nn.lrn(%x, size=3, axis=1)  // (1, 8, 4, 4) f32 -> (1, 8, 4, 4) f32
    /// ```
    nn.lrn : fn<t1, t2>(data: t1) -> t2 where Lrn,
        attrs {
            size: int = 5,
            axis: int = 1,
            bias: float = 2.0,
            alpha: float = 0.0001,
            beta: float = 0.75,
        },
        level 2;

    /// L2 normalization over `axis`; the type is the data's.
    ///
    /// `axis`: every axis.
    ///
    /// ```text
    /// %y = nn.l2_normalize(%x, eps=1e-10f, axis=[1])  // (2, 8) f32 -> (2, 8) f32
    /// ```
    nn.l2_normalize : fn<t1, t2>(data: t1) -> t2 where L2Normalize,
        attrs { eps: float, axis: Option<[int]> = None },
        level 2;
}
