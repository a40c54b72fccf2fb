//! Why solving fails: unification errors with their paths, relation errors, and the
//! three outcomes of solving.

use super::*;

/// One step of the path from the root of a unification to the place it failed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Field `i` of a tuple.
    Field(usize),
    /// Argument `i` of a function type.
    Arg(usize),
    /// The return type of a function type.
    Ret,
    /// Type argument `i` of a type call.
    TypeArg(usize),
    /// The contents of a reference.
    RefInner,
    /// Dimension `i` of a shape.
    Dim(usize),
    /// The element type of a tensor.
    DType,
    /// Argument `j` of constraint `i` of a function type.
    ConstraintArg(usize, usize),
}

/// Why two types do not unify.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnifyErrorKind {
    /// Two types of different constructors, handles or parameters.
    Types(Ty, Ty),
    /// Two shapes of different ranks.
    Rank(Shape, Shape),
    /// Two shapes that cannot be equal (a parameter and another shape).
    Shapes(Shape, Shape),
    /// Two dimensions that cannot be equal.
    Dims(Dim, Dim),
    /// `a = b` asks an unknown to be a fraction.
    NoIntegerSolution(Dim, Dim),
    /// Two different element types.
    DTypes(DTy, DTy),
    /// A variable would contain itself.
    Occurs(Ty, Ty),
    /// Two tuples, functions or type calls with different numbers of parts.
    Arity {
        what: &'static str,
        left: usize,
        right: usize,
    },
    /// Two function types whose constraints differ.
    Constraints,
    /// Dimension arithmetic failed.
    Arith(DimError),
}

/// A failed unification: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnifyError {
    /// The path from the unified types to the clash, outermost first.
    pub path: Vec<Step>,
    /// The clash.
    pub kind: UnifyErrorKind,
}

impl UnifyError {
    pub(super) fn new(kind: UnifyErrorKind) -> Self {
        UnifyError {
            path: Vec::new(),
            kind,
        }
    }

    /// A one-line description, for example `dimension 1: 3 vs 5`.
    pub fn describe(&self, tcx: &TyCtx) -> String {
        self.describe_sides(tcx, (None, None))
    }

    /// [`UnifyError::describe`], saying where each side of a clash of two values came
    /// from where `sides` names it (the first unified type's, then the second's), for
    /// example `dimension 1: 3 from `%a` vs 5 from `%b``.
    pub fn describe_sides(&self, tcx: &TyCtx, sides: (Option<&str>, Option<&str>)) -> String {
        let mut out = String::new();
        for step in &self.path {
            let s = match step {
                Step::Field(i) => format!("tuple field {i}"),
                Step::Arg(i) => format!("function argument {}", i + 1),
                Step::Ret => "function result".to_string(),
                Step::TypeArg(i) => format!("type argument {}", i + 1),
                Step::RefInner => "reference contents".to_string(),
                Step::Dim(i) => format!("dimension {i}"),
                Step::DType => "dtype".to_string(),
                Step::ConstraintArg(i, j) => format!("constraint {} argument {}", i + 1, j + 1),
            };
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(&s);
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        let from = |side: Option<&str>| side.map_or(String::new(), |s| format!(" from {s}"));
        let (l, r) = (from(sides.0), from(sides.1));
        // The two sides that clash, each with where it comes from.
        let vs = |a: String, b: String| format!("{a}{l} vs {b}{r}");
        let quoted = |s: String| format!("`{s}`");
        let detail = match &self.kind {
            UnifyErrorKind::Types(a, b) => vs(quoted(tcx.show(*a)), quoted(tcx.show(*b))),
            UnifyErrorKind::Rank(a, b) => {
                let ranked = |s: &Shape| {
                    let rank = tcx.shape_dims(*s).map_or(0, |d| d.len());
                    format!("rank {rank} `{}`", tcx.show_shape(*s))
                };
                vs(ranked(a), ranked(b))
            }
            UnifyErrorKind::Shapes(a, b) => vs(
                format!("shape `{}`", tcx.show_shape(*a)),
                quoted(tcx.show_shape(*b)),
            ),
            UnifyErrorKind::Dims(a, b) => vs(tcx.show_dim(*a), tcx.show_dim(*b)),
            UnifyErrorKind::NoIntegerSolution(a, b) => format!(
                "`{} = {}` has no integer solution",
                tcx.show_dim(*a),
                tcx.show_dim(*b)
            ),
            UnifyErrorKind::DTypes(a, b) => vs(tcx.show_dtype(*a), tcx.show_dtype(*b)),
            UnifyErrorKind::Occurs(v, t) => format!(
                "`{}` would have to contain itself in `{}` (an infinite type)",
                tcx.show(*v),
                tcx.show(*t)
            ),
            UnifyErrorKind::Arity { what, left, right } => format!("{what} of {left} vs {right}"),
            UnifyErrorKind::Constraints => "function types with different relations".to_string(),
            UnifyErrorKind::Arith(e) => e.to_string(),
        };
        out.push_str(&detail);
        out
    }
}

/// A relation that failed, or a dimension equation that turned out false.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveError {
    /// The relation's name (`DimEq` for a deferred dimension equation).
    pub relation: &'static str,
    /// The tag given to [`Solver::add_relation`] (the call it comes from).
    pub origin: u32,
    /// The argument blamed, if one is.
    pub arg: Option<usize>,
    /// What is wrong.
    pub message: String,
    /// Further facts.
    pub notes: Vec<String>,
}

/// A relation still waiting at the fixpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// The relation's name.
    pub relation: &'static str,
    /// The tag given to [`Solver::add_relation`].
    pub origin: u32,
    /// Its arguments, resolved as far as known (printed).
    pub args: Vec<String>,
    /// The unknowns it waits on.
    pub unknowns: Vec<VarRef>,
}

/// The three outcomes of solving (the spec's list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every relation holds.
    Solved,
    /// At least one relation or equation does not hold.
    Failed(Vec<SolveError>),
    /// A fixpoint with relations still waiting on unknowns.
    UnderConstrained(Vec<Waiting>),
}

pub(super) fn prefix(mut e: UnifyError, mut outer: Vec<Step>) -> UnifyError {
    outer.append(&mut e.path);
    e.path = outer;
    e
}

/// Why a type could not be instantiated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstantiateError {
    /// Only a function type has parameters to instantiate.
    NotAFunction(Ty),
    /// Substituting the parameters overflowed dimension arithmetic.
    Arith(DimError),
    /// More explicit type arguments than type parameters.
    TooManyTypeArgs {
        /// The number of type parameters.
        expected: usize,
        /// The number of type arguments.
        found: usize,
    },
    /// An explicit type argument of the wrong kind.
    Kind {
        /// Which type argument.
        index: usize,
        /// The parameter's name.
        param: Box<str>,
        /// The parameter's kind.
        expected: Kind,
        /// The argument's kind.
        found: Kind,
    },
}

impl fmt::Display for InstantiateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstantiateError::NotAFunction(_) => {
                f.write_str("only a function type can be instantiated")
            }
            InstantiateError::Arith(e) => write!(f, "{e}"),
            InstantiateError::TooManyTypeArgs { expected, found } => write!(
                f,
                "{found} type argument{} given but it takes {expected}",
                if *found == 1 { "" } else { "s" }
            ),
            InstantiateError::Kind {
                index,
                param,
                expected,
                found,
            } => write!(
                f,
                "type argument {} is a `{found}` but the parameter `{param}` is a `{expected}`",
                index + 1
            ),
        }
    }
}

impl std::error::Error for InstantiateError {}

thread_local! {
    /// Whether this thread is running a relation's code: a panic there becomes that
    /// relation's error ([`run_relation`]), and the panic hook stays quiet about it.
    static IN_RELATION: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Where the last panic of a relation's code was (`file:line:column`), for its error.
    static PANICKED_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Installs, once per process, a panic hook that prints nothing for a panic inside a
/// relation's code (its error says it) and hands every other panic to the hook that was
/// in place before. A hook the host sets later replaces it: then a relation's panic is
/// printed by that hook too, and still becomes the relation's error.
fn quiet_in_relations() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_RELATION.with(std::cell::Cell::get) {
                let at = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                PANICKED_AT.with(|p| *p.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs the code of `relation`; a panic in it is that relation's error
/// ([`relation_panicked`]), and nothing is printed for it (no panic message, no
/// backtrace): the error is reported with the others.
pub(crate) fn run_relation(
    relation: crate::relation::RelationRef,
    solve: impl FnOnce() -> crate::relation::RelResult,
) -> crate::relation::RelResult {
    // A hook cannot be set while this thread unwinds (a check run by a `Drop`).
    if !std::thread::panicking() {
        quiet_in_relations();
    }
    let outer = IN_RELATION.with(|r| r.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(solve));
    IN_RELATION.with(|r| r.set(outer));
    result.unwrap_or_else(|panic| {
        let at = PANICKED_AT.with(|p| p.borrow_mut().take());
        Err(relation_panicked(relation, &*panic, at.as_deref()))
    })
}

/// The error of a relation whose code panicked with `payload` (at `at`, when known): an
/// internal error of the relation, which names it, not of the program.
pub(crate) fn relation_panicked(
    relation: crate::relation::RelationRef,
    payload: &(dyn std::any::Any + Send),
    at: Option<&str>,
) -> crate::relation::RelError {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message");
    let at = at.map_or(String::new(), |at| format!(" at {at}"));
    crate::relation::RelError::new(format!(
        "internal error: relation `{}` panicked{at}: {what}",
        relation.name()
    ))
    .note("this is a bug of the relation, not of the program: report it to the crate that declares it")
}
