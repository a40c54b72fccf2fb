use relay_core::relay_op;

relay_op! {
    cast : fn<s: Shape>(Tensor[s, flaot32]) -> Tensor[s, float32];
}

fn main() {}
