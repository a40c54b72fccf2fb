use relay_core::relay_data;

relay_data! {
    data List<a> {
        Nil : () -> List,
        Cons : (a, List[a, a]) -> List,
    }
}

fn main() {}
