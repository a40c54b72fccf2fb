use relay_core::relay_data;

relay_data! {
    data Pair<a, a> {
        MkPair : (a, a) -> Pair,
    }
}

fn main() {}
