//! What the text-format tests share: test operators and data types, the setup of a
//! type context, and the programs both the parser's and the printer's tests check.

#![allow(dead_code)]

use relay_core::adt::{self, AdtTable};
use relay_core::expr::Module;
use relay_core::text::parse_module;
use relay_core::{relation, relay_data, relay_op, TyCtx};

#[relation(Same(I, I) :- true)]
pub struct Same;

#[relation(Bcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt))]
pub struct Bcast;

#[relation(Dense(Tensor(d, bt), Tensor(w, bt), O) :- O = Tensor([d[0], w[0]], bt))]
pub struct Dense;

#[relation(Cmp(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bool))]
pub struct Cmp;

/// Binds its result, then fails on a matrix: a failure must not be remembered as a result.
#[relation(
    BindThenFail(Tensor(s, bt), O) :-
        O = Tensor(s, bt),
        assert(len(s) < 2, "no matrices, found rank {}", len(s))
)]
pub struct BindThenFail;

relay_op! {
    /// Test addition.
    add : fn<a, b, c>(lhs: a, rhs: b) -> c where Bcast;
    /// Test subtraction.
    subtract : fn<a, b, c>(lhs: a, rhs: b) -> c where Bcast;
    /// Test multiplication.
    multiply : fn<a, b, c>(lhs: a, rhs: b) -> c where Bcast;
    /// Test equality.
    equal : fn<a, b, c>(lhs: a, rhs: b) -> c where Cmp;
    /// Test identity.
    copy : fn<a, b>(x: a) -> b where Same;
    /// Test dense layer.
    nn.dense : fn<t1, t2, t3>(data: t1, weight: t2) -> t3 where Dense,
        attrs { units: Option<int> = None };
    /// Test relu.
    nn.relu : fn<a, b>(x: a) -> b where Same;
    /// Test operator whose relation binds its result before it fails.
    bind_then_fail : fn<a, b>(x: a) -> b where BindThenFail;
    /// An operator with many attributes (not type-checked here).
    nn.conv2d : fn<a, b, c>(data: a, weight: b) -> c where Bcast,
        attrs {
            strides: [int] = [1, 1],
            channels: Option<int> = None,
            data_layout: str = "NCHW",
            epsilon: float = 0.00001,
            keepdims: bool = false,
            axis: Option<int> = None,
        };
}

relay_data! {
    data List<a> {
        Nil : () -> List,
        Cons : (a, List[a]) -> List,
    }
    data Optional<a> {
        None : () -> Optional,
        Some : (a) -> Optional,
    }
}

pub fn setup() -> (TyCtx, AdtTable) {
    let mut tcx = TyCtx::new();
    let adts = adt::load(&mut tcx).expect("the test's data types load");
    (tcx, adts)
}

pub fn parse(src: &str) -> (Module, TyCtx, AdtTable) {
    let (mut tcx, mut adts) = setup();
    match parse_module(src, &mut tcx, &mut adts) {
        Ok(m) => (m, tcx, adts),
        Err(errs) => panic!("parse errors: {errs:#?}\nin:\n{src}"),
    }
}

pub const IDENTITY: &str = r#"#[version = "0.0.5"]
// a comment
/* a block
   comment */
def @id[A](%x: A) -> A { %x }
"#;

pub const LETS: &str = r#"
def @f(%x: Tensor[(n, 3), float32], %y: Tensor[(3), float32]) {
  let %a: Tensor[(n, 3), float32] = %x + %y;
  %0 = %a * %a - %x;
  %1 = copy(%0);
  %1
}
"#;

pub const PLUS: &str = r#"
def @plus<s : Shape>(%t1 : Tensor[s, float32], %t2 : Tensor[s, float32]) -> Tensor[s, float32] {
  add(%t1, %t2)
}
def @main(%a: Tensor[(10, 10), float32], %b) {
  (@plus<(10, 10)>(%a, %b), @plus[(10, 10)](%a, %a))
}
"#;

pub const PLUS_NO_RESULT: &str = r#"
def @main(%a: Tensor[(10, 10), float32], %b: Tensor[(10, 10), float32]) {
  @plus<(10, 10)>(%a, %b)
}
def @plus<s : Shape>(%t1 : Tensor[s, float32], %t2 : Tensor[s, float32]) {
  add(%t1, %t2)
}
"#;

pub const MLP: &str = r#"
#[version = "0.0.5"]
def @mlp(%x: Tensor[(n, 784), float32], %w1: Tensor[(128, 784), float32],
         %b1: Tensor[(128), float32], %w2: Tensor[(10, 128), float32]) {
  %0 = nn.dense(%x, %w1, units=128);
  %1 = add(%0, %b1);
  %2 = nn.relu(%1);
  nn.dense(%2, %w2, units=10)
}
"#;

pub const LIST_SUM: &str = r#"
data List<a> {
   Nil : () -> List
   Cons : (a, List[a]) -> List
}
def @list_sum(%l : List[Tensor[(), int32]]) -> Tensor[(), int32] {
  match(%l) {
    case Nil() { 0 }
    # add the head of the list to the sum of the tail
    case Cons(%h, %t) { %h + @list_sum(%t) }
  }
}
"#;

pub const MAP: &str = r#"
def @map[A, B](%f: fn (A) -> B, %xs: List[A]) -> List[B] {
  match (%xs) {
    Cons(%x, %rest) => Cons(%f(%x), @map(%f, %rest)),
    Nil => Nil(),
  }
}
def @double(%l: List[int32]) {
  @map(fn (%i) { %i * 2 }, %l)
}
"#;

pub const NESTED_PATTERNS: &str = r#"
def @first<a>(%l : List[a]) -> Optional[a] {
  match(%l) {
    case Nil() { None() }
    case Cons(%h, _) { Some(%h) } # list tail is unused and ignored
  }
}
def @second_opt<a>(%ll : Optional[List[a]]) -> Optional[a] {
  match(%ll) {
    # we only need the second member of the list if there is one
    case Some(Cons(_, Cons(%s, _))) { Some(%s) }
    case _ { None() }
  }
}
"#;

pub const NUMBERS: &str = r#"
data Numbers {
  Empty : () -> Numbers
  Single : (Tensor[(), int32]) -> Numbers
  Pair : (Tensor[(), int32], Tensor[(), int32]) -> Numbers
}
type Numbers2 { Empty2, Single2(Tensor[(), int32]), Pair2(int32, int32), }
def @sum(%n : Numbers[]) -> Tensor[(), int32] {
  match(%n) {
    case Empty() { 0 }
    case Single(%x) { %x }
    case Pair(%x, %y) { %x + %y }
  }
}
def @sum2(%n: Numbers2) {
  match? (%n) {
    Pair2(%x, %y) => %x + %y,
    Single2(%x) => %x,
  }
}
def @main() { (@sum(Pair(5, 6)), @sum2(Empty2())) }
"#;

pub const SHADOWING: &str = r#"
def @even(%n: int32) -> bool { if (%n == 0) { True } else { @odd(%n - 1) } }
def @odd(%n: int32) -> bool { if (%n == 0) { False } else { @even(%n - 1) } }
def @shadow(%x: float32) {
  let %x = (%x, 1i64);
  let %y = %x.1;
  { let %x = %x.0; %x };
  %y
}
"#;

pub const LITERALS_AND_REFS: &str = r#"
def @lits() {
  (1, 1i64, -42i16, 1.5f, 2f16, 1.0, True, 3u8, 1e-5f, 7f64, ())
}
def @refs(%v: Tensor[(4), float32]) {
  let %r = ref(%v);
  ref_write(%r, %v);
  let %k = fn (%i: int32) -> Tensor[(4), float32] { ref_read(%r) };
  (%k(0), (%v,))
}
"#;

pub const ATTRS: &str = r#"
def @c(%x, %w) {
  nn.conv2d(%x, %w, strides=[2, 2], channels=64, data_layout="NH\"WC", epsilon=1e-5f,
            keepdims=True, axis=None)
}
"#;
