//! The attribute sets several operators share, declared once with TVM's names (its
//! attribute structs, `include/tvm/relay/attrs/*.h`): an operator names one with
//! `attrs Name` ([`relay_core::relay_attrs`]). Declared before the other modules, so that
//! they see the sets' macros.

relay_core::relay_attrs! {
    /// TVM's `Conv1DAttrs` (`include/tvm/relay/attrs/nn.h`): the 1-D convolution.
    Conv1DAttrs {
        strides: [int] = [1],
        padding: [int] = [0, 0],
        dilation: [int] = [1],
        groups: int = 1,
        channels: Option<int> = None,
        kernel_size: Option<[int]> = None,
        data_layout: str = "NCW",
        kernel_layout: str = "OIW",
        out_layout: str = "",
        out_dtype: Option<dtype> = None,
    }

    /// The window of the 2-D convolutions, the head of [`Conv2DAttrs`] and
    /// [`DeformableConv2DAttrs`]: not a struct of TVM's.
    Conv2DWindowAttrs { strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1] }

    /// The groups, channels, kernel, layouts and dtype of the 2-D convolutions, the tail
    /// of [`Conv2DAttrs`] and [`DeformableConv2DAttrs`]: not a struct of TVM's.
    Conv2DChannelAttrs {
        groups: int = 1,
        channels: Option<int> = None,
        kernel_size: Option<[int]> = None,
        data_layout: str = "NCHW",
        kernel_layout: str = "OIHW",
        out_layout: str = "",
        out_dtype: Option<dtype> = None,
    }

    /// TVM's `Conv2DAttrs` (`nn.h`): the 2-D convolutions.
    Conv2DAttrs { ..Conv2DWindowAttrs, ..Conv2DChannelAttrs }

    /// TVM's `DeformableConv2DAttrs` (`nn.h`): `Conv2DAttrs`' with `deformable_groups`
    /// after the window.
    DeformableConv2DAttrs {
        ..Conv2DWindowAttrs,
        deformable_groups: int = 1,
        ..Conv2DChannelAttrs
    }

    /// TVM's `Conv2DWinogradAttrs` (`nn.h`): `tile_size`, then `Conv2DAttrs`'.
    Conv2DWinogradAttrs { tile_size: int, ..Conv2DAttrs }

    /// TVM's `Conv3DAttrs` (`nn.h`): the 3-D convolutions.
    Conv3DAttrs {
        strides: [int] = [1, 1, 1],
        padding: [int] = [0, 0, 0],
        dilation: [int] = [1, 1, 1],
        groups: int = 1,
        channels: Option<int> = None,
        kernel_size: Option<[int]> = None,
        data_layout: str = "NCDHW",
        kernel_layout: str = "OIDHW",
        out_layout: str = "",
        out_dtype: Option<dtype> = None,
    }

    /// TVM's `Conv3DWinogradAttrs` (`nn.h`): `tile_size`, then `Conv3DAttrs`'.
    Conv3DWinogradAttrs { tile_size: int, ..Conv3DAttrs }

    /// TVM's `Conv1DTransposeAttrs` (`nn.h`).
    Conv1DTransposeAttrs {
        channels: Option<int> = None,
        kernel_size: Option<[int]> = None,
        strides: [int] = [1],
        output_padding: [int] = [0],
        padding: [int] = [0],
        dilation: [int] = [1],
        groups: int = 1,
        data_layout: str = "NCW",
        kernel_layout: str = "IOW",
        out_layout: str = "",
        out_dtype: Option<dtype> = None,
    }

    /// TVM's `Conv2DTransposeAttrs` (`nn.h`).
    Conv2DTransposeAttrs {
        channels: Option<int> = None,
        kernel_size: Option<[int]> = None,
        strides: [int] = [1, 1],
        output_padding: [int] = [0, 0],
        padding: [int] = [0, 0],
        dilation: [int] = [1, 1],
        groups: int = 1,
        data_layout: str = "NCHW",
        kernel_layout: str = "IOHW",
        out_layout: str = "",
        out_dtype: Option<dtype> = None,
    }

    /// TVM's `Conv3DTransposeAttrs` (`nn.h`).
    Conv3DTransposeAttrs {
        channels: Option<int> = None,
        kernel_size: Option<[int]> = None,
        strides: [int] = [1, 1, 1],
        output_padding: [int] = [0, 0, 0],
        padding: [int] = [0, 0, 0],
        dilation: [int] = [1, 1, 1],
        groups: int = 1,
        data_layout: str = "NCDHW",
        kernel_layout: str = "IODHW",
        out_layout: str = "",
        out_dtype: Option<dtype> = None,
    }

    /// TVM's `MaxPool1DAttrs` (`nn.h`).
    MaxPool1DAttrs {
        pool_size: [int],
        strides: [int] = [1],
        dilation: [int] = [1],
        padding: [int] = [0],
        layout: str = "NCW",
        out_layout: str = "",
        ceil_mode: bool = false,
    }

    /// TVM's `AvgPool1DAttrs` (`nn.h`): `MaxPool1DAttrs`' and `count_include_pad`.
    AvgPool1DAttrs { ..MaxPool1DAttrs, count_include_pad: bool = false }

    /// TVM's `MaxPool2DAttrs` (`nn.h`).
    MaxPool2DAttrs {
        pool_size: [int],
        strides: [int] = [1, 1],
        dilation: [int] = [1, 1],
        padding: [int] = [0, 0],
        layout: str = "NCHW",
        out_layout: str = "",
        ceil_mode: bool = false,
    }

    /// TVM's `AvgPool2DAttrs` (`nn.h`): `MaxPool2DAttrs`' and `count_include_pad`.
    AvgPool2DAttrs { ..MaxPool2DAttrs, count_include_pad: bool = false }

    /// TVM's `MaxPool3DAttrs` (`nn.h`).
    MaxPool3DAttrs {
        pool_size: [int],
        strides: [int] = [1, 1, 1],
        dilation: [int] = [1, 1, 1],
        padding: [int] = [0, 0, 0],
        layout: str = "NCDHW",
        out_layout: str = "",
        ceil_mode: bool = false,
    }

    /// TVM's `AvgPool3DAttrs` (`nn.h`): `MaxPool3DAttrs`' and `count_include_pad`.
    AvgPool3DAttrs { ..MaxPool3DAttrs, count_include_pad: bool = false }

    /// TVM's `GlobalPool2DAttrs` (`nn.h`).
    GlobalPool2DAttrs { layout: str = "NCHW", out_layout: str = "" }

    /// TVM's `AdaptivePool1DAttrs` (`nn.h`).
    AdaptivePool1DAttrs { output_size: [int] = [], layout: str = "NCW", out_layout: str = "" }

    /// TVM's `AdaptivePool2DAttrs` (`nn.h`).
    AdaptivePool2DAttrs { output_size: [int] = [], layout: str = "NCHW", out_layout: str = "" }

    /// TVM's `AdaptivePool3DAttrs` (`nn.h`).
    AdaptivePool3DAttrs { output_size: [int] = [], layout: str = "NCDHW", out_layout: str = "" }

    /// The attributes after `layout` that TVM's three resize structs (`image.h`) share:
    /// not a struct of TVM's, the tail of [`Resize2DAttrs`] and its 1-D and 3-D twins.
    ResizeMethodAttrs {
        method: str = "linear",
        coordinate_transformation_mode: str = "half_pixel",
        rounding_method: str = "round",
        cubic_alpha: float = -0.5,
        cubic_exclude: int = 0,
        extrapolation_value: float = 0.0,
        out_dtype: Option<dtype> = None,
    }

    /// TVM's `Resize1DAttrs` (`image.h`).
    Resize1DAttrs {
        size: Option<[int]> = None,
        roi: Option<[float]> = None,
        layout: str = "NCW",
        ..ResizeMethodAttrs
    }

    /// TVM's `Resize2DAttrs` (`image.h`).
    Resize2DAttrs {
        size: Option<[int]> = None,
        roi: Option<[float]> = None,
        layout: str = "NCHW",
        ..ResizeMethodAttrs
    }

    /// TVM's `Resize3DAttrs` (`image.h`).
    Resize3DAttrs {
        size: Option<[int]> = None,
        roi: Option<[float]> = None,
        layout: str = "NCDHW",
        ..ResizeMethodAttrs
    }

    /// TVM's `ReduceAttrs` (`reduce.h`): the reductions.
    ReduceAttrs { axis: Option<[int]> = None, keepdims: bool = false, exclude: bool = false }

    /// TVM's `ArgReduceAttrs` (`reduce.h`).
    ArgReduceAttrs {
        axis: Option<[int]> = None,
        keepdims: bool = false,
        select_last_index: bool = false,
        exclude: bool = false,
    }

    /// TVM's `VarianceAttrs` (`reduce.h`).
    VarianceAttrs {
        axis: Option<[int]> = None,
        keepdims: bool = false,
        exclude: bool = false,
        unbiased: bool = false,
    }

    /// TVM's `ArgsortAttrs` (`algorithm.h`), of `argsort` and `sort`.
    ArgsortAttrs { axis: int = -1, is_ascend: bool = true, dtype: Option<dtype> = None }

    /// TVM's `InitOpAttrs` (`transform.h`), with `shape` given.
    InitOpAttrs { shape: [int], dtype: Option<dtype> = None }

    /// TVM's `DenseAttrs` (`nn.h`).
    DenseAttrs { units: Option<int> = None, out_dtype: Option<dtype> = None }

    /// TVM's `DensePackAttrs` (`nn.h`).
    DensePackAttrs { units: Option<int> = None, out_dtype: Option<dtype> = None, weight_layout: str = "NC" }

    /// TVM's `BatchMatmulAttrs` (`nn.h`).
    BatchMatmulAttrs { out_dtype: Option<dtype> = None, transpose_a: bool = false, transpose_b: bool = false }

    /// TVM's `OneHotAttrs` (`transform.h`).
    OneHotAttrs { depth: int = 1, axis: int = -1, dtype: Option<dtype> = None }

    /// TVM's `ReshapeAttrs` (`transform.h`).
    ReshapeAttrs { newshape: [int], allowzero: bool = false }

    /// TVM's `SubPixelAttrs` (`nn.h`).
    SubPixelAttrs { block_size: int = 1, layout: str = "NCHW", mode: str = "DCR" }

    /// TVM's `BroadcastAttrs` (`qnn/attrs.h`): the quantized binary operators.
    BroadcastAttrs { lhs_axis: int = -1, rhs_axis: int = -1 }

    /// TVM's `DequantizeAttrs` (`qnn/attrs.h`).
    DequantizeAttrs { out_dtype: Option<dtype> = None, axis: int = -1 }
}
