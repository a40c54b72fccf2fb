//! The interface between the solver and type relations.
//!
//! A relation is a [`RelationDef`]: a name and a function that receives a [`RelCx`]. The
//! context gives the relation its argument types (resolved through the union-find as far
//! as they are known), the call's attributes, and the operations a relation needs: read
//! what is known of a tensor, unify (which may refine arguments, inputs as well as the
//! output), and report an error that blames one argument. The relation answers
//! [`Progress::Solved`], [`Progress::NotYet`] (it will run again when one of the unknowns
//! in its arguments is refined) or an error.
//!
//! The `#[relation]` macro generates these functions (its clause language is documented in
//! [`crate::clause`]); they can also be written by hand:
//!
//! ```
//! use relay_core::{Progress, RelCx, RelResult, RelationDef, RelationRef};
//!
//! /// `Same(A, B) :- A = B`.
//! fn same(cx: &mut RelCx<'_>) -> RelResult {
//!     let a = cx.arg(0);
//!     cx.unify(1, a)?;
//!     Ok(Progress::Solved)
//! }
//! static SAME: RelationDef = RelationDef { name: "Same", arity: Some(2), needs: &[], solve: same };
//! let _ = RelationRef(&SAME);
//! ```

use super::{Solver, UnifyError};
use crate::attrs::{AttrTypeError, Attrs};
use crate::dim::{Dim, DimError};
use crate::ty::{DTy, Shape, ShapeData, Ty, TyCtx, TyData};
use std::fmt;

/// A relation's answer when it could run to its end.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The relation holds and will never need to run again.
    Solved,
    /// Not enough is known yet; run again when an argument is refined.
    NotYet,
}

/// A relation that does not hold: the message, the argument it blames, and notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelError {
    /// The index of the argument at fault (the output is the last argument), if one is.
    pub arg: Option<usize>,
    /// What is wrong, lowercase, without a trailing period.
    pub message: String,
    /// Further facts: where each clashing fact came from, what was expected.
    pub notes: Vec<String>,
}

impl RelError {
    /// An error blaming argument `arg`.
    pub fn at(arg: usize, message: impl Into<String>) -> Self {
        RelError {
            arg: Some(arg),
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// An error blaming no argument in particular.
    pub fn new(message: impl Into<String>) -> Self {
        RelError {
            arg: None,
            message: message.into(),
            notes: Vec::new(),
        }
    }

    /// The same error blaming argument `arg` (a [`DimError`] converted with `?` blames
    /// none).
    ///
    /// ```
    /// use relay_core::{DimError, RelError};
    ///
    /// let e = RelError::from(DimError::Overflow).blaming(1);
    /// assert_eq!((e.arg, e.message.as_str()), (Some(1), "dimension arithmetic overflows 64 bits"));
    /// ```
    pub fn blaming(mut self, arg: usize) -> Self {
        self.arg = Some(arg);
        self
    }

    /// The same error with one more note.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
}

impl fmt::Display for RelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<AttrTypeError> for RelError {
    fn from(e: AttrTypeError) -> Self {
        RelError::new(e.to_string())
    }
}

/// A failure of dimension arithmetic (an overflow, a division by zero) in a relation: an
/// error blaming no argument ([`RelError::blaming`] names one).
impl From<DimError> for RelError {
    fn from(e: DimError) -> Self {
        RelError::new(e.to_string())
    }
}

/// The message of an axis attribute out of range: "`axis` 5 is out of range for
/// `Tensor[(2, 3), float32]` (rank 2)" ([`RelCx::axis`], and the clause builtin
/// `is_axis`).
pub(crate) fn axis_error(attr: &str, axis: i64, tensor: &str, rank: usize) -> String {
    format!("`{attr}` {axis} is out of range for `{tensor}` (rank {rank})")
}

/// The compiled run of a clause, written by `#[relation]`: `Some(())` when the clause is
/// solved, `None` when the interpreter must run it ([`Relation::FAST`]).
pub type FastFn = fn(&mut RelCx<'_>) -> Option<()>;

/// `axis` as an index into `rank` axes: `-rank..rank`, negatives counted from the end
/// (`-1` is the last); `None` out of range.
///
/// ```
/// use relay_core::relation::axis_index;
///
/// assert_eq!(axis_index(-1, 3), Some(2));
/// assert_eq!(axis_index(3, 3), None);
/// assert_eq!(axis_index(-4, 3), None);
/// ```
pub fn axis_index(axis: i64, rank: usize) -> Option<usize> {
    let r = i64::try_from(rank).ok()?;
    let k = if axis < 0 { axis.checked_add(r)? } else { axis };
    (0..r).contains(&k).then_some(k as usize)
}

/// What a relation's solve function returns.
pub type RelResult = Result<Progress, RelError>;

/// A type relation: a name and the function that solves it.
///
/// The solve function must be a function of what [`RelCx`] gives it (the arguments and the
/// call's attributes), as every generated and hand-written relation is: the solver
/// remembers the result of a run on known inputs and gives it to the next call with the
/// same inputs and attributes without running the relation again
/// ([`crate::solve::Solver::remember_results`]).
pub struct RelationDef {
    /// The relation's name (`Broadcast`).
    pub name: &'static str,
    /// The number of arguments it takes, if fixed.
    pub arity: Option<usize>,
    /// The arguments it cannot make any progress without: while one of them is still an
    /// unknown type, the solver does not run it but waits on that unknown (so a relation
    /// added before its inputs exist costs a registration, not a run). Empty: always run.
    pub needs: &'static [usize],
    /// The solver of one instance.
    pub solve: fn(&mut RelCx<'_>) -> RelResult,
}

impl fmt::Debug for RelationDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RelationDef({})", self.name)
    }
}

/// A type that names a relation: what `#[relation]` implements for the struct (or the
/// struct generated from the function) it is put on, and what `relay_op!`'s `where R`
/// refers to.
pub trait Relation {
    /// The relation's definition.
    const DEF: &'static RelationDef;
    /// The number of arguments it takes, if fixed: [`RelationDef::arity`], as a constant
    /// `relay_op!` checks the operator's count against at compile time. `#[relation]`
    /// sets it; a relation written by hand that leaves it `None` is checked when the
    /// registry is built.
    const ARITY: Option<usize> = None;
    /// The attributes its clause declares, which `relay_op!` checks against the
    /// operator's at compile time. `#[relation]` sets them for a clause; empty for a
    /// relation written as code, which reads the call's attributes as they come.
    const ATTRS: &'static [crate::agreement::AttrSig] = &[];
    /// Its clause's compiled run, if it is a clause that has one. A goal that calls it
    /// from another clause's compiled run calls this directly, rather than through
    /// [`RelationDef::solve`] (which tries it first, then the interpreter).
    #[doc(hidden)]
    const FAST: Option<FastFn> = None;
    /// A reference to it, to add instances to a solver.
    const REF: RelationRef = RelationRef(Self::DEF);
}

pub use crate::ty::RelationRef;

impl crate::ty::sealed::Relation for RelationDef {}

impl crate::ty::RelationName for RelationDef {
    fn name(&self) -> &'static str {
        self.name
    }
}

impl RelationRef {
    /// The relation's definition.
    #[inline]
    pub fn def(self) -> &'static RelationDef {
        let any: &'static dyn std::any::Any = self.0;
        any.downcast_ref()
            .expect("a relation is a `RelationDef` (the only `RelationName`)")
    }
}

/// A relation's view of the solver during one run.
pub struct RelCx<'s> {
    pub(crate) solver: &'s mut Solver,
    pub(crate) args: &'s [Ty],
    pub(crate) attrs: &'s Attrs,
    /// The operator whose call this is, or the relation's name ([`RelCx::op_name`]).
    pub(crate) op: &'static str,
    /// The solver's count of bindings when the run began: while it is unchanged, the
    /// arguments resolved for the run are current.
    pub(crate) binds_at_start: u64,
}

impl RelCx<'_> {
    /// The number of arguments (the output, if any, is the last).
    #[inline]
    pub fn len(&self) -> usize {
        self.args.len()
    }

    /// Whether the relation has no arguments.
    pub fn is_empty(&self) -> bool {
        self.args.is_empty()
    }

    /// Argument `i`, resolved as far as known when the run began.
    #[inline]
    pub fn arg(&self, i: usize) -> Ty {
        self.args[i]
    }

    /// All arguments.
    #[inline]
    pub fn args(&self) -> &[Ty] {
        self.args
    }

    /// The call's attributes (empty when none were given).
    #[inline]
    pub fn attrs(&self) -> &Attrs {
        self.attrs
    }

    /// The name of the operator whose call this is (`qnn.abs`), so that one relation
    /// shared by several operators names the one called; the relation's own name when it
    /// was added without an operator ([`Solver::add_relation`](crate::Solver::add_relation)
    /// rather than [`add_op_relation`](crate::Solver::add_op_relation)).
    ///
    /// ```
    /// use relay_core::{relation, DType, Outcome, Progress, RelCx, RelError, RelResult, Relation, Solver, TyCtx};
    ///
    /// /// Fails, naming its operator.
    /// #[relation(Refuse)]
    /// pub fn refuse(cx: &mut RelCx<'_>) -> RelResult {
    ///     Err(RelError::new(format!("`{}` is refused", cx.op_name())))
    /// }
    ///
    /// let mut s = Solver::new(TyCtx::new());
    /// let o = s.fresh_ty();
    /// s.add_op_relation("my.op", Refuse::REF, &[o], None, 0);
    /// s.add_relation(Refuse::REF, &[o], None, 1);
    /// let Outcome::Failed(errors) = s.solve() else { panic!("it fails") };
    /// assert_eq!(errors[0].message, "`my.op` is refused");
    /// assert_eq!(errors[1].message, "`Refuse` is refused");
    /// ```
    #[inline]
    pub fn op_name(&self) -> &'static str {
        self.op
    }

    /// The type context, to build types.
    #[inline]
    pub fn tcx(&mut self) -> &mut TyCtx {
        &mut self.solver.tcx
    }

    /// The type context, to read types.
    #[inline]
    pub fn tcx_ref(&self) -> &TyCtx {
        &self.solver.tcx
    }

    /// What `ty` is.
    #[inline]
    pub fn data(&self, ty: Ty) -> &TyData {
        self.solver.tcx.data(ty)
    }

    /// `ty` printed in the text syntax.
    pub fn show(&self, ty: Ty) -> String {
        self.solver.tcx.show(ty)
    }

    /// `dim` printed in the text syntax.
    pub fn show_dim(&self, dim: Dim) -> String {
        self.solver.tcx.show_dim(dim)
    }

    /// `ty` with every solved variable replaced by its value.
    pub fn resolve(&mut self, ty: Ty) -> Ty {
        self.solver.resolve(ty)
    }

    /// `dim` with every solved variable replaced by its value.
    pub fn resolve_dim(&mut self, dim: Dim) -> Dim {
        self.solver.resolve_dim(dim)
    }

    /// `dt` with its variable replaced by its value, if solved.
    pub fn resolve_dtype(&mut self, dt: DTy) -> DTy {
        self.solver.resolve_dtype(dt)
    }

    /// Unifies argument `arg` with `ty`; a failure blames `arg`.
    pub fn unify(&mut self, arg: usize, ty: Ty) -> Result<(), RelError> {
        let a = self.args[arg];
        self.unify_blaming(a, ty, arg)
    }

    /// Unifies argument `arg` with the tensor of `dims` and `dtype`; a failure blames
    /// `arg`.
    pub fn unify_tensor(&mut self, arg: usize, dims: &[Dim], dtype: DTy) -> Result<(), RelError> {
        let t = self.mk_tensor(dims, dtype);
        self.unify(arg, t)
    }

    /// Unifies `a` with `b`; a failure blames argument `blame`.
    pub fn unify_blaming(&mut self, a: Ty, b: Ty, blame: usize) -> Result<(), RelError> {
        self.solver
            .unify(a, b)
            .map_err(|e| self.unify_error(e, blame))
    }

    /// Unifies two dimensions; a failure blames argument `blame`.
    pub fn unify_dim(&mut self, a: Dim, b: Dim, blame: usize) -> Result<(), RelError> {
        self.solver
            .unify_dims(a, b)
            .map_err(|e| self.unify_error(e, blame))
    }

    /// Unifies two element types; a failure blames argument `blame`.
    pub fn unify_dtype(&mut self, a: DTy, b: DTy, blame: usize) -> Result<(), RelError> {
        self.solver
            .unify_dtypes(a, b)
            .map_err(|e| self.unify_error(e, blame))
    }

    fn unify_error(&self, e: UnifyError, blame: usize) -> RelError {
        RelError::at(blame, e.describe(&self.solver.tcx))
    }

    /// The shape and dtype of argument `arg` if it is known to be a tensor, `None` while
    /// it is unknown, an error if it is something else.
    pub fn tensor(&mut self, arg: usize) -> Result<Option<(Shape, DTy)>, RelError> {
        let t = if self.solver.binds == self.binds_at_start {
            self.args[arg]
        } else {
            self.solver.resolve(self.args[arg])
        };
        match self.solver.tcx.data(t) {
            TyData::Tensor(s, dt) => Ok(Some((*s, *dt))),
            TyData::Var(_) => Ok(None),
            _ => Err(RelError::at(
                arg,
                format!("expected a tensor, found `{}`", self.solver.tcx.show(t)),
            )),
        }
    }

    /// The dimensions and dtype of argument `arg` if it is a tensor of known rank,
    /// `None` while its type or rank is unknown, an error if it is not a tensor.
    pub fn tensor_dims(&mut self, arg: usize) -> Result<Option<(Vec<Dim>, DTy)>, RelError> {
        let Some((s, dt)) = self.tensor(arg)? else {
            return Ok(None);
        };
        Ok(match self.solver.tcx.shape_data(s) {
            ShapeData::Dims(d) => Some((d.to_vec(), dt)),
            ShapeData::Var(_) | ShapeData::Param(_) => None,
        })
    }

    /// Attribute `attr`'s value `axis` as an axis of argument `arg`, a tensor of rank
    /// `rank`: in `-rank..rank`, negatives counted from the end ([`axis_index`]); out of
    /// range, an error blaming `arg` that names the attribute, its value and the tensor.
    ///
    /// ```
    /// use relay_core::{relation, DType, Outcome, RelCx, RelResult, Relation, Solver, TyCtx};
    ///
    /// /// The type of the data, whose `axis` must exist.
    /// #[relation(Along)]
    /// pub fn along(cx: &mut RelCx<'_>) -> RelResult {
    ///     let Some((dims, dt)) = cx.tensor_dims(0)? else { return Ok(relay_core::Progress::NotYet) };
    ///     let axis = cx.attrs().int("axis")?.unwrap_or(-1);
    ///     cx.axis(0, "axis", axis, dims.len())?;
    ///     let t = cx.mk_tensor(&dims, dt);
    ///     cx.unify(1, t)?;
    ///     Ok(relay_core::Progress::Solved)
    /// }
    ///
    /// let mut s = Solver::new(TyCtx::new());
    /// let x = s.tcx.tensor_const(&[2, 3], DType::FLOAT32);
    /// let o = s.fresh_ty();
    /// let attrs = relay_core::Attrs::new(vec![("axis".into(), relay_core::AttrValue::Int(2))]);
    /// s.add_relation(Along::REF, &[x, o], Some(attrs.into()), 0);
    /// let Outcome::Failed(errors) = s.solve() else { panic!("it fails") };
    /// assert_eq!(errors[0].message, "`axis` 2 is out of range for `Tensor[(2, 3), float32]` (rank 2)");
    /// ```
    pub fn axis(
        &mut self,
        arg: usize,
        attr: &str,
        axis: i64,
        rank: usize,
    ) -> Result<usize, RelError> {
        axis_index(axis, rank)
            .ok_or_else(|| self.error_showing(arg, |t| axis_error(attr, axis, t, rank)))
    }

    /// An error blaming argument `arg` with `message(arg)`, the argument shown resolved
    /// as far as known.
    ///
    /// ```
    /// use relay_core::{relation, DType, Outcome, Progress, RelCx, RelResult, Relation, Solver, TyCtx};
    ///
    /// /// A matrix, returned as it is.
    /// #[relation(Matrix)]
    /// pub fn matrix(cx: &mut RelCx<'_>) -> RelResult {
    ///     let Some((dims, _)) = cx.tensor_dims(0)? else { return Ok(Progress::NotYet) };
    ///     if dims.len() != 2 {
    ///         return Err(cx.error_showing(0, |t| format!("expected a matrix, found `{t}`")));
    ///     }
    ///     cx.unify(1, cx.arg(0))?;
    ///     Ok(Progress::Solved)
    /// }
    ///
    /// let mut s = Solver::new(TyCtx::new());
    /// let x = s.tcx.tensor_const(&[2], DType::FLOAT32);
    /// let o = s.fresh_ty();
    /// s.add_relation(Matrix::REF, &[x, o], None, 0);
    /// let Outcome::Failed(errors) = s.solve() else { panic!("it fails") };
    /// assert_eq!(errors[0].message, "expected a matrix, found `Tensor[(2), float32]`");
    /// ```
    pub fn error_showing(&mut self, arg: usize, message: impl FnOnce(&str) -> String) -> RelError {
        let t = self.resolve(self.args[arg]);
        RelError::at(arg, message(&self.show(t)))
    }

    /// Attribute `attr`'s value `axis` as a position to insert a new axis into argument
    /// `arg`, a tensor of rank `rank`: in `-rank - 1..=rank`, negatives counted from the
    /// end (`-1` appends); out of range, an error blaming `arg` that names the attribute,
    /// its value, the tensor and the range.
    pub fn insert_axis(
        &mut self,
        arg: usize,
        attr: &str,
        axis: i64,
        rank: usize,
    ) -> Result<usize, RelError> {
        let rank = rank.saturating_add(1);
        axis_index(axis, rank).ok_or_else(|| {
            self.error_showing(arg, |t| {
                format!(
                    "`{attr}` {axis} is out of range for inserting into `{t}` (from -{rank} to {})",
                    rank - 1
                )
            })
        })
    }

    /// `Tensor[(dims...), dtype]`.
    pub fn mk_tensor(&mut self, dims: &[Dim], dtype: DTy) -> Ty {
        let s = self.solver.tcx.shape(dims);
        self.solver.tcx.tensor(s, dtype)
    }

    /// Runs relation `rel` over some of this run's arguments, with this call's
    /// attributes: argument `i` of `rel` is argument `args[i]` here, and an error of `rel`
    /// blames the argument here. How one operator's relation reuses another's, as TVM's do
    /// (`qnn.dense` checks its scales, then runs `nn.dense`'s relation over its data,
    /// weight and result).
    ///
    /// ```
    /// use relay_core::{relation, DType, Outcome, Progress, RelCx, RelResult, Relation, Solver, TyCtx};
    ///
    /// #[relation(Same(I, I) :- true)]
    /// pub struct Same;
    ///
    /// /// `Skip(A, B, O)`: `O` is `A`; `B` is ignored.
    /// #[relation(Skip)]
    /// pub fn skip(cx: &mut RelCx<'_>) -> RelResult {
    ///     cx.run_on(Same::REF, &[0, 2])
    /// }
    ///
    /// let mut s = Solver::new(TyCtx::new());
    /// let a = s.tcx.tensor_const(&[2], DType::INT8);
    /// let (b, o) = (s.fresh_ty(), s.fresh_ty());
    /// s.add_relation(Skip::REF, &[a, b, o], None, 0);
    /// assert_eq!(s.solve(), Outcome::Solved);
    /// let o = s.resolve(o);
    /// assert_eq!(s.tcx.show(o), "Tensor[(2), int8]");
    /// ```
    pub fn run_on(&mut self, rel: RelationRef, args: &[usize]) -> RelResult {
        let tys: Vec<Ty> = args
            .iter()
            .map(|&i| self.solver.resolve(self.args[i]))
            .collect();
        let binds_at_start = self.solver.binds;
        let mut sub = RelCx {
            solver: &mut *self.solver,
            args: &tys,
            attrs: self.attrs,
            op: self.op,
            binds_at_start,
        };
        (rel.def().solve)(&mut sub).map_err(|mut e| {
            e.arg = e.arg.and_then(|i| args.get(i).copied());
            e
        })
    }
}
