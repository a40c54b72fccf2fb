//! Layouts and the convolution variants: `layout_transform`, the packed convolutions
//! (`nn.contrib_conv2d_NCHWc`, `nn.contrib_depthwise_conv2d_NCHWc`) and dense layer
//! (`nn.contrib_dense_pack`), the winograd and GEMM convolutions and their weight
//! transforms, the deformable convolution, the bit-serial operators, correlation, the
//! gradient of a convolution with respect to its weight, and dilation.
//!
//! Layouts are TVM's: primal axes (upper case) each possibly packed by subordinate axes
//! (`NCHW16c`, `OIHW8i16o`, and `OIHW2i8o4i`, whose I is packed twice), read by the
//! level-2 layout helpers ([`crate::level2`]). The relations are in submodules:
//! [`layout_transform`](mod@layout_transform), [`packed`] (the packed convolutions
//! share `nn.conv2d`'s relation), [`winograd`] (the convolutions that do not read their
//! weight, and the weight transforms), [`deformable`], [`bitserial`] and [`spatial`]. Attribute names, types
//! and defaults are TVM's C++ ones (`include/tvm/relay/attrs/nn.h`, `bitserial.h`,
//! `transform.h`).
//!
//! TVM's names are kept as they are, `NCHWc` and `tile_N` included: the builders they
//! give are not snake case.

#![allow(non_snake_case)]

pub mod bitserial;
pub mod deformable;
pub mod layout_transform;
pub mod packed;
pub mod spatial;
pub(crate) mod window;
pub mod winograd;

pub use bitserial::{BitPack, BitserialDense};
pub use deformable::{Conv2DBackwardWeight, DeformableConv2D};
pub use layout_transform::LayoutTransform;
pub use packed::{Conv2DNCHWc, DensePack, DepthwiseConv2DNCHWc};
pub use spatial::{Correlation, Dilate};
pub use winograd::{
    BitserialConv2D, Conv2DGemm, Conv2DGemmWeightTransform, Conv2DWinograd,
    Conv2DWinogradNnpackWeightTransform, Conv2DWinogradWeightTransform, Conv3DWinograd,
    Conv3DWinogradWeightTransform,
};

use relay_core::relay_op;

relay_op! {
    /// Lays `data` out anew: from `src_layout` to `dst_layout`, two layouts of the same
    /// primal axes (any letters), each possibly packed (`NCHW16c`, `NC8n`, `OIHW2i8o4i`).
    /// A primal dimension is the source's times its source factors over its destination
    /// factors, rounded up (TVM pads with zeros); a subordinate dimension is its factor.
    /// The data's subordinate dimensions must be their factors.
    ///
    /// ```text
    /// %y = layout_transform(%x, src_layout="NCHW", dst_layout="NCHW16c")  // (1, 32, 56, 56) f32 -> (1, 2, 56, 56, 16) f32
    /// %y = layout_transform(%x, src_layout="NCHW4c", dst_layout="NHWC")  // (n, 8, 7, 7, 4) f32 -> (n, 7, 7, 32) f32
    /// ```
    layout_transform : fn<t1, t2>(data: t1) -> t2 where LayoutTransform,
        attrs { src_layout: str, dst_layout: str },
        level 5;

    /// 2-D convolution over packed layouts (data `NCHW8c`, weight `OIHW8i8o`, output
    /// `NCHW8c`, as TVM's x86 layout alteration writes it): `nn.conv2d`'s shapes through
    /// the layouts, whose axes may be packed more than once (`OIHW2i8o4i`). With
    /// `channels` and `kernel_size` the weight is inferred or checked (TVM's relation
    /// reads only them, and crashes without them); without them it must be known.
    ///
    /// Attributes as `nn.conv2d`'s (TVM's `Conv2DAttrs`).
    ///
    /// ```text
    /// %y = nn.contrib_conv2d_NCHWc(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3], data_layout="NCHW8c", kernel_layout="OIHW8i16o", out_layout="NCHW16c")  // (1, 4, 56, 56, 8) f32, (4, 4, 3, 3, 8, 16) f32 -> (1, 4, 56, 56, 16) f32
    /// ```
    nn.contrib_conv2d_NCHWc : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv2DNCHWc,
        attrs Conv2DAttrs,
        level 10;

    /// Depthwise 2-D convolution over packed layouts (data `NCHW8c`, weight `OIHW1i8o`,
    /// `groups` the channel count): `nn.conv2d`'s relation, as in TVM.
    ///
    /// Attributes as `nn.conv2d`'s (TVM's `Conv2DAttrs`).
    ///
    /// ```text
    /// %y = nn.contrib_depthwise_conv2d_NCHWc(%x, %w, padding=[1, 1, 1, 1], groups=32, channels=32, kernel_size=[3, 3], data_layout="NCHW8c", kernel_layout="OIHW1i8o")  // (1, 4, 28, 28, 8) f32, (4, 1, 3, 3, 1, 8) f32 -> (1, 4, 28, 28, 8) f32
    /// ```
    nn.contrib_depthwise_conv2d_NCHWc : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where DepthwiseConv2DNCHWc,
        attrs Conv2DAttrs,
        level 10;

    /// Dense layer over a packed weight: `data` `(b, k)`, `weight` `(N, k)` laid out in
    /// `weight_layout` (`NC16n`: `(N / 16, k, 16)`), the result `(b, N)`. The contraction
    /// dimensions must agree and `units`, when set, must be `N`.
    ///
    /// TVM's `DensePackAttrs`: `units` is printed as `None` when unset.
    ///
    /// ```text
    /// %y = nn.contrib_dense_pack(%x, %w, weight_layout="NC16n")  // (4, 64) f32, (3, 64, 16) f32 -> (4, 48) f32
    /// ```
    nn.contrib_dense_pack : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where DensePack,
        attrs DensePackAttrs,
        level 10;

    /// The winograd transform of an `OIHW` weight `(O, I, kh, kw)`:
    /// `(tile_size + kh - 1, tile_size + kw - 1, O, I)`.
    ///
    /// ```text
    /// %y = nn.contrib_conv2d_winograd_weight_transform(%w, tile_size=4)  // (64, 32, 3, 3) f32 -> (6, 6, 64, 32) f32
    /// ```
    nn.contrib_conv2d_winograd_weight_transform : fn<t1, t2>(weight: t1) -> t2 where Conv2DWinogradWeightTransform,
        attrs { tile_size: int },
        level 10;

    /// NNPACK's winograd transform of an `OIHW` weight `(O, I, kh, kw)`: `(O, I, 8, 8)`
    /// of `out_dtype` (default: the weight's). `convolution_algorithm` is not read.
    ///
    /// ```text
    /// %y = nn.contrib_conv2d_winograd_nnpack_weight_transform(%w, convolution_algorithm=2)  // (64, 32, 3, 3) f32 -> (64, 32, 8, 8) f32
    /// ```
    nn.contrib_conv2d_winograd_nnpack_weight_transform : fn<t1, t2>(weight: t1) -> t2 where Conv2DWinogradNnpackWeightTransform,
        attrs { convolution_algorithm: int, out_dtype: Option<dtype> = None },
        level 10;

    /// 2-D winograd convolution of `data` with a weight transformed ahead of time, which
    /// is not read (each backend lays it out its own way): the output is `nn.conv2d`'s
    /// `(N, channels, H', W')`, from the data and `channels` and `kernel_size`, which must
    /// be set (TVM's relation crashes without them). `groups` is not read.
    ///
    /// ```text
    /// %y = nn.contrib_conv2d_winograd_without_weight_transform(%x, %w, tile_size=4, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3])  // (1, 32, 56, 56) f32, (6, 6, 64, 32) f32 -> (1, 64, 56, 56) f32
    /// ```
    nn.contrib_conv2d_winograd_without_weight_transform : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv2DWinograd,
        attrs Conv2DWinogradAttrs,
        level 10;

    /// The winograd transform of an `OIDHW` weight `(O, I, kd, kh, kw)`: with a constant
    /// depth from 3 to 7 the depth is transformed too, `(t + kd - 1, t + kh - 1,
    /// t + kw - 1, O, I)`, else `(t + kh - 1, t + kw - 1, kd, O, I)` (`t` = `tile_size`).
    ///
    /// ```text
    /// %y = nn.contrib_conv3d_winograd_weight_transform(%w, tile_size=4)  // (64, 32, 3, 3, 3) f32 -> (6, 6, 6, 64, 32) f32
    /// %y = nn.contrib_conv3d_winograd_weight_transform(%w, tile_size=4)  // (64, 32, 1, 3, 3) f32 -> (6, 6, 1, 64, 32) f32
    /// ```
    nn.contrib_conv3d_winograd_weight_transform : fn<t1, t2>(weight: t1) -> t2 where Conv3DWinogradWeightTransform,
        attrs { tile_size: int },
        level 10;

    /// 3-D winograd convolution with a weight transformed ahead of time (not read): the
    /// output is `nn.conv3d`'s `(N, channels, D', H', W')`, from the data and `channels`
    /// and `kernel_size`, which must be set. (TVM's relation decides whether H is `?` by
    /// D; here each axis by itself.)
    ///
    /// ```text
    /// %y = nn.contrib_conv3d_winograd_without_weight_transform(%x, %w, tile_size=4, padding=[1, 1, 1], channels=64, kernel_size=[3, 3, 3])  // (1, 32, 8, 28, 28) f32, (6, 6, 6, 64, 32) f32 -> (1, 64, 8, 28, 28) f32
    /// ```
    nn.contrib_conv3d_winograd_without_weight_transform : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv3DWinograd,
        attrs Conv3DWinogradAttrs,
        level 10;

    /// The GEMM transform of an `HWIO` weight `(kh, kw, I, O)`, the matrix of
    /// `K = kh * kw * I` rows and `N = O` columns padded and cut into tiles:
    /// `(ceil(N / tile_N), 4 * ceil(K / (4 * tile_K)), tile_N, tile_K)` for 8-bit integers,
    /// the last two swapped otherwise.
    ///
    /// ```text
    /// %y = nn.contrib_conv2d_gemm_weight_transform(%w, tile_N=4, tile_K=16)  // (3, 3, 32, 64) i8 -> (16, 20, 4, 16) i8
    /// %y = nn.contrib_conv2d_gemm_weight_transform(%w, tile_N=4, tile_K=16)  // (3, 3, 32, 64) f32 -> (16, 20, 16, 4) f32
    /// ```
    nn.contrib_conv2d_gemm_weight_transform : fn<t1, t2>(weights: t1) -> t2 where Conv2DGemmWeightTransform,
        attrs { tile_N: int, tile_K: int },
        level 10;

    /// 2-D GEMM convolution of `NHWC` data with a weight transformed ahead of time (not
    /// read): the output is `(N, H', W', channels)` laid out in `out_layout`, from the
    /// data and `channels` and `kernel_size`, which must be set. (TVM's relation decides
    /// whether H' and W' are `?` by W and C; here by H and W.)
    ///
    /// Attributes as `nn.conv2d`'s (TVM's `Conv2DAttrs`).
    ///
    /// ```text
    /// %y = nn.contrib_conv2d_gemm_without_weight_transform(%x, %w, padding=[1, 1, 1, 1], channels=64, kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWIO", out_dtype="int32")  // (1, 56, 56, 32) i8, (16, 20, 4, 16) i8 -> (1, 56, 56, 64) i32
    /// ```
    nn.contrib_conv2d_gemm_without_weight_transform : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Conv2DGemm,
        attrs Conv2DAttrs,
        level 10;

    /// Deformable 2-D convolution of `data` (`NCHW`) sampled at `offset` with `weight`
    /// (`OIHW`): `nn.conv2d`'s output `(N, channels, H', W')`; the offset is inferred as
    /// `(N, 2 * kh * kw * deformable_groups, H', W')` in the data's layout, and the weight
    /// as `(channels, C / groups, kh, kw)` when `channels` and `kernel_size` are set
    /// (otherwise it must be known, and the attributes given are checked against it).
    ///
    /// ```text
    /// %y = nn.deformable_conv2d(%x, %o, %w, padding=[1, 1], channels=64, kernel_size=[3, 3])  // (1, 32, 28, 28) f32, (1, 18, 28, 28) f32, (64, 32, 3, 3) f32 -> (1, 64, 28, 28) f32
    /// ```
    nn.deformable_conv2d : fn<t1, t2, t3, t4>(data: t1, offset: t2, weight: t3) -> t4 where DeformableConv2D,
        attrs DeformableConv2DAttrs,
        level 5;

    /// Packs the bits of `data` into `pack_type` (required; an integer type): axis
    /// `pack_axis` is divided by the type's width, and an axis of `bits` is inserted at
    /// `bit_axis` (negative: from the end, as TVM's compute inserts it).
    ///
    /// ```text
    /// %y = nn.bitpack(%x, bits=2, pack_axis=1, bit_axis=2, pack_type="uint32")  // (1, 64, 8, 8) i16 -> (1, 2, 2, 8, 8) u32
    /// ```
    nn.bitpack : fn<t1, t2>(data: t1) -> t2 where BitPack,
        attrs {
            bits: int = 1,
            pack_axis: int = 1,
            bit_axis: int = -1,
            pack_type: Option<dtype> = None,
            name: str = "BitPack",
        },
        level 2;

    /// Bit-serial 2-D convolution: the output is `(N, channels, H', W')` laid out as the
    /// data (`NCHW` or `NHWC`), from the data, `channels` (required: TVM's relation
    /// crashes without it) and `kernel_size`, without dilation; the weight (unpacked or
    /// bit-packed) is not read. `out_dtype` defaults to the data's (TVM's relation gives
    /// the unset dtype).
    ///
    /// ```text
    /// %y = nn.bitserial_conv2d(%x, %w, padding=[1, 1], channels=32, kernel_size=[3, 3], pack_dtype="uint32", out_dtype="int16")  // (1, 64, 16, 16) i16, (32, 64, 3, 3) i16 -> (1, 32, 16, 16) i16
    /// ```
    nn.bitserial_conv2d : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where BitserialConv2D,
        attrs {
            strides: [int] = [1, 1],
            padding: [int] = [0, 0],
            kernel_size: [int] = [3, 3],
            channels: Option<int> = None,
            activation_bits: int = 1,
            weight_bits: int = 1,
            data_layout: str = "NCHW",
            kernel_layout: str = "OIHW",
            pack_dtype: Option<dtype> = None,
            out_dtype: Option<dtype> = None,
            unipolar: bool = true,
        },
        level 2;

    /// Bit-serial dense layer: the data's shape with the last dimension `units`
    /// (required), of `out_dtype` (default: the data's); the weight is not read.
    ///
    /// ```text
    /// %y = nn.bitserial_dense(%x, %w, units=16, pack_dtype="uint32", out_dtype="int16")  // (4, 64) i16, (16, 64) i16 -> (4, 16) i16
    /// ```
    nn.bitserial_dense : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where BitserialDense,
        attrs {
            units: Option<int> = None,
            data_bits: int = 1,
            weight_bits: int = 1,
            pack_dtype: Option<dtype> = None,
            out_dtype: Option<dtype> = None,
            unipolar: bool = true,
        },
        level 1;

    /// Correlation of two `NCHW` feature maps of one shape `(N, C, H, W)`:
    /// `(N, D * D, H', W')` with `D = 2 * floordiv(max_displacement, stride2) + 1` and
    /// `H' = ceil((H + pad_h - 2 * (max_displacement + (kernel_size - 1) / 2)) / stride1)`.
    ///
    /// ```text
    /// %y = nn.correlation(%a, %b, max_displacement=4, padding=[4, 4])  // (1, 64, 32, 32) f32, (1, 64, 32, 32) f32 -> (1, 81, 32, 32) f32
    /// ```
    nn.correlation : fn<t1, t2, t3>(data1: t1, data2: t2) -> t3 where Correlation,
        attrs {
            kernel_size: int = 1,
            max_displacement: int = 1,
            stride1: int = 1,
            stride2: int = 1,
            padding: [int] = [0, 0],
            is_multiply: bool = true,
            layout: str = "NCHW",
        },
        level 2;

    /// The gradient of `nn.conv2d` with respect to its weight, from the output gradient
    /// `grad` and the data: `(O, C / groups, kh, kw)` (`O` the gradient's channels, `C`
    /// the data's, `kernel_size` required) laid out in `out_layout`. TVM reuses
    /// `Conv2DAttrs`: `data_layout` is the gradient's layout, `kernel_layout` the data's
    /// (its C++ default, `OIHW`, is no data layout: TVM's Python API passes `NCHW`) and
    /// `out_layout` the weight's (`""`: `OIHW`).
    ///
    /// ```text
    /// %y = nn.conv2d_backward_weight(%g, %x, padding=[1, 1, 1, 1], channels=16, kernel_size=[3, 3], kernel_layout="NCHW", out_layout="OIHW")  // (1, 16, 32, 32) f32, (1, 8, 32, 32) f32 -> (16, 8, 3, 3) f32
    /// ```
    nn.conv2d_backward_weight : fn<t1, t2, t3>(grad: t1, data: t2) -> t3 where Conv2DBackwardWeight,
        attrs Conv2DAttrs,
        level 2;

    /// Dilates `x`: each dimension `d` becomes `(d - 1) * strides[i] + 1`, with one
    /// stride per axis; the gaps hold `dilation_value`.
    ///
    /// ```text
    /// %y = nn.dilate(%x, strides=[1, 2, 2, 1])  // (1, 4, 4, 3) f32 -> (1, 7, 7, 3) f32
    /// ```
    nn.dilate : fn<t1, t2>(x: t1) -> t2 where Dilate,
        attrs { strides: [int] = [1, 1], dilation_value: float = 0.0 },
        level 10;
}
