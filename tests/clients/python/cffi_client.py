#!/usr/bin/env python3
"""A cffi (ABI mode) client of libctensor that knows only include/ctensor.h.

    $CT_PYTHON tests/clients/python/cffi_client.py [path/to/libctensor.so]

The library comes from the argument, else from $CTENSOR_LIB; it is loaded with ffi.dlopen,
so nothing is compiled.  The checks are the ctypes client's (views share storage, copies do
not, bases, the error of an impossible view, zero-copy wrapping with a deleter, no leak)
plus reference counts and the version counter bumped by an in-place write through a view.
Prints each check; exits 1 if one failed.  Needs the cffi package (requirements.txt).
"""
import os
import re
import sys

try:
    from cffi import FFI
except ImportError as e:  # name the interpreter and the fix, not a bare traceback
    sys.exit("cffi_client.py: %s (interpreter %s): install cffi (requirements.txt, build/venv) "
             "or set CT_PYTHON to an interpreter that has it" % (e, sys.executable))

# ---- the header: only what this client calls, declared exactly as include/ctensor.h ------
ffi = FFI()
ffi.cdef("""
typedef struct ct_tensor ct_tensor;
typedef struct ct_storage ct_storage;
typedef enum ct_dtype {
  CT_BOOL = 0, CT_UINT8 = 1, CT_INT8 = 2, CT_INT16 = 3, CT_INT32 = 4, CT_INT64 = 5,
  CT_FLOAT16 = 6, CT_BFLOAT16 = 7, CT_FLOAT32 = 8, CT_FLOAT64 = 9
} ct_dtype;
typedef enum ct_status {
  CT_OK = 0, CT_ERR_INVALID_ARGUMENT = 1, CT_ERR_SHAPE = 2, CT_ERR_DTYPE = 3, CT_ERR_INDEX = 4,
  CT_ERR_NOT_VIEWABLE = 5, CT_ERR_OVERLAP = 6, CT_ERR_OUT_OF_MEMORY = 7, CT_ERR_READ_ONLY = 8,
  CT_ERR_INTERNAL = 9
} ct_status;

ct_status ct_last_status(void);
const char *ct_last_error(void);
void ct_clear_error(void);
const char *ct_status_name(ct_status s);
const char *ct_version(void);
const char *ct_dtype_name(ct_dtype d);
int64_t ct_dtype_itemsize(ct_dtype d);
int64_t ct_live_tensors(void);
int64_t ct_live_storages(void);
ct_tensor *ct_tensor_retain(ct_tensor *t);
void ct_tensor_release(ct_tensor *t);
void ct_storage_release(ct_storage *s);
ct_tensor *ct_full(int ndim, const int64_t *sizes, double value, ct_dtype dtype);
ct_tensor *ct_arange(double start, double end, double step, ct_dtype dtype);
ct_tensor *ct_from_data(const void *data, int ndim, const int64_t *sizes, ct_dtype dtype);
ct_tensor *ct_from_blob(void *data, int ndim, const int64_t *sizes, const int64_t *strides,
                        ct_dtype dtype, void (*deleter)(void *data, void *ctx), void *ctx);
ct_tensor *ct_view(const ct_tensor *t, int ndim, const int64_t *shape);
ct_tensor *ct_transpose(const ct_tensor *t, int dim0, int dim1);
ct_tensor *ct_slice(const ct_tensor *t, int dim, int64_t start, int64_t stop, int64_t step);
ct_tensor *ct_select(const ct_tensor *t, int dim, int64_t index);
ct_tensor *ct_expand(const ct_tensor *t, int ndim, const int64_t *sizes);
ct_tensor *ct_alias(const ct_tensor *t);
ct_tensor *ct_reshape(const ct_tensor *t, int ndim, const int64_t *shape);
ct_tensor *ct_contiguous(const ct_tensor *t);
int ct_reshape_is_view(const ct_tensor *t, int ndim, const int64_t *shape);
ct_tensor *ct_clone(const ct_tensor *t);
ct_tensor *ct_index_select(const ct_tensor *t, int dim, const ct_tensor *index);
ct_status ct_copy_(ct_tensor *dst, const ct_tensor *src);
ct_status ct_fill_(ct_tensor *self, double value);
int ct_tensor_ndim(const ct_tensor *t);
const int64_t *ct_tensor_sizes(const ct_tensor *t);
const int64_t *ct_tensor_strides(const ct_tensor *t);
int64_t ct_tensor_offset(const ct_tensor *t);
int ct_tensor_is_contiguous(const ct_tensor *t);
void *ct_tensor_data(const ct_tensor *t);
int ct_tensor_is_view(const ct_tensor *t);
ct_tensor *ct_tensor_base(const ct_tensor *t);
int64_t ct_tensor_version(const ct_tensor *t);
int64_t ct_tensor_refcount(const ct_tensor *t);
ct_storage *ct_tensor_storage(const ct_tensor *t);
uint64_t ct_tensor_storage_id(const ct_tensor *t);
int64_t ct_tensor_to_string(const ct_tensor *t, char *buf, int64_t cap);
uint64_t ct_storage_id(const ct_storage *s);
int64_t ct_storage_refcount(const ct_storage *s);
int ct_shares_storage(const ct_tensor *a, const ct_tensor *b);
int ct_overlaps(const ct_tensor *a, const ct_tensor *b);
int ct_has_internal_overlap(const ct_tensor *t);
""")
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


def i64(*v):
    return ffi.new("int64_t[]", list(v))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CTENSOR_LIB")
    if not path:
        sys.exit("usage: cffi_client.py path/to/libctensor.so   (or set CTENSOR_LIB)")
    ct = ffi.dlopen(path)
    s_ = lambda p: ffi.string(p).decode()  # const char * -> str
    print("cffi client: %s (version %s)" % (path, s_(ct.ct_version())))

    def sizes(t):
        p = ct.ct_tensor_sizes(t)
        return tuple(p[i] for i in range(ct.ct_tensor_ndim(t)))

    def strides(t):
        p = ct.ct_tensor_strides(t)
        return tuple(p[i] for i in range(ct.ct_tensor_ndim(t)))

    def f32(t, *index):
        """Element at a 0-based index: data + sum(index * stride) elements."""
        return ffi.cast("float *", ct.ct_tensor_data(t))[sum(i * s for i, s in zip(index, strides(t)))]

    def set_f32(t, value, *index):
        ffi.cast("float *", ct.ct_tensor_data(t))[sum(i * s for i, s in zip(index, strides(t)))] = value

    live_t0, live_s0 = ct.ct_live_tensors(), ct.ct_live_storages()
    check(re.fullmatch(r"\d+\.\d+\.\d+", s_(ct.ct_version())) is not None, "ct_version is MAJOR.MINOR.PATCH")
    check([s_(ct.ct_dtype_name(d)) for d in range(10)] == DTYPES, "dtype names are PyTorch's")
    check([ct.ct_dtype_itemsize(d) for d in range(10)] == ITEMSIZES, "dtype item sizes")
    check(ct.ct_dtype_name(42) == ffi.NULL and ct.ct_last_status() == ct.CT_ERR_DTYPE,
          "an invalid dtype gives NULL and CT_ERR_DTYPE")

    # x = arange(12).view(3, 4): a view of the 1-D root
    root = ct.ct_arange(0, 12, 1, ct.CT_FLOAT32)
    check(ct.ct_tensor_refcount(root) == 1, "a new tensor has refcount 1")
    x = ct.ct_view(root, 2, i64(3, 4))
    check(sizes(x) == (3, 4) and strides(x) == (4, 1) and ct.ct_tensor_offset(x) == 0,
          "x = arange(12).view(3, 4): sizes (3, 4), strides (4, 1), offset 0")
    check(ct.ct_tensor_is_contiguous(x) == 1 and ct.ct_tensor_is_view(x) == 1, "x is a contiguous view")
    check(ct.ct_tensor_refcount(root) == 2, "the view holds its base: root's refcount 1 -> 2")
    b = ct.ct_tensor_base(x)
    check(b == root, "base of x is the root tensor (the same handle)")
    ct.ct_tensor_release(b)
    check(all(f32(x, i, j) == 4 * i + j for i in range(3) for j in range(4)),
          "x[i][j] == 4i + j through data + i*stride0 + j*stride1")

    # slicing, then writing through the view
    s = ct.ct_slice(x, 1, 1, 3, 1)
    check(sizes(s) == (3, 2) and strides(s) == (4, 1) and ct.ct_tensor_offset(s) == 1,
          "s = x[:, 1:3]: sizes (3, 2), strides (4, 1), offset 1")
    check(ct.ct_shares_storage(s, x) == 1 and ct.ct_tensor_storage_id(s) == ct.ct_tensor_storage_id(x),
          "s shares x's storage (same storage id)")
    b = ct.ct_tensor_base(s)
    check(b == root and ct.ct_tensor_refcount(x) == 1,
          "base of s is the root, never the intermediate view x (x's refcount stays 1)")
    ct.ct_tensor_release(b)
    set_f32(s, 100.0, 0, 0)
    check(f32(x, 0, 1) == 100.0, "writing s[0][0] changes x[0][1]")

    # reference counts: handles, views holding their base, storage handles
    check(ct.ct_tensor_retain(x) == x and ct.ct_tensor_refcount(x) == 2, "ct_tensor_retain(x): refcount 2")
    ct.ct_tensor_release(x)
    check(ct.ct_tensor_refcount(x) == 1, "ct_tensor_release(x): refcount back to 1")
    st = ct.ct_tensor_storage(x)
    check(ct.ct_storage_id(st) == ct.ct_tensor_storage_id(x) and ct.ct_storage_refcount(st) == 4,
          "x's storage: refcount 4 (root, x, s and this storage handle)")
    ct.ct_storage_release(st)

    # transpose shares memory
    t = ct.ct_transpose(x, 0, 1)
    check(sizes(t) == (4, 3) and strides(t) == (1, 4), "t = x.t(): sizes (4, 3), strides (1, 4)")
    check(ct.ct_tensor_data(t) == ct.ct_tensor_data(x) and ct.ct_shares_storage(t, x) == 1,
          "t has x's data pointer and storage")
    check(ct.ct_tensor_is_contiguous(t) == 0 and ct.ct_overlaps(t, x) == 1,
          "t is not contiguous and overlaps x exactly")

    # the impossible view, and reshape copying instead
    ct.ct_clear_error()
    v = ct.ct_view(t, 1, i64(12))
    status, msg = ct.ct_last_status(), s_(ct.ct_last_error())
    check(v == ffi.NULL and status == ct.CT_ERR_NOT_VIEWABLE, "t.view(12) fails with CT_ERR_NOT_VIEWABLE")
    check("view size is not compatible with input tensor's size and stride" in msg,
          "with PyTorch's message: " + msg[:90])
    check(s_(ct.ct_status_name(status)) == "CT_ERR_NOT_VIEWABLE", "ct_status_name names it")
    check(ct.ct_reshape_is_view(t, 1, i64(12)) == 0, "ct_reshape_is_view(t, 12) == 0")
    r = ct.ct_reshape(t, 1, i64(12))
    check(r != ffi.NULL and ct.ct_shares_storage(r, t) == 0 and ct.ct_tensor_is_contiguous(r) == 1,
          "t.reshape(12) is a contiguous copy")
    check([f32(r, k) for k in range(12)] == [f32(x, k % 3, k // 3) for k in range(12)],
          "its values are t's, in row-major order")

    # reshape of a contiguous tensor is a view: same data pointer
    y = ct.ct_reshape(x, 2, i64(2, 6))
    check(ct.ct_tensor_data(y) == ct.ct_tensor_data(x) and ct.ct_tensor_is_view(y) == 1,
          "x.reshape(2, 6) keeps x's data pointer (a view)")
    c2 = ct.ct_contiguous(x)
    check(c2 == x, "x.contiguous() is x itself")

    # index_select copies
    idx = ct.ct_from_data(i64(2, 0), 1, i64(2), ct.CT_INT64)
    g = ct.ct_index_select(x, 0, idx)
    check(sizes(g) == (2, 4) and ct.ct_shares_storage(g, x) == 0 and ct.ct_overlaps(g, x) == 0,
          "x.index_select(0, [2, 0]) is a (2, 4) copy on a new storage")
    check([f32(g, 0, j) for j in range(4)] == [f32(x, 2, j) for j in range(4)], "row 0 of it is x[2]")
    bad = ct.ct_from_data(i64(3), 1, i64(1), ct.CT_INT64)
    check(ct.ct_index_select(x, 0, bad) == ffi.NULL and ct.ct_last_status() == ct.CT_ERR_INDEX,
          "an out-of-range index gives CT_ERR_INDEX")

    # clone vs alias (detach)
    cl = ct.ct_clone(x)
    al = ct.ct_alias(x)
    check(ct.ct_shares_storage(cl, x) == 0 and ct.ct_tensor_is_view(cl) == 0 and
          ct.ct_tensor_base(cl) == ffi.NULL, "clone: new storage, not a view, no base")
    check(ct.ct_shares_storage(al, x) == 1 and ct.ct_tensor_is_view(al) == 0 and
          ct.ct_tensor_base(al) == ffi.NULL, "alias: same storage, but not a view and no base")
    v0 = ct.ct_tensor_version(x)
    seven = ct.ct_full(2, i64(3, 4), 7.0, ct.CT_FLOAT32)
    check(ct.ct_copy_(al, seven) == ct.CT_OK, "ct_copy_(alias, full(7)) succeeds")
    check(ct.ct_tensor_version(x) > v0 and ct.ct_tensor_version(x) == ct.ct_tensor_version(al),
          "the write bumped the version that x and its alias share")
    check(f32(x, 2, 3) == 7.0 and f32(cl, 2, 3) == 11.0, "x sees the write, the clone does not")

    # an in-place op through a view bumps the one counter of the family, not the clone's
    v1, vc = ct.ct_tensor_version(root), ct.ct_tensor_version(cl)
    check(ct.ct_fill_(s, 5.0) == ct.CT_OK and f32(x, 2, 2) == 5.0 and f32(cl, 2, 2) == 10.0,
          "s.fill_(5) writes x[:, 1:3], not the clone")
    check(ct.ct_tensor_version(root) == v1 + 1 and ct.ct_tensor_version(x) == v1 + 1 and
          ct.ct_tensor_version(s) == v1 + 1 and ct.ct_tensor_version(cl) == vc,
          "it bumped root's, x's and s's version by 1, the clone's not")

    # expand: internal overlap, and writes into it refused
    row = ct.ct_view(x, 2, i64(1, 12))
    e = ct.ct_expand(row, 2, i64(3, 12))
    check(strides(e) == (0, 1) and ct.ct_has_internal_overlap(e) == 1, "expand gives stride 0 and internal overlap")
    check(ct.ct_copy_(e, row) != ct.CT_OK and ct.ct_last_status() == ct.CT_ERR_OVERLAP,
          "ct_copy_ into an expanded tensor is refused with CT_ERR_OVERLAP")

    # the repr is PyTorch's
    n = ct.ct_tensor_to_string(seven, ffi.NULL, 0)
    buf = ffi.new("char[]", n + 1)
    ct.ct_tensor_to_string(seven, buf, n + 1)
    repr_ = s_(buf)
    check(repr_.startswith("tensor([[7., 7., 7., 7.],") and len(repr_) == n,
          "ct_tensor_to_string: " + repr_.split("\n")[0])

    # bad arguments are errors, not crashes
    check(ct.ct_select(x, 0, 3) == ffi.NULL and ct.ct_last_status() == ct.CT_ERR_INDEX,
          "x.select(0, 3) gives CT_ERR_INDEX")
    check(ct.ct_tensor_ndim(ffi.NULL) == -1 and ct.ct_transpose(ffi.NULL, 0, 1) == ffi.NULL and
          ct.ct_last_status() == ct.CT_ERR_INVALID_ARGUMENT and "NULL" in s_(ct.ct_last_error()),
          "NULL handles give -1 / NULL and CT_ERR_INVALID_ARGUMENT: " + s_(ct.ct_last_error()))
    check(ct.ct_view(x, 1, i64(5)) == ffi.NULL and ct.ct_last_status() == ct.CT_ERR_SHAPE,
          "x.view(5) gives CT_ERR_SHAPE")

    # zero-copy from memory this program owns, with a deleter written in Python
    calls = []
    mem = ffi.new("double[]", list(map(float, range(6))))
    ctx = ffi.new("int *")

    @ffi.callback("void(void *, void *)")
    def deleter(data, c):
        calls.append((int(ffi.cast("uintptr_t", data)), int(ffi.cast("uintptr_t", c))))

    addr = lambda p: int(ffi.cast("uintptr_t", p))
    w = ct.ct_from_blob(mem, 2, i64(2, 3), ffi.NULL, ct.CT_FLOAT64, deleter, ctx)
    check(w != ffi.NULL and addr(ct.ct_tensor_data(w)) == addr(mem), "ct_from_blob wraps our buffer without copying")
    wt = ct.ct_transpose(w, 0, 1)
    ffi.cast("double *", ct.ct_tensor_data(wt))[strides(wt)[1]] = 42.0   # wt[0][1] is w[1][0]
    check(mem[3] == 42.0, "a write through its transpose lands in our buffer")
    ct.ct_tensor_release(w)
    check(calls == [], "the deleter has not run while a view holds the storage")
    ct.ct_tensor_release(wt)
    check(calls == [(addr(mem), addr(ctx))], "the deleter ran exactly once, with data and ctx")

    for h in (bad, e, row, seven, al, cl, g, idx, c2, y, r, t, s, x, root):
        ct.ct_tensor_release(h)
    check(ct.ct_live_tensors() == live_t0 and ct.ct_live_storages() == live_s0,
          "no leak: ct_live_tensors %d -> %d, ct_live_storages %d -> %d"
          % (live_t0, ct.ct_live_tensors(), live_s0, ct.ct_live_storages()))

    print("cffi: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
