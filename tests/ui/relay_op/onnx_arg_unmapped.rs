use relay_core::relay_op;

relay_op! {
    my.scale : fn<a, b, c>(data: a, bias: b) -> c,
        onnx "com.example" Scale since 1 { inputs(X) => (data: X) };
}

fn main() {}
