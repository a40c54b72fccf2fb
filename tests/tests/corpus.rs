//! The corpus of real printed Relay modules (`tests/corpus/`, each file naming its source,
//! the text as TVM printed it): each is checked as `relay check --compare-printed` checks
//! it, and must check with every type TVM printed on its bindings; some have their last
//! global's signature pinned.

use relay_ops::prelude::Prelude;
use std::path::Path;

/// Every file, with its last global's signature where it is pinned.
const PASSING: &[(&str, &str)] = &[
    ("byoc/3la_lstm_annotated_ilaflex.relay", ""),
    ("byoc/esp32s3_mlf_esp_partitioned_qnn.relay", ""),
    ("byoc/rfc0015_cmsisnn_partitioned.relay", "@tvmgen_default_cmsisnn_0: fn (Tensor[(1, 16, 16, 3), int8]) -> Tensor[(1, 16, 16, 3), int8]"),
    ("byoc/rfc0075_csinn_partitioned.relay", ""),
    ("byoc/tvm_capture_postdfsindex_spans_cublas.relay", ""),
    ("byoc/tvmbook_annotate_target_compiler_begin_end.relay", ""),
    ("byoc/tvmbook_annotate_target_dnnl_partitioned.relay", ""),
    ("byoc/tvmbook_annotate_target_refs.relay", ""),
    ("byoc/tvmbook_merge_compiler_regions.relay", ""),
    ("byoc/tvmbook_merge_composite_add_relu.relay", ""),
    ("dynamic/3la_lstm_word_language_model_adts.relay", ""),
    ("dynamic/compass_eliminate_tensor_array_adt.relay", ""),
    ("dynamic/compass_while_loop_metadata.relay", "@main: fn () -> (int64, int64, bool, int32, Tensor[(?), int32])"),
    ("dynamic/masahi_torchscript_while_loop_v004.relay", "@main: fn (Tensor[(10, 20), float32]) -> Tensor[(10, 20), float32]"),
    ("exprs/discuss7896_tf_conv2d_transpose.relay", "@main: fn (Tensor[(1, 32, 64, 128), float32], Tensor[(4, 4, 19, 32), float32]) -> Tensor[(1, 19, 128, 256), float32]"),
    ("exprs/gencog_fold_scale_axis_concat_sum_keepdims.relay", ""),
    ("exprs/gencog_squeeze_empty_axis.relay", "@main: fn (Tensor[(1, 4), float32], Tensor[(4), float32]) -> Tensor[(1, 4), float32]"),
    ("exprs/gencog_sum_empty_axis_keepdims_exclude.relay", "@main: fn (Tensor[(1, 2, 3), float32]) -> Tensor[(1, 1, 1), float32]"),
    ("exprs/gsl_readme_merged_conv2d.relay", "@main: fn (Tensor[(2, 2, 4, 4), float32], Tensor[(4, 2, 1, 1), float32]) -> Tensor[(2, 4, 4, 4), float32]"),
    ("exprs/gsl_readme_parallel_conv2d_add.relay", "@main: fn (Tensor[(2, 2, 4, 4), float32], Tensor[(4, 2, 1, 1), float32], Tensor[(4, 2, 1, 1), float32]) -> Tensor[(2, 4, 4, 4), float32]"),
    ("exprs/mlonmcu_test_cnn_uint8_int8_conv_spans.relay", "@main: fn (Tensor[(1, 3, 64, 64), uint8], Tensor[(3, 3, 5, 5), int8]) -> Tensor[(1, 3, 60, 60), int32]"),
    ("exprs/tvm_docs_relay_pattern_graph.relay", "@main: fn (Tensor[(1, 3, 224, 224), float32], Tensor[(3, 3, 3, 3), float32], Tensor[(3), float32]) -> Tensor[(1, 3, 222, 222), float32]"),
    ("exprs/tvm_docs_relay_pattern_partitioned.relay", ""),
    ("exprs/tvm_issue11704_maximum_dense_expand_dims.relay", "@main: fn (Tensor[(1, 2), float32], Tensor[(1, 2), float32], Tensor[(1, 2), float32], Tensor[(2, 2), float32]) -> Tensor[(1, 1, 2), float32]"),
    // Not pinned: TVM gives the argmax `Tensor[(1i64), int64]`, its index dtype that of
    // the data's int64 dimensions, which carry no integer type here (int32).
    ("exprs/tvm_issue13031_broadcast_argmax.relay", ""),
    ("exprs/tvm_issue8432_printir_pad_conv.relay", "@main: fn (Tensor[(1, 224, 224, 3), int8], Tensor[(7, 7, 3, 64), int8]) -> Tensor[(1, 224, 224, 64), int32]"),
    ("exprs/tvm_issue9813_conv2d_argmin.relay", "@main: fn (Tensor[(1, 3, 48, 48), float32], Tensor[(1, 3, 1, 1), float32]) -> Tensor[(1, 2, 2), int32]"),
    ("exprs/tvmbook_fold_scale_axis_fwd_after.relay", ""),
    ("exprs/tvmbook_fold_scale_axis_fwd_before.relay", ""),
    ("exprs/tvmbook_fold_scale_axis_fwd_nchw2c_before.relay", ""),
    ("exprs/uwsampl_tutorial_v001_def_f_typed.relay", "@f: fn (Tensor[(10, 1), float32]) -> Tensor[(10, 1), float32]"),
    ("exprs/uwsampl_tutorial_v001_fn_add.relay", "@main: fn (Tensor[(10, 1), float32]) -> Tensor[(10, 1), float32]"),
    ("exprs/uwsampl_tutorial_v001_free_var_add.relay", "@main: fn (Tensor[(10, 1), float32]) -> Tensor[(10, 1), float32]"),
    ("exprs/uwsampl_tutorial_v001_microtvm_multiply_add.relay", "@main: fn (Tensor[(1024), float32]) -> Tensor[(1024), float32]"),
    ("exprs/wxquare_v004_conv_bn_relu_before.relay", "@main: fn (Tensor[(1, 3, 224, 224), float32], Tensor[(32, 3, 3, 3), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32]) -> Tensor[(1, 32, 112, 112), float32]"),
    ("exprs/wxquare_v004_conv_bn_relu_fold_scale.relay", "@main: fn (Tensor[(1, 3, 224, 224), float32]) -> Tensor[(1, 32, 112, 112), float32]"),
    ("fused/tinycompiler_readme_fused_conv_relu.relay", ""),
    ("fused/tvm_pr3560_v003_fused_let.relay", ""),
    ("fused/tvmbook_annotate_used_memory_concat.relay", "@main: fn (Tensor[(1, 4, 5, 6), int8]) -> Tensor[(2, 4, 30), int8]"),
    ("fused/tvmbook_vta_graph_pack_composite_convattrs.relay", ""),
    ("fused/tvmcn_pass_infra_fuse_level0.relay", "@main: fn (Tensor[(1, 64, 56, 56), float32], Tensor[(64, 64, 3, 3), float32]) -> Tensor[(1, 64, 54, 54), float32]"),
    ("fused/tvmcn_pass_infra_sequential.relay", ""),
    ("models/1010code_sklearn_random_forest_mlf_default_relay.relay", "@main: fn (Tensor[(1, 4), float32]) -> (Tensor[(1), int64], Tensor[(1, 3), float32])"),
    ("models/3la_gluon_cifar_resnet20.relay", "@main: fn (Tensor[(1, 3, 32, 32), float32], Tensor[(16, 3, 3, 3), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16, 16, 3, 3), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16, 16, 3, 3), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16, 16, 3, 3), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16, 16, 3, 3), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16, 16, 3, 3), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16, 16, 3, 3), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(16), float32], Tensor[(32, 16, 1, 1), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32, 16, 3, 3), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32, 32, 3, 3), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32, 32, 3, 3), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32, 32, 3, 3), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32, 32, 3, 3), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32, 32, 3, 3), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(32), float32], Tensor[(64, 32, 1, 1), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 32, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(10, 64), float32], Tensor[(10), float32]) -> Tensor[(1, 10), float32]"),
    ("models/3la_gluon_efficientnet.relay", ""),
    ("models/3la_lstm_pattern.relay", ""),
    ("models/3la_lstm_word_language_model_batch1.relay", ""),
    ("models/3la_mobilenet_cifar_prelude_adts.relay", ""),
    ("models/3la_resmlp_384.relay", ""),
    ("models/3la_resmlp_384_glenside_let_form.relay", ""),
    ("models/3la_resnet50_onnx_simplify_inference_spans.relay", ""),
    ("models/3la_resnet50_pytorch_simplify_inference_spans.relay", ""),
    ("models/calyx_squeezenet_anf_let.relay", ""),
    ("models/eaten_cake_lower_resnet18_workload.relay", ""),
    ("models/glenside_efficientnet_lite4_11.relay", ""),
    ("models/glenside_mobilenet.relay", ""),
    ("models/glenside_mobilenet_simplified_for_inference.relay", ""),
    ("models/glenside_resmlp.relay", ""),
    ("models/glenside_resnet.relay", ""),
    ("models/glenside_ssd_r34.relay", ""),
    ("models/glenside_transformer.relay", ""),
    ("models/glenside_yolov3.relay", ""),
    ("models/gromero_sine_aot_tflite_mlf_relay.relay", ""),
    ("models/ikuokuo_relay_start_resnet18.relay", ""),
    ("models/relay_mlir_const_metadata.relay", "@main: fn (Tensor[(1, 2, 3), float32]) -> Tensor[(2, 3), float32]"),
    ("models/tvmbook_onnx_scatternd_i64.relay", "@main: fn (Tensor[(192, 36), float32]) -> Tensor[(192, 36), float32]"),
    ("models/tvmcn_adreno_tvmc_keras_resnet50.relay", ""),
    ("models/tvmcn_pass_infra_custom_pass.relay", ""),
    ("models/tvmcn_pass_infra_fold_constant.relay", ""),
    ("models/tvmcn_quickstart_resnet18.relay", "@main: fn (Tensor[(1, 3, 224, 224), float32], Tensor[(3), float32], Tensor[(3), float32], Tensor[(3), float32], Tensor[(3), float32], Tensor[(64, 3, 7, 7), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64, 64, 1, 1), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64, 64, 3, 3), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(64), float32], Tensor[(128, 64, 3, 3), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128, 128, 3, 3), float32], Tensor[(128, 64, 1, 1), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128, 128, 3, 3), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128, 128, 3, 3), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(128), float32], Tensor[(256, 128, 3, 3), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256, 256, 3, 3), float32], Tensor[(256, 128, 1, 1), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256, 256, 3, 3), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256, 256, 3, 3), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(256), float32], Tensor[(512, 256, 3, 3), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512, 512, 3, 3), float32], Tensor[(512, 256, 1, 1), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512, 512, 3, 3), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512, 512, 3, 3), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(512), float32], Tensor[(1000, 512), float32], Tensor[(1000), float32]) -> Tensor[(1, 1000), float32]"),
    ("models/uwsampl_tutorial_v001_mlp_workload.relay", "@main: fn (Tensor[(1, 1, 28, 28), float32], Tensor[(128, 784), float32], Tensor[(128), float32], Tensor[(64, 128), float32], Tensor[(64), float32], Tensor[(10, 64), float32], Tensor[(10), float32]) -> Tensor[(1, 10), float32]"),
    ("models/uwsampl_tutorial_v001_onnx_resnet18_dotted_names.relay", ""),
    ("models/uwsampl_tutorial_v001_resnet18_workload.relay", ""),
    ("models/uwsampl_tutorial_v001_vta_mxnet_resnet18_v1.relay", ""),
    ("models/wenmuzhou_paddle_ocr_rec_mlf_relay.relay", ""),
    ("quantized/esp32_mlf_onnx_qlinear_cnn_qnn.relay", "@main: fn (Tensor[(1, 32, 32, 3), float32]) -> Tensor[(1, 10), float32]"),
    ("quantized/esp32s3_mlf_onnx_deeplabv3_qdq_resize_depth_to_space.relay", "@main: fn (Tensor[(1, 513, 513, 3), float32]) -> Tensor[(1, 513, 513, 21), float32]"),
    ("quantized/esp32s3_mlf_onnx_shufflenet_qnn_split_concat.relay", "@main: fn (Tensor[(1, 3, 224, 224), float32]) -> Tensor[(1, 1000), float32]"),
    ("quantized/letscope_tflite_int8_mlp_mlf_default_relay.relay", ""),
    ("quantized/rfc0015_cmsisnn_softmax_qnn.relay", "@main: fn (Tensor[(1, 16, 16, 3), int8]) -> Tensor[(1, 16, 16, 3), int8]"),
    ("quantized/tvmbook_qnn_softmax_canonicalized.relay", "@main: fn (Tensor[(5, 10), int8]) -> Tensor[(5, 10), int8]"),
    ("quantized/tvmbook_qnn_softmax_fq2i.relay", "@main: fn (Tensor[(5, 10), int8]) -> Tensor[(5, 10), int8]"),
    ("quantized/tvmbook_quantize_annotate_simulated_quantize.relay", ""),
    ("quantized/tvmbook_quantize_partition_cast_hint.relay", ""),
    ("quantized/uwsampl_tutorial_v001_quantize_resnet18.relay", "@main: fn (Tensor[(1, 3, 224, 224), float32]) -> Tensor[(1, 1000), float32]"),
];

fn corpus() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

#[test]
fn every_corpus_file_is_listed() {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(corpus()).expect("tests/corpus") {
        let dir = dir.expect("an entry").path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).expect("a category") {
            let f = f.expect("an entry").path();
            let rel = f.strip_prefix(corpus()).expect("under the corpus");
            files.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
    files.sort();
    let mut listed: Vec<String> = PASSING.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(files, listed);
}

#[test]
fn corpus_files_check_as_listed() {
    let wrong = corpus_check();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The same with every clause run in the interpreter: the relations' compiled fast paths
/// and the interpreter agree on real modules.
#[test]
fn corpus_files_check_as_listed_with_clauses_interpreted() {
    relay_core::__private::fast::set_enabled(false);
    let wrong = corpus_check();
    relay_core::__private::fast::set_enabled(true);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// What differs from the corpus's expectations: each file checks, each binding has the
/// type TVM printed on it, and the last signature is the one listed.
fn corpus_check() -> Vec<String> {
    let prelude = Prelude::standard().expect("the prelude checks");
    let mut wrong = Vec::new();
    for (file, last) in PASSING {
        let src = std::fs::read_to_string(corpus().join(file)).expect("a corpus file");
        let checked = prelude.check(&src);
        if !checked.is_ok() {
            wrong.push(format!("{file}: {}", checked.errors[0].message));
            continue;
        }
        // Each binding's type is the one TVM printed on it.
        for p in relay_ops::compare::printed_types(&checked, &src) {
            wrong.push(format!("{file}: {}", p.message));
        }
        let sigs = checked.signatures();
        if !last.is_empty() && sigs.last().map(String::as_str) != Some(*last) {
            wrong.push(format!("{file}: {:?}", sigs.last()));
        }
    }
    wrong
}
