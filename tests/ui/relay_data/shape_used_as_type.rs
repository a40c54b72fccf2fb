use relay_core::relay_data;

relay_data! {
    data Wrap<a> {
        MkWrap : (Tensor[a, float32]) -> Wrap,
    }
}

fn main() {}
