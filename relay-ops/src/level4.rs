//! TVM's level-4 operators (comparisons, reductions, slicing), and those of levels 6 and 10.
