//! The documentation of every operator: its example is type-checked and must give the
//! result it claims, and the generated "Attributes:" section lists the declared schema.
//!
//! An example is a line of a ```` ```text ```` block of the operator's doc comment, in one
//! strict format:
//!
//! ```text
//! %z = subtract(%x, %y)  // (n, 1) f32, (3) f32 -> (n, 3) f32
//! ```
//!
//! `%OUT = CALL`, two spaces, `// `, the types of the call's variables in order of first
//! appearance (joined by `, `), ` -> `, the claimed result type. A call without variables
//! has `// -> RESULT`. A type is a tensor `(dims) dtype` (`() f32` is a scalar; the dims
//! in Relay's text syntax: `n`, `?`, `2*n`) or a tuple `(T, U)` (`(T,)` for one field);
//! the dtypes are `f16`, `f32`, `f64`, `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`,
//! `u64` and `bool`. The attributes are those of the call text, in Relay's text syntax.

mod common;

use relay_core::op::{AttrConst, AttrType, OpDef};
use relay_core::text::{parse_module, parse_type};
use relay_core::{registry, TyCtx};

/// The dtypes of the short notation and their Relay names.
const DTYPES: [(&str, &str); 12] = [
    ("f16", "float16"),
    ("f32", "float32"),
    ("f64", "float64"),
    ("i8", "int8"),
    ("i16", "int16"),
    ("i32", "int32"),
    ("i64", "int64"),
    ("u8", "uint8"),
    ("u16", "uint16"),
    ("u32", "uint32"),
    ("u64", "uint64"),
    ("bool", "bool"),
];

/// One example, parsed.
#[derive(Debug, PartialEq)]
struct Example {
    /// The call, as written (`subtract(%x, %y)`).
    call: String,
    /// The call's variables in order of first appearance, with their types in Relay's
    /// text syntax.
    args: Vec<(String, String)>,
    /// The claimed result type, in Relay's text syntax.
    result: String,
}

/// The lines of the ```` ```text ```` blocks of `doc`.
fn example_lines(doc: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in doc.lines() {
        if line.starts_with("```") {
            inside = !inside && line == "```text";
        } else if inside {
            lines.push(line);
        }
    }
    lines
}

/// Splits `s` at each `, ` outside brackets and parentheses.
fn split_top(s: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b',' if depth == 0 => {
                if bytes.get(i + 1) != Some(&b' ') {
                    return Err(format!("expected `, ` in `{s}`"));
                }
                parts.push(&s[start..i]);
                start = i + 2;
            }
            _ => {}
        }
        if depth < 0 {
            return Err(format!("unbalanced `)` in `{s}`"));
        }
    }
    if depth != 0 {
        return Err(format!("unbalanced `(` in `{s}`"));
    }
    parts.push(&s[start..]);
    Ok(parts)
}

/// The index of the `)` that closes the `(` at byte 0 of `s`.
fn closing(s: &str) -> Result<usize, String> {
    let mut depth = 0;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            _ => {}
        }
    }
    Err(format!("unbalanced `(` in `{s}`"))
}

/// A type of the short notation in Relay's text syntax: `(n, 3) f32` is
/// `Tensor[(n, 3), float32]`, `() f32` is `float32`, `((2) f32, (3) i8)` a tuple.
fn relay_type(short: &str) -> Result<String, String> {
    if !short.is_empty()
        && short.chars().all(|c| c.is_ascii_alphanumeric())
        && short.starts_with(|c: char| c.is_ascii_uppercase())
    {
        // A data type by name (`Storage`).
        return Ok(short.to_string());
    }
    if !short.starts_with('(') {
        return Err(format!("a type starts with `(`, found `{short}`"));
    }
    let close = closing(short)?;
    let inner = &short[1..close];
    let rest = &short[close + 1..];
    if rest.is_empty() {
        // A tuple.
        let fields = match inner.strip_suffix(',') {
            Some(one) => vec![relay_type(one)?],
            None if inner.is_empty() => Vec::new(),
            None => split_top(inner)?
                .into_iter()
                .map(relay_type)
                .collect::<Result<_, _>>()?,
        };
        return Ok(if fields.len() == 1 {
            format!("({},)", fields[0])
        } else {
            format!("({})", fields.join(", "))
        });
    }
    let dtype = rest
        .strip_prefix(' ')
        .and_then(|d| DTYPES.iter().find(|(s, _)| *s == d))
        .map(|(_, relay)| *relay)
        .ok_or_else(|| format!("expected ` DTYPE` after the shape in `{short}`"))?;
    if inner.is_empty() {
        return Ok(dtype.to_string());
    }
    if inner.contains("  ") || inner.ends_with(',') || inner.ends_with(' ') {
        return Err(format!("malformed shape `({inner})`"));
    }
    Ok(format!("Tensor[({inner}), {dtype}]"))
}

/// The variables of `call` (`%name`), in order of first appearance.
fn variables(call: &str) -> Vec<String> {
    let mut vars: Vec<String> = Vec::new();
    let mut rest = call;
    while let Some(at) = rest.find('%') {
        let name: String = rest[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        rest = &rest[at + 1 + name.len()..];
        if !vars.contains(&name) {
            vars.push(name);
        }
    }
    vars
}

/// Parses one example line of operator `op`, in the strict format of this file's header.
fn parse_example(op: &str, line: &str) -> Result<Example, String> {
    let (lhs, comment) = line
        .split_once("  // ")
        .ok_or("expected `%OUT = CALL  // TYPES -> RESULT`")?;
    let (out, call) = lhs.split_once(" = ").ok_or("expected `%OUT = CALL`")?;
    let out_vars = variables(out);
    if out_vars.len() != 1 || out != format!("%{}", out_vars[0]) || out_vars[0].is_empty() {
        return Err(format!("expected one `%name` before ` = `, found `{out}`"));
    }
    if !call.starts_with(&format!("{op}(")) || !call.ends_with(')') {
        return Err(format!("the call must be `{op}(...)`, found `{call}`"));
    }
    if closing(&call[op.len()..])? != call.len() - op.len() - 1 {
        return Err(format!("the call must end at its closing `)`: `{call}`"));
    }
    let (types, result) = match comment.strip_prefix("-> ") {
        Some(result) => ("", result),
        None => comment
            .split_once(" -> ")
            .ok_or("expected `TYPES -> RESULT` after `// `")?,
    };
    if result.contains(" -> ") {
        return Err("more than one ` -> `".into());
    }
    let types = if types.is_empty() {
        Vec::new()
    } else {
        split_top(types)?
    };
    let vars = variables(call);
    if vars.contains(&out_vars[0]) {
        return Err(format!("`{out}` is also an argument"));
    }
    if vars.len() != types.len() {
        return Err(format!(
            "the call has {} variables ({}) but the comment gives {} types",
            vars.len(),
            vars.join(", "),
            types.len()
        ));
    }
    let args = vars
        .into_iter()
        .zip(types)
        .map(|(v, t)| Ok((v, relay_type(t)?)))
        .collect::<Result<_, String>>()?;
    Ok(Example {
        call: call.to_string(),
        args,
        result: relay_type(result)?,
    })
}

/// Type-checks the example as a one-function program and compares the function's
/// inferred type with the claimed one. `Ok(())` when they agree.
fn check_example(ex: &Example) -> Result<(), String> {
    let params: Vec<String> = ex.args.iter().map(|(v, t)| format!("%{v}: {t}")).collect();
    let src = format!("def @f({}) {{ {} }}", params.join(", "), ex.call);
    let mut tcx = TyCtx::new();
    // The registered data types (`Storage`, which the memory operators return).
    let mut adts = relay_core::adt::load(&mut tcx).map_err(|errors| format!("{errors:?}"))?;
    let m = parse_module(&src, &mut tcx, &mut adts).map_err(|e| {
        format!(
            "`{src}` does not parse: {}",
            e.iter()
                .map(|e| e.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    let typed = relay_core::infer::infer(tcx, &adts, &m);
    if let Some(e) = typed.errors().first() {
        return Err(format!("`{src}` does not type-check: {}", e.message));
    }
    let gid = m.global("f").expect("the program defines @f");
    let got = typed.show(typed.global_ty(gid));
    // The claim, printed the same way (so `2 * n` and `2*n` agree).
    let arg_tys: Vec<&str> = ex.args.iter().map(|(_, t)| t.as_str()).collect();
    let claim = format!("fn ({}) -> {}", arg_tys.join(", "), ex.result);
    let mut tcx = TyCtx::new();
    let adts = relay_core::adt::load(&mut tcx).map_err(|errors| format!("{errors:?}"))?;
    let want = parse_type(&mut tcx, &mut adts.scope(), &claim)
        .map_err(|e| format!("the claim `{claim}` does not parse: {e}"))?;
    let want = tcx.show(want);
    if got != want {
        return Err(format!(
            "`{src}` has type `{got}`, the example claims `{want}`"
        ));
    }
    Ok(())
}

/// Every problem with the examples of operator `op`.
fn example_problems(op: &OpDef) -> Vec<String> {
    let lines = example_lines(op.doc);
    if lines.is_empty() {
        return vec![format!("`{}` has no example", op.name)];
    }
    lines
        .iter()
        .filter_map(|line| {
            parse_example(op.name, line)
                .and_then(|ex| check_example(&ex))
                .err()
                .map(|e| format!("`{}`: {line}\n    {e}", op.name))
        })
        .collect()
}

#[test]
fn every_operator_has_an_example_that_type_checks_to_its_claim() {
    let reg = registry::global().unwrap();
    let (mut ops, mut examples) = (0, 0);
    let mut problems = Vec::new();
    for op in reg.ops() {
        ops += 1;
        examples += example_lines(op.doc).len();
        problems.extend(example_problems(op));
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    assert_eq!(ops, 295);
    // `sum`, `nn.dense`, `nn.conv2d`, `nn.batch_matmul`, `broadcast_to`,
    // `collapse_sum_to`, `argsort`, `nn.pad`, `layout_transform`,
    // `nn.contrib_conv3d_winograd_weight_transform`,
    // `nn.contrib_conv2d_gemm_weight_transform`, `image.resize2d`,
    // `vision.non_max_suppression` and `vision.all_class_non_max_suppression` have two.
    assert_eq!(examples, 312);
}

#[test]
fn the_example_format_is_strict() {
    let ok = parse_example(
        "subtract",
        "%z = subtract(%x, %y)  // (n, 1) f32, (3) f32 -> (n, 3) f32",
    );
    assert_eq!(
        ok,
        Ok(Example {
            call: "subtract(%x, %y)".into(),
            args: vec![
                ("x".into(), "Tensor[(n, 1), float32]".into()),
                ("y".into(), "Tensor[(3), float32]".into()),
            ],
            result: "Tensor[(n, 3), float32]".into(),
        })
    );
    let tuple = parse_example(
        "split",
        "%y = split(%x, indices_or_sections=2)  // (4) i8 -> ((2) i8, (2) i8)",
    );
    assert_eq!(
        tuple.map(|e| (e.args, e.result)),
        Ok((
            vec![("x".into(), "Tensor[(4), int8]".into())],
            "(Tensor[(2), int8], Tensor[(2), int8])".into()
        ))
    );
    let none = parse_example(
        "zeros",
        "%y = zeros(shape=[2], dtype=\"int8\")  // -> (2) i8",
    );
    assert_eq!(none.map(|e| e.args.len()), Ok(0));
    let scalar = parse_example("max", "%y = max(%x)  // (2) f32 -> () f32");
    assert_eq!(scalar.map(|e| e.result), Ok("float32".into()));
    let wrong: [(&str, &str); 9] = [
        ("add", "add(%x, %y)  // (3) f32, (3) f32 -> (3) f32"),
        ("add", "%z = add(%x, %y) // (3) f32, (3) f32 -> (3) f32"),
        (
            "add",
            "%z = subtract(%x, %y)  // (3) f32, (3) f32 -> (3) f32",
        ),
        ("add", "%z = add(%x, %y)  // (3) f32 -> (3) f32"),
        (
            "add",
            "%z = add(%x, %y)  // (3) f32, (3) float32 -> (3) f32",
        ),
        ("add", "%z = add(%x, %y)  // (3) f32,(3) f32 -> (3) f32"),
        ("add", "%z = add(%x, %y)  // (3) f32, (3) f32 => (3) f32"),
        ("add", "%z = add(%x, %z)  // (3) f32, (3) f32 -> (3) f32"),
        ("add", "%z = add(%x, %y);  // (3) f32, (3) f32 -> (3) f32"),
    ];
    for (op, line) in wrong {
        assert!(parse_example(op, line).is_err(), "{line}");
    }
}

#[test]
fn a_wrong_claim_is_caught() {
    let check = |line: &str| parse_example("add", line).and_then(|ex| check_example(&ex));
    assert_eq!(
        check("%z = add(%x, %y)  // (n, 1) f32, (3) f32 -> (n, 3) f32"),
        Ok(())
    );
    assert_eq!(
        check("%z = add(%x, %y)  // (n, 1) f32, (3) f32 -> (3, 3) f32"),
        Err("`def @f(%x: Tensor[(n, 1), float32], %y: Tensor[(3), float32]) { add(%x, %y) }` has type `fn (Tensor[(n, 1), float32], Tensor[(3), float32]) -> Tensor[(n, 3), float32]`, the example claims `fn (Tensor[(n, 1), float32], Tensor[(3), float32]) -> Tensor[(3, 3), float32]`".into())
    );
    assert_eq!(
        check("%z = add(%x, %y)  // (2) f32, (3) f32 -> (3) f32"),
        Err("`def @f(%x: Tensor[(2), float32], %y: Tensor[(3), float32]) { add(%x, %y) }` does not type-check: `Tensor[(2), float32]` and `Tensor[(3), float32]` do not broadcast: dimension 0 of the first is 2 and dimension 0 of the second is 3".into())
    );
    // A dtype, a `?`, a tuple's arity: each is part of the claim.
    for wrong in [
        "%z = add(%x, %y)  // (n, 1) f32, (3) f32 -> (n, 3) f16",
        "%z = add(%x, %y)  // (n, 1) f32, (3) f32 -> (?, 3) f32",
        "%z = add(%x, %y)  // (n, 1) f32, (3) f32 -> ((n, 3) f32,)",
    ] {
        assert!(check(wrong).is_err(), "{wrong}");
    }
}

// ---------------------------------------------------------------------------------------
// The generated "Attributes:" section
// ---------------------------------------------------------------------------------------

/// A declared default as the section writes it, for comparison with the registered
/// constant: `Some(v)` is `v`, a dtype may be quoted or not, a float compares by value.
fn default_matches(text: &str, c: &AttrConst) -> bool {
    let text = match text.strip_prefix("Some(").and_then(|t| t.strip_suffix(')')) {
        Some(inner) => inner,
        None => text,
    };
    match c {
        AttrConst::Int(i) => text == i.to_string(),
        AttrConst::Float(x) => text.parse::<f64>() == Ok(*x),
        AttrConst::Bool(b) => text == b.to_string(),
        AttrConst::Str(s) => text == format!("{s:?}"),
        AttrConst::DType(d) => text == *d || text == format!("{d:?}"),
        AttrConst::None => text == "None",
        AttrConst::List(items) => {
            let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
                return false;
            };
            let parts = if inner.is_empty() {
                Vec::new()
            } else {
                split_top(inner).unwrap_or_default()
            };
            parts.len() == items.len()
                && parts.iter().zip(*items).all(|(t, c)| default_matches(t, c))
        }
    }
}

/// The problems of `op`'s generated "Attributes:" section against its registered schema.
fn attribute_section_problems(op: &OpDef) -> Vec<String> {
    let name = op.name;
    let Some((_, section)) = op.doc.rsplit_once("\n\nAttributes:") else {
        return vec![format!("`{name}` has no generated `Attributes:` section")];
    };
    if op.attrs.is_empty() {
        return if section == " none." {
            Vec::new()
        } else {
            vec![format!(
                "`{name}` has no attributes, its section is `{section}`"
            )]
        };
    }
    let lines: Vec<&str> = section.strip_prefix("\n\n").unwrap_or("").lines().collect();
    if lines.len() != op.attrs.len() {
        return vec![format!(
            "`{name}` has {} attributes, its section lists {}",
            op.attrs.len(),
            lines.len()
        )];
    }
    let mut problems = Vec::new();
    for (line, a) in lines.iter().zip(op.attrs) {
        let head = format!("- `{}: {}", a.name, a.ty);
        let ok = match (line.strip_prefix(&head), &a.default) {
            (Some(rest), None) => rest == "` (required)",
            (Some(rest), Some(c)) => rest
                .strip_prefix(" = ")
                .and_then(|r| r.strip_suffix('`'))
                .is_some_and(|text| default_matches(text, c)),
            (None, _) => false,
        };
        if !ok {
            problems.push(format!("`{name}`: `{line}` does not describe {a:?}"));
        }
    }
    problems
}

#[test]
fn every_operator_documents_its_attributes_with_their_types_and_defaults() {
    let reg = registry::global().unwrap();
    let problems: Vec<String> = reg
        .ops()
        .iter()
        .flat_map(|op| attribute_section_problems(op))
        .collect();
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn the_attribute_sections_of_known_operators() {
    let reg = registry::global().unwrap();
    let section = |name: &str| {
        let doc = reg.op(name).unwrap().doc;
        doc[doc.rfind("\n\nAttributes:").unwrap() + 2..].to_string()
    };
    assert_eq!(section("add"), "Attributes: none.");
    assert_eq!(section("nn.softmax"), "Attributes:\n\n- `axis: int = -1`");
    assert_eq!(
        section("nn.group_norm"),
        "Attributes:\n\n- `num_groups: int = 0`\n- `axis: int = 1`\n- `epsilon: float = 0.00001`\n- `center: bool = true`\n- `scale: bool = true`"
    );
    assert_eq!(
        section("split"),
        "Attributes:\n\n- `indices_or_sections: int | [int]` (required)\n- `axis: int = 0`"
    );
    assert_eq!(
        section("nn.dense"),
        "Attributes:\n\n- `units: Option<int> = None`\n- `out_dtype: Option<dtype> = None`"
    );
    // A wrong section is caught.
    static WRONG: OpDef = OpDef {
        name: "wrong",
        doc: "Text.\n\nAttributes:\n\n- `axis: int = 1`",
        params: &[],
        arg_names: &[],
        args: &[],
        ret: "float32",
        relation: None,
        attrs: &[relay_core::op::AttrDef {
            name: "axis",
            ty: AttrType::Int,
            default: Some(AttrConst::Int(-1)),
        }],
        level: 1,
        file: "",
        line: 0,
    };
    assert_eq!(
        attribute_section_problems(&WRONG),
        ["`wrong`: `- `axis: int = 1`` does not describe AttrDef { name: \"axis\", ty: Int, default: Some(Int(-1)) }"]
    );
}

/// The mentions of attributes in the hand-written "Attributes:" paragraphs of `op`'s doc
/// (`` `axis: int = -1` `` or `` `axis = -1` ``): each must give the declared type (when
/// it gives one) and default. Returns the problems and the number of mentions checked.
fn prose_problems(op: &OpDef) -> (Vec<String>, usize) {
    let user = op
        .doc
        .rsplit_once("\n\nAttributes:")
        .map_or(op.doc, |(u, _)| u);
    let (mut problems, mut checked) = (Vec::new(), 0);
    for para in user.split("\n\n").filter(|p| p.starts_with("Attributes:")) {
        let para = para.replace('\n', " ");
        // The code spans are the odd pieces between backticks.
        for span in para.split('`').skip(1).step_by(2) {
            let Some((lhs, value)) = span.split_once(" = ") else {
                continue;
            };
            let (name, ty) = match lhs.split_once(": ") {
                Some((n, t)) => (n, Some(t)),
                None => (lhs, None),
            };
            let Some(a) = op.attrs.iter().find(|a| a.name == name) else {
                problems.push(format!("`{}`: `{span}` names no attribute", op.name));
                continue;
            };
            checked += 1;
            let ty_ok = ty.is_none_or(|t| t == a.ty.to_string());
            let default_ok = a.default.is_some_and(|c| default_matches(value, &c));
            if !ty_ok || !default_ok {
                problems.push(format!("`{}`: `{span}` disagrees with {a:?}", op.name));
            }
        }
    }
    (problems, checked)
}

#[test]
fn the_hand_written_attribute_paragraphs_agree_with_the_declarations() {
    let reg = registry::global().unwrap();
    let (mut problems, mut checked) = (Vec::new(), 0);
    for op in reg.ops() {
        let (p, n) = prose_problems(op);
        problems.extend(p);
        checked += n;
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    // The generated section lists every attribute; the prose only adds notes (three
    // defaults of the dynamic operators are mentioned in theirs).
    assert_eq!(checked, 3);
}
