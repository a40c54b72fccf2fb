//! Every operator's attributes, pinned: their names, types and defaults, in declaration
//! order, against a table written from TVM v0.18's C++ attribute structs
//! (`include/tvm/relay/attrs/{nn,transform,reduce,algorithm,image,vision,bitserial,
//! annotation,memory,on_device,device_copy,vm,call,debug}.h`, `include/tvm/relay/qnn/attrs.h`). TVM's text printer
//! omits an attribute equal to its C++ default, so these defaults, not the Python API's,
//! are what an omitted attribute means. A C++ attribute without a default is required
//! here, except the few marked below that TVM always prints and may leave unset: those
//! default to `None`, as TVM's Python API leaves them.
//!
//! Each line is `operator | C++ attributes struct | attributes` (`-`: the operator has no
//! attributes struct), the attributes as `relay ops` lists them: `name: type` for a
//! required one, `name: type = default` otherwise.

use relay_core::op::OpDef;
use relay_core::registry;
use relay_ops as _;

const TABLE: &[&str] = &[
    "abs | - | none",
    "acos | - | none",
    "acosh | - | none",
    "add | - | none",
    "adv_index | - | none",
    "all | ReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False",
    "annotation.bitpack_end | - | none",
    "annotation.bitpack_start | - | none",
    "annotation.cast_hint | CastHintAttrs | dtype: dtype",
    "annotation.checkpoint | - | none",
    "annotation.compiler_begin | CompilerAttrs | compiler: str",
    "annotation.compiler_end | CompilerAttrs | compiler: str",
    "annotation.stop_fusion | - | none",
    // `WithFuncIdAttrs` (src/relay/transforms/partial_eval.cc).
    "annotation.with_funcid | WithFuncIdAttrs | fid: int = -1",
    "any | ReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False",
    // `start`, `stop`, `step` are expressions, printed as `meta[relay.Constant][i]`: text.
    "arange | ArangeAttrs | start: Option<str> = None, stop: Option<str> = None, step: Option<str> = None, dtype: dtype",
    "argmax | ArgReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, select_last_index: bool = False, exclude: bool = False",
    "argmin | ArgReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, select_last_index: bool = False, exclude: bool = False",
    "argsort | ArgsortAttrs | axis: int = -1, is_ascend: bool = True, dtype: Option<dtype> = None",
    "argwhere | - | none",
    "asin | - | none",
    "asinh | - | none",
    "atan | - | none",
    "atanh | - | none",
    "bitwise_and | - | none",
    "bitwise_not | - | none",
    "bitwise_or | - | none",
    "bitwise_xor | - | none",
    "broadcast_to | InitOpAttrs | shape: [int], dtype: Option<dtype> = None",
    "broadcast_to_like | - | none",
    // `CallLoweredAttrs` holds a `metadata` map, which the text format does not write.
    "call_lowered | CallLoweredAttrs | none",
    "cast | CastAttrs | dtype: dtype",
    "cast_like | - | none",
    "ceil | - | none",
    "clip | ClipAttrs | a_min: float, a_max: float",
    "collapse_sum_like | - | none",
    "collapse_sum_to | InitOpAttrs | shape: Option<[int]> = None, dtype: Option<dtype> = None",
    "concatenate | ConcatenateAttrs | axis: int = 0",
    "copy | - | none",
    "cos | - | none",
    "cosh | - | none",
    "cumprod | ScanopAttrs | axis: Option<int> = None, dtype: Option<dtype> = None, exclusive: bool = False",
    "cumsum | ScanopAttrs | axis: Option<int> = None, dtype: Option<dtype> = None, exclusive: bool = False",
    // `debug_func` (an `EnvFunc`) has no C++ default; a reference into the metadata
    // section arrives as its text.
    "debug | DebugAttrs | debug_func: Option<str> = None",
    // The virtual devices default to fully unconstrained (`None`); a reference into the
    // metadata section (`meta[VirtualDevice][0]`) arrives as its text.
    "device_copy | DeviceCopyAttrs | src_virtual_device: Option<str> = None, dst_virtual_device: Option<str> = None",
    "dft | DFTAttrs | inverse: bool = False",
    "divide | - | none",
    "dyn.broadcast_to | InitOpAttrs | shape: Option<[int]> = None, dtype: Option<dtype> = None",
    "dyn.expand_dims | DynExpandDimsAttrs | num_newaxis: int = 1",
    "dyn.full | InitOpAttrs | shape: Option<[int]> = None, dtype: Option<dtype> = None",
    r#"dyn.image.resize2d | Resize2DAttrs | size: Option<[int]> = None, roi: Option<[float]> = None, layout: str = "NCHW", method: str = "linear", coordinate_transformation_mode: str = "half_pixel", rounding_method: str = "round", cubic_alpha: float = -0.5, cubic_exclude: int = 0, extrapolation_value: float = 0.0, out_dtype: Option<dtype> = None"#,
    r#"dyn.nn.pad | PadAttrs | pad_width: [[int]] = [], pad_mode: str = "constant""#,
    r#"dyn.nn.upsampling | UpSamplingAttrs | scale_h: float = 0.0, scale_w: float = 0.0, layout: str = "NCHW", method: str = "nearest_neighbor", align_corners: bool = False"#,
    r#"dyn.nn.upsampling3d | UpSampling3DAttrs | scale_d: float = 0.0, scale_h: float = 0.0, scale_w: float = 0.0, layout: str = "NCDHW", method: str = "nearest_neighbor", coordinate_transformation_mode: str = "half_pixel""#,
    "dyn.one_hot | OneHotAttrs | depth: int = 1, axis: int = -1, dtype: Option<dtype> = None",
    "dyn.ones | InitOpAttrs | shape: Option<[int]> = None, dtype: Option<dtype> = None",
    "dyn.reshape | ReshapeAttrs | newshape: [int] = [], allowzero: bool = False",
    "dyn.sparse_to_dense | - | none",
    "dyn.squeeze | SqueezeAttrs | axis: Option<[int]> = None",
    r#"dyn.strided_slice | StridedSliceAttrs | begin: Option<[int]> = None, end: Option<[int]> = None, strides: Option<[int]> = None, slice_mode: str = "end", axes: Option<[int]> = None"#,
    "dyn.tile | TileAttrs | reps: [int] = []",
    r#"dyn.topk | TopKAttrs | k: Option<int> = None, axis: int = -1, ret_type: str = "both", is_ascend: bool = False, dtype: Option<dtype> = None"#,
    "dyn.zeros | InitOpAttrs | shape: Option<[int]> = None, dtype: Option<dtype> = None",
    "einsum | EinsumAttrs | equation: str",
    "equal | - | none",
    "erf | - | none",
    "exp | - | none",
    "expand_dims | ExpandDimsAttrs | axis: int, num_newaxis: int = 1",
    "fast_erf | - | none",
    "fast_exp | - | none",
    "fast_tanh | - | none",
    "fixed_point_multiply | FixedPointMultiplyAttrs | multiplier: int, shift: int",
    "fixed_point_multiply_per_axis | FixedPointMultiplyPerAxisAttrs | is_lshift_required: bool = False, is_rshift_required: bool = False, axes: [int]",
    "floor | - | none",
    "floor_divide | - | none",
    "floor_mod | - | none",
    "full | InitOpAttrs | shape: [int], dtype: Option<dtype> = None",
    "full_like | - | none",
    "gather | GatherAttrs | axis: Option<int> = None",
    "gather_nd | GatherNDAttrs | batch_dims: int = 0, index_rank: Option<int> = None",
    "greater | - | none",
    "greater_equal | - | none",
    "image.affine_grid | AffineGridAttrs | target_shape: [int]",
    r#"image.crop_and_resize | CropAndResizeAttrs | crop_size: Option<[int]> = None, layout: str = "NCHW", method: str = "bilinear", extrapolation_value: float = 0.0, out_dtype: Option<dtype> = None"#,
    r#"image.dilation2d | Dilation2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], dilations: [int] = [1, 1], data_layout: str = "NCHW", kernel_layout: str = "IHW", out_dtype: Option<dtype> = None"#,
    r#"image.grid_sample | GridSampleAttrs | method: str = "bilinear", layout: str = "NCHW", padding_mode: str = "zeros", align_corners: bool = True"#,
    r#"image.resize1d | Resize1DAttrs | size: Option<[int]> = None, roi: Option<[float]> = None, layout: str = "NCW", method: str = "linear", coordinate_transformation_mode: str = "half_pixel", rounding_method: str = "round", cubic_alpha: float = -0.5, cubic_exclude: int = 0, extrapolation_value: float = 0.0, out_dtype: Option<dtype> = None"#,
    r#"image.resize2d | Resize2DAttrs | size: Option<[int]> = None, roi: Option<[float]> = None, layout: str = "NCHW", method: str = "linear", coordinate_transformation_mode: str = "half_pixel", rounding_method: str = "round", cubic_alpha: float = -0.5, cubic_exclude: int = 0, extrapolation_value: float = 0.0, out_dtype: Option<dtype> = None"#,
    r#"image.resize3d | Resize3DAttrs | size: Option<[int]> = None, roi: Option<[float]> = None, layout: str = "NCDHW", method: str = "linear", coordinate_transformation_mode: str = "half_pixel", rounding_method: str = "round", cubic_alpha: float = -0.5, cubic_exclude: int = 0, extrapolation_value: float = 0.0, out_dtype: Option<dtype> = None"#,
    "invert_permutation | - | none",
    "isfinite | - | none",
    "isinf | - | none",
    "isnan | - | none",
    "layout_transform | LayoutTransformAttrs | src_layout: str, dst_layout: str",
    "left_shift | - | none",
    "less | - | none",
    "less_equal | - | none",
    "log | - | none",
    "log10 | - | none",
    "log2 | - | none",
    "logical_and | - | none",
    "logical_not | - | none",
    "logical_or | - | none",
    "logical_xor | - | none",
    "matrix_set_diag | MatrixSetDiagAttrs | k1: int = 0, k2: int = 0, super_diag_right_align: bool = True, sub_diag_right_align: bool = False",
    "max | ReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False",
    "maximum | - | none",
    "mean | ReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False",
    r#"memory.alloc_storage | AllocStorageAttrs | dtype: dtype = "float32", virtual_device: Option<str> = None"#,
    // `const_shape` (a constant of the metadata section, as its text) and `assert_shape`
    // have no C++ default.
    r#"memory.alloc_tensor | AllocTensorAttrs | dtype: dtype = "float32", const_shape: Option<str> = None, assert_shape: Option<[int]> = None"#,
    "memory.kill | - | none",
    r#"meshgrid | MeshgridAttrs | indexing: str = "ij""#,
    "min | ReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False",
    "minimum | - | none",
    "mod | - | none",
    "multiply | - | none",
    "ndarray_size | NdarraySizeAttrs | dtype: Option<dtype> = None",
    "negative | - | none",
    r#"nn.adaptive_avg_pool1d | AdaptivePool1DAttrs | output_size: [int] = [], layout: str = "NCW", out_layout: str = """#,
    r#"nn.adaptive_avg_pool2d | AdaptivePool2DAttrs | output_size: [int] = [], layout: str = "NCHW", out_layout: str = """#,
    r#"nn.adaptive_avg_pool3d | AdaptivePool3DAttrs | output_size: [int] = [], layout: str = "NCDHW", out_layout: str = """#,
    r#"nn.adaptive_max_pool1d | AdaptivePool1DAttrs | output_size: [int] = [], layout: str = "NCW", out_layout: str = """#,
    r#"nn.adaptive_max_pool2d | AdaptivePool2DAttrs | output_size: [int] = [], layout: str = "NCHW", out_layout: str = """#,
    r#"nn.adaptive_max_pool3d | AdaptivePool3DAttrs | output_size: [int] = [], layout: str = "NCDHW", out_layout: str = """#,
    r#"nn.avg_pool1d | AvgPool1DAttrs | pool_size: [int], strides: [int] = [1], dilation: [int] = [1], padding: [int] = [0], layout: str = "NCW", out_layout: str = "", ceil_mode: bool = False, count_include_pad: bool = False"#,
    r#"nn.avg_pool2d | AvgPool2DAttrs | pool_size: [int], strides: [int] = [1, 1], dilation: [int] = [1, 1], padding: [int] = [0, 0], layout: str = "NCHW", out_layout: str = "", ceil_mode: bool = False, count_include_pad: bool = False"#,
    r#"nn.avg_pool2d_grad | AvgPool2DAttrs | pool_size: [int], strides: [int] = [1, 1], dilation: [int] = [1, 1], padding: [int] = [0, 0], layout: str = "NCHW", out_layout: str = "", ceil_mode: bool = False, count_include_pad: bool = False"#,
    r#"nn.avg_pool3d | AvgPool3DAttrs | pool_size: [int], strides: [int] = [1, 1, 1], dilation: [int] = [1, 1, 1], padding: [int] = [0, 0, 0], layout: str = "NCDHW", out_layout: str = "", ceil_mode: bool = False, count_include_pad: bool = False"#,
    "nn.batch_flatten | - | none",
    "nn.batch_matmul | BatchMatmulAttrs | out_dtype: Option<dtype> = None, transpose_a: bool = False, transpose_b: bool = False",
    "nn.batch_norm | BatchNormAttrs | axis: int = 1, epsilon: float = 1e-5, center: bool = True, scale: bool = True",
    "nn.batch_to_space_nd | BatchToSpaceNDAttrs | block_shape: [int] = [1, 1], crops: [[int]]",
    "nn.bias_add | BiasAddAttrs | axis: int = 1",
    r#"nn.bitpack | BitPackAttrs | bits: int = 1, pack_axis: int = 1, bit_axis: int = -1, pack_type: Option<dtype> = None, name: str = "BitPack""#,
    r#"nn.bitserial_conv2d | BinaryConv2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], kernel_size: [int] = [3, 3], channels: Option<int> = None, activation_bits: int = 1, weight_bits: int = 1, data_layout: str = "NCHW", kernel_layout: str = "OIHW", pack_dtype: Option<dtype> = None, out_dtype: Option<dtype> = None, unipolar: bool = True"#,
    // `units` has no C++ default: TVM always prints it (`units=None` when unset).
    "nn.bitserial_dense | BinaryDenseAttrs | units: Option<int> = None, data_bits: int = 1, weight_bits: int = 1, pack_dtype: Option<dtype> = None, out_dtype: Option<dtype> = None, unipolar: bool = True",
    r#"nn.contrib_conv2d_NCHWc | Conv2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    "nn.contrib_conv2d_gemm_weight_transform | ConvGemmWeightTransformAttrs | tile_N: int, tile_K: int",
    r#"nn.contrib_conv2d_gemm_without_weight_transform | Conv2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    "nn.contrib_conv2d_winograd_nnpack_weight_transform | Conv2DWinogradNNPACKWeightTransformAttrs | convolution_algorithm: int, out_dtype: Option<dtype> = None",
    "nn.contrib_conv2d_winograd_weight_transform | ConvWinogradWeightTransformAttrs | tile_size: int",
    r#"nn.contrib_conv2d_winograd_without_weight_transform | Conv2DWinogradAttrs | tile_size: int, strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    "nn.contrib_conv3d_winograd_weight_transform | ConvWinogradWeightTransformAttrs | tile_size: int",
    r#"nn.contrib_conv3d_winograd_without_weight_transform | Conv3DWinogradAttrs | tile_size: int, strides: [int] = [1, 1, 1], padding: [int] = [0, 0, 0], dilation: [int] = [1, 1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCDHW", kernel_layout: str = "OIDHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    // TVM registers `DenseAttrs` but builds `DensePackAttrs`; `units` has no C++ default: TVM always prints it.
    r#"nn.contrib_dense_pack | DensePackAttrs | units: Option<int> = None, out_dtype: Option<dtype> = None, weight_layout: str = "NC""#,
    r#"nn.contrib_depthwise_conv2d_NCHWc | Conv2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"nn.conv1d | Conv1DAttrs | strides: [int] = [1], padding: [int] = [0, 0], dilation: [int] = [1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCW", kernel_layout: str = "OIW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"nn.conv1d_transpose | Conv1DTransposeAttrs | channels: Option<int> = None, kernel_size: Option<[int]> = None, strides: [int] = [1], output_padding: [int] = [0], padding: [int] = [0], dilation: [int] = [1], groups: int = 1, data_layout: str = "NCW", kernel_layout: str = "IOW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"nn.conv2d | Conv2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"nn.conv2d_backward_weight | Conv2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"nn.conv2d_transpose | Conv2DTransposeAttrs | channels: Option<int> = None, kernel_size: Option<[int]> = None, strides: [int] = [1, 1], output_padding: [int] = [0, 0], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, data_layout: str = "NCHW", kernel_layout: str = "IOHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"nn.conv3d | Conv3DAttrs | strides: [int] = [1, 1, 1], padding: [int] = [0, 0, 0], dilation: [int] = [1, 1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCDHW", kernel_layout: str = "OIDHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"nn.conv3d_transpose | Conv3DTransposeAttrs | channels: Option<int> = None, kernel_size: Option<[int]> = None, strides: [int] = [1, 1, 1], output_padding: [int] = [0, 0, 0], padding: [int] = [0, 0, 0], dilation: [int] = [1, 1, 1], groups: int = 1, data_layout: str = "NCDHW", kernel_layout: str = "IODHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"nn.correlation | CorrelationAttrs | kernel_size: int = 1, max_displacement: int = 1, stride1: int = 1, stride2: int = 1, padding: [int] = [0, 0], is_multiply: bool = True, layout: str = "NCHW""#,
    "nn.cross_entropy | - | none",
    "nn.cross_entropy_with_logits | - | none",
    r#"nn.deformable_conv2d | DeformableConv2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1], deformable_groups: int = 1, groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    // `units` has no C++ default: TVM always prints it (`units=None` when unset).
    "nn.dense | DenseAttrs | units: Option<int> = None, out_dtype: Option<dtype> = None",
    r#"nn.depth_to_space | SubPixelAttrs | block_size: int = 1, layout: str = "NCHW", mode: str = "DCR""#,
    "nn.dilate | DilateAttrs | strides: [int] = [1, 1], dilation_value: float = 0.0",
    "nn.dropout | DropoutAttrs | rate: float = 0.5",
    "nn.fast_softmax | SoftmaxAttrs | axis: int = -1",
    "nn.fifo_buffer | FIFOBufferAttrs | axis: int = 0",
    r#"nn.global_avg_pool2d | GlobalPool2DAttrs | layout: str = "NCHW", out_layout: str = """#,
    r#"nn.global_max_pool2d | GlobalPool2DAttrs | layout: str = "NCHW", out_layout: str = """#,
    "nn.group_norm | GroupNormAttrs | num_groups: int = 0, axis: int = 1, epsilon: float = 1e-5, center: bool = True, scale: bool = True",
    "nn.instance_norm | InstanceNormAttrs | axis: int = 1, epsilon: float = 1e-5, center: bool = True, scale: bool = True",
    "nn.internal.sparse_dense_padded | SparseDenseAttrs | sparse_lhs: bool = False",
    // `axis` has no C++ default: TVM always prints it.
    "nn.l2_normalize | L2NormalizeAttrs | eps: float, axis: Option<[int]> = None",
    "nn.layer_norm | LayerNormAttrs | axis: int = -1, epsilon: float = 1e-5, center: bool = True, scale: bool = True",
    "nn.leaky_relu | LeakyReluAttrs | alpha: float = 0.25",
    "nn.log_softmax | SoftmaxAttrs | axis: int = -1",
    "nn.lrn | LRNAttrs | size: int = 5, axis: int = 1, bias: float = 2.0, alpha: float = 0.0001, beta: float = 0.75",
    // `units` has no C++ default: TVM always prints it (`units=None` when unset).
    "nn.matmul | MatmulAttrs | units: Option<int> = None, out_dtype: Option<dtype> = None, transpose_a: bool = False, transpose_b: bool = False",
    r#"nn.max_pool1d | MaxPool1DAttrs | pool_size: [int], strides: [int] = [1], dilation: [int] = [1], padding: [int] = [0], layout: str = "NCW", out_layout: str = "", ceil_mode: bool = False"#,
    r#"nn.max_pool2d | MaxPool2DAttrs | pool_size: [int], strides: [int] = [1, 1], dilation: [int] = [1, 1], padding: [int] = [0, 0], layout: str = "NCHW", out_layout: str = "", ceil_mode: bool = False"#,
    r#"nn.max_pool2d_grad | MaxPool2DAttrs | pool_size: [int], strides: [int] = [1, 1], dilation: [int] = [1, 1], padding: [int] = [0, 0], layout: str = "NCHW", out_layout: str = "", ceil_mode: bool = False"#,
    r#"nn.max_pool3d | MaxPool3DAttrs | pool_size: [int], strides: [int] = [1, 1, 1], dilation: [int] = [1, 1, 1], padding: [int] = [0, 0, 0], layout: str = "NCDHW", out_layout: str = "", ceil_mode: bool = False"#,
    r#"nn.mirror_pad | MirrorPadAttrs | mode: str = "SYMMETRIC", pad_width: [[int]]"#,
    r#"nn.nll_loss | NLLLossAttrs | reduction: str = "mean", ignore_index: int"#,
    r#"nn.pad | PadAttrs | pad_width: [[int]], pad_mode: str = "constant""#,
    "nn.prelu | PReluAttrs | axis: int = 1",
    "nn.relu | - | none",
    "nn.softmax | SoftmaxAttrs | axis: int = -1",
    "nn.space_to_batch_nd | SpaceToBatchNDAttrs | block_shape: [int] = [1, 1], paddings: [[int]], pad_value: float = 0.0",
    r#"nn.space_to_depth | SubPixelAttrs | block_size: int = 1, layout: str = "NCHW", mode: str = "DCR""#,
    "nn.sparse_add | - | none",
    r#"nn.sparse_conv2d | SparseConv2DAttrs | layout: str = "NHWC", kernel_size: [int] = [1, 1]"#,
    "nn.sparse_dense | SparseDenseAttrs | sparse_lhs: bool = False",
    "nn.sparse_transpose | SparseTransposeAttrs | none",
    r#"nn.upsampling | UpSamplingAttrs | scale_h: float, scale_w: float, layout: str = "NCHW", method: str = "nearest_neighbor", align_corners: bool = False"#,
    r#"nn.upsampling3d | UpSampling3DAttrs | scale_d: float, scale_h: float, scale_w: float, layout: str = "NCDHW", method: str = "nearest_neighbor", coordinate_transformation_mode: str = "half_pixel""#,
    "not_equal | - | none",
    "on_device | OnDeviceAttrs | virtual_device: Option<str> = None, constrain_result: bool = False, constrain_body: bool = True",
    "one_hot | OneHotAttrs | depth: int = 1, axis: int = -1, dtype: Option<dtype> = None",
    "ones | InitOpAttrs | shape: [int], dtype: Option<dtype> = None",
    "ones_like | - | none",
    "power | - | none",
    "prod | ReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False",
    "qnn.abs | - | none",
    "qnn.add | BroadcastAttrs | lhs_axis: int = -1, rhs_axis: int = -1",
    r#"qnn.avg_pool2d | AvgPool2DAttrs | pool_size: [int], strides: [int] = [1, 1], dilation: [int] = [1, 1], padding: [int] = [0, 0], layout: str = "NCHW", out_layout: str = "", ceil_mode: bool = False, count_include_pad: bool = False"#,
    "qnn.batch_matmul | BatchMatmulAttrs | out_dtype: Option<dtype> = None, transpose_a: bool = False, transpose_b: bool = False",
    "qnn.concatenate | ConcatenateAttrs | axis: int = 0",
    r#"qnn.contrib_dense_pack | DensePackAttrs | units: Option<int> = None, out_dtype: Option<dtype> = None, weight_layout: str = "NC""#,
    r#"qnn.conv2d | Conv2DAttrs | strides: [int] = [1, 1], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, channels: Option<int> = None, kernel_size: Option<[int]> = None, data_layout: str = "NCHW", kernel_layout: str = "OIHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    r#"qnn.conv2d_transpose | Conv2DTransposeAttrs | channels: Option<int> = None, kernel_size: Option<[int]> = None, strides: [int] = [1, 1], output_padding: [int] = [0, 0], padding: [int] = [0, 0], dilation: [int] = [1, 1], groups: int = 1, data_layout: str = "NCHW", kernel_layout: str = "IOHW", out_layout: str = "", out_dtype: Option<dtype> = None"#,
    "qnn.dense | DenseAttrs | units: Option<int> = None, out_dtype: Option<dtype> = None",
    // `out_dtype` has no C++ default, so TVM v0.18 always prints it; the modules TVM printed
    // before it existed (v0.8) leave it out: unset is `float32`, as then and in the Python API.
    "qnn.dequantize | DequantizeAttrs | out_dtype: Option<dtype> = None, axis: int = -1",
    "qnn.erf | - | none",
    "qnn.exp | - | none",
    "qnn.hardswish | - | none",
    "qnn.leaky_relu | LeakyReluAttrs | alpha: float = 0.25",
    "qnn.log | - | none",
    "qnn.mul | BroadcastAttrs | lhs_axis: int = -1, rhs_axis: int = -1",
    "qnn.quantize | QuantizeAttrs | out_dtype: dtype, axis: int = -1",
    // `out_dtype` defaults to the unset dtype, which the relation refuses (as TVM's).
    r#"qnn.requantize | RequantizeAttrs | axis: int = -1, rounding: str = "None", compute_dtype: str = "None", out_dtype: Option<dtype> = None"#,
    "qnn.rsqrt | - | none",
    "qnn.sigmoid | - | none",
    "qnn.simulated_dequantize | DequantizeAttrs | out_dtype: Option<dtype> = None, axis: int = -1",
    "qnn.simulated_quantize | SimulatedQuantizeAttrs | axis: int = -1",
    "qnn.softmax | SoftmaxAttrs | axis: int = -1",
    "qnn.sqrt | - | none",
    "qnn.subtract | BroadcastAttrs | lhs_axis: int = -1, rhs_axis: int = -1",
    "qnn.tanh | - | none",
    "random.multinomial | MultinomialAttrs | num_samples: int = 1",
    "random.normal | NormalAttrs | out_shape: [int], out_dtype: Option<dtype> = None",
    "random.threefry_generate | ThreefryGenerateAttrs | out_shape: [int]",
    "random.threefry_split | - | none",
    "random.uniform | UniformAttrs | out_shape: [int], out_dtype: Option<dtype> = None",
    "reinterpret | CastAttrs | dtype: dtype",
    // `SimulatedQuantizeAttrs` of `src/relay/quantize/quantize.h` (not qnn's).
    r#"relay.op.annotation.simulated_quantize | SimulatedQuantizeAttrs | kind: int, sign: bool = True, rounding: str = "round""#,
    "repeat | RepeatAttrs | repeats: int, axis: Option<int> = None",
    "reshape | ReshapeAttrs | newshape: [int], allowzero: bool = False",
    "reshape_like | ReshapeLikeAttrs | lhs_begin: int = 0, lhs_end: Option<int> = None, rhs_begin: int = 0, rhs_end: Option<int> = None",
    "reverse | ReverseAttrs | axis: Option<int> = None",
    // TVM's `contrib_reverse_reshape`.
    "reverse_reshape | ReshapeAttrs | newshape: [int], allowzero: bool = False",
    "reverse_sequence | ReverseSequenceAttrs | seq_axis: int = 1, batch_axis: int = 0",
    "right_shift | - | none",
    "round | - | none",
    "rsqrt | - | none",
    r#"scatter_elements | ScatterElementsAttrs | axis: int = 0, reduction: str = "update""#,
    r#"scatter_nd | ScatterNDAttrs | mode: str = "update""#,
    r#"searchsorted | SearchSortedAttrs | right: bool = False, dtype: dtype = "int32""#,
    "sequence_mask | SequenceMaskAttrs | mask_value: float = 0.0, axis: int = 0",
    "shape_of | ShapeOfAttrs | dtype: Option<dtype> = None",
    "sigmoid | - | none",
    "sign | - | none",
    "sin | - | none",
    "sinh | - | none",
    // `axes` has no C++ default: TVM always prints it.
    "slice_like | SliceLikeAttrs | axes: Option<[int]> = None",
    "sliding_window | SlidingWindowAttrs | axis: int, window_shape: [int], strides: [int]",
    "sort | ArgsortAttrs | axis: int = -1, is_ascend: bool = True, dtype: Option<dtype> = None",
    "sparse_fill_empty_rows | - | none",
    "sparse_reshape | - | none",
    "sparse_to_dense | SparseToDenseAttrs | output_shape: [int]",
    "split | SplitAttrs | indices_or_sections: int | [int], axis: int = 0",
    "sqrt | - | none",
    "squeeze | SqueezeAttrs | axis: Option<[int]> = None",
    "stack | StackAttrs | axis: int = 0",
    // Not a TVM operator (TVM's Python `std` is `sqrt(variance)`): `VarianceAttrs`.
    "std | VarianceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False, unbiased: bool = False",
    "stft | StftAttrs | n_fft: int = -1, hop_length: int = -1, win_length: int = -1, normalized: bool = False, onesided: bool = True",
    "strided_set | - | none",
    // `strides` and `axes` have no C++ default: TVM always prints them.
    r#"strided_slice | StridedSliceAttrs | begin: [int], end: [int], strides: Option<[int]> = None, slice_mode: str = "end", axes: Option<[int]> = None"#,
    "subtract | - | none",
    "sum | ReduceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False",
    r#"take | TakeAttrs | batch_dims: int = 0, axis: Option<int> = None, mode: str = "clip""#,
    "tan | - | none",
    "tanh | - | none",
    "tile | TileAttrs | reps: [int]",
    r#"topk | TopKAttrs | k: int, axis: int = -1, ret_type: str = "both", is_ascend: bool = False, dtype: Option<dtype> = None"#,
    // `axes` has no C++ default: TVM always prints it.
    "transpose | TransposeAttrs | axes: Option<[int]> = None",
    "trilu | TriluAttrs | upper: bool = True",
    "trunc | - | none",
    "trunc_divide | - | none",
    "trunc_mod | - | none",
    "unique | UniqueAttrs | sorted: bool = True, return_counts: bool = False",
    "unravel_index | - | none",
    "variance | VarianceAttrs | axis: Option<[int]> = None, keepdims: bool = False, exclude: bool = False, unbiased: bool = False",
    r#"vision.all_class_non_max_suppression | AllClassNonMaximumSuppressionAttrs | output_format: str = "onnx""#,
    // `score_threshold` has no C++ default: TVM always prints it (`None`: the threshold is an argument).
    "vision.get_valid_counts | GetValidCountsAttrs | score_threshold: Option<float> = None, id_index: int = 0, score_index: int = 1",
    "vision.multibox_prior | MultiBoxPriorAttrs | sizes: [float] = [1.0], ratios: [float] = [1.0], steps: [float] = [-1.0, -1.0], offsets: [float] = [0.5, 0.5], clip: bool = False",
    "vision.multibox_transform_loc | MultiBoxTransformLocAttrs | clip: bool = True, threshold: float = 0.01, variances: [float] = [0.1, 0.1, 0.2, 0.2], keep_background: bool = False",
    "vision.non_max_suppression | NonMaximumSuppressionAttrs | force_suppress: bool = False, top_k: int = -1, coord_start: int = 2, score_index: int = 1, id_index: int = 0, return_indices: bool = True, invalid_to_bottom: bool = False",
    "vision.proposal | ProposalAttrs | scales: [float] = [4.0, 8.0, 16.0, 32.0], ratios: [float] = [0.5, 1.0, 2.0], feature_stride: int = 16, threshold: float = 0.7, rpn_pre_nms_top_n: int = 6000, rpn_post_nms_top_n: int = 300, rpn_min_size: int = 16, iou_loss: bool = False",
    "vision.regular_non_max_suppression | RegularNonMaximumSuppressionAttrs | max_detections_per_class: int, max_detections: int, num_classes: int, iou_threshold: float, score_threshold: float",
    r#"vision.roi_align | ROIAlignAttrs | pooled_size: [int], spatial_scale: float, sample_ratio: int = -1, layout: str = "NCHW", mode: str = "avg""#,
    r#"vision.roi_pool | ROIPoolAttrs | pooled_size: [int], spatial_scale: float, layout: str = "NCHW""#,
    "vision.yolo_reorg | YoloReorgAttrs | stride: int = 1",
    // `DictAttrs`: any attributes, which a schema cannot declare.
    "vm.invoke_tvm_op | DictAttrs | none",
    "vm.reshape_tensor | ReshapeTensorAttrs | newshape: [int]",
    // As `shape_of`.
    "vm.shape_of | ShapeOfAttrs | dtype: Option<dtype> = None",
    "where | - | none",
    "zeros | InitOpAttrs | shape: [int], dtype: Option<dtype> = None",
    "zeros_like | - | none",
];

/// An operator's attributes as the table writes them.
fn shown(op: &OpDef) -> String {
    if op.attrs.is_empty() {
        return "none".into();
    }
    let attrs: Vec<String> = op
        .attrs
        .iter()
        .map(|a| match &a.default {
            Some(c) => format!("{}: {} = {}", a.name, a.ty, c.value()),
            None => format!("{}: {}", a.name, a.ty),
        })
        .collect();
    attrs.join(", ")
}

#[test]
fn every_operator_has_the_attributes_and_defaults_of_tvm() {
    let reg = registry::global().unwrap();
    let mut wrong = Vec::new();
    let mut names = Vec::new();
    for line in TABLE {
        let parts: Vec<&str> = line.splitn(3, " | ").collect();
        let [name, _cpp_struct, attrs] = parts[..] else {
            panic!("a table line is `op | struct | attributes`: {line}");
        };
        names.push(name);
        match reg.op(name) {
            None => wrong.push(format!("`{name}` is in the table but not registered")),
            Some(op) if shown(op) != attrs => wrong.push(format!(
                "`{name}`:\n   declared {}\n   table    {attrs}",
                shown(op)
            )),
            Some(_) => {}
        }
    }
    for op in reg.ops() {
        if !names.contains(&op.name) {
            wrong.push(format!("`{}` is registered but not in the table", op.name));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    assert_eq!(TABLE.len(), 295);
}

/// The comparison is exact: a changed default, type, name or order is caught.
#[test]
fn a_changed_default_is_caught() {
    use relay_core::op::{AttrConst, AttrDef, AttrType};
    static OP: OpDef = OpDef {
        name: "nn.softmax",
        doc: "",
        params: &[],
        arg_names: &[],
        args: &[],
        ret: "float32",
        relation: None,
        attrs: &[AttrDef {
            name: "axis",
            ty: AttrType::Int,
            default: Some(AttrConst::Int(1)),
        }],
        level: 1,
        file: "",
        line: 0,
    };
    assert_eq!(shown(&OP), "axis: int = 1");
    assert!(TABLE.contains(&"nn.softmax | SoftmaxAttrs | axis: int = -1"));
}

/// Calls with their attributes as TVM prints them (unset dtypes as `""`, unset lists and
/// integers as `None`) type-check through the text parser: `(parameters, call, result)`.
#[test]
fn attributes_as_tvm_prints_them_are_accepted() {
    use relay_core::adt::AdtTable;
    use relay_core::text::parse_module;
    use relay_core::TyCtx;
    let cases: &[(&str, &str, &str)] = &[
        (
            "%x: Tensor[(4, 768), float16], %w: Tensor[(64, 768), float16]",
            r#"nn.dense(%x, %w, units=None, out_dtype="")"#,
            "Tensor[(4, 64), float16]",
        ),
        (
            "%x: Tensor[(4, 768), float32], %w: Tensor[(64, 768), float32]",
            r#"nn.matmul(%x, %w, units=None, out_dtype="", transpose_b=True)"#,
            "Tensor[(4, 64), float32]",
        ),
        (
            "%x: Tensor[(12, 128, 64), float16], %y: Tensor[(12, 64, 128), float16]",
            r#"nn.batch_matmul(%x, %y, out_dtype="float16")"#,
            "Tensor[(12, 128, 128), float16]",
        ),
        (
            "%x: Tensor[(3, 1), float32]",
            r#"broadcast_to(%x, shape=[2, 3, 4], dtype="")"#,
            "Tensor[(2, 3, 4), float32]",
        ),
        (
            "%x: Tensor[(1, 3, 8, 8), int8], %w: Tensor[(4, 3, 3, 3), int8]",
            r#"nn.conv2d(%x, %w, padding=[1, 1, 1, 1], channels=4, kernel_size=[3, 3], out_dtype="")"#,
            "Tensor[(1, 4, 8, 8), int8]",
        ),
        (
            "%x: Tensor[(2, 3, 4), float32], %s: Tensor[(2), int64]",
            "collapse_sum_to(%x, %s, shape=[3, 1])",
            "Tensor[(3, 1), float32]",
        ),
        (
            "%x: Tensor[(4, 10), float32]",
            r#"topk(%x, k=3, axis=-1, ret_type="both", is_ascend=False, dtype="int32")"#,
            "(Tensor[(4, 3), float32], Tensor[(4, 3), int32])",
        ),
        (
            "%x: Tensor[(4, 10), float32]",
            r#"argsort(%x, axis=-1, is_ascend=True, dtype="int64")"#,
            "Tensor[(4, 10), int64]",
        ),
        (
            "%x: Tensor[(4, 10), float32]",
            r#"shape_of(%x, dtype="int64")"#,
            "Tensor[(2), int64]",
        ),
        (
            "%i: Tensor[(5), int32]",
            r#"one_hot(%i, 1f, 0f, depth=10, axis=-1, dtype="float32")"#,
            "Tensor[(5, 10), float32]",
        ),
        (
            "%x: Tensor[(4, 10), float32]",
            "strided_slice(%x, begin=[0, 2], end=[4, 10], strides=[1], axes=None)",
            "Tensor[(4, 8), float32]",
        ),
        (
            "%x: Tensor[(4, 10), float32]",
            "transpose(%x, axes=None)",
            "Tensor[(10, 4), float32]",
        ),
        (
            "%x: Tensor[(10, 5, 4), float32]",
            "contrib_reverse_reshape(%x, newshape=[-1, 0])",
            "Tensor[(50, 4), float32]",
        ),
        (
            "%x: Tensor[(1, 64, 8, 8), float32]",
            r#"nn.max_pool2d(%x, pool_size=[2, 2], strides=[2, 2], padding=[0, 0, 0, 0], layout="NCHW")"#,
            "Tensor[(1, 64, 4, 4), float32]",
        ),
        (
            "%x: Tensor[(2, 5), float32]",
            r#"cumsum(%x, axis=1, dtype="")"#,
            "Tensor[(2, 5), float32]",
        ),
        (
            "%x: Tensor[(1, 100, 6), float32]",
            "vision.get_valid_counts(%x, 0.5, score_threshold=None)",
            "(Tensor[(1), int32], Tensor[(1, 100, 6), float32], Tensor[(1, 100), int32])",
        ),
        (
            "%x: Tensor[(4, 64), float32], %w: Tensor[(3, 64, 16), float32]",
            r#"nn.contrib_dense_pack(%x, %w, units=None, out_dtype="", weight_layout="NC16n")"#,
            "Tensor[(4, 48), float32]",
        ),
        (
            "%x: Tensor[(?, ?), float32], %s: Tensor[(3), int64]",
            "dyn.broadcast_to(%x, %s, shape=None)",
            "Tensor[(?, ?, ?), float32]",
        ),
        (
            "%x: Tensor[(2, 3), float32], %s: Tensor[(1), int64]",
            "dyn.reshape(%x, %s, newshape=[])",
            "Tensor[(?), float32]",
        ),
    ];
    let mut wrong = Vec::new();
    for (params, call, want) in cases {
        let src = format!("def @f({params}) {{ {call} }}");
        let mut tcx = TyCtx::new();
        let mut adts = AdtTable::default();
        let m = match parse_module(&src, &mut tcx, &mut adts) {
            Ok(m) => m,
            Err(e) => {
                wrong.push(format!("{call}: does not parse: {}", e[0].message));
                continue;
            }
        };
        let typed = relay_core::infer::infer(tcx, &adts, &m);
        if let Some(e) = typed.errors().first() {
            wrong.push(format!("{call}: {}", e.message));
            continue;
        }
        let got = typed.show(typed.global_ty(m.global("f").unwrap()));
        if got.rsplit_once(" -> ").map(|(_, r)| r) != Some(*want) {
            wrong.push(format!("{call}: {got}, want the result {want}"));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}
