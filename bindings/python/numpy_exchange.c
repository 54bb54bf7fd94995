/* NumPy exchange without Python-level work: from_numpy through the buffer protocol, and the
 * __array_interface__ that t.numpy() and np.asarray(t) read, built in C; and the one DLPack
 * detail the Python layer cannot set itself (the is-copied flag of a versioned capsule).
 *
 * Not compiled on its own: ctensor.i inserts it into the SWIG wrapper after fastpath.c, whose
 * helpers (ctpy_wrap, ctpy_handle, ctpy_raise_last, ctpy_release_owner) it uses.  Neither
 * path needs NumPy's headers: PEP 3118 buffers and the array interface are stable, documented
 * protocols.  The Python package keeps the slow paths for everything these decline
 * (read-only arrays, byte-swapped or unsupported dtypes, negative strides), so every error and
 * warning keeps its torch wording in one place (_interop.py).
 *
 * Measured with timeit on a 3x4 float32 array, the same run: from_numpy(a) 2.3 us -> 0.19 us
 * (torch 0.37 us), t.numpy() 1.4 us -> 1.0 us (torch 0.63 us; most of what is left is NumPy
 * reading the dict), the round trip 3.9 us -> 1.3 us (torch 1.0 us).
 */

/* ---- from_numpy ------------------------------------------------------------------------- */

/* The ct_dtype of a native-order buffer format ("<f", "=i", "@?", "f", ...) of itemsize
   bytes, or -1 (the caller then declines). */
static int ctpy_dtype_of_format(const char *fmt, Py_ssize_t itemsize) {
  if (!fmt) return -1;
  if (*fmt == '<' || *fmt == '=' || *fmt == '@' || *fmt == '|') ++fmt;
  if (fmt[0] == 'Z' && fmt[1] && !fmt[2]) { /* the buffer protocol's complex: Zf, Zd */
    if (fmt[1] == 'f') return itemsize == 8 ? CT_COMPLEX64 : -1;
    if (fmt[1] == 'd') return itemsize == 16 ? CT_COMPLEX128 : -1;
    return -1;
  }
  if (!fmt[0] || fmt[1]) return -1; /* one code, nothing after it */
  switch (fmt[0]) {
    case '?': return itemsize == 1 ? CT_BOOL : -1;
    case 'B': return itemsize == 1 ? CT_UINT8 : -1;
    case 'b': return itemsize == 1 ? CT_INT8 : -1;
    case 'h': return itemsize == 2 ? CT_INT16 : -1;
    case 'i': return itemsize == 4 ? CT_INT32 : -1;
    case 'l':
    case 'q': return itemsize == 8 ? CT_INT64 : -1;
    case 'e': return itemsize == 2 ? CT_FLOAT16 : -1;
    case 'f': return itemsize == 4 ? CT_FLOAT32 : -1;
    case 'd': return itemsize == 8 ? CT_FLOAT64 : -1;
    default: return -1;
  }
}

/* _C._from_numpy(a): a tensor sharing the memory of the numpy.ndarray a (exact type), which
   the tensor's storage keeps alive; None when this path declines (not an exact ndarray,
   read-only, no elements, unsupported or byte-swapped dtype, negative or unaligned strides,
   more dims than the C API takes), so the caller takes its slow path and raises torch's
   error there. */
static PyObject *ctpy_from_numpy(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *a;
  if (!PyArg_ParseTuple(args, "O:_from_numpy", &a)) return NULL;
  if (strcmp(Py_TYPE(a)->tp_name, "numpy.ndarray") != 0) Py_RETURN_NONE;
  Py_buffer v;
  if (PyObject_GetBuffer(a, &v, PyBUF_RECORDS_RO) < 0) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  const int dtype = ctpy_dtype_of_format(v.format, v.itemsize);
  /* An empty array's buffer strides are recomputed by NumPy ((0, 3) float16: (6, 2)), while
     torch takes the array's own ((0, 0)): those go the slow path too. */
  int ok = dtype >= 0 && !v.readonly && v.ndim <= CT_MAX_DIMS && v.len > 0;
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  for (int i = 0; ok && i < v.ndim; ++i) {
    sizes[i] = (int64_t)v.shape[i];
    ok = v.strides[i] >= 0 && v.strides[i] % v.itemsize == 0;
    strides[i] = (int64_t)(v.strides[i] / (ok ? v.itemsize : 1));
  }
  if (!ok) {
    PyBuffer_Release(&v);
    Py_RETURN_NONE;
  }
  /* The storage's deleter drops this reference to a (ctpy_release_owner, any thread).  The
     buffer itself is released at once: NumPy arrays do not move their data while they live. */
  Py_INCREF(a);
  ct_clear_error();
  ct_tensor *t = ct_from_blob(v.buf, v.ndim, sizes, strides, (ct_dtype)dtype, ctpy_release_owner, a);
  PyBuffer_Release(&v);
  if (!t) {
    Py_DECREF(a); /* ct_from_blob: on failure the deleter is not called */
    return ctpy_raise_last("from_numpy");
  }
  return ctpy_wrap(t);
}

/* ---- __array_interface__ ---------------------------------------------------------------- */

/* t.__array_interface__ (version 3): t's memory for NumPy, read-write unless its storage is
   read-only.  A dict, not the faster __array_struct__ capsule: from a capsule NumPy 1.24 makes
   the array's .base a (tensor, capsule) tuple, from this dict the tensor itself, as torch's
   t.numpy() does.  No "descr": NumPy would parse it again from the list form. */
static PyObject *ctpy_get_array_interface(PyObject *self, void *closure) {
  (void)closure;
  ct_tensor *t = ctpy_handle(self);
  if (!t) return PyErr_Format(PyExc_TypeError, "__array_interface__: expected a ctensor.Tensor");
  if (ct_requires_grad(t) == 1) {
    PyErr_SetString(PyExc_RuntimeError,
                    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
    return NULL;
  }
  /* torch's tensor_to_numpy: NumPy would read the stored values, not the conj/neg view's */
  if (ct_tensor_is_conj(t) == 1) {
    PyErr_SetString(PyExc_RuntimeError,
                    "Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead.");
    return NULL;
  }
  if (ct_tensor_is_neg(t) == 1) {
    PyErr_SetString(PyExc_RuntimeError,
                    "Can't call numpy() on Tensor that has negative bit set. Use tensor.resolve_neg().numpy() instead.");
    return NULL;
  }
  static const char *const typestrs[12] = {"|b1", "|u1", "|i1", "<i2", "<i4", "<i8",
                                           "<f2", NULL,  "<f4", "<f8", "<c8", "<c16"};
  const ct_dtype d = ct_tensor_dtype(t);
  if (d == CT_BFLOAT16) {
    PyErr_SetString(PyExc_TypeError, "Got unsupported ScalarType BFloat16");
    return NULL;
  }
  const int nd = ct_tensor_ndim(t);
  const int64_t item = ct_dtype_itemsize(d);
  const int64_t *sizes = ct_tensor_sizes(t), *strides = ct_tensor_strides(t);
  PyObject *shape = PyTuple_New(nd), *bstrides = PyTuple_New(nd);
  for (int i = 0; shape && bstrides && i < nd; ++i) {
    /* stride * itemsize fits int64 for a tensor with elements (the core checks it); an empty
       tensor's may not, and NumPy never steps through them */
    int64_t bytes;
    if (__builtin_mul_overflow(strides[i], item, &bytes)) bytes = 0;
    PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(sizes[i]));
    PyTuple_SET_ITEM(bstrides, i, PyLong_FromLongLong(bytes));
  }
  ct_storage *s = ct_tensor_storage(t);
  const int read_only = s ? ct_storage_is_read_only(s) == 1 : 0;
  /* NumPy cannot be told that the memory moved: as torch's numpy(), the storage may never be
     reallocated by resize_/set_ again */
  if (s) ct_storage_disable_resize(s);
  ct_storage_release(s);
  void *data = ct_tensor_data(t);
  /* no elements, no memory: NumPy refuses a NULL address but never reads this one */
  const uintptr_t address = data ? (uintptr_t)data : (uintptr_t)item;
  if (!shape || !bstrides || PyErr_Occurred()) {
    Py_XDECREF(shape);
    Py_XDECREF(bstrides);
    return NULL;
  }
  return Py_BuildValue("{s:i,s:N,s:s,s:(NO),s:N}", "version", 3, "shape", shape, "typestr", typestrs[d], "data",
                       PyLong_FromUnsignedLongLong(address), read_only ? Py_True : Py_False, "strides", bstrides);
}

/* ---- DLPack: the is-copied flag -------------------------------------------------------------- */

/* _C._dlpack_mark_copied(capsule): sets DLPACK_FLAG_BITMASK_IS_COPIED on an unconsumed
   "dltensor_versioned" capsule, which __dlpack__(copy=True) hands out over a fresh clone: the
   flag tells the consumer that nobody else sees this memory (DLPack 1.0).  Returns the capsule. */
static PyObject *ctpy_dlpack_mark_copied(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O:_dlpack_mark_copied", &cap)) return NULL;
  DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)PyCapsule_GetPointer(cap, "dltensor_versioned");
  if (!m) return NULL; /* PyCapsule_GetPointer has set the error */
  m->flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
  Py_INCREF(cap);
  return cap;
}
