use relay_core::relay_data;

relay_data! {
    data Scalar {
        MkScalar : (Tensor[(), flaot32]) -> Scalar,
    }
}

fn main() {}
