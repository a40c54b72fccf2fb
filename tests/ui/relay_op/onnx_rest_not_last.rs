use relay_core::relay_op;

relay_op! {
    my.concat : fn<a, b, c>(data: a, axis: b) -> c,
        onnx "com.example" Concat since 1 { inputs(..Xs, A) => (data: Xs, axis: A) };
}

fn main() {}
