//! Sequences and optionals as the prelude's `List` and `Optional` (the checker's types for
//! them): `SequenceEmpty` is `Nil()`, `SequenceConstruct` a chain of `Cons`,
//! `SequenceLength` the prelude's `@length`, `SequenceInsert` without a position the
//! prelude's `@concat` with the new element; a position (negative from the end) is taken
//! by a global function printed after `@main` (`@onnx_sequence_at`, `_insert`, `_erase`,
//! over the prelude's `@nth`, `@hd`, `@tl`). `ConcatFromSequence`, `SplitToSequence` and
//! `SequenceMap` are recursive local functions over the list (or the split axis).
//! `Optional` is `Some(x)` or `None()`, `OptionalGetElement` a `match?` on `Some`,
//! `OptionalHasElement` a `match`.
//!
//! A sequence's element type is the checker's: its elements' types joined, `?` where they
//! differ; an element of another type than the list's is first bound to a `let` of the
//! list's (elements of different ranks have no such type: an error naming the node).

use super::record::{GraphRecord, IntAttrs, NodeRecord};
use super::{node_base, node_error, results_text, PResult, Printer};
use relay_core::{DType, Ty, TyData};

/// A global function an imported module uses, printed after `@main`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Helper {
    /// `SequenceAt`.
    At,
    /// `SequenceInsert` at a position.
    Insert,
    /// `SequenceErase`.
    Erase,
}

impl Helper {
    /// Its definition.
    pub(super) fn text(self) -> &'static str {
        match self {
            Helper::At => {
                "def @onnx_sequence_at[A](%xs: List[A], %i: int32) -> A {
  if (%i < 0) {
    @nth(%xs, %i + @length(%xs))
  } else {
    @nth(%xs, %i)
  }
}
"
            }
            Helper::Insert => {
                "def @onnx_sequence_insert[A](%xs: List[A], %i: int32, %x: A) -> List[A] {
  if (%i < 0) {
    @onnx_sequence_insert(%xs, %i + @length(%xs), %x)
  } else {
    if (%i == 0) {
      Cons(%x, %xs)
    } else {
      Cons(@hd(%xs), @onnx_sequence_insert(@tl(%xs), %i - 1, %x))
    }
  }
}
"
            }
            Helper::Erase => {
                "def @onnx_sequence_erase[A](%xs: List[A], %i: int32) -> List[A] {
  if (%i < 0) {
    @onnx_sequence_erase(%xs, %i + @length(%xs))
  } else {
    if (%i == 0) {
      @tl(%xs)
    } else {
      Cons(@hd(%xs), @onnx_sequence_erase(@tl(%xs), %i - 1))
    }
  }
}
"
            }
        }
    }
}

impl Printer<'_> {
    /// Prints a sequence or optional operator (see the module's doc).
    pub(super) fn sequence_node(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        attrs: &IntAttrs,
        body: Option<&GraphRecord>,
    ) -> PResult<()> {
        if n.outputs.iter().all(Option::is_none) {
            return Ok(());
        }
        let op = n.node.op_type.clone();
        if op == "SequenceMap" {
            return self.sequence_map(g, n, body);
        }
        let Some(out) = n.outputs[0] else {
            return Err(node_error(&n.node, "its first output has no name".into()));
        };
        let out_ty = g.tys[out];
        let e = match op.as_str() {
            "SequenceEmpty" => {
                // Its element has no shape until one is inserted: the text leaves the
                // type to the list's uses when the checker did not know it.
                let onnx = super::text(&g.names[out]).into_owned();
                let name = self.local(&onnx, &op);
                match self.ty(out_ty) {
                    Ok(t) if !self.bare => self.line(&format!("let %{name}: {t} = Nil();")),
                    _ => self.line(&format!("let %{name} = Nil();")),
                }
                self.bind(g, out, name);
                return Ok(());
            }
            "SequenceConstruct" => {
                let elem = self.elem_of(n, "List", out_ty)?;
                let mut items = Vec::with_capacity(n.inputs.len());
                for i in 0..n.inputs.len() {
                    items.push(self.input_as(g, n, i, elem)?);
                }
                let mut e = "Nil()".to_string();
                for x in items.iter().rev() {
                    e = format!("Cons({x}, {e})");
                }
                e
            }
            "SequenceInsert" => {
                let elem = self.elem_of(n, "List", out_ty)?;
                let seq = self.input_as(g, n, 0, out_ty)?;
                let x = self.input_as(g, n, 1, elem)?;
                match n.inputs.get(2).copied().flatten() {
                    None => format!("@concat({seq}, Cons({x}, Nil()))"),
                    Some(_) => {
                        let at = self.position(g, n, 2)?;
                        self.helpers.insert(Helper::Insert);
                        format!("@onnx_sequence_insert({seq}, {at}, {x})")
                    }
                }
            }
            "SequenceAt" => {
                let seq = self.input(g, n, 0)?;
                let at = self.position(g, n, 1)?;
                self.helpers.insert(Helper::At);
                format!("@onnx_sequence_at({seq}, {at})")
            }
            "SequenceErase" => {
                let seq = self.input(g, n, 0)?;
                let at = match n.inputs.get(1).copied().flatten() {
                    Some(_) => self.position(g, n, 1)?,
                    None => "-1".into(),
                };
                self.helpers.insert(Helper::Erase);
                format!("@onnx_sequence_erase({seq}, {at})")
            }
            "SequenceLength" => {
                let seq = self.input(g, n, 0)?;
                format!("cast(@length({seq}), dtype=\"int64\")")
            }
            "ConcatFromSequence" => self.concat_from_sequence(g, n, attrs, out_ty)?,
            "SplitToSequence" => self.split_to_sequence(g, n, attrs, out_ty)?,
            "Optional" => match n.inputs.first().copied().flatten() {
                Some(_) => {
                    let elem = self.elem_of(n, "Optional", out_ty)?;
                    let x = self.input_as(g, n, 0, elem)?;
                    format!("Some({x})")
                }
                None => "None()".into(),
            },
            "OptionalGetElement" => {
                let (x, t) = self.typed_input(g, n, 0)?;
                if self.is_adt(t, "Optional") {
                    let v = self.local(&format!("{}_value", &x[1..]), "value");
                    format!("match? ({x}) {{ Some(%{v}) => %{v} }}")
                } else {
                    // Opset 18 takes a tensor or a sequence too, and gives it.
                    x
                }
            }
            "OptionalHasElement" => match n.inputs.first().copied().flatten() {
                None => "False".into(),
                Some(id) if self.is_adt(g.tys[id], "Optional") => {
                    let x = self.input(g, n, 0)?;
                    format!("match ({x}) {{ Some(_) => True, None => False }}")
                }
                Some(_) => "True".into(),
            },
            _ => {
                return Err(node_error(
                    &n.node,
                    format!("`{op}` is not a sequence operator the importer prints"),
                ))
            }
        };
        self.outputs_of(g, n, &[e])
    }

    /// `ConcatFromSequence`: a recursive function over the list, joining each element to
    /// the first along `axis` (after a new axis there, with `new_axis`).
    fn concat_from_sequence(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        attrs: &IntAttrs,
        out_ty: Ty,
    ) -> PResult<String> {
        let (seq, seq_ty) = self.typed_input(g, n, 0)?;
        let elem = self.elem_of(n, "List", seq_ty)?;
        let rank = self
            .tensor_parts(elem)
            .map(|(d, _)| d.len())
            .ok_or_else(|| node_error(&n.node, "its elements are not of known rank".into()))?;
        let new_axis = attrs.int("new_axis", 0) != 0;
        let axis = attrs.int("axis", 0);
        let a = crate::value::norm_index(axis, rank + usize::from(new_axis))
            .ok_or_else(|| node_error(&n.node, format!("`axis` {axis} is out of range")))?;
        let acc_ty = self.ty_at(n, out_ty)?;
        let list_ty = self.ty_at(n, seq_ty)?;
        let base = node_base(&n.node);
        let f = self.local(&format!("{base}_concat"), "concat");
        let (xs, acc, x, rest) = (
            self.local(&format!("{base}_xs"), "xs"),
            self.local(&format!("{base}_acc"), "acc"),
            self.local(&format!("{base}_x"), "x"),
            self.local(&format!("{base}_rest"), "rest"),
        );
        let piece = |x: &str| match new_axis {
            true => format!("expand_dims(%{x}, axis={a})"),
            false => format!("%{x}"),
        };
        self.line(&format!(
            "let %{f} = fn (%{xs}: {list_ty}, %{acc}: {acc_ty}) -> {acc_ty} {{"
        ));
        self.indent += 1;
        self.line(&format!("match (%{xs}) {{"));
        self.indent += 1;
        self.line(&format!(
            "Cons(%{x}, %{rest}) => %{f}(%{rest}, concatenate((%{acc}, {}), axis={a})),",
            piece(&x)
        ));
        self.line(&format!("Nil => %{acc},"));
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("};");
        let (h, t) = (
            self.local(&format!("{base}_first"), "first"),
            self.local(&format!("{base}_others"), "others"),
        );
        Ok(format!(
            "match? ({seq}) {{ Cons(%{h}, %{t}) => %{f}(%{t}, {}) }}",
            piece(&h)
        ))
    }

    /// `SplitToSequence`: a recursive function over the split axis, each piece a `take`
    /// of the indices of its range (of one index, the axis kept or not, without `split`).
    fn split_to_sequence(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        attrs: &IntAttrs,
        out_ty: Ty,
    ) -> PResult<String> {
        let (x, x_ty) = self.typed_input(g, n, 0)?;
        let rank = self
            .tensor_parts(x_ty)
            .map(|(d, _)| d.len())
            .ok_or_else(|| node_error(&n.node, "its input is not of known rank".into()))?;
        let axis = attrs.int("axis", 0);
        let a = crate::value::norm_index(axis, rank)
            .ok_or_else(|| node_error(&n.node, format!("`axis` {axis} is out of range")))?;
        let list_ty = self.ty_at(n, out_ty)?;
        let base = node_base(&n.node);
        let len = self.local(&format!("{base}_length"), "length");
        self.line(&format!(
            "let %{len}: int64 = take(shape_of({x}, dtype=\"int64\"), {a}i64);"
        ));
        let f = self.local(&format!("{base}_pieces"), "pieces");
        let i = self.local(&format!("{base}_i"), "i");
        let split_id = n.inputs.get(1).copied().flatten();
        let split_rank = split_id.map(|id| self.tensor_parts(g.tys[id]).map(|(d, _)| d.len()));
        let range = |from: &str, to: &str| {
            format!("take({x}, arange({from}, {to}, 1i64, dtype=\"int64\"), axis={a})")
        };
        match split_rank {
            // No `split`: pieces of one index.
            None => {
                let piece = match attrs.int("keepdims", 1) {
                    0 => format!("take({x}, %{i}, axis={a})"),
                    _ => format!("expand_dims(take({x}, %{i}, axis={a}), axis={a})"),
                };
                self.line(&format!("let %{f} = fn (%{i}: int64) -> {list_ty} {{"));
                self.indent += 1;
                self.line(&format!("if (less(%{i}, %{len})) {{"));
                self.indent += 1;
                self.line(&format!("Cons({piece}, %{f}(add(%{i}, 1i64)))"));
            }
            // One length: pieces of it from each multiple, the last one what is left.
            Some(Some(0)) => {
                let split = self.input(g, n, 1)?;
                let t = g.tys[split_id.expect("its rank was read")];
                let split = self.scalar_expr(n, "`split`", &split, t, DType::INT64)?;
                let end = format!("minimum(add(%{i}, {split}), %{len})");
                self.line(&format!("let %{f} = fn (%{i}: int64) -> {list_ty} {{"));
                self.indent += 1;
                self.line(&format!("if (less(%{i}, %{len})) {{"));
                self.indent += 1;
                self.line(&format!(
                    "Cons({}, %{f}(add(%{i}, {split})))",
                    range(&format!("%{i}"), &end)
                ));
            }
            // The lengths of the pieces: the `k`th from the sum of those before it.
            Some(Some(1)) => {
                let split = self.input(g, n, 1)?;
                let count = self.local(&format!("{base}_count"), "count");
                self.line(&format!(
                    "let %{count}: int64 = take(shape_of({split}, dtype=\"int64\"), 0i64);"
                ));
                let (k, l) = (
                    self.local(&format!("{base}_k"), "k"),
                    self.local(&format!("{base}_l"), "l"),
                );
                self.line(&format!(
                    "let %{f} = fn (%{k}: int64, %{i}: int64) -> {list_ty} {{"
                ));
                self.indent += 1;
                self.line(&format!("if (less(%{k}, %{count})) {{"));
                self.indent += 1;
                self.line(&format!(
                    "let %{l}: int64 = cast(take({split}, %{k}), dtype=\"int64\");"
                ));
                self.line(&format!(
                    "Cons({}, %{f}(add(%{k}, 1i64), add(%{i}, %{l})))",
                    range(&format!("%{i}"), &format!("add(%{i}, %{l})"))
                ));
            }
            Some(_) => {
                return Err(node_error(
                    &n.node,
                    "`split` is not a scalar or a list of lengths".into(),
                ))
            }
        }
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        self.line("Nil()");
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("};");
        Ok(match split_rank {
            Some(Some(1)) => format!("%{f}(0i64, 0i64)"),
            _ => format!("%{f}(0i64)"),
        })
    }

    /// `SequenceMap`: a recursive function over the sequence inputs together, the body's
    /// nodes on the heads (the other inputs as they are), its outputs put before those of
    /// the tails.
    fn sequence_map(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        body: Option<&GraphRecord>,
    ) -> PResult<()> {
        let body = body.ok_or_else(|| node_error(&n.node, "its `body` was not typed".into()))?;
        if body.inputs.len() != n.inputs.len() || body.outputs.len() < n.outputs.len() {
            return Err(node_error(
                &n.node,
                format!(
                    "its `body` has {} inputs and {} outputs, for {} inputs and {} outputs",
                    body.inputs.len(),
                    body.outputs.len(),
                    n.inputs.len(),
                    n.outputs.len()
                ),
            ));
        }
        let base = node_base(&n.node);
        let f = self.local(&format!("{base}_map"), "map");
        // The sequences: each input of a list type, with its parameter, head and tail.
        let mut seqs = Vec::new();
        let mut args = Vec::new();
        for i in 0..n.inputs.len() {
            let id =
                n.inputs[i].ok_or_else(|| node_error(&n.node, format!("input {i} is absent")))?;
            if i == 0 || self.is_adt(g.tys[id], "List") {
                let x = self.input(g, n, i)?;
                let ty = self.ty_at(n, g.tys[id])?;
                let p = self.local(&format!("{base}_xs{i}"), "xs");
                let h = self.param_name(body, body.inputs[i]);
                let t = self.local(&format!("{base}_rest{i}"), "rest");
                seqs.push((i, p, ty, h, t));
                args.push(x);
            }
        }
        let outs = body.outputs.len();
        let mut out_tys = Vec::with_capacity(outs);
        for j in 0..outs {
            let t = self.ty_at(n, body.tys[body.outputs[j]])?;
            out_tys.push(format!("List[{t}]"));
        }
        let result_ty = results_text(&out_tys);
        let nil = results_text(&vec!["Nil()".to_string(); outs]);
        let params: Vec<String> = seqs
            .iter()
            .map(|(_, p, ty, ..)| format!("%{p}: {ty}"))
            .collect();
        self.line(&format!(
            "let %{f} = fn ({}) -> {result_ty} {{",
            params.join(", ")
        ));
        self.indent += 1;
        let (scrutinee, pattern) = match seqs.len() {
            1 => (
                format!("%{}", seqs[0].1),
                format!("Cons(%{}, %{})", seqs[0].3, seqs[0].4),
            ),
            _ => (
                format!(
                    "({})",
                    seqs.iter()
                        .map(|s| format!("%{}", s.1))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                format!(
                    "({})",
                    seqs.iter()
                        .map(|s| format!("Cons(%{}, %{})", s.3, s.4))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
        };
        self.line(&format!("match ({scrutinee}) {{"));
        self.indent += 1;
        self.line(&format!("{pattern} => {{"));
        self.indent += 1;
        self.enter(body);
        for (i, _, _, h, _) in &seqs {
            self.scope().names[body.inputs[*i]] = Some(h.clone());
        }
        let r = (|| {
            // The other inputs: the values of the graph around, by their names.
            for i in 0..n.inputs.len() {
                if seqs.iter().any(|s| s.0 == i) {
                    continue;
                }
                let outer = self.scopes.len() - 2;
                let id = n.inputs[i].expect("checked above");
                let name = {
                    let scopes = &self.scopes[..=outer];
                    let s = scopes.last().expect("the graph around");
                    s.names[id].clone().or_else(|| {
                        scopes.iter().rev().find_map(|s| {
                            s.by_name
                                .get(&g.names[id])
                                .and_then(|&k| s.names[k].clone())
                        })
                    })
                };
                let name =
                    name.ok_or_else(|| node_error(&n.node, format!("input {i} names no value")))?;
                self.scope().names[body.inputs[i]] = Some(name);
            }
            self.nodes(body)?;
            let mut ys = Vec::with_capacity(outs);
            for j in 0..outs {
                ys.push(self.result_name(body, body.outputs[j], n)?);
            }
            Ok(ys)
        })();
        self.scopes.pop();
        let ys = r?;
        let tails: Vec<String> = seqs.iter().map(|s| format!("%{}", s.4)).collect();
        let next = format!("%{f}({})", tails.join(", "));
        match outs {
            1 => self.line(&format!("Cons({}, {next})", ys[0])),
            _ => {
                let rest = self.tuple_local(&format!("{base}_rest"));
                self.line(&format!("let %{rest} = {next};"));
                let conses: Vec<String> = ys
                    .iter()
                    .enumerate()
                    .map(|(j, y)| format!("Cons({y}, %{rest}.{j})"))
                    .collect();
                self.line(&format!("({})", conses.join(", ")));
            }
        }
        self.indent -= 1;
        self.line("},");
        self.line(&format!("_ => {nil},"));
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("};");
        let call = format!("%{f}({})", args.join(", "));
        match outs {
            1 => self.outputs_of(g, n, &[call]),
            _ => {
                let tuple = self.tuple_local(&base);
                self.line(&format!("let %{tuple}: {result_ty} = {call};"));
                let exprs: Vec<String> = (0..outs).map(|j| format!("%{tuple}.{j}")).collect();
                self.outputs_of(g, n, &exprs)
            }
        }
    }

    /// The element type of `t` if it is `adt[elem]`, else an error naming node `n`.
    fn elem_of(&mut self, n: &NodeRecord, adt: &str, t: Ty) -> PResult<Ty> {
        let t = self.solver.resolve(t);
        match self.solver.tcx.data(t) {
            TyData::Call(a, args) if self.solver.tcx.adt_info(*a).name.as_ref() == adt => {
                Ok(args[0])
            }
            _ => {
                let shown = self.solver.tcx.show(t);
                Err(node_error(&n.node, format!("`{shown}` is not a `{adt}`")))
            }
        }
    }

    /// Whether `t` is `adt[..]`.
    fn is_adt(&mut self, t: Ty, adt: &str) -> bool {
        let t = self.solver.resolve(t);
        matches!(self.solver.tcx.data(t), TyData::Call(a, _) if self.solver.tcx.adt_info(*a).name.as_ref() == adt)
    }

    /// Node `n`'s input `i` as a value of type `want`: its name, or a `let` of it
    /// annotated `want` when its type is another (an element of a sequence whose elements
    /// differ: `?` where they do).
    fn input_as(&mut self, g: &GraphRecord, n: &NodeRecord, i: usize, want: Ty) -> PResult<String> {
        let (x, have) = self.typed_input(g, n, i)?;
        let (want, have) = (self.solver.resolve(want), self.solver.resolve(have));
        if want == have {
            return Ok(x);
        }
        if !self.fits(want, have, true) {
            let (w, h) = (self.solver.tcx.show(want), self.solver.tcx.show(have));
            let (w, h) = (self.rewrite(&w), self.rewrite(&h));
            let message = match self.ty(want) {
                // Elements of different ranks: a tensor of no known shape.
                Err(_) => format!("the sequence's elements are of different ranks (input {i} is `{h}`), and a `List` holds elements of one type"),
                Ok(_) => format!("input {i} is `{h}`, and the sequence's elements `{w}`: a `List` holds elements of one type"),
            };
            return Err(node_error(&n.node, message));
        }
        let ty = self.ty_at(n, want)?;
        let name = self.local(&format!("{}_joined", &x[1..]), "joined");
        self.line(&format!("let %{name}: {ty} = {x};"));
        Ok(format!("%{name}"))
    }

    /// Node `n`'s input `i`, a position, as an `int32` scalar.
    fn position(&mut self, g: &GraphRecord, n: &NodeRecord, i: usize) -> PResult<String> {
        let (x, t) = self.typed_input(g, n, i)?;
        let scalar = self
            .tensor_parts(t)
            .is_some_and(|(dims, _)| dims.is_empty());
        Ok(match scalar {
            true => format!("cast({x}, dtype=\"int32\")"),
            false => format!("cast(reshape({x}, newshape=[]), dtype=\"int32\")"),
        })
    }
}
