//! The registry built from explicit entry lists: sorted lookups, duplicates named with
//! both places, the empty registry, arity checks.

use relay_core::adt::{CtorDef, DataDef};
use relay_core::op::OpDef;
use relay_core::registry::{RegistryError, RelationEntry};
use relay_core::{testing, Registry};

static BROADCAST_A: RelationEntry = RelationEntry {
    def: &testing::BROADCAST_DEF,
    module: "my_ops",
    file: "a.rs",
    line: 1,
};
static BROADCAST_B: RelationEntry = RelationEntry {
    file: "b.rs",
    line: 2,
    ..BROADCAST_A
};
/// A relation of the same name in another module (another crate's).
static BROADCAST_OTHER: RelationEntry = RelationEntry {
    module: "other_ops::rels",
    file: "other.rs",
    line: 4,
    ..BROADCAST_A
};
static IDENTITY: RelationEntry = RelationEntry {
    def: &testing::IDENTITY_DEF,
    module: "my_ops",
    file: "a.rs",
    line: 5,
};

static ADD: OpDef = OpDef {
    name: "add",
    doc: "",
    params: &[],
    arg_names: &["lhs", "rhs"],
    args: &["float32", "float32"],
    ret: "float32",
    relation: Some(testing::BROADCAST),
    attrs: &[],
    level: 1,
    file: "ops.rs",
    line: 10,
};
static ADD_AGAIN: OpDef = OpDef {
    file: "more.rs",
    line: 3,
    ..ADD
};
static RELU: OpDef = OpDef {
    name: "nn.relu",
    args: &["float32"],
    relation: Some(testing::IDENTITY),
    line: 20,
    ..ADD
};
static BAD_ARITY: OpDef = OpDef {
    name: "neg",
    args: &["float32"],
    line: 30,
    ..ADD
};

static LIST: DataDef = DataDef {
    name: "List",
    doc: "",
    params: &["a"],
    ctors: &[
        CtorDef {
            name: "Nil",
            fields: &[],
        },
        CtorDef {
            name: "Cons",
            fields: &["a", "List[a]"],
        },
    ],
    file: "prelude.rs",
    line: 4,
};
static STREAM: DataDef = DataDef {
    name: "Stream",
    ctors: &[CtorDef {
        name: "Nil",
        fields: &[],
    }],
    line: 9,
    ..LIST
};
static LIST_AGAIN: DataDef = DataDef {
    file: "other.rs",
    line: 7,
    ..LIST
};

/// The one error of a registry that cannot be built.
fn one_error(built: Result<Registry, Vec<RegistryError>>) -> RegistryError {
    let mut errors = built.unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.pop().unwrap()
}

#[test]
fn lookups_by_name() {
    let reg = Registry::build([&IDENTITY, &BROADCAST_A], [&RELU, &ADD], [&LIST]).unwrap();
    assert_eq!(reg.relation("Broadcast").unwrap().name, "Broadcast");
    assert_eq!(reg.relation("Identity").unwrap().name, "Identity");
    assert!(reg.relation("Flatten").is_none());
    assert!(std::ptr::eq(reg.op("add").unwrap(), &ADD));
    assert!(std::ptr::eq(reg.op("nn.relu").unwrap(), &RELU));
    assert!(reg.op("nn").is_none());
    assert!(std::ptr::eq(reg.data("List").unwrap(), &LIST));
    assert_eq!(
        reg.ctor("Cons").map(|(d, i)| (d.name, i)),
        Some(("List", 1))
    );
    assert!(reg.ctor("Some").is_none());
    let ops: Vec<&str> = reg.ops().iter().map(|o| o.name).collect();
    assert_eq!(ops, ["add", "nn.relu"]);
    let rels: Vec<&str> = reg.relations().map(|r| r.def.name).collect();
    assert_eq!(rels, ["Broadcast", "Identity"]);
}

#[test]
fn relations_of_one_name_in_two_modules() {
    let reg = Registry::build([&BROADCAST_OTHER, &IDENTITY, &BROADCAST_A], [], []).unwrap();
    let paths: Vec<String> = reg.relations().map(|r| r.path()).collect();
    assert_eq!(
        paths,
        [
            "my_ops::Broadcast",
            "other_ops::rels::Broadcast",
            "my_ops::Identity"
        ]
    );
    // By full path; by bare name only when one module declares it.
    let found = |name| reg.relation(name).map(|r| r.name);
    assert_eq!(found("my_ops::Broadcast"), Some("Broadcast"));
    assert_eq!(found("other_ops::rels::Broadcast"), Some("Broadcast"));
    assert_eq!(found("Broadcast"), None);
    assert_eq!(found("other_ops::Broadcast"), None);
    assert_eq!(found("Identity"), Some("Identity"));
    assert_eq!(found("my_ops::Identity"), Some("Identity"));
    assert_eq!(found("other_ops::rels::Identity"), None);
}

#[test]
fn duplicate_relation_in_one_module_names_both_places() {
    let err = one_error(Registry::build(
        [&BROADCAST_B, &BROADCAST_OTHER, &BROADCAST_A],
        [],
        [],
    ));
    assert_eq!(
        err.to_string(),
        "relation `my_ops::Broadcast` is declared twice: at a.rs:1 and at b.rs:2"
    );
    assert_eq!(
        err.help().unwrap(),
        "relations are told apart by their module path, and these two have the same one: two \
         versions of their crate are linked into the program (`cargo tree --duplicates` lists \
         them), or the relation is registered twice"
    );
}

#[test]
fn duplicate_operator_names_both_places() {
    let err = one_error(Registry::build([], [&ADD_AGAIN, &RELU, &ADD], []));
    assert_eq!(
        err.to_string(),
        "operator `add` is declared twice: at more.rs:3 and at ops.rs:10"
    );
    assert_eq!(
        err.help().unwrap(),
        "the names of operators are global across the linked crates: rename one of them (a crate's operators usually share a namespace of its own: `my.add`)"
    );
}

#[test]
fn duplicate_data_types_and_constructors() {
    // One error, not one more per constructor of the second `List`.
    let err = one_error(Registry::build([], [], [&LIST, &LIST_AGAIN]));
    assert_eq!(
        err.to_string(),
        "data type `List` is declared twice: at other.rs:7 and at prelude.rs:4"
    );
    let err = one_error(Registry::build([], [], [&STREAM, &LIST]));
    assert_eq!(
        err.to_string(),
        "constructor `Nil` is declared twice: at prelude.rs:4 and at prelude.rs:9"
    );
    assert_eq!(
        err.help().unwrap(),
        "the names of data types and constructors are global across the linked crates, as in Relay's text format: rename one of the constructors"
    );
}

#[test]
fn empty_registry_says_how_to_link() {
    let err = one_error(Registry::build([], [], []));
    assert_eq!(err, RegistryError::Empty);
    assert_eq!(
        err.to_string(),
        "no relation, operator or data type is registered: a crate's declarations are found only when it is linked, so name it in your code (`use relay_ops as _;`)"
    );
}

#[test]
fn relation_arity_must_match_the_operator() {
    let err = one_error(Registry::build([], [&BAD_ARITY], []));
    assert_eq!(
        err.to_string(),
        "operator `neg` (at ops.rs:30) gives relation `Broadcast` 2 arguments (its arguments and its result) but `Broadcast` takes 3"
    );
}

#[test]
fn every_mistake_is_reported_with_its_help() {
    let errors = Registry::build([], [&ADD_AGAIN, &BAD_ARITY, &ADD], [&STREAM, &LIST]).unwrap_err();
    let shown: Vec<(String, Option<String>)> =
        errors.iter().map(|e| (e.to_string(), e.help())).collect();
    assert_eq!(
        shown,
        [
            (
                "operator `add` is declared twice: at more.rs:3 and at ops.rs:10".to_string(),
                Some(
                    "the names of operators are global across the linked crates: rename one of \
                     them (a crate's operators usually share a namespace of its own: `my.add`)"
                        .to_string()
                )
            ),
            (
                "constructor `Nil` is declared twice: at prelude.rs:4 and at prelude.rs:9"
                    .to_string(),
                Some(
                    "the names of data types and constructors are global across the linked \
                     crates, as in Relay's text format: rename one of the constructors"
                        .to_string()
                )
            ),
            (
                "operator `neg` (at ops.rs:30) gives relation `Broadcast` 2 arguments (its \
                 arguments and its result) but `Broadcast` takes 3"
                    .to_string(),
                None
            ),
        ]
    );
}

#[test]
fn adt_load_reports_bad_fields() {
    static BAD: DataDef = DataDef {
        name: "Bad",
        doc: "",
        params: &[],
        ctors: &[
            CtorDef {
                name: "MkBad",
                fields: &["Missing[int32]"],
            },
            CtorDef {
                name: "MkWorse",
                fields: &["int32", "Absent"],
            },
        ],
        file: "bad.rs",
        line: 2,
    };
    let mut tcx = relay_core::TyCtx::new();
    let errors = relay_core::adt::load_defs(&mut tcx, [&BAD]).unwrap_err();
    let shown: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        shown,
        [
            "field 0 of constructor `MkBad` (declared at bad.rs:2): unknown type `Missing`",
            "field 1 of constructor `MkWorse` (declared at bad.rs:2): unknown type `Absent`"
        ]
    );
}
