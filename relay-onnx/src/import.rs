//! `relay import model.onnx`: the model as a Relay module, in the text format that
//! `relay check` reads back with the same types.
//!
//! The module is printed from what the checker recorded while it typed the graph
//! (its `record` module), so every type in it is the checker's:
//!
//! - `@main`'s parameters are the graph inputs, then the initializers (weights as
//!   parameters, typed by their dims, as TVM's `from_onnx` gives them without
//!   `freeze_params`), then the initializers of `If` branches. A symbol is printed by its
//!   name; one whose name the text does not read (`DynamicDimension.0`) as a name it reads
//!   (`DynamicDimension_0`), and a dimension the checker left unknown (`'d0`) as a symbol
//!   (`d0`): [`Imported::symbols`] lists them.
//! - Each node output is a `let` annotated with the type the checker inferred, bound to
//!   the call of the Relay operator its mapping names, with the attributes the checker
//!   computed (constants taken from known values are printed as attribute values).
//! - An argument that is an input's *value* (a shape computed in the graph) is a call of
//!   `onnx.value` bound by a `let` annotated with the value as a type:
//!   `let %v: Tensor[(N*S, 768), int64] = onnx.value(%shape);`. Relay's text has no
//!   arithmetic on a tensor's contents, so the annotation is trusted for the values
//!   themselves; `onnx.value` checks their number. Negative constants (`Reshape`'s `-1`),
//!   which a type cannot be written with, are its `values` attribute.
//! - A node of several outputs is one call, then a `let` per output projecting it.
//! - An `If` is Relay's `if` on its condition with both branches, each branch's results
//!   annotated with the joined types; one whose condition the checker knew is its branch.
//! - A `Loop` or a `Scan` is a recursive local function (the `loops` module), sequences
//!   and optionals the prelude's `List` and `Optional` (the `sequence` module). A node the
//!   importer cannot print (a sequence of elements of different ranks, a `Scan` of opset
//!   8) is an error naming it.

mod loops;
pub(crate) mod record;
mod sequence;
mod value_op;

use crate::check::{Diagnostic, LoadError, NodeRef, Severity};
use crate::ops::{Arg, Outputs};
use crate::proto::text;
use record::{Call, GraphRecord, NodeKind, NodeRecord};
use relay_core::{AttrValue, DTy, DType, Dim, Solver, Ty, TyData};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write as _;

/// A model printed as a Relay module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The module's text.
    pub text: String,
    /// Each value of the model's graph (inputs, initializers, node outputs) by its ONNX
    /// name, with its name in the text.
    pub names: Vec<(String, String)>,
    /// The symbols printed under another name than `relay check model.onnx` shows them:
    /// `(shown, printed)`, as `("DynamicDimension.0", "DynamicDimension_0")` or
    /// `("'d0", "d0")`.
    pub symbols: Vec<(String, String)>,
    /// The checker's warnings.
    pub warnings: Vec<Diagnostic>,
}

/// Why a model cannot be imported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportError {
    /// The file is not a readable model.
    Load(LoadError),
    /// The model does not check, or has a node the importer cannot print: the
    /// diagnostics, each naming its node.
    Diagnostics(Vec<Diagnostic>),
}

/// Checks a model from its bytes and prints it as a Relay module.
///
/// ```
/// use relay_onnx::build::{Graph, D};
/// let mut g = Graph::new(17);
/// g.input("x", D::F32, &[D::p("N"), D::v(3)]);
/// g.node("Relu", &["x"], &["y"], vec![]);
/// g.output("y");
/// let imported = relay_onnx::import::import_bytes(g.bytes().into()).unwrap();
/// assert_eq!(
///     imported.text,
///     "#[version = \"0.0.5\"]\n\
///      def @main(\n  %x: Tensor[(N, 3), float32]\n) {\n  \
///      let %y: Tensor[(N, 3), float32] = nn.relu(%x);\n  %y\n}\n"
/// );
/// ```
pub fn import_bytes(bytes: bytes::Bytes) -> Result<Imported, ImportError> {
    import_bytes_with(bytes, Bindings::Annotated)
}

/// Whether the `let` of each node output is annotated with its type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bindings {
    /// Each with the type the checker inferred (what `relay import` prints).
    Annotated,
    /// None: the types are the relations' alone, as `relay check` infers them from the
    /// parameters and the `onnx.value` annotations (to test that they are the same). The
    /// annotations the text needs stay: a loop's function's parameters and the `let` of
    /// its results (its number of iterations), and the `let` that gives a value the type
    /// of a joined `If` output or sequence element.
    Bare,
}

/// [`import_bytes`], the node outputs' `let`s annotated or not.
pub fn import_bytes_with(bytes: bytes::Bytes, bindings: Bindings) -> Result<Imported, ImportError> {
    let mut checked = crate::check::check_bytes_recorded(bytes).map_err(ImportError::Load)?;
    if checked.has_errors() {
        return Err(ImportError::Diagnostics(checked.diagnostics().to_vec()));
    }
    let warnings = checked.diagnostics().to_vec();
    let (record, solver) = checked
        .recorded()
        .expect("the checker records what it was asked to");
    let mut p = Printer::new(solver);
    p.bare = bindings == Bindings::Bare;
    p.collect_symbols(record);
    let text = p
        .module(record)
        .map_err(|d| ImportError::Diagnostics(vec![d]))?;
    Ok(Imported {
        text,
        names: p.top_names,
        symbols: p.symbols.renamed(),
        warnings,
    })
}

/// The name of each symbol in the text (see the module's doc).
#[derive(Default)]
struct Symbols {
    /// Every name in the types printed.
    seen: FxHashSet<String>,
    /// Each name shown that is printed as another.
    rename: FxHashMap<String, String>,
    order: Vec<String>,
}

impl Symbols {
    fn renamed(&self) -> Vec<(String, String)> {
        self.order
            .iter()
            .map(|s| (s.clone(), self.rename[s].clone()))
            .collect()
    }
}

/// The names of a type's text: each `(start, end)` of a word (a name or a flexible
/// variable `'d3`) that is not a number.
fn words(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = c == b'\'' || c.is_ascii_alphabetic() || c == b'_';
        if start {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'.') {
                j += 1;
            }
            out.push((i, j));
            i = j;
        } else if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// A name the type parser reads as one name: a `.` inside only before a letter or `_`.
fn reads_as_name(s: &str) -> bool {
    let b = s.as_bytes();
    !s.starts_with('\'')
        && b.iter().enumerate().all(|(i, &c)| {
            c != b'.'
                || b.get(i + 1)
                    .is_some_and(|&n| n.is_ascii_alphabetic() || n == b'_')
        })
}

struct Printer<'s> {
    solver: &'s mut Solver,
    symbols: Symbols,
    out: String,
    indent: usize,
    /// Every local name given, and the bases of tuples projected (`%t.0`), which no other
    /// name may extend.
    used: FxHashSet<String>,
    tuples: FxHashSet<String>,
    /// Each part of a name given before a `.` (`input` of `input.1`).
    stems: FxHashSet<String>,
    /// The graphs being printed, innermost last.
    scopes: Vec<Scope>,
    /// The types printed, by type.
    shown: FxHashMap<Ty, String>,
    top_names: Vec<(String, String)>,
    /// The parameters for the initializers of subgraphs, by graph and slot.
    lifted: FxHashMap<(usize, usize), String>,
    /// The node outputs' `let`s are not annotated.
    bare: bool,
    /// The global functions the module uses, printed after `@main`.
    helpers: std::collections::BTreeSet<sequence::Helper>,
}

/// One graph's names: each slot's name in the text, and the slot of each ONNX name.
#[derive(Default)]
struct Scope {
    names: Vec<Option<String>>,
    by_name: FxHashMap<Box<[u8]>, usize>,
    /// The `onnx.value` bindings made, by argument and value.
    values: FxHashMap<(String, String), String>,
}

/// The name of a binding named after node `n`: its name, or its op type and index.
fn node_base(n: &NodeRef) -> String {
    match n.name.as_str() {
        "" => format!("{}_{}", n.op_type, n.index),
        name => name.to_string(),
    }
}

/// The error for a node the importer cannot print.
fn node_error(node: &NodeRef, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        node: Some(node.clone()),
        message,
        notes: Vec::new(),
        unsupported: true,
    }
}

fn error(message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        node: None,
        message,
        notes: Vec::new(),
        unsupported: true,
    }
}

type PResult<T> = Result<T, Diagnostic>;

impl<'s> Printer<'s> {
    fn new(solver: &'s mut Solver) -> Self {
        Printer {
            solver,
            symbols: Symbols::default(),
            out: String::new(),
            indent: 0,
            used: FxHashSet::default(),
            tuples: FxHashSet::default(),
            stems: FxHashSet::default(),
            scopes: Vec::new(),
            shown: FxHashMap::default(),
            top_names: Vec::new(),
            lifted: FxHashMap::default(),
            bare: false,
            helpers: Default::default(),
        }
    }

    /// Every name in the types of `g` (and of its subgraphs), so that the names given to
    /// unknown dimensions and to names the text does not read are new.
    fn collect_symbols(&mut self, g: &GraphRecord) {
        let mut stack = vec![g];
        let mut raw: Vec<String> = Vec::new();
        while let Some(g) = stack.pop() {
            let mut tys: Vec<Ty> = g.tys.clone();
            for n in &g.nodes {
                if let NodeKind::Call(c) = &n.kind {
                    tys.extend(c.args.iter().chain(&c.outs));
                }
                stack.extend(n.kind.subgraphs());
            }
            for t in tys {
                let t = self.solver.resolve(t);
                if self.shown.contains_key(&t) {
                    continue;
                }
                let s = self.solver.tcx.show_within(t, usize::MAX);
                for (a, b) in words(&s) {
                    raw.push(s[a..b].to_string());
                }
                self.shown.insert(t, s);
            }
        }
        self.symbols
            .seen
            .extend(raw.iter().filter(|w| !w.starts_with('\'')).cloned());
        for w in raw {
            // A flexible dimension is printed as a symbol; a flexible type, shape or dtype
            // (`'t0`, `'s0`, `'b0`) has no spelling, and stays as shown.
            let flexible = w.starts_with('\'');
            if self.symbols.rename.contains_key(&w)
                || reads_as_name(&w)
                || (flexible && !w.starts_with("'d"))
            {
                continue;
            }
            let base: String = match w.strip_prefix('\'') {
                Some(var) => var.to_string(),
                None => {
                    let b = w.as_bytes();
                    w.char_indices()
                        .map(|(i, c)| {
                            let keeps = c != '.'
                                || b.get(i + 1)
                                    .is_some_and(|&n| n.is_ascii_alphabetic() || n == b'_');
                            if keeps {
                                c
                            } else {
                                '_'
                            }
                        })
                        .collect()
                }
            };
            let mut name = base.clone();
            let mut n = 1;
            while self.symbols.seen.contains(&name) {
                n += 1;
                name = format!("{base}_{n}");
            }
            self.symbols.seen.insert(name.clone());
            self.symbols.rename.insert(w.clone(), name);
            self.symbols.order.push(w);
        }
        // The text of each type, its symbols renamed.
        let shown = std::mem::take(&mut self.shown);
        self.shown = shown
            .into_iter()
            .map(|(t, s)| (t, self.rewrite(&s)))
            .collect();
    }

    fn rewrite(&self, s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        let mut at = 0;
        for (a, b) in words(s) {
            if let Some(r) = self.symbols.rename.get(&s[a..b]) {
                out.push_str(&s[at..a]);
                out.push_str(r);
                at = b;
            }
        }
        out.push_str(&s[at..]);
        out
    }

    /// A type as the text writes it; an error if it is not fully known (a flexible type,
    /// shape or dtype, which no annotation can state).
    fn ty(&mut self, t: Ty) -> Result<String, String> {
        let t = self.solver.resolve(t);
        let s = match self.shown.get(&t) {
            Some(s) => s.clone(),
            None => {
                let s = self.solver.tcx.show_within(t, usize::MAX);
                let s = self.rewrite(&s);
                self.shown.insert(t, s.clone());
                s
            }
        };
        match words(&s)
            .into_iter()
            .find(|&(a, _)| s.as_bytes()[a] == b'\'')
        {
            Some((a, b)) => Err(format!("`{}` is not fully known (`{}`)", s, &s[a..b])),
            None => Ok(s),
        }
    }

    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// A new local name for ONNX name `onnx` (or `fallback` if it has none): its
    /// characters that a name cannot have replaced by `_`, and a suffix if it is taken.
    fn local(&mut self, onnx: &str, fallback: &str) -> String {
        let base = local_spelling(if onnx.is_empty() { fallback } else { onnx });
        let mut name = base.clone();
        let mut n = 1;
        while self.used.contains(&name) || self.extends_tuple(&name) {
            n += 1;
            name = format!("{base}_{n}");
        }
        for (i, _) in name.match_indices('.') {
            self.stems.insert(name[..i].to_string());
        }
        self.used.insert(name.clone());
        name
    }

    /// Whether `name` reads as a projection of a tuple printed (`%t.0` when `%t` is one).
    fn extends_tuple(&self, name: &str) -> bool {
        name.match_indices('.')
            .any(|(i, _)| self.tuples.contains(&name[..i]))
    }

    /// A new name for a tuple that is projected: one that no name given extends.
    fn tuple_local(&mut self, base: &str) -> String {
        let base = local_spelling(base);
        let mut name = base.clone();
        let mut n = 1;
        while self.used.contains(&name) || self.extends_tuple(&name) || self.stems.contains(&name) {
            n += 1;
            name = format!("{base}_{n}");
        }
        self.used.insert(name.clone());
        self.tuples.insert(name.clone());
        name
    }

    fn scope(&mut self) -> &mut Scope {
        self.scopes.last_mut().expect("a graph is being printed")
    }

    /// Names slot `id` of the current graph `name`.
    fn bind(&mut self, g: &GraphRecord, id: usize, name: String) {
        let top = self.scopes.len() == 1;
        let onnx = text(&g.names[id]).into_owned();
        let scope = self.scope();
        scope.names[id] = Some(name.clone());
        scope.by_name.entry(g.names[id].clone()).or_insert(id);
        if top {
            self.top_names.push((onnx, name));
        }
    }

    /// The name in the text of slot `id` of the current graph: its own, or the one of
    /// the value of its name in the graphs around it.
    fn name_of(&self, g: &GraphRecord, id: usize) -> Option<String> {
        let scope = self.scopes.last()?;
        if let Some(n) = &scope.names[id] {
            return Some(n.clone());
        }
        let name = &g.names[id];
        self.scopes[..self.scopes.len() - 1]
            .iter()
            .rev()
            .find_map(|s| s.by_name.get(name).and_then(|&i| s.names[i].clone()))
    }

    fn module(&mut self, g: &GraphRecord) -> PResult<String> {
        self.out.push_str("#[version = \"0.0.5\"]\n");
        self.scopes.push(Scope {
            names: vec![None; g.tys.len()],
            ..Scope::default()
        });
        let mut params = Vec::new();
        for &id in g.inputs.iter().chain(&g.initializers) {
            let onnx = text(&g.names[id]).into_owned();
            let name = self.local(&onnx, "input");
            let ty = self
                .ty(g.tys[id])
                .map_err(|e| error(format!("graph input or initializer `{onnx}`: its type {e}")))?;
            params.push(format!("%{name}: {ty}"));
            self.bind(g, id, name);
        }
        // The initializers of subgraphs, as parameters too.
        let mut stack = vec![g];
        while let Some(sub) = stack.pop() {
            for n in &sub.nodes {
                for b in n.kind.subgraphs() {
                    for &id in &b.initializers {
                        let onnx = text(&b.names[id]).into_owned();
                        let name = self.local(&onnx, "initializer");
                        let ty = self.ty(b.tys[id]).map_err(|e| {
                            node_error(
                                &n.node,
                                format!("initializer `{onnx}` of a subgraph: its type {e}"),
                            )
                        })?;
                        params.push(format!("%{name}: {ty}"));
                        self.lifted
                            .insert((b as *const GraphRecord as usize, id), name);
                    }
                    stack.push(b);
                }
            }
        }
        if params.is_empty() {
            self.out.push_str("def @main() {\n");
        } else {
            self.out.push_str("def @main(\n");
            let n = params.len();
            for (i, p) in params.into_iter().enumerate() {
                let sep = if i + 1 < n { "," } else { "" };
                let _ = writeln!(self.out, "  {p}{sep}");
            }
            self.out.push_str(") {\n");
        }
        self.indent = 1;
        self.nodes(g)?;
        let result = self.results(g, None)?;
        self.line(&result);
        self.out.push_str("}\n");
        for helper in std::mem::take(&mut self.helpers) {
            self.out.push('\n');
            self.out.push_str(helper.text());
        }
        Ok(std::mem::take(&mut self.out))
    }

    /// Prints the nodes of `g` (the current graph) in the order they were typed.
    fn nodes(&mut self, g: &GraphRecord) -> PResult<()> {
        for &k in &g.order {
            self.node(g, &g.nodes[k])?;
        }
        Ok(())
    }

    /// The expression of `g`'s results: one name, or a tuple; with `coerce`, each result
    /// whose type is not the one given is first bound to a `let` of that type.
    fn results(&mut self, g: &GraphRecord, coerce: Option<(&[Ty], &NodeRef)>) -> PResult<String> {
        let mut names = Vec::with_capacity(g.outputs.len());
        for (j, &id) in g.outputs.iter().enumerate() {
            let Some(mut name) = self.name_of(g, id) else {
                let onnx = text(&g.names[id]);
                return Err(error(format!(
                    "output `{onnx}` names no value of its graph"
                )));
            };
            if let Some((tys, node)) = coerce {
                let want = self.solver.resolve(tys[j]);
                let have = self.solver.resolve(g.tys[id]);
                if !self.fits(want, have, false) {
                    let w = self.solver.tcx.show(want);
                    let h = self.solver.tcx.show(have);
                    let (w, h) = (self.rewrite(&w), self.rewrite(&h));
                    return Err(node_error(
                        node,
                        format!(
                            "a branch gives output {j} `{h}`, and the `If` gives `{w}`: Relay's `if` needs one type of both branches"
                        ),
                    ));
                }
                if want != have {
                    let ty = self
                        .ty(want)
                        .map_err(|e| node_error(node, format!("output {j}: its type {e}")))?;
                    let joined = self.local(&format!("{name}_joined"), "joined");
                    self.line(&format!("let %{joined}: {ty} = %{name};"));
                    name = joined;
                }
            }
            names.push(format!("%{name}"));
        }
        Ok(results_text(&names))
    }

    fn node(&mut self, g: &GraphRecord, n: &NodeRecord) -> PResult<()> {
        match &n.kind {
            NodeKind::Call(c) => self.call(g, n, c),
            NodeKind::Pass => {
                let input = self.input(g, n, 0)?;
                self.outputs_of(g, n, &[input])
            }
            NodeKind::If {
                known,
                then_branch,
                else_branch,
            } => self.if_node(g, n, *known, then_branch.as_deref(), else_branch.as_deref()),
            NodeKind::Loop { body } => self.loop_node(g, n, body.as_deref()),
            NodeKind::Scan {
                body,
                attrs,
                batched,
            } => self.scan_node(g, n, body.as_deref(), attrs, *batched),
            NodeKind::Sequence { attrs, body } => self.sequence_node(g, n, attrs, body.as_deref()),
            NodeKind::Other => Err(node_error(
                &n.node,
                format!(
                    "`{}` cannot be printed as Relay: the checker did not type it",
                    n.node.op_type
                ),
            )),
        }
    }

    /// The name of node `n`'s input `i` (which must be given).
    fn input(&mut self, g: &GraphRecord, n: &NodeRecord, i: usize) -> PResult<String> {
        self.typed_input(g, n, i).map(|(name, _)| name)
    }

    /// The name of node `n`'s input `i` (which must be given), and its type.
    fn typed_input(&mut self, g: &GraphRecord, n: &NodeRecord, i: usize) -> PResult<(String, Ty)> {
        n.inputs
            .get(i)
            .copied()
            .flatten()
            .and_then(|id| Some((format!("%{}", self.name_of(g, id)?), g.tys[id])))
            .ok_or_else(|| node_error(&n.node, format!("input {i} names no value")))
    }

    /// `let`s binding node `n`'s named outputs to `exprs` (one per output).
    fn outputs_of(&mut self, g: &GraphRecord, n: &NodeRecord, exprs: &[String]) -> PResult<()> {
        for (j, e) in exprs.iter().enumerate() {
            let Some(id) = n.outputs.get(j).copied().flatten() else {
                continue;
            };
            if g.names[id].is_empty() {
                continue;
            }
            let onnx = text(&g.names[id]).into_owned();
            let ty = self
                .ty(g.tys[id])
                .map_err(|e| node_error(&n.node, format!("output `{onnx}`: its type {e}")))?;
            let name = self.local(&onnx, &n.node.op_type);
            if self.bare {
                self.line(&format!("let %{name} = {e};"));
            } else {
                self.line(&format!("let %{name}: {ty} = {e};"));
            }
            self.bind(g, id, name);
        }
        Ok(())
    }

    fn call(&mut self, g: &GraphRecord, n: &NodeRecord, c: &Call) -> PResult<()> {
        let mut args = Vec::with_capacity(c.args.len());
        for (a, &t) in c.op.args.iter().zip(&c.args) {
            let arg = match *a {
                Arg::In(i) => self.input(g, n, i)?,
                Arg::Opt(i) => match n.inputs.get(i).copied().flatten() {
                    Some(_) => self.input(g, n, i)?,
                    None => "()".into(),
                },
                Arg::Rest(i) => {
                    let mut fields = Vec::new();
                    for j in i..n.inputs.len() {
                        fields.push(self.input(g, n, j)?);
                    }
                    tuple_text(&fields)
                }
                Arg::Value(i) => {
                    let data = match n.inputs.get(i).copied().flatten() {
                        Some(_) => self.input(g, n, i)?,
                        None => "()".into(),
                    };
                    let what = format!("the value of input {i}");
                    self.value(n, &data, &what, t)?
                }
                Arg::AttrInts(name) => {
                    let what = format!("attribute `{name}`");
                    self.value(n, "()", &what, t)?
                }
                Arg::Fresh => self.value(n, "()", "its data-dependent size", t)?,
            };
            args.push(arg);
        }
        for (name, v) in &c.attrs {
            let mut s = format!("{name}=");
            attr_value(&mut s, v).map_err(|e| {
                node_error(
                    &n.node,
                    format!("attribute `{name}` of `{}`: {e}", c.op.relay),
                )
            })?;
            args.push(s);
        }
        let call = format!("{}({})", c.op.relay, args.join(", "));
        match c.op.outputs {
            // A node of one output: the result is that output.
            Outputs::One => self.outputs_of(g, n, &[call]),
            Outputs::Each if n.outputs.len() == 1 => self.outputs_of(g, n, &[call]),
            Outputs::Each => {
                let tuple = self.tuple_local(&node_base(&n.node));
                let fields: Result<Vec<String>, String> =
                    c.outs.iter().map(|&t| self.ty(t)).collect();
                match fields {
                    Ok(f) => {
                        let ty = tuple_text(&f);
                        self.line(&format!("let %{tuple}: {ty} = {call};"));
                    }
                    // An output the model does not name may stay unknown.
                    Err(_) => self.line(&format!("let %{tuple} = {call};")),
                }
                let exprs: Vec<String> = (0..n.outputs.len())
                    .map(|j| format!("%{tuple}.{j}"))
                    .collect();
                self.outputs_of(g, n, &exprs)
            }
        }
    }

    /// The argument for a value (`what`, of `data`: an input's name, or `()`) of type
    /// `t`: `()` when absent, else an `onnx.value` bound by `let`s (see the module's doc).
    fn value(&mut self, n: &NodeRecord, data: &str, what: &str, t: Ty) -> PResult<String> {
        let t = self.solver.resolve(t);
        // A value the checker did not know is an argument the relation typed without; the
        // text has no expression of an unknown type to pass.
        let unknown = || {
            node_error(
                &n.node,
                format!("{what} is not known, and the text has no way to pass an unknown value"),
            )
        };
        let dims: Vec<Dim> = match self.solver.tcx.data(t) {
            TyData::Tuple(f) if f.is_empty() => return Ok("()".into()),
            &TyData::Tensor(s, DTy::Known(DType::INT64)) => match self.solver.tcx.shape_dims(s) {
                Some(d) => d.to_vec(),
                None => return Err(unknown()),
            },
            _ => return Err(unknown()),
        };
        let ty = self
            .ty(t)
            .map_err(|e| node_error(&n.node, format!("{what} as a type {e}")))?;
        let key = (data.to_string(), ty.clone());
        if let Some(name) = self.scope().values.get(&key) {
            return Ok(format!("%{name}"));
        }
        let consts: Vec<Option<i64>> = dims
            .iter()
            .map(|&d| {
                let d = self.solver.resolve_dim(d);
                self.solver.tcx.dims.as_const(d)
            })
            .collect();
        let base = match data.strip_prefix('%') {
            Some(input) => format!("{input}_value"),
            None => format!("{}_value", node_base(&n.node)),
        };
        let name = self.local(&base, "value");
        let negative = consts.iter().any(|c| c.is_some_and(|c| c < 0));
        let list = |v: &mut dyn Iterator<Item = i64>| {
            let items: Vec<String> = v.map(|c| c.to_string()).collect();
            format!("[{}]", items.join(", "))
        };
        if !negative {
            self.line(&format!("let %{name}: {ty} = onnx.value({data});"));
        } else if consts.iter().all(Option::is_some) {
            let values = list(&mut consts.iter().flatten().copied());
            self.line(&format!(
                "let %{name} = onnx.value({data}, values={values});"
            ));
        } else {
            // Symbols and negative constants: the symbols by an annotation, the constants
            // by the attribute.
            let at: Vec<usize> = (0..dims.len()).filter(|&i| consts[i].is_none()).collect();
            let syms: Vec<Dim> = at.iter().map(|&i| dims[i]).collect();
            let sym_ty = self.solver.tcx.tensor_of(&syms, DType::INT64);
            let sym_ty = self
                .ty(sym_ty)
                .map_err(|e| node_error(&n.node, format!("{what} as a type {e}")))?;
            let at_list = list(&mut at.iter().map(|&i| i as i64));
            let part = self.local(&format!("{name}_at"), "value_at");
            self.line(&format!(
                "let %{part}: {sym_ty} = onnx.value({data}, at={at_list});"
            ));
            let values = list(&mut consts.iter().flatten().copied());
            self.line(&format!(
                "let %{name} = onnx.value(%{part}, values={values}, at={at_list});"
            ));
        }
        self.scope().values.insert(key, name.clone());
        Ok(format!("%{name}"))
    }

    fn if_node(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        known: Option<bool>,
        then_branch: Option<&GraphRecord>,
        else_branch: Option<&GraphRecord>,
    ) -> PResult<()> {
        let outs: Vec<Ty> = n
            .outputs
            .iter()
            .map(|o| o.map(|id| g.tys[id]))
            .collect::<Option<_>>()
            .ok_or_else(|| node_error(&n.node, "an output of `If` has no value".into()))?;
        if let Some(c) = known {
            let (which, b) = match c {
                true => ("then_branch", then_branch),
                false => ("else_branch", else_branch),
            };
            let b = b.ok_or_else(|| node_error(&n.node, format!("its `{which}` was not typed")))?;
            self.line(&format!(
                "/* {}: its condition is known to be {}; its `{which}`: */",
                n.node,
                if c { "true" } else { "false" }
            ));
            let r = self.branch(b, &outs, &n.node)?;
            return self.bind_results(g, n, r, &outs);
        }
        let (Some(t), Some(e)) = (then_branch, else_branch) else {
            return Err(node_error(&n.node, "a branch of `If` was not typed".into()));
        };
        let cond = self.scalar_of(g, n, 0, DType::BOOL)?;
        let mut tys = Vec::with_capacity(outs.len());
        for (j, &t) in outs.iter().enumerate() {
            tys.push(
                self.ty(t)
                    .map_err(|e| node_error(&n.node, format!("output {j}: its type {e}")))?,
            );
        }
        let ty = results_text(&tys);
        let result = match outs.len() {
            1 => None,
            _ => Some(self.tuple_local(&node_base(&n.node))),
        };
        // The branches print into a buffer of their own, their `let` first.
        let start = self.out.len();
        self.indent += 1;
        let branch = |me: &mut Self, b: &GraphRecord| -> PResult<()> {
            let r = me.branch(b, &outs, &n.node)?;
            me.line(&r);
            Ok(())
        };
        branch(self, t)?;
        let then_text = self.out.split_off(start);
        branch(self, e)?;
        let else_text = self.out.split_off(start);
        self.indent -= 1;
        let binder = match &result {
            Some(tuple) => tuple.clone(),
            None => {
                let id = n.outputs[0].expect("checked above");
                let onnx = text(&g.names[id]).into_owned();
                let name = self.local(&onnx, "If");
                self.bind(g, id, name.clone());
                name
            }
        };
        self.line(&format!("let %{binder}: {ty} = if ({cond}) {{"));
        self.out.push_str(&then_text);
        self.line("} else {");
        self.out.push_str(&else_text);
        self.line("};");
        if let Some(tuple) = result {
            let exprs: Vec<String> = (0..outs.len()).map(|j| format!("%{tuple}.{j}")).collect();
            self.outputs_of(g, n, &exprs)?;
        }
        Ok(())
    }

    /// Prints branch `b`'s nodes; the expression of its results, each of the type of the
    /// `If`'s output (`outs`).
    fn branch(&mut self, b: &GraphRecord, outs: &[Ty], node: &NodeRef) -> PResult<String> {
        self.enter(b);
        let r = self
            .nodes(b)
            .and_then(|()| self.results(b, Some((outs, node))));
        self.scopes.pop();
        r
    }

    /// Binds an `If`'s outputs to its taken branch's results (`r`: a name or a tuple of
    /// names).
    fn bind_results(
        &mut self,
        g: &GraphRecord,
        n: &NodeRecord,
        r: String,
        outs: &[Ty],
    ) -> PResult<()> {
        let exprs: Vec<String> = if outs.len() == 1 {
            vec![r]
        } else {
            r.trim_start_matches('(')
                .trim_end_matches(')')
                .split(", ")
                .map(str::to_string)
                .collect()
        };
        self.outputs_of(g, n, &exprs)
    }

    /// Whether a value of type `have` may be bound to a `let` annotated `want`: the same
    /// type, where `want` may have `?` for a dimension, and with `shapeless`, `have` a
    /// tensor of no known shape (an empty sequence's element, whose list the text types
    /// by its uses: a `Nil()` bound unannotated, or the parameter of a loop that carries
    /// it).
    fn fits(&mut self, want: Ty, have: Ty, shapeless: bool) -> bool {
        let (want, have) = (self.solver.resolve(want), self.solver.resolve(have));
        if want == have {
            return true;
        }
        match (
            self.solver.tcx.data(want).clone(),
            self.solver.tcx.data(have).clone(),
        ) {
            (TyData::Tensor(sw, dw), TyData::Tensor(sh, dh)) if dw == dh => {
                let tcx = &self.solver.tcx;
                match (tcx.shape_dims(sw), tcx.shape_dims(sh)) {
                    (Some(w), Some(h)) => {
                        w.len() == h.len()
                            && w.iter().zip(h).all(|(&a, &b)| a == b || tcx.dims.is_any(a))
                    }
                    (_, None) => shapeless,
                    _ => false,
                }
            }
            (TyData::Tuple(w), TyData::Tuple(h)) if w.len() == h.len() => w
                .iter()
                .zip(h.iter())
                .all(|(&a, &b)| self.fits(a, b, shapeless)),
            (TyData::Call(x, w), TyData::Call(y, h)) if x == y && w.len() == h.len() => w
                .iter()
                .zip(h.iter())
                .all(|(&a, &b)| self.fits(a, b, shapeless)),
            _ => false,
        }
    }

    /// Enters subgraph `b`: its values named, its initializers the parameters lifted.
    fn enter(&mut self, b: &GraphRecord) {
        let mut scope = Scope {
            names: vec![None; b.tys.len()],
            ..Scope::default()
        };
        for &id in &b.initializers {
            if let Some(name) = self.lifted.get(&(b as *const GraphRecord as usize, id)) {
                scope.names[id] = Some(name.clone());
                scope.by_name.entry(b.names[id].clone()).or_insert(id);
            }
        }
        self.scopes.push(scope);
    }
}

/// A local name for `s`: letters, digits and `_`, with `.` before a part that starts with
/// a letter or `_`, or is digits that end the name or come before another kept `.`
/// (`%input.1`, `%layer1.0.weight`), as the text reads them; other characters are `_`,
/// leading ones dropped, and a name that starts with a digit has `_` before it.
fn local_spelling(s: &str) -> String {
    // `/encoder/layer.0/Add_output_0` is `encoder_layer.0_Add_output_0`.
    let s = match s.trim_start_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
        "" => s,
        t => t,
    };
    let parts: Vec<String> = s
        .split('.')
        .map(|p| {
            p.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect()
        })
        .collect();
    // Whether the `.` before each part is kept, from the last part back.
    let mut keep = vec![false; parts.len()];
    for i in (1..parts.len()).rev() {
        let p = parts[i].as_bytes();
        let word = p
            .first()
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
        let digits = !p.is_empty() && p.iter().all(u8::is_ascii_digit);
        keep[i] = word || (digits && (i + 1 == parts.len() || keep[i + 1]));
    }
    let mut out = String::with_capacity(s.len() + 1);
    if !s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.push('_');
    }
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            out.push(if keep[i] { '.' } else { '_' });
        }
        out.push_str(p);
    }
    out
}

/// An attribute value as the text reads it (`[1, 2]`, `"NOTSET"`, `1e-05f`, `True`).
fn attr_value(out: &mut String, v: &AttrValue) -> Result<(), String> {
    match v {
        AttrValue::Int(i) => {
            let _ = write!(out, "{i}");
        }
        AttrValue::Float(x) if x.is_finite() => {
            let _ = write!(out, "{x:?}f");
        }
        AttrValue::Float(x) => return Err(format!("{x} has no spelling in the text")),
        AttrValue::Bool(b) => out.push_str(if *b { "True" } else { "False" }),
        AttrValue::Str(s) => {
            let _ = write!(out, "{s:?}");
        }
        AttrValue::DType(d) => {
            let _ = write!(out, "\"{d}\"");
        }
        AttrValue::None => out.push_str("None"),
        AttrValue::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                attr_value(out, item)?;
            }
            out.push(']');
        }
    }
    Ok(())
}

/// Several results as the text gives them: one is itself, more a tuple `(a, b)`.
fn results_text(items: &[String]) -> String {
    match items {
        [one] => one.clone(),
        _ => format!("({})", items.join(", ")),
    }
}

/// A tuple in the text, `(a,)` for one field.
fn tuple_text(items: &[String]) -> String {
    match items {
        [one] => format!("({one},)"),
        _ => format!("({})", items.join(", ")),
    }
}
