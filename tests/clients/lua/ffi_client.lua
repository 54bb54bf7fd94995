-- A LuaJIT client of libctensor through its ffi module, knowing only include/ctensor.h.
--
--   luajit tests/clients/lua/ffi_client.lua [path/to/libctensor.so]
--
-- The library comes from the argument, else from $CTENSOR_LIB, loaded by path with
-- ffi.load.  The checks are the ctypes client's (views share storage, copies do not,
-- bases, the error of an impossible view, zero-copy wrapping with a deleter, no leak) plus
-- reference counts and the version counter bumped by an in-place write through a view.
-- Prints each check; exits 1 if one failed.

local ffi = require("ffi")

local path = arg[1] or os.getenv("CTENSOR_LIB")
if not path or path == "" then
  io.stderr:write("usage: luajit ffi_client.lua path/to/libctensor.so   (or set CTENSOR_LIB)\n")
  os.exit(2)
end

-- ---- the header: only what this client calls, declared exactly as include/ctensor.h ---
ffi.cdef [[
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
]]
local ct = ffi.load(path)

local passed, failed = 0, 0
local function check(ok, what)
  if ok then
    passed = passed + 1
    print("  ok   " .. what)
  else
    failed = failed + 1
    print("  FAIL " .. what)
  end
end

-- int64_t results are boxed 64-bit cdata: compare them as Lua numbers (all small here)
local function n(v) return tonumber(v) end
local function str(p) return p ~= nil and ffi.string(p) or nil end
local function i64(...) local v = { ... }; return ffi.new("int64_t[?]", #v, v) end
-- a pointer's address, for comparing pointers of different types
local function addr(p) return tonumber(ffi.cast("uintptr_t", p)) end

local function ints(p, count)
  local out = {}
  for k = 0, count - 1 do out[#out + 1] = n(p[k]) end
  return table.concat(out, ",")
end
local function sizes(t) return ints(ct.ct_tensor_sizes(t), ct.ct_tensor_ndim(t)) end
local function strides(t) return ints(ct.ct_tensor_strides(t), ct.ct_tensor_ndim(t)) end
-- element at a 0-based index: data + sum(index * stride) elements
local function at(t, ...)
  local index, st, off = { ... }, ct.ct_tensor_strides(t), 0
  for k = 1, #index do off = off + index[k] * n(st[k - 1]) end
  return off
end
local function f32(t, ...) return ffi.cast("float *", ct.ct_tensor_data(t))[at(t, ...)] end
local function set_f32(t, v, ...) ffi.cast("float *", ct.ct_tensor_data(t))[at(t, ...)] = v end

print(("LuaJIT ffi client: %s (version %s)"):format(path, str(ct.ct_version())))
local live_t0, live_s0 = n(ct.ct_live_tensors()), n(ct.ct_live_storages())

check(str(ct.ct_version()):match("^%d+%.%d+%.%d+$") ~= nil, "ct_version is MAJOR.MINOR.PATCH")
local names, itemsizes = {}, {}
for d = 0, 9 do
  names[#names + 1] = str(ct.ct_dtype_name(d))
  itemsizes[#itemsizes + 1] = n(ct.ct_dtype_itemsize(d))
end
check(table.concat(names, " ") == "bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64",
  "dtype names are PyTorch's")
check(table.concat(itemsizes, ",") == "1,1,1,2,4,8,2,2,4,8", "dtype item sizes")
check(ct.ct_dtype_name(42) == nil and ct.ct_last_status() == ct.CT_ERR_DTYPE,
  "an invalid dtype gives NULL and CT_ERR_DTYPE")

-- x = arange(12).view(3, 4): a view of the 1-D root
local root = ct.ct_arange(0, 12, 1, ct.CT_FLOAT32)
check(n(ct.ct_tensor_refcount(root)) == 1, "a new tensor has refcount 1")
local x = ct.ct_view(root, 2, i64(3, 4))
check(sizes(x) == "3,4" and strides(x) == "4,1" and n(ct.ct_tensor_offset(x)) == 0,
  "x = arange(12).view(3, 4): sizes (3, 4), strides (4, 1), offset 0")
check(ct.ct_tensor_is_contiguous(x) == 1 and ct.ct_tensor_is_view(x) == 1, "x is a contiguous view")
check(n(ct.ct_tensor_refcount(root)) == 2, "the view holds its base: root's refcount 1 -> 2")
local b = ct.ct_tensor_base(x)
check(b == root, "base of x is the root tensor (the same handle)")
ct.ct_tensor_release(b)
local all = true
for i = 0, 2 do for j = 0, 3 do all = all and f32(x, i, j) == 4 * i + j end end
check(all, "x[i][j] == 4i + j through data + i*stride0 + j*stride1")

-- slicing, then writing through the view
local s = ct.ct_slice(x, 1, 1, 3, 1)
check(sizes(s) == "3,2" and strides(s) == "4,1" and n(ct.ct_tensor_offset(s)) == 1,
  "s = x[:, 1:3]: sizes (3, 2), strides (4, 1), offset 1")
check(ct.ct_shares_storage(s, x) == 1 and ct.ct_tensor_storage_id(s) == ct.ct_tensor_storage_id(x),
  "s shares x's storage (same storage id)")
b = ct.ct_tensor_base(s)
check(b == root and n(ct.ct_tensor_refcount(x)) == 1,
  "base of s is the root, never the intermediate view x (x's refcount stays 1)")
ct.ct_tensor_release(b)
set_f32(s, 100, 0, 0)
check(f32(x, 0, 1) == 100, "writing s[0][0] changes x[0][1]")

-- reference counts: handles, views holding their base, storage handles
check(ct.ct_tensor_retain(x) == x and n(ct.ct_tensor_refcount(x)) == 2, "ct_tensor_retain(x): refcount 2")
ct.ct_tensor_release(x)
check(n(ct.ct_tensor_refcount(x)) == 1, "ct_tensor_release(x): refcount back to 1")
local st = ct.ct_tensor_storage(x)
check(ct.ct_storage_id(st) == ct.ct_tensor_storage_id(x) and n(ct.ct_storage_refcount(st)) == 4,
  "x's storage: refcount 4 (root, x, s and this storage handle)")
ct.ct_storage_release(st)

-- transpose shares memory
local t = ct.ct_transpose(x, 0, 1)
check(sizes(t) == "4,3" and strides(t) == "1,4", "t = x.t(): sizes (4, 3), strides (1, 4)")
check(ct.ct_tensor_data(t) == ct.ct_tensor_data(x) and ct.ct_shares_storage(t, x) == 1,
  "t has x's data pointer and storage")
check(ct.ct_tensor_is_contiguous(t) == 0 and ct.ct_overlaps(t, x) == 1,
  "t is not contiguous and overlaps x exactly")

-- the impossible view, and reshape copying instead
ct.ct_clear_error()
local v = ct.ct_view(t, 1, i64(12))
local status, msg = ct.ct_last_status(), str(ct.ct_last_error())
check(v == nil and status == ct.CT_ERR_NOT_VIEWABLE, "t.view(12) fails with CT_ERR_NOT_VIEWABLE")
check(msg:find("view size is not compatible with input tensor's size and stride", 1, true) ~= nil,
  "with PyTorch's message: " .. msg:sub(1, 90))
check(str(ct.ct_status_name(status)) == "CT_ERR_NOT_VIEWABLE", "ct_status_name names it")
check(ct.ct_reshape_is_view(t, 1, i64(12)) == 0, "ct_reshape_is_view(t, 12) == 0")
local r = ct.ct_reshape(t, 1, i64(12))
check(r ~= nil and ct.ct_shares_storage(r, t) == 0 and ct.ct_tensor_is_contiguous(r) == 1,
  "t.reshape(12) is a contiguous copy")
all = true
for k = 0, 11 do all = all and f32(r, k) == f32(x, k % 3, math.floor(k / 3)) end
check(all, "its values are t's, in row-major order")

-- reshape of a contiguous tensor is a view: same data pointer
local y = ct.ct_reshape(x, 2, i64(2, 6))
check(ct.ct_tensor_data(y) == ct.ct_tensor_data(x) and ct.ct_tensor_is_view(y) == 1,
  "x.reshape(2, 6) keeps x's data pointer (a view)")
local c2 = ct.ct_contiguous(x)
check(c2 == x, "x.contiguous() is x itself")

-- index_select copies
local idx = ct.ct_from_data(i64(2, 0), 1, i64(2), ct.CT_INT64)
local g = ct.ct_index_select(x, 0, idx)
check(sizes(g) == "2,4" and ct.ct_shares_storage(g, x) == 0 and ct.ct_overlaps(g, x) == 0,
  "x.index_select(0, [2, 0]) is a (2, 4) copy on a new storage")
all = true
for j = 0, 3 do all = all and f32(g, 0, j) == f32(x, 2, j) end
check(all, "row 0 of it is x[2]")
local bad = ct.ct_from_data(i64(3), 1, i64(1), ct.CT_INT64)
check(ct.ct_index_select(x, 0, bad) == nil and ct.ct_last_status() == ct.CT_ERR_INDEX,
  "an out-of-range index gives CT_ERR_INDEX")

-- clone vs alias (detach)
local cl = ct.ct_clone(x)
local al = ct.ct_alias(x)
check(ct.ct_shares_storage(cl, x) == 0 and ct.ct_tensor_is_view(cl) == 0 and ct.ct_tensor_base(cl) == nil,
  "clone: new storage, not a view, no base")
check(ct.ct_shares_storage(al, x) == 1 and ct.ct_tensor_is_view(al) == 0 and ct.ct_tensor_base(al) == nil,
  "alias: same storage, but not a view and no base")
local v0 = n(ct.ct_tensor_version(x))
local seven = ct.ct_full(2, i64(3, 4), 7, ct.CT_FLOAT32)
check(ct.ct_copy_(al, seven) == ct.CT_OK, "ct_copy_(alias, full(7)) succeeds")
check(n(ct.ct_tensor_version(x)) > v0 and ct.ct_tensor_version(x) == ct.ct_tensor_version(al),
  "the write bumped the version that x and its alias share")
check(f32(x, 2, 3) == 7 and f32(cl, 2, 3) == 11, "x sees the write, the clone does not")

-- an in-place op through a view bumps the one counter of the family, not the clone's
local v1, vc = n(ct.ct_tensor_version(root)), n(ct.ct_tensor_version(cl))
check(ct.ct_fill_(s, 5) == ct.CT_OK and f32(x, 2, 2) == 5 and f32(cl, 2, 2) == 10,
  "s.fill_(5) writes x[:, 1:3], not the clone")
check(n(ct.ct_tensor_version(root)) == v1 + 1 and n(ct.ct_tensor_version(x)) == v1 + 1 and
  n(ct.ct_tensor_version(s)) == v1 + 1 and n(ct.ct_tensor_version(cl)) == vc,
  "it bumped root's, x's and s's version by 1, the clone's not")

-- expand: internal overlap, and writes into it refused
local row = ct.ct_view(x, 2, i64(1, 12))
local e = ct.ct_expand(row, 2, i64(3, 12))
check(strides(e) == "0,1" and ct.ct_has_internal_overlap(e) == 1, "expand gives stride 0 and internal overlap")
check(ct.ct_copy_(e, row) ~= ct.CT_OK and ct.ct_last_status() == ct.CT_ERR_OVERLAP,
  "ct_copy_ into an expanded tensor is refused with CT_ERR_OVERLAP")

-- the repr is PyTorch's
local len = n(ct.ct_tensor_to_string(seven, nil, 0))
local buf = ffi.new("char[?]", len + 1)
ct.ct_tensor_to_string(seven, buf, len + 1)
local repr = ffi.string(buf)
check(repr:sub(1, 25) == "tensor([[7., 7., 7., 7.]," and #repr == len,
  "ct_tensor_to_string: " .. repr:match("^[^\n]*"))

-- bad arguments are errors, not crashes
check(ct.ct_select(x, 0, 3) == nil and ct.ct_last_status() == ct.CT_ERR_INDEX, "x.select(0, 3) gives CT_ERR_INDEX")
check(ct.ct_tensor_ndim(nil) == -1 and ct.ct_transpose(nil, 0, 1) == nil and
  ct.ct_last_status() == ct.CT_ERR_INVALID_ARGUMENT and str(ct.ct_last_error()):find("NULL", 1, true) ~= nil,
  "NULL handles give -1 / NULL and CT_ERR_INVALID_ARGUMENT: " .. str(ct.ct_last_error()))
check(ct.ct_view(x, 1, i64(5)) == nil and ct.ct_last_status() == ct.CT_ERR_SHAPE, "x.view(5) gives CT_ERR_SHAPE")

-- zero-copy from memory this program owns, with a deleter written in Lua.  The releases
-- that may run it happen in a function kept out of the JIT: LuaJIT refuses a callback
-- entered from a C call made by compiled code ("bad callback").
local function from_blob_checks()
  local calls = {}
  local mem = ffi.new("double[6]", { 0, 1, 2, 3, 4, 5 })
  local ctx = ffi.new("int[1]")
  local deleter = ffi.cast("void (*)(void *, void *)", function(data, c)
    calls[#calls + 1] = { addr(data), addr(c) }
  end)
  local w = ct.ct_from_blob(mem, 2, i64(2, 3), nil, ct.CT_FLOAT64, deleter, ctx)
  check(w ~= nil and addr(ct.ct_tensor_data(w)) == addr(mem), "ct_from_blob wraps our buffer without copying")
  local wt = ct.ct_transpose(w, 0, 1)
  ffi.cast("double *", ct.ct_tensor_data(wt))[n(ct.ct_tensor_strides(wt)[1])] = 42   -- wt[0][1] is w[1][0]
  check(mem[3] == 42, "a write through its transpose lands in our buffer")
  ct.ct_tensor_release(w)
  check(#calls == 0, "the deleter has not run while a view holds the storage")
  ct.ct_tensor_release(wt)
  check(#calls == 1 and calls[1][1] == addr(mem) and calls[1][2] == addr(ctx),
    "the deleter ran exactly once, with data and ctx")
  deleter:free()
end
jit.off(from_blob_checks)
from_blob_checks()

for _, h in ipairs({ bad, e, row, seven, al, cl, g, idx, c2, y, r, t, s, x, root }) do
  ct.ct_tensor_release(h)
end
local live_t1, live_s1 = n(ct.ct_live_tensors()), n(ct.ct_live_storages())
check(live_t1 == live_t0 and live_s1 == live_s0,
  ("no leak: ct_live_tensors %d -> %d, ct_live_storages %d -> %d"):format(live_t0, live_t1, live_s0, live_s1))

print(("luajit: %d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
