//! The checker: a graph's values typed in topological order, each node through the
//! relation of the Relay operator its mapping names, with shape values evaluated beside.
//!
//! The graph is a Relay function: its parameters are the graph inputs that are not
//! initializers, in order; initializers are typed by their dims and dtype (small integer
//! ones keep their values); a `dim_value` is a constant, a `dim_param` a rigid symbol of
//! that name (one name, one dimension, across the inputs), an unset dimension a fresh
//! unknown. Each node adds its operator's relations to one solver and runs it to its
//! fixpoint before the next node, so a node's input types are as known as they can be
//! when its shape values are evaluated.

use crate::attr::{int_data, NodeAttrs};
use crate::import::record::{Call, GraphRecord, IntAttrs, NodeKind, NodeRecord};
use crate::ops::{self, Arg, AttrFrom, OnnxOp, Outputs};
use crate::proto::{
    text, GraphHead, GraphRef, ModelProto, NodeAt, Nodes, OperatorSetIdProto, TensorView,
    TypeProto, TypeValue,
};
use crate::value::{ValueCx, MAX_ELEMS};
use prost::Message as _;

mod control;
mod loops;
mod names;
mod sequence;
use relay_core::op::{AttrType, OpScheme};
use relay_core::{
    AttrValue, Attrs, DTy, DType, Dim, Kind, OpDef, Registry, Solver, Ty, TyCtx, TyData,
};
use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::Arc;

/// A node, as messages name it: its index in the graph, name and op type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeRef {
    /// Its index among the graph's nodes.
    pub index: usize,
    /// Its name (may be empty).
    pub name: String,
    /// Its op type, with its domain when that is not the default one.
    pub op_type: String,
}

impl fmt::Display for NodeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.name.is_empty() {
            write!(f, "node {} ({})", self.index, self.op_type)
        } else {
            write!(f, "node {} `{}` ({})", self.index, self.name, self.op_type)
        }
    }
}

/// What kind of problem a diagnostic reports.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The model is ill-typed or unreadable.
    Error,
    /// Something the user should know that does not make the model wrong.
    Warning,
}

/// A problem found in a model, with the node it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The node it is about, if one.
    pub node: Option<NodeRef>,
    /// What is wrong.
    pub message: String,
    /// Further facts (the types involved).
    pub notes: Vec<String>,
    /// It reports something the checker does not support yet (an operator, a type),
    /// not a mistake in the model.
    pub unsupported: bool,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.node {
            Some(n) => write!(f, "{n}: {}", self.message)?,
            None => f.write_str(&self.message)?,
        }
        for note in &self.notes {
            write!(f, "\n  = note: {note}")?;
        }
        Ok(())
    }
}

/// A file that is not a readable ONNX model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(pub String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// A value of the graph: what is known of it (its name is kept beside).
struct Slot {
    ty: Ty,

    /// The node that makes it, if one.
    node: Option<u32>,
    /// It depends on a node that could not be typed: not checked further.
    failed: bool,
    /// Its type is set (a node output's slot is made before its node is typed).
    ready: bool,
}

/// A checked model: the type of every value and the diagnostics.
pub struct Checked {
    solver: Solver,
    slots: Vec<Slot>,
    /// The values' names as the file has them, one after the other, each ending at its
    /// entry of `name_ends` (read as UTF-8 when shown).
    names: Vec<u8>,
    name_ends: Vec<u32>,
    inputs: Vec<usize>,
    outputs: Vec<usize>,
    /// The outputs of the nodes, in the order the graph lists the nodes.
    bindings: Vec<usize>,
    diagnostics: Vec<Diagnostic>,
    /// What the importer prints from, when it was asked for.
    record: Option<Box<GraphRecord>>,
}

impl Checked {
    /// The graph as recorded for the importer, and the solver its types live in (`None`
    /// unless checked by [`check_bytes_recorded`]).
    pub(crate) fn recorded(&mut self) -> Option<(&GraphRecord, &mut Solver)> {
        Some((self.record.as_deref()?, &mut self.solver))
    }

    /// The name of value `i` as it is in the file.
    fn raw_name(&self, i: usize) -> &[u8] {
        let start = if i == 0 {
            0
        } else {
            self.name_ends[i - 1] as usize
        };
        &self.names[start..self.name_ends[i] as usize]
    }

    /// The name of value `i` (read as UTF-8, lossily).
    fn name(&self, i: usize) -> std::borrow::Cow<'_, str> {
        text(self.raw_name(i))
    }

    /// The value of this name (the last one, if several have it).
    fn find(&self, name: &str) -> Option<usize> {
        (0..self.slots.len())
            .rev()
            .find(|&i| self.raw_name(i) == name.as_bytes())
    }

    /// The diagnostics, in the order of the graph's nodes.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The number of values of the graph (inputs, initializers, node outputs).
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the graph has no values.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    /// The type of a value by its name, in Relay's syntax.
    pub fn type_of(&mut self, name: &str) -> Option<String> {
        let i = self.find(name)?;
        Some(self.show_slot(i))
    }

    fn show_slot(&mut self, i: usize) -> String {
        let t = self.solver.resolve(self.slots[i].ty);
        self.solver.tcx.show(t)
    }

    /// The graph's type: `fn (inputs) -> output`, the outputs a tuple when there are
    /// several.
    pub fn signature(&mut self) -> String {
        let ins: Vec<String> = self
            .inputs
            .clone()
            .into_iter()
            .map(|i| self.show_slot(i))
            .collect();
        let outs: Vec<String> = self
            .outputs
            .clone()
            .into_iter()
            .map(|i| self.show_slot(i))
            .collect();
        let out = if outs.len() == 1 {
            outs[0].clone()
        } else {
            format!("({})", outs.join(", "))
        };
        format!("fn ({}) -> {out}", ins.join(", "))
    }

    /// Every node output by name with its type, in the graph's node order.
    pub fn bindings(&mut self) -> Vec<(String, String)> {
        self.bindings
            .clone()
            .into_iter()
            .map(|i| (self.name(i).to_string(), self.show_slot(i)))
            .collect()
    }

    /// The dims of a value's type (constants as numbers, others as text), for scoring.
    pub fn dims_of(&mut self, name: &str) -> Option<Option<Vec<DimShown>>> {
        let i = self.find(name)?;
        Some(self.dims_shown(i))
    }

    fn dims_shown(&mut self, i: usize) -> Option<Vec<DimShown>> {
        let t = self.solver.resolve(self.slots[i].ty);
        self.dims_of_ty(t)
    }

    fn dims_of_ty(&mut self, t: Ty) -> Option<Vec<DimShown>> {
        let TyData::Tensor(shape, _) = *self.solver.tcx.data(t) else {
            return None;
        };
        let dims = self.solver.tcx.shape_dims(shape)?.to_vec();
        Some(
            dims.into_iter()
                .map(|d| match self.solver.tcx.dims.as_const(d) {
                    Some(c) => DimShown::Const(c),
                    None if self.solver.tcx.dims.has_vars(d) || self.solver.tcx.dims.is_any(d) => {
                        DimShown::Unknown
                    }
                    None => DimShown::Sym(self.solver.tcx.show_dim(d)),
                })
                .collect(),
        )
    }

    /// Every value of the graph (its inputs, initializers and node outputs, in the order
    /// the checker made them) with what is known of its type: one pass, where
    /// [`Checked::dims_of`] and [`Checked::dtype_of`] look a name up each.
    ///
    /// ```
    /// use relay_onnx::build::{Graph, D};
    /// use relay_onnx::check::DimShown;
    /// let mut g = Graph::new(17);
    /// g.input("x", D::F32, &[D::p("N"), D::v(3)]);
    /// g.node("Relu", &["x"], &["y"], vec![]);
    /// g.output("y");
    /// let values = g.check().values();
    /// assert_eq!(values[1].name, "y");
    /// assert_eq!(values[1].node, Some(0));
    /// assert_eq!(values[1].dtype, Some(relay_core::DType::FLOAT32));
    /// assert_eq!(values[1].dims, Some(vec![DimShown::Sym("N".into()), DimShown::Const(3)]));
    /// ```
    pub fn values(&mut self) -> Vec<ValueType> {
        let mut out = Vec::with_capacity(self.slots.len());
        self.for_each_value(|v| {
            out.push(ValueType {
                name: text(v.name).into_owned(),
                node: v.node,
                checked: v.checked,
                dtype: v.dtype,
                dims: v.dims.map(<[DimShown]>::to_vec),
            })
        });
        out
    }

    /// [`Checked::values`] without a copy: each value lent to `f` in turn, its name as
    /// the file has it. A type is shown once however many values have it.
    pub fn for_each_value(&mut self, mut f: impl FnMut(ValueRef<'_>)) {
        type Shown = (Option<DType>, Option<Vec<DimShown>>);
        let mut shown: FxHashMap<Ty, Shown> = FxHashMap::default();
        for i in 0..self.slots.len() {
            let t = self.solver.resolve(self.slots[i].ty);
            if let std::collections::hash_map::Entry::Vacant(e) = shown.entry(t) {
                e.insert((self.dtype_of_ty(t), self.dims_of_ty(t)));
            }
            let (dtype, dims) = &shown[&t];
            f(ValueRef {
                name: self.raw_name(i),
                node: self.slots[i].node.map(|n| n as usize),
                checked: !self.slots[i].failed,
                dtype: *dtype,
                dims: dims.as_deref(),
            });
        }
    }

    /// The shape of value `name` when the graph inputs have the given shapes (by input
    /// name): the inferred dimensions evaluated with each input dimension's symbol or
    /// unknown bound to its size. An error says what is not known: a value that was not
    /// checked, a dimension that does not follow from the inputs.
    ///
    /// ```
    /// use relay_onnx::build::{int, Graph, D};
    /// let mut g = Graph::new(17);
    /// g.input("x", D::F32, &[D::p("N"), D::v(3), D::Unknown]);
    /// g.node("Flatten", &["x"], &["y"], vec![int("axis", 1)]);
    /// g.output("y");
    /// let mut c = g.check();
    /// assert_eq!(c.eval_shape("y", &[("x", vec![2, 3, 5])]), Ok(vec![2, 15]));
    /// ```
    pub fn eval_shape(
        &mut self,
        name: &str,
        inputs: &[(&str, Vec<i64>)],
    ) -> Result<Vec<i64>, String> {
        let mut bound: FxHashMap<Dim, i64> = FxHashMap::default();
        for (input, sizes) in inputs {
            let Some(&i) = self.inputs.iter().find(|&&i| self.name(i) == *input) else {
                return Err(format!("`{input}` is not a graph input"));
            };
            let t = self.solver.resolve(self.slots[i].ty);
            let TyData::Tensor(s, _) = *self.solver.tcx.data(t) else {
                return Err(format!("input `{input}` is not a tensor"));
            };
            let dims = self
                .solver
                .tcx
                .shape_dims(s)
                .map(|d| d.to_vec())
                .unwrap_or_default();
            if dims.len() != sizes.len() {
                return Err(format!(
                    "input `{input}` has rank {}, and {} sizes are given",
                    dims.len(),
                    sizes.len()
                ));
            }
            for (&d, &v) in dims.iter().zip(sizes) {
                match self.solver.tcx.dims.data(d) {
                    relay_core::DimData::Sym(_) | relay_core::DimData::Var(_) => {
                        if let Some(&prev) = bound.get(&d) {
                            if prev != v {
                                let shown = self.solver.tcx.show_dim(d);
                                return Err(format!("`{shown}` is given both {prev} and {v}"));
                            }
                        }
                        bound.insert(d, v);
                    }
                    _ => {
                        if let Some(c) = self.solver.tcx.dims.eval(d, &|_| None) {
                            if c != v {
                                let shown = self.solver.tcx.show_dim(d);
                                return Err(format!(
                                    "input `{input}` has dimension `{shown}`, and {v} is given"
                                ));
                            }
                        }
                    }
                }
            }
        }
        if !self.is_checked(name) {
            return Err(format!("`{name}` was not checked"));
        }
        let Some(Some(dims)) = self.dims_raw(name) else {
            return Err(format!("the rank of `{name}` is not known"));
        };
        dims.into_iter()
            .map(|d| {
                let d = self.solver.resolve_dim(d);
                self.solver
                    .tcx
                    .dims
                    .eval(d, &|leaf| bound.get(&leaf).copied())
                    .ok_or_else(|| {
                        format!(
                            "`{}` does not follow from the inputs",
                            self.solver.tcx.show_dim(d)
                        )
                    })
            })
            .collect()
    }

    fn dims_raw(&mut self, name: &str) -> Option<Option<Vec<Dim>>> {
        let i = self.find(name)?;
        Some(self.dims_at(i))
    }

    fn dims_at(&mut self, i: usize) -> Option<Vec<Dim>> {
        let t = self.solver.resolve(self.slots[i].ty);
        let TyData::Tensor(shape, _) = *self.solver.tcx.data(t) else {
            return None;
        };
        self.solver.tcx.shape_dims(shape).map(|d| d.to_vec())
    }

    /// Whether a value was checked: it exists and does not depend on a node that could
    /// not be typed.
    pub fn is_checked(&self, name: &str) -> bool {
        self.find(name).is_some_and(|i| !self.slots[i].failed)
    }

    /// The dtype of a value, if known, by name (`float32`).
    pub fn dtype_of(&mut self, name: &str) -> Option<String> {
        let i = self.find(name)?;
        self.dtype_at(i)
    }

    fn dtype_at(&mut self, i: usize) -> Option<String> {
        self.dtype_known(i).map(|d| d.to_string())
    }

    fn dtype_known(&mut self, i: usize) -> Option<DType> {
        let t = self.solver.resolve(self.slots[i].ty);
        self.dtype_of_ty(t)
    }

    fn dtype_of_ty(&self, t: Ty) -> Option<DType> {
        match *self.solver.tcx.data(t) {
            TyData::Tensor(_, DTy::Known(d)) => Some(d),
            _ => None,
        }
    }
}

/// A value of a checked graph and what is known of its type ([`Checked::values`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueType {
    /// Its name, as the file has it (read as UTF-8, lossily).
    pub name: String,
    /// The index of the node that makes it (none for a graph input or an initializer).
    pub node: Option<usize>,
    /// It was checked: it does not depend on a node that could not be typed.
    pub checked: bool,
    /// Its dtype, if it is a tensor whose dtype is known.
    pub dtype: Option<DType>,
    /// Its dimensions, if it is a tensor whose rank is known.
    pub dims: Option<Vec<DimShown>>,
}

/// A value of a checked graph lent by [`Checked::for_each_value`]: [`ValueType`]'s facts,
/// borrowed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ValueRef<'a> {
    /// Its name, as the file has it (not checked as UTF-8).
    pub name: &'a [u8],
    /// The index of the node that makes it (none for a graph input or an initializer).
    pub node: Option<usize>,
    /// It was checked: it does not depend on a node that could not be typed.
    pub checked: bool,
    /// Its dtype, if it is a tensor whose dtype is known.
    pub dtype: Option<DType>,
    /// Its dimensions, if it is a tensor whose rank is known.
    pub dims: Option<&'a [DimShown]>,
}

/// One dimension of a checked value, for comparing with a declared one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DimShown {
    /// A number.
    Const(i64),
    /// A symbol or an expression over symbols.
    Sym(String),
    /// Not known.
    Unknown,
}

/// A tensor type's dims and dtype, when it is a tensor of known rank.
pub(crate) fn tensor_parts(solver: &mut Solver, t: Ty) -> Option<(Vec<Dim>, DTy)> {
    let t = solver.resolve(t);
    let TyData::Tensor(s, dt) = *solver.tcx.data(t) else {
        return None;
    };
    Some((solver.tcx.shape_dims(s)?.to_vec(), dt))
}

/// Reads and checks a model from its bytes (weights are not copied: the returned types
/// borrow nothing, and the buffer is dropped after reading). The graph's nodes and
/// initializers are found by walking the wire ([`GraphRef::read`]), not decoded into a
/// message each.
pub fn check_bytes(bytes: bytes::Bytes) -> Result<Checked, LoadError> {
    check_bytes_as(bytes, false)
}

/// [`check_bytes`], keeping what the importer prints from: each node's Relay call and
/// each `If`'s branches (nodes are then typed one by one, none taken from a node typed
/// before).
pub(crate) fn check_bytes_recorded(bytes: bytes::Bytes) -> Result<Checked, LoadError> {
    check_bytes_as(bytes, true)
}

fn check_bytes_as(bytes: bytes::Bytes, record: bool) -> Result<Checked, LoadError> {
    let head = crate::read_head(bytes)?;
    let raw = head.graph.as_ref().expect("read_head requires a graph");
    let graph_head = GraphHead::decode(raw.clone()).map_err(|e| {
        let e = crate::describe_decode_error(&e);
        LoadError(format!("its graph is not a readable `GraphProto`: {e}"))
    })?;
    let g = GraphRef::read(raw, &graph_head)
        .map_err(|e| LoadError(format!("its graph is not a readable `GraphProto`: {e}")))?;
    Ok(check_graph(&head.opset_import, Some(&g), record))
}

/// Checks a decoded model.
pub fn check_model(model: &ModelProto) -> Checked {
    let g = model.graph.as_ref().map(GraphRef::of);
    check_graph(&model.opset_import, g.as_ref(), false)
}

fn check_graph(opsets: &[OperatorSetIdProto], g: Option<&GraphRef<'_>>, record: bool) -> Checked {
    let registry = match relay_core::registry::global() {
        Ok(r) => r,
        Err(errors) => {
            let mut c = Checker::new(opsets, None);
            for e in errors {
                c.error(None, e.to_string(), Vec::new());
            }
            return c.finish();
        }
    };
    let mut c = Checker::new(opsets, Some(registry));
    if record {
        c.record = Some(Box::default());
    }
    for p in ops::problems() {
        c.error(None, p.clone(), Vec::new());
    }
    match g {
        Some(g) => c.graph(g),
        None => c.error(None, "the model has no graph".into(), Vec::new()),
    }
    c.finish()
}

struct Checker<'m> {
    registry: Option<&'static Registry>,
    solver: Solver,
    opsets: FxHashMap<String, i64>,
    slots: Vec<Slot>,
    names: Vec<&'m [u8]>,
    by_name: names::NameTable,
    /// The output types of nodes typed before, by [`NodeKey`], and the attribute
    /// encodings met, interned.
    node_memo: FxHashMap<NodeKey, Box<[Option<Ty>]>>,
    attr_ids: FxHashMap<Box<[u8]>, u32>,
    /// Each node input's slot (`NO_SLOT`: none), node `k`'s from `input_starts[k]`, as
    /// `order` looked them up.
    input_slots: Vec<u32>,
    input_starts: Vec<u32>,
    /// Each node's first output slot and number of outputs (its output slots are made
    /// before any node is typed, so that an output is set without a lookup by name).
    out_slots: Vec<(u32, u32)>,
    /// The type of an output slot not set yet.
    pending_ty: Ty,
    /// How many subgraphs this one is inside.
    depth: usize,
    /// Whether this graph is inside an iteration of a loop whose body is typed once per
    /// iteration (a loop in it is typed once: the iterations do not multiply).
    unrolled: bool,
    /// Vectors reused from node to node.
    scratch_bytes: Vec<u8>,
    scratch_inputs: Vec<Option<usize>>,
    scratch_args: Vec<Ty>,
    /// The mapping of each (domain, op type) met, and the Relay operator of each.
    found: FxHashMap<(&'m [u8], &'m [u8]), Option<&'static OnnxOp>>,
    defs: FxHashMap<*const OnnxOp, Option<&'static OpDef>>,
    syms: FxHashMap<String, Dim>,
    /// The elements of small integer tensors whose value is known, and of small float
    /// constants, by value.
    values: FxHashMap<usize, Box<[Dim]>>,
    floats: FxHashMap<usize, Box<[f64]>>,
    /// The element types of empty sequences (`SequenceEmpty`), which joins ignore.
    empty_elems: rustc_hash::FxHashSet<Ty>,
    /// The symbols made for sizes that depend on data.
    fresh: Vec<relay_core::Param>,
    sym_names: FxHashMap<String, String>,
    op_tys: FxHashMap<*const OpDef, OpScheme>,
    attr_cache: FxHashMap<(*const OpDef, String), Arc<Attrs>>,
    inputs: Vec<usize>,
    outputs: Vec<usize>,
    bindings: Vec<usize>,
    diagnostics: Vec<Diagnostic>,
    /// What the importer prints from, if it is kept ([`check_bytes_recorded`]), and the
    /// record of the subgraph typed last.
    record: Option<Box<GraphRecord>>,
    last_subgraph: Option<Box<GraphRecord>>,
}

impl<'m> Checker<'m> {
    /// What a relation gets for an input's value that is not known: when the input is a
    /// scalar or a vector of known length, a value of that many unknown elements (`?`), so
    /// a `Reshape` to a computed shape still has its rank; else a fresh type (the relation
    /// waits).
    fn unknown_value(&mut self, input: Ty) -> Ty {
        let t = self.solver.resolve(input);
        if let TyData::Tensor(shape, _) = *self.solver.tcx.data(t) {
            let len = match self.solver.tcx.shape_dims(shape) {
                Some([]) => Some(1),
                Some(&[n]) => self.solver.tcx.dims.as_const(n),
                _ => None,
            };
            if let Some(len) = len.filter(|&n| (0..=MAX_ELEMS as i64).contains(&n)) {
                let dims = vec![relay_core::Dims::ANY; len as usize];
                return self.solver.tcx.tensor_of(&dims, DType::INT64);
            }
        }
        self.solver.fresh_ty()
    }

    fn new(opset_import: &[OperatorSetIdProto], registry: Option<&'static Registry>) -> Self {
        let mut opsets = FxHashMap::default();
        for o in opset_import {
            let d = text(&o.domain);
            let d = if d == "ai.onnx" {
                String::new()
            } else {
                d.into_owned()
            };
            opsets.insert(d, o.version);
        }
        // IR version 2 models may omit the import: opset 1.
        opsets.entry(String::new()).or_insert(1);
        let mut solver = Solver::new(TyCtx::new());
        let pending_ty = solver.fresh_ty();
        Checker::with(registry, solver, pending_ty, opsets)
    }

    /// A checker over `solver` (a subgraph's shares its graph's).
    fn with(
        registry: Option<&'static Registry>,
        solver: Solver,
        pending_ty: Ty,
        opsets: FxHashMap<String, i64>,
    ) -> Self {
        Checker {
            registry,
            solver,
            opsets,
            slots: Vec::new(),
            names: Vec::new(),
            by_name: Default::default(),
            found: FxHashMap::default(),
            node_memo: FxHashMap::default(),
            attr_ids: FxHashMap::default(),
            scratch_bytes: Vec::new(),
            depth: 0,
            unrolled: false,
            out_slots: Vec::new(),
            input_slots: Vec::new(),
            input_starts: Vec::new(),
            pending_ty,
            scratch_inputs: Vec::new(),
            scratch_args: Vec::new(),
            defs: FxHashMap::default(),
            syms: FxHashMap::default(),
            fresh: Vec::new(),
            values: FxHashMap::default(),
            floats: FxHashMap::default(),
            empty_elems: Default::default(),
            sym_names: FxHashMap::default(),
            op_tys: FxHashMap::default(),
            attr_cache: FxHashMap::default(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            bindings: Vec::new(),
            diagnostics: Vec::new(),
            record: None,
            last_subgraph: None,
        }
    }

    fn finish(mut self) -> Checked {
        let record = self.take_record();
        let mut names = Vec::with_capacity(self.names.iter().map(|n| n.len()).sum());
        let mut name_ends = Vec::with_capacity(self.names.len());
        for n in &self.names {
            names.extend_from_slice(n);
            name_ends.push(u32::try_from(names.len()).unwrap_or(u32::MAX));
        }
        Checked {
            solver: self.solver,
            slots: self.slots,
            names,
            name_ends,
            inputs: self.inputs,
            outputs: self.outputs,
            bindings: self.bindings,
            diagnostics: self.diagnostics,
            record,
        }
    }

    /// The record of this graph, its values' names and types filled in.
    fn take_record(&mut self) -> Option<Box<GraphRecord>> {
        let mut r = self.record.take()?;
        r.names = self.names.iter().map(|n| Box::from(*n)).collect();
        r.tys = self.slots.iter().map(|s| s.ty).collect();
        r.inputs.extend(&self.inputs);
        r.outputs.clone_from(&self.outputs);
        Some(r)
    }

    /// Records what node `k` became.
    fn record_node(&mut self, g: &Nodes<'m>, k: usize, inputs: &[Option<usize>], kind: NodeKind) {
        let outputs = (0..g.outputs(k).len())
            .map(|j| {
                self.output_slot(k, j)
                    .filter(|&id| !self.names[id].is_empty())
            })
            .collect();
        if let Some(r) = self.record.as_mut() {
            r.nodes[k] = NodeRecord {
                node: node_ref(g, k),
                inputs: inputs.to_vec(),
                outputs,
                kind,
            };
        }
    }

    fn error(&mut self, node: Option<NodeRef>, message: String, notes: Vec<String>) {
        self.say(Severity::Error, node, message, notes);
    }

    fn warn(&mut self, node: Option<NodeRef>, message: String, notes: Vec<String>) {
        self.say(Severity::Warning, node, message, notes);
    }

    fn say(
        &mut self,
        severity: Severity,
        node: Option<NodeRef>,
        message: String,
        notes: Vec<String>,
    ) {
        self.diagnostics.push(Diagnostic {
            severity,
            node,
            message,
            notes,
            unsupported: false,
        });
    }

    fn unsupported(&mut self, node: Option<NodeRef>, message: String, notes: Vec<String>) {
        self.error(node, message, notes);
        if let Some(d) = self.diagnostics.last_mut() {
            d.unsupported = true;
        }
    }

    /// The value of this name, if it was made (not a node output still pending).
    fn slot(&self, name: &[u8]) -> Option<usize> {
        self.by_name
            .get(name, &self.names)
            .filter(|&id| self.slots[id].ready)
    }

    fn add_slot(&mut self, name: &'m [u8], ty: Ty, node: Option<usize>) -> usize {
        let id = self.slots.len();
        self.names.push(name);
        // The first value of a name is the one its users mean (ONNX gives each value one
        // producer; a second is ignored here).
        if !name.is_empty() {
            self.by_name.insert_first(name, id, &self.names);
        }
        self.slots.push(Slot {
            ty,
            node: node.map(|n| n as u32),
            ready: true,
            failed: false,
        });
        id
    }

    fn graph(&mut self, g: &GraphRef<'m>) {
        let nodes = match Nodes::read(&g.node) {
            Ok(n) => n,
            Err(e) => {
                self.error(None, e, Vec::new());
                return;
            }
        };
        let values = g.initializer.len() + g.input.len() + nodes.output_count();
        if self.slots.len() + values >= NO_SLOT as usize {
            self.error(
                None,
                "the graph has more than 4 billion values".into(),
                Vec::new(),
            );
            return;
        }
        self.by_name.reserve(values);
        self.slots.reserve(values);
        self.names.reserve(values);
        // Initializers first: a graph input of the same name is the initializer.
        for raw in &g.initializer {
            // One tensor decoded at a time (its data a slice of the file, never read).
            let t = match TensorView::read(raw) {
                Ok(t) => t,
                Err(e) => {
                    self.error(
                        None,
                        format!("an initializer is not a readable `TensorProto`: {e}"),
                        Vec::new(),
                    );
                    continue;
                }
            };
            let (t, name) = (&t, t.name);
            let ty = self.tensor_proto_ty(t);
            let id = self.add_slot(name, ty, None);
            if let Some(r) = self.record.as_mut() {
                r.initializers.push(id);
            }
            match int_data(t) {
                Ok(Some(v)) => {
                    let v: Box<[Dim]> = v
                        .into_iter()
                        .map(|c| self.solver.tcx.dims.konst(c))
                        .collect();
                    self.values.insert(id, v);
                }
                Ok(None) => {
                    if let Some(f) = crate::attr::float_data(t) {
                        self.floats.insert(id, f.into());
                    }
                }
                Err(e) => self.error(
                    None,
                    format!("initializer `{}`: {e}", text(t.name)),
                    Vec::new(),
                ),
            }
        }
        for vi in g.input {
            if self.by_name.get(&vi.name, &self.names).is_some() {
                continue;
            }
            let ty = match &vi.r#type {
                Some(tp) => self.decl_ty(tp),
                None => Ok(self.solver.fresh_ty()),
            };
            let ty = match ty {
                Ok(t) => t,
                Err(e) => {
                    self.unsupported(
                        None,
                        format!("graph input `{}`: {e}", text(&vi.name)),
                        Vec::new(),
                    );
                    self.solver.fresh_ty()
                }
            };
            let id = self.add_slot(&vi.name, ty, None);
            self.inputs.push(id);
        }
        let order = self.order(&nodes);
        if let Some(r) = self.record.as_mut() {
            r.nodes = (0..nodes.len())
                .map(|k| NodeRecord {
                    node: node_ref(&nodes, k),
                    inputs: Vec::new(),
                    outputs: Vec::new(),
                    kind: NodeKind::Other,
                })
                .collect();
            r.order.clone_from(&order);
        }
        for &n in &order {
            self.node(&nodes, n);
        }
        for k in 0..nodes.len() {
            for (j, o) in nodes.outputs(k).iter().enumerate() {
                match self.output_slot(k, j) {
                    Some(id) if !o.is_empty() && self.slots[id].ready => self.bindings.push(id),
                    _ => {}
                }
            }
        }
        for vi in g.output {
            match self.slot(&vi.name) {
                Some(id) => self.outputs.push(id),
                None => {
                    self.error(
                        None,
                        format!(
                            "graph output `{}` is not produced by any node, initializer or input",
                            text(&vi.name)
                        ),
                        Vec::new(),
                    );
                }
            }
        }
        self.compare_declared(g, &nodes);
    }

    /// The nodes in an order where each comes after the nodes making its inputs: the
    /// graph's own when it is one (ONNX requires it), else a topological sort; a cycle is
    /// an error naming a node on it, and its nodes are left out.
    fn order(&mut self, g: &Nodes<'m>) -> Vec<usize> {
        // Every node output goes into the table of names as pending, with its producer:
        // one table answers both whether the graph is sorted and who makes an input.
        let n = g.len();
        self.out_slots.reserve(n);
        for k in 0..n {
            let outs = g.outputs(k);
            self.out_slots
                .push((self.slots.len() as u32, outs.len() as u32));
            for &o in outs {
                let id = self.add_slot(o, self.pending_ty, Some(k));
                self.slots[id].ready = false;
            }
        }
        // Each input's value, looked up once (the table is larger than the caches: a
        // lookup is a miss), and whether the graph is sorted.
        self.input_slots.clear();
        self.input_starts.clear();
        self.input_starts.reserve(n + 1);
        let mut sorted = true;
        for k in 0..n {
            self.input_starts.push(self.input_slots.len() as u32);
            for i in g.inputs(k) {
                let id = if i.is_empty() {
                    None
                } else {
                    self.by_name.get(i, &self.names)
                };
                if let Some(id) = id {
                    if !self.slots[id].ready && self.slots[id].node.is_some_and(|p| p as usize >= k)
                    {
                        sorted = false;
                    }
                }
                self.input_slots.push(id.map_or(NO_SLOT, |id| id as u32));
            }
        }
        self.input_starts.push(self.input_slots.len() as u32);
        if sorted {
            return (0..n).collect();
        }
        let producer = |this: &Self, id: u32| match id {
            NO_SLOT => None,
            id if !this.slots[id as usize].ready => {
                this.slots[id as usize].node.map(|p| p as usize)
            }
            _ => None,
        };
        let mut indeg = vec![0usize; n];
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, d) in indeg.iter_mut().enumerate() {
            let (a, b) = (
                self.input_starts[k] as usize,
                self.input_starts[k + 1] as usize,
            );
            for j in a..b {
                if let Some(p) = producer(self, self.input_slots[j]) {
                    *d += 1;
                    users[p].push(k);
                }
            }
        }
        let mut ready: Vec<usize> = (0..n).filter(|&k| indeg[k] == 0).rev().collect();
        let mut out = Vec::with_capacity(n);
        while let Some(k) = ready.pop() {
            out.push(k);
            for &u in &users[k] {
                indeg[u] -= 1;
                if indeg[u] == 0 {
                    ready.push(u);
                }
            }
        }
        if out.len() < n {
            let on_cycle: Vec<usize> = (0..n).filter(|&k| indeg[k] > 0).collect();
            let first = on_cycle[0];
            let names: Vec<String> = on_cycle
                .iter()
                .take(5)
                .map(|&k| node_ref(g, k).to_string())
                .collect();
            self.error(
                Some(node_ref(g, first)),
                format!(
                    "the graph has a cycle: {} node{} depend on their own outputs",
                    on_cycle.len(),
                    if on_cycle.len() == 1 { "" } else { "s" }
                ),
                vec![format!("among them: {}", names.join(", "))],
            );
        }
        out
    }

    fn opset(&self, domain: &str) -> Option<i64> {
        self.opsets.get(domain).copied()
    }

    fn node(&mut self, g: &Nodes<'m>, k: usize) {
        let node = g.at(k);
        // Inputs: each must be a known value; one that failed stops this node quietly.
        let mut inputs = std::mem::take(&mut self.scratch_inputs);
        inputs.clear();
        let mut failed = false;
        let start = self.input_starts[k] as usize;
        for (i, name) in node.input().iter().enumerate() {
            if name.is_empty() {
                inputs.push(None);
                continue;
            }
            // As `order` looked it up.
            let id = match self.input_slots[start + i] {
                NO_SLOT => None,
                id => Some(id as usize),
            };
            match id {
                // Made by a node that was not typed (on a cycle, reported).
                Some(id) if !self.slots[id].ready => {
                    failed = true;
                    inputs.push(None);
                }
                Some(id) => {
                    failed |= self.slots[id].failed;
                    inputs.push(Some(id));
                }
                None => {
                    self.error(
                        Some(node_ref(g, k)),
                        format!(
                            "input {i} `{}` is not produced by any node, initializer or graph input",
                            text(name)
                        ),
                        Vec::new(),
                    );
                    failed = true;
                    inputs.push(None);
                }
            }
        }
        while inputs.last() == Some(&None) && node.input().last().is_some_and(|n| n.is_empty()) {
            inputs.pop();
        }
        // Control flow (subgraphs typed in the graph's scope), sequences and optionals.
        let structural = node.domain().is_empty()
            && (matches!(node.op_type(), b"If" | b"Loop" | b"Scan")
                || sequence::is_sequence_op(node.op_type())
                || (node.op_type() == b"Identity"
                    && inputs
                        .first()
                        .copied()
                        .flatten()
                        .is_some_and(|id| self.is_wrapped(self.slots[id].ty))));
        if structural {
            match node.op_type() {
                _ if failed => self.fail_outputs(node, k),
                b"If" => self.if_node(g, k, &inputs),
                b"Identity" => {
                    let t = self.slots[inputs[0].expect("checked above")].ty;
                    self.set_output(k, 0, t);
                    if self.record.is_some() {
                        self.record_node(g, k, &inputs, NodeKind::Pass);
                    }
                }
                op => {
                    // The body a `Loop`, `Scan` or `SequenceMap` typed, recorded with it.
                    self.last_subgraph = None;
                    match op {
                        b"Loop" => self.loop_node(g, k, &inputs),
                        b"Scan" => self.scan_node(g, k, &inputs),
                        _ => self.sequence_node(g, k, &inputs),
                    }
                    if self.record.is_some() {
                        let body = self.last_subgraph.take();
                        let attrs = node
                            .attribute()
                            .map(|a| IntAttrs::of(&a))
                            .unwrap_or_default();
                        let kind = match op {
                            b"Loop" => NodeKind::Loop { body },
                            b"Scan" => NodeKind::Scan {
                                body,
                                attrs,
                                batched: self.opset("").is_some_and(|v| v < 9),
                            },
                            _ => NodeKind::Sequence { attrs, body },
                        };
                        self.record_node(g, k, &inputs, kind);
                    }
                }
            }
            self.scratch_inputs = inputs;
            return;
        }
        let key = (node.domain(), node.op_type());
        let op = match self.found.get(&key) {
            Some(&op) => op,
            None => {
                let (domain, op_type) = (text(node.domain()), text(node.op_type()));
                let op = self
                    .opset(&domain)
                    .and_then(|v| ops::find(&domain, &op_type, v));
                self.found.insert(key, op);
                op
            }
        };
        let Some(op) = op.filter(|_| !failed) else {
            if !failed {
                let (domain, op_type) = (text(node.domain()), text(node.op_type()));
                let version = self.opset(&domain);
                let shown = if domain.is_empty() {
                    "ai.onnx".to_string()
                } else {
                    domain.to_string()
                };
                let message = match version {
                    None => format!("domain `{shown}` of `{op_type}` is not imported by the model (no `opset_import` entry)"),
                    Some(v) => {
                        let vs = ops::versions(&domain, &op_type);
                        if vs.is_empty() {
                            format!("operator `{shown}.{op_type}` (opset {v}) is not supported")
                        } else {
                            format!(
                                "operator `{shown}.{op_type}` is supported from opset {} on, and the model imports opset {v}",
                                vs[0]
                            )
                        }
                    }
                };
                self.unsupported(
                    Some(node_ref(g, k)),
                    message,
                    vec!["the nodes that use its outputs are not checked".into()],
                );
            }
            self.fail_outputs(node, k);
            self.scratch_inputs = inputs;
            return;
        };
        // A node of the mapping, attributes and known input types of one typed before
        // has that one's outputs (a model repeats its blocks).
        let key = match self.record {
            // Each node recorded as its own call.
            Some(_) => None,
            None => self.node_key(g, k, op, &inputs),
        };
        if let Some(outs) = key.as_ref().and_then(|key| self.node_memo.get(key)) {
            let outs = outs.clone();
            for (j, t) in outs.iter().enumerate() {
                if let Some(t) = *t {
                    self.set_output(k, j, t);
                }
            }
            self.scratch_inputs = inputs;
            return;
        }
        if !self.apply(g, k, op, &inputs) {
            self.fail_outputs(node, k);
        } else if let Some(key) = key {
            self.remember(node, k, key);
        }
        self.scratch_inputs = inputs;
    }

    /// The key node `k` is remembered by, if it may be: an operator of no data-dependent
    /// size, inputs of known types without values (a value flows through a node, which
    /// must run) and at most [`KEY_INPUTS`] of them, and no value made from types.
    fn node_key(
        &mut self,
        g: &Nodes<'m>,
        k: usize,
        op: &'static OnnxOp,
        inputs: &[Option<usize>],
    ) -> Option<NodeKey> {
        if inputs.len() > KEY_INPUTS
            || g.outputs(k).len() > u8::MAX as usize
            || op.value_from_types
            || op.args.iter().any(|a| matches!(a, Arg::Fresh))
        {
            return None;
        }
        let mut tys = [None; KEY_INPUTS];
        for (j, i) in inputs.iter().enumerate() {
            if let Some(id) = *i {
                let slot = &self.slots[id];
                if self.values.contains_key(&id) || self.floats.contains_key(&id) {
                    return None;
                }
                let t = self.solver.resolve(slot.ty);
                if self.solver.tcx.has_vars(t) {
                    return None;
                }
                tys[j] = Some(t);
            }
        }
        // The attributes by their encoding, interned.
        let raw = g.raw_attributes(k);
        let attrs = if raw.is_empty() {
            0
        } else {
            let mut buf = std::mem::take(&mut self.scratch_bytes);
            buf.clear();
            for a in raw {
                buf.extend_from_slice(&(a.len() as u64).to_le_bytes());
                buf.extend_from_slice(a);
            }
            let n = self.attr_ids.len() as u32 + 1;
            let id = match self.attr_ids.get(buf.as_slice()) {
                Some(&id) => id,
                None => {
                    self.attr_ids.insert(buf.as_slice().into(), n);
                    n
                }
            };
            self.scratch_bytes = buf;
            id
        };
        Some(NodeKey {
            op: op as *const OnnxOp as usize,
            attrs,
            inputs: inputs.len() as u8,
            outputs: g.outputs(k).len() as u8,
            tys,
        })
    }

    /// Remembers node `k`'s output types under `key` if they are all known.
    fn remember(&mut self, node: NodeAt<'_, 'm>, k: usize, key: NodeKey) {
        let mut outs = Vec::with_capacity(node.output().len());
        for (j, o) in node.output().iter().enumerate() {
            let t = match self.output_slot(k, j) {
                Some(id) if !o.is_empty() && self.slots[id].ready => {
                    let slot = &self.slots[id];
                    if self.values.contains_key(&id) {
                        return;
                    }
                    self.solver.resolve(slot.ty)
                }
                _ => {
                    outs.push(None);
                    continue;
                }
            };
            if self.solver.tcx.has_vars(t) {
                return;
            }
            outs.push(Some(t));
        }
        self.node_memo.insert(key, outs.into());
    }

    fn fail_outputs(&mut self, node: NodeAt<'_, 'm>, k: usize) {
        for (j, o) in node.output().iter().enumerate() {
            if !o.is_empty() {
                let t = self.solver.fresh_ty();
                if let Some(id) = self.set_output(k, j, t) {
                    self.slots[id].failed = true;
                }
            }
        }
    }

    /// The slot of node `k`'s output `j`.
    fn output_slot(&self, k: usize, j: usize) -> Option<usize> {
        let (base, n) = *self.out_slots.get(k)?;
        (j < n as usize).then(|| base as usize + j)
    }

    /// Sets the type of node `k`'s output `j`; its slot.
    fn set_output(&mut self, k: usize, j: usize, ty: Ty) -> Option<usize> {
        let id = self.output_slot(k, j)?;
        let slot = &mut self.slots[id];
        slot.ty = ty;
        slot.ready = true;
        Some(id)
    }

    /// A warning for the outputs of node `k` that its relations left unknown though its
    /// inputs' types are known (the relation waits for what never comes), naming the
    /// inputs whose values are not known: else the output is shown as `'t` with no word.
    fn warn_if_waiting(
        &mut self,
        g: &Nodes<'m>,
        k: usize,
        op: &'static OnnxOp,
        inputs: &[Option<usize>],
        outs: &[Ty],
    ) {
        let is_var = |c: &mut Self, t: Ty| {
            let t = c.solver.resolve(t);
            matches!(c.solver.tcx.data(t), TyData::Var(_))
        };
        let waiting: Vec<usize> = (0..outs.len().min(g.at(k).output().len()))
            .filter(|&j| !g.at(k).output()[j].is_empty() && is_var(self, outs[j]))
            .collect();
        if waiting.is_empty() {
            return;
        }
        // An input whose own type is not known (or that failed) explains it already.
        for &id in inputs.iter().flatten() {
            if self.slots[id].failed || is_var(self, self.slots[id].ty) {
                return;
            }
        }
        let node = g.at(k);
        let outputs: Vec<String> = waiting
            .iter()
            .map(|&j| format!("`{}`", text(node.output()[j])))
            .collect();
        let missing: Vec<String> = op
            .args
            .iter()
            .filter_map(|a| match *a {
                Arg::Value(i) => inputs.get(i).copied().flatten().map(|id| (i, id)),
                _ => None,
            })
            .filter(|(_, id)| !self.values.contains_key(id))
            .map(|(i, id)| format!("input {i} `{}`", text(self.names[id])))
            .collect();
        let (s, them) = if waiting.len() == 1 {
            ("", "it")
        } else {
            ("s", "them")
        };
        let why = if missing.is_empty() {
            format!(
                "the relation of `{}` cannot tell {them} from the inputs' types",
                op.relay
            )
        } else {
            format!("the value of {} is not known", missing.join(" and "))
        };
        self.warn(
            Some(node_ref(g, k)),
            format!(
                "the type of output{s} {} is not known: {why}",
                outputs.join(", ")
            ),
            Vec::new(),
        );
    }

    /// Types node `k` through its mapping; false if it could not be (reported).
    fn apply(
        &mut self,
        g: &Nodes<'m>,
        k: usize,
        op: &'static OnnxOp,
        inputs: &[Option<usize>],
    ) -> bool {
        // The arguments' vector is the checker's, reused from node to node.
        let mut args = std::mem::take(&mut self.scratch_args);
        args.clear();
        let ok = self.apply_with(g, k, op, inputs, &mut args);
        self.scratch_args = args;
        ok
    }

    fn apply_with(
        &mut self,
        g: &Nodes<'m>,
        k: usize,
        op: &'static OnnxOp,
        inputs: &[Option<usize>],
        args: &mut Vec<Ty>,
    ) -> bool {
        let node = g.at(k);
        let here = || node_ref(g, k);
        let def = match self.defs.get(&(op as *const OnnxOp)) {
            Some(&d) => d,
            None => {
                let d = self.registry.and_then(|r| r.op(op.relay));
                self.defs.insert(op as *const OnnxOp, d);
                d
            }
        };
        let Some(def) = def else {
            self.error(
                Some(here()),
                format!(
                    "its mapping names Relay operator `{}`, which is not registered",
                    op.relay
                ),
                Vec::new(),
            );
            return false;
        };
        let decoded = match node.attribute() {
            Ok(a) => a,
            Err(e) => {
                self.error(Some(here()), e, Vec::new());
                return false;
            }
        };
        let attrs = NodeAttrs::new(&decoded);
        // An input the mapping does not read is a mistake of the model's, not silence.
        let takes = op_inputs(op);
        if inputs.len() > takes {
            let n = inputs.len();
            self.error(
                Some(here()),
                format!(
                    "it has {n} inputs, and `{}` takes at most {takes} (opset {} on)",
                    text(node.op_type()),
                    op.since
                ),
                Vec::new(),
            );
            return false;
        }
        // Arguments.
        for a in op.args {
            let t = match *a {
                Arg::In(i) => match inputs.get(i).copied().flatten() {
                    Some(id) => self.slots[id].ty,
                    None => {
                        self.error(
                            Some(here()),
                            format!("input {i} is required but not given"),
                            Vec::new(),
                        );
                        return false;
                    }
                },
                Arg::Opt(i) => match inputs.get(i).copied().flatten() {
                    Some(id) => self.slots[id].ty,
                    None => self.solver.tcx.tuple(&[]),
                },
                Arg::Value(i) => match inputs.get(i).copied().flatten() {
                    Some(id) => match self.values.get(&id).cloned() {
                        Some(v) => self.solver.tcx.tensor_of(&v, DType::INT64),
                        None => self.unknown_value(self.slots[id].ty),
                    },
                    None => self.solver.tcx.tuple(&[]),
                },
                Arg::Rest(i) => {
                    let mut fields = Vec::new();
                    for (j, input) in inputs.iter().enumerate().skip(i) {
                        match *input {
                            Some(id) => fields.push(self.slots[id].ty),
                            None => {
                                self.error(
                                    Some(here()),
                                    format!("input {j} is required but not given"),
                                    Vec::new(),
                                );
                                return false;
                            }
                        }
                    }
                    self.solver.tcx.tuple(&fields)
                }
                Arg::AttrInts(name) => match attrs.get(name) {
                    Some(a) if crate::attr::kind(a) == crate::proto::AttributeType::Ints => {
                        let dims: Vec<Dim> = a
                            .ints
                            .iter()
                            .map(|&c| self.solver.tcx.dims.konst(c))
                            .collect();
                        self.solver.tcx.tensor_of(&dims, DType::INT64)
                    }
                    Some(a) => {
                        let t = crate::attr::kind(a).name();
                        self.error(
                            Some(here()),
                            format!("attribute `{name}` is of type {t}, and must be INTS"),
                            Vec::new(),
                        );
                        return false;
                    }
                    None => self.solver.tcx.tuple(&[]),
                },
                Arg::Fresh => {
                    let name = fresh_name(node, k);
                    let d = self.fresh_symbol(&name);
                    self.solver.tcx.tensor_of(&[d], DType::INT64)
                }
            };
            args.push(t);
        }
        // Attributes.
        let mut given: Vec<(Box<str>, AttrValue)> = Vec::new();
        for m in op.attrs {
            let value = match m.from {
                AttrFrom::Attr(name) | AttrFrom::AttrOr(name, _) => match attrs.get(name) {
                    Some(a) => match attrs.relay_value(a) {
                        Ok(v) => Some(v),
                        Err(e) => {
                            self.error(Some(here()), e, Vec::new());
                            return false;
                        }
                    },
                    None => match m.from {
                        AttrFrom::AttrOr(_, d) => Some(d.value()),
                        _ => None,
                    },
                },
                AttrFrom::Const(c) => Some(c.value()),
                AttrFrom::With(f) => match f(&attrs) {
                    Ok(v) => v,
                    Err(e) if e.unsupported => {
                        self.unsupported(Some(here()), e.message, Vec::new());
                        return false;
                    }
                    Err(e) => {
                        self.error(Some(here()), e.message, Vec::new());
                        return false;
                    }
                },
                AttrFrom::Floats(i) => inputs
                    .get(i)
                    .copied()
                    .flatten()
                    .and_then(|id| self.floats.get(&id).cloned())
                    .map(|v| AttrValue::List(v.iter().map(|&f| AttrValue::Float(f)).collect())),
                AttrFrom::Input(i) => match inputs.get(i).copied().flatten() {
                    None => None,
                    Some(id) => {
                        let Some(v) = self.values.get(&id).cloned() else {
                            self.warn(
                                Some(here()),
                                format!(
                                    "its outputs are not known: input {i} `{}` gives attribute `{}`, and its value is not known",
                                    text(self.names[id]), m.relay
                                ),
                                Vec::new(),
                            );
                            return false;
                        };
                        let mut ints = Vec::with_capacity(v.len());
                        for d in v.iter() {
                            let d = self.solver.resolve_dim(*d);
                            match self.solver.tcx.dims.as_const(d) {
                                Some(c) => ints.push(c),
                                None => {
                                    let shown = self.solver.tcx.show_dim(d);
                                    self.warn(
                                        Some(here()),
                                        format!("its outputs are not known: input {i} `{}` gives attribute `{}`, and its value has `{shown}`, which is not a constant", text(self.names[id]), m.relay),
                                        Vec::new(),
                                    );
                                    return false;
                                }
                            }
                        }
                        let scalar = matches!(
                            def.attr(m.relay).map(|a| a.ty),
                            Some(AttrType::Int | AttrType::Option(AttrType::Int))
                        );
                        Some(if scalar && ints.len() == 1 {
                            AttrValue::Int(ints[0])
                        } else {
                            AttrValue::List(ints.into_iter().map(AttrValue::Int).collect())
                        })
                    }
                },
            };
            if let Some(v) = value {
                // ONNX writes booleans as ints (`keepdims=1`).
                let v = match (def.attr(m.relay).map(|a| a.ty), v) {
                    (
                        Some(AttrType::Bool | AttrType::Option(AttrType::Bool)),
                        AttrValue::Int(i),
                    ) => AttrValue::Bool(i != 0),
                    (_, v) => v,
                };
                given.push((m.relay.into(), v));
            }
        }
        // The filled attributes, shared by every node of the operator with the same
        // attributes (so that the solver's memo of results keys them alike).
        let recorded_attrs = self.record.is_some().then(|| given.clone());
        let mut key = String::new();
        for (n, v) in &given {
            use std::fmt::Write as _;
            let _ = write!(key, "{n}={v};");
        }
        let cache_key = (def as *const OpDef, key);
        let attrs_filled = match self.attr_cache.get(&cache_key) {
            Some(a) => a.clone(),
            None => {
                let filled = match def.attrs_for_call(&Attrs::new(given)) {
                    Ok(a) => a,
                    Err(e) => {
                        // Named as the node has it: its ONNX attribute and type.
                        let onnx = op.attrs.iter().find(|m| *m.relay == *e.attr).and_then(|m| {
                            match m.from {
                                AttrFrom::Attr(n) | AttrFrom::AttrOr(n, _) => {
                                    attrs.get(n).map(|a| (n, a))
                                }
                                _ => None,
                            }
                        });
                        let message = match (onnx, def.attr(&e.attr)) {
                            (Some((n, a)), Some(want)) => format!(
                                "attribute `{n}` is {}, and `{}` takes {}",
                                crate::attr::kind(a).name(),
                                text(node.op_type()),
                                onnx_attr_type(want.ty)
                            ),
                            _ => e.message,
                        };
                        self.error(Some(here()), message, Vec::new());
                        return false;
                    }
                };
                let filled = Arc::new(filled);
                self.attr_cache.insert(cache_key, filled.clone());
                filled
            }
        };
        // The call: an operator of the common scheme (`fn<a.., r>(a..) -> r where R`)
        // puts its relation straight over the arguments and a fresh result; one whose
        // inputs are known and were seen before takes the remembered result.
        let n_out = node.output().len().max(1);
        let scheme = self.op_scheme(def);
        let outs: Vec<Ty> = match scheme.relation.filter(|_| scheme.arity == args.len()) {
            Some(rel) => {
                let ret = match op.outputs {
                    Outputs::One => self.solver.remembered(rel, Some(&attrs_filled), args),
                    Outputs::Each => None,
                };
                match (ret, op.outputs) {
                    (Some(t), _) => vec![t],
                    (None, Outputs::One) => {
                        let ret = self.solver.fresh_ty();
                        args.push(ret);
                        self.solver.add_op_relation(
                            def.name,
                            rel,
                            args,
                            Some(attrs_filled),
                            k as u32,
                        );
                        args.pop();
                        vec![ret]
                    }
                    (None, Outputs::Each) => {
                        let fields: Vec<Ty> = (0..n_out).map(|_| self.solver.fresh_ty()).collect();
                        let ret = self.solver.tcx.tuple(&fields);
                        args.push(ret);
                        self.solver.add_op_relation(
                            def.name,
                            rel,
                            args,
                            Some(attrs_filled),
                            k as u32,
                        );
                        args.pop();
                        fields
                    }
                }
            }
            None => {
                let Some(outs) = self.instantiate_call(g, k, op, def, args, attrs_filled) else {
                    return false;
                };
                outs
            }
        };
        if let Some(attrs) = recorded_attrs {
            let call = Call {
                op,
                args: args.clone(),
                attrs,
                outs: outs.clone(),
            };
            self.record_node(g, k, inputs, NodeKind::Call(call));
        }
        let mut ok = true;
        let errors = self.solver.solve_queue();
        if !errors.is_empty() {
            for e in errors {
                let at = e.origin as usize;
                let mut notes = e.notes.clone();
                if at == k {
                    // The types the node was given, the blamed one marked.
                    let mut shown = Vec::new();
                    for (j, a) in op.args.iter().enumerate().take(8) {
                        if matches!(a, Arg::Fresh) || j >= args.len() {
                            continue;
                        }
                        let t = self.solver.resolve(args[j]);
                        if matches!(self.solver.tcx.data(t), TyData::Tuple(f) if f.is_empty()) {
                            continue;
                        }
                        let what = self.arg_name(node, op, j);
                        let mark = if e.arg == Some(j) { " (here)" } else { "" };
                        let value = matches!(a, Arg::Value(_) | Arg::AttrInts(_));
                        let text = match (value, self.solver.tcx.data(t)) {
                            // A value is shown as the list it is.
                            (true, &TyData::Tensor(s, _)) => match self.solver.tcx.shape_dims(s) {
                                Some(dims) => {
                                    let dims: Vec<String> =
                                        dims.iter().map(|&d| self.solver.tcx.show_dim(d)).collect();
                                    format!("[{}]", dims.join(", "))
                                }
                                None => "not known".into(),
                            },
                            _ => format!("`{}`", self.solver.tcx.show_within(t, 200)),
                        };
                        shown.push(format!("{what}: {text}{mark}"));
                    }
                    notes.splice(0..0, shown);
                }
                let message = e.message.clone();
                self.error(Some(node_ref(g, at.min(g.len() - 1))), message, notes);
            }
            // Its outputs are still added: what is known of them is kept.
            ok = false;
        }
        for (j, o) in node.output().iter().enumerate() {
            if o.is_empty() {
                continue;
            }
            let t = match outs.get(j) {
                Some(&t) => t,
                None => {
                    self.error(
                        Some(here()),
                        format!("output {j} `{}` is not one this operator gives", text(o)),
                        Vec::new(),
                    );
                    self.solver.fresh_ty()
                }
            };
            if let Some(id) = self.set_output(k, j, t) {
                self.slots[id].failed = !ok;
            }
        }
        if ok {
            self.warn_if_waiting(g, k, op, inputs, &outs);
        }
        // Values: a value function runs when an input has a value, or always when it
        // makes values from types.
        let runs = || {
            op.value_from_types
                || inputs
                    .iter()
                    .flatten()
                    .any(|&id| self.values.contains_key(&id) || self.floats.contains_key(&id))
        };
        if ok && op.value.is_some() && runs() {
            if let (Some(f), Some(_)) = (op.value, node.output().first().filter(|o| !o.is_empty()))
            {
                let vals: Vec<Option<Box<[Dim]>>> = inputs
                    .iter()
                    .map(|i| i.and_then(|id| self.values.get(&id).cloned()))
                    .collect();
                let views: Vec<Option<&[Dim]>> = vals.iter().map(|v| v.as_deref()).collect();
                let fviews: Vec<Option<&[f64]>> = inputs
                    .iter()
                    .map(|i| i.and_then(|id| self.floats.get(&id).map(|f| &**f)))
                    .collect();
                let tys: Vec<Option<Ty>> = inputs
                    .iter()
                    .map(|i| i.map(|id| self.slots[id].ty))
                    .collect();
                let mut cx = ValueCx {
                    solver: &mut self.solver,
                    inputs: &views,
                    input_floats: &fviews,
                    input_tys: &tys,
                    output_tys: &outs,
                    attrs: &attrs,
                    floats: None,
                    later: Vec::new(),
                };
                let v = f(&mut cx);
                let floats = cx.floats.take();
                let later = std::mem::take(&mut cx.later);
                if let Some(id) = self.output_slot(k, 0) {
                    if let Some(v) = v.filter(|v| v.len() <= MAX_ELEMS) {
                        self.values.insert(id, v.into());
                    }
                    if let Some(f) = floats {
                        self.floats.insert(id, f);
                    }
                }
                for (j, v) in later.into_iter().enumerate() {
                    let slot = self.output_slot(k, j + 1);
                    if let (Some(id), Some(v)) = (slot, v.filter(|v| v.len() <= MAX_ELEMS)) {
                        self.values.insert(id, v.into());
                    }
                }
            }
        }
        ok
    }

    /// A call of an operator of another scheme: its type instantiated, the arguments
    /// unified with its parameters, its constraints added; the outputs' types, or `None`
    /// after reporting why not.
    fn instantiate_call(
        &mut self,
        g: &Nodes<'m>,
        k: usize,
        op: &'static OnnxOp,
        def: &'static OpDef,
        args: &[Ty],
        attrs: Arc<Attrs>,
    ) -> Option<Vec<Ty>> {
        let node = g.at(k);
        let fty = self.op_scheme(def).ty;
        let (params, ret, constraints) = match self.solver.instantiate(fty) {
            Ok(x) => x,
            Err(e) => {
                self.error(
                    Some(node_ref(g, k)),
                    format!("`{}`: {e}", def.name),
                    Vec::new(),
                );
                return None;
            }
        };
        if params.len() != args.len() {
            self.error(
                Some(node_ref(g, k)),
                format!(
                    "its mapping gives Relay operator `{}` {} arguments, and it takes {}",
                    def.name,
                    args.len(),
                    params.len()
                ),
                Vec::new(),
            );
            return None;
        }
        let outs = match op.outputs {
            Outputs::One => vec![ret],
            Outputs::Each => {
                let fields: Vec<Ty> = (0..node.output().len().max(1))
                    .map(|_| self.solver.fresh_ty())
                    .collect();
                let tuple = self.solver.tcx.tuple(&fields);
                if let Err(e) = self.solver.unify(ret, tuple) {
                    let d = e.describe(&self.solver.tcx);
                    self.error(
                        Some(node_ref(g, k)),
                        format!("its outputs: {d}"),
                        Vec::new(),
                    );
                    return None;
                }
                fields
            }
        };
        let mut ok = true;
        for (j, (&p, &a)) in params.iter().zip(args).enumerate() {
            if let Err(e) = self.solver.unify(p, a) {
                let d = e.describe(&self.solver.tcx);
                let what = self.arg_name(node, op, j);
                self.error(Some(node_ref(g, k)), format!("{what}: {d}"), Vec::new());
                ok = false;
            }
        }
        if !ok {
            return None;
        }
        self.solver
            .add_op_constraints(def.name, &constraints, Some(attrs), k as u32);
        Some(outs)
    }

    /// An operator's type, relation and arity ([`OpDef::scheme`]), once per operator.
    fn op_scheme(&mut self, def: &'static OpDef) -> OpScheme {
        if let Some(&s) = self.op_tys.get(&(def as *const OpDef)) {
            return s;
        }
        let s = def.scheme(&mut self.solver.tcx);
        self.op_tys.insert(def as *const OpDef, s);
        s
    }

    /// How a message names argument `j` of the mapping (or its result).
    fn arg_name(&self, node: NodeAt<'_, 'm>, op: &OnnxOp, j: usize) -> String {
        let input = |i: usize| match node.input().get(i) {
            Some(n) if !n.is_empty() => format!("input {i} `{}`", text(n)),
            _ => format!("input {i}"),
        };
        match op.args.get(j) {
            Some(Arg::In(i) | Arg::Opt(i)) => input(*i),
            Some(Arg::Value(i)) => format!("the value of {}", input(*i)),
            Some(Arg::Rest(i)) => format!("inputs {i}.."),
            Some(Arg::Fresh) => "its data-dependent size".into(),
            Some(Arg::AttrInts(name)) => format!("attribute `{name}`"),
            None => match node.output().first() {
                Some(o) if !o.is_empty() => format!("output `{}`", text(o)),
                _ => "its output".into(),
            },
        }
    }

    /// The rigid symbol of a `dim_param` (one per name).
    fn symbol(&mut self, name: &str) -> Dim {
        if let Some(&d) = self.syms.get(name) {
            return d;
        }
        let shown = self.printable(name);
        let p = self.solver.tcx.param(&shown, Kind::ShapeVar);
        let d = self.solver.tcx.dims.sym(p);
        self.syms.insert(name.to_string(), d);
        d
    }

    /// A new rigid symbol for a size that depends on data, named after its node (kept
    /// apart from the inputs' symbols and from every other).
    fn fresh_symbol(&mut self, name: &str) -> Dim {
        // Printable, and a name no other symbol has (`printable` keeps the names of
        // `dim_param`s apart; a key no `dim_param` can be stands for this one).
        let key = format!("{name}\u{0}{}", self.fresh.len());
        let mut shown = sanitize(name);
        let base = shown.clone();
        let mut n = 1;
        while self.sym_names.contains_key(&shown) && self.sym_names[&shown] != key {
            n += 1;
            shown = format!("{base}_{n}");
        }
        self.sym_names.insert(shown.clone(), key);
        let p = self.solver.tcx.param(&shown, Kind::ShapeVar);
        self.fresh.push(p);
        self.solver.tcx.dims.sym(p)
    }

    /// A symbol's name as Relay's text reads it back: letters, digits, `_` and `.`,
    /// not starting with a digit; other names are rewritten (`batch size` is
    /// `batch_size`) and kept apart from each other.
    fn printable(&mut self, name: &str) -> String {
        let mut s = sanitize(name);
        let base = s.clone();
        let mut n = 1;
        while let Some(other) = self.sym_names.get(&s) {
            if other == name {
                break;
            }
            n += 1;
            s = format!("{base}_{n}");
        }
        self.sym_names.insert(s.clone(), name.to_string());
        s
    }

    fn dtype(&mut self, elem: i32) -> Result<DTy, String> {
        Ok(DTy::Known(match onnx_dtype(elem) {
            Ok(d) => d,
            Err(Some(name)) => {
                // No Relay counterpart: an unknown element type, so the shape is still
                // checked.
                let _ = name;
                return Ok(self.solver.fresh_dtype());
            }
            Err(None) => return Err(format!("unknown ONNX data type {elem}")),
        }))
    }

    fn tensor_proto_ty(&mut self, t: &TensorView<'_>) -> Ty {
        let dt = match self.dtype(t.data_type) {
            Ok(d) => d,
            Err(e) => {
                self.error(
                    None,
                    format!("initializer `{}`: {e}", text(t.name)),
                    Vec::new(),
                );
                self.solver.fresh_dtype()
            }
        };
        let mut dims = Vec::with_capacity(t.dims.len());
        for &d in t.dims.iter() {
            if d < 0 {
                self.error(
                    None,
                    format!(
                        "initializer `{}` has a negative dimension {d}",
                        text(t.name)
                    ),
                    Vec::new(),
                );
                return self.solver.fresh_ty();
            }
            dims.push(self.solver.tcx.dims.konst(d));
        }
        let s = self.solver.tcx.shape(&dims);
        self.solver.tcx.tensor(s, dt)
    }

    /// The type a `ValueInfoProto` declares.
    fn decl_ty(&mut self, tp: &TypeProto) -> Result<Ty, String> {
        match &tp.value {
            Some(TypeValue::TensorType(t)) => {
                let dt = self.dtype(t.elem_type)?;
                let shape = match &t.shape {
                    None => self.solver.fresh_shape(),
                    Some(s) => {
                        let mut dims = Vec::with_capacity(s.dim.len());
                        for d in &s.dim {
                            dims.push(match &d.value {
                                Some(crate::proto::DimensionValue::DimValue(v)) if *v >= 0 => {
                                    self.solver.tcx.dims.konst(*v)
                                }
                                // Exporters write -1 for "unknown" (paddle2onnx).
                                Some(crate::proto::DimensionValue::DimValue(-1)) => {
                                    self.solver.fresh_dim()
                                }
                                Some(crate::proto::DimensionValue::DimValue(v)) => {
                                    return Err(format!("it declares a negative dimension {v}"))
                                }
                                // `?` is no name: paddle2onnx writes it for every unknown
                                // dimension, which one name would make equal.
                                Some(crate::proto::DimensionValue::DimParam(p))
                                    if !p.is_empty() && p.as_ref() != b"?" =>
                                {
                                    let name = text(p).into_owned();
                                    self.symbol(&name)
                                }
                                _ => self.solver.fresh_dim(),
                            });
                        }
                        self.solver.tcx.shape(&dims)
                    }
                };
                Ok(self.solver.tcx.tensor(shape, dt))
            }
            // `seq(T)` is `List[T]`, `optional(T)` is `Optional[T]`.
            Some(TypeValue::SequenceType(o)) | Some(TypeValue::OptionalType(o)) => {
                let elem = match o.elem_type.as_deref() {
                    Some(elem) => self.decl_ty(elem)?,
                    None => self.solver.fresh_ty(),
                };
                let name = match tp.value {
                    Some(TypeValue::SequenceType(_)) => "List",
                    _ => "Optional",
                };
                Ok(self.wrap(name, elem))
            }
            Some(TypeValue::MapType(_)) => Err("map types are not supported".into()),
            Some(TypeValue::SparseTensorType(_)) => {
                Err("sparse tensor types are not supported".into())
            }
            None => Ok(self.solver.fresh_ty()),
        }
    }

    /// Declared types (graph outputs, `value_info`) against the inferred ones: a
    /// disagreement is an error naming the node; a declared dimension less precise
    /// than the inferred one is not.
    fn compare_declared(&mut self, g: &GraphRef<'m>, nodes: &Nodes<'m>) {
        let declared = g
            .output
            .iter()
            .map(|v| (v, true))
            .chain(g.value_info.iter().map(|v| (v, false)));
        for (vi, is_output) in declared {
            let Some(id) = self.slot(&vi.name) else {
                continue;
            };
            if self.slots[id].failed {
                continue;
            }
            let Some(TypeValue::TensorType(tt)) = vi.r#type.as_ref().and_then(|t| t.value.as_ref())
            else {
                continue;
            };
            let inferred = self.solver.resolve(self.slots[id].ty);
            let TyData::Tensor(shape, dt) = *self.solver.tcx.data(inferred) else {
                continue;
            };
            let mut clashes = Vec::new();
            if let (Ok(want), DTy::Known(have)) = (onnx_dtype(tt.elem_type), dt) {
                if want != have {
                    clashes.push(format!("dtype: declared {want}, inferred {have}"));
                }
            }
            if let (Some(s), Some(dims)) = (
                &tt.shape,
                self.solver.tcx.shape_dims(shape).map(|d| d.to_vec()),
            ) {
                if s.dim.len() != dims.len() {
                    clashes.push(format!(
                        "rank: declared {}, inferred {}",
                        s.dim.len(),
                        dims.len()
                    ));
                } else {
                    for (i, (d, &have)) in s.dim.iter().zip(&dims).enumerate() {
                        let have_c = self.solver.tcx.dims.as_const(have);
                        match &d.value {
                            Some(crate::proto::DimensionValue::DimValue(v)) if *v >= 0 => {
                                if let Some(c) = have_c {
                                    if c != *v {
                                        clashes.push(format!(
                                            "dimension {i}: declared {v}, inferred {c}"
                                        ));
                                    }
                                } else if !self.solver.tcx.dims.has_vars(have)
                                    && !self.solver.tcx.dims.is_any(have)
                                    && !self
                                        .solver
                                        .tcx
                                        .dims
                                        .syms(have)
                                        .iter()
                                        .any(|p| self.fresh.contains(p))
                                {
                                    let shown = self.solver.tcx.show_dim(have);
                                    clashes.push(format!(
                                        "dimension {i}: declared {v}, inferred `{shown}`"
                                    ));
                                }
                            }
                            Some(crate::proto::DimensionValue::DimParam(p)) => {
                                // A symbol of the inputs must be inferred as itself.
                                let name = text(p);
                                if let (Some(&sym), Some(c)) =
                                    (self.syms.get(name.as_ref()), have_c)
                                {
                                    if self.inputs_mention(sym) {
                                        clashes.push(format!(
                                            "dimension {i}: declared `{name}`, inferred {c}"
                                        ));
                                    }
                                }
                            }
                            _ => {}
                        }
                    }
                }
            }
            if !clashes.is_empty() {
                let declared_ty = self.show_declared(tt);
                let inferred_ty = self.solver.tcx.show(inferred);
                let what = if is_output { "graph output" } else { "value" };
                let node = self.slots[id].node.map(|n| node_ref(nodes, n as usize));
                self.error(
                    node,
                    format!(
                        "{what} `{}` is declared `{declared_ty}` but inferred `{inferred_ty}`",
                        text(self.names[id])
                    ),
                    clashes,
                );
            }
        }
    }

    fn inputs_mention(&self, sym: Dim) -> bool {
        self.inputs.iter().any(|&i| {
            let t = self.slots[i].ty;
            match self.solver.tcx.data(t) {
                TyData::Tensor(s, _) => self
                    .solver
                    .tcx
                    .shape_dims(*s)
                    .is_some_and(|d| d.contains(&sym)),
                _ => false,
            }
        })
    }

    fn show_declared(&self, tt: &crate::proto::TensorTypeProto) -> String {
        let dt = onnx_dtype(tt.elem_type)
            .map_or_else(|_| format!("elem_type {}", tt.elem_type), |d| d.to_string());
        let Some(s) = &tt.shape else {
            return format!("Tensor[?, {dt}]");
        };
        let dims: Vec<String> = s
            .dim
            .iter()
            .map(|d| match &d.value {
                Some(crate::proto::DimensionValue::DimValue(v)) => v.to_string(),
                Some(crate::proto::DimensionValue::DimParam(p)) => text(p).into_owned(),
                None => "?".into(),
            })
            .collect();
        format!("Tensor[({}), {dt}]", dims.join(", "))
    }
}

/// How ONNX names the attribute type a Relay attribute type reads.
fn onnx_attr_type(t: AttrType) -> &'static str {
    match t {
        AttrType::Int | AttrType::Bool => "an INT",
        AttrType::Float => "a FLOAT",
        AttrType::Str | AttrType::DType => "a STRING",
        AttrType::List(AttrType::Float) => "FLOATS",
        AttrType::List(AttrType::Str) => "STRINGS",
        AttrType::List(_) => "INTS",
        AttrType::Option(t) => onnx_attr_type(*t),
        AttrType::Either(..) => "an INT or INTS",
    }
}

/// The most inputs a mapping reads (`usize::MAX` for a variadic one).
fn op_inputs(op: &OnnxOp) -> usize {
    let mut n = 0;
    for a in op.args {
        match *a {
            Arg::In(i) | Arg::Opt(i) | Arg::Value(i) => n = n.max(i + 1),
            Arg::Rest(_) => return usize::MAX,
            Arg::Fresh | Arg::AttrInts(_) => {}
        }
    }
    for m in op.attrs {
        if let AttrFrom::Input(i) | AttrFrom::Floats(i) = m.from {
            n = n.max(i + 1);
        }
    }
    n
}

/// `name` with the characters Relay's text does not read in a name replaced by `_`, and
/// `_` before a leading digit.
fn sanitize(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        s.insert(0, '_');
    }
    s
}

/// No slot: an input that names nothing (or is absent).
const NO_SLOT: u32 = u32::MAX;

/// The most inputs of a node remembered by its inputs' types.
const KEY_INPUTS: usize = 6;

/// What a node's output types follow from: its mapping, its attributes (interned by
/// their encoding), and its inputs' types (`None` for an absent input).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct NodeKey {
    op: usize,
    attrs: u32,
    inputs: u8,
    outputs: u8,
    tys: [Option<Ty>; KEY_INPUTS],
}

/// The name of the fresh symbol a data-dependent node makes: its name, or its op type
/// and index.
fn fresh_name(node: NodeAt<'_, '_>, k: usize) -> String {
    if node.name().is_empty() {
        format!("{}_{k}", text(node.op_type()))
    } else {
        text(node.name()).into_owned()
    }
}

fn node_ref(g: &Nodes<'_>, k: usize) -> NodeRef {
    let node = g.at(k);
    let domain = text(node.domain());
    let op = text(node.op_type());
    NodeRef {
        index: k,
        name: text(node.name()).into_owned(),
        op_type: if domain.is_empty() || domain == "ai.onnx" {
            op.into_owned()
        } else {
            format!("{domain}.{op}")
        },
    }
}

/// The Relay dtype of an ONNX element type; `Err(Some(name))` for a type Relay has no
/// counterpart of, `Err(None)` for a number ONNX does not define.
pub fn onnx_dtype(elem: i32) -> Result<DType, Option<&'static str>> {
    use relay_core::DTypeCode::*;
    let d = |code, bits, name| DType::new(code, bits, 1).ok_or(Some(name));
    match elem {
        1 => Ok(DType::FLOAT32),
        2 => Ok(DType::UINT8),
        3 => Ok(DType::INT8),
        4 => d(UInt, 16, "UINT16"),
        5 => Ok(DType::INT16),
        6 => Ok(DType::INT32),
        7 => Ok(DType::INT64),
        8 => Ok(DType::STRING),
        9 => Ok(DType::BOOL),
        10 => Ok(DType::FLOAT16),
        11 => Ok(DType::FLOAT64),
        12 => d(UInt, 32, "UINT32"),
        13 => d(UInt, 64, "UINT64"),
        14 => Err(Some("COMPLEX64")),
        15 => Err(Some("COMPLEX128")),
        16 => Ok(DType::BFLOAT16),
        17 => d(Float8E4M3FN, 8, "FLOAT8E4M3FN"),
        18 => d(Float8E4M3FNUZ, 8, "FLOAT8E4M3FNUZ"),
        19 => d(Float8E5M2, 8, "FLOAT8E5M2"),
        20 => d(Float8E5M2FNUZ, 8, "FLOAT8E5M2FNUZ"),
        21 => d(UInt, 4, "UINT4"),
        22 => d(Int, 4, "INT4"),
        23 => d(Float4E2M1FN, 4, "FLOAT4E2M1"),
        24 => d(Float8E8M0FNU, 8, "FLOAT8E8M0"),
        25 => d(UInt, 2, "UINT2"),
        26 => d(Int, 2, "INT2"),
        27 | 28 => Err(Some("a new ONNX type")),
        _ => Err(None),
    }
}
