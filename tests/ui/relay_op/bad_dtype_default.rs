use relay_core::relay_op;

relay_op! {
    cast : fn<t1: Type, t2: Type>(t1) -> t2, attrs { dtype: dtype = "float31" };
}

fn main() {}
