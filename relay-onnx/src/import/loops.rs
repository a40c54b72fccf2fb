//! `Loop` and `Scan` as Relay's recursive local functions.
//!
//! A `Loop` is a function of the iteration number, the condition, the loop-carried values
//! and an accumulator per scan output, whose body is an `if`: while the iteration number
//! is under `M` and the condition holds, the body's nodes, then the function called again
//! with the next iteration number, the body's condition and carried values, and each
//! accumulator with the body's scan output appended along a new first axis; else the
//! carried values and the accumulators. A `Scan` is the same function over the scan
//! length: the body's scan inputs are the slices (`take`) of the scan inputs at the
//! iteration (from the end for a reversed direction), its scan outputs appended (or
//! prepended) along their axes.
//!
//! The checker types a body once, over the carried values' initial types. Where a carried
//! value's type changes (its parameter has a `?`), the types of the body's `let`s are
//! those of the first iteration only: they are printed unannotated, typed by the
//! relations from the parameters (as `Bindings::Bare` prints them).
//!
//! The function's parameters are annotated, as a recursive function's must be: a carried
//! value with the type of its initial value joined with the body's (`?` where they differ),
//! an accumulator with the type of the body's scan output and `?` for the axis it grows
//! along. It starts empty: a `onnx.constant_of_shape` of the value annotated with that
//! type, `0` for that axis. The `let` of the node's outputs is annotated with the types the
//! checker gave them, where the number of iterations is a constant or a symbol: a type
//! with `?` accepts it, and the annotation (trusted, as an `onnx.value`'s) says it.

use super::record::{GraphRecord, IntAttrs, NodeRecord};
use super::{node_base, node_error, results_text, PResult, Printer};
use relay_core::{DTy, DType, Dim, Dims, Ty, TyData};

/// The expressions of a loop's results: each carried value, then each accumulator.
struct Step {
    /// The parameters after the iteration number (and the condition): `%name: type`.
    params: Vec<String>,
    /// The parameters' names, as the expression of the results when the loop ends.
    names: Vec<String>,
    /// The result's type (a tuple of the parameters' types, or the one).
    result_ty: String,
}

impl Printer<'_> {
    /// Prints a `Loop` (see the module's doc).
    pub(super) fn loop_node(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        body: Option<&GraphRecord>,
    ) -> PResult<()> {
        let body = body.ok_or_else(|| node_error(&n.node, "its `body` was not typed".into()))?;
        let carried = n.inputs.len().saturating_sub(2);
        if body.inputs.len() != 2 + carried || body.outputs.len() < 1 + carried {
            return Err(node_error(
                &n.node,
                format!(
                    "its `body` has {} inputs and {} outputs, for {carried} loop-carried values",
                    body.inputs.len(),
                    body.outputs.len()
                ),
            ));
        }
        let scans = body.outputs.len() - 1 - carried;
        let base = node_base(&n.node);
        // The number of iterations and the condition, as scalars.
        let given = |i: usize| n.inputs.get(i).copied().flatten().is_some();
        let m = match given(0) {
            true => Some(self.scalar_of(g, n, 0, DType::INT64)?),
            false => None,
        };
        let cond = match given(1) {
            true => Some(self.scalar_of(g, n, 1, DType::BOOL)?),
            false => None,
        };
        let (mut inits, states) = self.carried(g, n, body, 2, 1, carried, "loop-carried value")?;
        let mut accs = Vec::with_capacity(scans);
        for j in 0..scans {
            let each = body.tys[body.outputs[1 + carried + j]];
            let (acc, empty) = self.accumulator(n, &format!("scan output {j}"), each, 0)?;
            let name = self.onnx_name(body, body.outputs[1 + carried + j]);
            inits.push(self.empty(n, &format!("{name}_empty"), empty)?);
            accs.push(acc);
        }
        let f = self.local(&format!("{base}_body"), "loop");
        let i = self.param_name(body, body.inputs[0]);
        let c = self.param_name(body, body.inputs[1]);
        let (i_ty, c_ty) = (
            self.ty_at(n, body.tys[body.inputs[0]])?,
            self.ty_at(n, body.tys[body.inputs[1]])?,
        );
        let mut names: Vec<String> = Vec::with_capacity(carried + scans);
        for j in 0..carried {
            names.push(self.param_name(body, body.inputs[2 + j]));
        }
        for j in 0..scans {
            let out = self.onnx_name(body, body.outputs[1 + carried + j]);
            names.push(self.local(&format!("{out}_acc"), "acc"));
        }
        let step = self.step(n, names, states.iter().chain(&accs).copied())?;
        let keep = match (&m, &cond) {
            (Some(m), Some(_)) => format!("logical_and(less(%{i}, {m}), %{c})"),
            (Some(m), None) => format!("less(%{i}, {m})"),
            (None, Some(_)) => format!("%{c}"),
            (None, None) => "True".to_string(),
        };
        let first = [format!("%{i}: {i_ty}"), format!("%{c}: {c_ty}")];
        let bare = self.open_step(&f, &first, &step, &keep, body, 2, &states);
        let scope = self.scope();
        scope.names[body.inputs[0]] = Some(i.clone());
        scope.names[body.inputs[1]] = Some(c.clone());
        for j in 0..carried {
            self.scope().names[body.inputs[2 + j]] = Some(step.names[j][1..].to_string());
        }
        let r = self.nodes(body).and_then(|()| {
            let mut args = vec![format!("add(%{i}, 1i64)")];
            let c_out = body.outputs[0];
            let c_name = self.result_name(body, c_out, n)?;
            args.push(self.scalar_expr(
                n,
                "the body's condition",
                &c_name,
                body.tys[c_out],
                DType::BOOL,
            )?);
            for j in 0..carried {
                args.push(self.result_name(body, body.outputs[1 + j], n)?);
            }
            for j in 0..scans {
                let y = self.result_name(body, body.outputs[1 + carried + j], n)?;
                let acc = &step.names[carried + j];
                args.push(format!(
                    "concatenate(({acc}, expand_dims({y}, axis=0)), axis=0)"
                ));
            }
            Ok(args)
        });
        let first = vec!["0i64".to_string(), cond.unwrap_or_else(|| "True".into())];
        self.close_step(g, n, &f, &step, bare, r, first, inits)
    }

    /// The `count` values a `Loop` or `Scan` body carries, from the node's input `first`
    /// and the body's output `first_out` on (the body's inputs from `first` on): their
    /// initial values, and their types, each the initial type joined with the body's
    /// (`what` names one in the error where the two are not of one form).
    #[allow(clippy::too_many_arguments)]
    fn carried(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        body: &GraphRecord,
        first: usize,
        first_out: usize,
        count: usize,
        what: &str,
    ) -> PResult<(Vec<String>, Vec<Ty>)> {
        let mut inits = Vec::with_capacity(count);
        let mut types = Vec::with_capacity(count);
        for j in 0..count {
            inits.push(self.input(g, n, first + j)?);
            let t = self.joined(
                body.tys[body.inputs[first + j]],
                body.tys[body.outputs[first_out + j]],
            );
            types.push(t.ok_or_else(|| {
                node_error(
                    &n.node,
                    format!("{what} {j}: its initial value and the body's are not of one form"),
                )
            })?);
        }
        Ok((inits, types))
    }

    /// Prints a `Scan` of opset 9 on (see the module's doc).
    pub(super) fn scan_node(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        body: Option<&GraphRecord>,
        attrs: &IntAttrs,
        batched: bool,
    ) -> PResult<()> {
        if batched {
            return Err(node_error(
                &n.node,
                "a `Scan` of an opset before 9 (a batch axis first, and `sequence_lens`) is not printed".into(),
            ));
        }
        let body = body.ok_or_else(|| node_error(&n.node, "its `body` was not typed".into()))?;
        let n_in = n.inputs.len();
        let m = usize::try_from(attrs.int("num_scan_inputs", 0))
            .ok()
            .filter(|&m| m >= 1 && m <= n_in)
            .ok_or_else(|| {
                node_error(
                    &n.node,
                    "its `num_scan_inputs` is not that of its inputs".into(),
                )
            })?;
        let states_n = n_in - m;
        if body.inputs.len() != n_in || body.outputs.len() < states_n {
            return Err(node_error(
                &n.node,
                format!(
                    "its `body` has {} inputs and {} outputs, for {n_in} inputs",
                    body.inputs.len(),
                    body.outputs.len()
                ),
            ));
        }
        let scans = body.outputs.len() - states_n;
        // Each list's `j`-th value, 0 where it has none.
        let list = |name: &str| attrs.ints(name).unwrap_or(&[]);
        let at = |l: &[i64], j: usize| l.get(j).copied().unwrap_or(0);
        let (in_axes, in_dirs) = (list("scan_input_axes"), list("scan_input_directions"));
        let (out_axes, out_dirs) = (list("scan_output_axes"), list("scan_output_directions"));
        let base = node_base(&n.node);
        let (mut inits, states) = self.carried(g, n, body, 0, 0, states_n, "state")?;
        // Each scan input, and the axis it is sliced along.
        let mut sliced = Vec::with_capacity(m);
        for j in 0..m {
            let (x, t) = self.typed_input(g, n, states_n + j)?;
            let rank = self.tensor_parts(t).map(|(d, _)| d.len());
            let axis = at(in_axes, j);
            let a = rank
                .and_then(|r| crate::value::norm_index(axis, r))
                .ok_or_else(|| {
                    node_error(
                        &n.node,
                        format!("scan input {j}: its axis {axis} is not one of its dimensions"),
                    )
                })?;
            sliced.push((x, a, at(in_dirs, j) != 0));
        }
        let mut accs = Vec::with_capacity(scans);
        let mut grow = Vec::with_capacity(scans);
        for j in 0..scans {
            let each = body.tys[body.outputs[states_n + j]];
            let rank = self.tensor_parts(each).map_or(0, |(d, _)| d.len());
            let axis = at(out_axes, j);
            let a = crate::value::norm_index(axis, rank + 1).ok_or_else(|| {
                node_error(
                    &n.node,
                    format!("scan output {j}: its axis {axis} is out of range"),
                )
            })?;
            let (acc, empty) = self.accumulator(n, &format!("scan output {j}"), each, a)?;
            let name = self.onnx_name(body, body.outputs[states_n + j]);
            inits.push(self.empty(n, &format!("{name}_empty"), empty)?);
            accs.push(acc);
            grow.push((a, at(out_dirs, j) != 0));
        }
        // The scan length: the first scan input's dimension on its axis.
        let len = self.local(&format!("{base}_length"), "length");
        let (x0, a0, _) = &sliced[0];
        self.line(&format!(
            "let %{len}: int64 = take(shape_of({x0}, dtype=\"int64\"), {a0}i64);"
        ));
        let f = self.local(&format!("{base}_body"), "scan");
        let i = self.local(&format!("{base}_i"), "i");
        let mut names: Vec<String> = Vec::with_capacity(states_n + scans);
        for j in 0..states_n {
            names.push(self.param_name(body, body.inputs[j]));
        }
        for j in 0..scans {
            let out = self.onnx_name(body, body.outputs[states_n + j]);
            names.push(self.local(&format!("{out}_acc"), "acc"));
        }
        let step = self.step(n, names, states.iter().chain(&accs).copied())?;
        let keep = format!("less(%{i}, %{len})");
        let bare = self.open_step(
            &f,
            &[format!("%{i}: int64")],
            &step,
            &keep,
            body,
            0,
            &states,
        );
        for j in 0..states_n {
            self.scope().names[body.inputs[j]] = Some(step.names[j][1..].to_string());
        }
        let r = (|| {
            let mut reversed = None;
            for (j, (x, a, rev)) in sliced.iter().enumerate() {
                let id = body.inputs[states_n + j];
                let at = if *rev {
                    let r = match &reversed {
                        Some(r) => r,
                        None => {
                            let r = self.local(&format!("{base}_i_reversed"), "i_reversed");
                            self.line(&format!(
                                "let %{r}: int64 = subtract(subtract(%{len}, 1i64), %{i});"
                            ));
                            reversed.insert(r)
                        }
                    };
                    format!("%{r}")
                } else {
                    format!("%{i}")
                };
                let name = self.param_name(body, id);
                let ty = self.ty_at(n, body.tys[id])?;
                let e = format!("take({x}, {at}, axis={a})");
                self.let_line(&name, &ty, &e);
                self.scope().names[id] = Some(name);
            }
            self.nodes(body)?;
            let mut args = vec![format!("add(%{i}, 1i64)")];
            for j in 0..states_n {
                args.push(self.result_name(body, body.outputs[j], n)?);
            }
            for (j, &(a, rev)) in grow.iter().enumerate() {
                let y = self.result_name(body, body.outputs[states_n + j], n)?;
                let acc = &step.names[states_n + j];
                let y = format!("expand_dims({y}, axis={a})");
                let pair = if rev {
                    format!("{y}, {acc}")
                } else {
                    format!("{acc}, {y}")
                };
                args.push(format!("concatenate(({pair}), axis={a})"));
            }
            Ok(args)
        })();
        self.close_step(g, n, &f, &step, bare, r, vec!["0i64".to_string()], inits)
    }

    /// Closes what [`Printer::open_step`] opened: the body's scope, the recursive call
    /// of `f` with the step's arguments `r`, then the first call, of `first` and the
    /// initial values `inits`, bound to the node's outputs.
    #[allow(clippy::too_many_arguments)]
    fn close_step(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        f: &str,
        step: &Step,
        bare: bool,
        r: PResult<Vec<String>>,
        first: Vec<String>,
        inits: Vec<String>,
    ) -> PResult<()> {
        self.scopes.pop();
        self.bare = bare;
        let args = r?;
        self.line(&format!("%{f}({})", args.join(", ")));
        self.finish_step(step);
        let call_args: Vec<String> = first.into_iter().chain(inits).collect();
        let call = format!("%{f}({})", call_args.join(", "));
        self.bind_step(g, n, step, &call, step.names.len())
    }

    /// Opens the recursive function `f` of a `Loop` or `Scan`: its parameters `first`,
    /// then the step's, and `if (keep) {`, inside which `body` is entered. The carried
    /// values' types are `states`, the body's inputs from `from` on: where one changes, the
    /// body's types are those of the first iteration, which the text does not state of
    /// every one, and its `let`s go unannotated (see the module's doc). Gives the
    /// printer's `bare` before, for the caller to restore.
    #[allow(clippy::too_many_arguments)]
    fn open_step(
        &mut self,
        f: &str,
        first: &[String],
        step: &Step,
        keep: &str,
        body: &GraphRecord,
        from: usize,
        states: &[Ty],
    ) -> bool {
        let params: Vec<String> = first.iter().chain(&step.params).cloned().collect();
        self.line(&format!(
            "let %{f} = fn ({}) -> {} {{",
            params.join(", "),
            step.result_ty
        ));
        self.indent += 1;
        self.line(&format!("if ({keep}) {{"));
        self.indent += 1;
        let changing =
            (0..states.len()).any(|j| self.changes(states[j], body.tys[body.inputs[from + j]]));
        let bare = self.bare;
        self.bare |= changing;
        self.enter(body);
        bare
    }

    /// The parameters of a loop's function and the type of its result.
    fn step(
        &mut self,
        n: &NodeRecord,
        names: Vec<String>,
        tys: impl Iterator<Item = Ty>,
    ) -> PResult<Step> {
        let mut params = Vec::with_capacity(names.len());
        let mut shown = Vec::with_capacity(names.len());
        for (name, t) in names.iter().zip(tys) {
            let t = self.ty_at(n, t)?;
            params.push(format!("%{name}: {t}"));
            shown.push(t);
        }
        let result_ty = results_text(&shown);
        Ok(Step {
            params,
            names: names.into_iter().map(|s| format!("%{s}")).collect(),
            result_ty,
        })
    }

    /// Closes a loop's function: the `else` that gives its parameters.
    fn finish_step(&mut self, step: &Step) {
        self.indent -= 1;
        self.line("} else {");
        self.indent += 1;
        let finals = results_text(&step.names);
        self.line(&finals);
        self.indent -= 1;
        self.line("}");
        self.indent -= 1;
        self.line("};");
    }

    /// Binds a loop's outputs to its function's `call` (of `count` results): the `let`
    /// of its results is annotated with the checker's types of the node's outputs
    /// (those the node does not name, with the function's), also when the `let`s of the
    /// node outputs are not.
    fn bind_step(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        step: &Step,
        call: &str,
        count: usize,
    ) -> PResult<()> {
        let mut tys = Vec::with_capacity(count);
        for j in 0..count {
            match n.outputs.get(j).copied().flatten() {
                Some(id) => tys.push(self.ty_at(n, g.tys[id])?),
                None => tys.push(String::new()),
            }
        }
        if count == 1 {
            let Some(id) = n.outputs.first().copied().flatten() else {
                return Ok(());
            };
            let onnx = super::text(&g.names[id]).into_owned();
            let name = self.local(&onnx, &n.node.op_type);
            self.line(&format!("let %{name}: {} = {call};", tys[0]));
            self.bind(g, id, name);
            return Ok(());
        }
        // The function's types, for the outputs the node does not name.
        let fallback: Vec<&str> = step
            .params
            .iter()
            .map(|p| p.split_once(": ").map_or("", |(_, t)| t))
            .collect();
        for (j, t) in tys.iter_mut().enumerate() {
            if t.is_empty() {
                *t = fallback[j].to_string();
            }
        }
        let tuple = self.tuple_local(&node_base(&n.node));
        let ty = match count {
            0 => "()".to_string(),
            _ => format!("({})", tys.join(", ")),
        };
        self.line(&format!("let %{tuple}: {ty} = {call};"));
        let exprs: Vec<String> = (0..count).map(|j| format!("%{tuple}.{j}")).collect();
        self.outputs_of(g, n, &exprs)
    }

    /// The accumulator of a scan output of type `each` growing along axis `a`: its type
    /// (`?` there), and that of the empty one it starts as (`0` there).
    fn accumulator(&mut self, n: &NodeRecord, what: &str, each: Ty, a: usize) -> PResult<(Ty, Ty)> {
        let (dims, dt) = self
            .tensor_parts(each)
            .ok_or_else(|| node_error(&n.node, format!("{what} is not a tensor of known rank")))?;
        let mut grown = dims.clone();
        grown.insert(a, Dims::ANY);
        let mut empty = dims;
        empty.insert(a, self.solver.tcx.dims.konst(0));
        let acc = self.tensor_ty(&grown, dt);
        let empty = self.tensor_ty(&empty, dt);
        Ok((acc, empty))
    }

    /// An empty tensor of type `t`, bound to `let`s named after `base`: the
    /// `onnx.constant_of_shape` of its shape as an annotated `onnx.value`.
    fn empty(&mut self, n: &NodeRecord, base: &str, t: Ty) -> PResult<String> {
        let (dims, dt) = self
            .tensor_parts(t)
            .expect("a tensor made by `accumulator`");
        let DTy::Known(d) = dt else {
            return Err(node_error(
                &n.node,
                "a scan output's dtype is not known".into(),
            ));
        };
        let value_ty = self.solver.tcx.tensor_of(&dims, DType::INT64);
        let value_ty = self.ty_at(n, value_ty)?;
        let ty = self.ty_at(n, t)?;
        let shape = self.local(&format!("{base}_shape"), "empty_shape");
        self.line(&format!("let %{shape}: {value_ty} = onnx.value(());"));
        let name = self.local(base, "empty");
        self.line(&format!(
            "let %{name}: {ty} = onnx.constant_of_shape(%{shape}, dtype=\"{d}\");"
        ));
        Ok(format!("%{name}"))
    }

    /// Whether a carried value's type `joined` is not its initial type `first` (the
    /// body's output differs from it).
    fn changes(&mut self, joined: Ty, first: Ty) -> bool {
        self.solver.resolve(joined) != self.solver.resolve(first)
    }

    /// The type's text, or the error naming node `n`.
    pub(super) fn ty_at(&mut self, n: &NodeRecord, t: Ty) -> PResult<String> {
        self.ty(t)
            .map_err(|e| node_error(&n.node, format!("a type it needs {e}")))
    }

    /// Node `n`'s input `i` (slot `id`) as a scalar of dtype `dt`.
    pub(super) fn scalar_of(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        i: usize,
        dt: DType,
    ) -> PResult<String> {
        let (name, t) = self.typed_input(g, n, i)?;
        self.scalar_expr(n, &format!("input {i}"), &name, t, dt)
    }

    /// `e` (of type `t`, a tensor of dtype `dt` and one element) as a scalar: itself, or
    /// a `let` of its `reshape`.
    pub(super) fn scalar_expr(
        &mut self,
        n: &NodeRecord,
        what: &str,
        e: &str,
        t: Ty,
        dt: DType,
    ) -> PResult<String> {
        let scalar = self.solver.tcx.scalar(dt);
        let t = self.solver.resolve(t);
        if t == scalar {
            return Ok(e.to_string());
        }
        let one = self.tensor_parts(t).is_some_and(|(dims, d)| {
            d == DTy::Known(dt)
                && dims.iter().all(|&x| {
                    let x = self.solver.resolve_dim(x);
                    self.solver.tcx.dims.as_const(x) == Some(1)
                })
        });
        if !one {
            let shown = self.ty_at(n, t)?;
            return Err(node_error(
                &n.node,
                format!("{what} is `{shown}`, and must be a {dt} of one element"),
            ));
        }
        let name = self.local(&format!("{}_scalar", e.trim_start_matches('%')), "scalar");
        self.line(&format!("let %{name}: {dt} = reshape({e}, newshape=[]);"));
        Ok(format!("%{name}"))
    }

    /// The ONNX name of slot `id` of `b`, or `value` if it has none.
    fn onnx_name(&self, b: &GraphRecord, id: usize) -> String {
        match super::text(&b.names[id]) {
            s if s.is_empty() => "value".into(),
            s => s.into_owned(),
        }
    }

    /// A new local name for the parameter of a subgraph's input `id`.
    pub(super) fn param_name(&mut self, b: &GraphRecord, id: usize) -> String {
        let onnx = self.onnx_name(b, id);
        self.local(&onnx, "param")
    }

    /// The expression of `b`'s output slot `id` (a name in the current scope).
    pub(super) fn result_name(
        &mut self,
        b: &GraphRecord,
        id: usize,
        n: &NodeRecord,
    ) -> PResult<String> {
        self.name_of(b, id).map(|s| format!("%{s}")).ok_or_else(|| {
            let onnx = super::text(&b.names[id]);
            node_error(
                &n.node,
                format!("its body's output `{onnx}` names no value"),
            )
        })
    }

    /// A `let` of `e` annotated `ty` (not when the node outputs' are not).
    pub(super) fn let_line(&mut self, name: &str, ty: &str, e: &str) {
        if self.bare {
            self.line(&format!("let %{name} = {e};"));
        } else {
            self.line(&format!("let %{name}: {ty} = {e};"));
        }
    }

    /// The tensor type of `dims` and `dt`.
    pub(super) fn tensor_ty(&mut self, dims: &[Dim], dt: DTy) -> Ty {
        let s = self.solver.tcx.shape(dims);
        self.solver.tcx.tensor(s, dt)
    }

    /// A tensor type's dimensions and dtype, if it is one of known rank.
    pub(super) fn tensor_parts(&mut self, t: Ty) -> Option<(Vec<Dim>, DTy)> {
        crate::check::tensor_parts(self.solver, t)
    }

    /// Two types joined as the checker joins a loop's carried values: the same where they
    /// agree, `?` for a dimension where they do not, a tensor of no known shape (an empty
    /// sequence's element) the other; `None` if they are not of one form.
    pub(super) fn joined(&mut self, a: Ty, b: Ty) -> Option<Ty> {
        let (a, b) = (self.solver.resolve(a), self.solver.resolve(b));
        if a == b {
            return Some(a);
        }
        match (
            self.solver.tcx.data(a).clone(),
            self.solver.tcx.data(b).clone(),
        ) {
            (TyData::Tensor(..), TyData::Tensor(..)) => {
                // A tensor of no known shape (an empty sequence's element): the other.
                let (x, da) = match self.tensor_parts(a) {
                    Some(p) => p,
                    None => return self.tensor_parts(b).map(|_| b),
                };
                let Some((y, db)) = self.tensor_parts(b) else {
                    return Some(a);
                };
                if da != db || x.len() != y.len() {
                    return None;
                }
                let dims: Vec<Dim> = x
                    .iter()
                    .zip(&y)
                    .map(|(&p, &q)| {
                        let (p, q) = (self.solver.resolve_dim(p), self.solver.resolve_dim(q));
                        if p == q {
                            p
                        } else {
                            Dims::ANY
                        }
                    })
                    .collect();
                Some(self.tensor_ty(&dims, da))
            }
            (TyData::Tuple(x), TyData::Tuple(y)) if x.len() == y.len() => {
                let fields: Option<Vec<Ty>> = x
                    .iter()
                    .zip(y.iter())
                    .map(|(&p, &q)| self.joined(p, q))
                    .collect();
                Some(self.solver.tcx.tuple(&fields?))
            }
            (TyData::Call(f, x), TyData::Call(h, y)) if f == h && x.len() == y.len() => {
                let args: Option<Vec<Ty>> = x
                    .iter()
                    .zip(y.iter())
                    .map(|(&p, &q)| self.joined(p, q))
                    .collect();
                self.solver.tcx.type_call(f, &args?).ok()
            }
            _ => None,
        }
    }
}
