//! `Reshape`, `ReverseReshape` and `ReshapeLike`: imperative, because `newshape`'s special
//! values are a small program over a cursor into the input shape (see `reshape_dims`).

use super::util::{any_vars, arith, cancel, const_product, exact_quotient, show_ints, shown};
use relay_core::dim::Dims;
use relay_core::{relation, AttrValue, DTy, Dim, Progress, RelCx, RelError, RelResult};

/// One entry of `newshape`, decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    /// `k > 0` (or `0` with `allowzero`): the literal dimension.
    Lit(i64),
    /// `0`: copy the input dimension under the cursor.
    Copy,
    /// `-1`: inferred from the element count.
    Infer,
    /// `-2`: copy every remaining input dimension.
    Rest,
    /// `-3`: the product of the next two input dimensions.
    Merge,
    /// `-4 a b`: split the input dimension under the cursor into `a` and `b` (one may be
    /// `-1`).
    Split(i64, i64),
}

/// Decodes `newshape`.
pub(crate) fn parse(newshape: &[i64], allowzero: bool) -> Result<Vec<Item>, String> {
    let mut items = Vec::with_capacity(newshape.len());
    let mut i = 0;
    while i < newshape.len() {
        let v = newshape[i];
        items.push(match v {
            0 if allowzero => Item::Lit(0),
            0 => Item::Copy,
            k if k > 0 => Item::Lit(k),
            -1 => Item::Infer,
            -2 => Item::Rest,
            -3 => Item::Merge,
            -4 => {
                let (Some(&a), Some(&b)) = (newshape.get(i + 1), newshape.get(i + 2)) else {
                    return Err("`-4` needs two values after it".into());
                };
                for x in [a, b] {
                    if x < -1 || x == 0 {
                        return Err(format!(
                            "`-4` splits into positive values or one `-1`, found {x}"
                        ));
                    }
                }
                if a == -1 && b == -1 {
                    return Err("`-4` splits into at most one `-1`, found two".into());
                }
                i += 2;
                Item::Split(a, b)
            }
            k => return Err(format!("{k} is not a valid value")),
        });
        i += 1;
    }
    if items.iter().filter(|&&it| it == Item::Infer).count() > 1 {
        return Err("only one `-1` can be inferred".into());
    }
    Ok(items)
}

/// Why [`reshape_dims`] stopped.
pub(crate) enum Why {
    /// An unknown dimension must be solved first.
    Wait,
    /// The pattern does not apply to the input: the reason.
    Bad(String),
}

/// TVM's reshape walk: `items` applied to `input` with a cursor. The `-1` is the
/// product of the input dimensions not consumed by `0`/`-2`/`-3`/`-4` divided by the
/// product of the output dimensions not produced by them, exactly in normal form (`?`
/// among them makes it `?`).
pub(crate) fn reshape_dims(
    cx: &mut RelCx<'_>,
    input: &[Dim],
    items: &[Item],
) -> Result<Vec<Dim>, Why> {
    let rank = input.len();
    let mut out: Vec<Dim> = Vec::with_capacity(items.len());
    let mut copied_out: Vec<bool> = Vec::with_capacity(items.len());
    let mut used_in = vec![false; rank];
    let mut infer_at = None;
    let mut src = 0usize;
    let need = |src: usize, n: usize, what: &str| {
        if src + n > rank {
            Err(Why::Bad(format!(
                "{what} has no input dimension left to use (the input has rank {rank})"
            )))
        } else {
            Ok(())
        }
    };
    for &item in items {
        match item {
            Item::Lit(k) => {
                out.push(cx.tcx().dims.konst(k));
                copied_out.push(false);
                src += 1;
            }
            Item::Copy => {
                need(src, 1, "`0`")?;
                out.push(input[src]);
                copied_out.push(true);
                used_in[src] = true;
                src += 1;
            }
            Item::Infer => {
                infer_at = Some(out.len());
                out.push(Dims::ANY);
                copied_out.push(false);
                src += 1;
            }
            Item::Rest => {
                for (j, &d) in input.iter().enumerate().skip(src) {
                    out.push(d);
                    copied_out.push(true);
                    used_in[j] = true;
                }
                src = src.max(rank);
            }
            Item::Merge => {
                need(src, 2, "`-3`")?;
                let d = cx
                    .tcx()
                    .dims
                    .mul(input[src], input[src + 1])
                    .map_err(|e| Why::Bad(e.to_string()))?;
                out.push(d);
                copied_out.push(true);
                used_in[src] = true;
                used_in[src + 1] = true;
                src += 2;
            }
            Item::Split(a, b) => {
                need(src, 1, "`-4`")?;
                let d = input[src];
                let (da, db) = if a == -1 || b == -1 {
                    let k = if a == -1 { b } else { a };
                    let kd = cx.tcx().dims.konst(k);
                    let q = if d == Dims::ANY {
                        Dims::ANY
                    } else {
                        match exact_quotient(&mut cx.tcx().dims, &[d], &[kd]) {
                            Some(q) => q,
                            None if cx.tcx_ref().dims.has_vars(d) => return Err(Why::Wait),
                            None => {
                                return Err(Why::Bad(format!(
                                    "`-4` cannot split dimension {} into {a} and {b}: it is not divisible by {k}",
                                    cx.show_dim(d)
                                )))
                            }
                        }
                    };
                    if a == -1 {
                        (q, kd)
                    } else {
                        (kd, q)
                    }
                } else {
                    let (da, db) = (cx.tcx().dims.konst(a), cx.tcx().dims.konst(b));
                    if let Some(c) = cx.tcx_ref().dims.as_const(d) {
                        if c != a * b {
                            return Err(Why::Bad(format!(
                                "`-4` cannot split dimension {c} into {a} and {b}"
                            )));
                        }
                    }
                    (da, db)
                };
                out.extend([da, db]);
                copied_out.extend([true, true]);
                used_in[src] = true;
                src += 1;
            }
        }
    }
    if let Some(at) = infer_at {
        let num: Vec<Dim> = (0..rank)
            .filter(|&j| !used_in[j])
            .map(|j| input[j])
            .collect();
        let den: Vec<Dim> = (0..out.len())
            .filter(|&j| j != at && !copied_out[j])
            .map(|j| out[j])
            .collect();
        out[at] = if num.contains(&Dims::ANY) {
            Dims::ANY
        } else if den
            .iter()
            .any(|&d| cx.tcx_ref().dims.as_const(d) == Some(0))
        {
            return Err(Why::Bad(
                "the `-1` cannot be inferred next to a dimension 0".into(),
            ));
        } else {
            match exact_quotient(&mut cx.tcx().dims, &num, &den) {
                Some(q) => q,
                None if any_vars(&cx.tcx_ref().dims, &num)
                    || any_vars(&cx.tcx_ref().dims, &den) =>
                {
                    return Err(Why::Wait)
                }
                None => {
                    let n = cx
                        .tcx()
                        .dims
                        .product(&num)
                        .map_err(|e| Why::Bad(e.to_string()))?;
                    let d = cx
                        .tcx()
                        .dims
                        .product(&den)
                        .map_err(|e| Why::Bad(e.to_string()))?;
                    return Err(Why::Bad(format!(
                        "the `-1` cannot be inferred: {} elements are not divisible by {}",
                        cx.show_dim(n),
                        cx.show_dim(d)
                    )));
                }
            }
        };
    }
    Ok(out)
}

/// `newshape` reversed as a sequence of entries (`-4 a b` stays a group, as `-4 b a`).
pub(crate) fn reversed(items: &[Item]) -> Vec<Item> {
    items
        .iter()
        .rev()
        .map(|&it| match it {
            Item::Split(a, b) => Item::Split(b, a),
            other => other,
        })
        .collect()
}

/// Checks that `input` and `out` have the same number of elements (unless `?` is among
/// them): equal normal forms, or an equation for the solver when unknowns remain.
pub(crate) fn check_size(
    cx: &mut RelCx<'_>,
    input: &[Dim],
    out: &[Dim],
    dtype: DTy,
    blame: usize,
) -> Result<(), RelError> {
    if input.contains(&Dims::ANY) || out.contains(&Dims::ANY) {
        return Ok(());
    }
    // Common factors cancel; constants alone compare as integers.
    let (ri, ro) = cancel(input, out);
    let dims = &cx.tcx_ref().dims;
    if let (Some(a), Some(b)) = (const_product(dims, &ri), const_product(dims, &ro)) {
        if a == b {
            return Ok(());
        }
    }
    let pi = cx.tcx().dims.product(input).map_err(arith(blame))?;
    let po = cx.tcx().dims.product(out).map_err(arith(blame))?;
    if pi == po {
        return Ok(());
    }
    let dims = &cx.tcx_ref().dims;
    if dims.has_vars(pi) || dims.has_vars(po) {
        return cx.unify_dim(pi, po, blame);
    }
    let from = shown(cx, 0);
    let to = cx.mk_tensor(out, dtype);
    let to = cx.show(to);
    let (si, so) = (cx.show_dim(pi), cx.show_dim(po));
    Err(RelError::at(
        blame,
        format!("cannot reshape `{from}` ({si} elements) to `{to}` ({so} elements)"),
    ))
}

fn reshape_common(cx: &mut RelCx<'_>, reverse: bool) -> RelResult {
    let newshape = cx
        .attrs()
        .ints("newshape")?
        .ok_or_else(|| RelError::new("the attribute `newshape` is missing"))?;
    let allowzero = match cx.attrs().get("allowzero") {
        Some(AttrValue::Bool(b)) => *b,
        Some(AttrValue::Int(i)) => *i != 0,
        _ => false,
    };
    let Some((input, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let bad = |cx: &mut RelCx<'_>, m: String| {
        let what = show_ints(&newshape);
        let from = shown(cx, 0);
        RelError::at(
            1,
            format!("cannot reshape `{from}` with newshape {what}: {m}"),
        )
    };
    let mut items = match parse(&newshape, allowzero) {
        Ok(items) => items,
        Err(m) => return Err(bad(cx, m)),
    };
    let mut src = input.clone();
    if reverse {
        items = reversed(&items);
        src.reverse();
    }
    let result = reshape_dims(cx, &src, &items);
    let mut out = match result {
        Ok(out) => out,
        Err(Why::Wait) => return Ok(Progress::NotYet),
        Err(Why::Bad(m)) => return Err(bad(cx, m)),
    };
    if reverse {
        out.reverse();
    }
    check_size(cx, &input, &out, dt, 1)?;
    cx.unify_tensor(1, &out, dt)?;
    Ok(Progress::Solved)
}

/// TVM's `reshape`: the shape after `newshape` with its special values (`0`, `-1`, `-2`,
/// `-3`, `-4`); the element counts must agree.
#[relation(Reshape)]
pub fn reshape(cx: &mut RelCx<'_>) -> RelResult {
    reshape_common(cx, false)
}

/// TVM's `contrib_reverse_reshape`: `Reshape` on the reversed input shape and the
/// reversed `newshape` (a `-4 a b` group stays a group), then reversed back.
#[relation(ReverseReshape)]
pub fn reverse_reshape(cx: &mut RelCx<'_>) -> RelResult {
    reshape_common(cx, true)
}

/// TVM's `reshape_like`: `data[:lhs_begin] ++ shape_like[rhs_begin:rhs_end] ++
/// data[lhs_end:]`, with the element counts agreeing.
#[relation(ReshapeLike)]
pub fn reshape_like(cx: &mut RelCx<'_>) -> RelResult {
    let Some((data, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let Some((like, _)) = cx.tensor_dims(1)? else {
        return Ok(Progress::NotYet);
    };
    let range = |cx: &mut RelCx<'_>, arg: usize, b: &str, e: &str, rank: usize| {
        let r = rank as i64;
        let begin = cx.attrs().int(b)?.unwrap_or(0);
        let end = cx.attrs().int(e)?.unwrap_or(r);
        let nb = if begin < 0 { begin + r } else { begin };
        let ne = if end < 0 { end + r } else { end };
        if nb < 0 || ne > r || nb > ne {
            return Err(cx.error_showing(arg, |t| {
                format!("`{b}` {begin} and `{e}` {end} are not a range of the dimensions of `{t}`")
            }));
        }
        Ok((nb as usize, ne as usize))
    };
    let (lb, le) = range(cx, 0, "lhs_begin", "lhs_end", data.len())?;
    let (rb, re) = range(cx, 1, "rhs_begin", "rhs_end", like.len())?;
    let mut out: Vec<Dim> = data[..lb].to_vec();
    out.extend_from_slice(&like[rb..re]);
    out.extend_from_slice(&data[le..]);
    check_size(cx, &data, &out, dt, 2)?;
    cx.unify_tensor(2, &out, dt)?;
    Ok(Progress::Solved)
}
