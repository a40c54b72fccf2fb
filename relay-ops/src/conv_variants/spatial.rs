//! Correlation and dilation: spatial operators without a weight.

use relay_core::relation;

/// `nn.correlation`'s relation: two `NCHW` tensors of one shape `(N, C, H, W)` give
/// `(N, D * D, H', W')` with `D = 2 * floordiv(max_displacement, stride2) + 1` and
/// `H' = ceil((H + pad_h - 2 * border) / stride1)`, `border = max_displacement +
/// (kernel_size - 1) / 2` (W alike). TVM takes `H` from the first tensor and `W` from the
/// second without comparing them; here they must have one shape.
#[relation(
    Correlation(X @ Tensor(s, bt), Y @ Tensor(s2, _), O) :-
        assert(attrs.layout == "NCHW", "`layout` of `nn.correlation` must be \"NCHW\""),
        assert(len(s) == 4, "the first data of `nn.correlation` must be 4-D (NCHW), found `{}`", X),
        assert(s2 = s, "the two data of `nn.correlation` must have one shape, found `{}` and `{}`", X, Y),
        assert(attrs.kernel_size >= 1 && attrs.kernel_size % 2 == 1, "`kernel_size` must be a positive odd number, found {}", attrs.kernel_size),
        assert(attrs.max_displacement >= 0, "`max_displacement` must not be negative, found {}", attrs.max_displacement),
        assert(attrs.stride1 >= 1, "`stride1` must be at least 1, found {}", attrs.stride1),
        assert(attrs.stride2 >= 1, "`stride2` must be at least 1, found {}", attrs.stride2),
        for p in attrs.padding {
            assert(p >= 0, "`padding` must not be negative, found {}", p),
        },
        if len(attrs.padding) == 1 {
            ph = 2 * attrs.padding[0],
            pw = 2 * attrs.padding[0],
        } else if len(attrs.padding) == 2 {
            ph = 2 * attrs.padding[0],
            pw = 2 * attrs.padding[1],
        } else {
            assert(len(attrs.padding) == 4, "`padding` must have 1, 2 or 4 values, it has {}", len(attrs.padding)),
            ph = attrs.padding[0] + attrs.padding[2],
            pw = attrs.padding[1] + attrs.padding[3],
        },
        border = attrs.max_displacement + (attrs.kernel_size - 1) / 2,
        d = 2 * (attrs.max_displacement / attrs.stride2) + 1,
        oh = (s[2] + ph - 2 * border + attrs.stride1 - 1) / attrs.stride1,
        ow = (s[3] + pw - 2 * border + attrs.stride1 - 1) / attrs.stride1,
        assert(!is_int(oh) || oh >= 1, "the output of `nn.correlation` would be empty along H: its size is {}", oh),
        assert(!is_int(ow) || ow >= 1, "the output of `nn.correlation` would be empty along W: its size is {}", ow),
        O = Tensor([s[0], d * d, oh, ow], bt),
        attrs(
            kernel_size: int = 1,
            max_displacement: int = 1,
            stride1: int = 1,
            stride2: int = 1,
            padding: [int] = [0, 0],
            layout: str = "NCHW"
        )
)]
pub struct Correlation;

/// `nn.dilate`'s relation: each dimension `d` becomes `(d - 1) * strides[i] + 1` (`?`
/// stays `?`); `strides` has one value per axis, each at least 1.
#[relation(
    Dilate(X @ Tensor(s, bt), O) :-
        assert(len(attrs.strides) == len(s), "`strides` of `nn.dilate` must have one value per axis of `{}`, it has {}", X, len(attrs.strides)),
        for st in attrs.strides {
            assert(st >= 1, "`strides` must be at least 1, found {}", st),
        },
        O = Tensor([(s[i] - 1) * attrs.strides[i] + 1 for i in 0..len(s)], bt),
        attrs(strides: [int] = [1, 1])
)]
pub struct Dilate;
