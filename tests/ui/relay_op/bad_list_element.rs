use relay_core::relay_op;

relay_op! {
    conv : fn<t1: Type, t2: Type>(t1) -> t2, attrs { strides: [int] = [1, 2.5] };
}

fn main() {}
