relay_core::relay_prelude!("no_such_prelude.relay");

fn main() {}
