//! TVM's level-1 operators: element-wise arithmetic and math, concatenation, dense
//! layers, softmax and normalizations.

use crate::relations::Broadcast;
use relay_core::relay_op;

relay_op! {
    /// Element-wise addition with NumPy broadcasting.
    add : fn<t1 : Type, t2 : Type, t3 : Type>(lhs: t1, rhs: t2) -> t3 where Broadcast,
        level 1;
}
