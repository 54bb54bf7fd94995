# A Ruby client of libctensor through the ffi gem, knowing only include/ctensor.h.
#
#   ruby tests/clients/ruby/ffi_client.rb [path/to/libctensor.so]
#
# The library comes from the argument, else from $CTENSOR_LIB, loaded by path.  The checks
# are the ctypes client's (views share storage, copies do not, bases, the error of an
# impossible view, zero-copy wrapping with a deleter, no leak) plus reference counts and
# the version counter bumped by an in-place write through a view.  Prints each check;
# exits 1 if one failed.  Needs the ffi gem (Debian: ruby-ffi).

begin
  require 'ffi'
rescue LoadError => e
  abort "ffi_client.rb: #{e.message}: install the ffi gem (apt-get install ruby-ffi)"
end

PATH = ARGV[0] || ENV['CTENSOR_LIB']
abort 'usage: ruby ffi_client.rb path/to/libctensor.so   (or set CTENSOR_LIB)' if PATH.nil? || PATH.empty?

# ---- the header: only what this client calls, with include/ctensor.h's types -----------
# ct_tensor * and ct_storage * are opaque handles (:pointer; NULL comes back as a null
# pointer, nil passes NULL); enums keep the header's numbers, so a status comes back as
# its name (:CT_ERR_SHAPE).
module CT
  extend FFI::Library
  ffi_lib PATH

  enum :ct_dtype, [:CT_BOOL, 0, :CT_UINT8, 1, :CT_INT8, 2, :CT_INT16, 3, :CT_INT32, 4,
                   :CT_INT64, 5, :CT_FLOAT16, 6, :CT_BFLOAT16, 7, :CT_FLOAT32, 8, :CT_FLOAT64, 9]
  enum :ct_status, [:CT_OK, 0, :CT_ERR_INVALID_ARGUMENT, 1, :CT_ERR_SHAPE, 2, :CT_ERR_DTYPE, 3,
                    :CT_ERR_INDEX, 4, :CT_ERR_NOT_VIEWABLE, 5, :CT_ERR_OVERLAP, 6,
                    :CT_ERR_OUT_OF_MEMORY, 7, :CT_ERR_READ_ONLY, 8, :CT_ERR_INTERNAL, 9]
  # the deleter parameter of ct_from_blob: void (*deleter)(void *data, void *ctx)
  callback :ct_deleter, %i[pointer pointer], :void

  {
    ct_last_status: [[], :ct_status],
    ct_last_error: [[], :string],
    ct_clear_error: [[], :void],
    ct_status_name: [[:ct_status], :string],
    ct_version: [[], :string],
    ct_dtype_name: [[:ct_dtype], :string],
    ct_dtype_itemsize: [[:ct_dtype], :int64],
    ct_live_tensors: [[], :int64],
    ct_live_storages: [[], :int64],
    ct_tensor_retain: [[:pointer], :pointer],
    ct_tensor_release: [[:pointer], :void],
    ct_storage_release: [[:pointer], :void],
    ct_full: [%i[int pointer double ct_dtype], :pointer],
    ct_arange: [%i[double double double ct_dtype], :pointer],
    ct_from_data: [%i[pointer int pointer ct_dtype], :pointer],
    ct_from_blob: [%i[pointer int pointer pointer ct_dtype ct_deleter pointer], :pointer],
    ct_view: [%i[pointer int pointer], :pointer],
    ct_transpose: [%i[pointer int int], :pointer],
    ct_slice: [%i[pointer int int64 int64 int64], :pointer],
    ct_select: [%i[pointer int int64], :pointer],
    ct_expand: [%i[pointer int pointer], :pointer],
    ct_alias: [[:pointer], :pointer],
    ct_reshape: [%i[pointer int pointer], :pointer],
    ct_contiguous: [[:pointer], :pointer],
    ct_reshape_is_view: [%i[pointer int pointer], :int],
    ct_clone: [[:pointer], :pointer],
    ct_index_select: [%i[pointer int pointer], :pointer],
    ct_copy_: [%i[pointer pointer], :ct_status],
    ct_fill_: [%i[pointer double], :ct_status],
    ct_tensor_ndim: [[:pointer], :int],
    ct_tensor_sizes: [[:pointer], :pointer],
    ct_tensor_strides: [[:pointer], :pointer],
    ct_tensor_offset: [[:pointer], :int64],
    ct_tensor_is_contiguous: [[:pointer], :int],
    ct_tensor_data: [[:pointer], :pointer],
    ct_tensor_is_view: [[:pointer], :int],
    ct_tensor_base: [[:pointer], :pointer],
    ct_tensor_version: [[:pointer], :int64],
    ct_tensor_refcount: [[:pointer], :int64],
    ct_tensor_storage: [[:pointer], :pointer],
    ct_tensor_storage_id: [[:pointer], :uint64],
    ct_tensor_to_string: [%i[pointer pointer int64], :int64],
    ct_storage_id: [[:pointer], :uint64],
    ct_storage_refcount: [[:pointer], :int64],
    ct_shares_storage: [%i[pointer pointer], :int],
    ct_overlaps: [%i[pointer pointer], :int],
    ct_has_internal_overlap: [[:pointer], :int]
  }.each { |name, (args, ret)| attach_function name, args, ret }
end

$passed = 0
$failed = 0
def check(ok, what)
  if ok
    $passed += 1
    puts "  ok   #{what}"
  else
    $failed += 1
    puts "  FAIL #{what}"
  end
end

# const int64_t * argument: a C array holding the values, freed with the Ruby object
def i64(*v)
  FFI::MemoryPointer.new(:int64, v.size).tap { |p| p.write_array_of_int64(v) }
end

def sizes(t) = CT.ct_tensor_sizes(t).read_array_of_int64(CT.ct_tensor_ndim(t))
def strides(t) = CT.ct_tensor_strides(t).read_array_of_int64(CT.ct_tensor_ndim(t))

# byte offset of the element at a 0-based index: sum(index * stride) elements of itemsize
def at(t, index, itemsize) = index.zip(strides(t)).sum { |i, s| i * s } * itemsize
def f32(t, *index) = CT.ct_tensor_data(t).get_float32(at(t, index, 4))
def set_f32(t, v, *index) = CT.ct_tensor_data(t).put_float32(at(t, index, 4), v)

puts "Ruby ffi client: #{PATH} (version #{CT.ct_version})"
live_t0 = CT.ct_live_tensors
live_s0 = CT.ct_live_storages

check(CT.ct_version.match?(/\A\d+\.\d+\.\d+\z/), 'ct_version is MAJOR.MINOR.PATCH')
check((0..9).map { |d| CT.ct_dtype_name(d) } ==
        %w[bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64], "dtype names are PyTorch's")
check((0..9).map { |d| CT.ct_dtype_itemsize(d) } == [1, 1, 1, 2, 4, 8, 2, 2, 4, 8], 'dtype item sizes')
check(CT.ct_dtype_name(42).nil? && CT.ct_last_status == :CT_ERR_DTYPE,
      'an invalid dtype gives NULL and CT_ERR_DTYPE')

# x = arange(12).view(3, 4): a view of the 1-D root
root = CT.ct_arange(0, 12, 1, :CT_FLOAT32)
check(CT.ct_tensor_refcount(root) == 1, 'a new tensor has refcount 1')
x = CT.ct_view(root, 2, i64(3, 4))
check(sizes(x) == [3, 4] && strides(x) == [4, 1] && CT.ct_tensor_offset(x).zero?,
      'x = arange(12).view(3, 4): sizes (3, 4), strides (4, 1), offset 0')
check(CT.ct_tensor_is_contiguous(x) == 1 && CT.ct_tensor_is_view(x) == 1, 'x is a contiguous view')
check(CT.ct_tensor_refcount(root) == 2, "the view holds its base: root's refcount 1 -> 2")
b = CT.ct_tensor_base(x)
check(b == root, 'base of x is the root tensor (the same handle)')
CT.ct_tensor_release(b)
check((0..2).all? { |i| (0..3).all? { |j| f32(x, i, j) == 4 * i + j } },
      'x[i][j] == 4i + j through data + i*stride0 + j*stride1')

# slicing, then writing through the view
s = CT.ct_slice(x, 1, 1, 3, 1)
check(sizes(s) == [3, 2] && strides(s) == [4, 1] && CT.ct_tensor_offset(s) == 1,
      's = x[:, 1:3]: sizes (3, 2), strides (4, 1), offset 1')
check(CT.ct_shares_storage(s, x) == 1 && CT.ct_tensor_storage_id(s) == CT.ct_tensor_storage_id(x),
      "s shares x's storage (same storage id)")
b = CT.ct_tensor_base(s)
check(b == root && CT.ct_tensor_refcount(x) == 1,
      "base of s is the root, never the intermediate view x (x's refcount stays 1)")
CT.ct_tensor_release(b)
set_f32(s, 100.0, 0, 0)
check(f32(x, 0, 1) == 100.0, 'writing s[0][0] changes x[0][1]')

# reference counts: handles, views holding their base, storage handles
check(CT.ct_tensor_retain(x) == x && CT.ct_tensor_refcount(x) == 2, 'ct_tensor_retain(x): refcount 2')
CT.ct_tensor_release(x)
check(CT.ct_tensor_refcount(x) == 1, 'ct_tensor_release(x): refcount back to 1')
st = CT.ct_tensor_storage(x)
check(CT.ct_storage_id(st) == CT.ct_tensor_storage_id(x) && CT.ct_storage_refcount(st) == 4,
      "x's storage: refcount 4 (root, x, s and this storage handle)")
CT.ct_storage_release(st)

# transpose shares memory
t = CT.ct_transpose(x, 0, 1)
check(sizes(t) == [4, 3] && strides(t) == [1, 4], 't = x.t(): sizes (4, 3), strides (1, 4)')
check(CT.ct_tensor_data(t) == CT.ct_tensor_data(x) && CT.ct_shares_storage(t, x) == 1,
      "t has x's data pointer and storage")
check(CT.ct_tensor_is_contiguous(t).zero? && CT.ct_overlaps(t, x) == 1,
      't is not contiguous and overlaps x exactly')

# the impossible view, and reshape copying instead
CT.ct_clear_error
v = CT.ct_view(t, 1, i64(12))
status = CT.ct_last_status
msg = CT.ct_last_error
check(v.null? && status == :CT_ERR_NOT_VIEWABLE, 't.view(12) fails with CT_ERR_NOT_VIEWABLE')
check(msg.include?("view size is not compatible with input tensor's size and stride"),
      "with PyTorch's message: #{msg[0, 90]}")
check(CT.ct_status_name(status) == 'CT_ERR_NOT_VIEWABLE', 'ct_status_name names it')
check(CT.ct_reshape_is_view(t, 1, i64(12)).zero?, 'ct_reshape_is_view(t, 12) == 0')
r = CT.ct_reshape(t, 1, i64(12))
check(!r.null? && CT.ct_shares_storage(r, t).zero? && CT.ct_tensor_is_contiguous(r) == 1,
      't.reshape(12) is a contiguous copy')
check((0...12).map { |k| f32(r, k) } == (0...12).map { |k| f32(x, k % 3, k / 3) },
      "its values are t's, in row-major order")

# reshape of a contiguous tensor is a view: same data pointer
y = CT.ct_reshape(x, 2, i64(2, 6))
check(CT.ct_tensor_data(y) == CT.ct_tensor_data(x) && CT.ct_tensor_is_view(y) == 1,
      "x.reshape(2, 6) keeps x's data pointer (a view)")
c2 = CT.ct_contiguous(x)
check(c2 == x, 'x.contiguous() is x itself')

# index_select copies
idx = CT.ct_from_data(i64(2, 0), 1, i64(2), :CT_INT64)
g = CT.ct_index_select(x, 0, idx)
check(sizes(g) == [2, 4] && CT.ct_shares_storage(g, x).zero? && CT.ct_overlaps(g, x).zero?,
      'x.index_select(0, [2, 0]) is a (2, 4) copy on a new storage')
check((0..3).map { |j| f32(g, 0, j) } == (0..3).map { |j| f32(x, 2, j) }, 'row 0 of it is x[2]')
bad = CT.ct_from_data(i64(3), 1, i64(1), :CT_INT64)
check(CT.ct_index_select(x, 0, bad).null? && CT.ct_last_status == :CT_ERR_INDEX,
      'an out-of-range index gives CT_ERR_INDEX')

# clone vs alias (detach)
cl = CT.ct_clone(x)
al = CT.ct_alias(x)
check(CT.ct_shares_storage(cl, x).zero? && CT.ct_tensor_is_view(cl).zero? && CT.ct_tensor_base(cl).null?,
      'clone: new storage, not a view, no base')
check(CT.ct_shares_storage(al, x) == 1 && CT.ct_tensor_is_view(al).zero? && CT.ct_tensor_base(al).null?,
      'alias: same storage, but not a view and no base')
v0 = CT.ct_tensor_version(x)
seven = CT.ct_full(2, i64(3, 4), 7.0, :CT_FLOAT32)
check(CT.ct_copy_(al, seven) == :CT_OK, 'ct_copy_(alias, full(7)) succeeds')
check(CT.ct_tensor_version(x) > v0 && CT.ct_tensor_version(x) == CT.ct_tensor_version(al),
      'the write bumped the version that x and its alias share')
check(f32(x, 2, 3) == 7.0 && f32(cl, 2, 3) == 11.0, 'x sees the write, the clone does not')

# an in-place op through a view bumps the one counter of the family, not the clone's
v1 = CT.ct_tensor_version(root)
vc = CT.ct_tensor_version(cl)
check(CT.ct_fill_(s, 5.0) == :CT_OK && f32(x, 2, 2) == 5.0 && f32(cl, 2, 2) == 10.0,
      's.fill_(5) writes x[:, 1:3], not the clone')
check([root, x, s].all? { |h| CT.ct_tensor_version(h) == v1 + 1 } && CT.ct_tensor_version(cl) == vc,
      "it bumped root's, x's and s's version by 1, the clone's not")

# expand: internal overlap, and writes into it refused
row = CT.ct_view(x, 2, i64(1, 12))
e = CT.ct_expand(row, 2, i64(3, 12))
check(strides(e) == [0, 1] && CT.ct_has_internal_overlap(e) == 1, 'expand gives stride 0 and internal overlap')
check(CT.ct_copy_(e, row) != :CT_OK && CT.ct_last_status == :CT_ERR_OVERLAP,
      'ct_copy_ into an expanded tensor is refused with CT_ERR_OVERLAP')

# the repr is PyTorch's
n = CT.ct_tensor_to_string(seven, nil, 0)
buf = FFI::MemoryPointer.new(:char, n + 1)
CT.ct_tensor_to_string(seven, buf, n + 1)
repr = buf.read_string
check(repr.start_with?('tensor([[7., 7., 7., 7.],') && repr.bytesize == n,
      "ct_tensor_to_string: #{repr.lines.first.chomp}")

# bad arguments are errors, not crashes
check(CT.ct_select(x, 0, 3).null? && CT.ct_last_status == :CT_ERR_INDEX, 'x.select(0, 3) gives CT_ERR_INDEX')
check(CT.ct_tensor_ndim(nil) == -1 && CT.ct_transpose(nil, 0, 1).null? &&
        CT.ct_last_status == :CT_ERR_INVALID_ARGUMENT && CT.ct_last_error.include?('NULL'),
      "NULL handles give -1 / NULL and CT_ERR_INVALID_ARGUMENT: #{CT.ct_last_error}")
check(CT.ct_view(x, 1, i64(5)).null? && CT.ct_last_status == :CT_ERR_SHAPE, 'x.view(5) gives CT_ERR_SHAPE')

# zero-copy from memory this program owns, with a deleter written in Ruby
calls = []
mem = FFI::MemoryPointer.new(:double, 6).tap { |p| p.write_array_of_double([0, 1, 2, 3, 4, 5]) }
ctx = FFI::MemoryPointer.new(:int, 1)
deleter = proc { |data, c| calls << [data.address, c.address] }   # kept alive by this variable
w = CT.ct_from_blob(mem, 2, i64(2, 3), nil, :CT_FLOAT64, deleter, ctx)
check(!w.null? && CT.ct_tensor_data(w).address == mem.address, 'ct_from_blob wraps our buffer without copying')
wt = CT.ct_transpose(w, 0, 1)
CT.ct_tensor_data(wt).put_float64(8 * strides(wt)[1], 42.0)   # wt[0][1] is w[1][0]
check(mem.get_float64(8 * 3) == 42.0, 'a write through its transpose lands in our buffer')
CT.ct_tensor_release(w)
check(calls.empty?, 'the deleter has not run while a view holds the storage')
CT.ct_tensor_release(wt)
check(calls == [[mem.address, ctx.address]], 'the deleter ran exactly once, with data and ctx')

[bad, e, row, seven, al, cl, g, idx, c2, y, r, t, s, x, root].each { |h| CT.ct_tensor_release(h) }
live_t1 = CT.ct_live_tensors
live_s1 = CT.ct_live_storages
check(live_t1 == live_t0 && live_s1 == live_s0,
      "no leak: ct_live_tensors #{live_t0} -> #{live_t1}, ct_live_storages #{live_s0} -> #{live_s1}")

puts "ruby: #{$passed} passed, #{$failed} failed"
exit($failed.zero? ? 0 : 1)
