//! `einsum`: the equation is parsed (as TVM's `EinsumEquation` reads it), each label's
//! extent gathered from the operands (broadcast where one is 1), the ellipses' shapes
//! broadcast together, and the output built from its subscript. A wrong equation is an
//! error that names the problem (TVM aborts on most, and crashes on an output label no
//! operand has).

use relay_core::shape::broadcast;
use relay_core::{relation, Dim, Progress, RelCx, RelError, RelResult, TyData};

/// One position of a subscript: a letter, or the ellipsis `...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Label {
    /// Sorts first, as TVM's (the NUL character) does.
    Ellipsis,
    Letter(u8),
}

/// An equation: the operands' subscripts and the output's.
#[derive(Debug, PartialEq)]
struct Equation {
    inputs: Vec<Vec<Label>>,
    output: Vec<Label>,
}

/// Parses `eq`: subscripts of letters and at most one `...` each, separated by `,`, then
/// optionally `->` and the output's subscript (spaces ignored). Without `->` (implicit
/// mode) the output is the ellipsis, if any operand has one, then the letters that occur
/// once, in ASCII order.
fn parse(eq: &str) -> Result<Equation, String> {
    let bytes = eq.as_bytes();
    let (mut inputs, mut current) = (Vec::new(), Vec::new());
    let mut arrow = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' ' => {}
            b'-' => {
                if arrow {
                    return Err("it has more than one `->`".into());
                }
                if bytes.get(i + 1) != Some(&b'>') {
                    return Err(format!("`-` at byte {i} is not followed by `>`"));
                }
                arrow = true;
                inputs.push(std::mem::take(&mut current));
                i += 1;
            }
            b',' if arrow => return Err("the output after `->` has a `,`".into()),
            b',' => inputs.push(std::mem::take(&mut current)),
            b'.' => {
                if bytes.get(i + 1..i + 3) != Some(b"..") {
                    return Err(format!("`.` at byte {i} does not start an ellipsis `...`"));
                }
                if current.contains(&Label::Ellipsis) {
                    return Err("a subscript has more than one ellipsis".into());
                }
                current.push(Label::Ellipsis);
                i += 2;
            }
            c if c.is_ascii_alphabetic() => current.push(Label::Letter(c)),
            _ => {
                let c = eq[i..].chars().next().unwrap_or('?');
                return Err(format!(
                    "`{c}` at byte {i} is not a letter, `,`, `->` or `...`"
                ));
            }
        }
        i += 1;
    }
    let output = if arrow {
        current
    } else {
        inputs.push(current);
        let mut counts = std::collections::BTreeMap::new();
        for &l in inputs.iter().flatten() {
            *counts.entry(l).or_insert(0usize) += 1;
        }
        counts
            .into_iter()
            .filter(|&(l, n)| l == Label::Ellipsis || n == 1)
            .map(|(l, _)| l)
            .collect()
    };
    for (k, &l) in output.iter().enumerate() {
        if output[..k].contains(&l) {
            return Err(format!("the output names {} twice", show(l)));
        }
        if !inputs.iter().any(|s| s.contains(&l)) {
            return Err(format!("the output's {} is in no operand", show(l)));
        }
    }
    Ok(Equation { inputs, output })
}

fn show(l: Label) -> String {
    match l {
        Label::Ellipsis => "`...`".into(),
        Label::Letter(c) => format!("`{}`", c as char),
    }
}

/// The relation of `einsum`: a tuple of tensors of one dtype, and the `equation`.
#[relation(Einsum)]
pub fn einsum_rel(cx: &mut RelCx<'_>) -> RelResult {
    let equation = cx
        .attrs()
        .str("equation")?
        .ok_or_else(|| RelError::new("attribute `equation` is missing"))?
        .to_owned();
    let eq = parse(&equation).map_err(|why| {
        RelError::new(format!("`einsum` equation \"{equation}\" is wrong: {why}"))
    })?;
    let t = cx.resolve(cx.arg(0));
    let fields: Vec<_> = match cx.data(t) {
        TyData::Tuple(f) => f.to_vec(),
        TyData::Var(_) => return Ok(Progress::NotYet),
        _ => {
            let s = cx.show(t);
            return Err(RelError::at(
                0,
                format!("`einsum` expects a tuple of tensors, found `{s}`"),
            ));
        }
    };
    if fields.len() != eq.inputs.len() {
        return Err(RelError::at(
            0,
            format!(
                "`einsum` equation \"{equation}\" has {} operands, the tuple {}",
                eq.inputs.len(),
                fields.len()
            ),
        ));
    }
    let mut shapes = Vec::with_capacity(fields.len());
    let mut dtype = None;
    for &f in &fields {
        let f = cx.resolve(f);
        let (dims, dt) = match cx.data(f).clone() {
            TyData::Tensor(s, dt) => match cx.tcx_ref().shape_dims(s) {
                Some(d) => (d.to_vec(), dt),
                None => return Ok(Progress::NotYet),
            },
            TyData::Var(_) => return Ok(Progress::NotYet),
            _ => {
                let s = cx.show(f);
                return Err(RelError::at(
                    0,
                    format!("`einsum` expects tensors, found `{s}`"),
                ));
            }
        };
        match dtype {
            None => dtype = Some(dt),
            Some(first) => cx.unify_dtype(first, dt, 0).map_err(|_| {
                let s = cx.show(t);
                RelError::at(
                    0,
                    format!("`einsum` needs operands of one dtype, found `{s}`"),
                )
            })?,
        }
        shapes.push(dims);
    }
    let mut extents: Vec<(Label, Dim)> = Vec::new();
    let mut ellipsis: Option<Vec<Dim>> = None;
    for (k, (sub, dims)) in eq.inputs.iter().zip(&shapes).enumerate() {
        let has_ellipsis = sub.contains(&Label::Ellipsis);
        let letters = sub.len() - usize::from(has_ellipsis);
        if dims.len() < letters || (!has_ellipsis && dims.len() != letters) {
            let s = cx.show(t);
            return Err(RelError::at(
                0,
                format!(
                    "operand {k} of `einsum` has rank {}, but its subscript in \"{equation}\" has {letters} labels{} (the operands are `{s}`)",
                    dims.len(),
                    if has_ellipsis { " and an ellipsis" } else { "" }
                ),
            ));
        }
        let mut at = 0;
        for &l in sub {
            if l == Label::Ellipsis {
                let n = dims.len() - letters;
                let part = &dims[at..at + n];
                ellipsis = Some(match ellipsis {
                    None => part.to_vec(),
                    Some(e) => match broadcast(&cx.tcx_ref().dims, &e, part) {
                        Ok(Some(b)) => b,
                        Ok(None) => return Ok(Progress::NotYet),
                        Err(_) => {
                            let s = cx.show(t);
                            return Err(RelError::at(
                                0,
                                format!("the dimensions under `...` of `einsum`'s operands do not broadcast (the operands are `{s}`)"),
                            ));
                        }
                    },
                });
                at += n;
                continue;
            }
            let d = dims[at];
            at += 1;
            match extents.iter_mut().find(|(x, _)| *x == l) {
                None => extents.push((l, d)),
                Some((_, e)) => match broadcast(&cx.tcx_ref().dims, &[*e], &[d]) {
                    Ok(Some(b)) => *e = b[0],
                    Ok(None) => return Ok(Progress::NotYet),
                    Err(_) => {
                        let (a, b) = (cx.show_dim(*e), cx.show_dim(d));
                        return Err(RelError::at(
                            0,
                            format!(
                                "`einsum` label {} is {a} in one operand and {b} in operand {k}",
                                show(l)
                            ),
                        ));
                    }
                },
            }
        }
    }
    let mut out = Vec::new();
    for &l in &eq.output {
        match l {
            Label::Ellipsis => out.extend(ellipsis.iter().flatten()),
            _ => out.extend(extents.iter().filter(|(x, _)| *x == l).map(|(_, d)| *d)),
        }
    }
    let dt = dtype.ok_or_else(|| RelError::at(0, "`einsum` needs at least one operand"))?;
    let o = cx.mk_tensor(&out, dt);
    cx.unify(1, o)?;
    Ok(Progress::Solved)
}

#[cfg(test)]
mod tests {
    use super::{parse, Label};

    fn letters(s: &str) -> Vec<Label> {
        s.bytes()
            .map(|c| {
                if c == b'.' {
                    Label::Ellipsis
                } else {
                    Label::Letter(c)
                }
            })
            .collect()
    }

    #[test]
    fn equations_parse_as_tvm_reads_them() {
        let eq = parse("ij, jk -> ik").unwrap();
        assert_eq!(eq.inputs, [letters("ij"), letters("jk")]);
        assert_eq!(eq.output, letters("ik"));
        // Implicit: the ellipsis first, then the letters seen once, in ASCII order.
        let eq = parse("...ba,Bc").unwrap();
        assert_eq!(eq.output, letters(".Babc"));
        assert_eq!(parse("ii").unwrap().output, []);
        assert_eq!(parse("").unwrap().inputs, [letters("")]);
        for (bad, why) in [
            ("ij->j->i", "it has more than one `->`"),
            ("ij-k", "`-` at byte 2 is not followed by `>`"),
            ("i..j", "`.` at byte 1 does not start an ellipsis `...`"),
            ("...i...", "a subscript has more than one ellipsis"),
            ("i1", "`1` at byte 1 is not a letter, `,`, `->` or `...`"),
            ("ij->ii", "the output names `i` twice"),
            ("ij->k", "the output's `k` is in no operand"),
            ("ij->i,j", "the output after `->` has a `,`"),
        ] {
            assert_eq!(parse(bad).unwrap_err(), why, "{bad}");
        }
    }
}
