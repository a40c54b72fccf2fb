use relay_core::relay_data;

relay_data! {
    data Pair<a, b> {
        MkPair : (a, b) -> Pair[b, a],
    }
}

fn main() {}
