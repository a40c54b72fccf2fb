use relay_core::relay_op;

relay_op! {
    my.scale : fn<a, b>(data: a) -> b,
        attrs { factor: float = 1.0 },
        onnx "com.example" Scale since 1 { inputs(X) => (data: X), attrs { factor: alpha = 1 } };
}

fn main() {}
