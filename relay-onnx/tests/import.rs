//! `relay import`: the printed module of small models, exactly, and the round trip of the
//! real models (`tests/onnx-models/`): each printed module read back by relay-core's
//! reader and checker, every binding and the signature compared with the ONNX check's.

use relay_onnx::build::{int, Graph, D};
use relay_onnx::import::{import_bytes, ImportError};

fn x(g: &mut Graph) {
    g.input("x", D::F32, &[D::p("N"), D::p("S"), D::v(768)]);
}

/// `Shape(x)[i]` as a one-element vector.
fn dim(g: &mut Graph, i: i64, out: &str) {
    let idx = format!("{out}_idx");
    g.init_ints(&idx, &[1], &[i]);
    g.node("Gather", &["shape", &idx], &[out], vec![int("axis", 0)]);
}

#[test]
fn a_computed_shape_is_an_onnx_value_annotated_with_its_value() {
    let mut g = Graph::new(17);
    x(&mut g);
    g.node("Shape", &["x"], &["shape"], vec![]);
    dim(&mut g, 0, "n");
    dim(&mut g, 1, "s");
    g.node("Mul", &["n", "s"], &["ns"], vec![]);
    g.init_ints("width", &[1], &[768]);
    g.node(
        "Concat",
        &["ns", "width"],
        &["target"],
        vec![int("axis", 0)],
    );
    g.node("Reshape", &["x", "target"], &["y"], vec![]);
    g.output("y");
    let imported = import_bytes(g.bytes().into()).unwrap();
    let text = "\
#[version = \"0.0.5\"]
def @main(
  %x: Tensor[(N, S, 768), float32],
  %n_idx: Tensor[(1), int64],
  %s_idx: Tensor[(1), int64],
  %width: Tensor[(1), int64]
) {
  let %shape: Tensor[(3), int64] = onnx.shape(%x);
  let %n: Tensor[(1), int64] = take(%shape, %n_idx, axis=0);
  let %s: Tensor[(1), int64] = take(%shape, %s_idx, axis=0);
  let %ns: Tensor[(1), int64] = onnx.binary(%n, %s);
  let %target: Tensor[(2), int64] = onnx.concat((%ns, %width), axis=0);
  let %target_value: Tensor[(N*S, 768), int64] = onnx.value(%target);
  let %y: Tensor[(N*S, 768), float32] = onnx.reshape(%x, %target_value);
  %y
}
";
    assert_eq!(imported.text, text);
    let prelude = relay_ops::prelude::Prelude::standard().unwrap();
    let checked = prelude.check(text);
    assert!(checked.errors.is_empty(), "{:?}", checked.errors);
    assert_eq!(
        checked.signatures(),
        ["@main: fn (Tensor[(N, S, 768), float32], Tensor[(1), int64], Tensor[(1), int64], Tensor[(1), int64]) -> Tensor[(N*S, 768), float32]"]
    );
    // An annotation of another number of elements than the tensor has is rejected.
    let wrong = text
        .replace(
            "%target_value: Tensor[(N*S, 768), int64]",
            "%target_value: Tensor[(N, S, 768), int64]",
        )
        .replace(
            "%y: Tensor[(N*S, 768), float32]",
            "%y: Tensor[(N, S, 768), float32]",
        );
    let checked = prelude.check(&wrong);
    let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        ["the result of `onnx.value` does not have the type required of it: `Tensor[(2), int64]` has 2 elements, and the value `Tensor[(N, S, 768), int64]` has 3 elements"]
    );
}

/// `ty` (as `relay check model.onnx` shows it) with the symbols the importer renamed
/// spelled as it printed them.
fn renamed(ty: &str, symbols: &[(String, String)]) -> String {
    let b = ty.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'\'' || c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'.') {
                j += 1;
            }
            let word = &ty[i..j];
            match symbols.iter().find(|(shown, _)| shown == word) {
                Some((_, printed)) => out.push_str(printed),
                None => out.push_str(word),
            }
            i = j;
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// Imports the model at `path` and reads the text back: `Ok` with the number of
/// bindings compared, or why it does not round-trip.
fn round_trip(bytes: &[u8]) -> Result<usize, String> {
    let imported = match import_bytes(bytes.to_vec().into()) {
        Ok(i) => i,
        Err(ImportError::Load(e)) => return Err(format!("not read: {e}")),
        Err(ImportError::Diagnostics(d)) => {
            let first = d
                .iter()
                .find(|d| d.severity == relay_onnx::Severity::Error)
                .unwrap();
            let node = first.node.as_ref().unwrap();
            return Err(format!("not imported: {node}: {}", first.message));
        }
    };
    let prelude = relay_ops::prelude::Prelude::standard().unwrap();
    let checked = prelude.check(&imported.text);
    if let Some(e) = checked.errors.first() {
        return Err(format!("not read back: {}", e.message));
    }
    let (module, typed) = checked.typed.as_ref().unwrap();
    let main = checked
        .user_globals()
        .iter()
        .find(|g| &*g.name == "main")
        .unwrap();
    let mut relay = std::collections::HashMap::new();
    for e in module.lets(main.func.unwrap()) {
        let relay_core::expr::ExprKind::Let { var, .. } = module.expr(e).kind else {
            continue;
        };
        relay.insert(
            module.var_name(var).to_string(),
            typed.show_within(typed.var_ty(var), usize::MAX),
        );
    }
    // The ONNX check's types, against the text's.
    let mut c = relay_onnx::check_bytes(bytes.to_vec().into()).unwrap();
    let name_of = |onnx: &str| -> String {
        imported
            .names
            .iter()
            .find(|(o, _)| o == onnx)
            .unwrap()
            .1
            .clone()
    };
    let bindings = c.bindings();
    for (onnx, ty) in &bindings {
        let want = renamed(ty, &imported.symbols);
        let name = name_of(onnx);
        match relay.get(&name) {
            Some(have) if *have == want => {}
            have => {
                return Err(format!(
                    "`%{name}` is `{have:?}`, and the ONNX check's `{want}`"
                ))
            }
        }
    }
    // The signature: the graph inputs, then the initializers, as parameters.
    let sig = c.signature();
    let (ins, out) = sig
        .strip_prefix("fn (")
        .unwrap()
        .split_once(") -> ")
        .unwrap();
    let params: Vec<&str> = imported.text[imported.text.find("def @main(").unwrap()..]
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with(')'))
        .map(|l| l.trim().trim_end_matches(',').split_once(": ").unwrap().0)
        .collect();
    let mut want: Vec<String> = Vec::new();
    for p in &params {
        let onnx = &imported
            .names
            .iter()
            .find(|(_, r)| format!("%{r}") == *p)
            .unwrap()
            .0;
        want.push(c.type_of(onnx).unwrap());
    }
    // The ONNX signature is that of the graph inputs, the parameters first.
    let inputs = (0..=want.len()).find(|&k| want[..k].join(", ") == ins);
    if inputs.is_none() {
        return Err(format!(
            "the parameters {want:?} do not start with the graph inputs `{ins}`"
        ));
    }
    let want = renamed(
        &format!("fn ({}) -> {out}", want.join(", ")),
        &imported.symbols,
    );
    let gid = module.global("main").unwrap();
    let have = typed.show_within(typed.global_ty(gid), usize::MAX);
    if have != want {
        return Err(format!(
            "`@main` is `{have}`, and the ONNX check's `{want}`"
        ));
    }
    Ok(bindings.len())
}

#[test]
fn the_real_models_round_trip() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/onnx-models");
    let mut models: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    models.sort();
    let mut exact = 0;
    let mut bindings = 0;
    let mut not = Vec::new();
    for path in &models {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match round_trip(&std::fs::read(path).unwrap()) {
            Ok(n) => {
                exact += 1;
                bindings += n;
            }
            Err(why) => not.push(format!("{name}: {why}")),
        }
    }
    for n in &not {
        println!("{n}");
    }
    // Each model that does not round-trip, and why (the messages are the exact ones).
    let why: Vec<(&str, &str)> = not
        .iter()
        .map(|n| {
            let (model, reason) = n.split_once(": ").unwrap();
            let kind = if reason.contains("is declared `") {
                "a declared output disagrees with the inferred type: the model does not check"
            } else if reason.contains("is not supported") {
                "an operator the checker does not support"
            } else if reason.contains("cannot be printed as Relay yet") {
                "`Loop` is not printed"
            } else if reason.contains("Relay's `if` needs one type of both branches") {
                "an `If` whose branches give outputs of different ranks"
            } else if reason.starts_with("not read back: the bound value: `(") {
                "a call of several outputs, solved before its annotation says how many"
            } else if reason.contains("vs max(") {
                "a dimension the model leaves unknown, printed as a symbol"
            } else {
                reason
            };
            (model, kind)
        })
        .collect();
    let several = "a call of several outputs, solved before its annotation says how many";
    assert_eq!(
        why,
        [
            (
                "ddddocr_common.onnx",
                "a declared output disagrees with the inferred type: the model does not check"
            ),
            (
                "ddddocr_common_old.onnx",
                "a declared output disagrees with the inferred type: the model does not check"
            ),
            ("faster_whisper_silero_vad_v6.onnx", several),
            ("light_bvlc_alexnet.onnx", several),
            ("light_inception_v1.onnx", several),
            ("light_squeezenet.onnx", several),
            ("light_vgg19.onnx", several),
            (
                "ort_logreg_iris.onnx",
                "an operator the checker does not support"
            ),
            (
                "ppocrv3_det.onnx",
                "a dimension the model leaves unknown, printed as a symbol"
            ),
            ("romanizer_encoder.onnx", several),
            (
                "silero_vad_16k_op15.onnx",
                "an `If` whose branches give outputs of different ranks"
            ),
            ("silero_vad_16k_sequence.onnx", several),
            (
                "silero_vad_half.onnx",
                "an `If` whose branches give outputs of different ranks"
            ),
            ("silero_vad_openvino_16k.onnx", several),
            (
                "silero_vad_v6.onnx",
                "an `If` whose branches give outputs of different ranks"
            ),
            ("slanet_table.onnx", "`Loop` is not printed"),
            ("tashkeel_bilstm_int8.onnx", several),
            ("vit_focus_ort_fused.onnx", several),
        ]
    );
    // The others: every binding and the signature exactly the ONNX check's.
    assert_eq!((exact, bindings, models.len()), (24, 12587, 42));
}
