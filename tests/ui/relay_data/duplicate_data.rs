use relay_core::relay_data;

relay_data! {
    data Box<a> { MkBox : (a) -> Box }
    data Box<a> { MkBox2 : (a) -> Box }
}

fn main() {}
