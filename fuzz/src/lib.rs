//! What the fuzz targets share: checking a program as `relay check` does, and the generator
//! of operator calls that `op_call` draws from the fuzzer's bytes.

use arbitrary::{Result, Unstructured};
use relay_core::expr::Span;
use relay_core::op::{AttrConst, AttrType, OpDef};
use relay_ops::prelude::{Checked, Origin, Prelude};
use std::sync::OnceLock;

/// The standard prelude, checked once per process.
pub fn prelude() -> &'static Prelude {
    static PRELUDE: OnceLock<Prelude> = OnceLock::new();
    PRELUDE.get_or_init(|| Prelude::standard().expect("the standard prelude checks"))
}

/// Checks `src` as `relay check` does (the prelude in scope), then makes everything the
/// command prints: the signatures, the rendered diagnostics, the `--compare-printed`
/// disagreements.
///
/// Asserts what `relay check` relies on: every problem has a message and a span over
/// characters of the source it names.
pub fn check(src: &str) -> Checked {
    let prelude = prelude();
    let checked = prelude.check(src);
    let sigs = checked.signatures();
    if checked.is_ok() {
        assert_eq!(
            sigs.len(),
            checked.user_globals().len(),
            "a signature per global"
        );
    }
    let _ = relay_ops::compare::printed_types(&checked, src);
    let sources: Vec<(&str, &str)> = prelude.sources().collect();
    for p in checked.errors.iter().chain(&checked.warnings) {
        assert!(!p.message.is_empty(), "a problem without a message");
        let text = match &p.origin {
            Origin::User => src,
            Origin::Prelude(name) => {
                sources
                    .iter()
                    .find(|(n, _)| n == name)
                    .expect("a problem in a known source")
                    .1
            }
            // A broken registry, which no program makes: it has no place.
            Origin::Registry => panic!("a registry error: {}", p.message),
        };
        assert_span_in(p.span, text, &p.message);
    }
    // The diagnostics as `relay check` prints them.
    let shown = relay_cli::render(prelude, "input.relay", src, &checked);
    assert_eq!(
        shown.is_empty(),
        checked.errors.is_empty() && checked.warnings.is_empty()
    );
    checked
}

/// Asserts that `span` (of the problem `message`) covers characters of `text`: it ends
/// inside it, after it starts, both ends at a character's boundary.
pub fn assert_span_in(span: Span, text: &str, message: &str) {
    let (lo, hi) = (span.lo as usize, span.hi as usize);
    assert!(
        lo <= hi && hi <= text.len() && text.is_char_boundary(lo) && text.is_char_boundary(hi),
        "the span {span:?} of `{message}` is not characters of its source ({} bytes)",
        text.len()
    );
}

/// Prints the program and what checking it gave, when `RELAY_FUZZ_SHOW` is set (to read
/// what a generator makes: `RELAY_FUZZ_SHOW=1 cargo +nightly fuzz run op_call -- -runs=50`).
pub fn show(src: &str, checked: &Checked) {
    if std::env::var_os("RELAY_FUZZ_SHOW").is_none() {
        return;
    }
    eprintln!("----\n{src}");
    if checked.is_ok() {
        for s in checked.signatures() {
            eprintln!("=> {s}");
        }
    }
    for e in &checked.errors {
        eprintln!("error: {}", e.message);
    }
}

/// True once in `n` draws; false when the fuzzer's bytes are used up, so that a short
/// input gives the common case (`Unstructured::ratio` gives the rare one).
fn one_in(u: &mut Unstructured<'_>, n: u8) -> Result<bool> {
    Ok(u.int_in_range(0..=n - 1)? == n - 1)
}

/// Integers at the edges of what the checker computes with.
const EDGE_INTS: &[&str] = &[
    "-1",
    "-2",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "4294967296",
    "4611686018427387904",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "99999999999999999999",
];

/// Small integers (axes, sizes, strides), the likeliest first.
const SMALL_INTS: &[i32] = &[1, 2, 0, 3, 4, -1, 5, 8, 6, 7, -2, -3, -4, 16, 64];

/// Floats, ordinary and at the edges.
const FLOATS: &[&str] = &[
    "0f",
    "0.5f",
    "1f",
    "2f",
    "-1f",
    "1.5",
    "3",
    "1e300f",
    "-0f",
    "1e-300f",
    "0.333f",
    "4611686018427387904f",
];

/// Strings that attributes take (layouts, modes), besides the defaults in the registry.
const STRINGS: &[&str] = &[
    "NCHW",
    "",
    "NHWC",
    "NCHW16c",
    "NCHW4n4c",
    "OIHW16i16o",
    "HWIO",
    "OIHW",
    "NCDHW",
    "NDHWC",
    "NCW",
    "NWC",
    "HWOI",
    "NC",
    "N",
    "NCHWc",
    "NCHW0c",
    "NCHW3c",
    "NHWCC",
    "x",
    "end",
    "size",
    "both",
    "values",
    "indices",
    "clip",
    "wrap",
    "fast",
    "constant",
    "edge",
    "reflect",
    "nearest_neighbor",
    "linear",
    "cubic",
    "bilinear",
    "half_pixel",
    "align_corners",
    "asymmetric",
    "round",
    "floor",
    "ceil",
    "float32",
    "int32",
    "int64",
    "bool",
    "float16",
    "uint8",
    "int8",
    "float32x4",
    "bfloat16",
    "float128",
    "int0",
    "handle",
];

/// Data types for annotations, with lanes and a few that are not data types.
const DTYPES: &[&str] = &[
    "float32",
    "float32",
    "float32",
    "int32",
    "int32",
    "int64",
    "float16",
    "float64",
    "bool",
    "uint8",
    "int8",
    "int16",
    "uint16",
    "uint32",
    "uint64",
    "bfloat16",
    "float32x4",
    "int8x16",
];

/// A dimension for a tensor annotation.
fn dim(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0..=19u8)? {
        0..=8 => u.int_in_range(1..=16u32)?.to_string(),
        19 => "0".into(),
        10 | 11 => "?".into(),
        12 => "n".into(),
        13 => "m".into(),
        14 => "2*n".into(),
        15 => "n + 1".into(),
        16 => u.int_in_range(17..=4096u32)?.to_string(),
        17 => "9223372036854775807".into(),
        18 => "4611686018427387904".into(),
        _ => "floordiv(n, 2)".into(),
    })
}

/// A tensor type: mostly rank 0 to 4, sometimes up to 9, sometimes an unknown (`_`).
pub fn tensor(u: &mut Unstructured<'_>) -> Result<String> {
    if one_in(u, 20)? {
        return Ok("_".into());
    }
    let rank = if one_in(u, 10)? {
        u.int_in_range(5..=9usize)?
    } else {
        u.int_in_range(0..=4usize)?
    };
    let mut dims = Vec::with_capacity(rank);
    for _ in 0..rank {
        dims.push(dim(u)?);
    }
    let dtype = u.choose(DTYPES)?;
    Ok(match rank {
        0 if one_in(u, 2)? => dtype.to_string(),
        1 => format!("Tensor[({},), {dtype}]", dims[0]),
        _ => format!("Tensor[({}), {dtype}]", dims.join(", ")),
    })
}

/// An argument's type: a tensor, or now and then a tuple of tensors (as `concatenate`
/// takes).
fn arg_type(u: &mut Unstructured<'_>) -> Result<String> {
    if one_in(u, 5)? {
        let n = u.int_in_range(1..=4usize)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(tensor(u)?);
        }
        Ok(match n {
            1 => format!("({},)", items[0]),
            _ => format!("({})", items.join(", ")),
        })
    } else {
        tensor(u)
    }
}

/// An integer attribute: mostly small (axes, sizes), sometimes at the edges.
fn int(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(if one_in(u, 8)? {
        u.choose(EDGE_INTS)?.to_string()
    } else {
        u.choose(SMALL_INTS)?.to_string()
    })
}

/// A string for a `str` or `dtype` attribute: a default from the registry (`defaults`),
/// one of [`STRINGS`], or either with one character changed.
fn string(u: &mut Unstructured<'_>, defaults: &[&'static str]) -> Result<String> {
    let mut s = if !defaults.is_empty() && one_in(u, 2)? {
        u.choose(defaults)?.to_string()
    } else {
        u.choose(STRINGS)?.to_string()
    };
    if one_in(u, 6)? && !s.is_empty() {
        let at = u.choose_index(s.len())?;
        if s.is_char_boundary(at) {
            let c = *u.choose(&['c', 'N', 'C', 'H', 'W', '1', '4', '0', 'x', 'D'])?;
            if one_in(u, 2)? {
                s.insert(at, c);
            } else {
                s.remove(at);
            }
        }
    }
    Ok(format!("{s:?}"))
}

/// A value for an attribute of type `ty`.
fn value(u: &mut Unstructured<'_>, ty: &AttrType, defaults: &[&'static str]) -> Result<String> {
    Ok(match ty {
        AttrType::Int => int(u)?,
        AttrType::Float => u.choose(FLOATS)?.to_string(),
        AttrType::Bool => u.choose(&["True", "False", "1", "0"])?.to_string(),
        AttrType::Str | AttrType::DType => string(u, defaults)?,
        AttrType::List(item) => {
            let n = if one_in(u, 30)? {
                u.int_in_range(5..=40usize)?
            } else {
                *u.choose(&[2, 1, 3, 4, 0])?
            };
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(value(u, item, defaults)?);
            }
            format!("[{}]", items.join(", "))
        }
        AttrType::Option(inner) => {
            if one_in(u, 4)? {
                "None".into()
            } else {
                value(u, inner, defaults)?
            }
        }
        AttrType::Either(a, b) => {
            if u.arbitrary()? {
                value(u, a, defaults)?
            } else {
                value(u, b, defaults)?
            }
        }
    })
}

/// A value of a type other than the attribute's (to check the errors of a wrong value).
fn wrong_value(u: &mut Unstructured<'_>, defaults: &[&'static str]) -> Result<String> {
    const TYPES: &[AttrType] = &[
        AttrType::Int,
        AttrType::Float,
        AttrType::Bool,
        AttrType::Str,
        AttrType::List(&AttrType::Int),
        AttrType::List(&AttrType::List(&AttrType::Int)),
        AttrType::List(&AttrType::Str),
    ];
    let ty = u.choose(TYPES)?;
    value(u, ty, defaults)
}

/// The string defaults of every registered operator's attributes (layouts, modes, dtypes).
fn string_defaults() -> &'static [&'static str] {
    static DEFAULTS: OnceLock<Vec<&'static str>> = OnceLock::new();
    DEFAULTS.get_or_init(|| {
        let mut out = Vec::new();
        let reg = relay_core::registry::global().expect("the registry");
        for op in reg.ops() {
            for a in op.attrs {
                let mut stack: Vec<&AttrConst> = a.default.iter().collect();
                while let Some(c) = stack.pop() {
                    match c {
                        AttrConst::Str(s) | AttrConst::DType(s) => out.push(*s),
                        AttrConst::List(items) => stack.extend(items.iter()),
                        _ => {}
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    })
}

/// Every registered operator, or those named in `RELAY_FUZZ_OPS` (a comma-separated
/// list: `RELAY_FUZZ_OPS=concatenate,stack cargo +nightly fuzz run op_call`), to search
/// the relations of a change.
pub fn ops() -> &'static [&'static OpDef] {
    static OPS: OnceLock<Vec<&'static OpDef>> = OnceLock::new();
    OPS.get_or_init(|| {
        let all = relay_core::registry::global().expect("the registry").ops();
        match std::env::var("RELAY_FUZZ_OPS") {
            Ok(names) => {
                let names: Vec<&str> = names.split(',').map(str::trim).collect();
                let some: Vec<_> = all.iter().copied().filter(|o| names.contains(&o.name)).collect();
                assert!(!some.is_empty(), "no registered operator is named in RELAY_FUZZ_OPS");
                some
            }
            Err(_) => all.to_vec(),
        }
    })
}

/// A program of one global that calls a random registered operator: its parameters
/// annotated with random tensor types (sometimes one too few or too many, or a tuple),
/// its attributes those of the operator's declaration with random values (sometimes one
/// of the wrong type, an unknown one or a repeated one), and sometimes a declared result
/// type (so that relations that work backwards are run), or the result used again.
pub fn op_call(u: &mut Unstructured<'_>) -> Result<String> {
    let op = *u.choose(ops())?;
    let defaults = string_defaults();
    let n = match u.int_in_range(0..=15u8)? {
        14 => op.args.len().saturating_sub(1),
        15 => op.args.len() + 1,
        _ => op.args.len(),
    };
    let mut params = Vec::with_capacity(n);
    for i in 0..n {
        params.push(format!("%a{i}: {}", arg_type(u)?));
    }
    let mut args: Vec<String> = (0..n).map(|i| format!("%a{i}")).collect();
    if n > 1 && one_in(u, 12)? {
        // All of them as one tuple (`concatenate`, `stack`, `meshgrid` take one).
        args = vec![format!("({})", args.join(", "))];
    }
    for a in op.attrs {
        match u.int_in_range(0..=19u8)? {
            15..=19 => continue,
            14 => args.push(format!("{}={}", a.name, wrong_value(u, defaults)?)),
            13 => {
                args.push(format!("{}={}", a.name, value(u, &a.ty, defaults)?));
                args.push(format!("{}={}", a.name, value(u, &a.ty, defaults)?));
            }
            _ => args.push(format!("{}={}", a.name, value(u, &a.ty, defaults)?)),
        }
    }
    if one_in(u, 20)? {
        args.push(format!("no_such_attr={}", int(u)?));
    }
    let call = format!("{}({})", op.name, args.join(", "));
    let ret = if one_in(u, 5)? {
        format!(" -> {}", arg_type(u)?)
    } else {
        String::new()
    };
    let body = match u.int_in_range(0..=9u8)? {
        // The result used again: as a tuple's field, or by a second call of the same
        // operator (a result the relation made, not an annotation).
        8 => format!("let %r = {call}; (%r, %r)"),
        9 if n >= 1 => format!("let %r = {call}; {}", call.replacen("%a0", "%r", 1)),
        _ => call,
    };
    Ok(format!(
        "def @main({}){ret} {{ {body} }}\n",
        params.join(", ")
    ))
}
