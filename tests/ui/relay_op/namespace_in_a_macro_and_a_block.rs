use relay_core::relay_op;

// A block that a macro generates is not in the source file as written: it cannot find the
// other blocks of its module, and defines its namespace as if it were alone.
macro_rules! more_ops {
    () => {
        relay_op! {
            my.second : fn<a>(a) -> a;
        }
    };
}

relay_op! {
    my.first : fn<a>(a) -> a;
}

more_ops!();

fn main() {}
