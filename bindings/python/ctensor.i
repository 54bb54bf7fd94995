/*
 * ctensor.i: the SWIG interface of ctensor's Python module, ctensor._C.
 *
 * The header is the single source: include/ctensor.h is %include'd as is, and every function
 * in it becomes a function of ctensor._C with the same name (ct_view, ct_transpose, ...).  This
 * file adds only what SWIG cannot know from C declarations:
 *   - how Python values become C arguments (shapes from sequences, buffers, dtype objects,
 *     DLPack capsules, the owner object of foreign memory) and C results become Python values
 *     (handles become ctensor.Tensor, sizes become tuples, DLPack structs become capsules);
 *   - ownership: %newobject on every function returning a new reference;
 *   - errors: one %exception turning a failed call into the exception PyTorch raises;
 *   - the Tensor and UntypedStorage classes: the opaque handles presented as classes whose
 *     methods are generated from the %extend blocks below (one line each, calling the header).
 * The hand-written CPython part (hot paths, slots, deleters) is fastpath.c, inserted below.
 *
 * Built with -builtin: Tensor is a CPython type, not a Python proxy class around a SWIG
 * pointer object (measured: a view op costs ~3x less; see bench/compare_views.py).
 */
%module(package="ctensor", threads="1") _C

/* Keep the GIL by default: a view op costs ~100 ns and releasing the GIL would double it.
   Operations that may copy much memory release it (%thread below). */
%nothread;

%begin %{
#define PY_SSIZE_T_CLEAN
%}

%{
#include <limits.h>
#include <stdbool.h>
#include "ctensor.h"
#include "ctensor_dlpack.h"
%}

%include <stdint.i>

%insert("header") "fastpath.c"
%insert("header") "numpy_exchange.c"
%insert("header") "autograd_callbacks.c"

/* ---- Errors --------------------------------------------------------------------------------
   Every failure in ctensor sets ct_last_status()/ct_last_error() (a NULL handle, a non-zero
   status, or a -1 sentinel); a successful call does not clear it, so it is cleared first.
   The exception class is PyTorch's for the same failure (fastpath.c: ctpy_exception_class);
   the exception carries the C message and a `status` attribute ("CT_ERR_SHAPE", ...). */
%exception {
  ct_clear_error();
  $action
  if (ct_last_status() != CT_OK) {
    ctpy_raise_last("$symname");
    SWIG_fail;
  }
}
/* These read or reset the error state itself, or cannot fail. */
%noexception ct_last_status;
%noexception ct_last_error;
%noexception ct_clear_error;
%noexception ct_status_name;
%noexception ct_version;
%noexception ct_live_tensors;
%noexception ct_live_storages;
%noexception ct_set_num_threads;
%noexception ct_get_num_threads;
%noexception ct_set_grad_enabled;
%noexception ct_is_grad_enabled;
%noexception ct_get_default_dtype;

/* Python owns lifetimes: a Tensor object holds one reference and drops it when collected. */
/* Autograd callbacks take Python callables through _C._register_hook / _C._custom_op_apply
   (autograd_callbacks.c); ct_set_error is for C callbacks. */
%ignore ct_tensor_register_hook;
%ignore ct_hook_remove;
%ignore ct_hook_id;
%ignore ct_hook_handle_release;
%ignore ct_custom_op_apply;
%ignore ct_set_error;
%ignore ct_tensor_retain;
%ignore ct_tensor_release;
%ignore ct_storage_retain;
%ignore ct_storage_release;
/* x[a:b, c:d] calls it from fastpath.c (getitem); Python users slice with indexing, as in torch. */
%ignore ct_slices;

/* ---- Ownership: every function below returns a new reference ----------------------------- */
%newobject ct_empty;
%newobject ct_zeros;
%newobject ct_ones;
%newobject ct_full;
%newobject ct_arange;
%newobject ct_from_data;
%newobject ct_from_blob;
%newobject ct_view;
%newobject ct_transpose;
%newobject ct_t;
%newobject ct_permute;
%newobject ct_slice;
%newobject ct_narrow;
%newobject ct_select;
%newobject ct_expand;
%newobject ct_squeeze;
%newobject ct_squeeze_all;
%newobject ct_squeeze_dims;
%newobject ct_unsqueeze;
%newobject ct_diagonal;
%newobject ct_unfold;
%newobject ct_as_strided;
%newobject ct_alias;
%newobject ct_alias_view;
%newobject ct_reshape;
%newobject ct_flatten;
%newobject ct_contiguous;
%newobject ct_clone;
%newobject ct_contiguous_format;
%newobject ct_clone_format;
%newobject ct_to_format;
%newobject ct_empty_format;
%newobject ct_empty_strided;
%newobject ct_empty_like;
%newobject ct_zeros_like;
%newobject ct_ones_like;
%newobject ct_full_like;
%newobject ct_index_select;
%newobject ct_to;
%newobject ct_tensor_base;
%newobject ct_tensor_storage;
%newobject ct_from_dlpack;
%newobject ct_from_dlpack_versioned;
%newobject ct_to_dlpack;
%newobject ct_to_dlpack_versioned;
/* compute (wrapped as ct_* functions; Tensor methods and operators over them come next) */
%newobject ct_add;
%newobject ct_add_alpha;
%newobject ct_sub_alpha;
%newobject ct_sub;
%newobject ct_mul;
%newobject ct_div;
%newobject ct_add_scalar;
%newobject ct_sub_scalar;
%newobject ct_mul_scalar;
%newobject ct_div_scalar;
%newobject ct_rsub_scalar;
%newobject ct_rdiv_scalar;
%newobject ct_neg;
%newobject ct_abs;
%newobject ct_exp;
%newobject ct_log;
%newobject ct_sqrt;
%newobject ct_sin;
%newobject ct_cos;
%newobject ct_tanh;
%newobject ct_sigmoid;
%newobject ct_reciprocal;
%newobject ct_sgn;
%newobject ct_sign;
%newobject ct_angle;
%newobject ct_relu;
%newobject ct_eq;
%newobject ct_ne;
%newobject ct_lt;
%newobject ct_le;
%newobject ct_gt;
%newobject ct_ge;
%newobject ct_eq_scalar;
%newobject ct_ne_scalar;
%newobject ct_lt_scalar;
%newobject ct_le_scalar;
%newobject ct_gt_scalar;
%newobject ct_ge_scalar;
%newobject ct_where;
%newobject ct_cat;
%newobject ct_stack;
%newobject ct_sum;
%newobject ct_mean;
%newobject ct_prod;
%newobject ct_amax;
%newobject ct_amin;
%newobject ct_argmax;
%newobject ct_argmin;
%newobject ct_argmax_all;
%newobject ct_max_all;
%newobject ct_min_all;
%newobject ct_max_dim;
%newobject ct_min_dim;
%newobject ct_var;
%newobject ct_std;
%newobject ct_var_mean;
%newobject ct_std_mean;
%newobject ct_vector_norm;
%newobject ct_maximum;
%newobject ct_linspace;
%newobject ct_eye;
%newobject ct_pow;
%newobject ct_pow_scalar;
%newobject ct_pow_int;
%newobject ct_rpow_scalar;
%newobject ct_isclose;
%newobject ct_pow_complex_scalar;
%newobject ct_rpow_complex_scalar;
%newobject ct_floor_divide;
%newobject ct_floor_divide_scalar;
%newobject ct_rfloor_divide_scalar;
%newobject ct_remainder;
%newobject ct_remainder_scalar;
%newobject ct_rremainder_scalar;
%newobject ct_fmod;
%newobject ct_fmod_scalar;
%newobject ct_minimum;
%newobject ct_argmin_all;
%newobject ct_matmul;
%newobject ct_add_complex_scalar;
%newobject ct_sub_complex_scalar;
%newobject ct_mul_complex_scalar;
%newobject ct_div_complex_scalar;
%newobject ct_rsub_complex_scalar;
%newobject ct_rdiv_complex_scalar;
%newobject ct_eq_complex_scalar;
%newobject ct_ne_complex_scalar;
%newobject ct_vdot;
%newobject ct_rand;
%newobject ct_randn;
%newobject ct_randint;
/* autograd */
%newobject ct_grad;
%newobject ct_detach;
%newobject ct_custom_op_saved_output;
%newobject ct_data;
/* dtype views, T / mT, and the copies of views (torch's *_copy ops) */
%newobject ct_view_dtype;
%newobject ct_matrix_transpose;
%newobject ct_numpy_T;
%newobject ct_view_as_real;
%newobject ct_view_as_complex;
%newobject ct_real;
%newobject ct_imag;
/* the conjugate and negative bits */
%newobject ct_conj;
%newobject ct_neg_view;
%newobject ct_adjoint;
%newobject ct_resolve_conj;
%newobject ct_resolve_neg;
%newobject ct_conj_physical;
%newobject ct_view_copy;
%newobject ct_view_dtype_copy;
%newobject ct_permute_copy;
%newobject ct_transpose_copy;
%newobject ct_t_copy;
%newobject ct_diagonal_copy;
%newobject ct_expand_copy;
%newobject ct_narrow_copy;
%newobject ct_select_copy;
%newobject ct_slice_copy;
%newobject ct_squeeze_copy;
%newobject ct_squeeze_all_copy;
%newobject ct_squeeze_dims_copy;
%newobject ct_unsqueeze_copy;
%newobject ct_unfold_copy;
%newobject ct_alias_copy;
%newobject ct_as_strided_copy;
%newobject ct_detach_copy;

/* Copies of possibly large tensors run without the GIL. */
%thread ct_clone;
%thread ct_contiguous;
%thread ct_contiguous_format;
%thread ct_clone_format;
%thread ct_to_format;
%thread ct_zeros_like;
%thread ct_ones_like;
%thread ct_full_like;
%thread ct_reshape;
%thread ct_flatten;
%thread ct_to;
%thread ct_copy_;
%thread ct_index_select;
%thread ct_from_data;
%thread ct_zeros;
%thread ct_ones;
%thread ct_full;
%thread ct_arange;
%thread ct_overlaps;
%thread ct_matmul;
%thread ct_vdot;
%thread ct_cat;
%thread ct_stack;

/* ---- Typemaps: arguments ------------------------------------------------------------------ */

/* Tensors: a ctensor.Tensor (fast type check; SWIG's generic conversion is not needed). */
%typemap(in) ct_tensor *, const ct_tensor * {
  $1 = ctpy_handle($input);
  if (!$1) {
    PyErr_Format(PyExc_TypeError, "$symname(): argument '$1_name' must be Tensor, not %.100s",
                 Py_TYPE($input)->tp_name);
    SWIG_fail;
  }
}
%typecheck(SWIG_TYPECHECK_POINTER) ct_tensor *, const ct_tensor * {
  $1 = PyObject_TypeCheck($input, ctpy_tensor_type());
}

/* Integers: ints and objects with __index__ (NumPy integers, 0-dim integer tensors), as torch. */
%typemap(in) int64_t (int64_t v) {
  if (ctpy_as_int64($input, &v, "$1_name") < 0) SWIG_fail;
  $1 = v;
}
%typemap(in) int (int64_t v) {
  if (ctpy_as_int64($input, &v, "$1_name") < 0) SWIG_fail;
  if (v < INT_MIN || v > INT_MAX) {
    PyErr_Format(PyExc_IndexError, "Dimension out of range (got %lld)", (long long)v);
    SWIG_fail;
  }
  $1 = (int)v;
}
%typecheck(SWIG_TYPECHECK_INT64) int64_t, int {
  $1 = PyLong_Check($input) || (PyIndex_Check($input) && !PyFloat_Check($input));
}

/* Floating values: anything with __float__. */
%typemap(in) double {
  $1 = PyFloat_AsDouble($input);
  if ($1 == -1.0 && PyErr_Occurred()) SWIG_fail;
}

/* dtypes: a ctensor dtype object (ctensor.float32) or its ct_dtype number. */
%typemap(in) ct_dtype {
  if (PyLong_Check($input)) {
    long v = PyLong_AsLong($input);
    if (v == -1 && PyErr_Occurred()) SWIG_fail;
    $1 = (ct_dtype)v;
  } else {
    int d = ctpy_dtype_from_object($input);
    if (d < 0) SWIG_fail;
    $1 = (ct_dtype)d;
  }
}

/* Shapes: any sequence of ints (or one int), up to CT_MAX_DIMS. */
%typemap(in) (int ndim, const int64_t *sizes) (int64_t tmp[CT_MAX_DIMS]),
             (int ndim, const int64_t *shape) (int64_t tmp[CT_MAX_DIMS]) {
  int n;
  if (PyLong_Check($input)) {
    n = ctpy_as_int64($input, tmp, "$2_name") < 0 ? -1 : 1;
  } else {
    n = ctpy_int_seq($input, tmp, "$symname", "$2_name");
  }
  if (n < 0) SWIG_fail;
  $1 = n;
  $2 = tmp;
}
/* repeat, tile, flip, roll (copies on a new storage): their int64 lists take the shape typemap. */
%newobject ct_repeat;
%newobject ct_tile;
%newobject ct_flip;
%newobject ct_fliplr;
%newobject ct_flipud;
%newobject ct_roll;
%thread ct_repeat;
%thread ct_tile;
%thread ct_flip;
%thread ct_roll;
%apply (int ndim, const int64_t *sizes) { (int n, const int64_t *repeats), (int n, const int64_t *dims),
                                         (int nshifts, const int64_t *shifts), (int ndims, const int64_t *dims) };
/* Indexed copies (gather, scatter, index_*, take, put, index_put): new tensors are owned by
   Python; the index_put tensor list takes the (int n, const ct_tensor *const *tensors)
   typemap below; all run without the GIL. */
%newobject ct_gather;
%newobject ct_scatter;
%newobject ct_scatter_value;
%newobject ct_scatter_add;
%newobject ct_index_add;
%newobject ct_index_copy;
%newobject ct_index_fill;
%newobject ct_index_fill_tensor;
%newobject ct_take;
%newobject ct_put;
%newobject ct_index_put;
%newobject ct_index;
%newobject ct_scatter_reduce;
%thread ct_gather;
%thread ct_scatter;
%thread ct_scatter_;
%thread ct_scatter_value;
%thread ct_scatter_value_;
%thread ct_scatter_add;
%thread ct_scatter_add_;
%thread ct_index_add;
%thread ct_index_add_;
%thread ct_index_copy;
%thread ct_index_copy_;
%thread ct_index_fill;
%thread ct_index_fill_;
%thread ct_index_fill_tensor;
%thread ct_index_fill_tensor_;
%thread ct_take;
%thread ct_put;
%thread ct_put_;
%thread ct_index_put;
%thread ct_index_put_;
%thread ct_index;
%thread ct_scatter_reduce;
%thread ct_scatter_reduce_;
/* Masked copies, nonzero, rot90, repeat_interleave (new storage each; the _ forms in place).
   rot90's dims take the shape typemap above; an optional int (dim, output_size) is None or an int. */
%newobject ct_masked_select;
%newobject ct_masked_fill;
%newobject ct_masked_fill_tensor;
%newobject ct_masked_scatter;
%newobject ct_nonzero;
%newobject ct_argwhere;
%newobject ct_rot90;
%newobject ct_repeat_interleave;
%newobject ct_repeat_interleave_tensor;
%newobject ct_repeat_interleave_repeats;
%thread ct_masked_select;
%thread ct_nonzero;
%thread ct_rot90;
%thread ct_repeat_interleave;
%typemap(in) const int64_t *dim (int64_t tmp), const int64_t *output_size (int64_t tmp) {
  if ($input == Py_None) {
    $1 = NULL;
  } else {
    if (ctpy_as_int64($input, &tmp, "$1_name") < 0) SWIG_fail;
    $1 = &tmp;
  }
}
%typemap(in) (int ndim, const int *dims) (int64_t tmp[CT_MAX_DIMS], int dtmp[CT_MAX_DIMS]) {
  int n = ctpy_int_seq($input, tmp, "$symname", "$2_name");
  if (n < 0) SWIG_fail;
  for (int i = 0; i < n; ++i) {
    if (tmp[i] < INT_MIN || tmp[i] > INT_MAX) {
      PyErr_Format(PyExc_IndexError, "Dimension out of range (got %lld)", (long long)tmp[i]);
      SWIG_fail;
    }
    dtmp[i] = (int)tmp[i];
  }
  $1 = n;
  $2 = dtmp;
}
/* Strides (ct_as_strided, ct_from_blob): a sequence as long as the sizes before them
   (argument 2, `ndim`, in both functions), or None for contiguous strides (ct_from_blob). */
%typemap(in) const int64_t *strides (int64_t tmp[CT_MAX_DIMS]) {
  if ($input == Py_None) {
    $1 = NULL;
  } else {
    int n = ctpy_int_seq($input, tmp, "$symname", "stride");
    if (n < 0) SWIG_fail;
    if (n != arg2) {
      PyErr_Format(PyExc_RuntimeError, "mismatch in length of strides and shape");
      SWIG_fail;
    }
    $1 = tmp;
  }
}

/* ct_empty_strided's stride: a sequence as long as its sizes (argument 1, `ndim`), with
   torch.empty_strided's message otherwise. */
%typemap(in) const int64_t *stride (int64_t tmp[CT_MAX_DIMS]) {
  int n = ctpy_int_seq($input, tmp, "$symname", "stride");
  if (n < 0) SWIG_fail;
  if (n != arg1) {
    PyErr_Format(PyExc_RuntimeError, "dimensionality of sizes (%d) must match dimensionality of strides (%d)",
                 (int)arg1, n);
    SWIG_fail;
  }
  $1 = tmp;
}

/* ct_as_strided_ / ct_set_storage_strided_: strides as a sequence, or None (contiguous). */
%typemap(in) (int stride_ndim, const int64_t *strides) (int64_t tmp[CT_MAX_DIMS]) {
  if ($input == Py_None) {
    $1 = -1;
    $2 = NULL;
  } else {
    int n = ctpy_int_seq($input, tmp, "$symname", "stride");
    if (n < 0) SWIG_fail;
    $1 = n;
    $2 = tmp;
  }
}

/* ct_from_data's bytes: any C-contiguous buffer (bytes, bytearray, array.array, memoryview,
   NumPy array) holding at least numel * itemsize bytes. */
%typemap(in) const void *data (Py_buffer view, int have_view = 0) {
  if (PyObject_GetBuffer($input, &view, PyBUF_C_CONTIGUOUS) < 0) SWIG_fail;
  have_view = 1;
  $1 = view.buf;
}
%typemap(check) const void *data {
  /* arguments 2..4 are ndim, sizes, dtype (ct_from_data is the one function with `data`) */
  int64_t need = ct_dtype_itemsize(arg4);
  for (int i = 0; i < arg2 && need > 0; ++i) need *= arg3[i];
  if (need > (int64_t)view$argnum.len) {
    PyErr_Format(PyExc_ValueError, "ct_from_data: the buffer holds %zd bytes, the tensor needs %lld",
                 view$argnum.len, (long long)need);
    SWIG_fail;
  }
}
%typemap(freearg) const void *data {
  if (have_view$argnum) PyBuffer_Release(&view$argnum);
}

/* ct_from_blob's memory: its address as an int (from __array_interface__ or data_ptr()). */
%typemap(in) void *data {
  $1 = PyLong_AsVoidPtr($input);
  if (!$1 && PyErr_Occurred()) SWIG_fail;
}
/* ct_from_blob's deleter: the Python object owning the memory, or None.  The tensor keeps a
   reference to it until its storage dies; on failure the reference is dropped again (the
   header: "On failure the deleter is NOT called"). */
%typemap(in) (void (*deleter)(void *data, void *ctx), void *ctx) (PyObject *owner_ref = NULL) {
  if ($input == Py_None) {
    $1 = NULL;
    $2 = NULL;
  } else {
    Py_INCREF($input);
    owner_ref = $input;
    $1 = ctpy_release_owner;
    $2 = $input;
  }
}
%typemap(argout) (void (*deleter)(void *data, void *ctx), void *ctx) {
  owner_ref$argnum = NULL; /* the storage owns it now */
}
%typemap(freearg) (void (*deleter)(void *data, void *ctx), void *ctx) {
  Py_XDECREF(owner_ref$argnum);
}

/* DLPack import: a "dltensor" / "dltensor_versioned" capsule, renamed "used_..." once
   ctensor has taken ownership. */
%typemap(in) struct DLManagedTensor *m (PyObject *cap = NULL) {
  if (!PyCapsule_IsValid($input, "dltensor")) {
    if (PyCapsule_IsValid($input, "used_dltensor"))
      PyErr_SetString(PyExc_ValueError, "from_dlpack: the DLPack capsule was already consumed");
    else
      PyErr_Format(PyExc_TypeError, "from_dlpack: expected a \"dltensor\" capsule, got %.100s",
                   Py_TYPE($input)->tp_name);
    SWIG_fail;
  }
  $1 = (struct DLManagedTensor *)PyCapsule_GetPointer($input, "dltensor");
  cap = $input;
}
%typemap(argout) struct DLManagedTensor *m {
  if (PyCapsule_SetName(cap$argnum, "used_dltensor") < 0) SWIG_fail;
}
%typemap(in) struct DLManagedTensorVersioned *m (PyObject *cap = NULL) {
  if (!PyCapsule_IsValid($input, "dltensor_versioned")) {
    if (PyCapsule_IsValid($input, "used_dltensor_versioned"))
      PyErr_SetString(PyExc_ValueError, "from_dlpack: the DLPack capsule was already consumed");
    else
      PyErr_Format(PyExc_TypeError,
                   "from_dlpack: expected a \"dltensor_versioned\" capsule, got %.100s",
                   Py_TYPE($input)->tp_name);
    SWIG_fail;
  }
  $1 = (struct DLManagedTensorVersioned *)PyCapsule_GetPointer($input, "dltensor_versioned");
  cap = $input;
}
%typemap(argout) struct DLManagedTensorVersioned *m {
  if (PyCapsule_SetName(cap$argnum, "used_dltensor_versioned") < 0) SWIG_fail;
}

/* Lists of tensors (ct_cat, ct_stack): any sequence of ctensor.Tensor. */
%typemap(in) (int n, const ct_tensor *const *tensors) (PyObject *fast = NULL, const ct_tensor **tmp = NULL) {
  fast = PySequence_Fast($input, "$symname(): expected a sequence of tensors");
  if (!fast) SWIG_fail;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
  tmp = (const ct_tensor **)PyMem_Malloc(sizeof(ct_tensor *) * (size_t)(len ? len : 1));
  if (!tmp) {
    PyErr_NoMemory();
    SWIG_fail;
  }
  for (Py_ssize_t i = 0; i < len; ++i) {
    /* None passes NULL: a whole dim in ct_index / ct_index_put's lists (other functions refuse it) */
    PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
    tmp[i] = item == Py_None ? NULL : ctpy_handle(item);
    if (!tmp[i] && item != Py_None) {
      PyErr_Format(PyExc_TypeError, "$symname(): expected a sequence of Tensors, element %zd is %.100s", i,
                   Py_TYPE(PySequence_Fast_GET_ITEM(fast, i))->tp_name);
      SWIG_fail;
    }
  }
  $1 = (int)len;
  $2 = ($2_ltype)tmp;
}
%typemap(freearg) (int n, const ct_tensor *const *tensors) {
  PyMem_Free(tmp$argnum);
  Py_XDECREF(fast$argnum);
}

/* Multi-output views: Python calls ct_unbind(t, dim), ct_split(t, split_size, dim),
   ct_split_with_sizes(t, split_sizes, dim) and ct_chunk(t, chunks, dim) without the
   (out, cap) pair, and gets a tuple of Tensors (fastpath.c: ctpy_unbind, ...). */
%ignore ct_unbind;
%ignore ct_split;
%ignore ct_split_with_sizes;
%ignore ct_chunk;
%rename(ct_unbind) ctpy_unbind;
%rename(ct_split) ctpy_split;
%rename(ct_split_with_sizes) ctpy_split_with_sizes;
%rename(ct_chunk) ctpy_chunk;
%ignore ct_unbind_copy;
%ignore ct_split_copy;
%ignore ct_split_with_sizes_copy;
%rename(ct_unbind_copy) ctpy_unbind_copy;
%rename(ct_split_copy) ctpy_split_copy;
%rename(ct_split_with_sizes_copy) ctpy_split_with_sizes_copy;

/* The split family (ctensor.h, "The split family and other composite views"): the same
   calls without (out, cap), returning tuples (ctpy_tensor_split, ... below).  Lists of
   indices and lengths are any sequences of ints; ct_movedim takes two sequences. */
%ignore ct_tensor_split;
%ignore ct_tensor_split_indices;
%ignore ct_tensor_split_tensor;
%ignore ct_hsplit;
%ignore ct_vsplit;
%ignore ct_dsplit;
%ignore ct_hsplit_indices;
%ignore ct_vsplit_indices;
%ignore ct_dsplit_indices;
%ignore ct_unsafe_split;
%ignore ct_unsafe_split_with_sizes;
%ignore ct_unsafe_chunk;
%ignore ct_broadcast_tensors;
%ignore ct_broadcast_shapes;
%ignore ct_movedim;
%ignore ct_moveaxis;
%rename(ct_tensor_split) ctpy_tensor_split;
%rename(ct_tensor_split_indices) ctpy_tensor_split_indices;
%rename(ct_tensor_split_tensor) ctpy_tensor_split_tensor;
%rename(ct_hsplit) ctpy_hsplit;
%rename(ct_vsplit) ctpy_vsplit;
%rename(ct_dsplit) ctpy_dsplit;
%rename(ct_hsplit_indices) ctpy_hsplit_indices;
%rename(ct_vsplit_indices) ctpy_vsplit_indices;
%rename(ct_dsplit_indices) ctpy_dsplit_indices;
%rename(ct_unsafe_split) ctpy_unsafe_split;
%rename(ct_unsafe_split_with_sizes) ctpy_unsafe_split_with_sizes;
%rename(ct_unsafe_chunk) ctpy_unsafe_chunk;
%rename(ct_broadcast_tensors) ctpy_broadcast_tensors;
%rename(ct_broadcast_shapes) ctpy_broadcast_shapes;
%rename(ct_movedim) ctpy_movedim;
%newobject ctpy_movedim;
%newobject ct_unflatten;
%newobject ct_swapaxes;
%newobject ct_swapdims;
%newobject ct_expand_as;
%newobject ct_view_as;
%newobject ct_reshape_as;
%newobject ct_broadcast_to;
%newobject ct_atleast_1d;
%newobject ct_atleast_2d;
%newobject ct_atleast_3d;
%{
/* A sequence of ints as a PyMem array (*n entries; free with PyMem_Free); -1 with a
   TypeError naming fn and arg otherwise. */
static int ctpy_int64_array(PyObject *seq, int64_t **out, int64_t *n, const char *fn, const char *arg) {
  PyObject *fast = PySequence_Fast(seq, "");
  if (!fast) {
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be tuple of ints, not %.100s", fn, arg,
                 Py_TYPE(seq)->tp_name);
    return -1;
  }
  Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
  int64_t *v = (int64_t *)PyMem_Malloc(sizeof(int64_t) * (size_t)(k ? k : 1));
  if (!v) {
    Py_DECREF(fast);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t i = 0; i < k; ++i) {
    if (ctpy_as_int64(PySequence_Fast_GET_ITEM(fast, i), &v[i], arg) < 0) {
      PyMem_Free(v);
      Py_DECREF(fast);
      return -1;
    }
  }
  Py_DECREF(fast);
  *out = v;
  *n = (int64_t)k;
  return 0;
}

static PyObject *ctpy_tensor_split(const ct_tensor *t, int64_t sections, int dim) {
#define CALL_(out, cap) ct_tensor_split(t, sections, dim, out, cap)
  CTPY_MULTI(CALL_);
#undef CALL_
}
static PyObject *ctpy_tensor_split_tensor(const ct_tensor *t, const ct_tensor *indices_or_sections, int dim) {
#define CALL_(out, cap) ct_tensor_split_tensor(t, indices_or_sections, dim, out, cap)
  CTPY_MULTI(CALL_);
#undef CALL_
}
static PyObject *ctpy_unsafe_split(const ct_tensor *t, int64_t split_size, int dim) {
#define CALL_(out, cap) ct_unsafe_split(t, split_size, dim, out, cap)
  CTPY_MULTI(CALL_);
#undef CALL_
}
static PyObject *ctpy_unsafe_chunk(const ct_tensor *t, int64_t chunks, int dim) {
#define CALL_(out, cap) ct_unsafe_chunk(t, chunks, dim, out, cap)
  CTPY_MULTI(CALL_);
#undef CALL_
}
#define CALL_hsplit(out, cap) ct_hsplit(t, sections, out, cap)
#define CALL_vsplit(out, cap) ct_vsplit(t, sections, out, cap)
#define CALL_dsplit(out, cap) ct_dsplit(t, sections, out, cap)
static PyObject *ctpy_hsplit(const ct_tensor *t, int64_t sections) { CTPY_MULTI(CALL_hsplit); }
static PyObject *ctpy_vsplit(const ct_tensor *t, int64_t sections) { CTPY_MULTI(CALL_vsplit); }
static PyObject *ctpy_dsplit(const ct_tensor *t, int64_t sections) { CTPY_MULTI(CALL_dsplit); }

/* The forms taking a list: the list is read into vals (k entries) first. */
#define CTPY_LIST_FORM(name, fn, arg, CALL)                                      \
  static PyObject *name##_call(const ct_tensor *t, const int64_t *vals, int64_t k, int dim) { \
    (void)dim;                                                                   \
    CTPY_MULTI(CALL);                                                            \
  }                                                                              \
  static PyObject *name##_list(const ct_tensor *t, PyObject *seq, int dim) {     \
    int64_t *vals = NULL, k = 0;                                                 \
    if (ctpy_int64_array(seq, &vals, &k, fn, arg) < 0) return NULL;              \
    PyObject *r = name##_call(t, vals, k, dim);                                  \
    PyMem_Free(vals);                                                            \
    return r;                                                                    \
  }
#define CALL_tsi(out, cap) ct_tensor_split_indices(t, k, vals, dim, out, cap)
#define CALL_hsi(out, cap) ct_hsplit_indices(t, k, vals, out, cap)
#define CALL_vsi(out, cap) ct_vsplit_indices(t, k, vals, out, cap)
#define CALL_dsi(out, cap) ct_dsplit_indices(t, k, vals, out, cap)
#define CALL_usws(out, cap) ct_unsafe_split_with_sizes(t, k, vals, dim, out, cap)
CTPY_LIST_FORM(ctpy_tsi, "tensor_split", "indices", CALL_tsi)
CTPY_LIST_FORM(ctpy_hsi, "hsplit", "indices", CALL_hsi)
CTPY_LIST_FORM(ctpy_vsi, "vsplit", "indices", CALL_vsi)
CTPY_LIST_FORM(ctpy_dsi, "dsplit", "indices", CALL_dsi)
CTPY_LIST_FORM(ctpy_usws, "unsafe_split_with_sizes", "split_size", CALL_usws)
static PyObject *ctpy_tensor_split_indices(const ct_tensor *t, PyObject *indices, int dim) {
  return ctpy_tsi_list(t, indices, dim);
}
static PyObject *ctpy_hsplit_indices(const ct_tensor *t, PyObject *indices) { return ctpy_hsi_list(t, indices, 0); }
static PyObject *ctpy_vsplit_indices(const ct_tensor *t, PyObject *indices) { return ctpy_vsi_list(t, indices, 0); }
static PyObject *ctpy_dsplit_indices(const ct_tensor *t, PyObject *indices) { return ctpy_dsi_list(t, indices, 0); }
static PyObject *ctpy_unsafe_split_with_sizes(const ct_tensor *t, PyObject *split_sizes, int dim) {
  return ctpy_usws_list(t, split_sizes, dim);
}

static PyObject *ctpy_bt_call(int n, const ct_tensor *const *hs) {
#define CALL_bt(out, cap) ct_broadcast_tensors(n, hs, out, cap)
  CTPY_MULTI(CALL_bt);
#undef CALL_bt
}

/* broadcast_tensors: a sequence of Tensors (possibly empty). */
static PyObject *ctpy_broadcast_tensors(PyObject *tensors) {
  PyObject *fast = PySequence_Fast(tensors, "broadcast_tensors(): expected a sequence of Tensors");
  if (!fast) return NULL;
  Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
  const ct_tensor **hs = (const ct_tensor **)PyMem_Malloc(sizeof(ct_tensor *) * (size_t)(k ? k : 1));
  PyObject *r = NULL;
  if (!hs) {
    PyErr_NoMemory();
    goto done;
  }
  if (k > INT_MAX) {
    PyErr_SetString(PyExc_ValueError, "broadcast_tensors(): too many tensors");
    goto done;
  }
  for (Py_ssize_t i = 0; i < k; ++i) {
    PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
    if (!PyObject_TypeCheck(o, ctpy_tensor_type())) {
      PyErr_Format(PyExc_TypeError, "expected Tensor as element %zd in argument 0, but got %.100s", i,
                   Py_TYPE(o)->tp_name);
      goto done;
    }
    hs[i] = ctpy_handle(o);
  }
  r = ctpy_bt_call((int)k, hs);
done:
  PyMem_Free(hs);
  Py_DECREF(fast);
  return r;
}

/* broadcast_shapes: a sequence of sequences of ints; returns a tuple of ints. */
static PyObject *ctpy_broadcast_shapes(PyObject *shapes) {
  PyObject *fast = PySequence_Fast(shapes, "broadcast_shapes(): expected a sequence of shapes");
  if (!fast) return NULL;
  Py_ssize_t k = PySequence_Fast_GET_SIZE(fast);
  if (k > INT_MAX) {
    Py_DECREF(fast);
    PyErr_SetString(PyExc_ValueError, "broadcast_shapes(): too many shapes");
    return NULL;
  }
  int64_t *store = (int64_t *)PyMem_Malloc(sizeof(int64_t) * CT_MAX_DIMS * (size_t)(k ? k : 1));
  int *ndims = (int *)PyMem_Malloc(sizeof(int) * (size_t)(k ? k : 1));
  const int64_t **ptrs = (const int64_t **)PyMem_Malloc(sizeof(int64_t *) * (size_t)(k ? k : 1));
  PyObject *r = NULL;
  if (!store || !ndims || !ptrs) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < k; ++i) {
    int n = ctpy_int_seq(PySequence_Fast_GET_ITEM(fast, i), store + i * CT_MAX_DIMS, "broadcast_shapes", "shapes");
    if (n < 0) goto done;
    ndims[i] = n;
    ptrs[i] = store + i * CT_MAX_DIMS;
  }
  {
    int64_t out[CT_MAX_DIMS];
    int m = ct_broadcast_shapes((int)k, ndims, ptrs, out, CT_MAX_DIMS);
    if (m < 0) goto done; /* the %exception raises from the C error */
    r = PyTuple_New(m);
    for (int i = 0; r && i < m; ++i) {
      PyObject *v = PyLong_FromLongLong((long long)out[i]);
      if (!v) {
        Py_CLEAR(r);
        break;
      }
      PyTuple_SET_ITEM(r, i, v);
    }
  }
done:
  PyMem_Free(store);
  PyMem_Free(ndims);
  PyMem_Free(ptrs);
  Py_DECREF(fast);
  return r;
}

/* movedim: source and destination as sequences of ints of the same length (the Python layer
   turns an int into a one-element list and checks the lengths with torch's message). */
static ct_tensor *ctpy_movedim(const ct_tensor *t, PyObject *source, PyObject *destination) {
  int64_t s[CT_MAX_DIMS], d[CT_MAX_DIMS];
  int si[CT_MAX_DIMS], di[CT_MAX_DIMS];
  int ns = ctpy_int_seq(source, s, "movedim", "source");
  if (ns < 0) return NULL;
  int nd = ctpy_int_seq(destination, d, "movedim", "destination");
  if (nd < 0) return NULL;
  if (ns != nd) {
    PyErr_SetString(PyExc_RuntimeError, "movedim: source and destination differ in length");
    return NULL;
  }
  for (int i = 0; i < ns; ++i) {
    if (ctpy_dim(s[i], &si[i]) < 0 || ctpy_dim(d[i], &di[i]) < 0) return NULL;
  }
  return ct_movedim(t, ns, si, di);
}
%}

/* ct_max_dim / ct_min_dim: Python gets (values, indices). */
%typemap(in, numinputs=0) ct_tensor **indices (ct_tensor *tmp = NULL) {
  $1 = &tmp;
}
%typemap(argout) ct_tensor **indices {
  PyObject *i = ctpy_wrap(tmp$argnum);
  tmp$argnum = NULL; /* owned by i now (or released on failure) */
  if (!i) SWIG_fail;
  $result = SWIG_AppendOutput($result, i);
}
%typemap(freearg) ct_tensor **indices {
  ct_tensor_release(tmp$argnum); /* only when the call failed after writing it (never) */
}
/* ct_var_mean / ct_std_mean: Python gets (var or std, mean), as indices above. */
%apply ct_tensor **indices { ct_tensor **mean };

/* ct_item: the value is the result. */
%typemap(in, numinputs=0) double *out (double tmp) {
  $1 = &tmp;
}
%typemap(argout) double *out {
  Py_XDECREF($result);
  $result = PyFloat_FromDouble(*$1);
}

/* ct_item_complex: the value is the result, a Python complex. */
%typemap(in, numinputs=0) (double *re, double *imag) (double tmp_re, double tmp_im) {
  $1 = &tmp_re;
  $2 = &tmp_im;
}
%typemap(argout) (double *re, double *imag) {
  Py_XDECREF($result);
  $result = PyComplex_FromDoubles(*$1, *$2);
}

/* ct_tensor_to_string: no buffer argument from Python; the result is the str. */
%typemap(in, numinputs=0) (char *buf, int64_t cap) (char tmp[512]) {
  $1 = tmp;
  $2 = (int64_t)sizeof tmp;
}
%typemap(out) int64_t ct_tensor_to_string "";
%typemap(argout) (char *buf, int64_t cap) {
  if (result < $2) {
    $result = PyUnicode_FromStringAndSize($1, (Py_ssize_t)result);
  } else {
    char *big = (char *)PyMem_Malloc((size_t)result + 1);
    if (!big) {
      PyErr_NoMemory();
      SWIG_fail;
    }
    int64_t m = ct_tensor_to_string(arg1, big, result + 1);
    $result = m < 0 ? ctpy_raise_last("ct_tensor_to_string")
                    : PyUnicode_FromStringAndSize(big, (Py_ssize_t)(m < result ? m : result));
    PyMem_Free(big);
  }
  if (!$result) SWIG_fail;
}

/* ct_explain: b may be None (NULL); no buffer argument from Python; the result is the str.
   (One typemap over the three arguments, so the ct_tensor_to_string one above does not apply.) */
%typemap(in) (const ct_tensor *b, char *buf, int64_t cap) (char tmp[2048]) {
  $1 = NULL;
  if ($input != Py_None) {
    $1 = ctpy_handle($input);
    if (!$1) {
      PyErr_Format(PyExc_TypeError, "$symname(): argument 'b' must be Tensor or None, not %.100s",
                   Py_TYPE($input)->tp_name);
      SWIG_fail;
    }
  }
  $2 = tmp;
  $3 = (int64_t)sizeof tmp;
}
%typemap(out) int64_t ct_explain "";
%typemap(argout) (const ct_tensor *b, char *buf, int64_t cap) {
  if (result < 0) {  /* the call failed (bad handle, out of memory): its error, not SystemError */
    ctpy_raise_last("ct_explain");
    SWIG_fail;
  }
  if (result < $3) {
    $result = PyUnicode_FromStringAndSize($2, (Py_ssize_t)result);
  } else {
    char *big = (char *)PyMem_Malloc((size_t)result + 1);
    if (!big) {
      PyErr_NoMemory();
      SWIG_fail;
    }
    int64_t m = ct_explain(arg1, $1, big, result + 1);
    $result = m < 0 ? ctpy_raise_last("ct_explain")
                    : PyUnicode_FromStringAndSize(big, (Py_ssize_t)(m < result ? m : result));
    PyMem_Free(big);
  }
  if (!$result) SWIG_fail;
}

/* ---- Typemaps: results -------------------------------------------------------------------- */

/* A handle becomes its ctensor.Tensor (the existing object if the tensor has one). */
%typemap(out) ct_tensor * {
  $result = ctpy_wrap(($owner & SWIG_POINTER_OWN) ? $1 : ct_tensor_retain($1));
  if (!$result) SWIG_fail;
}
%typemap(out) ct_storage * {
  $result = SWIG_NewPointerObj($1, SWIGTYPE_p_ct_storage, $owner);
}
%typemap(out) const int64_t *ct_tensor_sizes, const int64_t *ct_tensor_strides {
  $result = ctpy_size_new(ct_tensor_ndim(arg1), $1);
  if (!$result) SWIG_fail;
}
/* Addresses are ints, as torch's data_ptr(). */
%typemap(out) void * {
  $result = PyLong_FromVoidPtr($1);
}
/* DLPack export: a capsule that still owns the struct until a consumer renames it. */
%typemap(out) struct DLManagedTensor * {
  $result = PyCapsule_New($1, "dltensor", ctpy_dltensor_capsule_destructor);
  if (!$result) {
    if ($1->deleter) $1->deleter($1);
    SWIG_fail;
  }
}
%typemap(out) struct DLManagedTensorVersioned * {
  $result = PyCapsule_New($1, "dltensor_versioned", ctpy_dltensor_versioned_capsule_destructor);
  if (!$result) {
    if ($1->deleter) $1->deleter($1);
    SWIG_fail;
  }
}

/* ---- The opaque handles as classes --------------------------------------------------------- */

%nodefaultctor ct_tensor;
%nodefaultdtor ct_tensor;
%nodefaultctor ct_storage;
%nodefaultdtor ct_storage;
%rename(Tensor) ct_tensor;
%rename(UntypedStorage) ct_storage;
/* Slots written by hand (fastpath.c). */
%feature("python:tp_dealloc") ct_tensor "ctpy_tensor_dealloc";
%feature("python:tp_hash") ct_tensor "ctpy_tensor_hash";
%feature("python:tp_setattro") ct_tensor "ctpy_tensor_setattro";
%feature("python:tp_repr") ct_tensor "ctpy_repr";
%feature("python:tp_str") ct_tensor "ctpy_repr";
%feature("python:tp_iter") ct_tensor "ctpy_iter";
%feature("python:mp_subscript") ct_tensor "ctpy_getitem";
%feature("python:mp_ass_subscript") ct_tensor "ctpy_setitem";
%feature("python:mp_length") ct_tensor "ctpy_len";
%feature("python:sq_length") ct_tensor "ctpy_len";
%feature("python:nb_nonzero") ct_tensor "ctpy_bool"; /* nb_bool */
%feature("python:nb_int") ct_tensor "ctpy_int";
%feature("python:nb_float") ct_tensor "ctpy_float";
%feature("python:nb_index") ct_tensor "ctpy_index";
/* operators (fastpath.c: torch's wrapped-number rules for Python scalars) */
%feature("python:nb_add") ct_tensor "ctpy_nb_add";
%feature("python:nb_subtract") ct_tensor "ctpy_nb_sub";
%feature("python:nb_multiply") ct_tensor "ctpy_nb_mul";
%feature("python:nb_divide") ct_tensor "ctpy_nb_div"; /* SWIG fills nb_true_divide from it */
%feature("python:nb_inplace_add") ct_tensor "ctpy_nb_iadd";
%feature("python:nb_inplace_subtract") ct_tensor "ctpy_nb_isub";
%feature("python:nb_inplace_multiply") ct_tensor "ctpy_nb_imul";
%feature("python:nb_inplace_divide") ct_tensor "ctpy_nb_idiv";
%feature("python:nb_matrix_multiply") ct_tensor "ctpy_nb_matmul";
%feature("python:nb_floor_divide") ct_tensor "ctpy_nb_floordiv";
%feature("python:nb_remainder") ct_tensor "ctpy_nb_mod";
%feature("python:nb_inplace_floor_divide") ct_tensor "ctpy_nb_ifloordiv";
%feature("python:nb_inplace_remainder") ct_tensor "ctpy_nb_imod";
%feature("python:nb_power") ct_tensor "ctpy_nb_pow";
%feature("python:nb_inplace_power") ct_tensor "ctpy_nb_ipow";
%feature("python:nb_negative") ct_tensor "ctpy_nb_neg";
%feature("python:nb_positive") ct_tensor "ctpy_nb_pos";
%feature("python:nb_absolute") ct_tensor "ctpy_nb_abs";
%feature("python:tp_richcompare") ct_tensor "ctpy_compare";
%feature("python:tp_dealloc") ct_storage "ctpy_storage_dealloc";
%feature("python:tp_repr") ct_storage "ctpy_storage_repr";

/* The class docstrings help() shows (SWIG's default is the C name, "::ct_tensor"). */
%feature("docstring") ct_tensor
"A multi-dimensional array of one dtype over a storage, as torch.Tensor: a handle on a C ct_tensor.\n\n"
"Views (view, transpose, indexing with ints and slices, ...) share the storage; copies (clone,\n"
"contiguous of a non-contiguous tensor, arithmetic results) get a new one; methods ending in _\n"
"work in place and return self.  Each method's docstring says which.";
%feature("docstring") ct_storage
"The bytes under one or more tensors, as torch.UntypedStorage: a handle on a C ct_storage.";

struct ct_tensor {};
struct ct_storage {};

/* Arguments may be given by keyword, named as in the header (and, for methods, as torch's);
   help() shows the C signature. */
%feature("kwargs");
%feature("autodoc", "1");

/* ct_clamp_tensor(_): a bound may be None (NULL), as in torch.clamp(x, None, hi). */
%typemap(in) const ct_tensor *min, const ct_tensor *max {
  if ($input == Py_None) {
    $1 = NULL;
  } else {
    $1 = ctpy_handle($input);
    if (!$1) {
      PyErr_Format(PyExc_TypeError, "$symname(): argument '$1_name' must be Tensor or None, not %.100s",
                   Py_TYPE($input)->tp_name);
      SWIG_fail;
    }
  }
}
/* scans, sort, topk, clamp (new storage; the in-place forms return a status): they may touch
   much memory, so they release the GIL.  ct_sort / ct_topk take the indices typemap above. */
%newobject ct_cumsum;
%newobject ct_cumprod;
%newobject ct_sort;
%newobject ct_argsort;
%newobject ct_topk;
%newobject ct_clamp;
%newobject ct_clamp_tensor;
%newobject ct_clamp_min;
%newobject ct_clamp_max;
%newobject ct_clamp_min_tensor;
%newobject ct_clamp_max_tensor;
%thread ct_cumsum;
%thread ct_cumprod;
%thread ct_sort;
%thread ct_argsort;
%thread ct_topk;
%thread ct_clamp;
%thread ct_clamp_tensor;
%thread ct_clamp_min;
%thread ct_clamp_max;
%thread ct_clamp_min_tensor;
%thread ct_clamp_max_tensor;
%thread ct_cumsum_;
%thread ct_cumprod_;
%thread ct_clamp_;
%thread ct_clamp_tensor_;
%thread ct_clamp_min_;
%thread ct_clamp_max_;
%thread ct_clamp_min_tensor_;
%thread ct_clamp_max_tensor_;

/* ---- Files: mapped storages and safetensors (include/ctensor.h "Files") ----------------------
   A ct_checkpoint is a plain SWIG pointer: ctensor/_safetensors.py owns it and calls
   ct_checkpoint_release.  ct_safetensors_open_memory takes any C-contiguous buffer;
   ct_safetensors_save takes a sequence of (name, Tensor) pairs and None or a sequence of
   (key, value) string pairs; the strings stay alive in the sequences while C reads them. */
%newobject ct_storage_from_file;
%newobject ct_checkpoint_tensor;
%newobject ct_checkpoint_storage;
%thread ct_safetensors_open;
%thread ct_safetensors_save;
%thread ct_torch_load;
%thread ct_torch_save;
%typemap(in) (const void *bytes, int64_t n) (Py_buffer view, int have_view = 0) {
  if (PyObject_GetBuffer($input, &view, PyBUF_C_CONTIGUOUS) < 0) SWIG_fail;
  have_view = 1;
  $1 = view.buf;
  $2 = (int64_t)view.len;
}
%typemap(freearg) (const void *bytes, int64_t n) {
  if (have_view$argnum) PyBuffer_Release(&view$argnum);
}
%typemap(in) (int64_t n, const char *const *names, const ct_tensor *const *tensors)
    (PyObject *fast = NULL, const char **nm = NULL, const ct_tensor **ts = NULL) {
  fast = PySequence_Fast($input, "$symname(): expected a sequence of (name, Tensor) pairs");
  if (!fast) SWIG_fail;
  Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
  nm = (const char **)PyMem_Malloc(sizeof(char *) * (size_t)(len ? len : 1));
  ts = (const ct_tensor **)PyMem_Malloc(sizeof(ct_tensor *) * (size_t)(len ? len : 1));
  if (!nm || !ts) {
    PyErr_NoMemory();
    SWIG_fail;
  }
  for (Py_ssize_t i = 0; i < len; ++i) {
    PyObject *pair = PySequence_Fast_GET_ITEM(fast, i);
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(pair, 0))) {
      PyErr_Format(PyExc_TypeError, "$symname(): element %zd is not a (str, Tensor) tuple", i);
      SWIG_fail;
    }
    nm[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 0));
    if (!nm[i]) SWIG_fail;
    ts[i] = ctpy_handle(PyTuple_GET_ITEM(pair, 1));
    if (!ts[i]) {
      PyErr_Format(PyExc_TypeError, "$symname(): the value of '%s' must be Tensor, not %.100s", nm[i],
                   Py_TYPE(PyTuple_GET_ITEM(pair, 1))->tp_name);
      SWIG_fail;
    }
  }
  $1 = (int64_t)len;
  $2 = ($2_ltype)nm;
  $3 = ($3_ltype)ts;
}
%typemap(freearg) (int64_t n, const char *const *names, const ct_tensor *const *tensors) {
  PyMem_Free(nm$argnum);
  PyMem_Free(ts$argnum);
  Py_XDECREF(fast$argnum);
}
%typemap(in) (int64_t n_metadata, const char *const *keys, const char *const *values)
    (PyObject *fast = NULL, const char **ks = NULL, const char **vs = NULL) {
  if ($input == Py_None) {
    $1 = -1;
    $2 = NULL;
    $3 = NULL;
  } else {
    fast = PySequence_Fast($input, "$symname(): expected None or a sequence of (str, str) pairs");
    if (!fast) SWIG_fail;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    ks = (const char **)PyMem_Malloc(sizeof(char *) * (size_t)(len ? len : 1));
    vs = (const char **)PyMem_Malloc(sizeof(char *) * (size_t)(len ? len : 1));
    if (!ks || !vs) {
      PyErr_NoMemory();
      SWIG_fail;
    }
    for (Py_ssize_t i = 0; i < len; ++i) {
      PyObject *pair = PySequence_Fast_GET_ITEM(fast, i);
      if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(pair, 0)) ||
          !PyUnicode_Check(PyTuple_GET_ITEM(pair, 1))) {
        PyErr_Format(PyExc_TypeError, "$symname(): metadata element %zd is not a (str, str) tuple", i);
        SWIG_fail;
      }
      ks[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 0));
      vs[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(pair, 1));
      if (!ks[i] || !vs[i]) SWIG_fail;
    }
    $1 = (int64_t)len;
    $2 = ($2_ltype)ks;
    $3 = ($3_ltype)vs;
  }
}
%typemap(freearg) (int64_t n_metadata, const char *const *keys, const char *const *values) {
  PyMem_Free(ks$argnum);
  PyMem_Free(vs$argnum);
  Py_XDECREF(fast$argnum);
}

/* ---- The header: every function, with the maps above ------------------------------------ */
/* out= (include/ctensor.h "Out arguments"): ct_write_out takes its inputs as a list of
   Tensors; Python detects a resize itself (the shape changes), so warn_resized is not asked. */
%apply (int n, const ct_tensor *const *tensors) { (int ninputs, const ct_tensor *const *inputs) };
%typemap(in, numinputs=0) int *warn_resized { $1 = NULL; }
%thread ct_write_out;

%include "ctensor.h"

PyObject *ctpy_unbind(const ct_tensor *t, int dim);
PyObject *ctpy_split(const ct_tensor *t, int64_t split_size, int dim);
PyObject *ctpy_split_with_sizes(const ct_tensor *t, PyObject *split_sizes, int dim);
PyObject *ctpy_chunk(const ct_tensor *t, int64_t chunks, int dim);
PyObject *ctpy_unbind_copy(const ct_tensor *t, int dim);
PyObject *ctpy_split_copy(const ct_tensor *t, int64_t split_size, int dim);
PyObject *ctpy_split_with_sizes_copy(const ct_tensor *t, PyObject *split_sizes, int dim);
PyObject *ctpy_tensor_split(const ct_tensor *t, int64_t sections, int dim);
PyObject *ctpy_tensor_split_indices(const ct_tensor *t, PyObject *indices, int dim);
PyObject *ctpy_tensor_split_tensor(const ct_tensor *t, const ct_tensor *indices_or_sections, int dim);
PyObject *ctpy_hsplit(const ct_tensor *t, int64_t sections);
PyObject *ctpy_vsplit(const ct_tensor *t, int64_t sections);
PyObject *ctpy_dsplit(const ct_tensor *t, int64_t sections);
PyObject *ctpy_hsplit_indices(const ct_tensor *t, PyObject *indices);
PyObject *ctpy_vsplit_indices(const ct_tensor *t, PyObject *indices);
PyObject *ctpy_dsplit_indices(const ct_tensor *t, PyObject *indices);
PyObject *ctpy_unsafe_split(const ct_tensor *t, int64_t split_size, int dim);
PyObject *ctpy_unsafe_split_with_sizes(const ct_tensor *t, PyObject *split_sizes, int dim);
PyObject *ctpy_unsafe_chunk(const ct_tensor *t, int64_t chunks, int dim);
PyObject *ctpy_broadcast_tensors(PyObject *tensors);
PyObject *ctpy_broadcast_shapes(PyObject *shapes);
ct_tensor *ctpy_movedim(const ct_tensor *t, PyObject *source, PyObject *destination);

/* ---- Tensor methods ------------------------------------------------------------------------
   Named and behaving as torch.Tensor's.  Views and copies are the header's.  The hot view
   methods (t, transpose, view, reshape, expand, permute, unsqueeze, squeeze, select, narrow,
   diagonal, unfold, flatten), size(), stride(), shape, dtype, ndim, T, _base, _version, data,
   indexing and the slots are hand-written METH_FASTCALL code in fastpath.c (SWIG's generated
   argument parsing costs as much as the view itself); the methods below are generated.  Python-level methods (tolist, numpy, to,
   __dlpack__, ...) are added by ctensor/_tensor.py.
   Compute: the operators are the python:nb_* / tp_richcompare slots above (fastpath.c); the
   methods (add, sum, matmul, ...) are Python-level, in ctensor/_compute.py, over the ct_*
   functions and the FASTCALL _arith/_compare that _C._setup_compute returns (torch's keyword
   arguments and scalar rules). */

%newobject ct_tensor::as_strided;
%newobject ct_tensor::ravel;
%newobject ct_tensor::contiguous;
%newobject ct_tensor::clone;
%newobject ct_tensor::detach;
%newobject ct_tensor::index_select;
%newobject ct_tensor::expand_as;
%newobject ct_tensor::view_as;
%newobject ct_tensor::reshape_as;
%newobject ct_tensor::copy_;
%newobject ct_tensor::half;
%newobject ct_tensor::bfloat16;
%newobject ct_tensor::byte;
%newobject ct_tensor::untyped_storage;

%thread ct_tensor::contiguous;
%thread ct_tensor::clone;
%thread ct_tensor::ravel;
%thread ct_tensor::index_select;
%thread ct_tensor::reshape_as;
%thread ct_tensor::copy_;

/* float(), int(), ... are C keywords; SWIG renames the C functions, Python sees torch's names
   (as methods they shadow nothing; warning 321 is about module-level names). */
#pragma SWIG nowarn=321
/* %extend functions are emitted as C functions named <struct>_<method>: methods whose C
   name would collide with a header function (ct_tensor_numel, ...) get a trailing _ in C. */
%rename("numel") ct_tensor::numel_;
%rename("is_contiguous") ct_tensor::is_contiguous_;
%rename("storage_id") ct_tensor::storage_id_;
%rename("refcount") ct_tensor::refcount_;
%rename("nbytes") ct_storage::nbytes_;
%rename("is_read_only") ct_storage::is_read_only_;
%rename("float") ct_tensor::float_;
%rename("double") ct_tensor::double_;
%rename("long") ct_tensor::long_;
%rename("int") ct_tensor::int_;
%rename("short") ct_tensor::short_;
%rename("char") ct_tensor::char_;
%rename("bool") ct_tensor::bool_;
%newobject ct_tensor::float_;
%newobject ct_tensor::double_;
%newobject ct_tensor::long_;
%newobject ct_tensor::int_;
%newobject ct_tensor::short_;
%newobject ct_tensor::char_;
%newobject ct_tensor::bool_;

%extend ct_tensor {
  /* introspection */
  int dim() { return ct_tensor_ndim($self); }
  int ndimension() { return ct_tensor_ndim($self); }
  int64_t numel_() { return ct_tensor_numel($self); }
  int64_t nelement() { return ct_tensor_numel($self); }
  int64_t element_size() { return ct_dtype_itemsize(ct_tensor_dtype($self)); }
  int64_t storage_offset() { return ct_tensor_offset($self); }
  bool is_contiguous_() { return ct_tensor_is_contiguous($self) == 1; }
  bool is_floating_point() { return ct_tensor_dtype($self) >= CT_FLOAT16; }
  bool _is_view() { return ct_tensor_is_view($self) == 1; }
  /* torch's data_ptr(): storage data + offset * itemsize, even with no elements (0 if the
     storage has no memory) */
  PyObject *data_ptr() {
    void *p = ct_tensor_data($self);
    if (!p && ct_tensor_numel($self) == 0) {
      ct_storage *s = ct_tensor_storage($self);
      char *base = s ? (char *)ct_storage_data(s) : NULL;
      if (base) p = base + ct_tensor_offset($self) * ct_dtype_itemsize(ct_tensor_dtype($self));
      ct_storage_release(s);
    }
    return PyLong_FromVoidPtr(p);
  }
  ct_storage *untyped_storage() { return ct_tensor_storage($self); }
  /* ctensor extras: memory relations and lifetime counters */
  uint64_t storage_id_() { return ct_tensor_storage_id($self); }
  int64_t refcount_() { return ct_tensor_refcount($self); }
  bool shares_storage(const ct_tensor *other) { return ct_shares_storage($self, other) == 1; }
  bool has_internal_overlap() { return ct_has_internal_overlap($self) == 1; }

  /* views */
  ct_tensor *as_strided(PyObject *size, PyObject *stride, PyObject *storage_offset = NULL) {
    int64_t sz[CT_MAX_DIMS], st[CT_MAX_DIMS], off;
    int n = ctpy_int_seq(size, sz, "as_strided", "size");
    if (n < 0) return NULL;
    int m = ctpy_int_seq(stride, st, "as_strided", "stride");
    if (m < 0) return NULL;
    if (m != n) {
      PyErr_SetString(PyExc_RuntimeError, "mismatch in length of strides and shape");
      return NULL;
    }
    if (!storage_offset || storage_offset == Py_None) {
      off = ct_tensor_offset($self);
    } else if (ctpy_as_int64(storage_offset, &off, "storage_offset") < 0) {
      return NULL;
    }
    return ct_as_strided($self, n, sz, st, off);
  }
  ct_tensor *expand_as(const ct_tensor *other) {
    return ct_expand_as($self, other);
  }
  ct_tensor *view_as(const ct_tensor *other) {
    return ct_view_as($self, other);
  }
  ct_tensor *detach() { return ct_detach($self); }

  /* view when possible */
  ct_tensor *ravel() {
    int64_t all = -1;
    ct_tensor *c = ct_contiguous($self);
    if (!c) return NULL;
    ct_tensor *r = ct_view(c, 1, &all);
    ct_tensor_release(c);
    return r;
  }
  ct_tensor *reshape_as(const ct_tensor *other) {
    return ct_reshape_as($self, other);
  }
  ct_tensor *contiguous() { return ct_contiguous($self); }

  /* copies */
  ct_tensor *clone() { return ct_clone($self); }
  ct_tensor *index_select(int dim, const ct_tensor *index) {
    return ct_index_select($self, dim, index);
  }
  ct_tensor *float_() { return ct_to($self, CT_FLOAT32); }
  ct_tensor *double_() { return ct_to($self, CT_FLOAT64); }
  ct_tensor *half() { return ct_to($self, CT_FLOAT16); }
  ct_tensor *bfloat16() { return ct_to($self, CT_BFLOAT16); }
  ct_tensor *long_() { return ct_to($self, CT_INT64); }
  ct_tensor *int_() { return ct_to($self, CT_INT32); }
  ct_tensor *short_() { return ct_to($self, CT_INT16); }
  ct_tensor *char_() { return ct_to($self, CT_INT8); }
  ct_tensor *byte() { return ct_to($self, CT_UINT8); }
  ct_tensor *bool_() { return ct_to($self, CT_BOOL); }
  /* in place: returns self, as torch */
  ct_tensor *copy_(const ct_tensor *src, bool non_blocking = false) {
    (void)non_blocking;
    if (ct_copy_($self, src) != CT_OK) return NULL;
    return ct_tensor_retain($self);
  }
}

/* ---- UntypedStorage methods --------------------------------------------------------------- */
%extend ct_storage {
  PyObject *data_ptr() { return PyLong_FromVoidPtr(ct_storage_data($self)); }
  int64_t nbytes_() { return ct_storage_nbytes($self); }
  int64_t size() { return ct_storage_nbytes($self); }
  int64_t element_size() { return 1; }
  bool is_read_only_() { return ct_storage_is_read_only($self) == 1; }
  uint64_t _id() { return ct_storage_id($self); }
  int64_t _refcount() { return ct_storage_refcount($self); }
}

/* ---- Module-level helpers used by the ctensor package (fastpath.c) ---------------------- */
%native(_setup) PyObject *ctpy_setup(PyObject *self, PyObject *args);
%native(_install) PyObject *ctpy_install(PyObject *self, PyObject *args);
%native(_redoc) PyObject *ctpy_redoc(PyObject *self, PyObject *args);
%native(_drop_swig_base) PyObject *ctpy_drop_swig_base(PyObject *self, PyObject *args);
%native(_copy_to) PyObject *ctpy_copy_to_py(PyObject *self, PyObject *args);
%native(_backward) PyObject *ctpy_backward_py(PyObject *self, PyObject *args);
%native(_run_backward) PyObject *ctpy_run_backward_py(PyObject *self, PyObject *args);
%native(_register_hook) PyObject *ctpy_register_hook_py(PyObject *self, PyObject *args);
%native(_hook_remove) PyObject *ctpy_hook_remove_py(PyObject *self, PyObject *args);
%native(_custom_op_apply) PyObject *ctpy_custom_op_apply_py(PyObject *self, PyObject *args);
%native(_registry_size) PyObject *ctpy_registry_size(PyObject *self, PyObject *args);
%native(_setup_compute) PyObject *ctpy_setup_compute(PyObject *self, PyObject *args);
%native(_fast_arith_methods) PyObject *ctpy_fast_arith_methods(PyObject *self, PyObject *args);
%native(_setup_pow) PyObject *ctpy_setup_pow(PyObject *self, PyObject *args);
%native(_from_numpy) PyObject *ctpy_from_numpy(PyObject *self, PyObject *args);
%native(_dlpack_mark_copied) PyObject *ctpy_dlpack_mark_copied(PyObject *self, PyObject *args);
%native(_set_tensor_new) PyObject *ctpy_set_tensor_new(PyObject *self, PyObject *args);
