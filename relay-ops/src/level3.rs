//! TVM's level-3 operators.
