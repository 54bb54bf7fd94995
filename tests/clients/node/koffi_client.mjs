// A Node.js client of libctensor through koffi, knowing only include/ctensor.h.
//
//   node tests/clients/node/koffi_client.mjs [path/to/libctensor.so]
//
// The library comes from the argument, else from $CTENSOR_LIB.  Builds tensors, takes views
// and copies, checks sizes, strides, offsets, sharing, bases, versions, the error of an
// impossible view, zero-copy wrapping of memory this program allocated (with a JS deleter),
// and that nothing leaked (ct_live_tensors / ct_live_storages).  Prints each check; exits 1
// if one failed.

import koffi from 'koffi';

const path = process.argv[2] || process.env.CTENSOR_LIB;
if (!path) {
  console.error('usage: node koffi_client.mjs path/to/libctensor.so   (or set CTENSOR_LIB)');
  process.exit(2);
}

// ---- the header, as koffi declarations ---------------------------------------------------
koffi.opaque('ct_tensor');
koffi.opaque('ct_storage');
koffi.alias('ct_dtype', 'int');
koffi.alias('ct_status', 'int');
koffi.proto('void ct_deleter(void *data, void *ctx)');  // the deleter parameter of ct_from_blob

const lib = koffi.load(path);
const PROTOTYPES = [
  'ct_status ct_last_status(void)',
  'const char *ct_last_error(void)',
  'void ct_clear_error(void)',
  'const char *ct_status_name(ct_status s)',
  'const char *ct_version(void)',
  'const char *ct_dtype_name(ct_dtype d)',
  'int64_t ct_dtype_itemsize(ct_dtype d)',
  'int64_t ct_live_tensors(void)',
  'int64_t ct_live_storages(void)',
  'void ct_tensor_release(ct_tensor *t)',
  'ct_tensor *ct_full(int ndim, const int64_t *sizes, double value, ct_dtype dtype)',
  'ct_tensor *ct_arange(double start, double end, double step, ct_dtype dtype)',
  'ct_tensor *ct_from_data(const void *data, int ndim, const int64_t *sizes, ct_dtype dtype)',
  'ct_tensor *ct_from_blob(void *data, int ndim, const int64_t *sizes, const int64_t *strides, ' +
    'ct_dtype dtype, ct_deleter *deleter, void *ctx)',
  'ct_tensor *ct_view(const ct_tensor *t, int ndim, const int64_t *shape)',
  'ct_tensor *ct_transpose(const ct_tensor *t, int dim0, int dim1)',
  'ct_tensor *ct_slice(const ct_tensor *t, int dim, int64_t start, int64_t stop, int64_t step)',
  'ct_tensor *ct_select(const ct_tensor *t, int dim, int64_t index)',
  'ct_tensor *ct_alias(const ct_tensor *t)',
  'ct_tensor *ct_reshape(const ct_tensor *t, int ndim, const int64_t *shape)',
  'int ct_reshape_is_view(const ct_tensor *t, int ndim, const int64_t *shape)',
  'ct_tensor *ct_clone(const ct_tensor *t)',
  'ct_tensor *ct_index_select(const ct_tensor *t, int dim, const ct_tensor *index)',
  'ct_status ct_copy_(ct_tensor *dst, const ct_tensor *src)',
  'int ct_tensor_ndim(const ct_tensor *t)',
  'const int64_t *ct_tensor_sizes(const ct_tensor *t)',
  'const int64_t *ct_tensor_strides(const ct_tensor *t)',
  'int64_t ct_tensor_offset(const ct_tensor *t)',
  'int ct_tensor_is_contiguous(const ct_tensor *t)',
  'void *ct_tensor_data(const ct_tensor *t)',
  'int ct_tensor_is_view(const ct_tensor *t)',
  'ct_tensor *ct_tensor_base(const ct_tensor *t)',
  'int64_t ct_tensor_version(const ct_tensor *t)',
  'int64_t ct_tensor_refcount(const ct_tensor *t)',
  'uint64_t ct_tensor_storage_id(const ct_tensor *t)',
  // char *buf, declared void * so that koffi passes a Buffer's memory (same ABI)
  'int64_t ct_tensor_to_string(const ct_tensor *t, void *buf, int64_t cap)',
  'int ct_shares_storage(const ct_tensor *a, const ct_tensor *b)',
  'int ct_overlaps(const ct_tensor *a, const ct_tensor *b)',
];
const ct = {};
for (const p of PROTOTYPES) {
  const f = lib.func(p);
  ct[f.info.name] = f;
}
const CT_INT64 = 5, CT_FLOAT32 = 8, CT_FLOAT64 = 9;
const CT_ERR_INVALID_ARGUMENT = 1, CT_ERR_SHAPE = 2, CT_ERR_INDEX = 4, CT_ERR_NOT_VIEWABLE = 5;

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) { passed++; console.log('  ok   ' + what); } else { failed++; console.log('  FAIL ' + what); }
}

const addr = (p) => (p === null ? 0n : koffi.address(p));
const same = (a, b) => addr(a) === addr(b);
const ints = (p, n) => Array.from(koffi.decode(p, 'int64_t', n), Number);
const sizes = (t) => ints(ct.ct_tensor_sizes(t), ct.ct_tensor_ndim(t));
const strides = (t) => ints(ct.ct_tensor_strides(t), ct.ct_tensor_ndim(t));
const eq = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// element at a 0-based index: data + sum(index * stride) elements
const byteOffset = (t, index, size) => index.reduce((s, i, k) => s + i * strides(t)[k], 0) * size;
const f32 = (t, ...index) => koffi.decode(ct.ct_tensor_data(t), byteOffset(t, index, 4), 'float');
const setF32 = (t, v, ...index) => koffi.encode(ct.ct_tensor_data(t), byteOffset(t, index, 4), 'float', v);

console.log(`koffi client: ${path} (version ${ct.ct_version()})`);
const live0 = [Number(ct.ct_live_tensors()), Number(ct.ct_live_storages())];
const owned = [];
const keep = (t) => { owned.push(t); return t; };

check(/^\d+\.\d+\.\d+$/.test(ct.ct_version()), 'ct_version is MAJOR.MINOR.PATCH');
check(ct.ct_dtype_name(CT_FLOAT32) === 'float32' && Number(ct.ct_dtype_itemsize(CT_FLOAT64)) === 8,
  'dtype name float32, float64 itemsize 8');

// x = arange(12).view(3, 4)
const root = keep(ct.ct_arange(0, 12, 1, CT_FLOAT32));
const x = keep(ct.ct_view(root, 2, [3, 4]));
check(eq(sizes(x), [3, 4]) && eq(strides(x), [4, 1]) && Number(ct.ct_tensor_offset(x)) === 0,
  'x = arange(12).view(3, 4): sizes [3, 4], strides [4, 1], offset 0');
let b = ct.ct_tensor_base(x);
check(same(b, root), 'base of x is the root tensor (the same handle)');
ct.ct_tensor_release(b);
let all = true;
for (let i = 0; i < 3; i++) for (let j = 0; j < 4; j++) all = all && f32(x, i, j) === 4 * i + j;
check(all, 'x[i][j] == 4i + j through data + i*stride0 + j*stride1');

// slice, then write through the view
const s = keep(ct.ct_slice(x, 1, 1, 3, 1));
check(eq(sizes(s), [3, 2]) && eq(strides(s), [4, 1]) && Number(ct.ct_tensor_offset(s)) === 1,
  's = x[:, 1:3]: sizes [3, 2], strides [4, 1], offset 1');
check(ct.ct_shares_storage(s, x) === 1 && ct.ct_tensor_storage_id(s) === ct.ct_tensor_storage_id(x),
  's shares x\'s storage (same storage id)');
b = ct.ct_tensor_base(s);
check(same(b, root), 'base of s is the root, never the intermediate view x');
ct.ct_tensor_release(b);
setF32(s, 100, 0, 0);
check(f32(x, 0, 1) === 100, 'writing s[0][0] changes x[0][1]');

// transpose shares memory
const t = keep(ct.ct_transpose(x, 0, 1));
check(eq(sizes(t), [4, 3]) && eq(strides(t), [1, 4]), 't = x.t(): sizes [4, 3], strides [1, 4]');
check(same(ct.ct_tensor_data(t), ct.ct_tensor_data(x)) && ct.ct_shares_storage(t, x) === 1 &&
  ct.ct_overlaps(t, x) === 1, 't has x\'s data pointer and storage, and overlaps it');
check(ct.ct_tensor_is_contiguous(t) === 0, 't is not contiguous');

// the impossible view, and reshape copying instead
ct.ct_clear_error();
const v = ct.ct_view(t, 1, [12]);
const msg = ct.ct_last_error();
check(v === null && ct.ct_last_status() === CT_ERR_NOT_VIEWABLE, 't.view(12) fails with CT_ERR_NOT_VIEWABLE');
check(msg.includes("view size is not compatible with input tensor's size and stride"),
  'with PyTorch\'s message: ' + msg.slice(0, 90));
check(ct.ct_status_name(CT_ERR_NOT_VIEWABLE) === 'CT_ERR_NOT_VIEWABLE', 'ct_status_name names it');
check(ct.ct_reshape_is_view(t, 1, [12]) === 0, 'ct_reshape_is_view(t, 12) == 0');
const r = keep(ct.ct_reshape(t, 1, [12]));
check(r !== null && ct.ct_shares_storage(r, t) === 0 && ct.ct_tensor_is_contiguous(r) === 1,
  't.reshape(12) is a contiguous copy');

// reshape of a contiguous tensor keeps the data pointer
const y = keep(ct.ct_reshape(x, 2, [2, 6]));
check(same(ct.ct_tensor_data(y), ct.ct_tensor_data(x)) && ct.ct_tensor_is_view(y) === 1,
  'x.reshape(2, 6) keeps x\'s data pointer (a view)');

// index_select copies
const idx = keep(ct.ct_from_data(new BigInt64Array([2n, 0n]), 1, [2], CT_INT64));
const g = keep(ct.ct_index_select(x, 0, idx));
check(eq(sizes(g), [2, 4]) && ct.ct_shares_storage(g, x) === 0 && ct.ct_overlaps(g, x) === 0,
  'x.index_select(0, [2, 0]) is a [2, 4] copy on a new storage');
check([0, 1, 2, 3].every((j) => f32(g, 0, j) === f32(x, 2, j)), 'row 0 of it is x[2]');

// clone vs alias (detach)
const cl = keep(ct.ct_clone(x));
const al = keep(ct.ct_alias(x));
check(ct.ct_shares_storage(cl, x) === 0 && ct.ct_tensor_is_view(cl) === 0 && ct.ct_tensor_base(cl) === null,
  'clone: new storage, not a view, no base');
check(ct.ct_shares_storage(al, x) === 1 && ct.ct_tensor_is_view(al) === 0 && ct.ct_tensor_base(al) === null,
  'alias: same storage, but not a view and no base');
const v0 = Number(ct.ct_tensor_version(x));
const seven = keep(ct.ct_full(2, [3, 4], 7, CT_FLOAT32));
check(ct.ct_copy_(al, seven) === 0, 'ct_copy_(alias, full(7)) succeeds');
check(Number(ct.ct_tensor_version(x)) > v0 && ct.ct_tensor_version(x) === ct.ct_tensor_version(al),
  'the write bumped the version that x and its alias share');
check(f32(x, 2, 3) === 7 && f32(cl, 2, 3) === 11, 'x sees the write, the clone does not');

// the repr is PyTorch's
const n = Number(ct.ct_tensor_to_string(seven, null, 0));
const buf = Buffer.alloc(n + 1);
ct.ct_tensor_to_string(seven, buf, n + 1);
const repr = buf.toString('utf8', 0, n);
check(repr.startsWith('tensor([[7., 7., 7., 7.],'), 'ct_tensor_to_string: ' + repr.split('\n')[0]);

// errors, not crashes
check(ct.ct_select(x, 0, 3) === null && ct.ct_last_status() === CT_ERR_INDEX, 'x.select(0, 3) gives CT_ERR_INDEX');
check(ct.ct_tensor_ndim(null) === -1 && ct.ct_transpose(null, 0, 1) === null &&
  ct.ct_last_status() === CT_ERR_INVALID_ARGUMENT, 'NULL handles give -1 / NULL and CT_ERR_INVALID_ARGUMENT');
check(ct.ct_view(x, 1, [5]) === null && ct.ct_last_status() === CT_ERR_SHAPE, 'x.view(5) gives CT_ERR_SHAPE');

// zero-copy from memory this program allocated, with a JS deleter
const mem = koffi.alloc('double', 6);
for (let k = 0; k < 6; k++) koffi.encode(mem, 8 * k, 'double', k);
const ctx = koffi.alloc('int', 1);
const calls = [];
const deleter = koffi.register((data, c) => calls.push([addr(data), addr(c)]), 'ct_deleter *');
const w = ct.ct_from_blob(mem, 2, [2, 3], null, CT_FLOAT64, deleter, ctx);
check(w !== null && same(ct.ct_tensor_data(w), mem), 'ct_from_blob wraps our memory without copying');
const wt = ct.ct_transpose(w, 0, 1);
koffi.encode(ct.ct_tensor_data(wt), 8 * strides(wt)[1], 'double', 42);   // wt[0][1] is w[1][0]
check(koffi.decode(mem, 8 * 3, 'double') === 42, 'a write through its transpose lands in our memory');
ct.ct_tensor_release(w);
check(calls.length === 0, 'the deleter has not run while a view holds the storage');
ct.ct_tensor_release(wt);
check(calls.length === 1 && calls[0][0] === addr(mem) && calls[0][1] === addr(ctx),
  'the deleter ran exactly once, with data and ctx');
koffi.unregister(deleter);
koffi.free(mem);
koffi.free(ctx);

for (const h of owned.reverse()) ct.ct_tensor_release(h);
const live1 = [Number(ct.ct_live_tensors()), Number(ct.ct_live_storages())];
check(eq(live0, live1), `no leak: ct_live_tensors ${live0[0]} -> ${live1[0]}, ct_live_storages ${live0[1]} -> ${live1[1]}`);

console.log(`koffi: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
