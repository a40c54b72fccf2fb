use relay_core::relay_op;

relay_op! {
    my.scale : fn<a, b>(data: a) -> b,
        onnx "" Scale since 1 { inputs(X) => (data: X) };
}

fn main() {}
