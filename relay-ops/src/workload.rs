//! The reference workload of the performance targets: a transformer-like block of 18
//! operators, repeated to `N` operators in one `let` chain of `@main`, over a symbolic
//! batch `n` (d = 768, 12 heads of 64, FFN 3072), each block with its own weights as
//! parameters of `@main`.
//!
//! ```
//! let text = relay_ops::workload::transformer(18);
//! assert!(text.contains("let %q3_0 = reshape(%qb_0, newshape=[0, 12, -1]);"));
//! assert_eq!(relay_ops::workload::BLOCK.len(), 18);
//! ```
//!
//! `relay workload N` prints it; `relay check` reads it back.

use std::fmt::Write;

/// One step of the block: the binding's name, the operator call (with `{}` standing for
/// the block index), and its type for an `(n, 768)` input.
pub struct Step {
    /// The binding's name, without the block index.
    pub name: &'static str,
    /// The right-hand side; `#` is replaced by the block index and `$` by the block's input.
    pub call: &'static str,
    /// The binding's type, printed as `relay check --bindings` prints it.
    pub ty: &'static str,
}

/// The 18 operators of one block, in order.
pub const BLOCK: [Step; 18] = [
    step("q", "nn.dense($, %Wq_#)", "Tensor[(n, 768), float32]"),
    step("qb", "add(%q_#, %bq_#)", "Tensor[(n, 768), float32]"),
    step(
        "q3",
        "reshape(%qb_#, newshape=[0, 12, -1])",
        "Tensor[(n, 12, 64), float32]",
    ),
    step(
        "qt",
        "transpose(%q3_#, axes=[0, 2, 1])",
        "Tensor[(n, 64, 12), float32]",
    ),
    step(
        "s",
        "nn.softmax(%qt_#, axis=-1)",
        "Tensor[(n, 64, 12), float32]",
    ),
    step(
        "st",
        "transpose(%s_#, axes=[0, 2, 1])",
        "Tensor[(n, 12, 64), float32]",
    ),
    step(
        "m",
        "reshape(%st_#, newshape=[0, -1])",
        "Tensor[(n, 768), float32]",
    ),
    step("v", "nn.dense($, %Wv_#)", "Tensor[(n, 768), float32]"),
    step("vb", "add(%v_#, %bv_#)", "Tensor[(n, 768), float32]"),
    step(
        "c",
        "concatenate((%m_#, %vb_#), axis=1)",
        "Tensor[(n, 1536), float32]",
    ),
    step("o", "nn.dense(%c_#, %Wo_#)", "Tensor[(n, 768), float32]"),
    step("ob", "add(%o_#, %bo_#)", "Tensor[(n, 768), float32]"),
    step("h1", "add(%ob_#, $)", "Tensor[(n, 768), float32]"),
    step("f1", "nn.dense(%h1_#, %W1_#)", "Tensor[(n, 3072), float32]"),
    step("f1b", "add(%f1_#, %b1_#)", "Tensor[(n, 3072), float32]"),
    step("f2", "nn.dense(%f1b_#, %W2_#)", "Tensor[(n, 768), float32]"),
    step("f2b", "add(%f2_#, %b2_#)", "Tensor[(n, 768), float32]"),
    step("h2", "add(%f2b_#, %h1_#)", "Tensor[(n, 768), float32]"),
];

const fn step(name: &'static str, call: &'static str, ty: &'static str) -> Step {
    Step { name, call, ty }
}

/// The weights of one block: name and type.
pub const WEIGHTS: [(&str, &str); 10] = [
    ("Wq", "Tensor[(768, 768), float32]"),
    ("bq", "Tensor[(768), float32]"),
    ("Wv", "Tensor[(768, 768), float32]"),
    ("bv", "Tensor[(768), float32]"),
    ("Wo", "Tensor[(768, 1536), float32]"),
    ("bo", "Tensor[(768), float32]"),
    ("W1", "Tensor[(3072, 768), float32]"),
    ("b1", "Tensor[(3072), float32]"),
    ("W2", "Tensor[(768, 3072), float32]"),
    ("b2", "Tensor[(768), float32]"),
];

/// The most operators `relay workload` makes: ten times the largest size of the
/// performance targets, about 600 MB of text.
pub const MAX_OPS: usize = 10_000_000;

/// The workload with `ops` operators (the last block cut short if `ops` is not a multiple
/// of 18) as Relay text. `@main` takes the input `%x: Tensor[(n, 768), float32]` and the
/// weights of every block begun, and returns the last binding.
pub fn transformer(ops: usize) -> String {
    let blocks = ops.div_ceil(BLOCK.len());
    let mut out = String::with_capacity(ops * 48 + blocks * 10 * 40 + 128);
    out.push_str("#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(n, 768), float32]");
    for b in 0..blocks {
        for (w, ty) in WEIGHTS {
            let _ = write!(out, ",\n  %{w}_{b}: {ty}");
        }
    }
    out.push_str(") {\n");
    // The block's input: `%x`, then the previous block's output.
    let mut input = String::from("%x");
    for i in 0..ops {
        let (b, s) = (i / BLOCK.len(), &BLOCK[i % BLOCK.len()]);
        if b > 0 && i % BLOCK.len() == 0 {
            input.clear();
            let _ = write!(input, "%h2_{}", b - 1);
        }
        let _ = write!(out, "  let %{}_{b} = ", s.name);
        write_call(&mut out, s.call, b, &input);
        out.push_str(";\n");
    }
    match ops.checked_sub(1) {
        Some(i) => {
            let _ = writeln!(
                out,
                "  %{}_{}\n}}",
                BLOCK[i % BLOCK.len()].name,
                i / BLOCK.len()
            );
        }
        None => out.push_str("  %x\n}\n"),
    }
    out
}

fn write_call(out: &mut String, call: &str, block: usize, input: &str) {
    for c in call.chars() {
        match c {
            '#' => {
                let _ = write!(out, "{block}");
            }
            '$' => out.push_str(input),
            c => out.push(c),
        }
    }
}

/// The binding names of the workload with `ops` operators, in order, with the type each
/// must have (`relay check --bindings` prints `%name: TYPE` lines in this order).
pub fn expected_bindings(ops: usize) -> impl Iterator<Item = (String, &'static str)> {
    (0..ops).map(|i| {
        let s = &BLOCK[i % BLOCK.len()];
        (format!("{}_{}", s.name, i / BLOCK.len()), s.ty)
    })
}

/// The workload of the per-call benchmarks of relations: a solver holding `calls`
/// independent calls of `relation` with the attributes `attrs` of operator `op` (its
/// defaults filled), each on arguments of the types `args` (the text syntax) and with
/// its own unknown result, every call run (the memo of relation results is off). Solving
/// it runs the relation `calls` times.
///
/// ```
/// use relay_core::{AttrValue, Outcome};
/// let sum = relay_core::registry::global().unwrap().op("sum").unwrap().relation.unwrap();
/// let axis = [("axis", AttrValue::List(vec![AttrValue::Int(1)]))];
/// let mut s = relay_ops::workload::relation_calls(sum, "sum", &["Tensor[(n, 4), float32]"], &axis, 3);
/// assert_eq!(s.solve(), Outcome::Solved);
/// ```
pub fn relation_calls(
    relation: relay_core::RelationRef,
    op: &str,
    args: &[&str],
    attrs: &[(&str, relay_core::AttrValue)],
    calls: usize,
) -> relay_core::Solver {
    use relay_core::text::{parse_type, TypeScope};
    let def = relay_core::registry::global()
        .expect("the registry")
        .op(op)
        .expect("the operator");
    let given = relay_core::Attrs::new(
        attrs
            .iter()
            .map(|(k, v)| ((*k).into(), v.clone()))
            .collect(),
    );
    let attrs = std::sync::Arc::new(def.attrs_for_call(&given).expect("the attributes"));
    let mut s = relay_core::Solver::new(relay_core::TyCtx::new());
    s.remember_results(false);
    let mut scope = TypeScope::new();
    let mut tys: Vec<_> = args
        .iter()
        .map(|a| parse_type(&mut s.tcx, &mut scope, a).expect("a type"))
        .collect();
    tys.push(s.fresh_ty());
    for i in 0..calls {
        *tys.last_mut().expect("the result") = s.fresh_ty();
        s.add_relation(relation, &tys, Some(attrs.clone()), i as u32);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_block_reads_as_the_issue_writes_it() {
        let text = transformer(18);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "#[version = \"0.0.5\"]");
        assert_eq!(lines[1], "def @main(%x: Tensor[(n, 768), float32],");
        assert_eq!(lines[11], "  %b2_0: Tensor[(768), float32]) {");
        assert_eq!(lines[12], "  let %q_0 = nn.dense(%x, %Wq_0);");
        assert_eq!(lines[24], "  let %h1_0 = add(%ob_0, %x);");
        assert_eq!(lines[29], "  let %h2_0 = add(%f2b_0, %h1_0);");
        assert_eq!(lines[30], "  %h2_0");
        assert_eq!(lines.len(), 32);
    }

    #[test]
    fn later_blocks_read_the_previous_output_and_a_partial_block_ends_the_chain() {
        let text = transformer(20);
        assert!(text.contains("let %q_1 = nn.dense(%h2_0, %Wq_1);"));
        assert!(text.contains("let %qb_1 = add(%q_1, %bq_1);\n  %qb_1\n}"));
        assert!(text.contains("%b2_1: Tensor[(768), float32]) {"));
        let names: Vec<String> = expected_bindings(20).map(|(n, _)| n).collect();
        assert_eq!(names[18..], ["q_1".to_string(), "qb_1".to_string()]);
    }

    #[test]
    fn no_operators_is_the_identity_on_the_input() {
        assert_eq!(
            transformer(0),
            "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(n, 768), float32]) {\n  %x\n}\n"
        );
    }
}
