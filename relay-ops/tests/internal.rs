//! The compiler-internal operators (`annotation.*`, `on_device`, `device_copy`, `debug`,
//! `call_lowered`, `vm.*`, `memory.*`): exact result types and errors, table-driven, for
//! every operator: static, symbolic (`n`) and `?` inputs, backward inference, errors with
//! their messages; and programs as TVM's passes print them, with each binding's type.

mod common;
use common::{boolean, check_args, check_op, check_with_bindings, int, ints, string};
use relay_ops::prelude::Prelude;

const T57: &str = "Tensor[(5, 7), float32]";

#[test]
fn identities() {
    let vd = |i: usize| string(&format!("meta[VirtualDevice][{i}]"));
    let cases: &[(&str, &[(&str, relay_core::AttrValue)])] = &[
        ("annotation.bitpack_start", &[]),
        ("annotation.bitpack_end", &[]),
        ("annotation.cast_hint", &[("dtype", string("int8"))]),
        ("annotation.checkpoint", &[]),
        (
            "annotation.compiler_begin",
            &[("compiler", string("cmsisnn"))],
        ),
        (
            "annotation.compiler_end",
            &[("compiler", string("cmsisnn"))],
        ),
        ("annotation.stop_fusion", &[]),
        ("annotation.with_funcid", &[("fid", int(3))]),
        (
            "on_device",
            &[
                ("virtual_device", vd(0)),
                ("constrain_result", boolean(true)),
            ],
        ),
        (
            "device_copy",
            &[("src_virtual_device", vd(0)), ("dst_virtual_device", vd(1))],
        ),
        ("debug", &[]),
    ];
    for (op, attrs) in cases {
        check_op(
            op,
            &[
                (&[T57], attrs, Ok(T57)),
                (&["Tensor[(n, 7), int8]"], attrs, Ok("Tensor[(n, 7), int8]")),
                (&["Tensor[(?), float16]"], attrs, Ok("Tensor[(?), float16]")),
                // Any type, as TVM's `IdentityRel`.
                (
                    &["(Tensor[(2), float32], fn (int32) -> int32)"],
                    attrs,
                    Ok("(Tensor[(2), float32], fn (int32) -> int32)"),
                ),
            ],
        );
    }
    check_op(
        "annotation.cast_hint",
        &[(
            &[T57],
            &[],
            Err("`annotation.cast_hint` needs attribute `dtype` of type `dtype`"),
        )],
    );
    check_op(
        "annotation.compiler_begin",
        &[(
            &[T57],
            &[("compiler", int(1))],
            Err("attribute `compiler` of `annotation.compiler_begin` expects `str`, found `1`"),
        )],
    );
    check_op(
        "on_device",
        &[(
            &[T57],
            &[
                ("virtual_device", vd(0)),
                ("constrain_result", string("yes")),
            ],
            Err("attribute `constrain_result` of `on_device` expects `bool`, found `\"yes\"`"),
        )],
    );
}

#[test]
fn call_lowered() {
    let f = "fn (Tensor[(5, 7), float32], Tensor[(7), float32]) -> Tensor[(5, 7), float32]";
    check_op(
        "call_lowered",
        &[
            (&[f, "(Tensor[(5, 7), float32], Tensor[(7), float32])"], &[], Ok(T57)),
            (
                &["fn (Tensor[(n, 7), int8]) -> Tensor[(n), int8]", "(Tensor[(n, 7), int8],)"],
                &[],
                Ok("Tensor[(n), int8]"),
            ),
            (
                &["fn (Tensor[(?, 7), float32]) -> (Tensor[(?), float32], float32)", "(Tensor[(?, 7), float32],)"],
                &[],
                Ok("(Tensor[(?), float32], float32)"),
            ),
            (
                &[f, "(Tensor[(5, 7), float32],)"],
                &[],
                Err("the arguments of `call_lowered` must be a tuple of 2 fields, as the function's, found `(Tensor[(5, 7), float32],)`"),
            ),
            (
                &[f, "(Tensor[(5, 7), float32], Tensor[(5), float32])"],
                &[],
                Err("field 1 of the arguments of `call_lowered` is `Tensor[(5), float32]`, but the function's is `Tensor[(7), float32]`"),
            ),
            (
                &[T57, "(Tensor[(5, 7), float32],)"],
                &[],
                Err("`call_lowered` calls a function, found `Tensor[(5, 7), float32]`"),
            ),
            (
                &["_", "(Tensor[(5, 7), float32],)"],
                &[],
                Err("waiting: CallLowered"),
            ),
        ],
    );
    // The tuple of arguments is inferred from the function.
    check_args(&[(
        "call_lowered",
        &[f, "_"],
        &[],
        T57,
        &[f, "(Tensor[(5, 7), float32], Tensor[(7), float32])"],
    )]);
}

#[test]
fn invoke_tvm_op() {
    let f = "fn (Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32]";
    let g = "fn (Tensor[(n), int8]) -> (Tensor[(n), int8], Tensor[(n), int8])";
    check_op(
        "vm.invoke_tvm_op",
        &[
            (&[f, "(Tensor[(5, 7), float32],)", "(Tensor[(5, 7), float32],)"], &[], Ok("()")),
            (
                &[g, "(Tensor[(n), int8],)", "(Tensor[(n), int8], Tensor[(n), int8])"],
                &[],
                Ok("()"),
            ),
            (
                &[f, "(Tensor[(5, 7), float32],)", "(Tensor[(5, 7), float32], Tensor[(5, 7), float32])"],
                &[],
                Err("the outputs of `vm.invoke_tvm_op` must be a tuple of 1 fields, as the function's, found `(Tensor[(5, 7), float32], Tensor[(5, 7), float32])`"),
            ),
            (
                &["fn [A](A) -> A", "(float32,)", "(float32,)"],
                &[],
                Err("`vm.invoke_tvm_op` calls a lowered function, which has no type parameters, found `fn [A](A) -> A`"),
            ),
        ],
    );
    // The input and output tuples are inferred from the function.
    check_args(&[(
        "vm.invoke_tvm_op",
        &[
            "fn (Tensor[(?, 3), float32]) -> Tensor[(?, 3), float32]",
            "_",
            "_",
        ],
        &[],
        "()",
        &[
            "fn (Tensor[(?, 3), float32]) -> Tensor[(?, 3), float32]",
            "(Tensor[(?, 3), float32],)",
            "(Tensor[(?, 3), float32],)",
        ],
    )]);
}

#[test]
fn vm_reshape_tensor_and_shape_of() {
    check_op(
        "vm.reshape_tensor",
        &[
            (&["Tensor[(3, 4), float32]", "Tensor[(2), int64]"], &[("newshape", ints(&[6, 2]))], Ok("Tensor[(6, 2), float32]")),
            (&["Tensor[(n, 4), int8]", "Tensor[(1), int64]"], &[("newshape", ints(&[8]))], Ok("Tensor[(8), int8]")),
            (&["Tensor[(?, 4), int8]", "Tensor[(2), int64]"], &[("newshape", ints(&[2, 2]))], Ok("Tensor[(2, 2), int8]")),
            (
                &["Tensor[(3, 4), float32]", "Tensor[(2), int64]"],
                &[("newshape", ints(&[5, 2]))],
                Err("`vm.reshape_tensor` cannot reshape `Tensor[(3, 4), float32]` (12 elements) to `newshape` of 10 elements"),
            ),
            (
                &["Tensor[(3, 4), float32]", "Tensor[(2), int64]"],
                &[("newshape", ints(&[-1, 2]))],
                Err("`newshape` of `vm.reshape_tensor` must not have a negative dimension, found -1"),
            ),
        ],
    );
    check_op(
        "vm.shape_of",
        &[
            (
                &["Tensor[(n, 3), float32]"],
                &[("dtype", string("int64"))],
                Ok("Tensor[(2), int64]"),
            ),
            (&["Tensor[(?), int8]"], &[], Ok("Tensor[(1), int32]")),
        ],
    );
}

#[test]
fn memory_kill() {
    check_op(
        "memory.kill",
        &[
            (&[T57], &[], Ok("()")),
            (&["Tensor[(n), int8]"], &[], Ok("()")),
            (&["_"], &[], Ok("()")),
        ],
    );
}

/// The allocations return and take the data type `Storage`, which a single call's
/// checking (without the prelude's data types) does not have.
#[test]
fn allocations_need_the_storage_type() {
    check_op(
        "memory.alloc_storage",
        &[(
            &["int64", "Tensor[(2), int64]", "int64"],
            &[],
            Err("`memory.alloc_storage` needs the data type `Storage`, which is not loaded"),
        )],
    );
}

#[test]
fn allocations_in_a_program() {
    let src = r#"#[version = "0.0.5"]
def @main(%s: Tensor[(2), int64], %n: Tensor[(n), int64]) {
  %0 = memory.alloc_storage(64i64, %s, 64i64, dtype="int8");
  %1 = memory.alloc_tensor(%0, 0i64, %s, dtype="int8", assert_shape=[4, 4]);
  %2 = memory.alloc_tensor(%0, 0i64, %s, const_shape=meta[relay.Constant][0]);
  %3 = memory.alloc_tensor(%0, 0i64, meta[relay.Constant][1] /* ty=Tensor[(3), int64] */, const_shape=meta[relay.Constant][1], dtype="float16");
  %4 = memory.kill(%1);
  (%2, %3)
}

def @reuse(%st: Storage, %s: Tensor[(1), int64]) {
  memory.alloc_tensor(%st, 8i64, %s, assert_shape=[16])
}
"#;
    assert_eq!(
        check_with_bindings(src),
        [
            "@main: fn (Tensor[(2), int64], Tensor[(n), int64]) -> (Tensor[(?, ?), float32], Tensor[(?, ?, ?), float16])",
            "%0: Storage",
            "%1: Tensor[(4, 4), int8]",
            "%2: Tensor[(?, ?), float32]",
            "%3: Tensor[(?, ?, ?), float16]",
            "%4: ()",
            "@reuse: fn (Storage, Tensor[(1), int64]) -> Tensor[(16), float32]",
        ]
    );
    let errors = |body: &str| -> Vec<String> {
        let src = format!(
            "def @f(%s: Tensor[(2), int64], %n: Tensor[(n), int64], %x: Tensor[(4), float32]) {{ {body} }}"
        );
        let checked = Prelude::standard().unwrap().check(&src);
        checked.errors.iter().map(|e| e.message.clone()).collect()
    };
    assert_eq!(
        errors("memory.alloc_storage(64, %s, 64i64)"),
        ["`size` of `memory.alloc_storage` must be an int64 scalar, found `int32`"]
    );
    assert_eq!(
        errors("memory.alloc_tensor(%x, 0i64, %s, assert_shape=[2, 2])"),
        ["the storage of `memory.alloc_tensor` must be a `Storage`, found `Tensor[(4), float32]`"]
    );
    assert_eq!(
        errors("memory.alloc_tensor(memory.alloc_storage(64i64, %s, 64i64), 0i64, %s)"),
        ["`memory.alloc_tensor` needs `const_shape` or `assert_shape`"]
    );
    assert_eq!(
        errors("memory.alloc_tensor(memory.alloc_storage(64i64, %s, 64i64), 0i64, %s, assert_shape=[8])"),
        ["`assert_shape` has 1 dimensions but the shape of `memory.alloc_tensor` has 2 elements"]
    );
    assert_eq!(
        errors("memory.alloc_tensor(memory.alloc_storage(64i64, %s, 64i64), 0i64, %n, const_shape=meta[relay.Constant][0])"),
        ["the shape of `memory.alloc_tensor` must have a static length, found `Tensor[(n), int64]`"]
    );
}

/// TVM's AOT lowering test (`test_pass_aot_lower_main.py`), with its `let` bindings:
/// `call_lowered` of global functions, one of two parameters.
#[test]
fn lowered_calls_in_a_program() {
    let src = r#"#[version = "0.0.5"]
def @add(%x: Tensor[(5, 7), float32], %y: Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] { add(%x, %y) }
def @neg(%x: Tensor[(5, 7), float32]) { negative(%x) }

def @main(%a: Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32] {
  %0 = (%a,);
  let %v0 = call_lowered(@neg, %0);
  %1 = on_device(%v0, virtual_device=meta[VirtualDevice][0], constrain_result=True);
  %2 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0], dst_virtual_device=meta[VirtualDevice][1]);
  %3 = (%2, %a);
  let %v1 = call_lowered(@add, %3);
  %v1
}
"#;
    assert_eq!(
        check_with_bindings(src),
        [
            "@add: fn (Tensor[(5, 7), float32], Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32]",
            "@neg: fn (Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32]",
            "@main: fn (Tensor[(5, 7), float32]) -> Tensor[(5, 7), float32]",
            "%0: (Tensor[(5, 7), float32],)",
            "%v0: Tensor[(5, 7), float32]",
            "%1: Tensor[(5, 7), float32]",
            "%2: Tensor[(5, 7), float32]",
            "%3: (Tensor[(5, 7), float32], Tensor[(5, 7), float32])",
            "%v1: Tensor[(5, 7), float32]",
        ]
    );
    let wrong = src.replace("%3 = (%2, %a);", "%3 = (%2,);");
    let checked = Prelude::standard().unwrap().check(&wrong);
    let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        ["the arguments of `call_lowered` must be a tuple of 2 fields, as the function's, found `(Tensor[(5, 7), float32],)`"]
    );
}

#[test]
fn virtual_devices_printed_for_people_are_attributes_as_text() {
    // After PlanDevices, with the metadata not shown, TVM prints a virtual device in full,
    // on parameters, functions and the device operators.
    let src = r#"def @main(%x {virtual_device=VirtualDevice(device_type=1, virtual_device_id=0, target=Target(id=1d4d3b79920, kind='llvm', keys={'cpu'}))}: Tensor[(2), float32], virtual_device=VirtualDevice(device_type=1, virtual_device_id=0, target=Target(id=1d4d3b79920, kind='llvm', keys={'cpu'}, attrs={'mtriple': "x86_64-unknown-linux-gnu"}))) -> Tensor[(2), float32] {
  let %0 = on_device(%x, virtual_device=VirtualDevice(device_type=1, virtual_device_id=0, target=Target(id=1d4d3b79920, kind='llvm', keys={'cpu'})), constrain_result=True);
  device_copy(%0, src_virtual_device=VirtualDevice(device_type=1, virtual_device_id=0), dst_virtual_device=VirtualDevice(device_type=2, virtual_device_id=0))
}"#;
    let (lets, main) = common::bindings(src);
    assert_eq!(
        lets,
        [("0".to_string(), "Tensor[(2), float32]".to_string())]
    );
    assert_eq!(main, "fn (Tensor[(2), float32]) -> Tensor[(2), float32]");
}
