//! Scores the checker on ONNX's backend node tests: each test's model, with its integer
//! inputs (`test_data_set_0/input_*.pb`), and its float inputs of static declared shape
//! (scales, range bounds), turned into initializers so that shape values are known,
//! checked and each declared output compared with the inferred type.
//!
//! ```sh
//! scripts/onnx-node-tests.sh            # fetches the onnx 1.22.0 wheel, runs this
//! cargo run --release -p relay-onnx --example node_tests -- DIR [--list FILE] [--min-exact N] [--unknown-values]
//! ```
//!
//! Each output is exact (every dimension and the dtype as declared), less precise (no
//! disagreement, something unknown), a conflict (a dimension or dtype that disagrees,
//! or an error reported on a model that ONNX's tests say is well typed) or unsupported
//! (it depends on an operator or type the checker does not read yet). A test is exact
//! when all its outputs are. Tests with sequence or optional outputs are counted apart
//! (their types' text against the declared ones).
//! With `--unknown-values` all inputs stay inputs: every shape value computed from
//! them is unknown, and a relation may give less, never a conflict (CI runs it so).
//! With `NODE_TESTS_DUMP=DIR` in the environment, each model is also written to DIR as
//! scored (inputs folded), to look at with `relay check --bindings`.

use prost::Message;
use relay_onnx::check::DimShown;
use relay_onnx::proto::{DimensionValue, ModelProto, TensorProto, TypeValue};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Score {
    Exact,
    LessPrecise,
    Unsupported,
    Conflict,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: node_tests DIR [--list FILE] [--min-exact N] [--unknown-values]");
        std::process::exit(2);
    };
    let list = args
        .iter()
        .position(|a| a == "--list")
        .and_then(|i| args.get(i + 1));
    let min_exact: Option<usize> = args
        .iter()
        .position(|a| a == "--min-exact")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok());
    let fold = !args.iter().any(|a| a == "--unknown-values");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the node test directory")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut tests = BTreeMap::new();
    // Tests with sequence or optional outputs, counted apart.
    let mut others = BTreeMap::new();
    let mut outputs = [0usize; 4];
    let mut report = String::new();
    for name in &names {
        let path = Path::new(dir).join(name);
        let Some((score, out_scores, detail, tensors_only)) = score_test(&path, fold) else {
            continue;
        };
        let _ = writeln!(report, "{name}\t{score:?}\t{detail}");
        if !tensors_only {
            others.insert(name.clone(), score);
            continue;
        }
        for s in &out_scores {
            outputs[*s as usize] += 1;
        }
        tests.insert(name.clone(), score);
    }
    let count = |s: Score| tests.values().filter(|&&v| v == s).count();
    println!(
        "{} tensor tests: {} exact, {} less precise, {} unsupported, {} conflicts",
        tests.len(),
        count(Score::Exact),
        count(Score::LessPrecise),
        count(Score::Unsupported),
        count(Score::Conflict)
    );
    println!(
        "{} outputs: {} exact, {} less precise, {} unsupported, {} conflicts",
        outputs.iter().sum::<usize>(),
        outputs[0],
        outputs[1],
        outputs[2],
        outputs[3]
    );
    let other = |s: Score| others.values().filter(|&&v| v == s).count();
    println!(
        "{} sequence and optional tests: {} exact, {} less precise, {} unsupported, {} conflicts",
        others.len(),
        other(Score::Exact),
        other(Score::LessPrecise),
        other(Score::Unsupported),
        other(Score::Conflict)
    );
    if let Some(list) = list {
        std::fs::write(list, report).expect("write the list");
    }
    let mut failed = false;
    if count(Score::Conflict) + other(Score::Conflict) > 0 {
        eprintln!("conflicts:");
        for (n, s) in tests.iter().chain(&others) {
            if *s == Score::Conflict {
                eprintln!("  {n}");
            }
        }
        failed = true;
    }
    if let Some(m) = min_exact {
        if count(Score::Exact) < m {
            eprintln!("{} exact, fewer than the {m} expected", count(Score::Exact));
            failed = true;
        }
    }
    if failed {
        std::process::exit(1);
    }
}

/// Whether a graph input is a tensor whose every dimension is a number.
fn is_static(i: &relay_onnx::proto::ValueInfoProto) -> bool {
    match i.r#type.as_ref().and_then(|t| t.value.as_ref()) {
        Some(TypeValue::TensorType(tt)) => tt.shape.as_ref().is_some_and(|s| {
            s.dim
                .iter()
                .all(|d| matches!(d.value, Some(DimensionValue::DimValue(_))))
        }),
        _ => false,
    }
}

/// A test's score, its outputs' scores, what is not exact, and whether its outputs are
/// all tensors.
fn score_test(path: &Path, fold: bool) -> Option<(Score, Vec<Score>, String, bool)> {
    let bytes = std::fs::read(path.join("model.onnx")).ok()?;
    let mut model = ModelProto::decode(bytes::Bytes::from(bytes)).ok()?;
    let graph = model.graph.as_mut()?;
    let tensors_only = graph.output.iter().all(|o| {
        matches!(
            o.r#type.as_ref().and_then(|t| t.value.as_ref()),
            Some(TypeValue::TensorType(_))
        )
    });
    // The integer inputs, and the float ones of static shape, as initializers.
    let inits: Vec<String> = graph
        .initializer
        .iter()
        .map(|t| {
            String::from_utf8_lossy(relay_onnx::proto::tensor_name(t).unwrap_or_default())
                .into_owned()
        })
        .collect();
    // Each input's name, and whether its declared shape is static.
    let inputs: Vec<(String, bool)> = graph
        .input
        .iter()
        .map(|i| (String::from_utf8_lossy(&i.name).into_owned(), is_static(i)))
        .filter(|(n, _)| !inits.contains(n))
        .collect();
    let folded = if fold { &inputs[..] } else { &[] };
    for (i, (name, fixed)) in folded.iter().enumerate() {
        let p = path.join("test_data_set_0").join(format!("input_{i}.pb"));
        let Ok(data) = std::fs::read(&p) else {
            continue;
        };
        let Ok(mut t) = TensorProto::decode(bytes::Bytes::from(data)) else {
            continue;
        };
        let view = relay_onnx::proto::TensorView::of(&t);
        let ints = matches!(t.data_type, 2..=7 | 9 | 12 | 13)
            && relay_onnx::attr::int_data(&view).ok().flatten().is_some();
        // A float input is folded only where its declared shape is static, as a constant
        // scale or bound would be: folding one of symbolic shape would change the signature
        // the declared outputs are written in.
        if ints || (*fixed && relay_onnx::attr::float_data(&view).is_some()) {
            t.name = name.clone().into();
            graph.initializer.push(t.encode_to_vec().into());
        }
    }
    let outs = graph.output.clone();
    // NODE_TESTS_DUMP=DIR writes each model as scored, for `relay check --bindings`.
    if let Some(dir) = std::env::var_os("NODE_TESTS_DUMP") {
        let file = Path::new(&dir)
            .join(path.file_name()?)
            .with_extension("onnx");
        let _ = std::fs::write(file, model.encode_to_vec());
    }
    let mut checked = relay_onnx::check_model(&model);
    let errors: Vec<String> = checked
        .diagnostics()
        .iter()
        .filter(|d| !d.unsupported && d.severity == relay_onnx::Severity::Error)
        .map(|d| d.to_string().replace('\n', " "))
        .collect();
    let unsupported: Vec<String> = checked
        .diagnostics()
        .iter()
        .filter(|d| d.unsupported)
        .map(|d| d.message.clone())
        .collect();
    let mut scores = Vec::new();
    let mut detail = String::new();
    for o in &outs {
        let name = String::from_utf8_lossy(&o.name).into_owned();
        let Some(declared) = o.r#type.as_ref().and_then(|t| t.value.as_ref()) else {
            continue;
        };
        let TypeValue::TensorType(tt) = declared else {
            // A sequence or an optional: its type's text against the declared one.
            let score = if !checked.is_checked(&name) {
                if errors.is_empty() {
                    Score::Unsupported
                } else {
                    Score::Conflict
                }
            } else {
                let shown = checked.type_of(&name).unwrap_or_default();
                let s = compare(declared, &mut Text(&shown)).unwrap_or(Score::Conflict);
                let s = if errors.is_empty() {
                    s
                } else {
                    Score::Conflict
                };
                if s != Score::Exact {
                    let _ = write!(detail, "{name}: {shown}; ");
                }
                s
            };
            scores.push(score);
            continue;
        };
        let score = if !checked.is_checked(&name) {
            if errors.is_empty() {
                Score::Unsupported
            } else {
                Score::Conflict
            }
        } else {
            let dims = checked.dims_of(&name).flatten();
            let dtype = checked.dtype_of(&name);
            let want_dt = relay_onnx::check::onnx_dtype(tt.elem_type)
                .ok()
                .map(|d| d.to_string());
            let mut s = Score::Exact;
            if dtype.is_some() && want_dt.is_some() && dtype != want_dt {
                s = Score::Conflict;
            } else if dtype.is_none() {
                s = Score::LessPrecise;
            }
            match (&tt.shape, dims) {
                (Some(shape), Some(dims)) => {
                    if shape.dim.len() != dims.len() {
                        s = Score::Conflict;
                    } else {
                        for (d, have) in shape.dim.iter().zip(&dims) {
                            match (&d.value, have) {
                                (Some(DimensionValue::DimValue(v)), DimShown::Const(c))
                                    if v != c =>
                                {
                                    s = s.max(Score::Conflict)
                                }
                                (Some(DimensionValue::DimValue(_)), DimShown::Const(_)) => {}
                                _ => s = s.max(Score::LessPrecise),
                            }
                        }
                    }
                }
                (_, None) => s = s.max(Score::LessPrecise),
                (None, Some(_)) => {}
            }
            if !errors.is_empty() {
                s = Score::Conflict;
            }
            if s != Score::Exact {
                let shown = checked.type_of(&name).unwrap_or_default();
                let _ = write!(detail, "{name}: {shown}; ");
            }
            s
        };
        scores.push(score);
    }
    let test = scores.iter().copied().max().unwrap_or(Score::Exact);
    if !errors.is_empty() {
        let _ = write!(detail, "errors: {}", errors.join(" | "));
    }
    if !unsupported.is_empty() {
        let _ = write!(detail, "unsupported: {}", unsupported.join(" | "));
    }
    Some((test, scores, detail, tensors_only))
}

/// The text of a checked type, read from the left.
struct Text<'a>(&'a str);

impl Text<'_> {
    fn eat(&mut self, prefix: &str) -> bool {
        let t = self.0.trim_start();
        match t.strip_prefix(prefix) {
            Some(rest) => {
                self.0 = rest;
                true
            }
            None => false,
        }
    }

    /// The next dimension or dtype: up to `,`, `)` or `]` at this depth.
    fn item(&mut self) -> &str {
        let t = self.0.trim_start();
        let mut depth = 0;
        let end = t
            .char_indices()
            .find(|&(_, c)| {
                match c {
                    '(' | '[' => depth += 1,
                    ')' | ']' if depth > 0 => depth -= 1,
                    ',' | ')' | ']' if depth == 0 => return true,
                    _ => {}
                }
                false
            })
            .map_or(t.len(), |(i, _)| i);
        self.0 = &t[end..];
        &t[..end]
    }
}

/// A declared type (a sequence, an optional or a tensor) against a checked one's text:
/// exact when it says all the declared type says; `None` when they disagree.
fn compare(declared: &TypeValue, text: &mut Text<'_>) -> Option<Score> {
    if text.eat("'") {
        text.item();
        return Some(Score::LessPrecise);
    }
    match declared {
        TypeValue::SequenceType(e) | TypeValue::OptionalType(e) => {
            let name = match declared {
                TypeValue::SequenceType(_) => "List[",
                _ => "Optional[",
            };
            if !text.eat(name) {
                return None;
            }
            let s = match e.elem_type.as_ref().and_then(|t| t.value.as_ref()) {
                Some(inner) => compare(inner, text)?,
                None => {
                    text.item();
                    Score::Exact
                }
            };
            text.eat("]").then_some(s)
        }
        TypeValue::TensorType(tt) => {
            let want = relay_onnx::check::onnx_dtype(tt.elem_type)
                .ok()?
                .to_string();
            // A scalar prints as its dtype.
            if !text.eat("Tensor[") {
                let dt = text.item().to_string();
                let rank0 = tt.shape.as_ref().is_none_or(|s| s.dim.is_empty());
                return (dt == want && rank0).then_some(Score::Exact);
            }
            let mut s = Score::Exact;
            if text.eat("(") {
                let mut dims = Vec::new();
                while !text.eat(")") {
                    dims.push(text.item().to_string());
                    text.eat(",");
                }
                if let Some(shape) = &tt.shape {
                    if shape.dim.len() != dims.len() {
                        return None;
                    }
                    for (d, have) in shape.dim.iter().zip(&dims) {
                        match &d.value {
                            Some(DimensionValue::DimValue(v)) => match have.parse::<i64>() {
                                Ok(c) if c == *v => {}
                                Ok(_) => return None,
                                Err(_) => s = Score::LessPrecise,
                            },
                            Some(DimensionValue::DimParam(p)) if have.as_bytes() == p.as_ref() => {}
                            Some(DimensionValue::DimParam(_)) => s = Score::LessPrecise,
                            None => {}
                        }
                    }
                }
            } else {
                // A shape not known.
                text.item();
                if tt.shape.is_some() {
                    s = Score::LessPrecise;
                }
            }
            text.eat(",");
            let dt = text.item().to_string();
            (text.eat("]") && dt == want).then_some(s)
        }
        _ => None,
    }
}
