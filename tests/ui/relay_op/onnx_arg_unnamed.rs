use relay_core::relay_op;

// An argument without a name cannot be mapped.
relay_op! {
    my.shift : fn<a, b, c>(data: a, b) -> c,
        onnx "com.example" Shift since 1 { inputs(X, B) => (data: X) };
}

fn main() {}
