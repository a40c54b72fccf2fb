use relay_core::relay_op;

// An input's value gives an integer or a list of them: not a float attribute.
relay_op! {
    my.scale : fn<a, b>(data: a) -> b,
        attrs { factor: float = 1.0 },
        onnx "com.example" Scale since 1 { inputs(X, F) => (data: X), attrs { factor: value(F) } };
}

fn main() {}
