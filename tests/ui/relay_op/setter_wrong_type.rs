use relay_core::relay_op;

relay_op! {
    sum : fn<t1: Type, t2: Type>(t1) -> t2, attrs { axis: int = 0 };
}

fn main() {
    let _ = sum("x").axis("1").build();
}
