//! Damaged models are errors, never panics: every real model of `tests/onnx-models/`,
//! truncated at several points and with bytes changed at seeded random places, is read
//! and checked without a panic (a wrong answer is not checked here: the damage may make
//! another valid model).

use std::path::Path;

/// Rounds of random changes per model.
const ROUNDS: usize = 6;

/// A small seeded generator (xorshift), so that a failure names its case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn check(bytes: Vec<u8>, what: &str) {
    let run = std::panic::catch_unwind(|| {
        if let Ok(mut c) = relay_onnx::check_bytes(bytes.into()) {
            let _ = c.signature();
            let _ = c.bindings();
        }
    });
    assert!(run.is_ok(), "{what}: the checker panicked");
}

#[test]
fn damaged_models_are_errors_not_panics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/onnx-models");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "onnx"))
        .collect();
    names.sort();
    let mut rng = Rng(0x5eed);
    for path in names {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for cut in 1..8 {
            let at = bytes.len() * cut / 8;
            check(bytes[..at].to_vec(), &format!("{name} cut at {at}"));
        }
        for round in 0..ROUNDS {
            let mut b = bytes.clone();
            for _ in 0..1 + round % 8 {
                let i = (rng.next() % b.len() as u64) as usize;
                b[i] = rng.next() as u8;
            }
            check(b, &format!("{name} round {round}"));
        }
    }
}

/// A value of an attribute of this type, as Relay text writes it.
fn attr_text(ty: &relay_core::op::AttrType) -> String {
    use relay_core::op::AttrType::*;
    match ty {
        Int => "1".into(),
        Float => "1.5".into(),
        Bool => "True".into(),
        Str => "\"\"".into(),
        DType => "\"float32\"".into(),
        List(t) => format!("[{}]", attr_text(t)),
        Option(t) | Either(t, _) => attr_text(t),
    }
}

#[test]
fn every_onnx_relation_takes_arguments_of_any_shape_without_a_panic() {
    // Scalars, vectors of 0, 1 and 3 elements (values, as relations read them), tensors
    // of rank 2 and 4 (one symbolic), the empty tuple (an absent input), a tuple and a
    // vector of bytes (an encoded image).
    let types = [
        "float32",
        "int64",
        "Tensor[(0), int64]",
        "Tensor[(1), int64]",
        "Tensor[(3), int64]",
        "Tensor[(2, 3), float32]",
        "Tensor[(1, 2, 3, 4), uint8]",
        "Tensor[(n, 3, 8, 8), float32]",
        "()",
        "(Tensor[(2), float32], float32, uint8)",
        "Tensor[(5), uint8]",
    ];
    let registry = relay_core::registry::global().expect("the registry");
    let mut programs = 0;
    for op in registry.ops() {
        if !(op.name.starts_with("onnx.") || op.name.starts_with("ort.")) {
            continue;
        }
        // The attributes without a default, given a value of their type.
        let attrs: Vec<String> = op
            .attrs
            .iter()
            .filter(|a| a.default.is_none())
            .map(|a| format!("{}={}", a.name, attr_text(&a.ty)))
            .collect();
        let n = op.args.len();
        for k in 0..2 * types.len() {
            // First every argument of one type, then the types in turn across them.
            let ty = |i: usize| {
                types[if k < types.len() {
                    k
                } else {
                    (k + i) % types.len()
                }]
            };
            let params: Vec<String> = (0..n).map(|i| format!("%a{i}: {}", ty(i))).collect();
            let mut args: Vec<String> = (0..n).map(|i| format!("%a{i}")).collect();
            args.extend(attrs.iter().cloned());
            let src = format!(
                "def @f[n: ShapeVar]({}) {{ {}({}) }}",
                params.join(", "),
                op.name,
                args.join(", ")
            );
            let mut tcx = relay_core::TyCtx::new();
            let mut adts = relay_core::adt::load(&mut tcx).unwrap();
            let m = relay_core::text::parse_module(&src, &mut tcx, &mut adts)
                .unwrap_or_else(|e| panic!("{src}: {e:?}"));
            let typed = relay_core::infer::infer(tcx, &adts, &m);
            for e in typed.errors() {
                assert!(!e.message.contains("panicked"), "{src}: {}", e.message);
            }
            programs += 1;
        }
    }
    assert!(programs > 2000, "{programs} programs");
}
