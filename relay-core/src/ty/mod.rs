//! The type language: interned types, shapes and data types, and the [`TyCtx`] that
//! owns them.
//!
//! Every type is hash-consed: building the same type twice gives the same [`Ty`], so
//! equality is `==` on ids and a program of a million tensors of one shape stores that
//! tensor type once. Each interned type records whether it mentions flexible variables
//! or rigid parameters, so resolving or instantiating a ground type costs nothing.
//!
//! ```
//! use relay_core::{DType, Kind, TyCtx};
//! let mut tcx = TyCtx::new();
//! let n = tcx.param("n", Kind::ShapeVar);
//! let n = tcx.dim_param(n).unwrap();
//! let c = tcx.dims.konst(768);
//! let a = tcx.tensor_of(&[n, c], DType::FLOAT32);
//! let b = tcx.tensor_of(&[n, c], DType::FLOAT32);
//! assert_eq!(a, b);
//! assert_eq!(tcx.show(a), "Tensor[(n, 768), float32]");
//! ```

mod parse;
pub mod print;

pub(crate) use parse::{parse_shape_at, parse_type_at, parse_type_params_at};
pub use parse::{parse_type, Binding, TypeParseError, TypeScope, MAX_NESTING};

use crate::dim::{Dim, Dims};
use crate::dtype::DType;
use crate::intern::Interner;
use crate::kind::{Kind, KindError, Param, ParamInfo};
use crate::var::{DTypeVar, ShapeVar, TyVar};
use std::fmt;
use std::hash::{Hash, Hasher};

/// An interned type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ty(pub(crate) u32);

/// An interned shape.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape(pub(crate) u32);

/// An ADT handle (Relay's `GlobalTypeVar`): ADTs are distinct by handle, even when
/// their constructors are identical.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Adt(pub(crate) u32);

/// The element type of a tensor type: known, a flexible variable, or a parameter of
/// kind `BaseType`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DTy {
    /// A known data type.
    Known(DType),
    /// A flexible variable.
    Var(DTypeVar),
    /// A rigid parameter of kind `BaseType`.
    Param(Param),
}

/// What an interned [`Shape`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShapeData {
    /// A shape of known rank.
    Dims(Box<[Dim]>),
    /// A shape not known yet, rank included.
    Var(ShapeVar),
    /// A rigid parameter of kind `Shape`.
    Param(Param),
}

impl Hash for ShapeData {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match self {
            ShapeData::Dims(dims) => hash_dims(dims, h),
            ShapeData::Var(v) => {
                h.write_u8(1);
                v.hash(h);
            }
            ShapeData::Param(p) => {
                h.write_u8(2);
                p.hash(h);
            }
        }
    }
}

/// The hash of `ShapeData::Dims(dims)`, computable from a borrowed slice.
fn hash_dims<H: Hasher>(dims: &[Dim], h: &mut H) {
    h.write_u8(0);
    dims.hash(h);
}

/// A type relation as a function type's constraint names it: a static definition,
/// compared and hashed by its address. The types know only its name; its definition (the
/// function that solves it) is the solver's, [`crate::RelationDef`], which the solver gets
/// back from it ([`RelationRef::def`]), so the types sit below the solver.
///
/// ```
/// use relay_core::{Progress, RelationDef, RelationRef};
/// static SAME: RelationDef =
///     RelationDef { name: "Same", arity: Some(2), needs: &[], solve: |_| Ok(Progress::Solved) };
/// let r = RelationRef(&SAME);
/// assert_eq!(r.name(), "Same");
/// assert_eq!(r.def().arity, Some(2));
/// ```
#[derive(Copy, Clone, Debug)]
pub struct RelationRef(pub &'static dyn RelationName);

/// What a type knows of a relation: its name. Implemented by the solver's
/// [`crate::RelationDef`] only.
pub trait RelationName: std::any::Any + Sync + fmt::Debug + sealed::Relation {
    /// The relation's name (`Broadcast`).
    fn name(&self) -> &'static str;
}

/// The seal of [`RelationName`]: only the solver's definition implements it.
pub(crate) mod sealed {
    /// A relation's definition.
    pub trait Relation {}
}

impl RelationRef {
    /// The relation's name.
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// Where its definition is: what it is compared and hashed by.
    pub(crate) fn addr(self) -> usize {
        (self.0 as *const dyn RelationName).cast::<()>() as usize
    }
}

impl PartialEq for RelationRef {
    fn eq(&self, other: &Self) -> bool {
        self.addr() == other.addr()
    }
}

impl Eq for RelationRef {}

impl Hash for RelationRef {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.addr().hash(state)
    }
}

/// A type relation applied to types: one of the constraints of a function type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    /// The relation.
    pub relation: RelationRef,
    /// Its arguments (usually the function's argument types and its return type).
    pub args: Box<[Ty]>,
}

/// A function type `fn [params](args) -> ret where constraints`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncTy {
    /// The type parameters it binds, instantiated afresh at each call.
    pub params: Box<[Param]>,
    /// The argument types.
    pub args: Box<[Ty]>,
    /// The return type.
    pub ret: Ty,
    /// The relations that must hold at every call.
    pub constraints: Box<[Constraint]>,
}

/// What an interned [`Ty`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TyData {
    /// `Tensor[shape, dtype]`.
    Tensor(Shape, DTy),
    /// `(a, b, ...)`.
    Tuple(Box<[Ty]>),
    /// A function type (boxed: it is rare, and the other variants are small).
    Func(Box<FuncTy>),
    /// A rigid type parameter of kind `Type`.
    Param(Param),
    /// An ADT handle used as a type.
    Adt(Adt),
    /// An ADT applied to type arguments (`List[int32]`).
    Call(Adt, Box<[Ty]>),
    /// `ref(T)`.
    Ref(Ty),
    /// An incomplete type: a flexible variable of the solver.
    Var(TyVar),
}

impl TyData {
    /// Pushes the types this one is made of onto `out`, in order: a tuple's fields, an
    /// ADT call's arguments, a reference's type, a function's arguments, result and the
    /// arguments of its constraints.
    pub fn push_children(&self, out: &mut Vec<Ty>) {
        match self {
            TyData::Tuple(ts) | TyData::Call(_, ts) => out.extend_from_slice(ts),
            TyData::Ref(t) => out.push(*t),
            TyData::Func(func) => {
                out.extend_from_slice(&func.args);
                out.push(func.ret);
                for c in func.constraints.iter() {
                    out.extend_from_slice(&c.args);
                }
            }
            _ => {}
        }
    }
}

/// What the context knows of an ADT: its name, type parameters and constructors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdtInfo {
    /// The name of the data type.
    pub name: Box<str>,
    /// Its type parameters, in order.
    pub params: Box<[Param]>,
    /// Its constructors, in declaration order (their index is their tag); empty until
    /// [`TyCtx::set_adt_ctors`] records them.
    pub ctors: Box<[AdtCtor]>,
}

/// A constructor of an ADT: `Cons : (a, List[a]) -> List`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdtCtor {
    /// Its name (`Cons`).
    pub name: Box<str>,
    /// Its field types, over the data type's parameters.
    pub fields: Box<[Ty]>,
    /// Its type as a function: `fn [a](a, List[a]) -> List[a]`.
    pub ty: Ty,
}

/// A type call with the wrong number of arguments (`List[A, B]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArityError {
    /// The data type's name.
    pub name: Box<str>,
    /// How many type parameters it declares.
    pub expected: usize,
    /// How many arguments it was given.
    pub found: usize,
}

impl fmt::Display for ArityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.expected == 1 { "" } else { "s" };
        write!(
            f,
            "`{}` takes {} type argument{plural} but {} were given",
            self.name, self.expected, self.found
        )
    }
}

impl std::error::Error for ArityError {}

pub(crate) const HAS_VARS: u8 = 1;
pub(crate) const HAS_PARAMS: u8 = 2;

/// The owner of every interned type, shape, dimension, parameter and ADT handle.
///
/// One `TyCtx` serves a whole session (a module and everything inferred over it); ids
/// from one context mean nothing in another.
pub struct TyCtx {
    types: Interner<TyData>,
    ty_flags: Vec<u8>,
    shapes: Interner<ShapeData>,
    shape_flags: Vec<u8>,
    params: Vec<ParamInfo>,
    adts: Vec<AdtInfo>,
    /// The ADT last declared under each name.
    adt_names: rustc_hash::FxHashMap<Box<str>, Adt>,
    var_tys: Vec<Ty>,
    var_shapes: Vec<Shape>,
    tensor_cache: [Option<(Shape, DTy, Ty)>; TENSOR_CACHE],
    /// The strings of clause values (an einsum equation), interned.
    texts: Interner<Box<str>>,
    /// The dimension table and its arithmetic.
    pub dims: Dims,
}

/// An interned string: a string attribute or literal passed to a Rust function of a
/// clause ([`Value::Text`](crate::clause::Value::Text)), read with [`TyCtx::text_str`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Text(u32);

impl Default for TyCtx {
    fn default() -> Self {
        Self::new()
    }
}

impl TyCtx {
    /// The string `s`, interned.
    ///
    /// ```
    /// let mut tcx = relay_core::TyCtx::new();
    /// let t = tcx.text("ij,jk->ik");
    /// assert_eq!(tcx.text_str(t), "ij,jk->ik");
    /// assert_eq!(tcx.text("ij,jk->ik"), t);
    /// ```
    pub fn text(&mut self, s: &str) -> Text {
        let hash = std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, s);
        Text(self.texts.intern_with(hash, |t| &**t == s, || s.into()))
    }

    /// The string of an interned [`Text`].
    pub fn text_str(&self, t: Text) -> &str {
        self.texts.get(t.0)
    }

    /// An empty context.
    pub fn new() -> Self {
        TyCtx {
            types: Interner::new(),
            ty_flags: Vec::new(),
            shapes: Interner::new(),
            shape_flags: Vec::new(),
            params: Vec::new(),
            adts: Vec::new(),
            adt_names: Default::default(),
            var_tys: Vec::new(),
            var_shapes: Vec::new(),
            tensor_cache: [None; TENSOR_CACHE],
            texts: Interner::new(),
            dims: Dims::new(),
        }
    }

    // ----- parameters and ADT handles -----

    /// A new rigid parameter named `name` of kind `kind`.
    pub fn param(&mut self, name: &str, kind: Kind) -> Param {
        let id = u32::try_from(self.params.len()).expect("more than 4 billion parameters");
        self.params.push(ParamInfo {
            name: name.into(),
            kind,
        });
        Param(id)
    }

    /// What is known of `p`.
    pub fn param_info(&self, p: Param) -> &ParamInfo {
        &self.params[p.0 as usize]
    }

    /// The name `p` was declared with.
    pub fn param_name(&self, p: Param) -> &str {
        &self.params[p.0 as usize].name
    }

    fn expect_kind(&self, p: Param, expected: Kind) -> Result<(), KindError> {
        let info = self.param_info(p);
        if info.kind == expected {
            Ok(())
        } else {
            Err(KindError {
                name: info.name.clone(),
                found: info.kind,
                expected,
            })
        }
    }

    /// A new ADT handle named `name` with type parameters `params` (all of kind `Type`).
    pub fn adt(&mut self, name: &str, params: &[Param]) -> Result<Adt, KindError> {
        for &p in params {
            self.expect_kind(p, Kind::Type)?;
        }
        let id = u32::try_from(self.adts.len()).expect("more than 4 billion ADTs");
        self.adts.push(AdtInfo {
            name: name.into(),
            params: params.into(),
            ctors: Box::new([]),
        });
        self.adt_names.insert(name.into(), Adt(id));
        Ok(Adt(id))
    }

    /// The ADT declared last under `name` (a program's own data type shadows the
    /// prelude's): how a relation finds a data type it returns, as TVM's
    /// `memory.alloc_storage` returns the module's `Storage`.
    ///
    /// ```
    /// use relay_core::TyCtx;
    /// let mut tcx = TyCtx::new();
    /// assert_eq!(tcx.adt_named("Storage"), None);
    /// let first = tcx.adt("Storage", &[]).unwrap();
    /// assert_eq!(tcx.adt_named("Storage"), Some(first));
    /// let second = tcx.adt("Storage", &[]).unwrap();
    /// assert_eq!(tcx.adt_named("Storage"), Some(second));
    /// ```
    pub fn adt_named(&self, name: &str) -> Option<Adt> {
        self.adt_names.get(name).copied()
    }

    /// Records the constructors of `adt` (replacing any recorded before).
    pub fn set_adt_ctors(&mut self, adt: Adt, ctors: Vec<AdtCtor>) {
        self.adts[adt.0 as usize].ctors = ctors.into();
    }

    /// What is known of `adt`.
    pub fn adt_info(&self, adt: Adt) -> &AdtInfo {
        &self.adts[adt.0 as usize]
    }

    // ----- interning -----

    fn mk(&mut self, data: TyData) -> Ty {
        let flags = match &data {
            TyData::Tensor(s, dt) => self.shape_flags[s.0 as usize] | dty_flags(*dt),
            TyData::Tuple(ts) | TyData::Call(_, ts) => self.flags_of(ts),
            TyData::Func(f) => {
                let mut fl = self.flags_of(&f.args) | self.ty_flags[f.ret.0 as usize];
                for c in f.constraints.iter() {
                    fl |= self.flags_of(&c.args);
                }
                // A function type that binds parameters mentions them by construction.
                if !f.params.is_empty() {
                    fl |= HAS_PARAMS;
                }
                fl
            }
            TyData::Param(_) => HAS_PARAMS,
            TyData::Adt(_) => 0,
            TyData::Ref(t) => self.ty_flags[t.0 as usize],
            TyData::Var(_) => HAS_VARS,
        };
        let id = self.types.intern(data);
        if id as usize == self.ty_flags.len() {
            self.ty_flags.push(flags);
        }
        Ty(id)
    }

    fn flags_of(&self, tys: &[Ty]) -> u8 {
        tys.iter()
            .fold(0, |acc, t| acc | self.ty_flags[t.0 as usize])
    }

    /// What `ty` is.
    #[inline]
    pub fn data(&self, ty: Ty) -> &TyData {
        self.types.get(ty.0)
    }

    /// What `shape` is.
    #[inline]
    pub fn shape_data(&self, shape: Shape) -> &ShapeData {
        self.shapes.get(shape.0)
    }

    /// The dimensions of `shape` if its rank is known.
    #[inline]
    pub fn shape_dims(&self, shape: Shape) -> Option<&[Dim]> {
        match self.shape_data(shape) {
            ShapeData::Dims(d) => Some(d),
            _ => None,
        }
    }

    /// Whether `ty` mentions a flexible variable (type, shape, dimension or dtype).
    #[inline]
    pub fn has_vars(&self, ty: Ty) -> bool {
        self.ty_flags[ty.0 as usize] & HAS_VARS != 0
    }

    /// Whether `ty` mentions a rigid parameter (including symbolic dimensions).
    #[inline]
    pub fn has_params(&self, ty: Ty) -> bool {
        self.ty_flags[ty.0 as usize] & HAS_PARAMS != 0
    }

    #[inline]
    pub(crate) fn ty_flags(&self, ty: Ty) -> u8 {
        self.ty_flags[ty.0 as usize]
    }

    #[inline]
    pub(crate) fn shape_flags(&self, shape: Shape) -> u8 {
        self.shape_flags[shape.0 as usize]
    }

    /// The number of distinct types interned so far.
    pub fn type_count(&self) -> usize {
        self.types.len()
    }

    // ----- builders -----

    /// The shape with dimensions `dims`.
    pub fn shape(&mut self, dims: &[Dim]) -> Shape {
        let flags = dims.iter().fold(0, |acc, &d| {
            acc | if self.dims.has_vars(d) { HAS_VARS } else { 0 }
                | if self.dims.has_syms(d) { HAS_PARAMS } else { 0 }
        });
        let hash = crate::intern::hash_with(|h| hash_dims(dims, h));
        let id = self.shapes.intern_with(
            hash,
            |s| matches!(s, ShapeData::Dims(d) if **d == *dims),
            || ShapeData::Dims(dims.into()),
        );
        if id as usize == self.shape_flags.len() {
            self.shape_flags.push(flags);
        }
        Shape(id)
    }

    fn mk_shape(&mut self, data: ShapeData, flags: u8) -> Shape {
        let id = self.shapes.intern(data);
        if id as usize == self.shape_flags.len() {
            self.shape_flags.push(flags);
        }
        Shape(id)
    }

    /// The flexible shape `v`.
    pub fn shape_var(&mut self, v: ShapeVar) -> Shape {
        let (shapes, flags) = (&mut self.shapes, &mut self.shape_flags);
        var_slot(&mut self.var_shapes, v.0, Shape(u32::MAX), || {
            let s = Shape(shapes.push_unique(ShapeData::Var(v)));
            flags.push(HAS_VARS);
            s
        })
    }

    /// The shape parameter `p`; a kind error unless `p` has kind `Shape`.
    pub fn shape_param(&mut self, p: Param) -> Result<Shape, KindError> {
        self.expect_kind(p, Kind::Shape)?;
        Ok(self.mk_shape(ShapeData::Param(p), HAS_PARAMS))
    }

    /// The symbolic dimension `p`; a kind error unless `p` has kind `ShapeVar`.
    pub fn dim_param(&mut self, p: Param) -> Result<Dim, KindError> {
        self.expect_kind(p, Kind::ShapeVar)?;
        Ok(self.dims.sym(p))
    }

    /// The element type `p`; a kind error unless `p` has kind `BaseType`.
    pub fn dtype_param(&self, p: Param) -> Result<DTy, KindError> {
        self.expect_kind(p, Kind::BaseType)?;
        Ok(DTy::Param(p))
    }

    /// The type parameter `p` as a type; a kind error unless `p` has kind `Type`.
    pub fn param_ty(&mut self, p: Param) -> Result<Ty, KindError> {
        self.expect_kind(p, Kind::Type)?;
        Ok(self.mk(TyData::Param(p)))
    }

    /// `Tensor[shape, dtype]`.
    pub fn tensor(&mut self, shape: Shape, dtype: DTy) -> Ty {
        // Programs use few distinct tensor types many times: a small direct-mapped cache
        // in front of the hash table answers most lookups without hashing.
        let slot = (shape.0 as usize ^ dty_key(dtype)) % TENSOR_CACHE;
        if let Some((s, d, t)) = self.tensor_cache[slot] {
            if s == shape && d == dtype {
                return t;
            }
        }
        let t = self.mk(TyData::Tensor(shape, dtype));
        self.tensor_cache[slot] = Some((shape, dtype, t));
        t
    }

    /// `Tensor[(dims...), dtype]` for a known data type.
    pub fn tensor_of(&mut self, dims: &[Dim], dtype: DType) -> Ty {
        let s = self.shape(dims);
        self.tensor(s, DTy::Known(dtype))
    }

    /// `Tensor[(c0, c1, ...), dtype]` with constant dimensions.
    pub fn tensor_const(&mut self, dims: &[i64], dtype: DType) -> Ty {
        let dims: Vec<Dim> = dims.iter().map(|&c| self.dims.konst(c)).collect();
        self.tensor_of(&dims, dtype)
    }

    /// The scalar type (rank 0) of `dtype`, printed as the bare dtype.
    pub fn scalar(&mut self, dtype: DType) -> Ty {
        self.tensor_of(&[], dtype)
    }

    /// The tuple type of `fields`.
    pub fn tuple(&mut self, fields: &[Ty]) -> Ty {
        self.mk(TyData::Tuple(fields.into()))
    }

    /// The function type `fn [params](args) -> ret where constraints`.
    pub fn func(
        &mut self,
        params: &[Param],
        args: &[Ty],
        ret: Ty,
        constraints: Vec<Constraint>,
    ) -> Ty {
        self.mk(TyData::Func(Box::new(FuncTy {
            params: params.into(),
            args: args.into(),
            ret,
            constraints: constraints.into(),
        })))
    }

    /// The ADT handle itself as a type.
    ///
    /// A data type without parameters *is* a type: its handle is the same type as
    /// `type_call(adt, [])`, so that `Unit` means one thing. The handle of a data type
    /// with parameters is a type-level function, the type of no value.
    pub fn adt_ty(&mut self, adt: Adt) -> Ty {
        if self.adt_info(adt).params.is_empty() {
            return self.mk(TyData::Call(adt, Box::new([])));
        }
        self.mk(TyData::Adt(adt))
    }

    /// The type call `adt[args...]`; an error unless there is one argument per parameter.
    pub fn type_call(&mut self, adt: Adt, args: &[Ty]) -> Result<Ty, ArityError> {
        let info = self.adt_info(adt);
        if info.params.len() != args.len() {
            return Err(ArityError {
                name: info.name.clone(),
                expected: info.params.len(),
                found: args.len(),
            });
        }
        Ok(self.mk(TyData::Call(adt, args.into())))
    }

    /// `ref(ty)`.
    pub fn ref_ty(&mut self, ty: Ty) -> Ty {
        self.mk(TyData::Ref(ty))
    }

    /// Whether `p` is an incomplete type `_` written in a program (a parameter of that
    /// name, which inference replaces by an unknown wherever it is read).
    pub fn is_hole(&self, p: Param) -> bool {
        self.param_name(p) == "_"
    }

    /// Whether `ty` mentions an incomplete type `_` ([`TyCtx::is_hole`]).
    pub fn has_holes(&self, ty: Ty) -> bool {
        self.has_params(ty) && self.free_params(ty).into_iter().any(|p| self.is_hole(p))
    }

    /// Makes room for `n` more type variables.
    pub fn reserve_vars(&mut self, n: usize) {
        self.types.reserve(n);
        self.ty_flags.reserve(n);
        self.var_tys.reserve(n);
    }

    /// The incomplete type `v`.
    pub fn var_ty(&mut self, v: TyVar) -> Ty {
        // Variables are never looked up by value: a dense table indexed by the variable
        // finds their type, and the hash table never holds them.
        let (types, flags) = (&mut self.types, &mut self.ty_flags);
        var_slot(&mut self.var_tys, v.0, Ty(u32::MAX), || {
            let t = Ty(types.push_unique(TyData::Var(v)));
            flags.push(HAS_VARS);
            t
        })
    }

    /// Rebuilds a type node with new children (same variant as `data`).
    pub(crate) fn rebuild(&mut self, data: TyData) -> Ty {
        self.mk(data)
    }

    /// The parameters `ty` mentions that no function type inside it binds, each once, in
    /// order of first appearance (symbolic dimensions included).
    pub fn free_params(&self, ty: Ty) -> Vec<Param> {
        if !self.has_params(ty) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut bound = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = vec![ty];
        while let Some(t) = stack.pop() {
            if !self.has_params(t) || !seen.insert(t) {
                continue;
            }
            match self.data(t) {
                TyData::Param(p) => out.push(*p),
                TyData::Tensor(s, dt) => {
                    match self.shape_data(*s) {
                        ShapeData::Param(p) => out.push(*p),
                        ShapeData::Dims(ds) => {
                            for &d in ds.iter() {
                                out.extend(self.dims.syms(d));
                            }
                        }
                        ShapeData::Var(_) => {}
                    }
                    if let DTy::Param(p) = dt {
                        out.push(*p);
                    }
                }
                TyData::Tuple(ts) | TyData::Call(_, ts) => stack.extend(ts.iter().rev()),
                TyData::Ref(inner) => stack.push(*inner),
                TyData::Func(f) => {
                    bound.extend_from_slice(&f.params);
                    for c in f.constraints.iter().rev() {
                        stack.extend(c.args.iter().rev());
                    }
                    stack.push(f.ret);
                    stack.extend(f.args.iter().rev());
                }
                TyData::Adt(_) | TyData::Var(_) => {}
            }
        }
        let mut once = rustc_hash::FxHashSet::default();
        out.retain(|p| !bound.contains(p) && once.insert(*p));
        out
    }

    /// `ty` printed in the text syntax, cut past [`print::SHOW_LIMIT`] bytes
    /// (`(float32, ... 12 nodes more)`).
    pub fn show(&self, ty: Ty) -> String {
        print::type_to_string(self, ty)
    }

    /// `ty` printed in the text syntax, cut past `limit` bytes (`usize::MAX`: never).
    pub fn show_within(&self, ty: Ty, limit: usize) -> String {
        print::type_to_string_within(self, ty, limit)
    }

    /// `dim` printed in the text syntax.
    pub fn show_dim(&self, dim: Dim) -> String {
        print::dim_to_string(self, dim)
    }

    /// `dt` printed in the text syntax.
    pub fn show_dtype(&self, dt: DTy) -> String {
        print::dtype_to_string(self, dt)
    }

    /// `shape` printed in the text syntax.
    pub fn show_shape(&self, shape: Shape) -> String {
        print::shape_to_string(self, shape)
    }
}

/// The number of slots of [`TyCtx::tensor`]'s cache.
const TENSOR_CACHE: usize = 64;

/// A cheap key of an element type, to pick a cache slot.
fn dty_key(dt: DTy) -> usize {
    match dt {
        DTy::Known(d) => ((d.bits() as usize) << 3) ^ (d.lanes() as usize) ^ (d.code() as usize),
        DTy::Var(v) => v.index() as usize * 7,
        DTy::Param(p) => p.index() as usize * 13,
    }
}

fn dty_flags(dt: DTy) -> u8 {
    match dt {
        DTy::Known(_) => 0,
        DTy::Var(_) => HAS_VARS,
        DTy::Param(_) => HAS_PARAMS,
    }
}

/// The interned variable of number `var` in its dense table (`none` where there is none
/// yet), or else `intern()`'s, put there.
#[inline]
fn var_slot<I: Copy + PartialEq>(
    table: &mut Vec<I>,
    var: u32,
    none: I,
    intern: impl FnOnce() -> I,
) -> I {
    let slot = var as usize;
    if let Some(&x) = table.get(slot).filter(|&&x| x != none) {
        return x;
    }
    let x = intern();
    if table.len() <= slot {
        table.resize(slot + 1, none);
    }
    table[slot] = x;
    x
}
