//! The round trip of `relay import` over a directory of ONNX's backend node tests (or of
//! models): each model printed as Relay, read back by relay-core's reader and checker,
//! every binding and the signature compared with the ONNX check's. Prints each model's
//! result, then the count of those that round-trip.
//!
//! ```sh
//! scripts/onnx-node-tests.sh    # unpacks the node tests into target/onnx-node-tests
//! cargo run -p relay-onnx --example import_round_trip -- \
//!     target/onnx-node-tests/onnx/backend/test/data/node [--only loop,scan,sequence,optional]
//! ```
//!
//! With `--only`, the models whose name contains one of the words (case-insensitive).

#[path = "../tests/support/round_trip.rs"]
// The tests read `ReadBack::signatures` too.
#[allow(dead_code)]
mod support;

use relay_onnx::import::Bindings;
use std::path::PathBuf;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: import_round_trip DIR [--only WORD,WORD..]");
        std::process::exit(2);
    };
    let only: Vec<String> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|w| w.split(',').map(str::to_lowercase).collect())
        .unwrap_or_default();
    let mut models: Vec<(String, PathBuf)> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let path = e.path();
                // A node test's directory holds `model.onnx`; a model is a file.
                let model = match path.join("model.onnx") {
                    m if m.is_file() => m,
                    _ if path.extension().is_some_and(|x| x == "onnx") => path,
                    _ => return None,
                };
                Some((name, model))
            })
            .collect(),
        Err(e) => {
            eprintln!("{dir}: {e}");
            std::process::exit(2);
        }
    };
    models.retain(|(name, _)| {
        let lower = name.to_lowercase();
        only.is_empty() || only.iter().any(|w| lower.contains(w.as_str()))
    });
    models.sort();
    let mut exact = 0;
    for (name, path) in &models {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                println!("{name}: {e}");
                continue;
            }
        };
        match support::round_trip(&bytes, Bindings::Annotated) {
            Ok(r) => {
                exact += 1;
                let mut line = format!("{name}: round-trips ({} bindings", r.compared);
                if !r.less_exact.is_empty() {
                    line.push_str(&format!(
                        "; where the ONNX check left a type not fully known, the text's uses type it: {}",
                        r.less_exact.join(", ")
                    ));
                }
                line.push(')');
                if let Err(why) = support::round_trip(&bytes, Bindings::Bare) {
                    line.push_str(&format!("; bare: {why}"));
                }
                println!("{line}");
            }
            Err(why) => println!("{name}: {why}"),
        }
    }
    println!("{exact} of {} round-trip", models.len());
}
