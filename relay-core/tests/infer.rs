//! Type inference over modules built in Rust: exact types of globals, bindings and
//! expressions, and exact errors.

use relay_core::adt::{self, AdtTable};
use relay_core::expr::{Arm, ExprId, Module, Pattern};
use relay_core::infer::{infer, Typed};
use relay_core::testing::on_small_stack;
use relay_core::text::{parse_type, TypeScope};
use relay_core::{registry, relation, relay_data, relay_op, Kind, ParamValue, Ty, TyCtx};

#[relation(Same(I, I) :- true)]
pub struct Same;

#[relation(Bcast(Tensor(s1, bt), Tensor(s2, bt), O) :- O = Tensor(broadcast(s1, s2), bt))]
pub struct Bcast;

relay_op! {
    /// Test addition.
    t.add : fn<a: Type, b: Type, c: Type>(lhs: a, rhs: b) -> c where Bcast;
    /// Test identity.
    t.same : fn<a: Type, b: Type>(x: a) -> b where Same;
}

relay_data! {
    data List<a> {
        Nil : () -> List,
        Cons : (a, List[a]) -> List,
    }
    data Numbers {
        Empty : () -> Numbers,
        Single : (int32) -> Numbers,
    }
    data Numbers2 {
        Empty2 : () -> Numbers2,
        Single2 : (int32) -> Numbers2,
    }
}

struct P {
    tcx: TyCtx,
    adts: AdtTable,
    scope: TypeScope,
    m: Module,
}

impl P {
    fn new() -> Self {
        let mut tcx = TyCtx::new();
        let adts = adt::load(&mut tcx).expect("the test's data types load");
        let scope = adts.scope();
        P {
            tcx,
            adts,
            scope,
            m: Module::new(),
        }
    }
    fn ty(&mut self, src: &str) -> Ty {
        parse_type(&mut self.tcx, &mut self.scope, src).unwrap()
    }
    fn op(&mut self, name: &str) -> ExprId {
        let def = registry::global().unwrap().op(name).unwrap();
        self.m.op(def)
    }
    fn ctor(&mut self, name: &str) -> ExprId {
        let c = self.adts.ctor(name).unwrap();
        self.m.ctor(c)
    }
    fn konst(&mut self, ty: &str) -> ExprId {
        let t = self.ty(ty);
        self.m.constant(t)
    }
    fn run(self) -> (Typed, Module) {
        let typed = infer(self.tcx, &self.adts, &self.m);
        (typed, self.m)
    }
}

fn global_ty(typed: &Typed, m: &Module, name: &str) -> String {
    typed.show(typed.global_ty(m.global(name).unwrap()))
}

fn messages(typed: &Typed) -> Vec<String> {
    typed.errors().iter().map(|e| e.message.clone()).collect()
}

#[test]
fn let_chain_through_an_operator() {
    let mut p = P::new();
    let xt = p.ty("Tensor[(n, 3), float32]");
    let x = p.m.var("x", Some(xt));
    let a = p.m.var("a", None);
    let add = p.op("t.add");
    let (xr1, xr2) = (p.m.var_ref(x), p.m.var_ref(x));
    let v = p.m.call(add, &[xr1, xr2]);
    let ar = p.m.var_ref(a);
    let body = p.m.let_(a, v, ar);
    let f = p.m.func(&[], &[x], None, body);
    p.m.define("f", f).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(
        global_ty(&typed, &m, "f"),
        "fn (Tensor[(n, 3), float32]) -> Tensor[(n, 3), float32]"
    );
    assert_eq!(typed.show(typed.var_ty(a)), "Tensor[(n, 3), float32]");
}

#[test]
fn backward_inference_into_an_unannotated_parameter() {
    let mut p = P::new();
    let x = p.m.var("x", None);
    let same = p.op("t.same");
    let xr = p.m.var_ref(x);
    let body = p.m.call(same, &[xr]);
    let ret = p.ty("Tensor[(3, m), int8]");
    let f = p.m.func(&[], &[x], Some(ret), body);
    p.m.define("f", f).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(typed.show(typed.var_ty(x)), "Tensor[(3, m), int8]");
    assert_eq!(
        global_ty(&typed, &m, "f"),
        "fn (Tensor[(3, m), int8]) -> Tensor[(3, m), int8]"
    );
}

#[test]
fn polymorphic_identity_at_two_types() {
    let mut p = P::new();
    let a = p.tcx.param("A", Kind::Type);
    let at = p.tcx.param_ty(a).unwrap();
    let x = p.m.var("x", Some(at));
    let xr = p.m.var_ref(x);
    let id = p.m.func(&[a], &[x], Some(at), xr);
    let gid = p.m.define("id", id).unwrap();
    let (i, f) = (p.konst("int32"), p.konst("Tensor[(2), float16]"));
    let (g1, g2) = (p.m.global_ref(gid), p.m.global_ref(gid));
    let c1 = p.m.call(g1, &[i]);
    let c2 = p.m.call(g2, &[f]);
    let body = p.m.tuple(&[c1, c2]);
    let main = p.m.func(&[], &[], None, body);
    p.m.define("main", main).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(global_ty(&typed, &m, "id"), "fn [A](A) -> A");
    assert_eq!(
        global_ty(&typed, &m, "main"),
        "fn () -> (int32, Tensor[(2), float16])"
    );
}

#[test]
fn mutual_recursion_and_if() {
    let mut p = P::new();
    let even = p.m.declare("even").unwrap();
    let odd = p.m.declare("odd").unwrap();
    for (g, other) in [(even, odd), (odd, even)] {
        let it = p.ty("int32");
        let n = p.m.var("n", Some(it));
        let c = p.konst("bool");
        let t = p.konst("bool");
        let callee = p.m.global_ref(other);
        let nr = p.m.var_ref(n);
        let rec = p.m.call(callee, &[nr]);
        let body = p.m.if_(c, t, rec);
        let f = p.m.func(&[], &[n], None, body);
        p.m.set_body(g, f);
    }
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(global_ty(&typed, &m, "even"), "fn (int32) -> bool");
    assert_eq!(global_ty(&typed, &m, "odd"), "fn (int32) -> bool");
}

#[test]
fn if_needs_a_bool_scalar_and_equal_branches() {
    let mut p = P::new();
    let c = p.konst("Tensor[(2), bool]");
    let (t, e) = (p.konst("int32"), p.konst("float32"));
    let body = p.m.if_(c, t, e);
    let f = p.m.func(&[], &[], None, body);
    p.m.define("f", f).unwrap();
    let (typed, _) = p.run();
    assert_eq!(
        messages(&typed),
        vec![
            "the condition of `if` must be a `bool` scalar, found `Tensor[(2), bool]`".to_string(),
            "the branches of `if` differ: dtype: int32 vs float32".to_string(),
        ]
    );
}

#[test]
fn tuples_projections_closures_and_refs() {
    let mut p = P::new();
    let it = p.ty("int32");
    let y = p.m.var("y", Some(it));
    let yr = p.m.var_ref(y);
    let k = p.konst("Tensor[(4), float32]");
    let pair = p.m.tuple(&[yr, k]);
    let second = p.m.proj(pair, 1);
    let closure = p.m.func(&[], &[y], None, second);
    let fv = p.m.var("g", None);
    let arg = p.konst("int32");
    let fr = p.m.var_ref(fv);
    let applied = p.m.call(fr, &[arg]);
    let r = p.m.ref_new(applied);
    let read = p.m.ref_read(r);
    let body = p.m.let_(fv, closure, read);
    let f = p.m.func(&[], &[], None, body);
    p.m.define("f", f).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(global_ty(&typed, &m, "f"), "fn () -> Tensor[(4), float32]");
    assert_eq!(
        typed.show(typed.var_ty(fv)),
        "fn (int32) -> Tensor[(4), float32]"
    );
    assert_eq!(typed.show(typed.expr_ty(r)), "ref(Tensor[(4), float32])");
}

#[test]
fn explicit_shape_type_arguments() {
    let mut p = P::new();
    let s = p.tcx.param("s", Kind::Shape);
    p.scope.bind("s", relay_core::text::Binding::Param(s));
    let t = p.ty("Tensor[s, float32]");
    let (a, b) = (p.m.var("a", Some(t)), p.m.var("b", Some(t)));
    let add = p.op("t.add");
    let (ar, br) = (p.m.var_ref(a), p.m.var_ref(b));
    let body = p.m.call(add, &[ar, br]);
    let plus = p.m.func(&[s], &[a, b], Some(t), body);
    let gplus = p.m.define("plus", plus).unwrap();
    let x = p.konst("Tensor[(10, 10), float32]");
    let y = p.konst("Tensor[(10, 10), float32]");
    let ten = p.ty("Tensor[(10, 10), float32]");
    let relay_core::TyData::Tensor(shape, _) = *p.tcx.data(ten) else {
        unreachable!()
    };
    let callee = p.m.global_ref(gplus);
    let call =
        p.m.call_full(callee, &[x, y], None, &[ParamValue::Shape(shape)]);
    let main = p.m.func(&[], &[], None, call);
    p.m.define("main", main).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(
        global_ty(&typed, &m, "plus"),
        "fn [s: Shape](Tensor[s, float32], Tensor[s, float32]) -> Tensor[s, float32]"
    );
    assert_eq!(
        global_ty(&typed, &m, "main"),
        "fn () -> Tensor[(10, 10), float32]"
    );
}

#[test]
fn symbolic_signatures_are_instantiated_at_each_call() {
    // `@plus` over `(n, m)` called with `(10, 10)` arguments returns `(10, 10)`.
    let mut p = P::new();
    let t = p.ty("Tensor[(n, m), float32]");
    let (a, b) = (p.m.var("a", Some(t)), p.m.var("b", Some(t)));
    let add = p.op("t.add");
    let (ar, br) = (p.m.var_ref(a), p.m.var_ref(b));
    let body = p.m.call(add, &[ar, br]);
    let plus = p.m.func(&[], &[a, b], Some(t), body);
    let gplus = p.m.define("plus", plus).unwrap();
    let x = p.konst("Tensor[(10, 10), float32]");
    let y = p.konst("Tensor[(10, 10), float32]");
    let callee = p.m.global_ref(gplus);
    let call = p.m.call(callee, &[x, y]);
    let main = p.m.func(&[], &[], None, call);
    p.m.define("main", main).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(
        global_ty(&typed, &m, "main"),
        "fn () -> Tensor[(10, 10), float32]"
    );
}

#[test]
fn adt_construction_and_the_spec_ill_typed_lists() {
    let mut p = P::new();
    // Cons(1, Cons(2, Nil()))
    let (one, two) = (p.konst("int32"), p.konst("int32"));
    let nil = p.ctor("Nil");
    let nil_v = p.m.call(nil, &[]);
    let cons = p.ctor("Cons");
    let inner = p.m.call(cons, &[two, nil_v]);
    let cons2 = p.ctor("Cons");
    let list = p.m.call(cons2, &[one, inner]);
    let f = p.m.func(&[], &[], None, list);
    p.m.define("ints", f).unwrap();
    // Cons(1, Cons((1, 1), Nil()))
    let (a, b, c) = (p.konst("int32"), p.konst("int32"), p.konst("int32"));
    let pair = p.m.tuple(&[b, c]);
    let nil = p.ctor("Nil");
    let nil_v = p.m.call(nil, &[]);
    let cons = p.ctor("Cons");
    let inner = p.m.call(cons, &[pair, nil_v]);
    let cons2 = p.ctor("Cons");
    let bad = p.m.call(cons2, &[a, inner]);
    let g = p.m.func(&[], &[], None, bad);
    p.m.define("bad", g).unwrap();
    let (typed, m) = p.run();
    assert_eq!(global_ty(&typed, &m, "ints"), "fn () -> List[int32]");
    assert_eq!(
        messages(&typed),
        vec!["argument 2 of `Cons`: type argument 1: `int32` vs `(int32, int32)`".to_string()]
    );
}

#[test]
fn adts_are_distinct_by_handle() {
    let mut p = P::new();
    let nt = p.ty("Numbers");
    let n = p.m.var("n", Some(nt));
    let nr = p.m.var_ref(n);
    let f = p.m.func(&[], &[n], None, nr);
    let gf = p.m.define("f", f).unwrap();
    let e2 = p.ctor("Empty2");
    let v = p.m.call(e2, &[]);
    let callee = p.m.global_ref(gf);
    let call = p.m.call(callee, &[v]);
    let main = p.m.func(&[], &[], None, call);
    p.m.define("main", main).unwrap();
    let (typed, _) = p.run();
    assert_eq!(
        messages(&typed),
        vec!["argument 1 of `@f`: `Numbers` from the parameter `%n` vs `Numbers2`".to_string()]
    );
}

#[test]
fn match_binds_pattern_variables() {
    // match (%l) { Cons(%h, _) => %h, Nil => 0 } over List[int32]
    let mut p = P::new();
    let lt = p.ty("List[int32]");
    let l = p.m.var("l", Some(lt));
    let h = p.m.var("h", None);
    let (cons, nil) = (p.adts.ctor("Cons").unwrap(), p.adts.ctor("Nil").unwrap());
    let ph = p.m.pat(Pattern::Var(h));
    let wild = p.m.pat(Pattern::Wildcard);
    let pc = p.m.pat(Pattern::Ctor(cons, Box::new([ph, wild])));
    let pn = p.m.pat(Pattern::Ctor(nil, Box::new([])));
    let hr = p.m.var_ref(h);
    let zero = p.konst("int32");
    let lr = p.m.var_ref(l);
    let body = p.m.match_(
        lr,
        &[
            Arm {
                pattern: pc,
                body: hr,
            },
            Arm {
                pattern: pn,
                body: zero,
            },
        ],
        true,
    );
    let f = p.m.func(&[], &[l], None, body);
    p.m.define("head_or_zero", f).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(typed.show(typed.var_ty(h)), "int32");
    assert_eq!(
        global_ty(&typed, &m, "head_or_zero"),
        "fn (List[int32]) -> int32"
    );
}

#[test]
fn an_unconstrained_binding_is_reported() {
    let mut p = P::new();
    let x = p.m.var("x", None);
    let xr = p.m.var_ref(x);
    let f = p.m.func(&[], &[x], None, xr);
    p.m.define("f", f).unwrap();
    let (typed, _) = p.run();
    assert_eq!(
        messages(&typed),
        vec!["the type of `%x` is not determined: `'a`".to_string()]
    );
}

#[test]
#[cfg_attr(debug_assertions, ignore = "scale test: run in release (see .ci/run)")]
fn a_million_chained_lets_on_a_small_stack() {
    on_small_stack(|| {
        const N: usize = 1_000_000;
        let mut p = P::new();
        let xt = p.ty("Tensor[(n, 768), float32]");
        let x = p.m.var("x", Some(xt));
        let same = p.op("t.same");
        // let %v0 = t.same(%x); let %v1 = t.same(%v0); ...; %v{N-1}
        let vars: Vec<_> = (0..N).map(|_| p.m.var("v", None)).collect();
        let mut values = Vec::with_capacity(N);
        let mut prev = x;
        for &v in &vars {
            let r = p.m.var_ref(prev);
            values.push(p.m.call(same, &[r]));
            prev = v;
        }
        let mut body = p.m.var_ref(prev);
        for i in (0..N).rev() {
            body = p.m.let_(vars[i], values[i], body);
        }
        let f = p.m.func(&[], &[x], None, body);
        p.m.define("chain", f).unwrap();
        let (typed, m) = p.run();
        assert_eq!(messages(&typed), Vec::<String>::new());
        assert_eq!(
            global_ty(&typed, &m, "chain"),
            "fn (Tensor[(n, 768), float32]) -> Tensor[(n, 768), float32]"
        );
    });
}

#[test]
#[cfg_attr(debug_assertions, ignore = "scale test: run in release (see .ci/run)")]
fn a_call_nested_a_hundred_thousand_deep_on_a_small_stack() {
    on_small_stack(|| {
        const DEPTH: usize = 100_000;
        let mut p = P::new();
        let same = p.op("t.same");
        let mut e = p.konst("Tensor[(2, 2), int64]");
        for _ in 0..DEPTH {
            e = p.m.call(same, &[e]);
        }
        let f = p.m.func(&[], &[], None, e);
        p.m.define("deep", f).unwrap();
        let (typed, m) = p.run();
        assert_eq!(messages(&typed), Vec::<String>::new());
        assert_eq!(
            global_ty(&typed, &m, "deep"),
            "fn () -> Tensor[(2, 2), int64]"
        );
    });
}

#[test]
fn generated_builders_build_expressions() {
    let mut p = P::new();
    let xt = p.ty("Tensor[(n, 4), float32]");
    let x = p.m.var("x", Some(xt));
    let (x1, x2) = (p.m.var_ref(x), p.m.var_ref(x));
    let sum = p.m.op_call(t::add(x1, x2).build());
    let nil = p.m.ctor_call(&p.adts, List::nil()).unwrap();
    let list = p.m.ctor_call(&p.adts, List::cons(sum, nil)).unwrap();
    let f = p.m.func(&[], &[x], None, list);
    p.m.define("f", f).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(
        global_ty(&typed, &m, "f"),
        "fn (Tensor[(n, 4), float32]) -> List[Tensor[(n, 4), float32]]"
    );
}

/// Patterns for the tests: `_`, a constructor with sub-patterns, a tuple.
enum Pt {
    W,
    C(&'static str, Vec<Pt>),
    T(Vec<Pt>),
}

fn pat(p: &mut P, pt: &Pt) -> relay_core::expr::PatId {
    let pattern = match pt {
        Pt::W => Pattern::Wildcard,
        Pt::C(name, subs) => {
            let c = p.adts.ctor(name).unwrap();
            let subs: Vec<_> = subs.iter().map(|s| pat(p, s)).collect();
            Pattern::Ctor(c, subs.into())
        }
        Pt::T(subs) => {
            let subs: Vec<_> = subs.iter().map(|s| pat(p, s)).collect();
            Pattern::Tuple(subs.into())
        }
    };
    p.m.pat(pattern)
}

/// Types `match (%x: ty) { arms => 0 }` (or `match?`) and gives the errors and warnings.
fn check_match(ty: &str, arms: &[Pt], complete: bool) -> (Vec<String>, Vec<String>) {
    let mut p = P::new();
    let t = p.ty(ty);
    let x = p.m.var("x", Some(t));
    let arms: Vec<Arm> = arms
        .iter()
        .map(|a| {
            let pattern = pat(&mut p, a);
            let body = p.konst("int32");
            Arm { pattern, body }
        })
        .collect();
    let xr = p.m.var_ref(x);
    let body = p.m.match_(xr, &arms, complete);
    let f = p.m.func(&[], &[x], None, body);
    p.m.define("f", f).unwrap();
    let (typed, _) = p.run();
    let warnings = typed.warnings().iter().map(|w| w.message.clone()).collect();
    (messages(&typed), warnings)
}

#[test]
fn a_complete_match_lists_the_missing_cases() {
    use Pt::*;
    let (errors, _) = check_match("List[int32]", &[C("Cons", vec![W, C("Nil", vec![])])], true);
    assert_eq!(
        errors,
        vec!["non-exhaustive match: `Nil`, `Cons(_, Cons(_, _))` not covered".to_string()]
    );
    let (errors, _) = check_match("Numbers", &[C("Empty", vec![])], true);
    assert_eq!(
        errors,
        vec!["non-exhaustive match: `Single(_)` not covered".to_string()]
    );
    let (errors, _) = check_match(
        "(List[int32], List[int32])",
        &[T(vec![C("Nil", vec![]), W]), T(vec![W, C("Nil", vec![])])],
        true,
    );
    assert_eq!(
        errors,
        vec!["non-exhaustive match: `(Cons(_, _), Cons(_, _))` not covered".to_string()]
    );
}

#[test]
fn covering_matches_partial_matches_and_unreachable_arms() {
    use Pt::*;
    let full = [C("Nil", vec![]), C("Cons", vec![W, W])];
    assert_eq!(check_match("List[int32]", &full, true), (vec![], vec![]));
    // `match?` is partial: not checked.
    assert_eq!(
        check_match("List[int32]", &[C("Nil", vec![])], false),
        (vec![], vec![])
    );
    let (errors, warnings) = check_match("List[int32]", &[W, C("Nil", vec![])], true);
    assert_eq!(errors, Vec::<String>::new());
    assert_eq!(
        warnings,
        vec![
            "unreachable arm: the arms before it match every value it matches (arm 2)".to_string()
        ]
    );
}

fn define_id(p: &mut P) -> relay_core::expr::GlobalId {
    let a = p.tcx.param("A", Kind::Type);
    let at = p.tcx.param_ty(a).unwrap();
    let x = p.m.var("x", Some(at));
    let xr = p.m.var_ref(x);
    let id = p.m.func(&[a], &[x], Some(at), xr);
    p.m.define("id", id).unwrap()
}

#[test]
fn a_polymorphic_global_passed_as_a_monomorphic_function() {
    let mut p = P::new();
    let gid = define_id(&mut p);
    let ft = p.ty("fn (int32) -> int32");
    let it = p.ty("int32");
    let (f, x) = (p.m.var("f", Some(ft)), p.m.var("x", Some(it)));
    let (fr, xr) = (p.m.var_ref(f), p.m.var_ref(x));
    let body = p.m.call(fr, &[xr]);
    let apply = p.m.func(&[], &[f, x], Some(it), body);
    let gapply = p.m.define("apply", apply).unwrap();
    let (callee, idv, one) = (
        p.m.global_ref(gapply),
        p.m.global_ref(gid),
        p.konst("int32"),
    );
    let call = p.m.call(callee, &[idv, one]);
    let main = p.m.func(&[], &[], None, call);
    p.m.define("main", main).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(global_ty(&typed, &m, "main"), "fn () -> int32");
    // Used as a value, the global keeps its polymorphic type.
    assert_eq!(typed.show(typed.expr_ty(idv)), "fn [A](A) -> A");
}

#[test]
fn nil_takes_the_type_its_context_gives() {
    let mut p = P::new();
    let lt = p.ty("List[float32]");
    let l = p.m.var("l", Some(lt));
    let nil = p.ctor("Nil");
    let value = p.m.call(nil, &[]);
    let lr = p.m.var_ref(l);
    let body = p.m.let_(l, value, lr);
    let f = p.m.func(&[], &[], None, body);
    p.m.define("f", f).unwrap();
    let (typed, _) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(typed.show(typed.expr_ty(value)), "List[float32]");
}

#[test]
fn the_spec_second_ill_typed_list() {
    // Cons(Cons(1, Cons(2, Nil())), Cons(Cons((1, 1), Cons((2, 2), Nil())), Nil()))
    let mut p = P::new();
    let cons = |p: &mut P, h: ExprId, t: ExprId| {
        let c = p.ctor("Cons");
        p.m.call(c, &[h, t])
    };
    let nil = |p: &mut P| {
        let c = p.ctor("Nil");
        p.m.call(c, &[])
    };
    let (one, two) = (p.konst("int32"), p.konst("int32"));
    let n1 = nil(&mut p);
    let t2 = cons(&mut p, two, n1);
    let ints = cons(&mut p, one, t2);
    let pair = |p: &mut P| {
        let (a, b) = (p.konst("int32"), p.konst("int32"));
        p.m.tuple(&[a, b])
    };
    let (p1, p2) = (pair(&mut p), pair(&mut p));
    let n2 = nil(&mut p);
    let tp = cons(&mut p, p2, n2);
    let pairs = cons(&mut p, p1, tp);
    let n3 = nil(&mut p);
    let rest = cons(&mut p, pairs, n3);
    let bad = cons(&mut p, ints, rest);
    let f = p.m.func(&[], &[], None, bad);
    p.m.define("bad", f).unwrap();
    let (typed, _) = p.run();
    assert_eq!(
        messages(&typed),
        vec![
            "argument 2 of `Cons`: type argument 1, type argument 1: `int32` vs `(int32, int32)`"
                .to_string()
        ]
    );
}

#[test]
fn a_type_argument_of_the_wrong_kind_is_an_error() {
    let mut p = P::new();
    let gid = define_id(&mut p);
    let callee = p.m.global_ref(gid);
    let one = p.konst("int32");
    let ten = p.ty("Tensor[(10), float32]");
    let relay_core::TyData::Tensor(shape, _) = *p.tcx.data(ten) else {
        unreachable!()
    };
    let call =
        p.m.call_full(callee, &[one], None, &[ParamValue::Shape(shape)]);
    let main = p.m.func(&[], &[], None, call);
    p.m.define("main", main).unwrap();
    let (typed, _) = p.run();
    assert_eq!(
        messages(&typed),
        vec!["`@id`: type argument 1 is a `Shape` but the parameter `A` is a `Type`".to_string()]
    );
}

#[test]
fn a_relation_failure_points_at_the_argument_it_blames() {
    use relay_core::expr::Span;
    let mut p = P::new();
    let (at, bt) = (
        p.ty("Tensor[(2, 3), float32]"),
        p.ty("Tensor[(4, 5), float32]"),
    );
    p.m.at(Span { lo: 10, hi: 12 });
    let a = p.m.var("a", Some(at));
    let b = p.m.var("b", Some(bt));
    let add = p.op("t.add");
    p.m.at(Span { lo: 20, hi: 22 });
    let ar = p.m.var_ref(a);
    p.m.at(Span { lo: 24, hi: 26 });
    let br = p.m.var_ref(b);
    p.m.at(Span { lo: 14, hi: 27 });
    let call = p.m.call(add, &[ar, br]);
    let f = p.m.func(&[], &[a, b], None, call);
    p.m.define("f", f).unwrap();
    let (typed, _) = p.run();
    let [err] = typed.errors() else {
        panic!("one error: {:?}", typed.errors())
    };
    assert_eq!(
        err.message,
        "`Tensor[(2, 3), float32]` and `Tensor[(4, 5), float32]` do not broadcast: dimension 0 of the first is 2 and dimension 0 of the second is 4"
    );
    assert_eq!(err.span, Span { lo: 24, hi: 26 });
    assert_eq!(err.expr, Some(br));
    assert_eq!(
        err.notes,
        vec!["from the relation `Bcast` of `t.add`".to_string()]
    );
}

#[test]
fn explicit_base_type_and_shape_var_arguments() {
    use relay_core::{DTy, DType};
    let mut p = P::new();
    // def @keep[b: BaseType, k: ShapeVar](%x: Tensor[(k, 3), b]) -> Tensor[(k, 3), b] { %x }
    let b = p.tcx.param("b", Kind::BaseType);
    let k = p.tcx.param("k", Kind::ShapeVar);
    p.scope.bind("b", relay_core::text::Binding::Param(b));
    p.scope.bind("k", relay_core::text::Binding::Param(k));
    let t = p.ty("Tensor[(k, 3), b]");
    let x = p.m.var("x", Some(t));
    let xr = p.m.var_ref(x);
    let keep = p.m.func(&[b, k], &[x], Some(t), xr);
    let g = p.m.define("keep", keep).unwrap();
    let five = p.tcx.dims.konst(5);
    let args = [
        ParamValue::DType(DTy::Known(DType::FLOAT16)),
        ParamValue::Dim(five),
    ];
    let (good, bad) = (
        p.konst("Tensor[(5, 3), float16]"),
        p.konst("Tensor[(4, 3), float16]"),
    );
    let (c1, c2) = (p.m.global_ref(g), p.m.global_ref(g));
    let ok = p.m.call_full(c1, &[good], None, &args);
    let wrong = p.m.call_full(c2, &[bad], None, &args);
    let (f1, f2) = (
        p.m.func(&[], &[], None, ok),
        p.m.func(&[], &[], None, wrong),
    );
    p.m.define("ok", f1).unwrap();
    p.m.define("wrong", f2).unwrap();
    let (typed, m) = p.run();
    assert_eq!(
        global_ty(&typed, &m, "ok"),
        "fn () -> Tensor[(5, 3), float16]"
    );
    assert_eq!(
        messages(&typed),
        vec!["argument 1 of `@keep`: dimension 0: 5 vs 4".to_string()]
    );
}

#[test]
fn a_global_whose_value_is_not_a_function_literal_has_its_value_s_type() {
    let mut p = P::new();
    let k = p.konst("Tensor[(3), int8]");
    let pair = p.m.tuple(&[k]);
    p.m.define("k", pair).unwrap();
    let (typed, m) = p.run();
    assert_eq!(messages(&typed), Vec::<String>::new());
    assert_eq!(global_ty(&typed, &m, "k"), "(Tensor[(3), int8],)");
}
