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
