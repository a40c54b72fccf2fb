use relay_core::relay_op;

// One ONNX operator and opset mapped by two operators of one block.
relay_op! {
    my.scale : fn<a, b>(data: a) -> b,
        onnx "com.example" Scale since 1 { inputs(X) => (data: X) };
    my.scale_too : fn<a, b>(data: a) -> b,
        onnx "com.example" Scale since 1 { inputs(X) => (data: X) };
}

fn main() {}
