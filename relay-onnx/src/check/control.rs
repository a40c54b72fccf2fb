//! Control flow: `If`'s branches are subgraphs, typed in the scope of the graph they are
//! in (a branch reads the values of its graph by name) with the graph's solver, so that
//! their types are the graph's types.
//!
//! An `If` whose condition is a known value is its branch; otherwise each output is the
//! two branches' output joined: the same type where they agree, `?` for a dimension
//! where they do not.

use super::{node_ref, Checker, Diagnostic};
use crate::proto::{AttributeProto, GraphProto, GraphRef, Nodes};
use relay_core::{Dim, Dims, Solver, Ty, TyCtx, TyData};
use rustc_hash::FxHashSet;

/// The most subgraphs nested in one another the checker reads.
pub(super) const MAX_DEPTH: usize = 64;

impl<'m> Checker<'m> {
    /// Types an `If` node: its outputs from its branches.
    pub(super) fn if_node(&mut self, g: &Nodes<'m>, k: usize, inputs: &[Option<usize>]) {
        let node = g.at(k);
        let Some(attrs) = self.attributes_or_fail(g, k) else {
            return;
        };
        let branch = |name: &str| -> Option<&GraphProto> {
            attrs
                .iter()
                .find(|a: &&AttributeProto| a.name.as_ref() == name.as_bytes())?
                .g
                .as_ref()
        };
        let (Some(then_g), Some(else_g)) = (branch("then_branch"), branch("else_branch")) else {
            self.fail_node(
                g,
                k,
                "`If` needs the graph attributes `then_branch` and `else_branch`".into(),
            );
            return;
        };
        // The condition: a bool of one element; its value, if known, picks the branch.
        let cond = inputs.first().copied().flatten();
        let known = cond.and_then(|id| {
            let v = self.values.get(&id)?;
            let d = *v.first()?;
            let d = self.solver.resolve_dim(d);
            self.solver.tcx.dims.as_const(d).map(|c| c != 0)
        });
        if let Some(id) = cond {
            let t = self.solver.resolve(self.slots[id].ty);
            if let TyData::Tensor(_, relay_core::DTy::Known(d)) = *self.solver.tcx.data(t) {
                if d != relay_core::DType::BOOL {
                    let shown = self.solver.tcx.show(t);
                    self.fail_node(
                        g,
                        k,
                        format!("the condition of `If` is `{shown}`, and must be a bool"),
                    );
                    return;
                }
            }
        }
        // A known condition types its branch alone: the other is dead for this model, and
        // may not even be well typed at its shapes (a `Split` into the parts of another rank).
        let typed = |me: &mut Self, which, sub| match known {
            Some(c) if c != (which == "then_branch") => (None, None),
            _ => {
                let outs = me.subgraph(sub, g, k, which, &[], None);
                (outs, me.last_subgraph.take())
            }
        };
        let (then_outs, then_record) = typed(self, "then_branch", then_g);
        let (else_outs, else_record) = typed(self, "else_branch", else_g);
        if self.record.is_some() {
            let kind = super::NodeKind::If {
                known,
                then_branch: then_record,
                else_branch: else_record,
            };
            self.record_node(g, k, inputs, kind);
        }
        let n = node.output().len();
        for (which, outs) in [("then_branch", &then_outs), ("else_branch", &else_outs)] {
            if let Some(o) = outs {
                if o.len() != n {
                    self.fail_node(
                        g,
                        k,
                        format!("its `{which}` has {} outputs, and the node {n}", o.len()),
                    );
                    return;
                }
            }
        }
        for j in 0..n {
            let out = match (known, &then_outs, &else_outs) {
                (Some(true), Some(t), _) => Some(t[j].clone()),
                (Some(false), _, Some(e)) => Some(e[j].clone()),
                (None, Some(t), Some(e)) => {
                    self.warn_if_ranks_differ(g, k, j, t[j].ty, e[j].ty);
                    Some(SubOut {
                        ty: self.join(t[j].ty, e[j].ty),
                        value: None,
                        floats: None,
                    })
                }
                _ => None,
            };
            match out {
                Some(out) => {
                    if let Some(id) = self.set_output(k, j, out.ty) {
                        if let Some(v) = out.value {
                            self.values.insert(id, v);
                        }
                        if let Some(f) = out.floats {
                            self.floats.insert(id, f);
                        }
                    }
                }
                None => {
                    let t = self.solver.fresh_ty();
                    if let Some(id) = self.set_output(k, j, t) {
                        self.slots[id].failed = true;
                    }
                }
            }
        }
    }

    /// A warning when the branches of `If` node `k` give its output `j` tensors of
    /// different ranks: the output is the `then_branch`'s, which holds only when that
    /// branch runs (exporters write `If(dim == 1, Squeeze, Identity)` for a squeeze of a
    /// dimension they cannot tell is 1).
    fn warn_if_ranks_differ(&mut self, g: &Nodes<'m>, k: usize, j: usize, t: Ty, e: Ty) {
        let rank = |me: &mut Self, ty: Ty| {
            let ty = me.solver.resolve(ty);
            match *me.solver.tcx.data(ty) {
                TyData::Tensor(s, _) => me.solver.tcx.shape_dims(s).map(|d| d.len()),
                _ => None,
            }
        };
        let (Some(a), Some(b)) = (rank(self, t), rank(self, e)) else {
            return;
        };
        if a != b {
            let (t, e) = (self.solver.resolve(t), self.solver.resolve(e));
            let (st, se) = (self.solver.tcx.show(t), self.solver.tcx.show(e));
            self.warn(
                Some(node_ref(g, k)),
                format!("its branches give output {j} of ranks {a} and {b}: it is taken as the `then_branch`'s, which holds only when that branch runs"),
                vec![format!("`then_branch`: `{st}`"), format!("`else_branch`: `{se}`")],
            );
        }
    }

    /// Node `k`'s attributes, decoded; `None` after reporting that they cannot be and
    /// failing its outputs.
    pub(super) fn attributes_or_fail(
        &mut self,
        g: &Nodes<'m>,
        k: usize,
    ) -> Option<Vec<AttributeProto>> {
        match g.at(k).attribute() {
            Ok(a) => Some(a),
            Err(e) => {
                self.fail_node(g, k, e);
                None
            }
        }
    }

    /// Types a `Scan` node: its body once, over the states' types and a slice of each
    /// scan input (the scan axis removed); each scan output gains the scan length at its
    /// axis; a state the body changes is the two types joined. Before opset 9 every input
    /// and output also has a batch axis first, which the body does not see, and the first
    /// input is `sequence_lens`.
    pub(super) fn scan_node(&mut self, g: &Nodes<'m>, k: usize, inputs: &[Option<usize>]) {
        let node = g.at(k);
        // Before opset 9, every input and output has a batch axis first, and the first
        // input is the optional `sequence_lens`.
        let batched = self.opset("").is_some_and(|v| v < 9);
        let inputs = if batched {
            inputs.get(1..).unwrap_or(&[])
        } else {
            inputs
        };
        let Some(attrs) = self.attributes_or_fail(g, k) else {
            return;
        };
        let get = |name: &str| attrs.iter().find(|a| a.name.as_ref() == name.as_bytes());
        let (Some(body), Some(m)) = (
            get("body").and_then(|a| a.g.as_ref()),
            get("num_scan_inputs").map(|a| a.i),
        ) else {
            self.fail_node(
                g,
                k,
                "`Scan` needs the attributes `body` and `num_scan_inputs`".into(),
            );
            return;
        };
        let n_in = inputs.len();
        let Some(n_state) = usize::try_from(m).ok().and_then(|m| n_in.checked_sub(m)) else {
            self.fail_node(
                g,
                k,
                format!("`num_scan_inputs` is {m}, and the node has {n_in} inputs"),
            );
            return;
        };
        let m = n_in - n_state;
        let in_axes = get("scan_input_axes").map_or_else(|| vec![0; m], |a| a.ints.clone());
        let n_out = node.output().len();
        let out_axes = get("scan_output_axes").map_or_else(
            || vec![0; n_out.saturating_sub(n_state)],
            |a| a.ints.clone(),
        );
        // The batch: each input's first dimension, taken off (the first input's).
        let mut batch: Option<Dim> = None;
        let mut unbatched = |me: &mut Self, t: Ty| -> Ty {
            if !batched {
                return t;
            }
            let t = me.solver.resolve(t);
            let TyData::Tensor(s, dt) = *me.solver.tcx.data(t) else {
                return me.solver.fresh_ty();
            };
            match me.solver.tcx.shape_dims(s).map(|d| d.to_vec()) {
                Some(mut dims) if !dims.is_empty() => {
                    let b = dims.remove(0);
                    batch.get_or_insert(b);
                    let s = me.solver.tcx.shape(&dims);
                    me.solver.tcx.tensor(s, dt)
                }
                _ => me.solver.fresh_ty(),
            }
        };
        let mut body_inputs = Vec::with_capacity(n_in);
        for input in &inputs[..n_state] {
            let t = match *input {
                Some(id) => unbatched(self, self.slots[id].ty),
                None => self.solver.fresh_ty(),
            };
            body_inputs.push(t);
        }
        // Each scan input without its scan axis, and the scan length (the first's).
        let mut len: Option<Dim> = None;
        for j in 0..m {
            let Some(id) = inputs[n_state + j] else {
                body_inputs.push(self.solver.fresh_ty());
                continue;
            };
            let t = unbatched(self, self.slots[id].ty);
            let t = self.solver.resolve(t);
            let TyData::Tensor(s, dt) = *self.solver.tcx.data(t) else {
                body_inputs.push(self.solver.fresh_ty());
                continue;
            };
            let Some(mut dims) = self.solver.tcx.shape_dims(s).map(|d| d.to_vec()) else {
                body_inputs.push(self.solver.fresh_ty());
                continue;
            };
            let axis = in_axes.get(j).copied().unwrap_or(0);
            let Some(a) = crate::value::norm_index(axis, dims.len()) else {
                self.fail_node(
                    g,
                    k,
                    format!(
                        "scan input {j}'s axis {axis} is out of range for its rank {}",
                        dims.len()
                    ),
                );
                return;
            };
            let d = dims.remove(a);
            len.get_or_insert(d);
            let s = self.solver.tcx.shape(&dims);
            body_inputs.push(self.solver.tcx.tensor(s, dt));
        }
        let Some(outs) = self.subgraph_types(body, g, k, "body", &body_inputs) else {
            self.fail_outputs(node, k);
            return;
        };
        if outs.len() != n_out {
            self.fail_node(
                g,
                k,
                format!(
                    "its `body` has {} outputs, and the node {n_out}",
                    outs.len()
                ),
            );
            return;
        }
        let len = len.unwrap_or(Dims::ANY);
        let batch = batch.unwrap_or(Dims::ANY);
        for (j, &each) in outs.iter().enumerate() {
            let t = if j < n_state {
                self.join(body_inputs[j], each)
            } else {
                self.with_dim(each, out_axes.get(j - n_state).copied().unwrap_or(0), len)
            };
            let t = if batched {
                self.with_dim(t, 0, batch)
            } else {
                t
            };
            self.set_output(k, j, t);
        }
    }

    /// `t` with `d` as a new dimension at `axis` (counted in the result, negative from its
    /// end): a fresh type if `t` is not a tensor of known rank or `axis` is out of range.
    pub(super) fn with_dim(&mut self, t: Ty, axis: i64, d: Dim) -> Ty {
        let t = self.solver.resolve(t);
        let TyData::Tensor(s, dt) = *self.solver.tcx.data(t) else {
            return self.solver.fresh_ty();
        };
        let Some(mut dims) = self.solver.tcx.shape_dims(s).map(|d| d.to_vec()) else {
            return self.solver.fresh_ty();
        };
        let Some(a) = crate::value::norm_index(axis, dims.len() + 1) else {
            return self.solver.fresh_ty();
        };
        dims.insert(a, d);
        let s = self.solver.tcx.shape(&dims);
        self.solver.tcx.tensor(s, dt)
    }

    /// Reports `message` on node `k` of `g` and fails its outputs.
    pub(super) fn fail_node(&mut self, g: &Nodes<'m>, k: usize, message: String) {
        self.error(Some(node_ref(g, k)), message, Vec::new());
        self.fail_outputs(g.at(k), k);
    }

    /// The graph attribute `name` of node `k`, or `None` after reporting that `op` needs
    /// it and failing the node's outputs.
    pub(super) fn graph_attr_or_fail<'a>(
        &mut self,
        g: &Nodes<'m>,
        k: usize,
        attrs: &'a [AttributeProto],
        op: &str,
        name: &str,
    ) -> Option<&'a GraphProto> {
        let found = attrs
            .iter()
            .find(|a| a.name.as_ref() == name.as_bytes())
            .and_then(|a| a.g.as_ref());
        if found.is_none() {
            self.fail_node(g, k, format!("`{op}` needs the graph attribute `{name}`"));
        }
        found
    }

    /// The output types of subgraph `sub` (attribute `which` of node `k` of `g`), typed
    /// in this graph's scope with its inputs of types `inputs` (a loop body's), the first
    /// of value `index` if that is given (a loop's iteration number); `None` if it could not
    /// be (its problems are reported, each saying where it is).
    pub(super) fn subgraph(
        &mut self,
        sub: &GraphProto,
        g: &Nodes<'m>,
        k: usize,
        which: &str,
        inputs: &[Ty],
        index: Option<Dim>,
    ) -> Option<Vec<SubOut>> {
        if self.depth >= MAX_DEPTH {
            self.error(
                Some(node_ref(g, k)),
                format!("its subgraphs nest more than {MAX_DEPTH} deep"),
                Vec::new(),
            );
            return None;
        }
        if sub.input.len() != inputs.len() {
            self.error(
                Some(node_ref(g, k)),
                format!(
                    "its `{which}` has {} inputs, and takes {}",
                    sub.input.len(),
                    inputs.len()
                ),
                Vec::new(),
            );
            return None;
        }
        // The names the subgraph reads that it does not make: this graph's values.
        let mut free = FxHashSet::default();
        free_names(sub, &mut free, 0);
        let placeholder = Solver::new(TyCtx::new());
        let solver = std::mem::replace(&mut self.solver, placeholder);
        let mut child = Checker::with(self.registry, solver, self.pending_ty, self.opsets.clone());
        child.depth = self.depth + 1;
        child.unrolled = self.unrolled;
        if self.record.is_some() {
            child.record = Some(Box::default());
        }
        // The body's inputs, of the types the node gives them.
        for (j, (vi, &t)) in sub.input.iter().zip(inputs).enumerate() {
            let id = child.add_slot(&vi.name, t, None);
            if let (0, Some(v)) = (j, index) {
                child.values.insert(id, Box::new([v]));
            }
            if let Some(r) = child.record.as_mut() {
                r.inputs.push(id);
            }
        }
        child.syms = std::mem::take(&mut self.syms);
        child.empty_elems = std::mem::take(&mut self.empty_elems);
        child.sym_names = std::mem::take(&mut self.sym_names);
        for name in &free {
            let Some(id) = self.slot(name) else { continue };
            let slot = &self.slots[id];
            let (ty, failed) = (slot.ty, slot.failed);
            let cid = child.add_slot(name, ty, None);
            child.slots[cid].failed = failed;
            if let Some(v) = self.values.get(&id) {
                child.values.insert(cid, v.clone());
            }
            if let Some(f) = self.floats.get(&id) {
                child.floats.insert(cid, f.clone());
            }
        }
        child.graph(&GraphRef::of(sub));
        let outs: Option<Vec<SubOut>> = child
            .outputs
            .iter()
            .map(|&id| {
                (!child.slots[id].failed).then(|| SubOut {
                    ty: child.slots[id].ty,
                    value: child.values.get(&id).cloned(),
                    floats: child.floats.get(&id).cloned(),
                })
            })
            .collect();
        let complete = child.outputs.len() == sub.output.len();
        self.last_subgraph = child.take_record();
        // The solver and the symbols come back; the problems too, saying where they are.
        self.solver = child.solver;
        self.syms = child.syms;
        self.empty_elems = child.empty_elems;
        self.sym_names = child.sym_names;
        self.fresh.extend(child.fresh);
        let here = node_ref(g, k);
        for d in child.diagnostics {
            let mut notes = d.notes;
            notes.push(format!("in the `{which}` of {here}"));
            self.diagnostics.push(Diagnostic { notes, ..d });
        }
        outs.filter(|_| complete)
    }

    /// A subgraph's output types (see [`Checker::subgraph`]).
    pub(super) fn subgraph_types(
        &mut self,
        sub: &GraphProto,
        g: &Nodes<'m>,
        k: usize,
        which: &str,
        inputs: &[Ty],
    ) -> Option<Vec<Ty>> {
        let outs = self.subgraph(sub, g, k, which, inputs, None)?;
        Some(outs.into_iter().map(|o| o.ty).collect())
    }

    /// Two types joined (two branches' outputs, a loop's carried values): the same where
    /// they agree, `?` for a dimension where they do not, `List`/`Optional` of their
    /// elements joined, an `Optional` and a value the optional's value joined with it; an
    /// empty sequence's element gives the other. Types that are not of one form or rank
    /// (or still waiting for their relations): the first, which the other must then be.
    pub(super) fn join(&mut self, a: Ty, b: Ty) -> Ty {
        self.join_as(a, b, false)
    }

    /// [`Checker::join`] of a sequence's elements, which may differ in rank: a tensor of
    /// unknown rank where they do.
    pub(super) fn join_elements(&mut self, a: Ty, b: Ty) -> Ty {
        self.join_as(a, b, true)
    }

    fn join_as(&mut self, a: Ty, b: Ty, ranks_may_differ: bool) -> Ty {
        let (a, b) = (self.solver.resolve(a), self.solver.resolve(b));
        if a == b {
            return a;
        }
        // An empty sequence's element is no element.
        if self.empty_elems.contains(&a) {
            return b;
        }
        if self.empty_elems.contains(&b) {
            return a;
        }
        match (
            self.solver.tcx.data(a).clone(),
            self.solver.tcx.data(b).clone(),
        ) {
            // One still waiting for its relations: the first, which the other must be.
            (TyData::Var(_), _) | (_, TyData::Var(_)) => a,
            // An optional joined with a value: the optional's value joined with it (a loop
            // that carries an optional sequence and gives the sequence).
            (TyData::Call(x, xs), _) if self.solver.tcx.adt_info(x).name.as_ref() == "Optional" => {
                self.join_as(xs[0], b, ranks_may_differ)
            }
            (_, TyData::Call(y, ys)) if self.solver.tcx.adt_info(y).name.as_ref() == "Optional" => {
                self.join_as(a, ys[0], ranks_may_differ)
            }
            (TyData::Call(x, xs), TyData::Call(y, ys)) if x == y && xs.len() == ys.len() => {
                let args: Vec<Ty> = xs
                    .iter()
                    .zip(ys.iter())
                    .map(|(&p, &q)| self.join_as(p, q, ranks_may_differ))
                    .collect();
                self.solver
                    .tcx
                    .type_call(x, &args)
                    .expect("the arguments of a type already applied")
            }
            (TyData::Tensor(sa, da), TyData::Tensor(sb, db)) if da == db => {
                let x = self.solver.tcx.shape_dims(sa).map(|d| d.to_vec());
                let y = self.solver.tcx.shape_dims(sb).map(|d| d.to_vec());
                match (x, y) {
                    (Some(x), Some(y)) if x.len() == y.len() => {
                        let dims: Vec<Dim> = x
                            .iter()
                            .zip(&y)
                            .map(|(&p, &q)| if p == q { p } else { Dims::ANY })
                            .collect();
                        let s = self.solver.tcx.shape(&dims);
                        self.solver.tcx.tensor(s, da)
                    }
                    // Of different ranks: a tensor of that dtype.
                    (Some(_), Some(_)) if ranks_may_differ => {
                        let s = self.solver.fresh_shape();
                        self.solver.tcx.tensor(s, da)
                    }
                    (Some(_), Some(_)) | (None, _) => a,
                    (_, None) => b,
                }
            }
            _ => a,
        }
    }
}

/// A subgraph's output: its type, and its value when it is a known shape value.
#[derive(Clone)]
pub(super) struct SubOut {
    pub(super) ty: Ty,
    value: Option<Box<[Dim]>>,
    floats: Option<Box<[f64]>>,
}

/// The names `g`'s nodes (and those of its subgraphs) read that `g` does not make.
fn free_names(g: &GraphProto, out: &mut FxHashSet<Vec<u8>>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let graph = GraphRef::of(g);
    let Ok(nodes) = Nodes::read(&graph.node) else {
        return;
    };
    let mut made: FxHashSet<&[u8]> = FxHashSet::default();
    for t in &g.initializer {
        if let Ok(n) = crate::proto::tensor_name(t) {
            made.insert(n);
        }
    }
    for i in &g.input {
        made.insert(&i.name);
    }
    for k in 0..nodes.len() {
        made.extend(nodes.outputs(k).iter().copied());
    }
    for k in 0..nodes.len() {
        for &i in nodes.inputs(k) {
            if !i.is_empty() && !made.contains(i) {
                out.insert(i.to_vec());
            }
        }
        // Names read inside a nested subgraph, from this graph or from outside it.
        let Ok(attrs) = nodes.attributes(k) else {
            continue;
        };
        for a in &attrs {
            for sub in a.g.iter().chain(&a.graphs) {
                let mut inner = FxHashSet::default();
                free_names(sub, &mut inner, depth + 1);
                out.extend(inner.into_iter().filter(|n| !made.contains(n.as_slice())));
            }
        }
    }
}
