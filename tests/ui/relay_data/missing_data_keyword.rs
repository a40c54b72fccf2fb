use relay_core::relay_data;

relay_data! {
    List<a> {
        Nil : () -> List,
    }
}

fn main() {}
