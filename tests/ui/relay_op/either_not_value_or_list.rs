use relay_core::relay_op;

relay_op! {
    pad : fn<t1: Type, t2: Type>(t1) -> t2, attrs { value: int | str = 0 };
}

fn main() {}
