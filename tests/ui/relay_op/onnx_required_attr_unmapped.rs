use relay_core::relay_op;

relay_op! {
    my.top : fn<a, b>(data: a) -> b,
        attrs { k: int, largest: bool = true },
        onnx "com.example" Top since 1 { inputs(X) => (data: X), attrs { largest: largest } };
}

fn main() {}
