//! Rebuilding types with some leaves replaced: resolution of solved variables,
//! instantiation and renaming of parameters.
//!
//! The fold is a loop over an explicit stack with a memo table, so it is linear in the
//! size of the type *DAG* (shared subterms are visited once) and needs no call stack
//! proportional to the depth of the type.

use crate::dim::{Dim, DimError, Dims};
use crate::kind::{Kind, Param};
use crate::ty::{Constraint, DTy, FuncTy, Shape, ShapeData, Ty, TyCtx, TyData};
use rustc_hash::FxHashMap;

/// What replaces a type leaf (a variable or a parameter).
pub(crate) enum Leaf {
    /// Keep the leaf.
    Keep,
    /// Replace it with this type, as is.
    Final(Ty),
    /// Replace it with this type, itself folded further.
    Expand(Ty),
}

/// The leaf replacements of one fold.
pub(crate) trait Folder {
    /// The flags (`HAS_VARS`, `HAS_PARAMS`) of subterms this folder may change; subterms
    /// without them are returned untouched.
    fn mask(&self) -> u8;
    /// A `TyData::Var` or `TyData::Param` leaf.
    fn ty_leaf(&mut self, tcx: &mut TyCtx, leaf: &TyData) -> Leaf;
    /// A `ShapeData::Var` or `ShapeData::Param` leaf; the replacement's dimensions are
    /// folded in turn.
    fn shape_leaf(&mut self, tcx: &mut TyCtx, leaf: &ShapeData) -> Option<Shape>;
    /// A whole dimension that mentions leaves of interest.
    fn dim(&mut self, dims: &mut Dims, d: Dim) -> Result<Dim, DimError>;
    /// A dtype variable or parameter.
    fn dtype_leaf(&mut self, dt: DTy) -> Option<DTy>;
}

enum Frame {
    Visit(Ty),
    Build(Ty),
    Alias(Ty),
}

/// Folds a shape: leaves replaced, dimensions folded.
pub(crate) fn fold_shape<F: Folder>(
    tcx: &mut TyCtx,
    f: &mut F,
    s: Shape,
) -> Result<Shape, DimError> {
    if tcx.shape_flags(s) & f.mask() == 0 {
        return Ok(s);
    }
    let data = tcx.shape_data(s).clone();
    let s = match data {
        ShapeData::Dims(_) => s,
        leaf => match f.shape_leaf(tcx, &leaf) {
            Some(r) => r,
            None => return Ok(s),
        },
    };
    let Some(dims) = tcx.shape_dims(s) else {
        return Ok(s);
    };
    if tcx.shape_flags(s) & f.mask() == 0 {
        return Ok(s);
    }
    let dims = dims.to_vec();
    let mut changed = false;
    let mut out = Vec::with_capacity(dims.len());
    for d in dims {
        let nd = f.dim(&mut tcx.dims, d)?;
        changed |= nd != d;
        out.push(nd);
    }
    Ok(if changed { tcx.shape(&out) } else { s })
}

fn fold_dtype<F: Folder>(f: &mut F, dt: DTy) -> DTy {
    match dt {
        DTy::Known(_) => dt,
        _ => f.dtype_leaf(dt).unwrap_or(dt),
    }
}

/// Rebuilds a composite type from its folded children (in [`children`] order).
fn rebuild(tcx: &mut TyCtx, data: &TyData, kids: &[Ty]) -> Ty {
    let new = match data {
        TyData::Tuple(_) => TyData::Tuple(kids.into()),
        TyData::Call(adt, _) => TyData::Call(*adt, kids.into()),
        TyData::Ref(_) => TyData::Ref(kids[0]),
        TyData::Func(func) => {
            let n = func.args.len();
            let mut rest = &kids[n + 1..];
            let constraints = func
                .constraints
                .iter()
                .map(|c| {
                    let (mine, tail) = rest.split_at(c.args.len());
                    rest = tail;
                    Constraint {
                        relation: c.relation,
                        args: mine.into(),
                    }
                })
                .collect();
            TyData::Func(Box::new(FuncTy {
                params: func.params.clone(),
                args: kids[..n].into(),
                ret: kids[n],
                constraints,
            }))
        }
        _ => unreachable!("only composite types are rebuilt"),
    };
    tcx.rebuild(new)
}

/// Folds `ty` with `f`.
pub(crate) fn fold_ty<F: Folder>(tcx: &mut TyCtx, f: &mut F, ty: Ty) -> Result<Ty, DimError> {
    fold_ty_with(tcx, f, ty, &mut FxHashMap::default())
}

/// Folds `ty` with `f`, with `memo` holding the folds of types already folded by the same
/// folder (it is extended): folding many types that share parts visits each part once.
pub(crate) fn fold_ty_with<F: Folder>(
    tcx: &mut TyCtx,
    f: &mut F,
    ty: Ty,
    memo: &mut FxHashMap<Ty, Ty>,
) -> Result<Ty, DimError> {
    let mask = f.mask();
    if tcx.ty_flags(ty) & mask == 0 {
        return Ok(ty);
    }
    let mut stack = vec![Frame::Visit(ty)];
    let mut results: Vec<Ty> = Vec::new();
    let mut kids = Vec::new();
    while let Some(frame) = stack.pop() {
        match frame {
            Frame::Visit(t) => {
                if tcx.ty_flags(t) & mask == 0 {
                    results.push(t);
                    continue;
                }
                if let Some(&r) = memo.get(&t) {
                    results.push(r);
                    continue;
                }
                let data = tcx.data(t).clone();
                match &data {
                    TyData::Var(_) | TyData::Param(_) => match f.ty_leaf(tcx, &data) {
                        Leaf::Keep => {
                            memo.insert(t, t);
                            results.push(t);
                        }
                        Leaf::Final(r) => {
                            memo.insert(t, r);
                            results.push(r);
                        }
                        Leaf::Expand(r) => {
                            stack.push(Frame::Alias(t));
                            stack.push(Frame::Visit(r));
                        }
                    },
                    TyData::Tensor(s, dt) => {
                        let s2 = fold_shape(tcx, f, *s)?;
                        let dt2 = fold_dtype(f, *dt);
                        let r = if (s2, dt2) == (*s, *dt) {
                            t
                        } else {
                            tcx.tensor(s2, dt2)
                        };
                        memo.insert(t, r);
                        results.push(r);
                    }
                    TyData::Adt(_) => results.push(t),
                    _ => {
                        stack.push(Frame::Build(t));
                        kids.clear();
                        data.push_children(&mut kids);
                        for &k in kids.iter().rev() {
                            stack.push(Frame::Visit(k));
                        }
                    }
                }
            }
            Frame::Build(t) => {
                let data = tcx.data(t).clone();
                kids.clear();
                data.push_children(&mut kids);
                let start = results.len() - kids.len();
                let r = if results[start..] == kids[..] {
                    t
                } else {
                    rebuild(tcx, &data, &results[start..])
                };
                results.truncate(start);
                memo.insert(t, r);
                results.push(r);
            }
            Frame::Alias(t) => {
                let r = *results.last().expect("an expanded leaf leaves its result");
                memo.insert(t, r);
            }
        }
    }
    Ok(results.pop().expect("the fold leaves one result"))
}

/// A value for a parameter, of the sort its kind asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamValue {
    /// For a parameter of kind `Type`.
    Ty(Ty),
    /// For a parameter of kind `Shape`.
    Shape(Shape),
    /// For a parameter of kind `ShapeVar`.
    Dim(Dim),
    /// For a parameter of kind `BaseType`.
    DType(DTy),
}

impl ParamValue {
    /// The kind of parameter this value can stand for.
    pub fn kind(self) -> Kind {
        match self {
            ParamValue::Ty(_) => Kind::Type,
            ParamValue::Shape(_) => Kind::Shape,
            ParamValue::Dim(_) => Kind::ShapeVar,
            ParamValue::DType(_) => Kind::BaseType,
        }
    }
}

/// Replaces parameters by values (one pass: replacements are not substituted again).
pub(crate) struct Subst<'a>(pub(crate) &'a FxHashMap<Param, ParamValue>);

impl Folder for Subst<'_> {
    fn mask(&self) -> u8 {
        crate::ty::HAS_PARAMS
    }

    fn ty_leaf(&mut self, _: &mut TyCtx, leaf: &TyData) -> Leaf {
        match leaf {
            TyData::Param(p) => match self.0.get(p) {
                Some(ParamValue::Ty(t)) => Leaf::Final(*t),
                _ => Leaf::Keep,
            },
            _ => Leaf::Keep,
        }
    }

    fn shape_leaf(&mut self, _: &mut TyCtx, leaf: &ShapeData) -> Option<Shape> {
        match leaf {
            ShapeData::Param(p) => match self.0.get(p) {
                Some(ParamValue::Shape(s)) => Some(*s),
                _ => None,
            },
            _ => None,
        }
    }

    fn dim(&mut self, dims: &mut Dims, d: Dim) -> Result<Dim, DimError> {
        if !dims.has_syms(d) {
            return Ok(d);
        }
        let map = self.0;
        dims.map_leaves(d, |dims, x| match dims.data(x) {
            crate::dim::DimData::Sym(p) => match map.get(p) {
                Some(ParamValue::Dim(v)) => Some(*v),
                _ => None,
            },
            _ => None,
        })
    }

    fn dtype_leaf(&mut self, dt: DTy) -> Option<DTy> {
        match dt {
            DTy::Param(p) => match self.0.get(&p) {
                Some(ParamValue::DType(v)) => Some(*v),
                _ => None,
            },
            _ => None,
        }
    }
}

impl TyCtx {
    /// `ty` with each parameter in `map` replaced by its value.
    ///
    /// ```
    /// use relay_core::{DType, Kind, ParamValue, TyCtx};
    /// let mut tcx = TyCtx::new();
    /// let s = tcx.param("s", Kind::Shape);
    /// let shape = tcx.shape_param(s).unwrap();
    /// let t = tcx.tensor(shape, relay_core::DTy::Known(DType::FLOAT32));
    /// let ten = tcx.tensor_const(&[10, 10], DType::FLOAT32);
    /// let relay_core::TyData::Tensor(ten_shape, _) = *tcx.data(ten) else { unreachable!() };
    /// let map = [(s, ParamValue::Shape(ten_shape))].into_iter().collect();
    /// let r = tcx.substitute(t, &map).unwrap();
    /// assert_eq!(tcx.show(r), "Tensor[(10, 10), float32]");
    /// ```
    pub fn substitute(
        &mut self,
        ty: Ty,
        map: &FxHashMap<Param, ParamValue>,
    ) -> Result<Ty, DimError> {
        if map.is_empty() {
            return Ok(ty);
        }
        fold_ty(self, &mut Subst(map), ty)
    }
}
