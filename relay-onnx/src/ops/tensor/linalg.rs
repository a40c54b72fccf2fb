//! Linear algebra: `Det` and `Einsum`.

use crate::onnx_ops;
use crate::ops::util::{out_tensor, shown};
use relay_core::{relation, relay_op, Dim, Dims, Progress, RelCx, RelError, RelResult, TyData};

relay_op! {
    /// ONNX `Det`: the determinants of the trailing square matrices.
    onnx.det : fn<a, b>(x: a) -> b where OnnxDet, level 10;

    /// ONNX `Einsum`: the inputs (a tuple) contracted as `equation` says.
    onnx.einsum : fn<a, b>(inputs: a) -> b where OnnxEinsum,
        attrs { equation: str },
        level 10;
}

/// `OnnxDet(x, out)`.
#[relation(OnnxDet)]
pub fn onnx_det(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let r = dims.len();
    if r < 2 {
        let t = shown(cx, 0);
        return Err(RelError::at(
            0,
            format!("`Det` takes square matrices, and the input is `{t}`"),
        ));
    }
    cx.unify_dim(dims[r - 2], dims[r - 1], 0).map_err(|_| {
        let t = shown(cx, 0);
        RelError::at(
            0,
            format!("`Det` takes square matrices, and the input is `{t}`"),
        )
    })?;
    out_tensor(cx, 1, &dims[..r - 2], dt)
}

/// One operand of an einsum equation: its letters and where its ellipsis is.
struct Term {
    letters: Vec<u8>,
    ellipsis: Option<usize>,
}

fn parse_term(s: &str, arg: usize) -> Result<Term, RelError> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let mut letters = Vec::new();
    let mut ellipsis = None;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'.' {
            if !s[i..].starts_with("...") || ellipsis.is_some() {
                return Err(RelError::at(
                    arg,
                    format!("`{s}`: an ellipsis is `...`, at most once a term"),
                ));
            }
            ellipsis = Some(letters.len());
            i += 3;
        } else if b[i].is_ascii_alphabetic() {
            letters.push(b[i]);
            i += 1;
        } else {
            return Err(RelError::at(
                arg,
                format!("`{s}`: an einsum term is letters and at most one `...`"),
            ));
        }
    }
    Ok(Term { letters, ellipsis })
}

/// `OnnxEinsum(inputs tuple, out)`.
#[relation(OnnxEinsum)]
pub fn onnx_einsum(cx: &mut RelCx<'_>) -> RelResult {
    let t = cx.resolve(cx.arg(0));
    let TyData::Tuple(fields) = cx.data(t).clone() else {
        return Ok(Progress::NotYet);
    };
    let mut inputs = Vec::with_capacity(fields.len());
    let mut dt = None;
    for &f in &fields {
        let f = cx.resolve(f);
        let TyData::Tensor(s, d) = *cx.data(f) else {
            return Ok(Progress::NotYet);
        };
        let Some(dims) = cx.tcx_ref().shape_dims(s).map(|d| d.to_vec()) else {
            return Ok(Progress::NotYet);
        };
        match dt {
            None => dt = Some(d),
            Some(p) => cx.unify_dtype(p, d, 0)?,
        }
        inputs.push(dims);
    }
    let Some(dt) = dt else {
        return Err(RelError::at(0, "`Einsum` takes at least one input"));
    };
    let eq = cx
        .attrs()
        .str("equation")?
        .ok_or_else(|| RelError::at(0, "`equation` is required"))?
        .to_string();
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (eq.as_str(), None),
    };
    let terms: Vec<Term> = lhs
        .split(',')
        .map(|s| parse_term(s, 0))
        .collect::<Result<_, _>>()?;
    if terms.len() != inputs.len() {
        return Err(RelError::at(
            0,
            format!(
                "equation `{eq}` has {} operands, and {} inputs are given",
                terms.len(),
                inputs.len()
            ),
        ));
    }
    let mut letter: [Option<Dim>; 128] = [None; 128];
    let mut count = [0usize; 128];
    let mut ell: Vec<Dim> = Vec::new();
    let mut any_ellipsis = false;
    for (j, (term, dims)) in terms.iter().zip(&inputs).enumerate() {
        let n = term.letters.len();
        let e = match term.ellipsis {
            Some(_) if dims.len() >= n => dims.len() - n,
            None if dims.len() == n => 0,
            _ => {
                return Err(RelError::at(
                    0,
                    format!(
                        "operand {j} of `{eq}` names {n} axes, and input {j} has rank {}",
                        dims.len()
                    ),
                ))
            }
        };
        let at = term.ellipsis.unwrap_or(n);
        for (p, &c) in term.letters.iter().enumerate() {
            let d = dims[if p < at { p } else { p + e }];
            count[c as usize] += 1;
            match letter[c as usize] {
                None => letter[c as usize] = Some(d),
                Some(prev) => {
                    let known = &cx.tcx_ref().dims;
                    match (known.as_const(prev), known.as_const(d)) {
                        (Some(x), Some(y)) if x == y => {}
                        (Some(1), _) => letter[c as usize] = Some(d),
                        (_, Some(1)) => {}
                        (Some(x), Some(y)) => {
                            return Err(RelError::at(
                                0,
                                format!("axis `{}` of `{eq}` is {x} and {y}", c as char),
                            ))
                        }
                        _ => {
                            if cx.unify_dim(prev, d, 0).is_err() {
                                letter[c as usize] = Some(Dims::ANY);
                            }
                        }
                    }
                }
            }
        }
        if term.ellipsis.is_some() {
            any_ellipsis = true;
            let mine = dims[at..at + e].to_vec();
            ell = crate::ops::util::broadcast(cx, &ell, &mine, 0)?;
        }
    }
    let out_term = match rhs {
        Some(r) => {
            let t = parse_term(r, 0)?;
            let mut seen = [false; 128];
            for &c in &t.letters {
                if std::mem::replace(&mut seen[c as usize], true) {
                    return Err(RelError::at(
                        0,
                        format!("the output of `{eq}` names `{}` twice", c as char),
                    ));
                }
                if letter[c as usize].is_none() {
                    return Err(RelError::at(
                        0,
                        format!(
                            "the output of `{eq}` names `{}`, which no operand has",
                            c as char
                        ),
                    ));
                }
            }
            t
        }
        None => {
            let mut once: Vec<u8> = (0u8..128).filter(|&c| count[c as usize] == 1).collect();
            once.sort_unstable();
            Term {
                letters: once,
                ellipsis: any_ellipsis.then_some(0),
            }
        }
    };
    let mut out = Vec::new();
    for (p, &c) in out_term.letters.iter().enumerate() {
        if out_term.ellipsis == Some(p) {
            out.extend_from_slice(&ell);
        }
        out.push(letter[c as usize].unwrap_or(Dims::ANY));
    }
    if out_term.ellipsis == Some(out_term.letters.len()) {
        out.extend_from_slice(&ell);
    }
    out_tensor(cx, 1, &out, dt)
}

onnx_ops! {
    "" Det since 11 => "onnx.det"(In(0));
    "" Einsum since 12 => "onnx.einsum"(Rest(0)) { equation: Attr("equation") };
}
