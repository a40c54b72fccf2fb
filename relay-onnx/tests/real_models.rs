//! Real exported models (`tests/onnx-models/`, weights stripped, each naming its source
//! and licence in that folder's README) against what onnxruntime produced on the
//! original models at two input sizes (`oracle.json`): every output the checker types
//! must give both sizes, a symbolic result by evaluating it at each.

use serde_json::Value;
use std::path::Path;

fn sizes(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_i64().unwrap())
        .collect()
}

struct Outcome {
    exact: Vec<String>,
    declared: Vec<String>,
    unknown: Vec<String>,
    wrong: Vec<String>,
    unsupported: Vec<String>,
}

fn run() -> Outcome {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/onnx-models");
    let oracle: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("oracle.json")).unwrap()).unwrap();
    let mut out = Outcome {
        exact: vec![],
        declared: vec![],
        unknown: vec![],
        wrong: vec![],
        unsupported: vec![],
    };
    for entry in oracle.as_array().unwrap() {
        let model = entry["model"].as_str().unwrap();
        let bytes = std::fs::read(dir.join(model)).unwrap();
        let mut c =
            relay_onnx::check_bytes(bytes.into()).unwrap_or_else(|e| panic!("{model}: {e}"));
        // A declared type that disagrees is reported apart: a model may run with one
        // (ddddocr's declares `[1, seqlen]` for what is `(W/8, 1, 8210)`).
        let declared = |d: &&relay_onnx::Diagnostic| d.message.contains("is declared `");
        for d in c.diagnostics().iter().filter(declared) {
            out.declared.push(format!("{model}: {}", d.message));
        }
        let errors: Vec<String> = c
            .diagnostics()
            .iter()
            .filter(|d| d.severity == relay_onnx::Severity::Error && !d.unsupported && !declared(d))
            .map(|d| d.to_string())
            .collect();
        for (name, o) in entry["outputs"].as_object().unwrap() {
            let what = format!("{model} {name}");
            if !c.is_checked(name) {
                out.unsupported.push(what);
                continue;
            }
            let mut ok = true;
            let mut unknown = false;
            for run in ["a", "b"] {
                let inputs: Vec<(&str, Vec<i64>)> = entry["inputs"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(n, i)| (n.as_str(), sizes(&i[run])))
                    .collect();
                match c.eval_shape(name, &inputs) {
                    Ok(s) if s == sizes(&o[run]) => {}
                    Ok(s) => {
                        ok = false;
                        out.wrong.push(format!(
                            "{what}: run {run}: {s:?}, onnxruntime {:?}",
                            sizes(&o[run])
                        ));
                    }
                    Err(e) => {
                        unknown = true;
                        let t = c.type_of(name).unwrap_or_default();
                        out.unknown.push(format!("{what}: {t}: {e}"));
                        break;
                    }
                }
            }
            if ok && !unknown {
                out.exact.push(what);
            }
        }
        if !errors.is_empty() {
            out.wrong.push(format!(
                "{model}: errors on a model onnxruntime runs: {}",
                errors.join("; ")
            ));
        }
    }
    out
}

#[test]
fn real_models_give_the_shapes_onnxruntime_produces() {
    let o = run();
    eprintln!(
        "{} outputs exact, {} not known, {} wrong, {} unsupported",
        o.exact.len(),
        o.unknown.len(),
        o.wrong.len(),
        o.unsupported.len()
    );
    for u in &o.unknown {
        eprintln!("  unknown: {u}");
    }
    for u in &o.unsupported {
        eprintln!("  unsupported: {u}");
    }
    assert!(o.wrong.is_empty(), "wrong: {:#?}", o.wrong);
    assert_eq!(o.exact.len(), 76);
    // Only the classifier's probabilities, a sequence of maps (`ZipMap`), are not
    // checked: Relay has no map type.
    assert_eq!(o.unsupported, ["ort_logreg_iris.onnx probabilities"]);
    // The declared output known to be wrong in both ddddocr recognisers (onnxruntime
    // gives `(13, 1, 8210)` at width 100) is found, and nothing else is.
    let wrong = |m: &str| {
        format!("{m}: graph output `387` is declared `Tensor[(1, seqlen), float32]` but inferred `Tensor[(floordiv(floordiv(floordiv(image_width + 1, 2) + 1, 2) + 1, 2), 1, 8210), float32]`")
    };
    assert_eq!(
        o.declared,
        [
            wrong("ddddocr_common.onnx"),
            wrong("ddddocr_common_old.onnx")
        ]
    );
}
