/*
 * ctensor.h: the one public interface of ctensor.
 *
 * ctensor implements PyTorch's tensor memory semantics (views, strides, storage offsets,
 * contiguity, in-place writes, clone/detach, reshape vs view) and makes every part of them
 * observable: storage ids, reference counts, data pointers, bases of views, version
 * counters, exact memory overlap.
 *
 * Rules that hold for every function below
 * ----------------------------------------
 * Ownership.  A `ct_tensor *` handle is one owned reference to a tensor.  Every function
 *   that returns a handle returns a NEW reference, which the caller releases with
 *   ct_tensor_release() (same for ct_storage and ct_storage_release()).  Arguments are
 *   BORROWED: the function neither keeps nor releases them beyond the call, unless it says
 *   so.  Releasing NULL is a harmless no-op.  Using a handle after its last reference has
 *   been released (passing it to any function, ct_tensor_release included) is UNDEFINED
 *   BEHAVIOUR, as with free() in C: the library catches some such uses with an error, but
 *   may equally return stale values or crash.
 * Sharing.  A tensor is (storage, dtype, sizes, strides, storage offset).  Each function says
 *   whether its result is a VIEW (same storage: writes through one are seen through the
 *   other), a COPY (new storage), or "view when possible".  A view keeps its storage alive:
 *   releasing the tensor it was made from never invalidates it.
 * Metadata is immutable.  Sizes, strides, offset and dtype of a tensor never change after
 *   creation; only the bytes of its storage do.  Pointers returned by ct_tensor_sizes() and
 *   ct_tensor_strides() stay valid as long as the tensor is alive.
 * Units.  Sizes, strides, storage offsets and indices are int64_t; strides and offsets are
 *   counted in ELEMENTS, not bytes (as in PyTorch and DLPack).  Dimension numbers are int
 *   and may be negative, counted from the end (-1 is the last dimension).
 * Errors.  A function returning a handle returns NULL on failure; one returning ct_status
 *   returns non-zero; a query returns the sentinel it documents (-1 unless stated).  In
 *   every case ct_last_status() and ct_last_error() describe the failure, in a message that
 *   names the operation and the values involved (PyTorch's wording where PyTorch has one).
 *   No function aborts, throws or crashes on a NULL or out-of-range argument.  A successful
 *   call does not clear the last error.
 * Threads.  Any function may be called from any thread.  Retaining, releasing, reading
 *   metadata or elements, and taking views or copies of the same tensors and storages
 *   from several threads at once is safe, and so are concurrent writes to tensors whose
 *   memory does not overlap (even views of one storage).  A write (in-place op, ct_copy_,
 *   a store through ct_tensor_data) concurrent with any other access to overlapping
 *   memory is a data race, as with any array library.  The last-error state is per thread.
 *   A deleter (ct_from_blob, DLPack) runs on whichever thread drops the last reference,
 *   holding no lock of any language runtime.  ct_manual_seed and ct_set_num_threads
 *   change process-wide state; concurrent random draws each take their own part of the
 *   generator's sequence.  tests/stress checks these rules under ThreadSanitizer.
 *   Autograd state is mutable: changing it on one tensor from two threads at once (set
 *   requires_grad or grad, backward accumulating into it, an in-place op rebasing its
 *   history) is a data race, as in torch; grad mode is per thread (see "Autograd").
 *   Metadata is mutable only through the in-place metadata ops ("Tensor identity"):
 *   changing a tensor's metadata while another thread uses the same handle is the caller's
 *   data race, as in torch; other handles, views taken before included, never change.  A
 *   ct_resize_ or ct_set_storage_* that grows a storage moves its memory for every tensor on
 *   it: doing that while another thread uses that storage is a data race too.
 */
#ifndef CTENSOR_H
#define CTENSOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Version -------------------------------------------------------------------------- */

#define CT_VERSION_MAJOR 0
#define CT_VERSION_MINOR 1
#define CT_VERSION_PATCH 0
#define CT_VERSION_STRING "0.1.0"
/* Compile-time check: CT_VERSION_CHECK(0, 1, 0) is true if this header is 0.1.0 or newer. */
#define CT_VERSION_CHECK(major, minor, patch)                                                \
  ((CT_VERSION_MAJOR > (major)) ||                                                           \
   (CT_VERSION_MAJOR == (major) && CT_VERSION_MINOR > (minor)) ||                            \
   (CT_VERSION_MAJOR == (major) && CT_VERSION_MINOR == (minor) && CT_VERSION_PATCH >= (patch)))

/* Only ct_* symbols are exported: the library is built with hidden visibility by default. */
#if defined(__GNUC__)
#define CT_API __attribute__((visibility("default")))
#else
#define CT_API
#endif

/* Most dimensions a tensor may have. */
#define CT_MAX_DIMS 64

/* ---- Types ---------------------------------------------------------------------------- */

/* A tensor: dtype, sizes, strides, storage offset, and a reference to its storage. */
typedef struct ct_tensor ct_tensor;
/* A block of bytes shared by every tensor viewing it, with a unique id and a version. */
typedef struct ct_storage ct_storage;

/* Element types.  The numbers are ABI and never change. */
typedef enum ct_dtype {
  /* One byte an element.  Any byte may be stored (ct_empty, ct_from_blob, DLPack, writes
     through ct_tensor_data); every op reads a non-zero byte as true, as torch does.  Results
     an op computes hold 0 or 1, and so do copies made by torch's copy kernel (ct_clone,
     ct_contiguous, ct_copy_, ct_reshape's copy, flip, repeat, gather, masks); views, ct_to to
     bool (t itself), ct_cat, ct_stack, ct_roll and ct_index_select keep the bytes as they are
     (torch's memcpy paths for contiguous inputs; torch normalises there too for some strided
     inputs, ctensor does not). */
  CT_BOOL = 0,
  CT_UINT8 = 1,
  CT_INT8 = 2,
  CT_INT16 = 3,
  CT_INT32 = 4,
  CT_INT64 = 5,
  CT_FLOAT16 = 6,  /* IEEE 754 binary16 */
  CT_BFLOAT16 = 7, /* the upper 16 bits of a float32 */
  CT_FLOAT32 = 8,
  CT_FLOAT64 = 9,
  /* Complex: two floats (float32 for complex64, float64 for complex128), real part first, as
     C99's float _Complex / double _Complex, C++'s std::complex and NumPy lay them out.
     Arithmetic: + - * / (tensor and complex-scalar operands, see ct_add_complex_scalar), neg,
     abs (a real result), eq/ne, ct_equal/ct_allclose, sum/mean/prod, ct_matmul and ct_vdot.
     Ops without a complex kernel refuse them with CT_ERR_DTYPE, naming the op and the dtype
     (torch's message where torch refuses complex too: "\"lt_cpu\" not implemented for
     'ComplexFloat'", "maximum not implemented for complex tensors.", ...). */
  CT_COMPLEX64 = 10,
  CT_COMPLEX128 = 11
} ct_dtype;

/* Outcome of a call.  The numbers are ABI and never change. */
typedef enum ct_status {
  CT_OK = 0,
  CT_ERR_INVALID_ARGUMENT = 1, /* NULL where a value is needed, bad value, bad handle */
  CT_ERR_SHAPE = 2,            /* sizes that do not fit together */
  CT_ERR_DTYPE = 3,            /* unknown dtype, or one the operation does not accept */
  CT_ERR_INDEX = 4,            /* a dimension or an index out of range */
  CT_ERR_NOT_VIEWABLE = 5,     /* ct_view: the strides do not allow a view */
  CT_ERR_OVERLAP = 6,          /* a write to memory that other elements of it share */
  CT_ERR_OUT_OF_MEMORY = 7,    /* an allocation failed, or its byte count overflows */
  CT_ERR_READ_ONLY = 8,        /* a write to read-only memory (e.g. a read-only DLPack tensor) */
  CT_ERR_INTERNAL = 9          /* a bug in ctensor: please report it */
} ct_status;

/* ---- Errors, version, process-wide state ---------------------------------------------- */

/* Status of the last failed call on this thread (CT_OK if none since ct_clear_error()). */
CT_API ct_status ct_last_status(void);
/* Message of the last failed call on this thread; "" if none.  Borrowed: valid until the
   next failing call on this thread or ct_clear_error(). */
CT_API const char *ct_last_error(void);
/* Forgets the last error of this thread. */
CT_API void ct_clear_error(void);
/* Records status and message (copied; NULL is "") as this thread's last error, as a failing
   call does.  For callbacks that report a failure to ctensor (tensor hooks, custom op
   backward functions: see "Autograd"): the callback sets the error and returns the status.
   status CT_OK forgets the error, as ct_clear_error. */
CT_API void ct_set_error(ct_status status, const char *message);
/* "CT_OK", "CT_ERR_SHAPE", ...; "CT_UNKNOWN_STATUS" for a value outside the enum.  Static. */
CT_API const char *ct_status_name(ct_status s);
/* The library's version, "MAJOR.MINOR.PATCH".  Static. */
CT_API const char *ct_version(void);
/* "bool", "uint8", ..., "float32", "complex64" (PyTorch's names).  Static; NULL (CT_ERR_DTYPE)
   if invalid. */
CT_API const char *ct_dtype_name(ct_dtype d);
/* Bytes per element; -1 (CT_ERR_DTYPE) if d is invalid. */
CT_API int64_t ct_dtype_itemsize(ct_dtype d);
/* Tensor objects alive in the process (handles of every language count). */
CT_API int64_t ct_live_tensors(void);
/* Storage objects alive in the process. */
CT_API int64_t ct_live_storages(void);
/* Threads used by large copies; n <= 0 restores the default (the number of cores). */
CT_API void ct_set_num_threads(int n);
CT_API int ct_get_num_threads(void);

/* The default floating dtype, torch.set_default_dtype / get_default_dtype: process-wide,
   CT_FLOAT32 until changed.  It is the dtype a floating result gets when no operand decides
   it: an integer or bool tensor combined with a double scalar (ct_*_scalar, a Python float),
   true division of integers, exp/log/sqrt/... and reciprocal of integers, and repr's choice of
   which dtypes need no "dtype=" suffix.  Creation functions take their dtype explicitly: the
   bindings pass this one when the caller gave none.  Changing it while another thread computes
   gives that thread either value.  Only CT_FLOAT16, CT_BFLOAT16, CT_FLOAT32, CT_FLOAT64 are
   accepted (CT_ERR_DTYPE, torch's "only floating-point types are supported as the default
   type"; an invalid dtype too). */
CT_API ct_status ct_set_default_dtype(ct_dtype dtype);
CT_API ct_dtype ct_get_default_dtype(void);

/* Print options, torch.set_printoptions: how ct_tensor_to_string lays a tensor out.  One
   process-wide value per option, read once per call; each is a double so that one pair of
   functions serves every option (new options get new numbers; the numbers are ABI).
     CT_PRINT_PRECISION  digits after the point, or of a scientific mantissa (integer 0..64;
                         default 4).
     CT_PRINT_THRESHOLD  a tensor with more elements is summarized (any number but NaN,
                         INFINITY for never; default 1000).
     CT_PRINT_EDGEITEMS  entries shown at each end of a summarized dim (integer >= 0; default
                         3).  0 prints a summarized tensor as "[...]" and adds "size=(...)",
                         as torch.
     CT_PRINT_LINEWIDTH  characters per line before entries wrap (integer; default 80).
     CT_PRINT_SCI_MODE   -1: scientific notation chosen from the values (default), 0: never,
                         1: always.
   torch's profiles are combinations: "default" (4, 1000, 3, 80), "short" (2, 1000, 2, 80),
   "full" (4, INFINITY, 3, 80).  ct_set_print_option refuses an unknown option or a value
   outside its range (CT_ERR_INVALID_ARGUMENT, naming the option and the value) and changes
   nothing then; ct_get_print_option returns NaN (CT_ERR_INVALID_ARGUMENT) for an unknown
   option.  Integral options must be whole numbers with magnitude at most 2^53. */
typedef enum ct_print_option {
  CT_PRINT_PRECISION = 0,
  CT_PRINT_THRESHOLD = 1,
  CT_PRINT_EDGEITEMS = 2,
  CT_PRINT_LINEWIDTH = 3,
  CT_PRINT_SCI_MODE = 4
} ct_print_option;
CT_API ct_status ct_set_print_option(ct_print_option option, double value);
CT_API double ct_get_print_option(ct_print_option option);

/* ---- Lifetime ------------------------------------------------------------------------- */

/* Adds a reference and returns t (NULL stays NULL).  NULL with CT_ERR_INVALID_ARGUMENT when t
   already has 2^31 references, the most one tensor can have. */
CT_API ct_tensor *ct_tensor_retain(ct_tensor *t);
/* Drops a reference; the last one frees the tensor, and its storage once no tensor or
   storage handle holds it.  NULL is a no-op. */
CT_API void ct_tensor_release(ct_tensor *t);
CT_API ct_storage *ct_storage_retain(ct_storage *s);
CT_API void ct_storage_release(ct_storage *s);

/* ---- Creation: new reference, new storage --------------------------------------------- */
/* sizes has ndim entries (may be NULL when ndim == 0); every size >= 0; 0 <= ndim <=
   CT_MAX_DIMS.  Errors: CT_ERR_INVALID_ARGUMENT (NULL sizes with ndim > 0, negative ndim),
   CT_ERR_SHAPE (negative size, element count overflowing int64), CT_ERR_DTYPE,
   CT_ERR_OUT_OF_MEMORY.  Results are contiguous, with storage offset 0.
   Memory: buffers of 4 MiB or more are 2 MiB aligned and advised as huge pages, and when
   their storage dies they are kept for reuse by the next storage of about the same size (up
   to CTENSOR_BUFFER_CACHE_BYTES in total, read from the environment once; default 256 MiB,
   0 disables), so repeated out-of-place ops on large tensors do not pay for fresh pages.
   Storage ids are never reused, even when memory is. */

/* Uninitialized memory, 64-byte aligned. */
CT_API ct_tensor *ct_empty(int ndim, const int64_t *sizes, ct_dtype dtype);
CT_API ct_tensor *ct_zeros(int ndim, const int64_t *sizes, ct_dtype dtype);
CT_API ct_tensor *ct_ones(int ndim, const int64_t *sizes, ct_dtype dtype);
/* Every element is value converted to dtype (as ct_copy_ converts). */
CT_API ct_tensor *ct_full(int ndim, const int64_t *sizes, double value, ct_dtype dtype);
/* 1-D: start, start + step, ... while < end (> end for a negative step), as torch.arange:
   ceil((end - start) / step) elements.  Errors: step 0 or of the wrong sign
   (CT_ERR_INVALID_ARGUMENT), non-finite bounds. */
CT_API ct_tensor *ct_arange(double start, double end, double step, ct_dtype dtype);
/* 1-D: steps values from start to end inclusive, as torch.linspace (torch 2.13's kernel: the
   first half start + i * step, the second half end - (steps - 1 - i) * step, so both ends
   are exact; integer dtypes step in double and truncate toward zero, e.g. 0..10 in 5 int64
   steps is 0 2 5 7 10).  steps 0: empty; steps 1: [start].  Errors: steps < 0
   (CT_ERR_INVALID_ARGUMENT, "number of steps must be non-negative"), bool (CT_ERR_DTYPE,
   "\"linspace_cpu\" not implemented for 'Bool'"), a non-finite start or end for an integer
   dtype (CT_ERR_INVALID_ARGUMENT). */
CT_API ct_tensor *ct_linspace(double start, double end, int64_t steps, ct_dtype dtype);
/* An n x m matrix (contiguous) with 1 on the main diagonal and 0 elsewhere, as torch.eye(n, m)
   (pass m = n for the square one); any dtype.  Errors: n or m negative
   (CT_ERR_INVALID_ARGUMENT, "n must be greater or equal to 0, got -1"). */
CT_API ct_tensor *ct_eye(int64_t n, int64_t m, ct_dtype dtype);
/* Copies numel * itemsize bytes from data (C order).  data may be NULL only if numel == 0. */
CT_API ct_tensor *ct_from_data(const void *data, int ndim, const int64_t *sizes,
                               ct_dtype dtype);
/* Wraps foreign memory without copying: a new storage over [data, data + extent), where
   extent is the span the sizes and strides reach (strides NULL = contiguous; strides must
   be >= 0).  deleter(data, ctx) runs exactly once, on whatever thread drops the last
   reference to the storage; it may be NULL (the caller keeps the memory alive).  On
   failure the deleter is NOT called: the memory stays the caller's. */
CT_API ct_tensor *ct_from_blob(void *data, int ndim, const int64_t *sizes,
                               const int64_t *strides, ct_dtype dtype,
                               void (*deleter)(void *data, void *ctx), void *ctx);

/* ---- Views: new reference, SAME storage ----------------------------------------------- */
/* Each result has ct_tensor_is_view() == 1 and ct_tensor_base() == the root tensor: t itself
   if t is not a view, else t's base (never an intermediate view).  Writes through either
   are seen through the other, and bump the one version counter of t's family (the root,
   its views and its ct_alias; ct_data on the same storage has its own). */

/* Same elements in a new shape; one entry may be -1 (inferred).  CT_ERR_NOT_VIEWABLE
   with PyTorch's message when the strides forbid it (use ct_reshape);
   CT_ERR_SHAPE when the element counts differ. */
CT_API ct_tensor *ct_view(const ct_tensor *t, int ndim, const int64_t *shape);
/* Swaps two dimensions (swaps their sizes and strides). */
CT_API ct_tensor *ct_transpose(const ct_tensor *t, int dim0, int dim1);
/* PyTorch's t(): a 2-D t with its two dimensions swapped (as ct_transpose(t, 0, 1)); a 0-D
   or 1-D t unchanged (still a new view of it).  Its autograd node is TBackward0.
   CT_ERR_SHAPE for more than 2 dimensions, with PyTorch's message "t() expects a tensor
   with <= 2 dimensions, but self is 3D". */
CT_API ct_tensor *ct_t(const ct_tensor *t);
/* Reorders dimensions: result dim i is t's dim dims[i].  dims is a permutation of 0..ndim-1
   (negatives allowed).  Errors: ndim other than t's (CT_ERR_SHAPE), a dim out of range
   (CT_ERR_INDEX), a repeated dim (CT_ERR_INVALID_ARGUMENT). */
CT_API ct_tensor *ct_permute(const ct_tensor *t, int ndim, const int *dims);
/* t[start:stop:step] along dim, with Python's rules: negative start/stop count from the end,
   both are clamped to [0, size] (use INT64_MAX for "to the end"); step >= 1. */
CT_API ct_tensor *ct_slice(const ct_tensor *t, int dim, int64_t start, int64_t stop,
                           int64_t step);
/* t[starts[0]:stops[0]:steps[0], ..., starts[n-1]:stops[n-1]:steps[n-1]]: dims 0 .. n-1 sliced
   in ONE view, with the sizes, strides, offset and errors of n ct_slice calls made dim after
   dim (Python's rules per dim: negative bounds count from the end, both clamped to [0, size];
   step >= 1), but without the n - 1 views in between.  With autograd recording, it is those n
   ct_slice calls (one SliceBackward0 each, as torch's t[a:b, c:d]).  n == 0 gives
   ct_alias_view(t).  Errors: those of ct_slice for the first failing dim (n > ndim: CT_ERR_INDEX
   "Dimension out of range ..."; a 0-dim t: CT_ERR_INDEX "slice() cannot be applied to a 0-dim
   tensor."; step < 1: CT_ERR_INVALID_ARGUMENT); n < 0 or above CT_MAX_DIMS, or an array NULL
   with n > 0: CT_ERR_INVALID_ARGUMENT.  The arrays are read during the call only. */
CT_API ct_tensor *ct_slices(const ct_tensor *t, int n, const int64_t *starts, const int64_t *stops,
                            const int64_t *steps);
/* t[start:start+length] along dim; start may be negative; start + length <= size.
   Errors: start outside [-size, size] (CT_ERR_INDEX), a negative length or start + length
   past the end (CT_ERR_SHAPE, PyTorch's "start (3) + length (2) exceeds dimension size"). */
CT_API ct_tensor *ct_narrow(const ct_tensor *t, int dim, int64_t start, int64_t length);
/* Removes dim, keeping index (negative counts from the end).  CT_ERR_INDEX if out of range. */
CT_API ct_tensor *ct_select(const ct_tensor *t, int dim, int64_t index);
/* Broadcasts to sizes (ndim >= t's ndim; new dims are leading) with stride 0 on expanded
   dims: the result has internal overlap.  -1 keeps an existing size. */
CT_API ct_tensor *ct_expand(const ct_tensor *t, int ndim, const int64_t *sizes);
/* Removes dim if its size is 1; otherwise the result has t's shape (still a view). */
CT_API ct_tensor *ct_squeeze(const ct_tensor *t, int dim);
/* Removes every dimension of size 1. */
CT_API ct_tensor *ct_squeeze_all(const ct_tensor *t);
/* torch's t.squeeze(dims) (a tuple, torch >= 2.0): removes each of the ndim listed dims
   whose size is 1 and keeps the others, in one view recorded as SqueezeBackward2.  ndim == 0
   gives a view of t's shape.  Errors: a dim out of range (CT_ERR_INDEX, "Dimension out of
   range ..."), a dim listed twice (CT_ERR_INVALID_ARGUMENT, "dim 0 appears multiple times in
   the list of dims"), ndim < 0 or dims NULL with ndim > 0 (CT_ERR_INVALID_ARGUMENT). */
CT_API ct_tensor *ct_squeeze_dims(const ct_tensor *t, int ndim, const int *dims);
/* Inserts a dimension of size 1 at dim, in [-ndim-1, ndim]. */
CT_API ct_tensor *ct_unsqueeze(const ct_tensor *t, int dim);
/* The diagonal of dims dim1 and dim2 (offset > 0: above the main diagonal), as the last
   dimension of the result; dim1 != dim2. */
CT_API ct_tensor *ct_diagonal(const ct_tensor *t, int64_t offset, int dim1, int dim2);
/* Every window of `size` elements along dim, `step` apart, as a new last dimension.
   Errors: size larger than the dim (CT_ERR_SHAPE), size < 0 or step <= 0
   (CT_ERR_INVALID_ARGUMENT). */
CT_API ct_tensor *ct_unfold(const ct_tensor *t, int dim, int64_t size, int64_t step);
/* A view with arbitrary sizes, non-negative strides and ABSOLUTE storage offset (not
   relative to t's).  Every reachable element must lie inside the storage:
   CT_ERR_INDEX otherwise.  A stride or offset that overflows int64 once multiplied by the
   item size is refused with CT_ERR_INVALID_ARGUMENT, even on a size-1 dim that is never
   stepped (torch accepts that one); the same holds for every view derived from a tensor. */
CT_API ct_tensor *ct_as_strided(const ct_tensor *t, int ndim, const int64_t *sizes,
                                const int64_t *strides, int64_t storage_offset);
/* torch's .detach(): same storage, same metadata, same version counter, but NOT a view:
   ct_tensor_is_view() == 0 and ct_tensor_base() == NULL. */
CT_API ct_tensor *ct_alias(const ct_tensor *t);
/* torch's aten::alias (what t[...] and t[()] return): a VIEW with t's sizes, strides and
   offset: ct_tensor_is_view() == 1, base the root, as every view.  Unlike ct_alias (detach) it
   stays in the autograd graph: its node is AliasBackward0. */
CT_API ct_tensor *ct_alias_view(const ct_tensor *t);

/* ---- Multi-output views: several new references, SAME storage ------------------------ */
/* Each returns the number n of views it makes of t along dim, in order: torch's unbind,
   split, split_with_sizes and chunk.  Every view is as from ct_select / ct_narrow (same
   storage, ct_tensor_is_view() == 1, base as above, same version counter).
   Output array: with out == NULL nothing is made and n is returned (cap is ignored), so a
   caller may ask first and then call again with cap >= n.  With out != NULL and cap >= n,
   out[0..n-1] receive n NEW references (release each); with cap < n the call fails
   (CT_ERR_INVALID_ARGUMENT) and writes nothing.  On any error -1 is returned and out is
   untouched.
   Autograd: each output records torch's node (UnbindBackward0, SplitBackward0,
   SplitWithSizesBackward0) and is a view that may not be modified in place while autograd
   is involved (grad mode on, and it or its base requires grad), nor may a view of it: the
   in-place op fails with CT_ERR_INVALID_ARGUMENT and torch's message "Output 0 of
   UnbindBackward0 is a view and is being modified inplace. This view is the output of a
   function that returns multiple views. ...".  With grad mode off, or nothing requiring
   grad, in-place writes to them are allowed, as in torch. */
/* One view per index along dim (each as ct_select(t, dim, i)).  A 0-dim t or a dim out of
   range: CT_ERR_INDEX. */
CT_API int64_t ct_unbind(const ct_tensor *t, int dim, ct_tensor **out, int64_t cap);
/* Pieces of split_size along dim, the last one shorter if the size does not divide; one
   piece (all of t) if split_size >= the dim's size, and if both are 0.  Errors
   (CT_ERR_INVALID_ARGUMENT): a 0-dim t, split_size < 0, split_size 0 on a non-empty dim. */
CT_API int64_t ct_split(const ct_tensor *t, int64_t split_size, int dim, ct_tensor **out, int64_t cap);
/* n pieces of the lengths split_sizes[0..n-1] along dim (n >= 0; split_sizes may be NULL if
   n is 0).  Errors (CT_ERR_INVALID_ARGUMENT): a 0-dim t, a negative length, lengths that do
   not sum to the dim's size. */
CT_API int64_t ct_split_with_sizes(const ct_tensor *t, int64_t n, const int64_t *split_sizes, int dim,
                                   ct_tensor **out, int64_t cap);
/* ct_split with split_size ceil(size / chunks): at most `chunks` pieces (fewer when the size
   does not allow them, as torch); an empty dim gives `chunks` empty pieces (recorded as
   SplitWithSizesBackward0, as torch).  Errors (CT_ERR_INVALID_ARGUMENT): a 0-dim t,
   chunks <= 0. */
CT_API int64_t ct_chunk(const ct_tensor *t, int64_t chunks, int dim, ct_tensor **out, int64_t cap);

/* ---- dtype views and the rank-aware transposes T / mT ---------------------------------- */

/* torch's t.view(dtype): t's bytes read as dtype, on t's storage (new reference).  The result
   shares t's version counter but, as in torch, is NOT a view: ct_tensor_is_view() == 0,
   ct_tensor_base() == NULL, no autograd history and requires_grad 0 even when t requires grad
   (torch marks it non-differentiable).  Same item size: t's sizes, strides and offset.
   Different item sizes (r = their ratio), torch 2.13's rules: t must have >= 1 dims and
   stride(-1) == 1; the last size, the offset and the other strides are multiplied by r (to a
   smaller item) or divided by r (to a larger one, each must divide; checked in the order
   size(-1), offset, stride(-1), stride(0), stride(1), ...); the last stride becomes 1.  The
   result covers exactly t's bytes.  Errors (CT_ERR_SHAPE, torch's messages): "self.dim()
   cannot be 0 to view Float as Short (different element sizes)", "self.stride(-1) must be 1
   to view Float as Short (different element sizes), but got 4", "self.size(-1) must be
   divisible by 2 to view Float as Double (different element sizes), but got 3", "self.
   storage_offset() must be divisible by 2 ...", "self.stride(0) must be divisible by 2 ...";
   an invalid dtype (CT_ERR_DTYPE); a geometry that overflows int64 once scaled (only from
   as_strided/from_blob with huge strides on size-1 dims or huge offsets of empty tensors;
   CT_ERR_INVALID_ARGUMENT).  Bool results read any non-zero byte as true. */
CT_API ct_tensor *ct_view_dtype(const ct_tensor *t, ct_dtype dtype);
/* torch's t.mT: the last two dims swapped (a view, as ct_transpose(t, -2, -1):
   TransposeBackward0) for t with >= 2 dims; t itself (retained) for a 0-dim t, where torch
   also warns "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these
   cases." (C has no warning channel: the bindings warn).  A 1-dim t: CT_ERR_SHAPE, "tensor.mT
   is only supported on matrices or batches of matrices. Got 1-D tensor." */
CT_API ct_tensor *ct_matrix_transpose(const ct_tensor *t);
/* torch's t.T (aten numpy_T): every dim reversed, as ct_permute with (n-1, ..., 0), a view
   recorded as PermuteBackward0, for any number of dims.  torch warns (once per process) when
   ndim is not 2: for 0 dims "Tensor.T is deprecated on 0-D tensors. This function is the
   identity in these cases.", otherwise "The use of `x.T` on tensors of dimension other than 2
   to reverse their shape is deprecated and it will throw an error in a future release.
   Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1,
   -1))` to reverse the dimensions of a tensor."; the bindings warn, this function does not.
   Fails only on a bad handle. */
CT_API ct_tensor *ct_numpy_T(const ct_tensor *t);

/* ---- Complex tensors: the views between a complex tensor and its parts --------------------
   A complex element is two floats, real part first (CT_COMPLEX64: two float32, CT_COMPLEX128:
   two float64).  Each function below returns a new reference that is a VIEW (SAME storage,
   ct_tensor_is_view() == 1, base the root tensor, one version counter), as torch's.  With
   grad mode on and t requiring grad each records torch 2.13's node (ViewAsRealBackward0,
   ViewAsComplexBackward0; ct_real / ct_imag are torch's select of view_as_real:
   SelectBackward0); see "Complex tensors" under autograd below. */

/* torch.view_as_real: complex (..., n) -> float32/float64 (..., n, 2); every stride and the
   offset doubled, the new last dim has stride 1 (index 0 the real part, 1 the imaginary).
   A real t: CT_ERR_DTYPE, "view_as_real is only supported for complex tensors". */
CT_API ct_tensor *ct_view_as_real(const ct_tensor *t);
/* torch.view_as_complex: float32/float64 (..., 2) -> complex64/complex128 (...); strides and
   offset halved.  torch's checks in its order: the dtype (CT_ERR_DTYPE, "view_as_complex is
   only supported for half, float and double tensors, but got a tensor of scalar type: Long";
   a float16 t too, since ctensor has no complex32), then (CT_ERR_SHAPE) "Input tensor must
   have one or more dimensions", "Tensor must have a last dimension of size 2", "Tensor must
   have a last dimension with stride 1", "Tensor must have a stride divisible by 2 for all but
   last dimension", "Tensor must have a storage_offset divisible by 2". */
CT_API ct_tensor *ct_view_as_complex(const ct_tensor *t);
/* torch's t.real: the real parts of a complex t, a float view (strides doubled); t itself
   (retained: the same handle comes back, as torch returns the same tensor) when t is real. */
CT_API ct_tensor *ct_real(const ct_tensor *t);
/* torch's t.imag: the imaginary parts of a complex t, a float view one element after the real
   parts.  A real t: CT_ERR_DTYPE, "imag is not implemented for tensors with non-complex
   dtypes." */
CT_API ct_tensor *ct_imag(const ct_tensor *t);
/* The one value of a one-element tensor as two doubles: a complex element's parts, or any
   real element's value with *imag = 0.  ct_item refuses complex tensors (CT_ERR_DTYPE), which
   would drop the imaginary part.  Errors as ct_item; re and imag must not be NULL. */
CT_API ct_status ct_item_complex(const ct_tensor *t, double *re, double *imag);

/* ---- The conjugate and negative bits: lazy conj() as torch 1.10+ has it ---------------------
   torch's conj() of a complex tensor copies nothing: it returns a VIEW (same storage, base,
   version counter) carrying the conjugate bit, and every reader sees the elements conjugated
   while the bytes stay as they are (ct_tensor_data, the storage, DLPack's neg case and
   explain's "raw" lines show the stored bytes).  imag() of a conj view carries the negative bit
   instead: its float elements read negated.  The bits follow torch exactly:
   - every view (ct_view, ct_transpose, ct_select, slicing, ct_expand, ..., ct_detach, the
     .data alias) keeps its input's bits; real() of a conj view has none (real parts are not
     conjugated); ct_view_as_real of a conj view fails (see there), of a neg view keeps the bit;
   - ct_clone, ct_contiguous (when it copies), ct_to and every op that computes return tensors
     without bits, holding the resolved values;
   - ct_copy_(dst, src) stores conj(src) when exactly one of dst and src has the conj bit, and
     -src when exactly one has the neg bit: a write through a conj view stores the conjugates
     in the base;
   - an op that reads values computes on resolved values; an in-place op on a tensor with a bit
     (ct_add_ of a conj view, ...) computes on a resolved copy and writes the result back through
     the bits, so the base changes as torch's does, with one version bump;
   - ct_view_dtype refuses a tensor with either bit (CT_ERR_INVALID_ARGUMENT, "torch.Tensor.view
     is not supported for conjugate view tensors when converting to a different dtype." /
     "... for tensors with negative bit set ..."), even to its own dtype, as torch 2.13;
   - DLPack export refuses the conj bit (see ct_to_dlpack); the neg bit is exported as stored
     (torch does the same: the importer reads the stored values).
   Only complex tensors carry the conj bit; only floating and complex tensors the neg bit.
   Autograd (grad mode on, t requiring grad): ct_conj records ConjBackward0, ct_neg_view
   NegViewBackward0, ct_resolve_conj / ct_resolve_neg CloneBackward0 when they copy,
   ct_conj_physical ConjPhysicalBackward0, ct_conj_physical_ ConjPhysicalBackward1; an op
   reading a tensor with a bit that requires grad differentiates through it (its resolved copy
   is recorded, and an in-place write back through the bits is a recorded copy_). */

/* torch's t.conj(): a complex t gives a new VIEW with the conj bit toggled (conj of a conj view
   clears it: a view of the same base again, not t's base itself); any other t comes back itself
   (retained: the same handle, as torch returns the same tensor).  Fails only on a bad handle. */
CT_API ct_tensor *ct_conj(const ct_tensor *t);
/* torch._neg_view: a new VIEW with the negative bit toggled.  CT_ERR_DTYPE for a t that is not
   floating point or complex. */
CT_API ct_tensor *ct_neg_view(const ct_tensor *t);
/* torch's t.adjoint() (also t.mH; t.H for matrices): the conjugate transpose, a VIEW:
   ct_conj(ct_transpose(t, -2, -1)) (TransposeBackward0 for a real t that requires grad; a real
   t's adjoint is its transpose).  A 0-dim t: ct_conj(t) (torch also warns "adjoint() is
   deprecated on 0-D tensors. Consider using x.conj()."; the bindings warn).  A 1-dim t:
   CT_ERR_SHAPE, "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D
   tensor." */
CT_API ct_tensor *ct_adjoint(const ct_tensor *t);
/* 1 if t carries the conjugate (negative) bit, 0 if not, -1 for a bad handle. */
CT_API int ct_tensor_is_conj(const ct_tensor *t);
CT_API int ct_tensor_is_neg(const ct_tensor *t);
/* torch's t.resolve_conj() / t.resolve_neg(): t itself (retained) when the bit is clear, else
   ct_clone(t): a NEW storage holding the values as read, with no bit (a clone resolves both
   bits, as torch's).  Fails only on a bad handle or when the clone cannot be allocated. */
CT_API ct_tensor *ct_resolve_conj(const ct_tensor *t);
CT_API ct_tensor *ct_resolve_neg(const ct_tensor *t);
/* torch.conj_physical(t): t itself (retained) when t is not complex; else a NEW tensor (new
   storage, t's layout as ct_clone) holding the conjugated values, with no bits. */
CT_API ct_tensor *ct_conj_physical(const ct_tensor *t);
/* torch's t.conj_physical_(): conjugates the stored values of a complex self in place (on a
   conj view: its values as read are conjugated, so the base's bytes are); bumps self's version,
   also for a real self where it changes nothing.  CT_ERR_READ_ONLY, CT_ERR_OVERLAP (an expanded
   self) as every in-place op. */
CT_API ct_status ct_conj_physical_(ct_tensor *self);

/* ---- Copies of views (torch's *_copy ops): new reference(s), NEW storage --------------- */
/* ct_X_copy(t, args) takes the arguments of the view op ct_X, fails as it does (same
   statuses and messages, except where noted), and returns what ct_X would return as a new
   C-contiguous tensor on a new storage: not a view (ct_tensor_is_view() == 0, base NULL), its
   own version counter at 0.  Autograd records torch's node "<ct_X's node>_copy" (e.g.
   PermuteBackward0_copy), whose gradient is the view's.  The multi-output ones return counts
   and fill out/cap exactly as ct_unbind / ct_split / ct_split_with_sizes, but the outputs are
   ordinary tensors that may be written in place. */
/* Unlike ct_view it never fails on strides (torch's view_copy reshapes then): CT_ERR_SHAPE
   only when the element counts differ. */
CT_API ct_tensor *ct_view_copy(const ct_tensor *t, int ndim, const int64_t *shape);
/* ct_view_dtype's bytes copied: no autograd history (requires_grad 0), as view(dtype). */
CT_API ct_tensor *ct_view_dtype_copy(const ct_tensor *t, ct_dtype dtype);
CT_API ct_tensor *ct_permute_copy(const ct_tensor *t, int ndim, const int *dims);
CT_API ct_tensor *ct_transpose_copy(const ct_tensor *t, int dim0, int dim1);
CT_API ct_tensor *ct_t_copy(const ct_tensor *t);
CT_API ct_tensor *ct_diagonal_copy(const ct_tensor *t, int64_t offset, int dim1, int dim2);
CT_API ct_tensor *ct_expand_copy(const ct_tensor *t, int ndim, const int64_t *sizes);
/* torch's narrow_copy, a op of its own: node NarrowCopyBackward0, and its checks are not
   narrow's: a negative length fails as "start (0) + length (-1) exceeds dimension size (2)."
   (CT_ERR_SHAPE), a dim >= ndim with torch's bare check "Expected dim <
   static_cast<int64_t>(self_sizes.size()) to be true, but got false. ..." (CT_ERR_SHAPE). */
CT_API ct_tensor *ct_narrow_copy(const ct_tensor *t, int dim, int64_t start, int64_t length);
CT_API ct_tensor *ct_select_copy(const ct_tensor *t, int dim, int64_t index);
CT_API ct_tensor *ct_slice_copy(const ct_tensor *t, int dim, int64_t start, int64_t stop, int64_t step);
CT_API ct_tensor *ct_squeeze_copy(const ct_tensor *t, int dim);       /* SqueezeBackward1_copy */
CT_API ct_tensor *ct_squeeze_all_copy(const ct_tensor *t);            /* SqueezeBackward0_copy */
CT_API ct_tensor *ct_squeeze_dims_copy(const ct_tensor *t, int ndim, const int *dims); /* ...2_copy */
CT_API ct_tensor *ct_unsqueeze_copy(const ct_tensor *t, int dim);
CT_API ct_tensor *ct_unfold_copy(const ct_tensor *t, int dim, int64_t size, int64_t step);
/* the copy of ct_alias_view (torch's alias_copy: AliasBackward0_copy) */
CT_API ct_tensor *ct_alias_copy(const ct_tensor *t);
CT_API ct_tensor *ct_as_strided_copy(const ct_tensor *t, int ndim, const int64_t *sizes,
                                     const int64_t *strides, int64_t storage_offset);
/* torch's detach_copy: a copy of t that, unlike detach, stays in the graph: when t requires
   grad the result does too, with torch's node NotImplemented, and backward through it fails
   (CT_ERR_INVALID_ARGUMENT, "derivative for aten::detach_copy is not implemented"). */
CT_API ct_tensor *ct_detach_copy(const ct_tensor *t);
/* Each output i records its own node of torch's name (UnbindBackward0_copy, SplitBackward0_copy,
   SplitWithSizesBackward0_copy) with output i's gradient; torch records one node for all. */
CT_API int64_t ct_unbind_copy(const ct_tensor *t, int dim, ct_tensor **out, int64_t cap);
CT_API int64_t ct_split_copy(const ct_tensor *t, int64_t split_size, int dim, ct_tensor **out,
                             int64_t cap);
CT_API int64_t ct_split_with_sizes_copy(const ct_tensor *t, int64_t n, const int64_t *split_sizes,
                                        int dim, ct_tensor **out, int64_t cap);

/* ---- The split family and other composite views --------------------------------------- */
/* torch's CompositeImplicitAutograd view ops, each as torch composes it from the views above,
   so each result is what those give (same storage, ct_tensor_is_view() == 1, base the root,
   the one version counter of t's family) and records the autograd node torch 2.13 records.
   Arguments are borrowed; every handle returned (or written to out) is a NEW reference.
   Multi-output functions follow the output-array rules of "Multi-output views" above
   (out == NULL asks for the count; cap too small fails with CT_ERR_INVALID_ARGUMENT and
   writes nothing; -1 on any error), but their pieces are ordinary views: each records
   SliceBackward0 and may be written in place like any view (torch's tensor_split is made of
   slices, not of one multi-output node).
   A 0-dim t: CT_ERR_INVALID_ARGUMENT ("tensor_split expected at least a 1-dimensional
   tensor, but got a tensor with 0 dims").  A dim out of range: CT_ERR_INDEX. */
/* `sections` pieces along dim (torch.tensor_split(t, sections, dim)): size % sections of them
   one longer than the others, so pieces may be empty.  sections <= 0: CT_ERR_INVALID_ARGUMENT
   ("number of sections must be larger than 0, got 0"). */
CT_API int64_t ct_tensor_split(const ct_tensor *t, int64_t sections, int dim, ct_tensor **out, int64_t cap);
/* n + 1 pieces cut at indices[0..n-1] along dim: piece i is t[indices[i-1]:indices[i]] with
   Python slice rules (negative indices count from the end; indices are clamped; a piece whose
   end is before its start is empty).  n >= 0; indices may be NULL if n is 0. */
CT_API int64_t ct_tensor_split_indices(const ct_tensor *t, int64_t n, const int64_t *indices, int dim,
                                       ct_tensor **out, int64_t cap);
/* torch.tensor_split(t, tensor, dim): indices_or_sections (borrowed) is an int64 tensor,
   0-dim (a number of sections, as ct_tensor_split) or 1-D (indices, as
   ct_tensor_split_indices; any stride).  Other dtypes or ranks: CT_ERR_INVALID_ARGUMENT with
   torch's messages ("tensor_split expected tensor_indices_or_sections to have dtype of long,
   but got Int"). */
CT_API int64_t ct_tensor_split_tensor(const ct_tensor *t, const ct_tensor *indices_or_sections, int dim,
                                      ct_tensor **out, int64_t cap);
/* torch.hsplit / vsplit / dsplit: tensor_split along dim 1 (dim 0 for a 1-D t), dim 0 and
   dim 2, into `sections` equal pieces or at indices.  t needs at least 1, 2 and 3 dims
   (CT_ERR_INVALID_ARGUMENT, "torch.vsplit requires a tensor with at least 2 dimension, but
   got a tensor with 1 dimensions!"); with sections, the dim's size must be divisible by it
   (CT_ERR_INVALID_ARGUMENT, "torch.hsplit attempted to split along dimension 1, but the size
   of the dimension 3 is not divisible by the split_size 2!"; sections 0 included). */
CT_API int64_t ct_hsplit(const ct_tensor *t, int64_t sections, ct_tensor **out, int64_t cap);
CT_API int64_t ct_vsplit(const ct_tensor *t, int64_t sections, ct_tensor **out, int64_t cap);
CT_API int64_t ct_dsplit(const ct_tensor *t, int64_t sections, ct_tensor **out, int64_t cap);
CT_API int64_t ct_hsplit_indices(const ct_tensor *t, int64_t n, const int64_t *indices, ct_tensor **out,
                                 int64_t cap);
CT_API int64_t ct_vsplit_indices(const ct_tensor *t, int64_t n, const int64_t *indices, ct_tensor **out,
                                 int64_t cap);
CT_API int64_t ct_dsplit_indices(const ct_tensor *t, int64_t n, const int64_t *indices, ct_tensor **out,
                                 int64_t cap);
/* torch's unsafe_split, unsafe_split_with_sizes and unsafe_chunk: the same pieces, with the
   same arguments, checks and messages, as ct_split, ct_split_with_sizes and ct_chunk, on t's
   storage (they SHARE MEMORY with t), but NOT views: ct_tensor_is_view() == 0,
   ct_tensor_base() == NULL, and each has its OWN version counter starting at 0 (torch resets
   it), so writes through them are not counted in t's version.  Their autograd node is
   UnsafeSplitBackward0 (UnsafeSplitWithSizesBackward0 for the sizes form, and for
   ct_unsafe_chunk of an empty dim), and they may be written in place even while autograd is
   involved (torch's "unsafe": the caller promises the graph does not need the values). */
CT_API int64_t ct_unsafe_split(const ct_tensor *t, int64_t split_size, int dim, ct_tensor **out, int64_t cap);
CT_API int64_t ct_unsafe_split_with_sizes(const ct_tensor *t, int64_t n, const int64_t *split_sizes, int dim,
                                          ct_tensor **out, int64_t cap);
CT_API int64_t ct_unsafe_chunk(const ct_tensor *t, int64_t chunks, int dim, ct_tensor **out, int64_t cap);
/* Dim `dim` of t replaced by ndim dims of sizes[0..ndim-1] (one may be -1, inferred): a view
   (as ct_view, ViewBackward0).  Errors: ndim == 0 (CT_ERR_INVALID_ARGUMENT, "unflatten: sizes
   must be non-empty"); sizes whose product is not the dim's size (CT_ERR_INVALID_ARGUMENT,
   "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input
   tensor"); two -1, a size below -1 or a 0-dim t (CT_ERR_INVALID_ARGUMENT, "unflatten got an
   unexpected error:" and infer's reason).  Splitting one dim always has strides: never a copy. */
CT_API ct_tensor *ct_unflatten(const ct_tensor *t, int dim, int ndim, const int64_t *sizes);
/* Moves dims source[i] to positions destination[i] (n pairs, negatives allowed), the other
   dims keeping their order: a view (as ct_permute, PermuteBackward0; on a 0-dim t, an alias
   view, AliasBackward0, as torch).  Errors: a dim out of range (CT_ERR_INDEX), a repeated dim
   (CT_ERR_INVALID_ARGUMENT, "movedim: repeated dim in `source` ([0, 0])").  ct_moveaxis is
   the same function under numpy's name. */
CT_API ct_tensor *ct_movedim(const ct_tensor *t, int n, const int *source, const int *destination);
CT_API ct_tensor *ct_moveaxis(const ct_tensor *t, int n, const int *source, const int *destination);
/* ct_transpose under numpy's names (a view, TransposeBackward0); the in-place forms are
   ct_transpose_ (same rules: they change self's metadata and bump its version). */
CT_API ct_tensor *ct_swapaxes(const ct_tensor *t, int axis0, int axis1);
CT_API ct_tensor *ct_swapdims(const ct_tensor *t, int dim0, int dim1);
CT_API ct_status ct_swapaxes_(ct_tensor *self, int axis0, int axis1);
CT_API ct_status ct_swapdims_(ct_tensor *self, int dim0, int dim1);
/* ct_expand, ct_view and ct_reshape to other's sizes (other is borrowed; only its sizes are
   read): views (ExpandBackward0, ViewBackward0), reshape_as a view when the strides allow one
   and a copy otherwise, with those functions' errors. */
CT_API ct_tensor *ct_expand_as(const ct_tensor *t, const ct_tensor *other);
CT_API ct_tensor *ct_view_as(const ct_tensor *t, const ct_tensor *other);
CT_API ct_tensor *ct_reshape_as(const ct_tensor *t, const ct_tensor *other);
/* torch.broadcast_to: ct_expand (a view with stride 0 on broadcast dims, ExpandBackward0). */
CT_API ct_tensor *ct_broadcast_to(const ct_tensor *t, int ndim, const int64_t *sizes);
/* torch.broadcast_tensors of tensors[0..n-1] (n >= 0): n outputs of the common shape, with
   the output-array rules above.  A tensor already of that shape comes back as itself (a new
   reference to the same tensor, as torch returns the same tensor); the others as
   ct_expand views of it.  Shapes that do not broadcast: CT_ERR_SHAPE ("The size of tensor a
   (4) must match the size of tensor b (3) at non-singleton dimension 2"). */
CT_API int64_t ct_broadcast_tensors(int n, const ct_tensor *const *tensors, ct_tensor **out, int64_t cap);
/* torch.broadcast_shapes of n shapes (shape i: ndims[i] sizes at shapes[i]): writes the
   common shape to out[0..r-1] and returns r, the number of its dims (0 for n == 0); out ==
   NULL only returns r; r > cap fails (CT_ERR_INVALID_ARGUMENT).  -1 on error: a negative size
   where the shape so far has 1 (CT_ERR_INVALID_ARGUMENT, "Attempting to broadcast a dimension
   with negative length!"), sizes that do not broadcast (CT_ERR_SHAPE, torch's "Attempting to
   broadcast a dimension of length 4 at -1! Mismatching argument at index 1 had (4,); but
   expected shape should be broadcastable to [2, 3]"). */
CT_API int ct_broadcast_shapes(int n, const int *ndims, const int64_t *const *shapes, int64_t *out, int cap);
/* t with at least 1, 2 or 3 dims: t itself (a new reference to the same tensor, as torch
   returns self) when it has enough; a 0-dim t as a [1], [1, 1] or [1, 1, 1] view
   (ViewBackward0); a 1-D t of size n as [1, n] / [1, n, 1], a 2-D t [m, n] as [m, n, 1]
   (views, UnsqueezeBackward0). */
CT_API ct_tensor *ct_atleast_1d(const ct_tensor *t);
CT_API ct_tensor *ct_atleast_2d(const ct_tensor *t);
CT_API ct_tensor *ct_atleast_3d(const ct_tensor *t);

/* ---- View when possible, copy otherwise: new reference -------------------------------- */

/* A view (as ct_view) when the strides allow one, else a contiguous copy; one -1 allowed. */
CT_API ct_tensor *ct_reshape(const ct_tensor *t, int ndim, const int64_t *shape);
/* Merges dims start_dim..end_dim into one, as reshape.  start_dim == end_dim returns t itself
   (retained); a 0-dim t becomes 1-D (a view). */
CT_API ct_tensor *ct_flatten(const ct_tensor *t, int start_dim, int end_dim);
/* t itself (retained) if t is contiguous; else a contiguous copy (not a view). */
CT_API ct_tensor *ct_contiguous(const ct_tensor *t);
/* 1 if ct_reshape(t, ndim, shape) would return a view, 0 if a copy, -1 on error. */
CT_API int ct_reshape_is_view(const ct_tensor *t, int ndim, const int64_t *shape);

/* ---- Copies: new reference, NEW storage ----------------------------------------------- */

/* Same values in a new storage, laid out as PyTorch's clone() (preserve_format): with t's
   own strides when t is dense and non-overlapping (e.g. a transpose stays transposed),
   otherwise densely in the order of t's strides (an expanded or stepped t becomes dense).
   ct_contiguous gives C order. */
CT_API ct_tensor *ct_clone(const ct_tensor *t);
/* The entries of t at positions index along dim (index: int64 or int32, 0-D or 1-D).
   CT_ERR_INDEX if an index is outside [0, size) (negative ones too, as in torch). */
CT_API ct_tensor *ct_index_select(const ct_tensor *t, int dim, const ct_tensor *index);
/* t converted to dtype, in new storage laid out as ct_clone; t itself (retained) if it
   already has dtype.  Conversions follow PyTorch on x86: float to integer truncates toward
   zero, through int64 for int64 and through int32 for narrower types (nan and values out of
   that range give INT64_MIN / INT32_MIN, then wrap: nan to int16 is 0), narrowing integers
   wrap, anything to bool is x != 0. */
CT_API ct_tensor *ct_to(const ct_tensor *t, ct_dtype dtype);
/* Rearranging copies: repeat, tile, flip, fliplr, flipud, roll.  Each returns a new reference
   on a NEW storage, even when no element moves (repeat of all ones, flip of no dims, a zero
   shift): the result never shares memory with t.  Arrays are borrowed for the call only; a
   NULL array is allowed when its count is 0; counts outside [0, CT_MAX_DIMS] or a NULL array
   with a positive count give CT_ERR_INVALID_ARGUMENT.  Autograd nodes are torch's
   (RepeatBackward0 for repeat and tile, FlipBackward0 for the flips, RollBackward0).

   ct_repeat: t tiled repeats[i] times along dim i, as torch's Tensor.repeat.  n >= t's ndim
   (t gets leading size-1 dims), else CT_ERR_SHAPE ("Number of dimensions of repeat dims can
   not be smaller than number of dimensions of tensor"); a negative count gives CT_ERR_SHAPE
   ("Trying to create tensor with negative dimension"), a result size overflowing int64
   CT_ERR_SHAPE, one too large to allocate CT_ERR_OUT_OF_MEMORY.  Result in C order. */
CT_API ct_tensor *ct_repeat(const ct_tensor *t, int n, const int64_t *repeats);
/* torch.tile: as ct_repeat, but dims shorter than t's ndim is padded with leading 1s. */
CT_API ct_tensor *ct_tile(const ct_tensor *t, int n, const int64_t *dims);
/* torch.flip: t reversed along each of dims (negative dims count from the end).  Laid out as
   ct_clone.  CT_ERR_INDEX for a dim out of range, CT_ERR_SHAPE for a repeated dim ("dim 0
   appears multiple times in the list of dims").  n == 0 is a plain copy. */
CT_API ct_tensor *ct_flip(const ct_tensor *t, int n, const int64_t *dims);
/* torch.fliplr (flip dim 1; CT_ERR_SHAPE "Input must be >= 2-d.") and torch.flipud (flip dim
   0; CT_ERR_SHAPE "Input must be >= 1-d."). */
CT_API ct_tensor *ct_fliplr(const ct_tensor *t);
CT_API ct_tensor *ct_flipud(const ct_tensor *t);
/* torch.roll: element i along dims[k] moves to (i + shifts[k]) mod size; ndims == 0 with one
   shift rolls the flattened tensor and restores the shape.  Shifts may be any int64 (taken
   modulo the size).  CT_ERR_SHAPE if nshifts == 0 ("`shifts` required") or the counts differ
   ("shifts and dimensions must align"), CT_ERR_INDEX for a dim out of range.  Layout as
   torch 2.13 (dims rolled one after the other, each pass from the previous result): a pass
   whose shift is a multiple of the size gives C order, others the pass input's suggested
   memory format (ct_suggest_memory_format: channels_last when its strides are ordered like
   channels_last, else C order; size-1 dims get the format's strides, not the input's);
   without dims, C order; an empty t gives a copy laid out as ct_clone. */
CT_API ct_tensor *ct_roll(const ct_tensor *t, int nshifts, const int64_t *shifts, int ndims,
                          const int64_t *dims);
/* ---- Masked copies, nonzero, rot90, repeat_interleave (torch 2.13) -----------------------
   Every function returning a handle returns a new reference on a NEW storage (never a view
   of an argument, even when nothing moves); the trailing-underscore forms write self in place,
   keep its storage and bump its version once.  Arguments are borrowed; an optional int is
   passed by pointer (NULL: not given) and read during the call only.  Messages are torch's.
   Autograd nodes are torch's: MaskedSelectBackward0, MaskedFillBackward0 (number value),
   MaskedFillBackward1 (tensor value), MaskedScatterBackward0, Rot90Backward0; repeat_interleave
   records torch's composite graph (int repeats: ViewBackward0 over CloneBackward0;
   tensor repeats: IndexSelectBackward0).

   ct_masked_select: the elements of t where mask is true, t and mask broadcast together, in C
   order, as a 1-D tensor.  CT_ERR_DTYPE unless mask is bool ("masked_select: expected
   BoolTensor for mask"); CT_ERR_SHAPE if they do not broadcast. */
CT_API ct_tensor *ct_masked_select(const ct_tensor *t, const ct_tensor *mask);
/* ct_masked_fill_: value written into self where mask (bool, broadcast to self's shape) is
   true.  value must fit self's dtype (CT_ERR_INVALID_ARGUMENT "value cannot be converted to
   type uint8_t without overflow"); CT_ERR_DTYPE for a non-bool mask ("masked_fill_ only
   supports boolean masks, but got mask with dtype long int"); CT_ERR_SHAPE if mask does not
   broadcast to self; CT_ERR_READ_ONLY for a read-only storage.  An expanded self is allowed
   (each memory location written with the same value), as in torch.
   ct_masked_fill: t and mask broadcast together, copied in C order, then filled.
   The _tensor forms take a 0-dim value tensor of any dtype (CT_ERR_INVALID_ARGUMENT "masked_fill_
   only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s)."). */
CT_API ct_status  ct_masked_fill_(ct_tensor *self, const ct_tensor *mask, double value);
CT_API ct_tensor *ct_masked_fill(const ct_tensor *t, const ct_tensor *mask, double value);
CT_API ct_status  ct_masked_fill_tensor_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *value);
CT_API ct_tensor *ct_masked_fill_tensor(const ct_tensor *t, const ct_tensor *mask, const ct_tensor *value);
/* ct_masked_scatter_: where mask (bool, broadcast to self) is true, self takes the next element
   of source, read in C order.  CT_ERR_DTYPE if source's dtype differs from self's or the mask
   is not bool; CT_ERR_SHAPE if mask does not expand to self; CT_ERR_INVALID_ARGUMENT if source
   has fewer elements than the mask has true entries ("Number of elements of source < number
   of ones in mask"); CT_ERR_OVERLAP if self has internal overlap (an expanded self);
   CT_ERR_READ_ONLY.  Source overlapping self reads source's values from before the write.
   ct_masked_scatter: t and mask broadcast together, copied in C order, then scattered into. */
CT_API ct_status  ct_masked_scatter_(ct_tensor *self, const ct_tensor *mask, const ct_tensor *source);
CT_API ct_tensor *ct_masked_scatter(const ct_tensor *t, const ct_tensor *mask, const ct_tensor *source);
/* torch.nonzero / torch.argwhere (the same result): int64 tensor of sizes (count, ndim), row i
   the index of the i-th non-zero element of t in C order (NaN is non-zero), laid out as torch
   lays it out: column-major, strides (1, count).  A 0-dim t gives (0 or 1, 0).
   nonzero(as_tuple=True) and torch.where(cond) are ct_unbind(result, 1) of this (of t
   unsqueezed to 1-D when t is 0-dim): views of one new storage. */
CT_API ct_tensor *ct_nonzero(const ct_tensor *t);
CT_API ct_tensor *ct_argwhere(const ct_tensor *t);
/* torch.rot90: t rotated k quarter turns (any int64 k, taken modulo 4) in the plane of dims
   (ndims must be 2).  A copy laid out as torch's: k = 0 mod 4 is a C-order copy, 2 is a flip
   of both dims (laid out as ct_clone), 1 and 3 are a flip of one dim whose result has dims[0]
   and dims[1] swapped in its sizes and strides (so non-contiguous; not a view: base NULL).
   CT_ERR_INVALID_ARGUMENT "expected total rotation dims == 2, but got dims = 3", "expected
   total dims >= 2, but got total dims = 1", "expected rotation dims to be different, but got
   dim0 = 0 and dim1 = -2"; CT_ERR_INDEX for a dim out of range. */
CT_API ct_tensor *ct_rot90(const ct_tensor *t, int64_t k, int ndims, const int64_t *dims);
/* torch.repeat_interleave(t, repeats: int, dim, output_size): each element of t repeated
   `repeats` times along *dim, or along the flattened t when dim is NULL.  C order.  As in
   torch, the result is a view (flatten) of a clone made here: a new storage that t does not
   share, with a base (ct_tensor_base) that is that clone, not t.
   CT_ERR_INDEX for a dim out of range; CT_ERR_INVALID_ARGUMENT for a negative repeats
   ("Repeats must be non-negative") or an *output_size other than the result's length
   ("repeat_interleave: Invalid output_size, expected 6 but got 5"). */
CT_API ct_tensor *ct_repeat_interleave(const ct_tensor *t, int64_t repeats, const int64_t *dim,
                                       const int64_t *output_size);
/* The same with a tensor of counts (int64 or int32; 0-dim or 1 element: one count for all,
   else 1-D of t's size along dim): t.index_select(dim, ct_repeat_interleave_repeats(counts)).
   CT_ERR_INVALID_ARGUMENT "repeats must have the same size as input along dim, but got
   repeats.size(0) = 2 and input.size(0) = 12", "repeats must be 0-dim or 1-dim tensor",
   "repeats can not be negative", "allocated size does not match required size" (output_size);
   CT_ERR_DTYPE for other count dtypes ("\"repeat_interleave_cpu\" not implemented for 'Float'"). */
CT_API ct_tensor *ct_repeat_interleave_tensor(const ct_tensor *t, const ct_tensor *repeats, const int64_t *dim,
                                              const int64_t *output_size);
/* torch.repeat_interleave(repeats): for 1-D int64/int32 counts, each index i repeated
   counts[i] times, in the counts' dtype ([1, 2] gives [0, 1, 1]).  Errors as above, and
   "repeat_interleave only accept 1D vector as repeat". */
CT_API ct_tensor *ct_repeat_interleave_repeats(const ct_tensor *repeats, const int64_t *output_size);
/* Writes src into dst's elements, broadcasting src to dst's shape and converting dtype.
   When src and dst overlap, the result is that of copying a clone of src (PyTorch 1.13
   refuses partial overlap with "unsupported operation: some elements of the input tensor and
   the written-to tensor refer to a single memory location"; ctensor computes the unaliased
   answer instead).  Bumps dst's version once.  CT_ERR_SHAPE if src does
   not broadcast; CT_ERR_OVERLAP if dst has a dim of size > 1 with stride 0 (an expanded
   tensor: torch's "unsupported operation: more than one element of the written-to tensor
   refers to a single memory location. ..."); CT_ERR_READ_ONLY if dst's storage is
   read-only.  A dst whose elements otherwise share memory (an unfold window) is written as
   torch writes it, one element after another in torch's iteration order (each location keeps
   the last value written to it); src may then not share dst's memory (CT_ERR_OVERLAP, torch's
   "some elements of the input tensor and the written-to tensor ..."). */
CT_API ct_status ct_copy_(ct_tensor *dst, const ct_tensor *src);

/* ---- Indexed copies: gather, scatter, index_add/copy/fill, take, put, index_put ---------- */
/* torch 2.13's indexed copies.  Every function without a trailing _ returns a new reference
   on a NEW storage (never sharing memory with any argument): gather and take give C order
   with index's sizes; scatter, scatter_value, scatter_add, index_add and index_copy give C
   order with t's sizes; index_fill, put and index_put lay the copy out as ct_clone (torch
   2.13's layouts).  The _
   forms write into self (borrowed), bump its version once, and return CT_OK or an error;
   on any error self is unchanged (every index is checked before the first write).  All
   tensor arguments are borrowed for the call.  Autograd records torch's nodes (named below).

   Common errors, with torch's messages: a dim outside [-ndim, ndim) (0-dim tensors take 0
   and -1) gives CT_ERR_INDEX; an index value out of range gives CT_ERR_INDEX ("index 5 is out
   of bounds for dimension 1 with size 3"); a source dtype other than self's, or an index
   dtype the op refuses, CT_ERR_DTYPE; sizes that do not fit, CT_ERR_SHAPE.  The _ forms also
   give CT_ERR_OVERLAP when self has elements sharing memory (an expanded self; torch only
   warns for index_fill_ and index_put_) or when a source or index shares memory with self
   ("unsupported operation: some elements of the input tensor and the written-to tensor refer
   to a single memory location."), and CT_ERR_READ_ONLY for a read-only self.

   ct_gather: out[p] = t[p with p[dim] replaced by index[p]] (GatherBackward0).  index: int64
   or int32, t's ndim (a 0-dim tensor counts as 1-D), no larger than t apart from dim
   (CT_ERR_SHAPE: "Size does not match at dimension 0 expected index [3, 3] to be no larger
   than self [2, 3] apart from dimension 1").  Runs on several threads for large indexes. */
CT_API ct_tensor *ct_gather(const ct_tensor *t, int dim, const ct_tensor *index);
/* ct_scatter: a copy of t with t[p with p[dim] = index[p]] = src[p] for each position p of
   index (ScatterBackward0).  reduce: NULL for plain writes, "add" or "multiply" to combine
   with the value there (torch's deprecated reduce=; autograd records torch's NotImplemented
   node); anything else is CT_ERR_INVALID_ARGUMENT ("reduce argument must be either add or
   multiply.").  index: int64 or int32, of t's ndim, no larger than t apart from dim nor than
   src anywhere.  Duplicate positions: the last in index's C order wins.
   ct_scatter_value: the same with one number (ScatterBackward1); a value the dtype cannot
   hold is CT_ERR_INVALID_ARGUMENT ("value cannot be converted to type uint8_t without
   overflow").  ct_scatter_add: += src, duplicates add up in order (ScatterAddBackward0). */
CT_API ct_tensor *ct_scatter(const ct_tensor *t, int dim, const ct_tensor *index, const ct_tensor *src,
                             const char *reduce);
CT_API ct_status ct_scatter_(ct_tensor *self, int dim, const ct_tensor *index, const ct_tensor *src,
                             const char *reduce);
CT_API ct_tensor *ct_scatter_value(const ct_tensor *t, int dim, const ct_tensor *index, double value,
                                   const char *reduce);
CT_API ct_status ct_scatter_value_(ct_tensor *self, int dim, const ct_tensor *index, double value,
                                   const char *reduce);
CT_API ct_tensor *ct_scatter_add(const ct_tensor *t, int dim, const ct_tensor *index, const ct_tensor *src);
CT_API ct_status ct_scatter_add_(ct_tensor *self, int dim, const ct_tensor *index, const ct_tensor *src);
/* ct_scatter_reduce: a copy of t (C order, a new storage) with t[p with p[dim] = index[p]]
   combined with src[p] for each position p of index by reduce: "sum", "prod", "mean", "amax"
   or "amin" (NaN propagates for amax/amin; torch's undocumented "max" / "min" are taken as
   amax / amin, and their backward fails as torch's does); anything else, NULL included, is
   CT_ERR_INVALID_ARGUMENT ("reduce argument must be either sum, prod, mean, amax or amin, got
   foo").  include_self non-zero: t's own value takes part; zero: each position written starts
   from the reduction's identity instead (untouched positions keep t's value).  mean divides by
   the number of contributions, flooring for integer dtypes; bool has no mean (CT_ERR_DTYPE,
   torch's "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'").  index,
   shapes, dtypes and messages as ct_scatter's (src of t's dtype: CT_ERR_DTYPE "scatter():
   Expected self.dtype to be equal to src.dtype"; out of range: CT_ERR_INDEX "index 5 is out
   of bounds for dimension 1 with size 3").  Autograd: ScatterReduceBackward0 with torch's
   gradient for all five reductions.  ct_scatter_reduce_: the same into self, in place (one
   version bump; self must not overlap itself, index or src). */
CT_API ct_tensor *ct_scatter_reduce(const ct_tensor *t, int dim, const ct_tensor *index, const ct_tensor *src,
                                    const char *reduce, int include_self);
CT_API ct_status ct_scatter_reduce_(ct_tensor *self, int dim, const ct_tensor *index, const ct_tensor *src,
                                    const char *reduce, int include_self);
/* Whole slices along dim, one per element of a 0-D or 1-D index:
   ct_index_add: t[.., index[i], ..] += alpha * source[.., i, ..] (IndexAddBackward0); index
   int64 or int32 in [0, size); source of t's sizes apart from dim, with index's length there.
   ct_index_copy: the slices replaced by source's (IndexCopyBackward0); index int64 only
   (CT_ERR_DTYPE "index_copy_(): Expected a long tensor for index, but got Int"), in
   [0, size); a count mismatch is CT_ERR_INDEX, as torch's IndexError.
   ct_index_fill: the slices set to value (IndexFillBackward0); index int64 only (CT_ERR_INDEX,
   torch's IndexError "index_fill_(): Expected dtype int64 for index."), in [-size, size)
   (negatives count from the end).  ct_index_fill_tensor: value is a 0-dim tensor converted
   as ct_copy_ converts (IndexFillBackward1; other dims: CT_ERR_INVALID_ARGUMENT). */
CT_API ct_tensor *ct_index_add(const ct_tensor *t, int dim, const ct_tensor *index, const ct_tensor *source,
                               double alpha);
CT_API ct_status ct_index_add_(ct_tensor *self, int dim, const ct_tensor *index, const ct_tensor *source,
                               double alpha);
CT_API ct_tensor *ct_index_copy(const ct_tensor *t, int dim, const ct_tensor *index, const ct_tensor *source);
CT_API ct_status ct_index_copy_(ct_tensor *self, int dim, const ct_tensor *index, const ct_tensor *source);
CT_API ct_tensor *ct_index_fill(const ct_tensor *t, int dim, const ct_tensor *index, double value);
CT_API ct_status ct_index_fill_(ct_tensor *self, int dim, const ct_tensor *index, double value);
CT_API ct_tensor *ct_index_fill_tensor(const ct_tensor *t, int dim, const ct_tensor *index, const ct_tensor *value);
CT_API ct_status ct_index_fill_tensor_(ct_tensor *self, int dim, const ct_tensor *index, const ct_tensor *value);
/* ct_take: t read as if flattened in C order at index (int64 only; negatives count from the
   end; "out of range: tried to access index 7 on a tensor of 6 elements.", CT_ERR_INDEX);
   result has index's sizes (TakeBackward0).  ct_put: a copy of t whose C-order element
   index[i] is source's i-th (C order), or has it added when accumulate is non-zero
   (duplicates add up); index int64, source of t's dtype with index's element count
   (CT_ERR_INDEX otherwise, as torch's IndexError) (PutBackward0). */
CT_API ct_tensor *ct_take(const ct_tensor *t, const ct_tensor *index);
CT_API ct_tensor *ct_put(const ct_tensor *t, const ct_tensor *index, const ct_tensor *source, int accumulate);
CT_API ct_status ct_put_(ct_tensor *self, const ct_tensor *index, const ct_tensor *source, int accumulate);
/* torch's index_put: the n index tensors (int64, int32, or bool/uint8 masks, a k-dim mask
   standing for k index tensors of its true positions; a NULL entry stands for a whole dim, as
   the ':' in t[:, i]) index t's dims from the first; they broadcast together to B (CT_ERR_INDEX
   "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"),
   and values (t's dtype, CT_ERR_DTYPE "Index put requires the source and destination dtypes
   match, ...") broadcasts to the indexing result's sizes (ct_index's; CT_ERR_SHAPE "shape
   mismatch: value tensor of shape [2] cannot be broadcast to indexing result of shape [3]"
   otherwise).  Negative indices count from the end; an index out of range fails with
   CT_ERR_INDEX "index 5 is out of bounds for dimension 0 with size 4", the dimension counted
   among the indexed dims.  accumulate non-zero adds (duplicates add up), otherwise the last
   duplicate in C order wins.  n == 0 (or only NULLs) writes values into all of t.  More
   indexed dims than t has, a mask whose sizes differ from t's, or a 0-dim mask:
   CT_ERR_INDEX / CT_ERR_INVALID_ARGUMENT (IndexPutBackward0).
   ct_index: t[tensors] (advanced indexing's read, torch's aten::index), always a new C-order
   tensor: B in place of the indexed dims when they are adjacent (t of [4, 3, 5], tensors
   {NULL, i} with i of [2]: [4, 2, 5]), else B followed by the dims not indexed; same index
   rules and errors as ct_index_put (IndexBackward0; its gradient adds up at duplicates). */
CT_API ct_tensor *ct_index_put(const ct_tensor *t, int n, const ct_tensor *const *tensors, const ct_tensor *values,
                               int accumulate);
CT_API ct_status ct_index_put_(ct_tensor *self, int n, const ct_tensor *const *tensors, const ct_tensor *values,
                               int accumulate);
CT_API ct_tensor *ct_index(const ct_tensor *t, int n, const ct_tensor *const *tensors);

/* ---- Memory formats ------------------------------------------------------------------- */
/* PyTorch's memory formats: the dim orders a NEW tensor may be laid out in (torch's
   contiguous_format, channels_last, channels_last_3d, preserve_format).  A format is not a
   property of a tensor: it is read off its strides (ct_is_contiguous_format,
   ct_suggest_memory_format) and asked of the functions that make one.  For sizes (N, C, H, W)
   channels-last strides are (H*W*C, 1, W*C, C) (C innermost, then W, H, N); for (N, C, D, H, W)
   channels_last_3d strides are (D*H*W*C, 1, H*W*C, W*C, C).  Channels-last formats need rank 4 /
   rank 5: other ranks fail with CT_ERR_INVALID_ARGUMENT and torch's "required rank 4 tensor to
   use channels_last format" / "required rank 5 tensor to use channels_last_3d format".
   THE PRESERVE RULE (torch's empty_like/clone/to with preserve_format): a t whose elements
   fill their memory without gaps or repeats (any permutation of a contiguous layout, e.g. a
   transpose or a channels-last tensor) gives a result with t's exact strides; any other t
   (sliced, stepped, expanded) gives dense strides in the order of t's strides (ties and
   broadcast dims in C order).  empty_like(zeros(2,3,4).permute(2,0,1)) has strides (1, 12, 4).
   Elementwise results (ct_add, ct_exp, ct_where, ...) are laid out by torch's TensorIterator
   rule: the first input whose strides order two dims decides (a channels-last a + contiguous b
   is channels-last, contiguous a + channels-last b contiguous); when every input has the
   output's shape and all are contiguous, or all channels-last, the output is too.  Reductions
   (ct_sum, ct_amax, ...) give contiguous results, as torch's.  A bad format value is
   CT_ERR_INVALID_ARGUMENT.  The numbers are ABI and never change. */
typedef enum ct_memory_format {
  CT_CONTIGUOUS_FORMAT = 0, /* C order */
  CT_CHANNELS_LAST = 1,     /* 4-d: N, H, W outer to inner, C innermost */
  CT_CHANNELS_LAST_3D = 2,  /* 5-d: N, D, H, W outer to inner, C innermost */
  CT_PRESERVE_FORMAT = 3    /* the preserve rule above; where a layout must be named, as contiguous */
} ct_memory_format;

/* "contiguous_format", "channels_last", "channels_last_3d", "preserve_format" (torch's names
   without "torch.").  Static; NULL (CT_ERR_INVALID_ARGUMENT) for a value outside the enum. */
CT_API const char *ct_memory_format_name(ct_memory_format fmt);
/* torch's t.is_contiguous(memory_format=fmt): 1 if t's strides are exactly fmt's for its sizes,
   size-1 dims ignored (so an (N, C, 1, 1) or (N, 1, 1, 1) tensor may be both contiguous and
   channels-last); a tensor with no elements is contiguous, and channels-last only if its
   strides say so.  Preserve reads as contiguous; channels-last formats give 0 for other ranks.
   -1 on error. */
CT_API int ct_is_contiguous_format(const ct_tensor *t, ct_memory_format fmt);
/* torch's t.suggest_memory_format(): CT_CHANNELS_LAST (4-d) / CT_CHANNELS_LAST_3D (5-d) when
   t's strides order its dims as that format does, gaps allowed (c10's
   is_channels_last_strides_2d/3d: a 0 channel stride, a size-0 dim, or a batch dim whose
   stride equals the channel's, as in N111, give contiguous), else CT_CONTIGUOUS_FORMAT.  An
   int (a ct_memory_format value), so that the error sentinel -1 (a bad handle) is no value
   outside the enum. */
CT_API int ct_suggest_memory_format(const ct_tensor *t);
/* torch's t.contiguous(memory_format=fmt): t itself (retained) if ct_is_contiguous_format(t,
   fmt), else ct_clone_format(t, fmt) (a copy; autograd: CloneBackward0).  Preserve is refused
   only when a copy is needed (CT_ERR_INVALID_ARGUMENT, "preserve memory format is unsupported by
   the contiguous operator").  ct_contiguous(t) is ct_contiguous_format(t, CT_CONTIGUOUS_FORMAT). */
CT_API ct_tensor *ct_contiguous_format(const ct_tensor *t, ct_memory_format fmt);
/* torch's t.clone(memory_format=fmt): a copy on a new storage laid out in fmt (Preserve: the
   preserve rule, as ct_clone).  Autograd: CloneBackward0. */
CT_API ct_tensor *ct_clone_format(const ct_tensor *t, ct_memory_format fmt);
/* torch's t.to(dtype, memory_format=fmt, copy=copy): t itself (retained) when dtype is t's,
   copy is 0, and fmt is Preserve or t's ct_suggest_memory_format (so a transposed 2-d t asked
   for CT_CONTIGUOUS_FORMAT comes back as is, as in torch); else a converted copy on a new
   storage, laid out as ct_empty_like(t, dtype, fmt) (conversions as ct_to).  Autograd:
   ToCopyBackward0. */
CT_API ct_tensor *ct_to_format(const ct_tensor *t, ct_dtype dtype, ct_memory_format fmt, int copy);
/* torch.empty(sizes, memory_format=fmt): uninitialized, new storage, offset 0, as ct_empty but
   with fmt's strides; channels-last strides use the raw sizes (sizes (2, 0, 4, 5) give strides
   (0, 1, 0, 0), as torch); an empty tensor whose channels-last strides would pass int64 is
   refused (CT_ERR_SHAPE, torch's "Stride calculation overflowed"; the same in every function
   that lays a result out channels-last).  Preserve is refused (CT_ERR_INVALID_ARGUMENT,
   "unsupported memory format Preserve"); other errors as ct_empty. */
CT_API ct_tensor *ct_empty_format(int ndim, const int64_t *sizes, ct_dtype dtype, ct_memory_format fmt);
/* torch.empty_strided(sizes, stride): uninitialized, new storage, offset 0, with exactly these
   strides (stride has ndim entries) (repeats and gaps allowed: strides (0, 0) give a one-element storage); the storage
   holds the bytes they reach (none if a size is 0).
   Errors in torch's order: a negative size (CT_ERR_SHAPE), a byte count that overflows,
   negative strides included (CT_ERR_INVALID_ARGUMENT, "Storage size calculation overflowed with
   sizes=[2, 3] and strides=[-1, 1]"), a failed allocation (CT_ERR_OUT_OF_MEMORY).  A negative
   stride that reaches no memory (on a size-1 dim, or in an empty tensor) is replaced as torch
   replaces it: 1 on the last dim, else the next dim's stride times its size. */
CT_API ct_tensor *ct_empty_strided(int ndim, const int64_t *sizes, const int64_t *stride, ct_dtype dtype);
/* torch's empty_like / zeros_like / ones_like / full_like(t, value, dtype=dtype,
   memory_format=fmt): t's sizes, dtype `dtype` (pass ct_tensor_dtype(t) to keep t's), new
   storage, laid out as fmt says (Preserve: the preserve rule above).  Never a view of t, never
   in t's graph.  ct_full_like refuses a value dtype cannot hold, as ct_full. */
CT_API ct_tensor *ct_empty_like(const ct_tensor *t, ct_dtype dtype, ct_memory_format fmt);
CT_API ct_tensor *ct_zeros_like(const ct_tensor *t, ct_dtype dtype, ct_memory_format fmt);
CT_API ct_tensor *ct_ones_like(const ct_tensor *t, ct_dtype dtype, ct_memory_format fmt);
CT_API ct_tensor *ct_full_like(const ct_tensor *t, double value, ct_dtype dtype, ct_memory_format fmt);

/* ---- Introspection: borrowed results; -1 / NULL on a bad handle ------------------------ */

CT_API int ct_tensor_ndim(const ct_tensor *t);
/* Size / stride of dim (negative counts from the end); -1 if dim is out of range. */
CT_API int64_t ct_tensor_size(const ct_tensor *t, int dim);
CT_API int64_t ct_tensor_stride(const ct_tensor *t, int dim);
/* ndim entries, valid while t is alive; never NULL for a valid t (even 0-dim). */
CT_API const int64_t *ct_tensor_sizes(const ct_tensor *t);
CT_API const int64_t *ct_tensor_strides(const ct_tensor *t);
/* Storage offset of element [0,...,0], in elements. */
CT_API int64_t ct_tensor_offset(const ct_tensor *t);
CT_API int64_t ct_tensor_numel(const ct_tensor *t);
/* The dtype; (ct_dtype)-1 on a bad handle. */
CT_API ct_dtype ct_tensor_dtype(const ct_tensor *t);
/* 1 if the elements are laid out in C order without gaps (PyTorch's rule: dims of size 1
   are ignored; a tensor with no elements is contiguous). */
CT_API int ct_tensor_is_contiguous(const ct_tensor *t);
/* Address of element [0,...,0]: storage data + offset * itemsize.  NULL for a tensor with
   no elements or on error.  Valid while t (or any tensor on its storage) is alive. */
CT_API void *ct_tensor_data(const ct_tensor *t);
/* 1 if t was made by a view operation (it has a base), else 0. */
CT_API int ct_tensor_is_view(const ct_tensor *t);
/* New reference to the root tensor t is a view of (PyTorch's ._base), or NULL without an
   error if t is not a view. */
CT_API ct_tensor *ct_tensor_base(const ct_tensor *t);
/* In-place writes through t's family so far: torch's t._version.  The counter belongs to a
   tensor, not to its storage: t, every view of t (and views of those), ct_alias/ct_detach
   share one; ct_data, ct_from_blob, DLPack imports and every new tensor get a fresh one (0),
   even on a shared storage; ct_set_ and ct_set_data keep t's own.  See "Tensor identity".
   -1 with CT_ERR_INVALID_ARGUMENT "Inference tensors do not track version counter." for an
   inference tensor without a counter (see "Autograd: inference mode"). */
CT_API int64_t ct_tensor_version(const ct_tensor *t);
/* References to this tensor object (handles, plus views whose base it is). */
CT_API int64_t ct_tensor_refcount(const ct_tensor *t);
/* New reference to t's storage. */
CT_API ct_storage *ct_tensor_storage(const ct_tensor *t);
/* The id of t's storage: unique in the process, never reused.  0 on error. */
CT_API uint64_t ct_tensor_storage_id(const ct_tensor *t);
/* PyTorch's repr of t ("tensor([1., 2.])", with "ctensor." where torch prints "torch."), under
   the current print options (ct_set_print_option) and default dtype (ct_set_default_dtype).
   Writes at most cap bytes including the terminating NUL (buf may be NULL if cap == 0) and
   returns the length of the whole repr, as snprintf does; -1 on error. */
CT_API int64_t ct_tensor_to_string(const ct_tensor *t, char *buf, int64_t cap);

/* Storage queries: borrowed results; 0 / NULL / -1 on a bad handle. */
CT_API uint64_t ct_storage_id(const ct_storage *s);
/* Start of the storage's bytes (NULL for an empty storage). */
CT_API void *ct_storage_data(const ct_storage *s);
CT_API int64_t ct_storage_nbytes(const ct_storage *s);
/* Tensors plus storage handles holding it. */
CT_API int64_t ct_storage_refcount(const ct_storage *s);
/* 1 if writes through tensors on it are refused (CT_ERR_READ_ONLY). */
CT_API int ct_storage_is_read_only(const ct_storage *s);

/* ---- Memory relations: 1 yes, 0 no, -1 error ------------------------------------------ */

/* Same storage object. */
CT_API int ct_shares_storage(const ct_tensor *a, const ct_tensor *b);
/* The byte ranges spanned by a and b intersect (whatever their storages: two storages may
   wrap the same foreign memory).  Cheap and conservative, as numpy.may_share_memory. */
CT_API int ct_may_overlap(const ct_tensor *a, const ct_tensor *b);
/* Exact: some byte belongs to an element of a and to an element of b, as
   numpy.shares_memory.  -2 (CT_ERR_INVALID_ARGUMENT) if the search bound was hit; the
   answer is then unknown. */
CT_API int ct_overlaps(const ct_tensor *a, const ct_tensor *b);
/* 1 if two different indices of t reach the same memory (e.g. after ct_expand). */
CT_API int ct_has_internal_overlap(const ct_tensor *t);

/* ---- Compute ---------------------------------------------------------------------------- */
/* Out-of-place ops return a NEW reference on a NEW storage (never a view).  In-place ops
   (trailing underscore) write into self, bump its version and return a ct_status.
   Broadcasting and type promotion are PyTorch's: the result dtype is the promotion of the
   operands' dtypes, where a 0-dim tensor only counts if its category (bool < integer <
   floating < complex) is higher than every dimensioned operand's, and a double scalar `s` counts as a
   Python float (integer tensor + scalar -> the default dtype, float32 unless
   ct_set_default_dtype changed it; float16 tensor + scalar -> float16).
   In-place ops refuse (PyTorch's messages): a result dtype self cannot hold (float into an
   integer tensor: CT_ERR_DTYPE), a broadcast shape other than self's (CT_ERR_SHAPE), a self
   with a dim of size > 1 and stride 0 (an expanded tensor: CT_ERR_OVERLAP), a read-only self
   (CT_ERR_READ_ONLY).  A self whose elements otherwise share memory (an unfold window) is
   written as torch writes it, element after element in torch's order, each reading what
   the earlier ones wrote; an input sharing such a self's memory is refused (CT_ERR_OVERLAP).  When an input partially overlaps self (x.add_(x.t())), the result
   equals the computation on unaliased inputs (PyTorch raises an error there instead).
   Results are laid out like the inputs, as PyTorch's TensorIterator does (x.t() + 1 has
   x.t()'s strides).  float16/bfloat16 compute in float32 and round once; as in PyTorch 2.x,
   their mul and div by a scalar (a double, a 0-dim or one-element tensor as b) take it in
   float, unrounded (float16 zeros * 2^40 are 0), while add and sub round it first. */

/* a + b, a - b, a * b, a / b (true division: integer inputs give the default dtype). */
CT_API ct_tensor *ct_add(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_sub(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_mul(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_div(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_add_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_sub_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_mul_(ct_tensor *self, const ct_tensor *other);
CT_API ct_status ct_div_(ct_tensor *self, const ct_tensor *other);
/* torch's add and sub with alpha: a + alpha * b, a - alpha * b, and in place (self += alpha *
   other, the SGD update p.add_(grad, alpha=-lr)), with ct_add's dtypes, broadcasting and
   in-place rules.  Values are torch's kernel's, bit for bit: alpha is converted to the result
   dtype first (a float16 result scales by float16(alpha)); a floating result is one fused
   multiply-add per element, rounded once (a product rounded first, ct_mul_scalar then ct_add,
   differs in the last bit of about one element in ten); integer results wrap; complex ones
   multiply, then add.  float16/bfloat16 fuse in float32, except on strided rows, where torch's
   scalar loop rounds the product to the reduced type first (so does ctensor); the elements
   torch leaves to the scalar tail of a vectorised row (n % 64 of a row on AVX-512 machines)
   may differ from torch's in the last bit.  Errors: an integer or bool result with a non-integral alpha
   (CT_ERR_INVALID_ARGUMENT, "For integral input tensors, argument alpha must not be a
   floating point number."), an alpha the result dtype cannot hold (CT_ERR_INVALID_ARGUMENT,
   "value cannot be converted to type int8_t without overflow"), and ct_add's.  Autograd:
   AddBackward0 / SubBackward0, b's gradient scaled by alpha (by -alpha for sub).  alpha == 1
   is ct_add / ct_sub.  Results are NEW tensors on NEW storage. */
CT_API ct_tensor *ct_add_alpha(const ct_tensor *a, const ct_tensor *b, double alpha);
CT_API ct_tensor *ct_sub_alpha(const ct_tensor *a, const ct_tensor *b, double alpha);
CT_API ct_status ct_add_alpha_(ct_tensor *self, const ct_tensor *other, double alpha);
CT_API ct_status ct_sub_alpha_(ct_tensor *self, const ct_tensor *other, double alpha);
/* With a Python-float scalar operand: a + s, a - s, a * s, a / s, and in place. */
CT_API ct_tensor *ct_add_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_sub_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_mul_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_div_scalar(const ct_tensor *a, double s);
CT_API ct_status ct_add_scalar_(ct_tensor *self, double s);
CT_API ct_status ct_sub_scalar_(ct_tensor *self, double s);
CT_API ct_status ct_mul_scalar_(ct_tensor *self, double s);
CT_API ct_status ct_div_scalar_(ct_tensor *self, double s);
/* s - a and s / a (Python's reflected operators). */
CT_API ct_tensor *ct_rsub_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_rdiv_scalar(const ct_tensor *a, double s);
/* With a Python-complex scalar operand z = re + im*i, the _scalar functions' counterparts:
   a + z, a - z, a * z, a / z, in place, z - a, z / a (torch's __rtruediv__: a.reciprocal() * z).
   z promotes as torch's wrapped complex number: next to an integer or bool tensor it gives the
   default complex dtype (complex64, complex128 when the default dtype is float64); next to a
   floating tensor the complex dtype of its precision (float32 -> complex64, float64 ->
   complex128; float16/bfloat16 -> complex32, which ctensor lacks: CT_ERR_DTYPE); a complex
   tensor keeps its dtype.  z is converted to the result dtype before the op (as torch).
   Complex values are computed as torch 2.13's CPU kernels round them (these functions and
   ct_mul/ct_div alike): a * b is (ac - bd) + (ad + bc)i with each product rounded (torch's
   vectorised loop; with strided operands its scalar loop, fma(a, c, -bd) + fma(a, d, bc)i);
   a / b is c10::complex's division (Smith's algorithm, its a + b*r steps fused
   multiply-adds).  Results equal torch's bit for bit, except possibly in the last bit of the
   elements torch leaves to the scalar tail of a vectorised row (n % 16 for complex64, n % 8
   for complex128), whose rounding ctensor does not reproduce.  The in-place
   forms refuse a real self (CT_ERR_DTYPE, "result type ComplexFloat can't be cast to the
   desired output type Float"), and every other in-place rule above applies.  Autograd as
   ct_add and the others (a real tensor that requires grad takes the real part of its
   gradient, as torch).  Returns a new reference (new storage), or NULL.  torch's out= form
   (torch.add(a, z, out=t)) is this result handed to ct_write_out with CT_OUT_CASTABLE. */
CT_API ct_tensor *ct_add_complex_scalar(const ct_tensor *a, double re, double im);
CT_API ct_tensor *ct_sub_complex_scalar(const ct_tensor *a, double re, double im);
CT_API ct_tensor *ct_mul_complex_scalar(const ct_tensor *a, double re, double im);
CT_API ct_tensor *ct_div_complex_scalar(const ct_tensor *a, double re, double im);
CT_API ct_status ct_add_complex_scalar_(ct_tensor *self, double re, double im);
CT_API ct_status ct_sub_complex_scalar_(ct_tensor *self, double re, double im);
CT_API ct_status ct_mul_complex_scalar_(ct_tensor *self, double re, double im);
CT_API ct_status ct_div_complex_scalar_(ct_tensor *self, double re, double im);
CT_API ct_tensor *ct_rsub_complex_scalar(const ct_tensor *a, double re, double im);
CT_API ct_tensor *ct_rdiv_complex_scalar(const ct_tensor *a, double re, double im);

/* Writes value into every element of self (PyTorch refuses values the dtype cannot hold:
   CT_ERR_INVALID_ARGUMENT).  Bumps the version. */
CT_API ct_status ct_fill_(ct_tensor *self, double value);
/* torch's self.fill_(value) for a 0-dim tensor value (borrowed): value converted to self's
   dtype as ct_copy_ converts (no range check), into every element; bumps the version.  With
   autograd it records FillBackward3: value's gradient is the sum of self's.  Errors:
   CT_ERR_INVALID_ARGUMENT for a value of other dims ("fill_ only supports 0-dimension value
   tensor but got tensor with 1 dimensions."), and as ct_copy_ (a self whose elements share
   memory, a read-only self). */
CT_API ct_status ct_fill_tensor_(ct_tensor *self, const ct_tensor *value);
/* torch's self.fill_(complex(re, im)): the value into every element of a complex self (with
   autograd: FillBackward2, as ct_fill_); a real self takes it when im == 0 (a bool self: true
   for any nonzero value).  Bumps the version.  Errors: CT_ERR_INVALID_ARGUMENT for a real
   self and im != 0 ("value cannot be converted to type float without overflow"), and as
   ct_fill_. */
CT_API ct_status ct_fill_complex_(ct_tensor *self, double re, double im);
CT_API ct_status ct_zero_(ct_tensor *self);

/* Elementwise math.  Integer and bool inputs give the default dtype (ct_get_default_dtype,
   float32 unless changed) for exp/log/sqrt/sin/cos/tanh/
   sigmoid; neg/abs/relu keep the dtype (neg of bool: CT_ERR_DTYPE).  The _ forms write into
   self and refuse a result dtype self cannot hold.  Complex inputs: exp/log/sqrt/sin/cos/
   tanh/sigmoid give the same complex dtype, with the C library's complex functions (torch's
   values bit for bit, branch cuts included); abs gives the real dtype (in place refused, as
   torch); relu refuses ("clamp is not supported for complex types"). */
CT_API ct_tensor *ct_neg(const ct_tensor *a);
CT_API ct_tensor *ct_abs(const ct_tensor *a);
CT_API ct_tensor *ct_exp(const ct_tensor *a);
CT_API ct_tensor *ct_log(const ct_tensor *a);
CT_API ct_tensor *ct_sqrt(const ct_tensor *a);
CT_API ct_tensor *ct_sin(const ct_tensor *a);
CT_API ct_tensor *ct_cos(const ct_tensor *a);
CT_API ct_tensor *ct_tanh(const ct_tensor *a);
CT_API ct_tensor *ct_sigmoid(const ct_tensor *a);
CT_API ct_tensor *ct_relu(const ct_tensor *a);
CT_API ct_status ct_neg_(ct_tensor *self);
CT_API ct_status ct_abs_(ct_tensor *self);
CT_API ct_status ct_exp_(ct_tensor *self);
CT_API ct_status ct_log_(ct_tensor *self);
CT_API ct_status ct_sqrt_(ct_tensor *self);
CT_API ct_status ct_sin_(ct_tensor *self);
CT_API ct_status ct_cos_(ct_tensor *self);
CT_API ct_status ct_tanh_(ct_tensor *self);
CT_API ct_status ct_sigmoid_(ct_tensor *self);
CT_API ct_status ct_relu_(ct_tensor *self);
/* torch.reciprocal, sgn, sign, angle.  reciprocal: 1 / a (integer and bool inputs give the
   default dtype; complex: c10::complex's division 1 / z, torch's values bit for bit); autograd
   ReciprocalBackward0.  sgn: a / |a| for complex (0 where a is 0), rounded as torch's kernel
   rounds it: each part divided by |a| in the vectorised body of a contiguous row, the complex
   division a / (|a| + 0i) in its last n % 16 (complex64) or n % 8 (complex128) elements and
   in strided rows (so an infinite part gives NaN there, as torch); for the other dtypes,
   sign; keeps the dtype; autograd SgnBackward0 (zero for real a).  sign: -1, 0 or 1 in a's dtype, computed as torch's
   (0 < x) - (x < 0), so NaN and -0.0 give 0 and a bool stays itself; a complex a is refused
   (CT_ERR_DTYPE, torch's "Unlike NumPy, torch.sign is not intended to support complex
   numbers. Please use torch.sgn instead."); autograd SignBackward0 (zero).  angle: atan2(im,
   re) of a complex a, in its real dtype (the C library's atan2: within an ulp of torch's,
   which takes SLEEF's); for a real a, pi where a < 0, NaN for NaN, else 0
   (integers and bools give the default dtype); autograd AngleBackward0 (zero for real a).
   Each returns a new reference (new storage) or NULL.  The _ forms write into self (one
   version bump) and refuse a result dtype self cannot hold (CT_ERR_DTYPE, "result type Float
   can't be cast to the desired output type Long" for reciprocal_ of an integer self); torch
   has no angle_. */
CT_API ct_tensor *ct_reciprocal(const ct_tensor *a);
CT_API ct_tensor *ct_sgn(const ct_tensor *a);
CT_API ct_tensor *ct_sign(const ct_tensor *a);
CT_API ct_tensor *ct_angle(const ct_tensor *a);
CT_API ct_status ct_reciprocal_(ct_tensor *self);
CT_API ct_status ct_sgn_(ct_tensor *self);
CT_API ct_status ct_sign_(ct_tensor *self);

/* Comparisons: bool tensors, computed in the promoted dtype, broadcasting. */
CT_API ct_tensor *ct_eq(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_ne(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_lt(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_le(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_gt(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_ge(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_eq_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_ne_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_lt_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_le_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_gt_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_ge_scalar(const ct_tensor *a, double s);
/* a == z and a != z for a Python-complex scalar z = re + im*i (promotion as
   ct_add_complex_scalar; a bool tensor).  Complex tensors support only == and != (ct_lt and the
   others: CT_ERR_DTYPE, "\"lt_cpu\" not implemented for 'ComplexFloat'", as torch). */
CT_API ct_tensor *ct_eq_complex_scalar(const ct_tensor *a, double re, double im);
CT_API ct_tensor *ct_ne_complex_scalar(const ct_tensor *a, double re, double im);
/* cond ? a : b elementwise (cond: bool or uint8), broadcasting all three; promoted dtype. */
CT_API ct_tensor *ct_where(const ct_tensor *cond, const ct_tensor *a, const ct_tensor *b);

/* torch.maximum / torch.minimum (what torch.max(a, b) / torch.min(a, b) mean): elementwise,
   broadcasting, promoted dtype; NaN in either operand gives NaN.  Autograd: MaximumBackward0
   / MinimumBackward0 (where a == b each operand takes half the gradient). */
CT_API ct_tensor *ct_maximum(const ct_tensor *a, const ct_tensor *b);
CT_API ct_tensor *ct_minimum(const ct_tensor *a, const ct_tensor *b);

/* torch.pow: a ** b elementwise, broadcasting, promoted dtype (bool ** bool: CT_ERR_DTYPE,
   torch's "\"pow\" not implemented for 'Bool'").  Integer powers wrap (int8 3 ** 10 is -87),
   0 ** 0 is 1, and a negative integer exponent gives 0 except for bases 1 and -1, as torch's
   tensor ** tensor.  Floating powers are std::pow (a negative base with a fractional exponent
   is NaN).  ct_pow_scalar: a ** e for a Python-float e (an integer tensor gives the default dtype), with
   torch's shortcuts for e = 2, 3, -2 (multiplies), 0.5 (sqrt), -0.5, -1 (reciprocals);
   float16 rounds e to float16 first, as torch 2.13.  ct_pow_int: a ** e for a Python-int e
   (torch's pow(Tensor, int)): an integer tensor keeps its dtype, bool gives int64, a floating
   tensor as ct_pow_scalar; an integer result refuses a negative e (CT_ERR_INVALID_ARGUMENT,
   "Integers to negative integer powers are not allowed.") and an e its dtype cannot hold
   ("value cannot be converted to type int8_t without overflow").  ct_rpow_scalar: base ** a
   for a Python-float base (torch.pow(Scalar, Tensor)).  The _ forms write into self as the
   in-place arithmetic above.  Complex (either operand complex, or a complex scalar through
   the _complex_scalar forms, whose scalar promotes as ct_mul_complex_scalar's): std::pow of
   std::complex (glibc's cpow, as torch's CPU kernel calls it); a scalar exponent takes
   torch's shortcuts (0: ones, 1: a copy, 0.5: sqrt, -0.5, -1: reciprocals, 2, 3, -2:
   multiplies), so 0 ** 0 is 1.  ct_rpow_complex_scalar: z ** a for a Python-complex base z.
   Autograd: PowBackward0 (tensor ** scalar), PowBackward1 (tensor ** tensor), PowBackward2
   (scalar ** tensor), as torch's formulas (for complex values the local derivatives
   conjugated; a zero base's exponent gradient is 0 where the exponent is real and >= 0). */
CT_API ct_tensor *ct_pow(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_pow_(ct_tensor *self, const ct_tensor *exponent);
CT_API ct_tensor *ct_pow_scalar(const ct_tensor *a, double exponent);
CT_API ct_status ct_pow_scalar_(ct_tensor *self, double exponent);
CT_API ct_tensor *ct_pow_int(const ct_tensor *a, int64_t exponent);
CT_API ct_status ct_pow_int_(ct_tensor *self, int64_t exponent);
CT_API ct_tensor *ct_rpow_scalar(const ct_tensor *a, double base);
CT_API ct_tensor *ct_pow_complex_scalar(const ct_tensor *a, double re, double im);
CT_API ct_status ct_pow_complex_scalar_(ct_tensor *self, double re, double im);
CT_API ct_tensor *ct_rpow_complex_scalar(const ct_tensor *a, double re, double im);

/* torch.floor_divide (Python's //), torch.remainder (Python's %, the sign of the divisor) and
   torch.fmod (the sign of the dividend): elementwise, broadcasting, promoted dtype; bool
   operands are refused (CT_ERR_DTYPE, torch's "\"div_floor_cpu\" / \"remainder_cpu\" /
   \"fmod_cpu\" not implemented for 'Bool'").  Integers: -7 // 2 is -4, -7 % 2 is 1,
   fmod(-7, 2) is -1; INT_MIN // -1 wraps to INT_MIN; a zero divisor anywhere is
   CT_ERR_INVALID_ARGUMENT with torch's message "ZeroDivisionError" (an in-place self is then
   left unwritten).  Floats: division by zero gives +-inf / NaN; floor_divide is torch's
   (fmod, then the quotient rounded: 5.0 // 0.1 is 49, as Python).  _scalar: the other
   operand is a Python float; _rfloor_divide_scalar / _rremainder_scalar: s // a and s % a.
   Integer Python scalars go through a 0-dim tensor, as torch's wrapped numbers.  Autograd:
   RemainderBackward0/1 and FmodBackward0/1 (self takes the gradient, other -grad times the
   floor / truncated quotient); floor_divide records torch's "NotImplemented" node, whose
   backward fails with "derivative for aten::floor_divide is not implemented". */
CT_API ct_tensor *ct_floor_divide(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_floor_divide_(ct_tensor *self, const ct_tensor *other);
CT_API ct_tensor *ct_floor_divide_scalar(const ct_tensor *a, double s);
CT_API ct_status ct_floor_divide_scalar_(ct_tensor *self, double s);
CT_API ct_tensor *ct_rfloor_divide_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_remainder(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_remainder_(ct_tensor *self, const ct_tensor *other);
CT_API ct_tensor *ct_remainder_scalar(const ct_tensor *a, double s);
CT_API ct_status ct_remainder_scalar_(ct_tensor *self, double s);
CT_API ct_tensor *ct_rremainder_scalar(const ct_tensor *a, double s);
CT_API ct_tensor *ct_fmod(const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_fmod_(ct_tensor *self, const ct_tensor *other);
CT_API ct_tensor *ct_fmod_scalar(const ct_tensor *a, double s);
CT_API ct_status ct_fmod_scalar_(ct_tensor *self, double s);

/* 1 if same shape and equal values (after promotion), 0 otherwise, -1 on error. */
CT_API int ct_equal(const ct_tensor *a, const ct_tensor *b);
/* torch.isclose(a, b, rtol, atol, equal_nan): a new bool tensor of the broadcast shape (new
   reference, new storage; never requires grad), true where a == b or |a - b| is finite and
   <= atol + |rtol * b|, each term rounded to the dtype as torch computes it; with equal_nan
   != 0 a NaN facing a NaN is close too (a complex value is NaN when either part is).  Zero
   tolerances compare for equality alone.  Complex values compare by |z| of the difference.
   Integers and bools compute the error terms in the default dtype (ct_set_default_dtype), as
   torch.  Errors: a and b of different dtypes (CT_ERR_DTYPE, torch's "Float did not match
   Double"), rtol or atol < 0 (CT_ERR_INVALID_ARGUMENT, "rtol must be greater than or equal to
   zero, but got -1"), shapes that do not broadcast (CT_ERR_SHAPE). */
CT_API ct_tensor *ct_isclose(const ct_tensor *a, const ct_tensor *b, double rtol, double atol, int equal_nan);
/* torch.allclose without equal_nan: 1 if ct_isclose(a, b, rtol, atol, 0) is true everywhere,
   0 if not, -1 on error (ct_isclose's errors). */
CT_API int ct_allclose(const ct_tensor *a, const ct_tensor *b, double rtol, double atol);
/* The value of a one-element tensor, converted to double.  CT_ERR_INVALID_ARGUMENT (with
   PyTorch's message) if numel != 1 or out is NULL. */
CT_API ct_status ct_item(const ct_tensor *t, double *out);

/* Joins n tensors along dim (cat) or along a new dim (stack): copies on a NEW storage,
   promoted dtype.  Layout as torch's: cat's result is laid out in the inputs' common suggested
   memory format (ct_suggest_memory_format; contiguous when one input suggests contiguous or two
   differ, the skipped 1-d empty inputs included), so channels-last inputs give a channels-last
   result.  stack along a dim d < ndim is that cat along d with the dim split in two (the
   strides a view would give; the result is not a view), along the new last dim the cat of the
   inputs unsqueezed there. */
CT_API ct_tensor *ct_cat(int n, const ct_tensor *const *tensors, int dim);
CT_API ct_tensor *ct_stack(int n, const ct_tensor *const *tensors, int dim);

/* Reductions over the ndim dims in dims (ndim 0: over all dims), keeping them as size 1 if
   keepdim.  sum/prod of bool and integer tensors give int64; mean needs a floating dtype
   (float16/bfloat16: the float32 sum divided, then rounded once, as PyTorch 2.x); prod of
   float16/bfloat16 multiplies in that dtype, rounding each product, as PyTorch 2.x; amax/amin
   keep the dtype and refuse empty reductions.  Sums are pairwise, and identical whatever the
   thread count.  argmax/argmin refuse bool (CT_ERR_DTYPE, "argmax(): does not support bool
   input").  Complex tensors: sum/prod/mean keep the dtype (mean divides as torch's complex
   division by N; prod's products as ct_mul's); amax/amin and argmax/argmin refuse them as
   torch ("\"max_values_cpu\" not implemented for 'ComplexFloat'", "argmax(): does not
   support complex input"). */
CT_API ct_tensor *ct_sum(const ct_tensor *t, int ndim, const int *dims, int keepdim);
CT_API ct_tensor *ct_mean(const ct_tensor *t, int ndim, const int *dims, int keepdim);
CT_API ct_tensor *ct_prod(const ct_tensor *t, int ndim, const int *dims, int keepdim);
CT_API ct_tensor *ct_amax(const ct_tensor *t, int ndim, const int *dims, int keepdim);
CT_API ct_tensor *ct_amin(const ct_tensor *t, int ndim, const int *dims, int keepdim);
/* Index (int64) of the first maximum / minimum along dim; the _all forms flatten t first. */
CT_API ct_tensor *ct_argmax(const ct_tensor *t, int dim, int keepdim);
CT_API ct_tensor *ct_argmin(const ct_tensor *t, int dim, int keepdim);
CT_API ct_tensor *ct_argmax_all(const ct_tensor *t);
CT_API ct_tensor *ct_argmin_all(const ct_tensor *t);

/* torch's t.max() / t.min(): the largest / smallest element as a 0-dim tensor of t's dtype
   (NaN if t has one), as ct_amax / ct_amin over every dim.  Autograd: MaxBackward1 /
   MinBackward1, the gradient split evenly among the elements equal to the result (among the
   NaNs when it is NaN).  An empty t: CT_ERR_SHAPE, PyTorch's "max(): Expected reduction dim
   to be specified for input.numel() == 0. ...". */
CT_API ct_tensor *ct_max_all(const ct_tensor *t);
CT_API ct_tensor *ct_min_all(const ct_tensor *t);
/* torch's t.max(dim, keepdim) / t.min(dim, keepdim): returns the values (new reference, as
   ct_amax / ct_amin along dim) and, if indices is not NULL, stores in *indices a new
   reference to the int64 indices of the first maximum / minimum along dim (a NaN counts as
   the maximum and the minimum, as in torch).  *indices is written only on success.  Bool t
   is accepted.  A 0-dim t takes dim 0 or -1 (values: t's value, index 0).  Autograd: the
   values record MaxBackward0 / MinBackward0, which give the gradient to the returned index
   only (one element per reduced row, even at ties).  Errors: dim out of range
   (CT_ERR_INDEX), an empty dim (CT_ERR_INDEX, PyTorch's "max(): Expected reduction dim 1 to
   have non-zero size."). */
CT_API ct_tensor *ct_max_dim(const ct_tensor *t, int dim, int keepdim, ct_tensor **indices);
CT_API ct_tensor *ct_min_dim(const ct_tensor *t, int dim, int keepdim, ct_tensor **indices);

/* Spread over the ndim dims in dims (ndim 0: over all dims), as torch.var / torch.std with
   correction= : sum((x - mean)^2) / max(0, N - correction), N the number of elements reduced
   into each result; std is its square root.  correction 1 is torch's default (Bessel's,
   unbiased=True), 0 the population value (unbiased=False); any real is taken, as torch.
   Computed with Welford's algorithm in double and rounded once to t's dtype, which the
   result keeps (float16/bfloat16 too), so data far from 0 (1e4 + small noise) keep their
   digits.  No degrees of freedom left (N - correction <= 0): nan or inf, as torch (torch
   also warns "std(): degrees of freedom is <= 0. ..."; the C API cannot, the Python
   binding does); an empty reduction gives nan.  Returns a new tensor (new reference; it
   shares no memory with t), or NULL on error: t not floating (CT_ERR_DTYPE, torch's "std
   and var only support floating point and complex dtypes"), a dim out of range
   (CT_ERR_INDEX, "Dimension out of range ..."), a repeated dim (CT_ERR_INVALID_ARGUMENT,
   "dim 0 appears multiple times in the list of dims"), ndim outside [0, CT_MAX_DIMS] or
   dims NULL with ndim > 0 (CT_ERR_INVALID_ARGUMENT).  A complex t gives the real dtype:
   the variances of the real and imaginary parts, added (and its square root for std), as
   torch composes them.  Autograd: VarBackward0 / StdBackward0 (torch's formulas; std's
   gradient is 0 where std is 0; for a complex t, the real gradient's formula with t's
   complex values: 2 (t - mean) / (N - correction) times the gradient, as torch). */
CT_API ct_tensor *ct_var(const ct_tensor *t, int ndim, const int *dims, double correction, int keepdim);
CT_API ct_tensor *ct_std(const ct_tensor *t, int ndim, const int *dims, double correction, int keepdim);
/* torch.var_mean / torch.std_mean: returns the variance / std (new reference, as ct_var /
   ct_std) and, if mean is not NULL, stores in *mean a new reference to the mean (as
   ct_mean); *mean is written only on success.  Errors as ct_var, naming var_mean / std_mean
   ("var_mean only support floating point and complex dtypes").  Autograd: both outputs
   record VarMeanBackward0 / StdMeanBackward0; backward through either or both gives torch's
   gradient. */
CT_API ct_tensor *ct_var_mean(const ct_tensor *t, int ndim, const int *dims, double correction, int keepdim,
                              ct_tensor **mean);
CT_API ct_tensor *ct_std_mean(const ct_tensor *t, int ndim, const int *dims, double correction, int keepdim,
                              ct_tensor **mean);
/* torch.linalg.vector_norm(t, ord, dims, keepdim, dtype=): over the ndim dims in dims (ndim
   0: all dims), ord 2 is sqrt(sum x^2), 1 sum |x|, 0 the number of non-zero elements,
   INFINITY / -INFINITY the largest / smallest |x| (nan propagates), any other p (nan too)
   (sum |x|^p)^(1/p).  torch.norm(t, p) and t.norm(p) for a number p or "fro" are this with
   ord 2.  dtype: -1 keeps t's dtype; else a floating ct_dtype t converts to without narrowing
   (float32 -> float64, not float64 -> float32): t is converted first and the result has it.
   Sums in float for float16/bfloat16 (as torch), pairwise.  Returns a new tensor (new
   reference, sharing no memory with t) or NULL on error: t not floating (CT_ERR_DTYPE,
   "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
   a dtype not floating or narrowing (CT_ERR_DTYPE, torch's texts), an empty reduction for
   ord < 0 or INFINITY, which has no identity (CT_ERR_INVALID_ARGUMENT, "linalg.vector_norm
   cannot compute the inf norm on an empty tensor ..."), dims as ct_var.  A complex t (or
   dtype) gives the norm of |z|, in the real dtype, as torch.  Autograd:
   LinalgVectorNormBackward0 with torch's subgradients (0 where the norm is 0; for ord 0 the
   gradient is 0; for +-INFINITY shared among the elements at the norm); for a complex t the
   same formulas with sgn(z) = z / |z| in place of the sign, as torch. */
CT_API ct_tensor *ct_vector_norm(const ct_tensor *t, double ord, int ndim, const int *dims, int keepdim, int dtype);

/* Matrix product with torch.matmul's rules (1-D dot, 2-D mm, batched with broadcasting of
   the batch dims); a new contiguous tensor.  Operands must have the same dtype; bool is
   refused (CT_ERR_DTYPE); each case checks and words its errors as PyTorch 2.13's kernel for
   it (dot, mv, mm or bmm).  float32/float64/complex64/complex128 use BLAS (cblas_?gemm,
   ?gemv, ?dot; complex 1-D x 1-D is torch.dot's unconjugated ?dotu) without copying operands
   whose strides BLAS accepts (e.g. a transposed view), except float32/float64 products of at
   most 64^3 multiply-adds whose result has at least 2 rows and 2 columns, on CPUs with AVX2
   and FMA: there an own kernel, one fused multiply-add chain per element over k in order,
   spares a small product BLAS's call overhead.  Its values agree with BLAS's to rounding, not
   bit for bit. */
CT_API ct_tensor *ct_matmul(const ct_tensor *a, const ct_tensor *b);
/* torch.vdot: sum(conj(a[i]) * b[i]) of two 1-D tensors (the first argument conjugated; for
   real dtypes the same as the 1-D ct_matmul, with its autograd); a new 0-dim tensor.  Errors
   in torch's order and words: CT_ERR_SHAPE "1D tensors expected, but got 2D and 1D tensors",
   CT_ERR_DTYPE "vdot : expected both vectors to have same dtype, but found ComplexFloat and
   Float", CT_ERR_SHAPE "inconsistent tensor size, expected tensor [3] and src [2] to have the
   same number of elements, ...", CT_ERR_DTYPE "\"dot\" not implemented for 'Bool'". */
CT_API ct_tensor *ct_vdot(const ct_tensor *a, const ct_tensor *b);

/* Random numbers from one process-wide counter-based generator (Philox4x32-10): element i
   of a call is a function of (seed, counter + i), so a seed gives the same values whatever
   the thread count, and each call advances the counter by its element count.  The values
   differ from torch's (another generator); the distributions do not.  Before any
   ct_manual_seed the seed is 67280421310721. */
CT_API void ct_manual_seed(uint64_t seed);
/* Uniform in [0, 1) / standard normal; floating and complex dtypes (CT_ERR_DTYPE otherwise).
   A complex tensor gets, as torch's, independent real and imaginary parts: each uniform in
   [0, 1) (ct_rand), or each normal with variance 1/2 (ct_randn: a standard complex normal). */
CT_API ct_tensor *ct_rand(int ndim, const int64_t *sizes, ct_dtype dtype);
CT_API ct_tensor *ct_randn(int ndim, const int64_t *sizes, ct_dtype dtype);
/* Integers uniform in [low, high); any dtype (bool too, as torch); low < high, and low and
   high - 1 must fit the dtype (CT_ERR_INVALID_ARGUMENT). */
CT_API ct_tensor *ct_randint(int64_t low, int64_t high, int ndim, const int64_t *sizes, ct_dtype dtype);

/* ---- Explain ---------------------------------------------------------------------------- */
/* Everything about a's memory, in words: shape, dtype, storage (id, size in bytes, refcount,
   version, owned or foreign), storage offset, strides, contiguity, memory format (the formats
   its strides match exactly and ct_suggest_memory_format's), data pointer, whether it is
   a view and of what base, whether it reads its storage conjugated or negated (a line
   "conjugate view of storage N: values are read conjugated ..." / "negative view ..."), its
   own refcount, its distinct memory locations and internal overlap.  With b (b may be NULL) also b's, then their relation: same tensor object, same
   storage, base relations, whether their elements overlap (exact, as ct_overlaps) and how
   many elements each has that share a byte with the other's.  That count is exact: memory
   is walked in runs of consecutive elements (a contiguous tensor is one run, a block of rows
   a few, a column one run per element), and a tensor needing more than 2^20 runs gets
   "unknown" instead of a guess.  English text, several lines each ending in '\n'; blocks
   start with "a:", "b:" and "a and b:".  The wording may change between versions: read the
   values through the functions above, not by parsing this text.  a and b are borrowed.
   Writes at most cap bytes including the terminating NUL (buf may be NULL if cap == 0) and
   returns the length of the whole text, as snprintf does.  -1 on error, with
   CT_ERR_INVALID_ARGUMENT: a NULL a, an a or b that is not a live tensor, a negative cap,
   a NULL buf with cap > 0. */
CT_API int64_t ct_explain(const ct_tensor *a, const ct_tensor *b, char *buf, int64_t cap);

/* ---- Autograd ----------------------------------------------------------------------------- */
/* Reverse-mode automatic differentiation with PyTorch 2.13's semantics.
   - A floating tensor may REQUIRE GRAD.  A tensor the user marked is a LEAF; a result of an
     op recorded while grad mode is on and some input requires grad has a GRAD_FN (a node of
     the backward graph, named as torch names it: "MulBackward0", "CopySlices", ...) and
     is not a leaf.  Results of ops on tensors that do not require grad, and every result
     under grad mode off (ct_set_grad_enabled(0), torch.no_grad()), have no graph.
   - ct_backward(t) runs the graph from t; each leaf that requires grad accumulates (adds)
     its gradient into its .grad (ct_grad), which has the leaf's sizes and dtype.  Gradients
     of broadcast operands are summed back to their shapes; a gradient takes its input's
     dtype.  Non-leaf tensors do not keep a grad.  A leaf's first .grad is, as in torch, the
     incoming gradient itself (sharing its storage and version counter) when no other handle
     holds it and its strides match the leaf's (torch's layout contract), else a copy with the
     leaf's strides (contiguous for a leaf that overlaps itself).  So .grad may share memory
     with a gradient the caller passed: the pieces cat's backward cuts from it, for one.
   - Ops keep (saved tensors) what backward needs, sharing storage with the originals: an
     input as the tensor itself, as torch's SavedVariable does, so backward reads what it
     holds by then (after ct_set_data, the new data); an output as an alias without history.
     An in-place write to a saved tensor makes backward fail with torch's message (the
     storage version is checked).  Without retain_graph, backward frees them: a second backward
     through a node that needed them fails.
   - In-place ops (ct_add_, ct_copy_, ct_fill_, ...) on a tensor with history replace its
     grad_fn; through a view of such a tensor, the base's grad_fn becomes "CopySlices" and
     the view's "AsStridedBackward0", so `x[0] = y` style writes differentiate as in torch.
     They refuse (CT_ERR_INVALID_ARGUMENT, torch's messages): a leaf that requires grad, a
     view of one, and a view of a floating tensor taken with grad mode off (or a view of
     such a view) once the write would be recorded, whether or not its base requires grad;
     such a view whose base was so written is refused when next used, as in torch.
   - The graph adds no reference cycles of its own: releasing the last handle of every
     output frees it (ct_live_tensors() returns to where it was); for the cycles a program
     can make through it, see "Reference cycles" below.
   - Complex tensors may require grad, as in torch: for a real loss L, z.grad is
     dL/d(re z) + i dL/d(im z) (torch's convention; L = sum(|z|^2) gives 2z), each formula
     the real one with the local derivative conjugated (mul: grad * conj(other)).  A real
     input of an op with a complex result takes the real part of its gradient (x * 1j gives
     x a real grad).  ct_conj records ConjBackward0 and its gradient is a lazy conj view, so
     a leaf's grad carries the conj bit exactly when torch's does (ct_tensor_is_conj);
     gradients carry no other math bits.  Ops with a complex formula: add, sub, mul, div (with
     tensors and complex scalars), neg, abs, sum, mean, prod, matmul, vdot, the views (conj, neg
     view, view_as_real, view_as_complex, real, imag and the generic ones), clone, to,
     copy_, fill_, zero_, cat, stack, flip, roll, repeat, rot90, exp, log, sqrt, sin, cos,
     tanh, sigmoid, var, std, var_mean, std_mean, vector_norm, cumsum, cumprod and the
     indexing, mask and scatter ops.  scatter_reduce, which torch does not differentiate for
     complex either, refuses a complex tensor in a graph when it would record, with torch's
     message (CT_ERR_INVALID_ARGUMENT, "scatter_reduce does not support automatic
     differentiation for outputs with complex dtype."), before an in-place op writes anything.
   - Tensor hooks (ct_tensor_register_hook) and custom ops with a backward written by the
     caller (ct_custom_op_apply): torch's Tensor.register_hook and autograd.Function.
   - ct_autograd_grad and ct_autograd_backward: torch's autograd.grad and backward with several
     roots, inputs and create_graph (higher-order gradients).  create_graph records the backward
     of: add, sub, mul, div, neg, abs, exp, log, sqrt, sin, cos, tanh, sigmoid, relu, reciprocal,
     sgn, sign, angle, pow, where, fill_, zero_, copy_, cat, stack, sum, mean, matmul/mm/mv/dot,
     vdot, every view (and writes through views: CopySlices), clone, contiguous, to, conj, neg view,
     conj_physical, view_as_real/complex, real, imag, maximum, minimum, amax, amin, max, min, var,
     std, var_mean, std_mean, vector_norm, flip, roll, repeat, tile, cumsum, clamp (all forms),
     index_select, gather, advanced indexing (index), prod of an input without zeros.  Another
     node's gradient under create_graph gets a node whose backward fails ("derivative for
     CumprodBackward0 is not implemented"): prod of an input with a zero, cumprod, sort, topk,
     max(dim), the scatter/index_put/mask family, and custom ops applied without
     CT_CUSTOM_DIFFERENTIABLE_BACKWARD (with it, what their backward computes is recorded).  In-place forms are covered as the ops (they save a recorded copy of self's old
     values when the formula reads them).
   - Not supported: node hooks (grad_fn.register_hook), post-accumulate-grad hooks,
     anomaly detection.
   Errors that torch raises as RuntimeError are CT_ERR_INVALID_ARGUMENT unless stated.
   Messages are torch's, with "ctensor." where torch prints "torch." (ctensor.FloatTensor,
   ctensor.Size).
   Threads: grad mode is per thread.  Autograd state changes on one tensor (set requires
   grad, set grad, backward accumulating into it, in-place ops rebasing its history) from two
   threads at once are a data race, as in torch; so is a backward on a graph while another
   thread records ops on the same tensors.  Graphs of disjoint tensors may be used from
   different threads at once.
   Reference cycles: as in torch, a graph node keeps the leaves it accumulates into alive, so
   a tensor whose own graph reaches it is never freed: an in-place write a op= b (ct_copy_,
   ct_add_, ...) from a b that requires grad and holds a (a view of a made to require grad,
   or a tensor imported from a DLPack export of a), or a grad that holds its tensor (see
   ct_set_grad).  torch leaks the same tensors in the same cases. */

/* Marks t as requiring grad (requires_grad != 0) or not: torch's t.requires_grad_(flag).
   Floating and complex tensors may.  Errors: CT_ERR_DTYPE for another dtype ("only Tensors
   of floating point dtype can require gradients", torch's text); CT_ERR_INVALID_ARGUMENT when clearing the flag of a non-leaf ("you
   can only change requires_grad flags of leaf variables. ...").  Setting it on a non-leaf,
   which already requires grad, does nothing. */
CT_API ct_status ct_set_requires_grad(ct_tensor *t, int requires_grad);
/* 1 if t requires grad (a marked leaf, a tensor with a grad_fn, or a view of a tensor that
   requires grad), 0 if not, -1 on a bad handle. */
CT_API int ct_requires_grad(const ct_tensor *t);
/* 1 if t has no grad_fn (torch's is_leaf: also true of tensors that do not require grad),
   0 if it has one, -1 on error. */
CT_API int ct_is_leaf(const ct_tensor *t);
/* New reference to t's accumulated gradient (torch's t.grad), or NULL WITHOUT an error when
   t has none (never ran backward, non-leaf, cleared).  The grad is an ordinary tensor: later
   backward calls add into it in place, so a handle taken before sees them. */
CT_API ct_tensor *ct_grad(const ct_tensor *t);
/* t.grad = grad: grad (borrowed; t keeps its own reference to that same tensor, which later
   backward calls add into) or NULL to clear it (t.grad = None).  Errors: grad == t
   (CT_ERR_INVALID_ARGUMENT, "can't assign Variable as its own grad"), a dtype other than
   t's (CT_ERR_DTYPE, "attempting to assign a gradient with dtype 'double' to a tensor with
   grad_dtype 'Float'. ..."), other sizes (CT_ERR_SHAPE, "attempting to assign a gradient of
   size '[2]' to a tensor of size '[3, 4]'. ..."): torch 2.13's texts.  As in torch, a grad that
   holds t alive (a view of t, a result computed from t that records a graph such as
   ct_clone(t) of a t that requires grad, or a tensor whose grad is t) makes a reference
   cycle: neither is freed until the grad is cleared. */
CT_API ct_status ct_set_grad(ct_tensor *t, const ct_tensor *grad);
/* Runs backward from t (torch's t.backward(grad, retain_graph)): the gradient of every leaf
   t depends on is added into its grad.  grad (borrowed) has t's sizes (converted to t's
   dtype); NULL means 1 and needs a one-element real t.  With retain_graph == 0 the saved tensors
   of the graph are freed.  Runs with grad mode off, on the calling thread.  Errors
   (CT_ERR_INVALID_ARGUMENT unless stated): t does not require grad ("element 0 of tensors
   does not require grad and does not have a grad_fn"); grad NULL with t not one element
   ("grad can be implicitly created only for scalar outputs"); grad NULL with a complex t
   ("grad can be implicitly created only for real scalar outputs but got torch.complex64");
   a real grad for a complex t or the reverse (CT_ERR_DTYPE, "For complex Tensors, both
   grad_output and output are required to have the same dtype. ..."); grad of other sizes
   (CT_ERR_SHAPE, "Mismatch in shape: grad_output[0] has a shape of ctensor.Size([2]) and
   output[0] has a shape of ctensor.Size([3])."); a saved tensor written in place since
   ("one of the variables needed for gradient computation has been modified by an inplace
   operation: [ctensor.FloatTensor [3]], which is output 0 of Exp, is at version 1; expected
   version 0 instead. Hint: ..."); a second backward through freed saved tensors
   ("Trying to backward through the graph a second time ...").  Gradients accumulated
   before an error stay. */
CT_API ct_status ct_backward(ct_tensor *t, const ct_tensor *grad, int retain_graph);
/* torch.autograd.grad: the gradients of outputs[0..n_outputs) with respect to
   inputs[0..n_inputs), written to results[j] (a new reference, or NULL for an input no
   gradient reached when allow_unused != 0).  grad_outputs may be NULL, and any entry may be
   NULL: an implicit 1 for a one-element real output (torch's rules), else each has its output's
   sizes.  Inputs may be leaves or not: the gradient is the one reaching the input (its grad_fn's
   output, or its leaf's accumulator), captured there; no tensor's grad (ct_grad) changes, and only
   the part of the graph leading to the inputs runs.  retain_graph == 0 frees the saved tensors of
   the nodes that ran.  create_graph != 0 records the backward computation itself (torch's
   create_graph): the results have a grad_fn when they depend on a tensor that requires grad, so
   they can be differentiated again.  A node without a differentiable formula gives results whose
   backward fails ("derivative for CumprodBackward0 is not implemented"), never a silently wrong
   higher derivative.  The results may share memory with grad_outputs (torch returns the gradient
   tensor it computed, e.g. the grad_output itself through an add).  No outputs (n_outputs == 0,
   outputs may be NULL) is torch's grad((), inputs): nothing runs and every input is unused.  Errors
   (CT_ERR_INVALID_ARGUMENT unless stated; torch's messages): n_inputs == 0 ("`inputs` argument to
   `grad()` cannot be empty."); an output that does not require grad ("element 1 of tensors does
   not require grad and does not have a grad_fn"); an input that does not ("One of the
   differentiated Tensors does not require grad"); an input not reached without allow_unused ("The
   differentiated Tensor at index 1 appears to not have been used in the graph. Set
   allow_unused=True if this is the desired behavior.", torch 2.13's); grad_outputs as for ct_backward, naming the index
   ("Mismatch in shape: grad_output[1] has a shape of ...", CT_ERR_SHAPE; dtype: CT_ERR_DTYPE);
   NULL outputs, inputs or results, or a NULL entry in outputs or inputs.  On error every
   results[j] is NULL. */
CT_API ct_status ct_autograd_grad(const ct_tensor *const *outputs, int64_t n_outputs,
                                  const ct_tensor *const *grad_outputs, const ct_tensor *const *inputs,
                                  int64_t n_inputs, int retain_graph, int create_graph, int allow_unused,
                                  ct_tensor **results);
/* torch.autograd.backward: one backward from tensors[0..n_tensors) with grad_tensors (NULL, or
   NULL entries: as ct_autograd_grad's grad_outputs).  n_inputs == 0 (inputs may be NULL): every
   leaf accumulates into its grad, as ct_backward.  Else only inputs accumulate (torch's
   backward(inputs=...)): a leaf into its grad, a non-leaf input is made to retain its grad
   (ct_retain_grad) and takes the gradient that reaches it; only the part of the graph leading to
   them runs.  create_graph != 0 records the backward computation (see ct_autograd_grad): a leaf's
   grad is then a result with a grad_fn (torch's: a first grad is a copy, "CopyBackwards", a
   later one grad + new, "AddBackward0"), which holds the graph, and so the leaf, alive until the
   grad is cleared (torch's reference cycle).  n_tensors == 0 does nothing, as torch's
   backward(()).  Errors: as ct_backward and ct_autograd_grad. */
CT_API ct_status ct_autograd_backward(const ct_tensor *const *tensors, int64_t n_tensors,
                                      const ct_tensor *const *grad_tensors, const ct_tensor *const *inputs,
                                      int64_t n_inputs, int retain_graph, int create_graph);
/* torch's t.retain_grad(): a non-leaf t keeps the gradient that reaches it in backward, as
   its grad (ct_grad), summed over backward calls (out of place: each backward gives t a new
   grad tensor).  An in-place op that rebases t's history keeps the registration, also a
   write through a view of t that makes t's grad_fn CopySlices (torch 2.x).  Does nothing
   for a leaf.  CT_ERR_INVALID_ARGUMENT if t does not require grad ("can't
   retain_grad on Tensor that has requires_grad=False"). */
CT_API ct_status ct_retain_grad(ct_tensor *t);
/* 1 if t is a non-leaf on which ct_retain_grad was called (torch's t.retains_grad), 0 if not,
   -1 on error. */
CT_API int ct_retains_grad(const ct_tensor *t);
/* torch's t.detach(): new reference to a tensor sharing t's storage, metadata and version
   counter, with no graph and requires_grad 0; not a view.  The same as ct_alias. */
CT_API ct_tensor *ct_detach(const ct_tensor *t);
/* The name of t's grad_fn as torch prints it ("AddBackward0", "CopySlices", ...,
   "MyOpBackward" for a custom op): a static string, never freed.  NULL WITHOUT an error for a tensor without one (a leaf); NULL with an
   error on a bad handle or when t is a view taken in grad-mode-off whose base was modified
   in place since (torch's message). */
CT_API const char *ct_grad_fn_name(const ct_tensor *t);
/* Turns grad mode on (enabled != 0) or off for the calling thread and returns the previous
   state (1/0), so that a binding can restore it: torch.no_grad() / set_grad_enabled.  New
   threads start with grad mode on. */
CT_API int ct_set_grad_enabled(int enabled);
/* 1 if grad mode is on for the calling thread, else 0. */
CT_API int ct_is_grad_enabled(void);

/* ---- Autograd: inference mode ----------------------------------------------------------- */
/* torch's inference_mode (c10::InferenceMode), thread-local, off in new threads.
   - ct_set_inference_mode(enabled) sets inference mode to enabled AND grad mode to !enabled,
     as torch's guard: ct_set_inference_mode(0) (torch.inference_mode(False)) turns grad mode
     ON.  It returns the previous state of both, bit 0 (1) inference mode, bit 1 (2) grad
     mode; ct_restore_inference_mode(state) puts both back, so nesting works like torch's:
       int prev = ct_set_inference_mode(1);  ...  ct_restore_inference_mode(prev);
     ct_set_grad_enabled inside inference mode changes only grad mode (torch's enable_grad),
     and no op records a graph in inference mode even with grad mode on (torch leaves
     autograd out entirely there): no grad_fn, no in-place checks.
   - A tensor created in inference mode is an INFERENCE tensor (ct_tensor_is_inference).  It
     has no version counter: ct_tensor_version fails with "Inference tensors do not track
     version counter.".  Views of it (ct_view ... ct_alias_view, complex and real views,
     taken inside or outside) are inference tensors without a counter and are NOT views:
     ct_tensor_is_view 0, base NULL, no autograd view tracking.  ct_alias/ct_detach and
     ct_data of it are inference tensors, with a fresh counter (0) outside inference mode and
     none inside; ct_view_dtype of it outside is a normal tensor with a fresh counter.
   - Outside inference mode, an in-place write (every op that bumps a version, metadata ops
     such as ct_t_ and ct_set_ included) to an inference tensor without a counter fails with
     "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a
     clone to get a normal tensor before doing inplace update.See
     https://github.com/pytorch/rfcs/pull/17 for more details." AFTER writing, as torch does
     (the data or metadata has changed).  Inside, writes to inference tensors bump nothing.
   - ct_set_requires_grad(t, 1) on an inference tensor outside inference mode fails with
     "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
     (after the dtype check).  An op that must save an inference tensor for backward fails
     with "Inference tensors cannot be saved for backward. Please do not use Tensors created
     in inference mode in computation tracked by autograd. To work around this, you can make
     a clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead
     of `torch.inference_mode()`.".
   - ct_clone, ct_contiguous (when it copies) and ct_to (another dtype) of an inference tensor
     outside inference mode give a normal tensor at version 1 (torch fills it with copy_), as
     do ct_clone_format, ct_contiguous_format and ct_to_format.  Other ops on inference
     tensors outside give normal tensors at version 0.
   - ct_set_data(self, new_data) gives self new_data's inference state and keeps self's
     counter, as torch's `self.data = new_data`: self can become an inference tensor with a
     counter, or a normal tensor without one (whose version and in-place writes outside
     inference mode then fail as above).
   - Tensors created outside stay normal: their views, ct_alias and ct_data taken inside are
     normal, share (views, alias) their counter, and in-place writes there bump it.  A view
     of a floating normal tensor taken inside may not be written in place outside once the
     write would be recorded: "A view was created in inference mode and is being modified
     inplace in normal mode. ..." (torch's message, like the no_grad one).
   Every failure is CT_ERR_INVALID_ARGUMENT (torch: RuntimeError). */
/* See above; returns the previous state (0..3). */
CT_API int ct_set_inference_mode(int enabled);
/* Restores both modes from a state returned by ct_set_inference_mode.  CT_ERR_INVALID_ARGUMENT
   if state is not in 0..3. */
CT_API ct_status ct_restore_inference_mode(int state);
/* 1 if inference mode is on for the calling thread, else 0 (torch.is_inference_mode_enabled). */
CT_API int ct_is_inference_mode_enabled(void);
/* 1 if t is an inference tensor (torch's t.is_inference()), 0 if not, -1 on a bad handle. */
CT_API int ct_tensor_is_inference(const ct_tensor *t);

/* ---- Autograd: tensor hooks ------------------------------------------------------------ */
/* torch's Tensor.register_hook.  A hook is called during backward with the gradient computed
   for its tensor: for a non-leaf when the gradient of the tensor is complete (before its
   grad_fn runs), for a leaf before the gradient is accumulated into its grad.  It runs on the
   thread that called ct_backward, with grad mode off, and may call any ctensor function
   (except ct_backward on the same graph) but must not release the tensors backward uses.
   Several hooks of a tensor run in registration order, each seeing the previous one's
   result; ct_retain_grad stores the gradient after the hooks.  Hooks registered on a
   tensor before an in-place op changed its grad_fn keep firing with the gradient of the
   old value; later ones get the new value's (torch 2.x).
   The hook gets the gradient borrowed (valid during the call; do not modify it in place)
   and either leaves *replacement NULL (keep the gradient) or stores a NEW REFERENCE there,
   with the gradient's sizes and dtype, which replaces it (ctensor takes that reference).
   It returns CT_OK, or a failure status after ct_set_error(status, message): backward then
   stops and fails with that status and message (a replacement is released).  A replacement
   of other sizes or dtype fails backward (CT_ERR_INVALID_ARGUMENT, "hook has changed the size
   of value (was [3] got [2])", "hook has changed the type of value (was
   ctensor.FloatTensor got ctensor.DoubleTensor)"). */
typedef ct_status (*ct_tensor_hook_fn)(void *user_data, const ct_tensor *grad, ct_tensor **replacement);
/* Identifies a registered hook; owned by the caller, freed by ct_hook_handle_release. */
typedef struct ct_hook_handle ct_hook_handle;
/* Registers fn(user_data, ...) as a hook of t (borrowed).  release (may be NULL) is called
   exactly once with user_data when the hook can no longer run: when it is removed
   (ct_hook_remove), or when the tensor and the graph nodes that could call it are all freed
   (a non-leaf's hook lives on with its grad_fn while later nodes of the graph hold it, as
   torch's do), or at once if registration fails.  A user_data that owns t (or a tensor whose
   graph reaches t) makes a reference cycle: neither is ever freed.  *handle (handle may be NULL: no handle)
   receives a new handle, or NULL on failure.  Errors: a NULL t or fn
   (CT_ERR_INVALID_ARGUMENT), t does not require grad (CT_ERR_INVALID_ARGUMENT, torch's "cannot
   register a hook on a tensor that doesn't require gradient"). */
CT_API ct_status ct_tensor_register_hook(ct_tensor *t, ct_tensor_hook_fn fn, void *user_data,
                                         void (*release)(void *user_data), ct_hook_handle **handle);
/* Removes the hook (torch's RemovableHandle.remove()): it is not called again, and its
   release runs now, or once a call of it in progress returns.  Removing twice, or a hook
   whose tensor and nodes are gone, does nothing.  CT_ERR_INVALID_ARGUMENT for a NULL h. */
CT_API ct_status ct_hook_remove(ct_hook_handle *h);
/* A process-unique number of the hook (torch's RemovableHandle.id is per process too);
   -1 (CT_ERR_INVALID_ARGUMENT) for a NULL h. */
CT_API int64_t ct_hook_id(const ct_hook_handle *h);
/* Frees the handle; the hook stays registered (as a RemovableHandle going out of scope).
   NULL is a no-op. */
CT_API void ct_hook_handle_release(ct_hook_handle *h);

/* ---- Autograd: custom ops -------------------------------------------------------------- */
/* torch.autograd.Function in C: the caller computes the outputs of an op itself (normally
   with grad mode off, so that they have no history) and gives its backward as a callback.
   The backward gets one gradient per output (borrowed; NULL for an output no gradient
   reached when zeros are not materialized; it is called also when no gradient reached any
   output, e.g. the next op's backward returned none for it, as torch calls it) and stores in
   grad_inputs[i] a NEW REFERENCE to the gradient of input i, or leaves it NULL (no gradient;
   ignored for inputs that do not require grad).  The input's sizes must be expandable to a
   gradient's (a broadcast gradient is summed to them, and converted to the input's dtype, as
   torch), else backward fails with
   CT_ERR_INVALID_ARGUMENT, torch's "Function MyOpBackward returned an invalid gradient at
   index 0 - got [2] but expected shape compatible with [3]".  It returns CT_OK, or a failure
   status after ct_set_error: backward then fails with them (grad_inputs stored are
   released).  It runs on the backward thread with grad mode off (on under create_graph for
   an op applied with CT_CUSTOM_DIFFERENTIABLE_BACKWARD; see the hooks above for what it may
   call).  Without retain_graph a second backward through the op still calls
   it: ctensor cannot know what user_data saved. */
typedef ct_status (*ct_custom_backward_fn)(void *user_data, int n_outputs, const ct_tensor *const *grad_outputs,
                                           int n_inputs, ct_tensor **grad_inputs);
/* Per-output flags of ct_custom_op_apply.  Values are ABI. */
typedef enum ct_custom_output_flag {
  CT_CUSTOM_NON_DIFFERENTIABLE = 1, /* ctx.mark_non_differentiable: no grad_fn, requires_grad 0 */
  CT_CUSTOM_DIRTY = 2,              /* ctx.mark_dirty: the output IS an input forward wrote in place */
  /* On any output: the op's backward is itself differentiable (torch's default for a Python
     Function).  Under create_graph it runs with grad mode on, and the gradients it returns keep
     the history of the ctensor ops it computed them with, so a second backward goes through
     them.  Without it (torch's once_differentiable) backward always runs with grad mode off
     and, under create_graph, the gradients it gives fail the next backward with
     "derivative for MyOpBackward is not implemented", never a silent zero.  Set it only when
     backward computes its results with ctensor ops from grad_outputs and from tensors that
     keep their history (the inputs themselves, not ct_detach'ed copies or raw buffers). */
  CT_CUSTOM_DIFFERENTIABLE_BACKWARD = 4
} ct_custom_output_flag;
/* Makes outputs (borrowed handles, kept: their autograd state changes) the results of a
   custom op of inputs: when grad mode is on and an input requires grad, every differentiable
   output (floating or complex, not flagged CT_CUSTOM_NON_DIFFERENTIABLE) gets one node named
   name + "Backward" ("MyOp" gives "MyOpBackward", as torch names a Python Function's) as
   grad_fn, which calls backward(user_data, ...) and sends its gradients to the inputs.  An
   output flagged CT_CUSTOM_DIRTY must be one of the inputs (forward modified it in place):
   its history is rebased on the node as an in-place op's (torch's in-place rules and
   messages apply: a leaf that requires grad is refused; a view must be input 0 and output
   0), and its version is bumped once more (torch's mark_dirty), recorded or not.  Every
   other output that is a view (floating or complex), recorded or not, may then not be
   written in place (torch's CreationMeta::IN_CUSTOM_FUNCTION, or MULTI_OUTPUT_NODE when the
   recorded node has several differentiable outputs; torch's messages: "Output 0 of MyOp is a
   view and is being modified inplace. This view was created inside a custom Function (or
   because an input was returned as-is) ...").
   materialize_grads != 0 gives backward zeros for outputs no gradient reached (torch's
   default), 0 gives NULL (ctx.set_materialize_grads(False)).  Complex inputs and outputs are
   accepted: backward's formula is the caller's (torch's conjugate Wirtinger convention is
   what the built-in nodes around it expect).  output_flags may be NULL (all
   0).  With grad mode off or no input requiring grad nothing is recorded.  release (may be
   NULL) is called exactly once with user_data: when the node is freed (with the last output
   and later node that holds it), at once when nothing was recorded, or on failure.  user_data
   must not own an output (a reference cycle through the node: keep ct_detach(output) for
   backward instead, as torch's SavedVariable does); owning inputs is fine.
   Errors (CT_ERR_INVALID_ARGUMENT): NULL name, arrays or backward; n_inputs or n_outputs
   negative, n_outputs 0; an output that is an input but not flagged dirty ("custom op MyOp:
   output 0 is input 0 itself; return a view of it, or mark it dirty if forward modified it
   in place"), a dirty output that is not an input. */
CT_API ct_status ct_custom_op_apply(const char *name, int n_inputs, ct_tensor *const *inputs, int n_outputs,
                                    ct_tensor *const *outputs, const int *output_flags, int materialize_grads,
                                    ct_custom_backward_fn backward, void *user_data,
                                    void (*release)(void *user_data));
/* A saved output, for a backward that uses one of its op's outputs (exp's backward reads
   exp(x)).  user_data keeps saved = ct_detach(outputs[output_index]) (never the output itself:
   a cycle); backward calls this to read it.  Inside the backward of an op applied with
   CT_CUSTOM_DIFFERENTIABLE_BACKWARD while a create_graph backward runs, the result is what
   torch's SavedVariable unpacks for an output: a new alias of saved (sharing its memory)
   whose grad_fn is the op's own node at output_index, so that a second derivative flows
   through the op's backward again.  Anywhere else it is a new reference to saved itself.
   Returns a NEW REFERENCE, or NULL: CT_ERR_INVALID_ARGUMENT for a NULL or dead saved, or
   output_index outside the running op's outputs ("custom op saved output: CubeBackward has 1
   outputs, got index 2"). */
CT_API ct_tensor *ct_custom_op_saved_output(const ct_tensor *saved, int output_index);

/* ---- Tensor identity and in-place metadata ops ----------------------------------------- */
/* Version counters (torch's, see ct_tensor_version): SHARED by a tensor, its views
   (differentiable or not: ct_view ... ct_alias_view, multi-output views) and ct_alias /
   ct_detach; FRESH for ct_data, ct_from_blob, DLPack imports and new tensors.  Every in-place
   write bumps the counter once; so does every metadata op below except ct_set_data,
   ct_detach_, and ct_resize_/ct_resize_as_ that leave the sizes unchanged (torch 2.13).
   Metadata ops change what `self` looks at (storage, sizes, strides, offset) and keep its
   identity: the handle, its base (a view stays a view), autograd state and version counter.
   Other tensors never change, except that a storage grown by ct_resize_ or ct_set_storage_*
   moves its memory for every tensor on it (see "Threads").
   Autograd, with grad mode on and self requiring grad: refused as torch refuses it
   (CT_ERR_INVALID_ARGUMENT; a leaf: "a leaf Variable that requires grad is being used in an
   in-place operation.", a view of one, a view made in no_grad mode or by a multi-output op:
   torch's messages); otherwise recorded with torch's node names: ct_t_ TBackward1,
   ct_transpose_ TransposeBackward1, ct_squeeze_ SqueezeBackward3, ct_squeeze_dim_
   SqueezeBackward4, ct_unsqueeze_ UnsqueezeBackward1, ct_as_strided_ AsStridedBackward1 (self's
   new grad_fn; a view's base keeps its own), and every ct_set_* torch's NotImplemented node
   (also when only the source of ct_set_ requires grad; on a view the base's grad_fn becomes
   CopySlices as for any in-place write), through which backward fails ("derivative for set_
   is not implemented").
   Errors are CT_ERR_INVALID_ARGUMENT for a NULL handle unless stated. */

/* torch's x.data: new reference to a tensor with t's storage, dtype, sizes, strides and
   offset, requires_grad 0, not a view (base NULL), with its OWN version counter: writes
   through it are not seen by t's counter, nor by autograd's saved-tensor checks. */
CT_API ct_tensor *ct_data(const ct_tensor *t);
/* torch's `self.data = new_data`: self takes new_data's storage, dtype, sizes, strides and
   offset; it keeps its identity, requires_grad, grad_fn and version counter (no bump). */
CT_API ct_status ct_set_data(ct_tensor *self, const ct_tensor *new_data);
/* torch's t.detach_(): t loses its grad_fn and requires_grad (no bump).  A view is refused
   (CT_ERR_INVALID_ARGUMENT, "Can't detach views in-place. Use detach() instead. ..."). */
CT_API ct_status ct_detach_(ct_tensor *t);
/* 1 if a and b share one version counter, 0 if not (an inference tensor without a counter
   shares none), -1 on error. */
CT_API int ct_same_version_counter(const ct_tensor *a, const ct_tensor *b);
/* 1 if s may be reallocated by a growing ct_resize_/ct_set_storage_*: memory owned by
   ctensor, not read-only, never handed to NumPy (ct_storage_disable_resize) and with no live
   DLPack export (ct_to_dlpack*); 0 if not; -1 on error. */
CT_API int ct_storage_is_resizable(const ct_storage *s);
/* Makes s non-resizable for good, as torch's Tensor.numpy() does: for exporters whose
   consumers cannot be told that the memory moved. */
CT_API ct_status ct_storage_disable_resize(ct_storage *s);

/* torch's self.set_(source): self looks at source's storage, offset, sizes and strides;
   self == source changes nothing but still bumps.  CT_ERR_INVALID_ARGUMENT if the dtypes differ
   ("Could not set tensor of type double to a tensor of type float"). */
CT_API ct_status ct_set_(ct_tensor *self, const ct_tensor *source);
/* torch's self.set_(storage): 1-D, contiguous, over the whole storage (nbytes / itemsize
   elements), offset 0.  The storage is borrowed; self takes its own reference. */
CT_API ct_status ct_set_storage_(ct_tensor *self, ct_storage *storage);
/* torch's self.set_(storage, storage_offset, sizes, strides): stride_ndim < 0 means
   contiguous strides (strides may then be NULL).  A storage too small for the geometry is
   GROWN if resizable (its memory moves for every tensor on it), else CT_ERR_INVALID_ARGUMENT
   ("Trying to resize storage that is not resizable").  Errors: stride_ndim != ndim
   (CT_ERR_SHAPE, "unequal size length (1) and stride length (2)"), offset < 0
   ("Tensor: invalid storage offset -1"), negative strides, an element count or extent
   that overflows int64 (CT_ERR_SHAPE), a byte count that overflows int64
   (CT_ERR_INVALID_ARGUMENT, "Storage size calculation overflowed") or cannot be allocated
   (CT_ERR_OUT_OF_MEMORY). */
CT_API ct_status ct_set_storage_strided_(ct_tensor *self, ct_storage *storage, int64_t storage_offset, int ndim,
                                         const int64_t *sizes, int stride_ndim, const int64_t *strides);
/* torch's self.set_(): a new empty storage, sizes [0], strides [1], offset 0. */
CT_API ct_status ct_set_empty_(ct_tensor *self);
/* torch's self.is_set_to(other): 1 if both look at the same storage with the same offset,
   sizes and strides, else 0; -1 on error. */
CT_API int ct_is_set_to(const ct_tensor *self, const ct_tensor *other);
/* torch's self.resize_(sizes): equal sizes change nothing (no bump); otherwise contiguous
   strides from self's offset, and the storage grows if (offset + numel) elements do not fit
   (never shrinks; the new bytes are uninitialized; a resize to 0 elements never touches the
   storage).  Errors: self requires grad (CT_ERR_INVALID_ARGUMENT, "cannot resize variables
   that require grad", even with grad mode off), negative sizes, an element count that
   overflows int64 (CT_ERR_SHAPE), a storage that must grow but is not resizable (see
   ct_storage_is_resizable), a byte count that overflows int64
   (CT_ERR_INVALID_ARGUMENT, "Storage size calculation overflowed") or cannot be allocated
   (CT_ERR_OUT_OF_MEMORY). */
CT_API ct_status ct_resize_(ct_tensor *self, int ndim, const int64_t *sizes);
/* torch's self.resize_(sizes, memory_format=fmt): as ct_resize_, with fmt's strides
   (CT_CONTIGUOUS_FORMAT, CT_CHANNELS_LAST for 4 dims, CT_CHANNELS_LAST_3D for 5).  Equal sizes
   are restrided to fmt (no bump, as torch 2.13), growing the storage if the old strides
   reached less of it.  Errors as ct_resize_, and CT_ERR_INVALID_ARGUMENT for
   CT_PRESERVE_FORMAT ("Unsupported memory formatPreserve", torch's text), a format of the
   wrong rank ("required rank 4 tensor to use channels_last format") or an unknown value,
   all checked before anything changes (torch resizes first, then fails). */
CT_API ct_status ct_resize_format_(ct_tensor *self, int ndim, const int64_t *sizes, ct_memory_format fmt);
/* torch's self.resize_as_(other): ct_resize_ to other's sizes (contiguous strides). */
CT_API ct_status ct_resize_as_(ct_tensor *self, const ct_tensor *other);
/* torch's self.as_strided_(sizes, strides, storage_offset): never grows the storage.
   Errors: stride_ndim != ndim (CT_ERR_SHAPE, "mismatch in length of strides and shape"),
   negative strides or offset, elements outside the storage (CT_ERR_INDEX, torch's
   "setStorage: sizes [5], strides [1], ... out of bounds for storage of size 16"). */
CT_API ct_status ct_as_strided_(ct_tensor *self, int ndim, const int64_t *sizes, int stride_ndim,
                                const int64_t *strides, int64_t storage_offset);
/* torch's t_, transpose_ (also swapdims_/swapaxes_), squeeze_ (every size-1 dim, or one dim),
   unsqueeze_: self takes the geometry ct_t / ct_transpose / ct_squeeze / ct_unsqueeze would
   give, with their errors; always one bump (even when nothing is squeezed). */
CT_API ct_status ct_t_(ct_tensor *self);
CT_API ct_status ct_transpose_(ct_tensor *self, int dim0, int dim1);
CT_API ct_status ct_squeeze_(ct_tensor *self);
CT_API ct_status ct_squeeze_dim_(ct_tensor *self, int dim);
CT_API ct_status ct_unsqueeze_(ct_tensor *self, int dim);

/* ---- Scans, sorting, clamping (torch.cumsum, cumprod, sort, argsort, topk, clamp) ----------
   Every function returning a handle returns a new tensor on a new storage (new reference;
   NULL on error); every in-place form (trailing _) writes self's elements once (one version
   bump), keeps self's storage and geometry, and returns CT_OK or the error's status.  dim may
   be negative; a 0-dim tensor takes dim 0 or -1 and is one element long along it.  dtype
   arguments are a ct_dtype or -1 for none.  Autograd nodes are torch 2.13's. */

/* torch.cumsum(t, dim, dtype=): running sums along dim.  t is converted to dtype first when it
   is not -1; otherwise bool and integer t give int64 (floating t keep their dtype).  Float32
   and float64 accumulate in double, float16/bfloat16 in float, integers in wrapping 64 bits,
   complex64/complex128 in complex double (as torch's CPU kernel; its values bit for bit).  Result contiguous.  Errors: dim out of range (CT_ERR_INDEX), a
   bool result dtype (CT_ERR_DTYPE, torch's "\"cumsum_out_cpu\" not implemented for 'Bool'"),
   an invalid dtype (CT_ERR_DTYPE).  Autograd: CumsumBackward0. */
CT_API ct_tensor *ct_cumsum(const ct_tensor *t, int dim, int dtype);
/* Tensor.cumsum_(dim, dtype=): in place; dtype, if not -1, must be self's (CT_ERR_DTYPE,
   "Bad in-place call: input tensor dtype Float and output tensor dtype Double should match").
   Integer self accumulate in 64 bits and wrap into self's dtype. */
CT_API ct_status ct_cumsum_(ct_tensor *self, int dim, int dtype);
/* torch.cumprod / Tensor.cumprod_: as ct_cumsum / ct_cumsum_ with products ("cumprod_out_cpu"
   in the bool error).  Autograd: CumprodBackward0, exact where t has zeros (no division);
   for a complex t the local derivatives are conjugated (the Wirtinger convention). */
CT_API ct_tensor *ct_cumprod(const ct_tensor *t, int dim, int dtype);
CT_API ct_status ct_cumprod_(ct_tensor *self, int dim, int dtype);

/* torch.sort(t, dim, descending, stable=): returns the sorted values (new reference) and, if
   indices is not NULL, stores in *indices a new reference to the int64 positions they came
   from (written only on success).  Both are laid out like t (torch's empty_like: t's strides
   when t is dense).  NaN sorts as the largest value (last ascending, first descending).  The
   sort is stable whatever `stable` says (equal elements keep their order, in both
   directions); torch's stable=False order of equal elements is unspecified.  Errors: dim out
   of range (CT_ERR_INDEX), a complex t (CT_ERR_DTYPE, "Sort does not support complex dtypes on
   CPU", as torch).  Autograd: the values record SortBackward0 (the gradient goes back
   to each value's position). */
CT_API ct_tensor *ct_sort(const ct_tensor *t, int dim, int descending, int stable, ct_tensor **indices);
/* torch.argsort(t, dim, descending, stable=): the indices of ct_sort alone (new reference;
   int64, never requires grad). */
CT_API ct_tensor *ct_argsort(const ct_tensor *t, int dim, int descending, int stable);
/* torch.topk(t, k, dim, largest, sorted): the k largest (largest != 0) or smallest values along
   dim (new reference, contiguous, size k along dim) and, if indices is not NULL, their int64
   positions in *indices (new reference, written only on success).  The values come in order
   (largest first, or smallest first) whatever `sorted` says; among equal values the lower
   position comes first.  NaN counts as the largest value.  Errors: k < 0 or k > size(dim)
   (CT_ERR_INVALID_ARGUMENT, torch's "selected index k out of range"), dim out of range (CT_ERR_INDEX),
   a bool or complex t (CT_ERR_DTYPE, "topk does not support bool dtypes on CPU", "topk does
   not support complex dtypes on CPU", as torch).
   Autograd: the values record TopkBackward0. */
CT_API ct_tensor *ct_topk(const ct_tensor *t, int64_t k, int dim, int largest, int sorted, ct_tensor **indices);

/* torch.clamp(t, min=, max=) with scalar bounds (torch.clip is the same): each element
   becomes min(max(x, min), max), so max wins where min > max; NaN in t, min or max gives NaN.
   has_min / has_max say which bounds are given (at least one: else CT_ERR_INVALID_ARGUMENT,
   "torch.clamp: At least one of 'min' or 'max' must not be None").  integral != 0: the bounds
   are integers (Python ints: an integer t keeps its dtype; they must be whole numbers, exact
   up to 2^53); 0: floating (an integer or bool t gives the default dtype, as torch.clamp(int_t, 0.5)).
   Result dtype: torch's result_type of t and the bounds; a bound must fit it
   (CT_ERR_INVALID_ARGUMENT, "value cannot be converted to type int8_t without overflow";
   unsigned dtypes take negatives down to -255, which wrap, as torch).  Result laid out like t.
   Autograd: ClampBackward1 (the gradient passes where min <= x <= max). */
CT_API ct_tensor *ct_clamp(const ct_tensor *t, int has_min, double min, int has_max, double max, int integral);
/* In place: also CT_ERR_DTYPE when the result dtype cannot be written into self ("result type
   Float can't be cast to the desired output type int"; the C++ type name, as torch's scalar
   check: "long int", "unsigned char", ...; ct_clamp_tensor_ names it as "Int"). */
CT_API ct_status ct_clamp_(ct_tensor *self, int has_min, double min, int has_max, double max, int integral);
/* torch.clamp(t, min, max) with tensor bounds (borrowed; either may be NULL, not both): the
   result has the broadcast shape of t, min and max (CT_ERR_SHAPE otherwise) and their promoted
   dtype.  Autograd: ClampBackward0; min takes the gradient where x < min (and min < max), max
   where x > max (or max < min), as torch's clamp_backward_min_max. */
CT_API ct_tensor *ct_clamp_tensor(const ct_tensor *t, const ct_tensor *min, const ct_tensor *max);
/* In place: the broadcast shape must be self's (CT_ERR_SHAPE, "output with shape [2] doesn't
   match the broadcast shape [3, 2]"), the result dtype must cast to self's (CT_ERR_DTYPE). */
CT_API ct_status ct_clamp_tensor_(ct_tensor *self, const ct_tensor *min, const ct_tensor *max);
/* torch.clamp_min / clamp_max (and their in-place forms) with a scalar (integral as ct_clamp)
   or a tensor bound (borrowed, not NULL): ct_clamp with one bound, recording ClampMinBackward0 /
   ClampMaxBackward0 (scalar) or ClampMinBackward1 / ClampMaxBackward1 (tensor). */
CT_API ct_tensor *ct_clamp_min(const ct_tensor *t, double min, int integral);
CT_API ct_tensor *ct_clamp_max(const ct_tensor *t, double max, int integral);
CT_API ct_status ct_clamp_min_(ct_tensor *self, double min, int integral);
CT_API ct_status ct_clamp_max_(ct_tensor *self, double max, int integral);
CT_API ct_tensor *ct_clamp_min_tensor(const ct_tensor *t, const ct_tensor *min);
CT_API ct_tensor *ct_clamp_max_tensor(const ct_tensor *t, const ct_tensor *max);
CT_API ct_status ct_clamp_min_tensor_(ct_tensor *self, const ct_tensor *min);
CT_API ct_status ct_clamp_max_tensor_(ct_tensor *self, const ct_tensor *max);

/* ---- DLPack ----------------------------------------------------------------------------- */
/* The structs are those of the DLPack specification (dlpack.h, v1.0+); include dlpack.h (or
   ctensor_dlpack.h, which declares them) to read them. */
struct DLManagedTensor;
struct DLManagedTensorVersioned;

/* Takes ownership of m without copying: m->deleter(m) runs exactly once, when the last
   tensor on the new storage is gone.  The result is a new storage over the producer's memory
   (ct_shares_storage with the producer's other tensors is 0; ct_may_overlap is 1), as torch
   does.  CPU memory and ctensor's dtypes only.  Errors (NULL result; ownership then stays
   with the caller and the deleter is not called): CT_ERR_INVALID_ARGUMENT (NULL m, NULL data
   with elements, ndim outside [0, CT_MAX_DIMS], NULL shape, negative sizes or strides, a
   non-CPU device, misaligned data), CT_ERR_DTYPE (lanes != 1 or a dtype ctensor lacks). */
CT_API ct_tensor *ct_from_dlpack(struct DLManagedTensor *m);
/* The same for the versioned struct; a read-only tensor (DLPACK_FLAG_BITMASK_READ_ONLY)
   gives a read-only storage whose writers fail with CT_ERR_READ_ONLY.  Major versions other
   than 1 are refused (CT_ERR_INVALID_ARGUMENT). */
CT_API ct_tensor *ct_from_dlpack_versioned(struct DLManagedTensorVersioned *m);
/* A new DLManagedTensor sharing t's memory (data = address of element [0,...,0],
   byte_offset 0, strides in elements, CPU device); it keeps t's storage alive until the
   consumer calls its deleter, exactly once.  A read-only t is refused (CT_ERR_READ_ONLY):
   the legacy struct cannot say it is read-only.  A t with the conjugate bit is refused
   (CT_ERR_INVALID_ARGUMENT, "to_dlpack: Can't export tensors with the conjugate bit set", as
   torch: the consumer would read the stored values, not the conjugates); a t with the negative
   bit is exported as stored, as torch does (the consumer reads the values un-negated). */
CT_API struct DLManagedTensor *ct_to_dlpack(const ct_tensor *t);
/* The same with the versioned struct (version 1.x); a read-only t sets the read-only flag. */
CT_API struct DLManagedTensorVersioned *ct_to_dlpack_versioned(const ct_tensor *t);

/* ---- Files: mapped storages, safetensors and PyTorch checkpoints ------------------------ */
/* How a file's bytes become a storage.  The numbers are ABI and never change.
     CT_FILE_READ_ONLY      a shared read-only mapping: the storage is read-only (writers fail
                            with CT_ERR_READ_ONLY) and sees changes others make to the file.
     CT_FILE_COPY_ON_WRITE  a private mapping: writes land in private pages, never in the file.
     CT_FILE_SHARED         a shared writable mapping of a file opened read-write: writes reach
                            the file (the kernel writes them back when it chooses).
     CT_FILE_COPY           (ct_safetensors_open and ct_torch_load only) the file is read into memory ctensor
                            owns, and closed: nothing stays mapped.
   A mapping stays valid after the file is renamed or deleted; a file shrunk by another
   process after mapping makes reads past its new end fault (SIGBUS), as with any mmap. */
typedef enum ct_file_mode {
  CT_FILE_READ_ONLY = 0,
  CT_FILE_COPY_ON_WRITE = 1,
  CT_FILE_SHARED = 2,
  CT_FILE_COPY = 3
} ct_file_mode;

/* A new storage (new reference, release with ct_storage_release) over bytes [offset, offset +
   nbytes) of the regular file at path; nbytes < 0 means to the end of the file.  mode is
   CT_FILE_READ_ONLY, CT_FILE_COPY_ON_WRITE or CT_FILE_SHARED.  The storage is foreign memory
   (never resizable); it is unmapped when its last reference goes, on whatever thread.
   ct_explain says "mapped from PATH at offset N".  Put tensors on it with
   ct_set_storage_strided_.  Errors (CT_ERR_INVALID_ARGUMENT, naming the file and the OS error):
   NULL path, a mode outside the three, a file that cannot be opened (CT_FILE_SHARED needs
   write permission) or is not a regular file, a negative offset, a range past the end of the
   file, a failed mmap.  On error nothing stays mapped or open. */
CT_API ct_storage *ct_storage_from_file(const char *path, int64_t offset, int64_t nbytes, ct_file_mode mode);

/* An open checkpoint: a PyTorch one (ct_torch_load, below, says how its entries, metadata and
   storages are laid out) or, described here, a safetensors file: its header and one
   storage holding the whole file.  Opaque;
   release with ct_checkpoint_release.  Tensors taken from it stay valid after the release
   (each holds the storage), and so does the file mapping until the last of them is gone.
   Layout: the storage is the whole file (header included), and every tensor is contiguous on
   it at storage offset (8 + header length + begin) / itemsize: all tensors of one file share
   that one storage (ct_shares_storage gives 1), zero-copy, as safetensors' torch loader
   does.  The format does not align data: a tensor whose first byte is not at a multiple of
   its itemsize gets a storage of its own holding a copy (ctensor never reads misaligned
   elements).  Tensors of a CT_FILE_READ_ONLY checkpoint are read-only. */
typedef struct ct_checkpoint ct_checkpoint;

/* Opens the safetensors file at path with mode (ct_file_mode; CT_FILE_COPY reads it into
   memory ctensor owns) and checks its header completely before returning: an 8-byte
   little-endian length N <= 100,000,000 that fits in the file; N bytes of valid UTF-8 JSON (an
   object, nesting at most 64 deep, no duplicate keys); "__metadata__" null or an object of
   strings; every other key a tensor with a known "dtype" (BOOL U8 I8 I16 I32 I64 F16 BF16
   F32 F64 C64, the last complex64), a "shape" of at most CT_MAX_DIMS non-negative integers and "data_offsets"
   [begin, end] with end - begin == numel * itemsize; offsets, sorted, contiguous from 0 and
   covering the data exactly.  Errors (NULL; nothing mapped or leaked): CT_ERR_INVALID_ARGUMENT
   naming the file and what is wrong (the OS error for a file that cannot be opened), or
   CT_ERR_DTYPE for a dtype of the format that ctensor lacks (F8_*, U16, U32, U64, ...). */
CT_API ct_checkpoint *ct_safetensors_open(const char *path, ct_file_mode mode);
/* The same over a COPY of bytes[0, n) (the caller keeps its buffer; bytes may be NULL if n is
   0): for files already in memory.  Messages name the file "<memory>". */
CT_API ct_checkpoint *ct_safetensors_open_memory(const void *bytes, int64_t n);
/* Opens the PyTorch checkpoint at path: the zip archive torch.save writes (PyTorch 1.6 and
   later), read as torch.load(path, weights_only=True) reads a state dict, without running
   any code.  Returns a new handle (release with ct_checkpoint_release), or NULL on error.
   mode: CT_FILE_READ_ONLY, CT_FILE_COPY_ON_WRITE or CT_FILE_SHARED map the file once and cut
   every storage from that mapping in place (zero-copy: torch aligns each storage to 64 bytes;
   one that is not aligned is copied); CT_FILE_COPY copies every storage into memory ctensor
   owns (torch.load without mmap) and leaves nothing mapped.
   CRC-32: the CRC the archive records is checked for data.pkl and for every storage that is
   COPIED (CT_FILE_COPY, a misaligned storage, ct_torch_load_memory); a storage mapped in
   place is not read at open, so it is not checked (a corrupt byte shows in its values, as
   with torch.load, which checks no CRC in either mode).  A recorded CRC of 0 means none was
   recorded (torch.save after torch.serialization.set_crc32_options(False)) and is not checked.
   Sharing: each storage of the file (data/<key> in the archive) becomes ONE ctensor storage,
   so tensors that shared a storage when saved (tied weights, views, slices) share it here
   (ct_shares_storage gives 1), with their sizes, strides and storage offsets; a tensor
   saved under two keys (one object in Python) is one tensor object here too.  Tensors that
   requires_grad when saved require grad (ct_requires_grad); tensors of a CT_FILE_READ_ONLY
   checkpoint are read-only.  Storages of any location ("cuda:0", ...) load on the CPU.
   What the file may hold (anything else is refused): dicts, OrderedDicts, lists, tuples,
   None, bools, ints of at most 64 bits, floats, strings, tensors of ctensor's dtypes; the
   pickle globals collections.OrderedDict, torch._utils._rebuild_tensor_v2,
   torch._utils._rebuild_parameter (a Parameter loads as a plain tensor) and torch.<X>Storage.
   The entries (ct_checkpoint_count, _name, _find, _tensor) are the tensor leaves in pickle
   order, named by KEY PATH: the keys from the root joined with '.', a dict's str key as is
   (other keys as JSON: 3, true, null), a list or tuple item by its index: {"enc": {"w": t}}
   gives "enc.w", {"layers": [a, b]} gives "layers.0" and "layers.1", a bare tensor "".  Two
   paths may coincide ({"a.b": t, "a": {"b": u}}): ct_checkpoint_find gives the first.  A key
   holding a NUL byte is cut there in the C string (ct_checkpoint_structure escapes it whole).
   ct_checkpoint_tensor returns a new reference to the SAME tensor object each call.
   The other leaves are the metadata (ct_checkpoint_metadata_*): key path and the value as
   JSON text (null, true, false, 42, 0.5, NaN, Infinity, "text" quoted and escaped);
   ct_checkpoint_has_metadata is 1 when there is at least one.  Empty containers and dict
   attributes (a state dict's _metadata) appear only in ct_checkpoint_structure.
   ct_checkpoint_storage fails (CT_ERR_INVALID_ARGUMENT): such a file has one storage per key.
   Errors (NULL; nothing stays mapped or allocated), CT_ERR_INVALID_ARGUMENT with a message
   naming the file and what is wrong: a file that cannot be opened or mapped; not a zip, a
   truncated one, an offset or size past the end, compressed or encrypted entries, entries
   whose data overlap; a CRC-32 mismatch ("<path>: entry '<archive>/data/0': CRC-32 mismatch:
   the archive records 0x..., the data has 0x... (the file is corrupt)"); no
   <archive>/data.pkl; byteorder "big" (a big-endian file); a pickle
   opcode or global outside the list above (named, e.g. "global 'posix.system' is not
   allowed"); a truncated pickle; a string that is not valid UTF-8; torch's legacy format
   (_use_new_zipfile_serialization=False); a storage whose entry is missing or of the wrong
   size; a tensor reaching past its storage; more than 2^22 pickle objects, 2^22 memo slots,
   2^20 stack values or 1000 nested MARKs; a container that contains itself, nesting deeper
   than 200 levels or unfolding to more than 2^22 values.  CT_ERR_DTYPE: a storage type
   ctensor has no dtype for (torch.QInt8Storage, ...). */
CT_API ct_checkpoint *ct_torch_load(const char *path, ct_file_mode mode);
/* The same over a COPY of bytes[0, n) (bytes may be NULL if n is 0); every storage is a
   copy; messages name the file "<memory>". */
CT_API ct_checkpoint *ct_torch_load_memory(const void *bytes, int64_t n);
/* The nesting of the saved object as JSON text, for bindings that rebuild it; borrowed, valid
   until ct_checkpoint_release(c); NULL on a bad handle.  Nodes: {"dict": [[key, value], ...]},
   {"odict": [[key, value], ...]} (an OrderedDict; with "attrs": {"dict": ...} when it had
   attributes, as a state dict's _metadata), {"list": [...]}, {"tuple": [...]},
   {"tensor": i} (i the first entry holding that tensor object: two nodes with the same i
   are one object), and scalars as the metadata above writes them.  A container shared by
   two places is written twice.  A safetensors checkpoint gives {"dict": [[name, {"tensor":
   i}], ...]} in entry order. */
CT_API const char *ct_checkpoint_structure(const ct_checkpoint *c);
/* Releases the handle (NULL is a no-op).  Tensors taken from it stay valid. */
CT_API void ct_checkpoint_release(ct_checkpoint *c);
/* Number of tensors; -1 on a NULL handle. */
CT_API int64_t ct_checkpoint_count(const ct_checkpoint *c);
/* Name of tensor i, in sorted (bytewise) order, as safe_open(...).keys().  Borrowed: valid
   until ct_checkpoint_release(c).  NULL (CT_ERR_INDEX) for i outside [0, count). */
CT_API const char *ct_checkpoint_name(const ct_checkpoint *c, int64_t i);
/* Index of the tensor called name, or -1 (CT_ERR_INDEX, naming it) if there is none. */
CT_API int64_t ct_checkpoint_find(const ct_checkpoint *c, const char *name);
/* Tensor i (safetensors; ct_torch_load says what a PyTorch checkpoint gives): a NEW tensor
   object (new reference) each call, contiguous, on the checkpoint's
   storage (a VIEW of the file's bytes: two calls give two tensors that share storage and
   memory, with fresh version counters, not views of each other), except misaligned ones (see
   above).  NULL (CT_ERR_INDEX) for i out of range. */
CT_API ct_tensor *ct_checkpoint_tensor(const ct_checkpoint *c, int64_t i);
/* The storage holding the whole file (new reference). */
CT_API ct_storage *ct_checkpoint_storage(const ct_checkpoint *c);
/* Metadata: 1 if the header has a "__metadata__" object (even an empty one), 0 if it has none
   or null (safe_open(...).metadata() is then None); -1 on error.  The count, and key and value
   i in file order; strings are borrowed until ct_checkpoint_release(c); NULL (CT_ERR_INDEX)
   for i out of range. */
CT_API int ct_checkpoint_has_metadata(const ct_checkpoint *c);
CT_API int64_t ct_checkpoint_metadata_count(const ct_checkpoint *c);
CT_API const char *ct_checkpoint_metadata_key(const ct_checkpoint *c, int64_t i);
CT_API const char *ct_checkpoint_metadata_value(const ct_checkpoint *c, int64_t i);

/* Flags of ct_safetensors_save. */
#define CT_SAVE_COPY_SHARED 1 /* write tensors that share a storage anyway, each its own bytes */

/* Writes n tensors (names[i], tensors[i]) to a safetensors file at path (created or
   truncated): byte for byte what safetensors.torch.save_file writes for the same tensors when
   there is at most one metadata entry (tensors ordered by dtype, I64 F64 C64 F32 I32 BF16 F16
   I16 I8 U8 BOOL, then by name; header padded with spaces to a multiple of 8).  Metadata:
   n_metadata < 0 writes no "__metadata__" (keys and values may be NULL); otherwise the pairs
   (keys[i], values[i]), sorted by key (the package writes a hash map's order).  Every tensor
   is written contiguous in C order whatever its strides or offset; arguments are borrowed.
   Errors (CT_ERR_INVALID_ARGUMENT; a partly written file is removed): NULL path or arrays with
   n > 0, a NULL name or tensor, a name given twice or "__metadata__", a metadata key given
   twice, two tensors on one storage whose memory ranges intersect (safetensors' rule: the file
   would hold those bytes twice and loading would give independent tensors; disjoint parts of
   one storage are fine) unless flags has CT_SAVE_COPY_SHARED, a file that cannot be created
   or written (the OS error); CT_ERR_DTYPE for a complex128 tensor (the format has no code for
   it), before anything is written. */
CT_API ct_status ct_safetensors_save(const char *path, int64_t n, const char *const *names,
                                     const ct_tensor *const *tensors, int64_t n_metadata,
                                     const char *const *keys, const char *const *values, int flags);

/* Writes a PyTorch checkpoint to path (created or truncated; a partly written file is
   removed): the zip archive torch.save writes, which torch.load(path, weights_only=True)
   reads, and ct_torch_load too.  The object is `structure`, JSON text in the form
   ct_checkpoint_structure gives ({"dict": [[key, value], ...]}, {"odict": ..., "attrs":
   {"dict": ...}}, {"list": [...]}, {"tuple": [...]}, {"tensor": i}, null, true, false,
   64-bit integers, finite floats written with '.' or an exponent, strings), where
   {"tensor": i} is tensors[i] (borrowed; the same i twice is one tensor object after
   loading).  Sharing: each distinct storage of the tensors is written ONCE, whole, and every
   tensor as (that storage, storage offset, sizes, strides, requires_grad), so tensors that
   share a storage here (tied weights, views, slices) share one after torch.load, with the
   same strides and offsets.  Storage data is aligned to 64 bytes in the file (ct_torch_load
   maps it in place); zip64 records are written as torch writes them, so files past 4 GiB work.
   Every entry records its CRC-32.  When path is a regular file, each all-zero block of 64 KiB
   aligned to 64 KiB of the file is skipped with lseek instead of written: the file system
   leaves a hole (reads as zeros, takes no disk space), so mostly-zero checkpoints stay small
   on disk; the CRC still covers those zeros.
   Errors (CT_ERR_INVALID_ARGUMENT, naming the problem): NULL path or structure, n < 0,
   tensors NULL with n > 0, a NULL or dead tensor, malformed JSON or a node outside the list
   above, a tensor index outside [0, n), an integer wider than 64 bits, two tensors of
   different dtypes on one storage (torch.save refuses that too), a file that cannot be
   created or written (the OS error). */
CT_API ct_status ct_torch_save(const char *path, const char *structure, int n, const ct_tensor *const *tensors);

/* ---- Out arguments (torch's `op(..., out=t)`) ------------------------------------------- */
/* Every ct_*_out function computes what the function without _out computes (same arguments,
   same errors), then writes it into `out` with torch 2.13's out= rules.  `out` is BORROWED
   and written in place: no new reference is made, the caller keeps its handle, and the
   function returns a ct_status.  The rules, in torch's order:
   - Autograd: with grad mode on, an input or `out` that requires grad is refused
     (CT_ERR_INVALID_ARGUMENT, "add(): functions with out=... arguments don't support automatic
     differentiation, but one of the arguments requires grad."; the name is torch's op name).
     The result is never recorded in a graph.
   - Overlap (elementwise ops, comparisons, where, clamp, cat, stack, index_select): an `out`
     with internal overlap (a dim of size > 1 and stride 0) or one that partially overlaps an
     input is refused (CT_ERR_OVERLAP, torch's "unsupported operation: ..." messages); an `out`
     that IS one of the inputs (ct_add_out(x, x, y)) or views exactly its memory with the same
     strides is fine, as is a layout torch cannot decide about.
   - Dtype, by op family as torch: elementwise ops, comparisons, exp/log/sqrt/sin/cos/
     tanh/sigmoid and mean need a result dtype that casts to out's (torch.can_cast: no float ->
     integer, no non-bool -> bool; CT_ERR_DTYPE, "result type Float can't be cast to the desired
     output type Long") and convert; neg, abs, clamp need out's dtype to be the result's ("Found
     dtype Double but expected Float"; abs of a complex input, as torch, also takes a real out
     its real result casts to, or a complex out of the input's dtype); matmul, gather, argmax/argmin and both outs of
     max_dim/min_dim need it exactly ("Expected out tensor to have dtype float, but got double
     instead"); amax/amin need the input's ("Expected the dtype for input and out to match, but
     got Float for input's dtype and Double for out's dtype."); cat/stack need a castable one
     ("torch.cat(): input types can't be cast to the desired output type Long"); index_select
     the input's ("index_select(): self and result must have the same scalar type"); where the
     result's ("Expected out type to be Float but got Long").  sum,
     prod, cumsum, cumprod and the creation functions compute IN out's dtype (torch.sum(x,
     out=long_t) sums x converted to int64), so any dtype is accepted; mean divides in out's
     dtype when that is floating.
   - Shape: an `out` of the result's sizes keeps its storage, offset and strides (even
     non-contiguous ones).  Other sizes: `out` is resized in place, as torch's resize_output —
     same handle, same storage object (its memory grows, moving, when too small: that is the
     only case in which `out` stops sharing memory with tensors it shared memory with before,
     which all see the grown storage), offset kept — and then given the strides the op chose
     (a transposed input gives a transposed-layout out, as torch).  torch warns when the
     resized out had elements; C has no warning channel (the bindings warn; ct_write_out
     reports it).  An elementwise out that is also an input is never resized (CT_ERR_SHAPE,
     "output with shape [3] doesn't match the broadcast shape [2, 3]").  A resize of an out
     that requires grad is refused as ct_resize_ refuses it.
   - The write: one converting copy; out's version goes up by exactly one (resize included),
     a read-only out is refused (CT_ERR_READ_ONLY). */

/* The out rule families above, for ct_write_out.  The numbers are ABI and never change. */
typedef enum ct_out_rule {
  CT_OUT_CASTABLE = 0,     /* elementwise, comparisons, float unary ops, mean */
  CT_OUT_SAME_DTYPE = 1,   /* neg, abs, clamp */
  CT_OUT_STRICT = 2,       /* matmul, gather, argmax/argmin, max/min with dim; no overlap check */
  CT_OUT_ANY = 3,          /* sum, prod, cumsum, cumprod, creation (computed in out's dtype) */
  CT_OUT_REDUCE_SAME = 4,  /* amax, amin */
  CT_OUT_CAT = 5,          /* cat, stack */
  CT_OUT_INDEX_SELECT = 6, /* index_select */
  CT_OUT_WHERE = 7         /* where */
} ct_out_rule;

/* The out= rules applied to a result computed elsewhere (what every ct_*_out does after
   computing; for bindings whose ops take other argument forms): the requires-grad and
   overlap checks against the `ninputs` borrowed `inputs` (may be NULL when 0), the dtype rule
   `rule`, resize and one converting write of `result` (borrowed) into `out`.  `op` names the
   operation in messages (torch's op name, "add"; NULL: "ct_write_out").  If warn_resized is
   not NULL it receives 1 when out was resized from a shape with elements (torch's deprecation
   warning), else 0.  Errors as above; a bad rule is CT_ERR_INVALID_ARGUMENT. */
CT_API ct_status ct_write_out(ct_tensor *out, const ct_tensor *result, int ninputs, const ct_tensor *const *inputs,
                              ct_out_rule rule, const char *op, int *warn_resized);

/* Elementwise: torch.add/sub/mul/div/pow/floor_divide/remainder/fmod/maximum/minimum(a, b,
   out=out), and with a Python-float b (the _scalar_out forms).  Castable rule. */
CT_API ct_status ct_add_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_sub_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_mul_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_div_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_pow_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_floor_divide_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_remainder_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_fmod_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_maximum_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_minimum_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_add_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_sub_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_mul_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_div_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_pow_scalar_out(ct_tensor *out, const ct_tensor *a, double exponent);
/* Unary: neg and abs (same-dtype rule); exp, log, sqrt, sin, cos, tanh, sigmoid (castable). */
CT_API ct_status ct_neg_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_abs_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_exp_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_log_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_sqrt_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_sin_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_cos_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_tanh_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_sigmoid_out(ct_tensor *out, const ct_tensor *a);
/* reciprocal and angle (castable); sgn and sign (same-dtype rule, as torch). */
CT_API ct_status ct_reciprocal_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_sgn_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_sign_out(ct_tensor *out, const ct_tensor *a);
CT_API ct_status ct_angle_out(ct_tensor *out, const ct_tensor *a);
/* Comparisons (bool results converted to out's dtype, which may be any), tensor and scalar. */
CT_API ct_status ct_eq_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_ne_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_lt_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_le_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_gt_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_ge_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_eq_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_ne_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_lt_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_le_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_gt_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
CT_API ct_status ct_ge_scalar_out(ct_tensor *out, const ct_tensor *a, double s);
/* torch.where(cond, a, b, out=) (where rule) and torch.clamp(t, min, max, out=) (same-dtype;
   arguments as ct_clamp). */
CT_API ct_status ct_where_out(ct_tensor *out, const ct_tensor *cond, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_clamp_out(ct_tensor *out, const ct_tensor *t, int has_min, double min, int has_max, double max,
                              int integral);
/* Reductions over dims (arguments as ct_sum): sum and prod compute in out's dtype; mean is
   castable (computed in a floating out's dtype); amax/amin need the input's dtype. */
CT_API ct_status ct_sum_out(ct_tensor *out, const ct_tensor *t, int ndim, const int *dims, int keepdim);
CT_API ct_status ct_prod_out(ct_tensor *out, const ct_tensor *t, int ndim, const int *dims, int keepdim);
CT_API ct_status ct_mean_out(ct_tensor *out, const ct_tensor *t, int ndim, const int *dims, int keepdim);
CT_API ct_status ct_amax_out(ct_tensor *out, const ct_tensor *t, int ndim, const int *dims, int keepdim);
CT_API ct_status ct_amin_out(ct_tensor *out, const ct_tensor *t, int ndim, const int *dims, int keepdim);
/* argmax/argmin over one dim (out must be int64); torch.max/min(t, dim, out=(values,
   indices)): values must have t's dtype and indices int64; both are written (each version +1).
   cumsum/cumprod compute in out's dtype. */
CT_API ct_status ct_argmax_out(ct_tensor *out, const ct_tensor *t, int dim, int keepdim);
CT_API ct_status ct_argmin_out(ct_tensor *out, const ct_tensor *t, int dim, int keepdim);
CT_API ct_status ct_max_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int dim, int keepdim);
CT_API ct_status ct_min_dim_out(ct_tensor *values, ct_tensor *indices, const ct_tensor *t, int dim, int keepdim);
CT_API ct_status ct_cumsum_out(ct_tensor *out, const ct_tensor *t, int dim);
CT_API ct_status ct_cumprod_out(ct_tensor *out, const ct_tensor *t, int dim);
/* matmul and gather (strict dtype), index_select (the input's dtype), cat and stack (castable,
   torch.cat's message); arguments as the functions without _out. */
CT_API ct_status ct_matmul_out(ct_tensor *out, const ct_tensor *a, const ct_tensor *b);
CT_API ct_status ct_gather_out(ct_tensor *out, const ct_tensor *t, int dim, const ct_tensor *index);
CT_API ct_status ct_index_select_out(ct_tensor *out, const ct_tensor *t, int dim, const ct_tensor *index);
CT_API ct_status ct_cat_out(ct_tensor *out, int n, const ct_tensor *const *tensors, int dim);
CT_API ct_status ct_stack_out(ct_tensor *out, int n, const ct_tensor *const *tensors, int dim);
/* Creation into out: torch.zeros/ones/full/rand/randn/randint/arange/linspace/eye(...,
   out=out), made in out's dtype (the dtype errors of the functions without _out apply to it:
   rand into an integer out is CT_ERR_DTYPE).  Arguments as those functions. */
CT_API ct_status ct_zeros_out(ct_tensor *out, int ndim, const int64_t *sizes);
CT_API ct_status ct_ones_out(ct_tensor *out, int ndim, const int64_t *sizes);
CT_API ct_status ct_full_out(ct_tensor *out, int ndim, const int64_t *sizes, double value);
CT_API ct_status ct_rand_out(ct_tensor *out, int ndim, const int64_t *sizes);
CT_API ct_status ct_randn_out(ct_tensor *out, int ndim, const int64_t *sizes);
CT_API ct_status ct_randint_out(ct_tensor *out, int64_t low, int64_t high, int ndim, const int64_t *sizes);
CT_API ct_status ct_arange_out(ct_tensor *out, double start, double end, double step);
CT_API ct_status ct_linspace_out(ct_tensor *out, double start, double end, int64_t steps);
CT_API ct_status ct_eye_out(ct_tensor *out, int64_t n, int64_t m);

#ifdef __cplusplus
}
#endif
#endif /* CTENSOR_H */
