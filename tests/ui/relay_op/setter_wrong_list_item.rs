use relay_core::relay_op;

relay_op! {
    conv : fn<t1: Type, t2: Type>(t1) -> t2, attrs { strides: [int] = [1, 1] };
}

fn main() {
    let _ = conv("x").strides([1.0, 2.0]).build();
}
