use relay_core::relay_op;

// One error, at the type: the default is not checked against a guessed type.
relay_op! {
    resize : fn<t1: Type, t2: Type>(t1) -> t2, attrs { layout: string = "NCHW" };
}

fn main() {}
