//! Algebraic data types: what [`relay_data!`](crate::relay_data) declares and registers,
//! and [`load`], which gives every registered data type its handle in a [`TyCtx`].
//!
//! A data type is a [`DataDef`]: its name, its type parameters and its constructors, each
//! with field types kept as text of the type syntax (checked by the macro at compile time,
//! parsed by [`load`] in a scope that binds the parameters and every registered data
//! type, so that data types may refer to each other across crates).
//!
//! The accepted forms, with a runnable example, are in the documentation of
//! [`relay_data!`](crate::relay_data). Constructors are global names (as in Relay's
//! text format): two data types declaring a constructor of the same name are rejected
//! when the registry is built.

use crate::kind::{Kind, KindError, Param};
use crate::op::OpDef;
use crate::registry::{self, Registry, RegistryError};
use crate::ty::{parse_type, Binding, TypeParseError, TypeScope};
use crate::ty::{Adt, AdtCtor, Ty, TyCtx};
use rustc_hash::FxHashMap;
use std::fmt;

/// A constructor of a data type, as declared.
#[derive(Debug, PartialEq)]
pub struct CtorDef {
    /// Its name (`Cons`).
    pub name: &'static str,
    /// The field types in the text syntax, over the data type's parameters.
    pub fields: &'static [&'static str],
}

/// A data type, as `relay_data!` declares it.
#[derive(Debug, PartialEq)]
pub struct DataDef {
    /// Its name (`List`).
    pub name: &'static str,
    /// The doc comment.
    pub doc: &'static str,
    /// Its type parameters (all of kind `Type`).
    pub params: &'static [&'static str],
    /// Its constructors, in declaration order (the index is the tag).
    pub ctors: &'static [CtorDef],
    /// Where it was declared (`file!()`).
    pub file: &'static str,
    /// The line it was declared on.
    pub line: u32,
}

impl DataDef {
    /// The index of constructor `name`.
    pub fn ctor_index(&self, name: &str) -> Option<usize> {
        self.ctors.iter().position(|c| c.name == name)
    }
}

/// A constructor applied to arguments, built in Rust. Generic over the argument type.
#[derive(Clone, Debug, PartialEq)]
pub struct CtorCall<E> {
    /// The data type.
    pub data: &'static DataDef,
    /// The constructor's index in [`DataDef::ctors`].
    pub ctor: usize,
    /// The arguments, one per field.
    pub args: Vec<E>,
}

impl<E> CtorCall<E> {
    /// The constructor.
    pub fn ctor_def(&self) -> &'static CtorDef {
        &self.data.ctors[self.ctor]
    }

    /// The constructor's name.
    pub fn name(&self) -> &'static str {
        self.ctor_def().name
    }
}

/// A reference to a loaded constructor: its data type and its index.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CtorRef {
    /// The data type's handle.
    pub adt: Adt,
    /// The index of the constructor (its tag).
    pub index: u32,
}

/// The data types loaded into one [`TyCtx`]: handles and constructors by name.
///
/// The table also carries the registry its data types come from: where a reader of
/// programs finds operators ([`AdtTable::registry`]), so that no reader looks the
/// registry up itself. A table made by [`AdtTable::default`], [`load`] or [`load_defs`]
/// carries the global registry ([`registry::global`]); one made by [`load_from`], the
/// registry given.
#[derive(Clone, Debug)]
pub struct AdtTable {
    adts: FxHashMap<Box<str>, Adt>,
    ctors: FxHashMap<Box<str>, CtorRef>,
    /// Every handle, in the order declared (sorted by name when asked for).
    order: Vec<Adt>,
    /// The registry, or why it could not be built.
    registry: Result<&'static Registry, &'static [RegistryError]>,
}

impl Default for AdtTable {
    fn default() -> Self {
        AdtTable::empty(registry::global())
    }
}

impl AdtTable {
    /// A table without data types, over `registry`.
    fn empty(registry: Result<&'static Registry, &'static [RegistryError]>) -> Self {
        AdtTable {
            adts: FxHashMap::default(),
            ctors: FxHashMap::default(),
            order: Vec::new(),
            registry,
        }
    }

    /// The registry the table's data types come from (or why it could not be built):
    /// where operators are found.
    pub fn registry(&self) -> Result<&'static Registry, &'static [RegistryError]> {
        self.registry
    }

    /// The help for type error `e` if it is about an unknown type that the registry seems
    /// to lack the crate of ([`AdtTable::link_hint`]).
    pub(crate) fn unknown_type_hint(&self, e: &TypeParseError) -> Option<String> {
        self.link_hint(registry::Unknown::Type, e.unknown_type()?)
    }

    /// The operator named `name` in the table's registry.
    pub fn op(&self, name: &str) -> Option<&'static OpDef> {
        self.registry.ok()?.op(name)
    }

    /// How to fix the unknown name `name` when the table's registry seems to lack the
    /// crate that declares it ([`registry::link_hint_in`]).
    pub fn link_hint(&self, what: registry::Unknown, name: &str) -> Option<String> {
        registry::link_hint_in(self.registry, what, name)
    }

    /// The handle of data type `name`.
    pub fn adt(&self, name: &str) -> Option<Adt> {
        self.adts.get(name).copied()
    }

    /// The constructor `name`.
    pub fn ctor(&self, name: &str) -> Option<CtorRef> {
        self.ctors.get(name).copied()
    }

    /// The names of every constructor, in no particular order.
    pub fn ctor_names(&self) -> impl Iterator<Item = &str> {
        self.ctors.keys().map(|k| &**k)
    }

    /// What `tcx` records of constructor `c`.
    pub fn ctor_info<'t>(&self, tcx: &'t TyCtx, c: CtorRef) -> &'t AdtCtor {
        &tcx.adt_info(c.adt).ctors[c.index as usize]
    }

    /// Every loaded handle, sorted by name (handles of one name in the order they were
    /// declared).
    pub fn adts(&self, tcx: &TyCtx) -> Vec<Adt> {
        let mut sorted = self.order.clone();
        sorted.sort_by(|&a, &b| tcx.adt_info(a).name.cmp(&tcx.adt_info(b).name));
        sorted
    }

    /// Declares data type `name` over the type parameters `params` (all of kind `Type`)
    /// in `tcx` and in this table, without constructors yet (see
    /// [`AdtTable::define_ctors`]): how a parser declares the data types of its source.
    pub fn declare(
        &mut self,
        tcx: &mut TyCtx,
        name: &str,
        params: &[Param],
    ) -> Result<Adt, KindError> {
        let adt = tcx.adt(name, params)?;
        self.adts.insert(name.into(), adt);
        self.order.push(adt);
        Ok(adt)
    }

    /// Gives the declared data type `adt` its constructors, each a name and its field
    /// types (over the data type's parameters), and records each constructor's function
    /// type. Returns the name of a constructor already known (none is recorded then).
    pub fn define_ctors(
        &mut self,
        tcx: &mut TyCtx,
        adt: Adt,
        ctors: Vec<(Box<str>, Vec<Ty>)>,
    ) -> Result<(), Box<str>> {
        self.define_ctors_shadowing(tcx, adt, ctors, |_| false)
    }

    /// [`AdtTable::define_ctors`], where a constructor of a data type for which `shadows`
    /// holds is not a clash: the new constructor of that name takes its place (a
    /// program's own `Some` over the prelude's).
    pub fn define_ctors_shadowing(
        &mut self,
        tcx: &mut TyCtx,
        adt: Adt,
        ctors: Vec<(Box<str>, Vec<Ty>)>,
        shadows: impl Fn(Adt) -> bool,
    ) -> Result<(), Box<str>> {
        let mut seen = rustc_hash::FxHashSet::default();
        for (name, _) in &ctors {
            let clash = self.ctors.get(name).is_some_and(|c| !shadows(c.adt));
            if clash || !seen.insert(name) {
                return Err(name.clone());
            }
        }
        let ps = tcx.adt_info(adt).params.clone();
        let args: Vec<_> = ps
            .iter()
            .map(|&p| tcx.param_ty(p).expect("kind `Type`"))
            .collect();
        let result = tcx
            .type_call(adt, &args)
            .expect("one argument per parameter");
        let mut infos = Vec::with_capacity(ctors.len());
        for (index, (name, fields)) in ctors.into_iter().enumerate() {
            let ty = tcx.func(&ps, &fields, result, Vec::new());
            let index = u32::try_from(index).expect("fewer than 4 billion constructors");
            self.ctors.insert(name.clone(), CtorRef { adt, index });
            infos.push(AdtCtor {
                name,
                fields: fields.into(),
                ty,
            });
        }
        tcx.set_adt_ctors(adt, infos);
        Ok(())
    }

    /// A scope binding every loaded data type's name to its handle (to parse types that
    /// mention them).
    ///
    /// TVM's prelude calls `Optional` `Option`: where no data type has that name, it is
    /// `Optional`'s too.
    pub fn scope(&self) -> TypeScope {
        let mut scope = TypeScope::new();
        for (name, &adt) in &self.adts {
            scope.bind(name, Binding::Adt(adt));
        }
        if let (None, Some(&optional)) = (self.adts.get("Option"), self.adts.get("Optional")) {
            scope.bind("Option", Binding::Adt(optional));
        }
        scope
    }
}

/// Why the data types could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AdtError {
    /// The registry could not be built.
    Registry(RegistryError),
    /// A field type does not parse in the scope of the registered data types (a data type
    /// from another crate that is not linked, or given the wrong number of arguments).
    Field {
        /// The constructor.
        ctor: &'static str,
        /// The field's index.
        field: usize,
        /// Where the data type was declared (`file:line`).
        place: String,
        /// The parse error.
        error: TypeParseError,
    },
    /// Two data types of the same name were given.
    Duplicate(&'static str),
}

impl fmt::Display for AdtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdtError::Registry(e) => e.fmt(f),
            AdtError::Field {
                ctor,
                field,
                place,
                error,
            } => write!(
                f,
                "field {field} of constructor `{ctor}` (declared at {place}): {}",
                error.message
            ),
            AdtError::Duplicate(name) => write!(f, "data type `{name}` is given twice"),
        }
    }
}

impl AdtError {
    /// How to fix it, where that is known: a type name it was probably meant to be
    /// (`Lst`: `did you mean `List`?`), how to link the crate that declares it, how to
    /// resolve a clash of names.
    pub fn help(&self) -> Option<String> {
        match self {
            AdtError::Registry(e) => e.help(),
            AdtError::Field { error, .. } => error.help.clone(),
            AdtError::Duplicate(_) => None,
        }
    }
}

impl std::error::Error for AdtError {}

/// Loads every registered data type into `tcx`: a handle per data type, the constructors'
/// field types and function types recorded in [`crate::AdtInfo::ctors`]. Otherwise every
/// error: each mistake in the registry, or each field type that does not parse.
pub fn load(tcx: &mut TyCtx) -> Result<AdtTable, Vec<AdtError>> {
    let reg = registry::global().map_err(|errors| {
        errors
            .iter()
            .cloned()
            .map(AdtError::Registry)
            .collect::<Vec<_>>()
    })?;
    load_from(tcx, reg)
}

/// [`load`] for the data types of `registry`, which the table carries (a program read
/// with it finds its operators there).
pub fn load_from(tcx: &mut TyCtx, registry: &'static Registry) -> Result<AdtTable, Vec<AdtError>> {
    load_in(tcx, registry.data_types().iter().copied(), Ok(registry))
}

/// Loads the data types `defs` into `tcx` (as [`load`] does for the registered ones), or
/// gives every error: each name given twice, or else each field type that does not parse.
pub fn load_defs(
    tcx: &mut TyCtx,
    defs: impl IntoIterator<Item = &'static DataDef>,
) -> Result<AdtTable, Vec<AdtError>> {
    load_in(tcx, defs, registry::global())
}

/// [`load_defs`] into a table over `registry`.
fn load_in(
    tcx: &mut TyCtx,
    defs: impl IntoIterator<Item = &'static DataDef>,
    registry: Result<&'static Registry, &'static [RegistryError]>,
) -> Result<AdtTable, Vec<AdtError>> {
    let mut defs: Vec<&'static DataDef> = defs.into_iter().collect();
    defs.sort_by_key(|d| d.name);
    let mut errors: Vec<AdtError> = defs
        .windows(2)
        .filter(|w| w[0].name == w[1].name)
        .map(|w| AdtError::Duplicate(w[0].name))
        .collect();
    errors.dedup();
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut table = AdtTable::empty(registry);
    let mut params = Vec::with_capacity(defs.len());
    for d in &defs {
        let ps: Vec<_> = d.params.iter().map(|p| tcx.param(p, Kind::Type)).collect();
        let adt = tcx
            .adt(d.name, &ps)
            .expect("data type parameters have kind `Type`");
        table.adts.insert(d.name.into(), adt);
        table.order.push(adt);
        params.push(ps);
    }
    let base = table.scope();
    for (i, d) in defs.iter().enumerate() {
        let adt = table.order[i];
        let ps = &params[i];
        let mut scope = base.clone();
        for (name, &p) in d.params.iter().zip(ps) {
            scope.bind(name, Binding::Param(p));
        }
        let mut ctors = Vec::with_capacity(d.ctors.len());
        for c in d.ctors {
            let mut fields = Vec::with_capacity(c.fields.len());
            for (field, src) in c.fields.iter().enumerate() {
                match parse_type(tcx, &mut scope, src) {
                    Ok(t) => fields.push(t),
                    Err(mut error) => {
                        error.help = table.unknown_type_hint(&error).or(error.help);
                        errors.push(AdtError::Field {
                            ctor: c.name,
                            field,
                            place: format!("{}:{}", d.file, d.line),
                            error,
                        });
                    }
                }
            }
            ctors.push((c.name.into(), fields));
        }
        // After an error the table is not returned: only the errors are still wanted.
        if errors.is_empty() {
            table
                .define_ctors(tcx, adt, ctors)
                .expect("the registry rejects constructors declared twice");
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(table)
}
