//! TVM's level-2 operators.
