#!/usr/bin/python3
"""A ctypes client of libctensor that knows only include/ctensor.h.

    /usr/bin/python3 tests/clients/python/ctypes_client.py [path/to/libctensor.so]

The library comes from the argument, else from $CTENSOR_LIB.  Builds tensors, takes views
and copies, checks sizes, strides, offsets, sharing, bases, versions, the error of an
impossible view, zero-copy wrapping of Python-owned memory with a deleter, and that nothing
leaked (ct_live_tensors / ct_live_storages).  Prints each check; exits 1 if one failed.
Standard library only.
"""
import ctypes as C
import os
import re
import sys

# ---- the header, as ctypes declarations ----------------------------------------------------
T = C.c_void_p                    # ct_tensor *, ct_storage * (opaque handles)
I64, I64P, INT, DBL = C.c_int64, C.POINTER(C.c_int64), C.c_int, C.c_double
DELETER = C.CFUNCTYPE(None, C.c_void_p, C.c_void_p)   # void (*)(void *data, void *ctx)

SIGNATURES = {
    "ct_last_status": (INT, []), "ct_last_error": (C.c_char_p, []), "ct_clear_error": (None, []),
    "ct_status_name": (C.c_char_p, [INT]), "ct_version": (C.c_char_p, []),
    "ct_dtype_name": (C.c_char_p, [INT]), "ct_dtype_itemsize": (I64, [INT]),
    "ct_live_tensors": (I64, []), "ct_live_storages": (I64, []),
    "ct_tensor_retain": (T, [T]), "ct_tensor_release": (None, [T]),
    "ct_storage_release": (None, [T]),
    "ct_zeros": (T, [INT, I64P, INT]), "ct_full": (T, [INT, I64P, DBL, INT]),
    "ct_arange": (T, [DBL, DBL, DBL, INT]), "ct_from_data": (T, [C.c_void_p, INT, I64P, INT]),
    "ct_from_blob": (T, [C.c_void_p, INT, I64P, I64P, INT, DELETER, C.c_void_p]),
    "ct_view": (T, [T, INT, I64P]), "ct_transpose": (T, [T, INT, INT]),
    "ct_slice": (T, [T, INT, I64, I64, I64]), "ct_select": (T, [T, INT, I64]),
    "ct_expand": (T, [T, INT, I64P]), "ct_alias": (T, [T]),
    "ct_reshape": (T, [T, INT, I64P]), "ct_contiguous": (T, [T]),
    "ct_reshape_is_view": (INT, [T, INT, I64P]),
    "ct_clone": (T, [T]), "ct_index_select": (T, [T, INT, T]), "ct_copy_": (INT, [T, T]),
    "ct_tensor_ndim": (INT, [T]), "ct_tensor_sizes": (I64P, [T]), "ct_tensor_strides": (I64P, [T]),
    "ct_tensor_offset": (I64, [T]), "ct_tensor_numel": (I64, [T]), "ct_tensor_dtype": (INT, [T]),
    "ct_tensor_is_contiguous": (INT, [T]), "ct_tensor_data": (C.c_void_p, [T]),
    "ct_tensor_is_view": (INT, [T]), "ct_tensor_base": (T, [T]),
    "ct_tensor_version": (I64, [T]), "ct_tensor_refcount": (I64, [T]),
    "ct_tensor_storage": (T, [T]), "ct_tensor_storage_id": (C.c_uint64, [T]),
    "ct_tensor_to_string": (I64, [T, C.c_char_p, I64]),
    "ct_storage_id": (C.c_uint64, [T]), "ct_storage_nbytes": (I64, [T]),
    "ct_storage_refcount": (I64, [T]),
    "ct_shares_storage": (INT, [T, T]), "ct_overlaps": (INT, [T, T]),
    "ct_has_internal_overlap": (INT, [T]),
}
CT_BOOL, CT_INT64, CT_FLOAT32, CT_FLOAT64 = 0, 5, 8, 9
CT_ERR_INVALID_ARGUMENT, CT_ERR_SHAPE, CT_ERR_INDEX, CT_ERR_NOT_VIEWABLE = 1, 2, 4, 5
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64"]
ITEMSIZES = [1, 1, 1, 2, 4, 8, 2, 2, 4, 8]

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("  ok   " + what)
    else:
        failed += 1
        print("  FAIL " + what)


def load(path):
    lib = C.CDLL(path)
    for name, (res, args) in SIGNATURES.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


def arr(*v):
    return (C.c_int64 * len(v))(*v)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CTENSOR_LIB")
    if not path:
        sys.exit("usage: ctypes_client.py path/to/libctensor.so   (or set CTENSOR_LIB)")
    lib = load(path)
    print("ctypes client: %s (version %s)" % (path, lib.ct_version().decode()))

    def sizes(t):
        n = lib.ct_tensor_ndim(t)
        p = lib.ct_tensor_sizes(t)
        return tuple(p[i] for i in range(n))

    def strides(t):
        n = lib.ct_tensor_ndim(t)
        p = lib.ct_tensor_strides(t)
        return tuple(p[i] for i in range(n))

    def f32(t, *index):
        """Element at a 0-based index, read through data + sum(index * stride)."""
        off = sum(i * s for i, s in zip(index, strides(t)))
        return C.cast(lib.ct_tensor_data(t), C.POINTER(C.c_float))[off]

    def set_f32(t, value, *index):
        off = sum(i * s for i, s in zip(index, strides(t)))
        C.cast(lib.ct_tensor_data(t), C.POINTER(C.c_float))[off] = value

    def err():
        return lib.ct_last_status(), lib.ct_last_error().decode()

    live_t0, live_s0 = lib.ct_live_tensors(), lib.ct_live_storages()
    check(re.fullmatch(r"\d+\.\d+\.\d+", lib.ct_version().decode()) is not None,
          "ct_version is MAJOR.MINOR.PATCH")
    check([lib.ct_dtype_name(d).decode() for d in range(10)] == DTYPES, "dtype names are PyTorch's")
    check([lib.ct_dtype_itemsize(d) for d in range(10)] == ITEMSIZES, "dtype item sizes")
    check(lib.ct_dtype_name(42) is None and lib.ct_last_status() == 3,
          "an invalid dtype gives NULL and CT_ERR_DTYPE")

    # x = arange(12).view(3, 4): a view of the 1-D root
    root = lib.ct_arange(0, 12, 1, CT_FLOAT32)
    x = lib.ct_view(root, 2, arr(3, 4))
    check(sizes(x) == (3, 4) and strides(x) == (4, 1) and lib.ct_tensor_offset(x) == 0,
          "x = arange(12).view(3, 4): sizes (3, 4), strides (4, 1), offset 0")
    check(lib.ct_tensor_is_contiguous(x) == 1 and lib.ct_tensor_is_view(x) == 1, "x is a contiguous view")
    b = lib.ct_tensor_base(x)
    check(b == root, "base of x is the root tensor (the same handle)")
    lib.ct_tensor_release(b)
    check(all(f32(x, i, j) == 4 * i + j for i in range(3) for j in range(4)),
          "x[i][j] == 4i + j through data + i*stride0 + j*stride1")

    # slicing, then writing through the view
    s = lib.ct_slice(x, 1, 1, 3, 1)
    check(sizes(s) == (3, 2) and strides(s) == (4, 1) and lib.ct_tensor_offset(s) == 1,
          "s = x[:, 1:3]: sizes (3, 2), strides (4, 1), offset 1")
    check(lib.ct_shares_storage(s, x) == 1 and lib.ct_tensor_storage_id(s) == lib.ct_tensor_storage_id(x),
          "s shares x's storage (same storage id)")
    b = lib.ct_tensor_base(s)
    check(b == root, "base of s is the root, never the intermediate view x")
    lib.ct_tensor_release(b)
    set_f32(s, 100.0, 0, 0)
    check(f32(x, 0, 1) == 100.0, "writing s[0][0] changes x[0][1]")

    # transpose shares memory
    t = lib.ct_transpose(x, 0, 1)
    check(sizes(t) == (4, 3) and strides(t) == (1, 4), "t = x.t(): sizes (4, 3), strides (1, 4)")
    check(lib.ct_tensor_data(t) == lib.ct_tensor_data(x) and lib.ct_shares_storage(t, x) == 1,
          "t has x's data pointer and storage")
    check(lib.ct_tensor_is_contiguous(t) == 0 and lib.ct_overlaps(t, x) == 1,
          "t is not contiguous and overlaps x exactly")

    # the impossible view, and reshape copying instead
    lib.ct_clear_error()
    v = lib.ct_view(t, 1, arr(12))
    status, msg = err()
    check(v is None and status == CT_ERR_NOT_VIEWABLE, "t.view(12) fails with CT_ERR_NOT_VIEWABLE")
    check("view size is not compatible with input tensor's size and stride" in msg,
          "with PyTorch's message: " + msg[:90])
    check(lib.ct_status_name(status).decode() == "CT_ERR_NOT_VIEWABLE", "ct_status_name names it")
    check(lib.ct_reshape_is_view(t, 1, arr(12)) == 0, "ct_reshape_is_view(t, 12) == 0")
    r = lib.ct_reshape(t, 1, arr(12))
    check(r is not None and lib.ct_shares_storage(r, t) == 0 and lib.ct_tensor_is_contiguous(r) == 1,
          "t.reshape(12) is a contiguous copy")
    check([f32(r, k) for k in range(12)] == [f32(x, k % 3, k // 3) for k in range(12)],
          "its values are t's, in row-major order")

    # reshape of a contiguous tensor is a view: same data pointer
    y = lib.ct_reshape(x, 2, arr(2, 6))
    check(lib.ct_tensor_data(y) == lib.ct_tensor_data(x) and lib.ct_tensor_is_view(y) == 1,
          "x.reshape(2, 6) keeps x's data pointer (a view)")
    c2 = lib.ct_contiguous(x)
    check(c2 == x, "x.contiguous() is x itself")

    # index_select copies
    idx = lib.ct_from_data(arr(2, 0), 1, arr(2), CT_INT64)
    g = lib.ct_index_select(x, 0, idx)
    check(sizes(g) == (2, 4) and lib.ct_shares_storage(g, x) == 0 and lib.ct_overlaps(g, x) == 0,
          "x.index_select(0, [2, 0]) is a (2, 4) copy on a new storage")
    check([f32(g, 0, j) for j in range(4)] == [f32(x, 2, j) for j in range(4)], "row 0 of it is x[2]")
    bad = lib.ct_from_data(arr(3), 1, arr(1), CT_INT64)
    check(lib.ct_index_select(x, 0, bad) is None and lib.ct_last_status() == CT_ERR_INDEX,
          "an out-of-range index gives CT_ERR_INDEX")

    # clone vs alias (detach)
    cl = lib.ct_clone(x)
    al = lib.ct_alias(x)
    check(lib.ct_shares_storage(cl, x) == 0 and lib.ct_tensor_is_view(cl) == 0 and
          lib.ct_tensor_base(cl) is None, "clone: new storage, not a view, no base")
    check(lib.ct_shares_storage(al, x) == 1 and lib.ct_tensor_is_view(al) == 0 and
          lib.ct_tensor_base(al) is None, "alias: same storage, but not a view and no base")
    v0 = lib.ct_tensor_version(x)
    seven = lib.ct_full(2, arr(3, 4), 7.0, CT_FLOAT32)
    check(lib.ct_copy_(al, seven) == 0, "ct_copy_(alias, full(7)) succeeds")
    check(lib.ct_tensor_version(x) > v0 and lib.ct_tensor_version(x) == lib.ct_tensor_version(al),
          "the write bumped the version that x and its alias share")
    check(f32(x, 2, 3) == 7.0 and f32(cl, 2, 3) == 11.0, "x sees the write, the clone does not")

    # expand: internal overlap, and writes into it refused
    row = lib.ct_view(x, 2, arr(1, 12))
    e = lib.ct_expand(row, 2, arr(3, 12))
    check(strides(e) == (0, 1) and lib.ct_has_internal_overlap(e) == 1, "expand gives stride 0 and internal overlap")
    check(lib.ct_copy_(e, row) != 0 and lib.ct_last_status() == 6,
          "ct_copy_ into an expanded tensor is refused with CT_ERR_OVERLAP")

    # the repr is PyTorch's
    n = lib.ct_tensor_to_string(seven, None, 0)
    buf = C.create_string_buffer(n + 1)
    lib.ct_tensor_to_string(seven, buf, n + 1)
    check(buf.value.decode().startswith("tensor([[7., 7., 7., 7.],") and len(buf.value) == n,
          "ct_tensor_to_string: " + buf.value.decode().split("\n")[0])

    # bad arguments are errors, not crashes
    check(lib.ct_select(x, 0, 3) is None and lib.ct_last_status() == CT_ERR_INDEX,
          "x.select(0, 3) gives CT_ERR_INDEX")
    check(lib.ct_tensor_ndim(None) == -1 and lib.ct_transpose(None, 0, 1) is None and
          lib.ct_last_status() == CT_ERR_INVALID_ARGUMENT, "NULL handles give -1 / NULL and CT_ERR_INVALID_ARGUMENT")
    check(lib.ct_view(x, 1, arr(5)) is None and lib.ct_last_status() == CT_ERR_SHAPE,
          "x.view(5) gives CT_ERR_SHAPE")

    # zero-copy from memory this program owns, with a deleter
    calls = []
    buf64 = (C.c_double * 6)(*range(6))

    def on_delete(data, ctx):
        calls.append((data, ctx))

    deleter = DELETER(on_delete)
    w = lib.ct_from_blob(C.cast(buf64, C.c_void_p), 2, arr(2, 3), None, CT_FLOAT64, deleter, C.c_void_p(1234))
    check(w is not None and lib.ct_tensor_data(w) == C.addressof(buf64), "ct_from_blob wraps our buffer without copying")
    wt = lib.ct_transpose(w, 0, 1)
    C.cast(lib.ct_tensor_data(wt), C.POINTER(C.c_double))[strides(wt)[1]] = 42.0   # wt[0][1]
    check(buf64[3] == 42.0, "a write through its transpose lands in our buffer")
    lib.ct_tensor_release(w)
    check(calls == [], "the deleter has not run while a view holds the storage")
    lib.ct_tensor_release(wt)
    check(calls == [(C.addressof(buf64), 1234)], "the deleter ran exactly once, with data and ctx")

    for h in (bad, e, row, seven, al, cl, g, idx, c2, y, r, t, s, x, root):
        lib.ct_tensor_release(h)
    check(lib.ct_live_tensors() == live_t0 and lib.ct_live_storages() == live_s0,
          "no leak: ct_live_tensors %d -> %d, ct_live_storages %d -> %d"
          % (live_t0, lib.ct_live_tensors(), live_s0, lib.ct_live_storages()))

    print("ctypes: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
