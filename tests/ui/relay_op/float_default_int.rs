use relay_core::relay_op;

relay_op! {
    norm : fn<t1: Type, t2: Type>(t1) -> t2, attrs { epsilon: float = 1 };
}

fn main() {}
