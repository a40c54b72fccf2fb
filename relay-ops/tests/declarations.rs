//! The operators and data types of relay-ops: types, solving, attributes, builders and
//! the registry.

use relay_core::adt;
use relay_core::op::{AttrConst, AttrDef, AttrType, OpDef};
use relay_core::text::{parse_type, TypeScope};
use relay_core::{registry, AttrValue, Attrs, DType, Outcome, Solver, TyCtx};
use relay_ops::prelude::{List, Optional, Tree};

#[test]
fn add_type_is_the_spec_scheme() {
    let mut tcx = TyCtx::new();
    let t = relay_ops::level1::ADD.ty(&mut tcx);
    assert_eq!(tcx.show(t), "fn [t1, t2, t3](t1, t2) -> t3");
    assert_eq!(relay_ops::level1::ADD.relation.unwrap().name(), "Broadcast");
    assert_eq!(relay_ops::level1::ADD.level, 1);
    assert_eq!(
        relay_ops::level1::ADD.doc,
        "Element-wise addition with NumPy broadcasting.\n\n```text\n%z = add(%x, %y)  // (n, 1) f32, (3) f32 -> (n, 3) f32\n```\n\nAttributes: none."
    );
}

#[test]
fn add_broadcasts_in_a_solver() {
    let mut tcx = TyCtx::new();
    let add = relay_ops::level1::ADD.ty(&mut tcx);
    let mut scope = TypeScope::new();
    let a = parse_type(&mut tcx, &mut scope, "Tensor[(n, 1), float32]").unwrap();
    let b = parse_type(&mut tcx, &mut scope, "Tensor[(3), float32]").unwrap();
    let mut s = Solver::new(tcx);
    let (args, ret, constraints) = s.instantiate(add).unwrap();
    s.unify(args[0], a).unwrap();
    s.unify(args[1], b).unwrap();
    s.add_constraints(&constraints, None, 0);
    assert!(matches!(s.solve(), Outcome::Solved), "{:?}", s.solve());
    let ret = s.resolve(ret);
    assert_eq!(s.tcx.show(ret), "Tensor[(n, 3), float32]");
}

#[test]
fn add_builder_gives_the_call() {
    let call = relay_ops::level1::add("x", "y").build();
    assert!(std::ptr::eq(call.op, &relay_ops::level1::ADD));
    assert_eq!(call.args, vec!["x", "y"]);
    assert!(call.attrs.is_empty());
}

#[test]
fn registry_finds_the_declarations() {
    let reg = registry::global().unwrap();
    assert!(std::ptr::eq(
        reg.op("add").unwrap(),
        &relay_ops::level1::ADD
    ));
    assert_eq!(reg.relation("Broadcast").unwrap().name, "Broadcast");
    assert_eq!(reg.data("List").unwrap().params, ["a"]);
    let (data, i) = reg.ctor("Cons").unwrap();
    assert_eq!((data.name, i), ("List", 1));
    assert_eq!(reg.ctor("Rose").unwrap().0.name, "Tree");
    // Declared by this test binary: found next to the library's.
    assert!(std::ptr::eq(
        reg.op("test.conv2d").unwrap(),
        &declared::test::CONV2D
    ));
    assert!(reg.op("test.reshape").is_some());
    assert!(reg.op("test.conv3d").is_none());
}

#[test]
fn prelude_constructor_types() {
    let mut tcx = TyCtx::new();
    let table = adt::load(&mut tcx).unwrap();
    let shown: Vec<String> = ["Nil", "Cons", "None", "Some", "Rose", "zero", "succ"]
        .iter()
        .map(|c| {
            let c = table.ctor(c).unwrap();
            tcx.show(table.ctor_info(&tcx, c).ty)
        })
        .collect();
    assert_eq!(
        shown,
        [
            "fn [a]() -> List[a]",
            "fn [a](a, List[a]) -> List[a]",
            "fn [a]() -> Optional[a]",
            "fn [a](a) -> Optional[a]",
            "fn [a](a, List[Tree[a]]) -> Tree[a]",
            "fn () -> nat",
            "fn (nat) -> nat",
        ]
    );
    let list = table.adt("List").unwrap();
    let info = tcx.adt_info(list);
    assert_eq!(info.ctors.len(), 2);
    assert_eq!(&*info.ctors[1].name, "Cons");
    // Types mentioning the prelude parse in the table's scope.
    let mut scope = table.scope();
    let t = parse_type(&mut tcx, &mut scope, "Optional[List[float32]]").unwrap();
    assert_eq!(tcx.show(t), "Optional[List[float32]]");
}

#[test]
fn constructor_builders() {
    let call = List::cons(1, 2);
    assert_eq!(
        (call.name(), call.ctor, call.args.clone()),
        ("Cons", 1, vec![1, 2])
    );
    assert_eq!(List::nil::<i32>().name(), "Nil");
    assert_eq!(Optional::some("x").name(), "Some");
    assert_eq!(Optional::none::<()>().ctor, 0);
    assert_eq!(Tree::rose("v", "kids").data.name, "Tree");
    assert_eq!(relay_ops::prelude::nat::succ("n").name(), "succ");
}

static CONV: OpDef = OpDef {
    name: "nn.conv2d",
    doc: "",
    params: &[],
    arg_names: &["data", "weight"],
    args: &["float32", "float32"],
    ret: "float32",
    relation: None,
    attrs: &[
        AttrDef {
            name: "strides",
            ty: AttrType::List(&AttrType::Int),
            default: Some(AttrConst::List(&[AttrConst::Int(1), AttrConst::Int(1)])),
        },
        AttrDef {
            name: "channels",
            ty: AttrType::Option(&AttrType::Int),
            default: Some(AttrConst::None),
        },
        AttrDef {
            name: "epsilon",
            ty: AttrType::Float,
            default: Some(AttrConst::Float(1e-5)),
        },
        AttrDef {
            name: "out_dtype",
            ty: AttrType::DType,
            default: Some(AttrConst::DType("float32")),
        },
        AttrDef {
            name: "newshape",
            ty: AttrType::List(&AttrType::Int),
            default: None,
        },
    ],
    level: 2,
    file: "here.rs",
    line: 1,
};

fn attrs(pairs: &[(&str, AttrValue)]) -> Attrs {
    Attrs::new(
        pairs
            .iter()
            .map(|(k, v)| ((*k).into(), v.clone()))
            .collect(),
    )
}

fn shown(a: &Attrs) -> Vec<String> {
    a.iter().map(|(k, v)| format!("{k}={v}")).collect()
}

#[test]
fn attrs_defaults_are_filled() {
    let given = attrs(&[
        ("newshape", AttrValue::List(vec![AttrValue::Int(-1)])),
        ("channels", AttrValue::Int(64)),
        ("epsilon", AttrValue::Int(1)),
        ("out_dtype", AttrValue::Str("int8".into())),
    ]);
    let a = CONV.attrs_for_call(&given).unwrap();
    assert_eq!(
        shown(&a),
        [
            "strides=[1, 1]",
            "channels=64",
            "epsilon=1.0",
            "out_dtype=\"int8\"",
            "newshape=[-1]"
        ]
    );
    assert_eq!(a.get("out_dtype"), Some(&AttrValue::DType(DType::INT8)));
}

#[test]
fn attrs_errors() {
    let newshape = ("newshape", AttrValue::List(vec![]));
    let err = |pairs: &[(&str, AttrValue)]| CONV.attrs_for_call(&attrs(pairs)).unwrap_err().message;
    assert_eq!(
        err(&[newshape.clone(), ("stride", AttrValue::Int(2))]),
        "`nn.conv2d` has no attribute `stride` (its attributes are `strides`, `channels`, `epsilon`, `out_dtype`, `newshape`)"
    );
    assert_eq!(
        err(&[
            newshape.clone(),
            ("strides", AttrValue::List(vec![AttrValue::Float(1.5)]))
        ]),
        "attribute `strides` of `nn.conv2d` expects `[int]`, found `[1.5]`"
    );
    assert_eq!(
        err(&[
            newshape.clone(),
            ("out_dtype", AttrValue::Str("float31".into()))
        ]),
        "attribute `out_dtype` of `nn.conv2d` expects `dtype`, found `\"float31\"`"
    );
    assert_eq!(
        err(&[("channels", AttrValue::Bool(true))]),
        "attribute `channels` of `nn.conv2d` expects `Option<int>`, found `True`"
    );
    assert_eq!(
        err(&[]),
        "`nn.conv2d` needs attribute `newshape` of type `[int]`"
    );
    assert_eq!(
        relay_ops::level1::ADD
            .attrs_for_call(&attrs(&[("axis", AttrValue::Int(1))]))
            .unwrap_err()
            .message,
        "`add` has no attribute `axis` (it takes none)"
    );
}

mod declared {
    use relay_core::relay_op;
    use relay_ops::relations::Broadcast;

    relay_op! {
        /// A convolution-like operator (declared here to test the builder).
        test.conv2d : fn<d: Type, w: Type, o: Type>(data: d, weight: w) -> o where Broadcast,
            attrs {
                strides: [int] = [1, 1],
                padding: [int] = [0, 0],
                channels: Option<int> = None,
                data_layout: str = "NCHW",
                out_dtype: Option<dtype> = None,
                epsilon: float = 1e-5,
            },
            level 2;
        test.reshape : fn<t, u>(t) -> u, attrs { newshape: [int], allowzero: bool = false };
    }
}

#[test]
fn typed_builders() {
    let call = declared::test::conv2d(1u8, 2u8)
        .strides([2, 2])
        .channels(64)
        .data_layout("NHWC")
        .out_dtype(DType::FLOAT16)
        .build();
    assert_eq!(call.op.name, "test.conv2d");
    assert_eq!(call.args, vec![1, 2]);
    assert_eq!(
        shown(&call.attrs),
        [
            "strides=[2, 2]",
            "padding=[0, 0]",
            "channels=64",
            "data_layout=\"NHWC\"",
            "out_dtype=\"float16\"",
            "epsilon=1e-5"
        ]
    );
    assert_eq!(declared::test::CONV2D.arg_names, ["data", "weight"]);
    let call = declared::test::reshape("x", [0, -1]).build();
    assert_eq!(shown(&call.attrs), ["newshape=[0, -1]", "allowzero=False"]);
    assert_eq!(declared::test::RESHAPE.arg_names, ["arg0"]);
}
