use relay_core::relay_op;

relay_op! {
    split : fn<t1: Type, t2: Type>(t1) -> t2, attrs { indices_or_sections: int | [int] };
}

fn main() {
    let _ = split("x", "3").build();
}
