//! The clause builtins, declared once: each one's name, the kinds of its arguments, the
//! kind of its result and how it runs. The checker takes arities and kinds from here,
//! the expansion the static term, the compiled run the call, and the `#[relation]` page
//! its table of builtins (a test keeps the page and this table in step).
//!
//! **A new builtin** touches three places: its meaning, a function of
//! `relay_core::clause::builtin` over values (a `BuiltinFn`, which the interpreter and
//! the compiled run both call); a row here with [`Run::Value`]; and its row in the
//! table of the `#[relation]` page. A builtin with a term of its own in the static form
//! ([`Run::Term`]) is for the few that a clause's hot paths compute without values; one
//! over values may also have a native case in the compiled run (`is_axis`, in
//! `fast/term.rs`), calling the same rule of `clause::builtin` on unboxed arguments.

use super::check::Kind;

/// How a builtin runs.
#[derive(Copy, Clone)]
pub enum Run {
    /// A variant of `relay_core::clause::Term` of its own (`Term::Prod(s)`), which the
    /// interpreter and the compiled run compute natively: the variant's name.
    Term(&'static str),
    /// Dimension arithmetic, `Term::Arith(Arith::Name, a, b)`: the `Arith` variant.
    Arith(&'static str),
    /// A function of `relay_core::clause::builtin` over values, `Term::Builtin(f, args)`:
    /// the function's name.
    Value(&'static str),
}

/// A builtin of the clause notation.
pub struct Builtin {
    /// Its name as a clause calls it.
    pub name: &'static str,
    /// The kinds of its arguments (its arity is their number).
    pub params: &'static [Kind],
    /// The kind of its result.
    pub result: Kind,
    /// How it runs.
    pub run: Run,
}

use Kind::{Bool, DType, Dim, Shape, Type};

/// Every builtin (`Tensor(..)` and `Tuple(..)` are constructors, not builtins).
pub const BUILTINS: &[Builtin] = &[
    b("prod", &[Shape], Dim, Run::Term("Prod")),
    b("sum", &[Shape], Dim, Run::Term("Sum")),
    b("len", &[Shape], Dim, Run::Term("Len")),
    b("broadcast", &[Shape, Shape], Shape, Run::Term("Broadcast")),
    b("min", &[Dim, Dim], Dim, Run::Arith("Min")),
    b("max", &[Dim, Dim], Dim, Run::Arith("Max")),
    b("floordiv", &[Dim, Dim], Dim, Run::Arith("FloorDiv")),
    b("floormod", &[Dim, Dim], Dim, Run::Arith("FloorMod")),
    b("reverse", &[Shape], Shape, Run::Term("Reverse")),
    b("distinct", &[Shape], Bool, Run::Value("distinct_of")),
    b("is_axis", &[Dim, Type], Bool, Run::Value("is_axis")),
    b("is_int", &[Dim], Bool, Run::Term("IsInt")),
    b("is_any", &[Dim], Bool, Run::Term("IsAny")),
    b("shape", &[Type], Shape, Run::Term("ShapeOf")),
    b("dtype", &[Type], DType, Run::Term("DTypeOf")),
];

const fn b(name: &'static str, params: &'static [Kind], result: Kind, run: Run) -> Builtin {
    Builtin {
        name,
        params,
        result,
        run,
    }
}

/// The builtin called `name`.
pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// The signature of a builtin as the `#[relation]` page's table writes it:
/// `` `prod(shape)` `` … `dimension`.
#[cfg(test)]
fn row(b: &Builtin) -> String {
    let params: Vec<&str> = b.params.iter().map(|k| k.name()).collect();
    format!(
        "| `{}({})` | {} |",
        b.name,
        params.join(", "),
        b.result.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `#[relation]` page (the macro's doc) lists every builtin with its kinds, and
    /// nothing else as one: the rows of its table under `| builtin | result | meaning |`.
    #[test]
    fn the_relation_page_lists_every_builtin() {
        let page = include_str!("../lib.rs");
        let lines: Vec<&str> = page
            .lines()
            .map(|l| l.trim_start().trim_start_matches("///").trim())
            .collect();
        let start = lines
            .iter()
            .position(|l| *l == "| builtin | result | meaning |")
            .expect("the table of builtins");
        let table: Vec<String> = lines[start + 2..]
            .iter()
            .take_while(|l| l.starts_with('|'))
            .map(|l| {
                // The row's first two cells: the call and its result's kind.
                let cells: Vec<&str> = l.split(" | ").collect();
                format!("{} | {} |", cells[0], cells[1])
            })
            .collect();
        for b in BUILTINS {
            assert!(table.contains(&row(b)), "the page has no row `{}`", row(b));
        }
        assert_eq!(table.len(), BUILTINS.len(), "{table:#?}");
    }
}
