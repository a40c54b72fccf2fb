//! A data type named like an item of Rust's prelude does not shadow it: its struct is
//! `ResultData`, and `Result` stays Rust's in the module.

use relay_core::relay_data;

relay_data! {
    data Result<a, e> {
        Ok : (a) -> Result,
        Err : (e) -> Result,
    }
    data Box<a> { MkBox : (a) -> Box }
}

fn parse(s: &str) -> Result<i32, String> {
    s.parse::<i32>().map_err(|e| e.to_string())
}

fn main() {
    assert_eq!(parse("7"), Ok(7));
    let boxed: Box<i32> = Box::new(1);
    assert_eq!(*boxed, 1);
    assert_eq!(ResultData::DEF.name, "Result");
    assert_eq!(ResultData::ok("x").name(), "Ok");
    assert_eq!(BoxData::mk_box("y").args, ["y"]);
}
