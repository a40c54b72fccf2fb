const PATH: &str = "my_prelude.relay";

relay_core::relay_prelude!(PATH);

fn main() {}
