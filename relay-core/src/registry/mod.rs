//! The registry of relations, operators and data types, filled by the declaration macros
//! through `inventory` and built once, sorted by name, rejecting duplicates. The names of
//! operators, data types and constructors are global, as in Relay's text; relations are
//! told apart by their module path too, as operators name them by their Rust type.
//!
//! `#[relation]`, [`relay_op!`](crate::relay_op) and [`relay_data!`](crate::relay_data)
//! each submit an entry; [`global`] collects every entry of the linked crates the first
//! time it is called. `inventory` only sees crates that are linked into the binary: a
//! crate whose declarations must be found is named in code (`use relay_ops as _;`).
//!
//! ```
//! use relay_core::registry::Registry;
//! use relay_core::op::OpDef;
//! static ID: OpDef = OpDef {
//!     name: "id", doc: "", params: &[], arg_names: &["x"], args: &["float32"],
//!     ret: "float32", relation: None, attrs: &[], level: 1, file: "a.rs", line: 3,
//! };
//! static ID2: OpDef = OpDef { file: "b.rs", line: 7, ..ID };
//! let reg = Registry::build([], [&ID], []).unwrap();
//! assert_eq!(reg.op("id").unwrap().line, 3);
//! let errors = Registry::build([], [&ID, &ID2], []).unwrap_err();
//! assert_eq!(errors[0].to_string(), "operator `id` is declared twice: at a.rs:3 and at b.rs:7");
//! ```

pub mod adt;

use crate::op::OpDef;
use crate::relation::RelationDef;
use adt::DataDef;
use std::fmt;
use std::sync::OnceLock;

/// A relation registered by `#[relation]`.
#[derive(Debug)]
pub struct RelationEntry {
    /// The relation.
    pub def: &'static RelationDef,
    /// The module that declares it (`module_path!()`): relations of different modules
    /// may share a name (a crate's `Dense` and relay-ops' `Dense`), as operators name
    /// their relation by its Rust type.
    pub module: &'static str,
    /// Where it was declared (`file!()`), for duplicate errors.
    pub file: &'static str,
    /// The line it was declared on.
    pub line: u32,
}

inventory::collect!(RelationEntry);

impl RelationEntry {
    /// Its full path: its module's and its name (`relay_ops::level1::Dense`).
    ///
    /// ```
    /// use relay_core::registry::RelationEntry;
    /// let e = RelationEntry { def: relay_core::testing::BROADCAST.def(), module: "my_ops::rels", file: "a.rs", line: 3 };
    /// assert_eq!(e.path(), "my_ops::rels::Broadcast");
    /// ```
    pub fn path(&self) -> String {
        format!("{}::{}", self.module, self.def.name)
    }
}

/// An operator registered by `relay_op!`.
#[derive(Debug)]
pub struct OpEntry {
    /// The operator.
    pub def: &'static OpDef,
}

inventory::collect!(OpEntry);

/// A data type registered by `relay_data!`.
#[derive(Debug)]
pub struct DataEntry {
    /// The data type.
    pub def: &'static DataDef,
}

inventory::collect!(DataEntry);

/// A prelude text registered by [`relay_prelude!`](crate::relay_prelude): Relay
/// functions a crate adds to every program's scope.
#[derive(Debug)]
pub struct PreludeEntry {
    /// The path given to the macro, relative to the file it is in (`"my_prelude.relay"`).
    pub path: &'static str,
    /// The file the macro is in (`file!()`).
    pub file: &'static str,
    /// The line the macro is on.
    pub line: u32,
    /// The text of the prelude (`include_str!(path)`).
    pub text: &'static str,
}

inventory::collect!(PreludeEntry);

impl PreludeEntry {
    /// The name its diagnostics give the prelude: its file's path, as the path of the
    /// file that registers it names it (`tests/downstream/src/my_prelude.relay`).
    ///
    /// ```
    /// use relay_core::registry::PreludeEntry;
    /// let e = PreludeEntry { path: "my_prelude.relay", file: "src/lib.rs", line: 3, text: "" };
    /// assert_eq!(e.name(), "src/my_prelude.relay");
    /// let e = PreludeEntry { path: "../relay/ops.relay", file: "lib.rs", line: 3, text: "" };
    /// assert_eq!(e.name(), "../relay/ops.relay");
    /// ```
    pub fn name(&self) -> String {
        let path = std::path::Path::new(self.path);
        match std::path::Path::new(self.file).parent() {
            Some(dir) if path.is_relative() && !dir.as_os_str().is_empty() => {
                dir.join(path).display().to_string()
            }
            _ => self.path.to_string(),
        }
    }
}

/// Every prelude text registered by [`relay_prelude!`](crate::relay_prelude) in the
/// linked crates, sorted by name (and by place, for two of one name).
pub fn preludes() -> Vec<(String, &'static PreludeEntry)> {
    let mut all: Vec<(String, &'static PreludeEntry)> = inventory::iter::<PreludeEntry>()
        .map(|e| (e.name(), e))
        .collect();
    all.sort_by(|a, b| (&a.0, a.1.file, a.1.line).cmp(&(&b.0, b.1.file, b.1.line)));
    all
}

/// A mistake that keeps the registry from being built ([`Registry::build`] gives every one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegistryError {
    /// Nothing is registered: no crate with declarations is linked.
    Empty,
    /// Two declarations of the same name.
    Duplicate {
        /// `relation`, `operator`, `data type` or `constructor`.
        what: &'static str,
        /// The name declared twice (a relation's full path, `my_ops::Dense`).
        name: String,
        /// The first place (`file:line`).
        first: String,
        /// The second place.
        second: String,
    },
    /// An operator whose relation takes a different number of arguments than the
    /// operator's arguments and result (`relay_op!` makes this a compile error for a
    /// relation of `#[relation]`; here it is caught for one written by hand).
    Arity {
        /// The operator.
        op: &'static str,
        /// The relation.
        relation: &'static str,
        /// How many the relation takes.
        expected: usize,
        /// How many the operator gives it (arguments and result).
        found: usize,
        /// Where the operator was declared.
        place: String,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::Empty => f.write_str(
                "no relation, operator or data type is registered: a crate's declarations are \
                 found only when it is linked, so name it in your code (`use relay_ops as _;`)",
            ),
            RegistryError::Duplicate {
                what,
                name,
                first,
                second,
            } => write!(
                f,
                "{what} `{name}` is declared twice: at {first} and at {second}"
            ),
            RegistryError::Arity {
                op,
                relation,
                expected,
                found,
                place,
            } => write!(
                f,
                "operator `{op}` (at {place}) gives relation `{relation}` {found} arguments \
                 (its arguments and its result) but `{relation}` takes {expected}"
            ),
        }
    }
}

impl RegistryError {
    /// How to fix it, where the message does not say.
    ///
    /// ```
    /// use relay_core::registry::RegistryError;
    /// let e = RegistryError::Duplicate {
    ///     what: "operator", name: "dense".into(), first: "a.rs:3".into(), second: "b.rs:7".into(),
    /// };
    /// assert_eq!(
    ///     e.help().unwrap(),
    ///     "the names of operators are global across the linked crates: rename one of them \
    ///      (a crate's operators usually share a namespace of its own: `my.dense`)"
    /// );
    /// ```
    pub fn help(&self) -> Option<String> {
        let RegistryError::Duplicate { what, name, .. } = self else {
            return None;
        };
        Some(match *what {
            // Relations of different modules may share a name: these are of one module.
            "relation" => "relations are told apart by their module path, and these two have \
                the same one: two versions of their crate are linked into the program (`cargo \
                tree --duplicates` lists them), or the relation is registered twice"
                .to_string(),
            "operator" if name.contains('.') => "the names of operators are global across \
                the linked crates: rename one of them, or put it in a namespace of its crate's \
                own"
            .to_string(),
            "operator" => format!(
                "the names of operators are global across the linked crates: rename one of \
                 them (a crate's operators usually share a namespace of its own: `my.{name}`)"
            ),
            _ => format!(
                "the names of data types and constructors are global across the linked \
                 crates, as in Relay's text format: rename one of the {what}s"
            ),
        })
    }
}

impl std::error::Error for RegistryError {}

/// Every registered relation, operator and data type, sorted by name.
#[derive(Debug)]
pub struct Registry {
    relations: Vec<&'static RelationEntry>,
    ops: Vec<&'static OpDef>,
    data: Vec<&'static DataDef>,
    /// Constructor name, data type, constructor index; sorted by name.
    ctors: Vec<(&'static str, &'static DataDef, usize)>,
}

/// Sorts `items` by `key` (a name, then the place) and adds to `errors` one error for each
/// declaration of a name after its first, naming both places; `shown` shows the name.
fn sorted<T, N: Ord + Copy>(
    mut items: Vec<T>,
    what: &'static str,
    key: impl Fn(&T) -> (N, &'static str, u32),
    shown: impl Fn(N) -> String,
    errors: &mut Vec<RegistryError>,
) -> Vec<T> {
    items.sort_by_key(&key);
    let mut first = 0;
    for i in 1..items.len() {
        let (a, b) = (key(&items[first]), key(&items[i]));
        if a.0 != b.0 {
            first = i;
            continue;
        }
        errors.push(RegistryError::Duplicate {
            what,
            name: shown(a.0),
            first: format!("{}:{}", a.1, a.2),
            second: format!("{}:{}", b.1, b.2),
        });
    }
    items
}

impl Registry {
    /// A registry of the given declarations (the global one is built from `inventory`;
    /// this is for tests and for embedders that choose their own set), or every mistake in
    /// them: each name declared again (one error per later declaration, naming the first
    /// one's place too), each operator whose relation takes another number of arguments;
    /// [`RegistryError::Empty`] alone when nothing is given.
    pub fn build(
        relations: impl IntoIterator<Item = &'static RelationEntry>,
        ops: impl IntoIterator<Item = &'static OpDef>,
        data: impl IntoIterator<Item = &'static DataDef>,
    ) -> Result<Registry, Vec<RegistryError>> {
        let mut errors = Vec::new();
        let name = |n: &str| n.to_string();
        // Relations by name, then module: those of one name are together.
        let relations = sorted(
            relations.into_iter().collect(),
            "relation",
            |r| ((r.def.name, r.module), r.file, r.line),
            |(name, module)| format!("{module}::{name}"),
            &mut errors,
        );
        let ops = sorted(
            ops.into_iter().collect(),
            "operator",
            |o| (o.name, o.file, o.line),
            name,
            &mut errors,
        );
        let data = sorted(
            data.into_iter().collect(),
            "data type",
            |d| (d.name, d.file, d.line),
            name,
            &mut errors,
        );
        if relations.is_empty() && ops.is_empty() && data.is_empty() {
            return Err(vec![RegistryError::Empty]);
        }
        // The constructors of the first declaration of each data type (a second one is
        // one error, not one more per constructor).
        let ctors = data
            .chunk_by(|a, b| a.name == b.name)
            .map(|same| same[0])
            .flat_map(|d| d.ctors.iter().enumerate().map(move |(i, c)| (c.name, d, i)))
            .collect();
        let ctors = sorted(
            ctors,
            "constructor",
            |c| (c.0, c.1.file, c.1.line),
            name,
            &mut errors,
        );
        for op in &ops {
            let Some(rel) = op.relation else { continue };
            let found = op.args.len() + 1;
            if let Some(expected) = rel.def().arity.filter(|&n| n != found) {
                errors.push(RegistryError::Arity {
                    op: op.name,
                    relation: rel.name(),
                    expected,
                    found,
                    place: format!("{}:{}", op.file, op.line),
                });
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Registry {
            relations,
            ops,
            data,
            ctors,
        })
    }

    /// The relation named `name`: by its full path (`relay_ops::level1::Dense`), or by its
    /// bare name (`Dense`) when no other module declares a relation of that name.
    pub fn relation(&self, name: &str) -> Option<&'static RelationDef> {
        let (module, name) = match name.rsplit_once("::") {
            Some((module, name)) => (Some(module), name),
            None => (None, name),
        };
        let start = self.relations.partition_point(|r| r.def.name < name);
        let mut found = self.relations[start..]
            .iter()
            .take_while(|r| r.def.name == name)
            .filter(|r| module.is_none_or(|m| r.module == m));
        let first = found.next()?;
        found.next().is_none().then_some(first.def)
    }

    /// The operator named `name` (`nn.conv2d`).
    pub fn op(&self, name: &str) -> Option<&'static OpDef> {
        let i = self.ops.binary_search_by(|o| o.name.cmp(name)).ok()?;
        Some(self.ops[i])
    }

    /// The data type named `name`.
    pub fn data(&self, name: &str) -> Option<&'static DataDef> {
        let i = self.data.binary_search_by(|d| d.name.cmp(name)).ok()?;
        Some(self.data[i])
    }

    /// The constructor named `name`: its data type and its index there.
    pub fn ctor(&self, name: &str) -> Option<(&'static DataDef, usize)> {
        let i = self.ctors.binary_search_by(|c| c.0.cmp(name)).ok()?;
        Some((self.ctors[i].1, self.ctors[i].2))
    }

    /// Every relation, sorted by name, then module.
    pub fn relations(&self) -> impl Iterator<Item = &'static RelationEntry> + '_ {
        self.relations.iter().copied()
    }

    /// Every operator, sorted by name.
    pub fn ops(&self) -> &[&'static OpDef] {
        &self.ops
    }

    /// Every data type, sorted by name.
    pub fn data_types(&self) -> &[&'static DataDef] {
        &self.data
    }
}

/// What an unknown name was used as, for [`link_hint`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// An operator (`my.identity`).
    Operator,
    /// A data type (`List`).
    Type,
    /// A constructor (`Cons`).
    Constructor,
}

/// The data types and constructors of relay-ops' prelude: a program that names one when
/// none is registered misses relay-ops.
const PRELUDE_NAMES: [&str; 11] = [
    "List", "Optional", "Tree", "nat", "Nil", "Cons", "None", "Some", "Rose", "zero", "succ",
];

/// How to fix an unknown name when the global registry seems to lack the crate that
/// declares it: `inventory` only sees the crates linked into the program, and a crate is
/// linked only when the program's code names it. `None` when nothing suggests a missing
/// crate (the registry holds operators of the name's namespace, say: then a misspelling
/// is likelier, which "did you mean" addresses).
///
/// - nothing is registered, or no operator (for an operator) or no data type (for a type
///   or a constructor);
/// - an operator with a dotted namespace (`my.identity`) no registered operator has;
/// - one of the prelude's data types or constructors (`List`, `Cons`), which relay-ops
///   declares, when `List` is not registered.
///
/// ```
/// use relay_core::registry::{link_hint, Unknown};
/// relay_core::relay_op! { copy : fn<a, b>(a) -> b; }
/// # fn main() {
/// // Here `copy` is the only registered operator, and no data type is registered.
/// assert_eq!(link_hint(Unknown::Operator, "cpy"), None);
/// assert!(link_hint(Unknown::Type, "List").unwrap().starts_with("no data type is registered"));
/// assert_eq!(
///     link_hint(Unknown::Operator, "my.identity").unwrap(),
///     "no registered operator is in the `my` namespace: the crate that declares \
///      `my.identity` is not linked into the program, as `inventory` finds only what is \
///      linked; name the crate in your code (`use my_ops as _;`)"
/// );
/// # }
/// ```
pub fn link_hint(what: Unknown, name: &str) -> Option<String> {
    link_hint_in(global(), what, name)
}

/// [`link_hint`] for the registry `registry` (what [`global`] gives: the registry, or
/// why it could not be built), as a reader that is given its registry asks it.
pub fn link_hint_in(
    registry: Result<&Registry, &[RegistryError]>,
    what: Unknown,
    name: &str,
) -> Option<String> {
    const LINK: &str = "as `inventory` finds only what is linked";
    let reg = match registry {
        Ok(reg) => reg,
        Err([RegistryError::Empty]) => {
            return Some(format!(
                "nothing is registered: no crate that declares operators or data types is \
                 linked into the program, {LINK}; name each in your code (`use relay_ops \
                 as _;` for TVM's operators and the prelude, `use my_ops as _;` for a crate \
                 of your own)"
            ))
        }
        Err(_) => return None,
    };
    let relay_ops = "`use relay_ops as _;` for TVM's operators and the prelude";
    match what {
        Unknown::Operator if reg.ops.is_empty() => Some(format!(
            "no operator is registered: no crate that declares operators is linked into the \
             program, {LINK}; name each in your code ({relay_ops}, `use my_ops as _;` for a \
             crate of your own)"
        )),
        Unknown::Operator => {
            let (namespace, _) = name.rsplit_once('.')?;
            // The operators are sorted by name: those of the namespace follow its prefix.
            let prefix = format!("{namespace}.");
            let i = reg.ops.partition_point(|o| o.name < prefix.as_str());
            let known = reg.ops.get(i).is_some_and(|o| o.name.starts_with(&prefix));
            (!known).then(|| {
                format!(
                    "no registered operator is in the `{namespace}` namespace: the crate that \
                     declares `{name}` is not linked into the program, {LINK}; name the \
                     crate in your code (`use my_ops as _;`)"
                )
            })
        }
        Unknown::Type | Unknown::Constructor if reg.data.is_empty() => Some(format!(
            "no data type is registered: no crate that declares data types is linked into the \
             program, {LINK}; name each in your code ({relay_ops}, `use my_ops as _;` for a \
             crate of your own)"
        )),
        Unknown::Type | Unknown::Constructor
            if PRELUDE_NAMES.contains(&name) && reg.data("List").is_none() =>
        {
            Some(format!(
                "`{name}` is the prelude's, which relay-ops declares: relay-ops is not linked \
                 into the program, {LINK}; name it in your code (`use relay_ops as _;`)"
            ))
        }
        Unknown::Type | Unknown::Constructor => None,
    }
}

/// The registry of every declaration in the linked crates, built on first use, or every
/// mistake in them (see [`Registry::build`]).
pub fn global() -> Result<&'static Registry, &'static [RegistryError]> {
    static GLOBAL: OnceLock<Result<Registry, Vec<RegistryError>>> = OnceLock::new();
    GLOBAL
        .get_or_init(|| {
            Registry::build(
                inventory::iter::<RelationEntry>(),
                inventory::iter::<OpEntry>().map(|e| e.def),
                inventory::iter::<DataEntry>().map(|e| e.def),
            )
        })
        .as_ref()
        .map_err(Vec::as_slice)
}
