//! An operator's result that clashes with what its context required of it before its
//! relation decided it (a return annotation, a `let` annotation, another arm of a
//! `match`, the other branch of an `if`): the message names the result and labels what
//! required it, not the operator's argument. (This test binary declares the operators.)

use relay_core::{relation, relay_op};
use relay_ops::prelude::Prelude;

/// `UnsqueezeLast(Tensor(s, bt), O) :- O = Tensor([..s, 1], bt)`.
#[relation(UnsqueezeLast(Tensor(s, bt), O) :- O = Tensor([..s, 1], bt))]
pub struct UnsqueezeLast;

/// `ArgMaxLast(Tensor(s, bt), O) :- O = Tensor(s[..-1], int32)`.
#[relation(
    ArgMaxLast(X @ Tensor(s, bt), O) :-
        assert(len(s) >= 1, "the data of `my.argmax` must be at least 1-D, found `{}`", X),
        O = Tensor(s[..-1], int32)
)]
pub struct ArgMaxLast;

relay_op! {
    /// The data with a last axis of 1.
    my.unsqueeze_last : fn<d, o>(data: d) -> o where UnsqueezeLast;
    /// The index of the largest value along the last axis.
    my.argmax : fn<d, o>(data: d) -> o where ArgMaxLast;
}

/// `program` checked with the standard prelude and rendered as `relay check` renders it.
fn check(program: &str) -> String {
    let prelude = Prelude::standard().unwrap();
    let checked = prelude.check(program);
    relay_cli::render(&prelude, "f.relay", program, &checked)
}

#[test]
fn a_return_annotation() {
    let program = "def @f(%x) -> Tensor[(3, 4, 2), float32] { my.unsqueeze_last(%x) }";
    assert_eq!(
        check(program),
        concat!(
            "error: the result of `my.unsqueeze_last` does not have the type required of it: dimension 2: 1 vs 2\n",
            "  ┌─ f.relay:1:44\n",
            "  │\n",
            "1 │ def @f(%x) -> Tensor[(3, 4, 2), float32] { my.unsqueeze_last(%x) }\n",
            "  │               --------------------------   ^^^^^^^^^^^^^^^^^^^^^\n",
            "  │               │                             \n",
            "  │               the return type is annotated `Tensor[(3, 4, 2), float32]` here\n",
            "  │\n",
            "  = from the relation `UnsqueezeLast` of `my.unsqueeze_last`\n",
            "\n",
        )
    );
}

#[test]
fn another_arm_of_a_match() {
    let program = "\
def @f(%o: Optional[Tensor[(3, 4), float32]]) -> Tensor[(3), float32] {
  match (%o) {
    Some(%v) => my.argmax(%v),
    None => zeros(shape=[3], dtype=\"float32\"),
  }
}";
    assert_eq!(
        check(program),
        concat!(
            "error: the result of `my.argmax` does not have the type required of it: dtype: float32 vs int32\n",
            "  ┌─ f.relay:3:17\n",
            "  │\n",
            "3 │     Some(%v) => my.argmax(%v),\n",
            "  │          --     ^^^^^^^^^^^^^\n",
            "  │          │                │\n",
            "  │          │                argument 1: `Tensor[(3, 4), float32]`\n",
            "  │          `%v` is bound here to `Tensor[(3, 4), float32]`\n",
            "4 │     None => zeros(shape=[3], dtype=\"float32\"),\n",
            "  │             --------------------------------- the second arm is `Tensor[(3), float32]`\n",
            "  │\n",
            "  = from the relation `ArgMaxLast` of `my.argmax`\n",
            "\n",
        )
    );
}

#[test]
fn a_let_annotation() {
    let program = "\
def @f(%x) {
  let %y: Tensor[(3, 4, 2), float32] = my.unsqueeze_last(%x);
  %y
}";
    assert_eq!(
        check(program),
        concat!(
            "error: the result of `my.unsqueeze_last` does not have the type required of it: dimension 2: 1 vs 2\n",
            "  ┌─ f.relay:2:40\n",
            "  │\n",
            "2 │   let %y: Tensor[(3, 4, 2), float32] = my.unsqueeze_last(%x);\n",
            "  │       --                               ^^^^^^^^^^^^^^^^^^^^^\n",
            "  │       │                                 \n",
            "  │       `%y` is annotated `Tensor[(3, 4, 2), float32]` here\n",
            "  │\n",
            "  = from the relation `UnsqueezeLast` of `my.unsqueeze_last`\n",
            "\n",
        )
    );
}

#[test]
fn the_other_branch_of_an_if() {
    let program = "\
def @f(%c: bool, %o: Optional[Tensor[(3, 4), float32]]) {
  match (%o) {
    Some(%v) => if (%c) { my.argmax(%v) } else { zeros(shape=[3], dtype=\"float32\") },
    None => zeros(shape=[3], dtype=\"float32\"),
  }
}";
    assert_eq!(
        check(program),
        concat!(
            "error: the result of `my.argmax` does not have the type required of it: dtype: float32 vs int32\n",
            "  ┌─ f.relay:3:27\n",
            "  │\n",
            "3 │     Some(%v) => if (%c) { my.argmax(%v) } else { zeros(shape=[3], dtype=\"float32\") },\n",
            "  │          --               ^^^^^^^^^^^^^          --------------------------------- the other branch is `Tensor[(3), float32]`\n",
            "  │          │                          │             \n",
            "  │          │                          argument 1: `Tensor[(3, 4), float32]`\n",
            "  │          `%v` is bound here to `Tensor[(3, 4), float32]`\n",
            "  │\n",
            "  = from the relation `ArgMaxLast` of `my.argmax`\n",
            "\n",
        )
    );
}

#[test]
fn a_return_annotation_through_a_match() {
    let program = "\
def @f(%o: Optional[Tensor[(3, 4), float32]]) -> Tensor[(3), float32] {
  match? (%o) {
    Some(%v) => my.argmax(%v),
  }
}";
    assert_eq!(
        check(program),
        concat!(
            "error: the result of `my.argmax` does not have the type required of it: dtype: float32 vs int32\n",
            "  ┌─ f.relay:3:17\n",
            "  │\n",
            "1 │ def @f(%o: Optional[Tensor[(3, 4), float32]]) -> Tensor[(3), float32] {\n",
            "  │                                                  -------------------- the return type is annotated `Tensor[(3), float32]` here\n",
            "2 │   match? (%o) {\n",
            "3 │     Some(%v) => my.argmax(%v),\n",
            "  │          --     ^^^^^^^^^^^^^\n",
            "  │          │                │\n",
            "  │          │                argument 1: `Tensor[(3, 4), float32]`\n",
            "  │          `%v` is bound here to `Tensor[(3, 4), float32]`\n",
            "  │\n",
            "  = from the relation `ArgMaxLast` of `my.argmax`\n",
            "\n",
        )
    );
}

#[test]
fn a_relay_ops_operator_in_a_match_arm() {
    let program = "\
def @f(%o: Optional[Tensor[(3, 4), float32]]) -> Tensor[(3), float32] {
  match (%o) {
    Some(%v) => argmax(%v, axis=[1]),
    None => zeros(shape=[3], dtype=\"float32\"),
  }
}";
    assert_eq!(
        check(program),
        concat!(
            "error: the result of `argmax` does not have the type required of it: dtype: float32 vs int32\n",
            "  ┌─ f.relay:3:17\n",
            "  │\n",
            "3 │     Some(%v) => argmax(%v, axis=[1]),\n",
            "  │          --     ^^^^^^^^^^^^^^^^^^^^\n",
            "  │          │             │\n",
            "  │          │             argument 1: `Tensor[(3, 4), float32]`\n",
            "  │          `%v` is bound here to `Tensor[(3, 4), float32]`\n",
            "4 │     None => zeros(shape=[3], dtype=\"float32\"),\n",
            "  │             --------------------------------- the second arm is `Tensor[(3), float32]`\n",
            "  │\n",
            "  = from the relation `ArgReduce` of `argmax`\n",
            "\n",
        )
    );
}

/// A relation that says the clash in its own words keeps them, after the heading that
/// names the result; the annotation is labelled.
#[test]
fn a_relay_ops_message_of_its_own() {
    let program = "def @f(%x) -> Tensor[(2, 3), float32] { expand_dims(%x, axis=0) }";
    assert_eq!(
        check(program),
        concat!(
            "error: the result of `expand_dims` does not have the type required of it: `axis` 0 inserts a dimension of 1 at position 0, where `Tensor[(2, 3), float32]` has 2\n",
            "  ┌─ f.relay:1:41\n",
            "  │\n",
            "1 │ def @f(%x) -> Tensor[(2, 3), float32] { expand_dims(%x, axis=0) }\n",
            "  │               -----------------------   ^^^^^^^^^^^^^^^^^^^^^^^\n",
            "  │               │                          \n",
            "  │               the return type is annotated `Tensor[(2, 3), float32]` here\n",
            "  │\n",
            "  = from the relation `ExpandDims` of `expand_dims`\n",
            "\n",
        )
    );
}
