//! The round trip of `relay import`: a model printed, read back by relay-core's reader
//! and checker, every binding and the signature compared with the ONNX check's (shared by
//! `tests/import.rs` and `examples/import_round_trip.rs`).

use relay_onnx::import::{import_bytes_with, Bindings, ImportError};

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

/// A Relay text read back by relay-core's reader and checker (with the standard prelude).
pub struct ReadBack {
    /// Each global's `@name: TYPE`.
    pub signatures: Vec<String>,
    /// `@main`'s type, in full.
    pub main: String,
    /// `@main`'s `let`s, each its name and its type in full.
    pub lets: Vec<(String, String)>,
}

/// Reads `text` back, or gives the first error's message.
pub fn read_back(text: &str) -> Result<ReadBack, String> {
    let prelude = relay_ops::prelude::Prelude::standard().unwrap();
    let checked = prelude.check(text);
    if let Some(e) = checked.errors.first() {
        return Err(e.message.clone());
    }
    let (module, typed) = checked.typed.as_ref().unwrap();
    let main = checked
        .user_globals()
        .iter()
        .find(|g| &*g.name == "main")
        .unwrap();
    let lets = module
        .lets(main.func.unwrap())
        .into_iter()
        .filter_map(|e| match module.expr(e).kind {
            relay_core::expr::ExprKind::Let { var, .. } => Some((
                module.var_name(var).to_string(),
                typed.show_within(typed.var_ty(var), usize::MAX),
            )),
            _ => None,
        })
        .collect();
    let gid = module.global("main").unwrap();
    Ok(ReadBack {
        signatures: checked.signatures(),
        main: typed.show_within(typed.global_ty(gid), usize::MAX),
        lets,
    })
}

/// A model that round-trips.
#[derive(Debug)]
pub struct RoundTrip {
    /// The bindings whose type in the text is exactly the ONNX check's.
    pub compared: usize,
    /// The others: each one's type in the text and the ONNX check's, where the check left
    /// a type not fully known that the text's uses give (`%s: List[Tensor[(3), int64]]
    /// (the ONNX check's List[Tensor['s0, int64]])`).
    pub less_exact: Vec<String>,
}

/// Imports the model `bytes` and reads the text back, or why it does not round-trip.
pub fn round_trip(bytes: &[u8], bindings: Bindings) -> Result<RoundTrip, String> {
    let mut less_exact = Vec::new();
    let imported = match import_bytes_with(bytes.to_vec().into(), bindings) {
        Ok(i) => i,
        Err(ImportError::Load(e)) => return Err(format!("not read: {e}")),
        Err(ImportError::Diagnostics(d)) => {
            let first = d
                .iter()
                .find(|d| d.severity == relay_onnx::Severity::Error)
                .unwrap();
            return Err(match &first.node {
                Some(node) => format!("not imported: {node}: {}", first.message),
                None => format!("not imported: {}", first.message),
            });
        }
    };
    let back = read_back(&imported.text).map_err(|e| format!("not read back: {e}"))?;
    let relay: std::collections::HashMap<String, String> = back.lets.into_iter().collect();
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
    let mut compared = 0;
    for (onnx, ty) in &bindings {
        let want = renamed(ty, &imported.symbols);
        let name = name_of(onnx);
        match relay.get(&name) {
            Some(have) if *have == want => compared += 1,
            // A type the checker left not fully known (an empty sequence's element, whose
            // shape comes with the first insert): the text's is its uses'.
            Some(have) if want.contains('\'') => {
                less_exact.push(format!("%{name}: {have} (the ONNX check's {want})"));
            }
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
    let params: Vec<(&str, &str)> = match imported.text.contains("def @main() {") {
        true => Vec::new(),
        false => imported.text[imported.text.find("def @main(").unwrap()..]
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with(')'))
            .map(|l| l.trim().trim_end_matches(',').split_once(": ").unwrap())
            .collect(),
    };
    let mut want: Vec<String> = Vec::new();
    for (p, printed) in &params {
        match imported.names.iter().find(|(_, r)| format!("%{r}") == *p) {
            Some((onnx, _)) => want.push(c.type_of(onnx).unwrap()),
            // The initializer of a subgraph: its type as printed.
            None => want.push(printed.to_string()),
        }
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
    let have = back.main;
    if have != want {
        return Err(format!(
            "`@main` is `{have}`, and the ONNX check's `{want}`"
        ));
    }
    Ok(RoundTrip {
        compared,
        less_exact,
    })
}
