//! TVM's compiler-internal operators, which appear in the modules it prints between its
//! passes: annotations (`annotation.*`, `on_device`), copies between devices
//! (`device_copy`), calls of lowered functions (`call_lowered`, `vm.invoke_tvm_op`), the
//! memory operators of its VM (`memory.*`, `vm.reshape_tensor`, `vm.shape_of`) and
//! `debug`.
//!
//! Most of them are the identity on types (TVM's `IdentityRel`, over any type, not only
//! tensors). Their attributes that hold objects of TVM's metadata section
//! (`virtual_device=meta[VirtualDevice][0]`) are strings here: the parser keeps such a
//! reference as its text. The memory operators allocate in the data type `Storage`
//! (TVM's `extern type Storage` of `core.rly`), declared here without constructors.

mod rels;

pub use rels::*;

use crate::level4::rels::ShapeOf;
use crate::relations::Identity;
use relay_core::{relay_data, relay_op};

relay_data! {
    /// Memory that tensors are allocated in (`memory.alloc_storage`), opaque: TVM's
    /// `extern type Storage`.
    data Storage {}
}

relay_op! {
    /// Marks the start of bitpacking; the type of its argument.
    ///
    /// ```text
    /// %y = annotation.bitpack_start(%x)  // (1, 8, 8) i8 -> (1, 8, 8) i8
    /// ```
    annotation.bitpack_start,

    /// Marks the end of bitpacking; the type of its argument.
    ///
    /// ```text
    /// %y = annotation.bitpack_end(%x)  // (1, 8, 8) i8 -> (1, 8, 8) i8
    /// ```
    annotation.bitpack_end : fn<t1, t2>(data: t1) -> t2 where Identity,
        level 10;

    /// Marks its argument as to be cast to `dtype` (required); the type of its argument.
    ///
    /// ```text
    /// %y = annotation.cast_hint(%x, dtype="int8")  // (n, 4) f32 -> (n, 4) f32
    /// ```
    annotation.cast_hint : fn<t1, t2>(data: t1) -> t2 where Identity,
        attrs { dtype: dtype },
        level 10;

    /// Marks a checkpoint for recomputation in gradients; the type of its argument (any
    /// type).
    ///
    /// ```text
    /// %y = annotation.checkpoint(%x)  // ((2) f32, (3) f32) -> ((2) f32, (3) f32)
    /// ```
    annotation.checkpoint : fn<t1, t2>(data: t1) -> t2 where Identity,
        level 10;

    /// Opens a region handled by the external compiler `compiler` (required); the type of
    /// its argument.
    ///
    /// ```text
    /// %y = annotation.compiler_begin(%x, compiler="cmsisnn")  // (1, 16) i8 -> (1, 16) i8
    /// ```
    annotation.compiler_begin,

    /// Closes a region handled by the external compiler `compiler` (required); the type of
    /// its argument.
    ///
    /// ```text
    /// %y = annotation.compiler_end(%x, compiler="cmsisnn")  // (1, 16) i8 -> (1, 16) i8
    /// ```
    annotation.compiler_end : fn<t1, t2>(data: t1) -> t2 where Identity,
        attrs { compiler: str },
        level 10;

    /// Keeps its argument from being fused with what follows; the type of its argument.
    ///
    /// ```text
    /// %y = annotation.stop_fusion(%x)  // (n, 3) f32 -> (n, 3) f32
    /// ```
    annotation.stop_fusion : fn<t1, t2>(data: t1) -> t2 where Identity,
        level 10;

    /// Tags a function with the id `fid` for partial evaluation; the type of its argument.
    /// TVM registers it without a type relation (its type checker cannot type it); here
    /// it is the identity.
    ///
    /// ```text
    /// %y = annotation.with_funcid(%x, fid=3)  // (2) f32 -> (2) f32
    /// ```
    annotation.with_funcid : fn<t1, t2>(func: t1) -> t2 where Identity,
        attrs { fid: int = -1 },
        level 10;

    /// Places its argument on the device `virtual_device` (a reference into the metadata
    /// section, as its text; `None`: unconstrained), constraining its body and, with
    /// `constrain_result`, its result; the type of its argument (any type).
    ///
    /// ```text
    /// %y = on_device(%x, virtual_device=meta[VirtualDevice][0], constrain_result=True)  // (5, 7) f32 -> (5, 7) f32
    /// ```
    on_device : fn<t1, t2>(body: t1) -> t2 where Identity,
        attrs {
            virtual_device: Option<str> = None,
            constrain_result: bool = false,
            constrain_body: bool = true,
        },
        level 10;

    /// Copies its argument from the device `src_virtual_device` to `dst_virtual_device`
    /// (references into the metadata section, as their text); the type of its argument.
    ///
    /// ```text
    /// %y = device_copy(%x, src_virtual_device=meta[VirtualDevice][0], dst_virtual_device=meta[VirtualDevice][1])  // (5, 7) f32 -> (5, 7) f32
    /// ```
    device_copy : fn<t1, t2>(data: t1) -> t2 where Identity,
        attrs { src_virtual_device: Option<str> = None, dst_virtual_device: Option<str> = None },
        level 10;

    /// Runs `debug_func` (an environment function of the metadata section, as its text)
    /// on its argument; the type of its argument (any type).
    ///
    /// ```text
    /// %y = debug(%x)  // ((2) f32, (2) i8) -> ((2) f32, (2) i8)
    /// ```
    debug : fn<t1, t2>(program: t1) -> t2 where Identity,
        attrs { debug_func: Option<str> = None },
        level 1;

    /// Calls the lowered function `func` (a global, as TVM makes them) on the tuple
    /// `call_args`, which must be the tuple of its parameters' types; the result is its
    /// result. The function may not be polymorphic (a lowered function is not; TVM would
    /// use its type parameters without instantiating them). TVM's `metadata` attribute
    /// (a map) is not written in the text format: it takes no attributes here.
    ///
    /// ```text
    /// %y = call_lowered(fn (%p: Tensor[(5, 7), float32]) { %p }, (%x,))  // (5, 7) f32, (5, 7) f32 -> (5, 7) f32
    /// ```
    call_lowered : fn<t1, t2, t3>(func: t1, call_args: t2) -> t3 where CallLowered,
        level 10;

    /// Invokes the compiled (lowered) function `op` on the tuple of tensors `ins`, writing
    /// the tuple `outs` (a tensor result is a tuple of one); the result is `()`. TVM's
    /// attributes here are a free dictionary, which cannot be declared: it takes none.
    ///
    /// ```text
    /// %y = vm.invoke_tvm_op(fn (%p: Tensor[(2), float32]) { %p }, (%x,), (%o,))  // (2) f32, (2) f32, (2) f32 -> ()
    /// ```
    vm.invoke_tvm_op : fn<t1, t2, t3, t4>(op: t1, ins: t2, outs: t3) -> t4 where InvokeTVMOp,
        level 10;

    /// Reshapes the data to `newshape` (required; it must hold as many elements as the
    /// data when both are static) with the VM's instruction; `shape` is the new shape as a
    /// tensor.
    ///
    /// ```text
    /// %y = vm.reshape_tensor(%x, %s, newshape=[6, 2])  // (3, 4) f32, (2) i64 -> (6, 2) f32
    /// ```
    vm.reshape_tensor : fn<t1, t2, t3>(data: t1, shape: t2) -> t3 where ReshapeTensor,
        attrs { newshape: [int] },
        level 10;

    /// The shape of the data as a 1-D tensor of `dtype` (`None`: `int32`), as `shape_of`
    /// (TVM's VM passes `int64`).
    ///
    /// ```text
    /// %y = vm.shape_of(%x, dtype="int64")  // (n, 3) f32 -> (2) i64
    /// ```
    vm.shape_of : fn<t1, t2>(tensor: t1) -> t2 where ShapeOf,
        attrs { dtype: Option<dtype> = None },
        level 10;

    /// Allocates a `Storage` of `size` bytes (an `int64` scalar) aligned to `alignment`
    /// (an `int64` scalar) for tensors of `shape` (a tensor) and `dtype` on the device
    /// `virtual_device` (a reference into the metadata section, as its text).
    ///
    /// ```text
    /// %y = memory.alloc_storage(64i64, %s, 64i64)  // (2) i64 -> Storage
    /// ```
    memory.alloc_storage : fn<t1, t2, t3, t4>(size: t1, shape: t2, alignment: t3) -> t4
        where AllocStorage,
        attrs { dtype: dtype = float32, virtual_device: Option<str> = None },
        level 10;

    /// Allocates a tensor of `dtype` in `storage` at `offset`; `shape` is its shape as a
    /// 1-D tensor of static length. Its dimensions are `assert_shape`, or, with
    /// `const_shape` (a constant of the metadata section, as its text, whose values are
    /// not read), `?`. TVM asks for one of them and, with `assert_shape` alone, never
    /// types the result: it is typed here.
    ///
    /// ```text
    /// %y = memory.alloc_tensor(%st, 0i64, %s, assert_shape=[4, 4])  // Storage, (2) i64 -> (4, 4) f32
    /// ```
    memory.alloc_tensor : fn<t1, t2, t3, t4>(storage: t1, offset: t2, shape: t3) -> t4
        where AllocTensor,
        attrs {
            dtype: dtype = float32,
            const_shape: Option<str> = None,
            assert_shape: Option<[int]> = None,
        },
        level 10;

    /// Marks its argument as free to release; the result is `()`.
    ///
    /// ```text
    /// %y = memory.kill(%x)  // (4, 4) f32 -> ()
    /// ```
    memory.kill : fn<t1, t2>(to_free: t1) -> t2 where Kill,
        level 10;
}
