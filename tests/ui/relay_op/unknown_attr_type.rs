use relay_core::relay_op;

relay_op! {
    sum : fn<t1: Type, t2: Type>(t1) -> t2, attrs { axis: integer = 0 };
}

fn main() {}
