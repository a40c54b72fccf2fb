//! Resolution: types with every solved variable replaced by its value, and the unknowns
//! left in them.

use super::*;

impl Solver {
    // ----- resolution -----

    /// `ty` with every solved variable replaced by its value (and every variable by its
    /// union-find root).
    #[inline]
    pub fn resolve(&mut self, ty: Ty) -> Ty {
        if !self.tcx.has_vars(ty) {
            return ty;
        }
        // Fast path: a variable unbound, or bound to a ground type.
        if let TyData::Var(_) = self.tcx.data(ty) {
            let t = self.shallow(ty);
            if !self.tcx.has_vars(t) || matches!(self.tcx.data(t), TyData::Var(_)) {
                return t;
            }
        }
        self.resolve_slow(ty)
    }

    /// `ty` with its bound variables followed at the top only: enough to see what it is
    /// (a tuple, a function), in time that does not depend on its size.
    pub fn resolve_top(&mut self, ty: Ty) -> Ty {
        self.shallow(ty)
    }

    /// Runs `f` with the type context and a folder that replaces solved variables.
    fn with_resolver<R>(&mut self, f: impl FnOnce(&mut TyCtx, &mut Resolver<'_>) -> R) -> R {
        let Solver {
            tcx,
            tys,
            shapes,
            dims,
            dtypes,
            ..
        } = self;
        let mut r = Resolver {
            tys,
            shapes,
            dims,
            dtypes,
        };
        f(tcx, &mut r)
    }

    /// Resolves every type of `tables` in place, sharing the work: a part common to many
    /// of them (a variable's value inside every type of a nest of tuples around it) is
    /// resolved once, so the whole is linear in the distinct types, not in the sum of
    /// their sizes.
    pub fn resolve_each(&mut self, tables: &mut [&mut [Ty]]) {
        let mut memo = FxHashMap::default();
        // A loop per table (a chain of iterators costs more than the check itself).
        for tys in tables.iter_mut() {
            for t in tys.iter_mut() {
                if !self.tcx.has_vars(*t) {
                    continue;
                }
                let folded =
                    self.with_resolver(|tcx, r| crate::fold::fold_ty_with(tcx, r, *t, &mut memo));
                match folded {
                    Ok(r) => *t = r,
                    Err(e) => self.resolve_failed(e),
                }
            }
        }
    }

    #[inline(never)]
    pub(super) fn resolve_slow(&mut self, ty: Ty) -> Ty {
        let folded = self.with_resolver(|tcx, r| fold_ty(tcx, r, ty));
        match folded {
            Ok(t) => t,
            Err(e) => {
                self.resolve_failed(e);
                ty
            }
        }
    }

    /// Reports that resolving failed (the value of a solved variable made the arithmetic
    /// of an expression overflow): [`Solver::solve`] returns it as a failure.
    pub(super) fn resolve_failed(&mut self, e: DimError) {
        // Through `push_error`, so that a rollback takes it back.
        self.push_error(SolveError {
            relation: "resolve",
            origin: u32::MAX,
            arg: None,
            message: e.to_string(),
            notes: Vec::new(),
        });
    }

    /// `dim` with every solved variable replaced by its value. If the arithmetic fails,
    /// `dim` comes back as it is and the next [`Solver::solve`] reports the failure (as
    /// [`Solver::resolve`] does).
    pub fn resolve_dim(&mut self, dim: Dim) -> Dim {
        match resolve_dim_in(&mut self.tcx.dims, &mut self.dims, dim) {
            Ok(d) => d,
            Err(e) => {
                self.resolve_failed(e);
                dim
            }
        }
    }

    /// `shape` with every solved variable replaced by its value (a failure is reported
    /// as by [`Solver::resolve_dim`]).
    pub fn resolve_shape(&mut self, shape: Shape) -> Shape {
        match self.with_resolver(|tcx, r| crate::fold::fold_shape(tcx, r, shape)) {
            Ok(s) => s,
            Err(e) => {
                self.resolve_failed(e);
                shape
            }
        }
    }

    /// `dt` with its variable replaced by its value, if solved.
    pub fn resolve_dtype(&mut self, dt: DTy) -> DTy {
        self.shallow_dtype(dt)
    }

    /// The unknowns in `ty` (resolved first), each once, in order of appearance.
    pub fn unknowns(&mut self, ty: Ty) -> Vec<VarRef> {
        let t = self.resolve(ty);
        let mut out = Vec::new();
        self.collect_vars(t, &mut out);
        dedup_in_order(&mut out);
        out
    }

    /// Pushes the variables of a *resolved* type (possibly with repeats).
    pub(super) fn collect_vars(&self, t: Ty, out: &mut Vec<VarRef>) {
        if !self.tcx.has_vars(t) {
            return;
        }
        // Fast paths for the common leaves, without the bookkeeping of the general walk.
        match self.tcx.data(t) {
            TyData::Var(v) => return out.push(VarRef::Ty(*v)),
            TyData::Tensor(s, dt) => return self.collect_tensor_vars(*s, *dt, out),
            _ => {}
        }
        let mut seen = FxHashSet::default();
        let mut stack = vec![t];
        let mut kids = Vec::new();
        while let Some(t) = stack.pop() {
            if !self.tcx.has_vars(t) || !seen.insert(t) {
                continue;
            }
            match self.tcx.data(t) {
                TyData::Var(v) => out.push(VarRef::Ty(*v)),
                TyData::Tensor(s, dt) => self.collect_tensor_vars(*s, *dt, out),
                data => {
                    kids.clear();
                    data.push_children(&mut kids);
                    stack.extend(kids.iter().rev());
                }
            }
        }
    }

    pub(super) fn collect_tensor_vars(&self, s: Shape, dt: DTy, out: &mut Vec<VarRef>) {
        match self.tcx.shape_data(s) {
            ShapeData::Var(v) => out.push(VarRef::Shape(*v)),
            ShapeData::Dims(ds) => {
                for &d in ds.iter() {
                    match self.tcx.dims.data(d) {
                        DimData::Var(v) => out.push(VarRef::Dim(*v)),
                        _ if self.tcx.dims.has_vars(d) => {
                            out.extend(self.tcx.dims.vars(d).into_iter().map(VarRef::Dim))
                        }
                        _ => {}
                    }
                }
            }
            ShapeData::Param(_) => {}
        }
        if let DTy::Var(v) = dt {
            out.push(VarRef::DType(v));
        }
    }

    /// Instantiates a function type's parameters with fresh variables: the argument
    /// types, the return type and the constraints of one call.
    pub fn instantiate(
        &mut self,
        func: Ty,
    ) -> Result<(Vec<Ty>, Ty, Vec<Constraint>), InstantiateError> {
        self.instantiate_with(func, &[])
    }

    /// Instantiates a function type with explicit values for its leading type parameters
    /// (`@plus<(10, 10)>(..)`), fresh variables for the others.
    pub fn instantiate_with(
        &mut self,
        func: Ty,
        explicit: &[ParamValue],
    ) -> Result<(Vec<Ty>, Ty, Vec<Constraint>), InstantiateError> {
        let TyData::Func(f) = self.tcx.data(func).clone() else {
            return Err(InstantiateError::NotAFunction(func));
        };
        if explicit.len() > f.params.len() {
            return Err(InstantiateError::TooManyTypeArgs {
                expected: f.params.len(),
                found: explicit.len(),
            });
        }
        let mut map = FxHashMap::default();
        for (i, &p) in f.params.iter().enumerate() {
            let kind = self.tcx.param_info(p).kind;
            let value = match explicit.get(i) {
                Some(&v) if v.kind() == kind => v,
                Some(&v) => {
                    return Err(InstantiateError::Kind {
                        index: i,
                        param: self.tcx.param_name(p).into(),
                        expected: kind,
                        found: v.kind(),
                    })
                }
                None => self.fresh_for(kind),
            };
            map.insert(p, value);
        }
        let body = self.tcx.func(&[], &f.args, f.ret, f.constraints.to_vec());
        let body = self
            .tcx
            .substitute(body, &map)
            .map_err(InstantiateError::Arith)?;
        let TyData::Func(g) = self.tcx.data(body).clone() else {
            unreachable!()
        };
        Ok((g.args.to_vec(), g.ret, g.constraints.to_vec()))
    }
}

/// Resolves a dimension through the dimension table until no solved variable is left.
pub(super) fn resolve_dim_in(
    dims: &mut Dims,
    table: &mut InPlaceUnificationTable<DimVar>,
    mut d: Dim,
) -> Result<Dim, DimError> {
    loop {
        if !dims.has_vars(d) {
            return Ok(d);
        }
        let mut changed = false;
        let next = dims.map_leaves(d, |dims, x| {
            let DimData::Var(v) = *dims.data(x) else {
                return None;
            };
            let root = find(table, v);
            match table.probe_value(root).0 {
                Some(value) => {
                    changed = true;
                    Some(value)
                }
                None if root != v => {
                    changed = true;
                    Some(dims.var(root))
                }
                None => None,
            }
        })?;
        if !changed {
            return Ok(next);
        }
        d = next;
    }
}

struct Resolver<'a> {
    tys: &'a mut InPlaceUnificationTable<TyVar>,
    shapes: &'a mut InPlaceUnificationTable<ShapeVar>,
    dims: &'a mut InPlaceUnificationTable<DimVar>,
    dtypes: &'a mut InPlaceUnificationTable<DTypeVar>,
}

impl Folder for Resolver<'_> {
    fn mask(&self) -> u8 {
        crate::ty::HAS_VARS
    }

    fn ty_leaf(&mut self, tcx: &mut TyCtx, leaf: &TyData) -> Leaf {
        let TyData::Var(v) = *leaf else {
            return Leaf::Keep;
        };
        let root = find(self.tys, v);
        match self.tys.probe_value(root).0 {
            Some(value) => Leaf::Expand(value),
            None if root != v => Leaf::Final(tcx.var_ty(root)),
            None => Leaf::Keep,
        }
    }

    fn shape_leaf(&mut self, tcx: &mut TyCtx, leaf: &ShapeData) -> Option<Shape> {
        let ShapeData::Var(v) = *leaf else {
            return None;
        };
        let root = find(self.shapes, v);
        match self.shapes.probe_value(root).0 {
            Some(value) => Some(value),
            None if root != v => Some(tcx.shape_var(root)),
            None => None,
        }
    }

    fn dim(&mut self, dims: &mut Dims, d: Dim) -> Result<Dim, DimError> {
        resolve_dim_in(dims, self.dims, d)
    }

    fn dtype_leaf(&mut self, dt: DTy) -> Option<DTy> {
        let DTy::Var(v) = dt else { return None };
        let root = find(self.dtypes, v);
        Some(self.dtypes.probe_value(root).0.unwrap_or(DTy::Var(root)))
    }
}
