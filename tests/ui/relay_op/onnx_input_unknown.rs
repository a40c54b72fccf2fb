use relay_core::relay_op;

relay_op! {
    my.scale : fn<a, b>(data: a) -> b,
        attrs { axes: Option<[int]> = None },
        onnx "com.example" Scale since 1 { inputs(X, A?) => (data: X), attrs { axes: value(Axes) } };
}

fn main() {}
