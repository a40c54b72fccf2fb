//! Level-1 operators: exact result types and errors.

mod common;
use common::infer;

#[test]
fn add_broadcasts() {
    assert_eq!(
        infer(
            "add",
            &["Tensor[(n, 1), float32]", "Tensor[(3), float32]"],
            &[]
        ),
        Ok("Tensor[(n, 3), float32]".to_string())
    );
}
