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
/* What t.numpy() and NumPy's protocols refuse, with torch's messages; 0 when t can be lent. */
static int ctpy_numpy_refusal(ct_tensor *t) {
  if (ct_requires_grad(t) == 1) {
    PyErr_SetString(PyExc_RuntimeError,
                    "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
    return -1;
  }
  /* torch's tensor_to_numpy: NumPy would read the stored values, not the conj/neg view's */
  if (ct_tensor_is_conj(t) == 1) {
    PyErr_SetString(PyExc_RuntimeError,
                    "Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead.");
    return -1;
  }
  if (ct_tensor_is_neg(t) == 1) {
    PyErr_SetString(PyExc_RuntimeError,
                    "Can't call numpy() on Tensor that has negative bit set. Use tensor.resolve_neg().numpy() instead.");
    return -1;
  }
  if (ct_tensor_dtype(t) == CT_BFLOAT16) {
    PyErr_SetString(PyExc_TypeError, "Got unsupported ScalarType BFloat16");
    return -1;
  }
  return 0;
}

/* t's memory as NumPy sees it: byte strides (stride * itemsize fits int64 for a tensor with
   elements, the core checks it; an empty tensor's may not, and NumPy never steps through
   them), a non-NULL address (NumPy refuses NULL, and never reads an empty array's), whether it
   is read-only.  NumPy cannot be told that the memory moved: as torch's numpy(), the storage
   may never be reallocated by resize_/set_ again. */
static void *ctpy_lend_to_numpy(ct_tensor *t, int64_t *byte_strides, int *read_only) {
  const int nd = ct_tensor_ndim(t);
  const int64_t item = ct_dtype_itemsize(ct_tensor_dtype(t));
  const int64_t *strides = ct_tensor_strides(t);
  for (int i = 0; i < nd; ++i)
    if (__builtin_mul_overflow(strides[i], item, &byte_strides[i])) byte_strides[i] = 0;
  ct_storage *s = ct_tensor_storage(t);
  *read_only = s ? ct_storage_is_read_only(s) == 1 : 0;
  if (s) ct_storage_disable_resize(s);
  ct_storage_release(s);
  void *data = ct_tensor_data(t);
  return data ? data : (void *)(uintptr_t)item;
}

static PyObject *ctpy_get_array_interface(PyObject *self, void *closure) {
  (void)closure;
  ct_tensor *t = ctpy_handle(self);
  if (!t) return PyErr_Format(PyExc_TypeError, "__array_interface__: expected a ctensor.Tensor");
  if (ctpy_numpy_refusal(t) < 0) return NULL;
  static const char *const typestrs[12] = {"|b1", "|u1", "|i1", "<i2", "<i4", "<i8",
                                           "<f2", NULL,  "<f4", "<f8", "<c8", "<c16"};
  const int nd = ct_tensor_ndim(t);
  const int64_t *sizes = ct_tensor_sizes(t);
  int64_t bytes[CT_MAX_DIMS];
  int read_only;
  void *data = ctpy_lend_to_numpy(t, bytes, &read_only);
  PyObject *shape = ctpy_fill_int64_tuple(PyTuple_New(nd), nd, sizes);
  PyObject *bstrides = shape ? ctpy_fill_int64_tuple(PyTuple_New(nd), nd, bytes) : NULL;
  if (!bstrides) {
    Py_XDECREF(shape);
    return NULL;
  }
  return Py_BuildValue("{s:i,s:N,s:s,s:(NO),s:N}", "version", 3, "shape", shape, "typestr",
                       typestrs[ct_tensor_dtype(t)], "data", PyLong_FromUnsignedLongLong((uintptr_t)data),
                       read_only ? Py_True : Py_False, "strides", bstrides);
}

/* ---- t.numpy() through NumPy's C API --------------------------------------------------------

   np.asarray(t) reads the dict above, and NumPy parses its typestr and tuples on every call
   (most of what a round trip cost).  t.numpy() instead makes the array itself with
   PyArray_NewFromDescr from NumPy's C-API table, which NumPy exports to every extension as the
   capsule numpy._core._multiarray_umath._ARRAY_API, fetched at the first call.  No NumPy
   header is needed: the table slots used here (0, 2, 45, 94, 282) and the type numbers are
   NumPy's ABI, the same since NumPy 1.7 and through 2.x; the table's ABI version is checked,
   and an unknown one (or no NumPy) takes the dict path instead.  The array's base is the
   tensor, as with the dict. */

enum { CTPY_NPY_ABI_1 = 0x01000009, CTPY_NPY_ABI_2 = 0x02000000, CTPY_NPY_WRITEABLE = 0x0400 };
typedef unsigned int (*ctpy_npy_abi_version_fn)(void);                       /* slot 0 */
typedef PyObject *(*ctpy_npy_descr_from_type_fn)(int);                       /* slot 45 */
typedef PyObject *(*ctpy_npy_new_from_descr_fn)(PyTypeObject *, PyObject *, int, const Py_intptr_t *,
                                                const Py_intptr_t *, void *, int, PyObject *); /* 94 */
typedef int (*ctpy_npy_set_base_fn)(PyObject *, PyObject *);                 /* slot 282 */

static void **ctpy_npy_api = NULL;
static int ctpy_npy_tried = 0;

/* NumPy's C-API table, or NULL (no error set) when it cannot be used. */
static void **ctpy_numpy_api(void) {
  if (ctpy_npy_tried) return ctpy_npy_api;
  ctpy_npy_tried = 1;
  PyObject *m = PyImport_ImportModule("numpy._core._multiarray_umath");
  if (!m) {
    PyErr_Clear();
    m = PyImport_ImportModule("numpy.core._multiarray_umath"); /* NumPy 1.x */
  }
  PyObject *cap = m ? PyObject_GetAttrString(m, "_ARRAY_API") : NULL;
  Py_XDECREF(m); /* the module stays imported and keeps the capsule and its table */
  void **api = cap && PyCapsule_CheckExact(cap) ? (void **)PyCapsule_GetPointer(cap, NULL) : NULL;
  Py_XDECREF(cap);
  PyErr_Clear();
  if (api) {
    const unsigned int abi = ((ctpy_npy_abi_version_fn)api[0])();
    if (abi == CTPY_NPY_ABI_1 || abi == CTPY_NPY_ABI_2) ctpy_npy_api = api;
  }
  return ctpy_npy_api;
}

/* NumPy's type number of each ct_dtype (bfloat16 has none; int64 is C long on LP64). */
static const int ctpy_npy_typenums[12] = {0 /* bool */,    2 /* uint8 */,     1 /* int8 */,
                                          3 /* int16 */,   5 /* int32 */,     sizeof(long) == 8 ? 7 : 9,
                                          23 /* half */,   -1 /* bfloat16 */, 11 /* float32 */,
                                          12 /* float64 */, 14 /* cfloat */,  15 /* cdouble */};

/* The dict path, written in Python (_interop.to_numpy): force=True, and NumPy without a usable
   C-API table. */
static PyObject *ctpy_numpy_by_python(PyObject *self, int force) {
  static PyObject *to_numpy = NULL;
  if (!to_numpy) {
    PyObject *m = PyImport_ImportModule("ctensor._interop");
    if (!m) return NULL;
    to_numpy = PyObject_GetAttrString(m, "to_numpy");
    Py_DECREF(m);
    if (!to_numpy) return NULL;
  }
  return PyObject_CallFunctionObjArgs(to_numpy, self, force ? Py_True : Py_False, NULL);
}

/* t.numpy(*, force=False): an ndarray on t's memory whose base is t (force=True: on a detached,
   resolved t, as torch). */
static PyObject *ctpy_m_numpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  if (nargs) {
    PyErr_Format(PyExc_TypeError, "numpy() takes 0 positional arguments but %zd %s given", nargs,
                 nargs == 1 ? "was" : "were");
    return NULL;
  }
  int force = 0;
  for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); ++k) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, k);
    if (PyUnicode_CompareWithASCIIString(name, "force") != 0) {
      PyErr_Format(PyExc_TypeError, "numpy() got an unexpected keyword argument '%U'", name);
      return NULL;
    }
    if (!PyBool_Check(args[k])) {
      PyErr_Format(PyExc_TypeError, "numpy(): argument 'force' must be bool, not %s", Py_TYPE(args[k])->tp_name);
      return NULL;
    }
    force = args[k] == Py_True;
  }
  ct_tensor *t = ctpy_handle(self);
  if (!t) return PyErr_Format(PyExc_TypeError, "numpy(): expected a ctensor.Tensor");
  void **api = force ? NULL : ctpy_numpy_api();
  if (!api) return ctpy_numpy_by_python(self, force);
  if (ctpy_numpy_refusal(t) < 0) return NULL;
  const int nd = ct_tensor_ndim(t);
  Py_intptr_t shape[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int64_t bytes[CT_MAX_DIMS];
  int read_only;
  void *data = ctpy_lend_to_numpy(t, bytes, &read_only);
  const int64_t *sizes = ct_tensor_sizes(t);
  for (int i = 0; i < nd; ++i) {
    shape[i] = (Py_intptr_t)sizes[i];
    strides[i] = (Py_intptr_t)bytes[i];
  }
  PyObject *descr = ((ctpy_npy_descr_from_type_fn)api[45])(ctpy_npy_typenums[ct_tensor_dtype(t)]);
  if (!descr) return NULL;
  PyObject *a = ((ctpy_npy_new_from_descr_fn)api[94])((PyTypeObject *)api[2], descr, nd, shape, strides, data,
                                                      read_only ? 0 : CTPY_NPY_WRITEABLE, NULL); /* steals descr */
  if (!a) return NULL;
  Py_INCREF(self);
  if (((ctpy_npy_set_base_fn)api[282])(a, self) < 0) { /* steals self, even when it fails */
    Py_DECREF(a);
    return NULL;
  }
  return a;
}

/* ---- __dlpack__ and __dlpack_device__ --------------------------------------------------------

   np.from_dlpack(t) calls both; written in Python they cost twice NumPy's own export.  The
   common call is answered here: stream None or -1, max_version None or a tuple of two ints,
   dl_device None or (kDLCPU, 0), copy None or False, on a tensor that can be lent as it is.
   Every other call (copy=True, bad arguments, a tensor that requires grad, has the conjugate
   bit, or is read-only for a legacy capsule) goes to the Python version, _interop.dlpack, which
   states the protocol and words every error. */

/* attr of ctensor._interop, looked up once and kept. */
static PyObject *ctpy_interop_attr(PyObject **slot, const char *attr) {
  if (!*slot) {
    PyObject *m = PyImport_ImportModule("ctensor._interop");
    if (!m) return NULL;
    *slot = PyObject_GetAttrString(m, attr);
    Py_DECREF(m);
  }
  return *slot;
}

static int ctpy_is_int_pair(PyObject *o, long *a, long *b) {
  if (!PyTuple_CheckExact(o) || PyTuple_GET_SIZE(o) != 2 || !PyLong_CheckExact(PyTuple_GET_ITEM(o, 0)) ||
      !PyLong_CheckExact(PyTuple_GET_ITEM(o, 1)))
    return 0;
  *a = PyLong_AsLong(PyTuple_GET_ITEM(o, 0));
  *b = PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return 0;
  }
  return 1;
}

/* Whether keyword `name` is `ascii`, whose interned str is *cache (made on first use): call
   sites pass interned names, so the pointer test is the usual answer (np.from_dlpack spent
   about 8% of its time in string compares before). */
static int ctpy_kw_is(PyObject *name, PyObject **cache, const char *ascii) {
  if (!*cache) *cache = PyUnicode_InternFromString(ascii);
  if (*cache && name == *cache) return 1;
  return PyUnicode_CompareWithASCIIString(name, ascii) == 0;
}

static PyObject *ctpy_m___dlpack__(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
  static PyObject *kw_max_version, *kw_dl_device, *kw_copy;
  int common = nargs <= 1, versioned = 0;
  if (nargs == 1 && args[0] != Py_None) {
    long s = PyLong_CheckExact(args[0]) ? PyLong_AsLong(args[0]) : 0;
    if (PyErr_Occurred()) PyErr_Clear();
    common = common && s == -1;
  }
  for (Py_ssize_t k = 0; common && kwnames && k < PyTuple_GET_SIZE(kwnames); ++k) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, k), *v = args[nargs + k];
    long a = 0, b = 0;
    if (ctpy_kw_is(name, &kw_max_version, "max_version")) {
      if (v != Py_None) {
        common = ctpy_is_int_pair(v, &a, &b);
        versioned = a >= 1;
      }
    } else if (ctpy_kw_is(name, &kw_dl_device, "dl_device")) {
      common = v == Py_None || (ctpy_is_int_pair(v, &a, &b) && a == 1 && b == 0);
    } else if (ctpy_kw_is(name, &kw_copy, "copy")) {
      common = v == Py_None || v == Py_False;
    } else {
      common = 0; /* "stream" by keyword, or an unknown keyword: Python's rules */
    }
  }
  ct_tensor *t = ctpy_handle(self);
  if (common && t && ct_requires_grad(t) == 0 && ct_tensor_is_conj(t) == 0) {
    if (versioned) {
      struct DLManagedTensorVersioned *m = ct_to_dlpack_versioned(t);
      if (!m) return ctpy_raise_last("__dlpack__");
      PyObject *cap = PyCapsule_New(m, "dltensor_versioned", ctpy_dltensor_versioned_capsule_destructor);
      if (!cap && m->deleter) m->deleter(m);
      return cap;
    }
    ct_storage *s = ct_tensor_storage(t);
    const int read_only = s ? ct_storage_is_read_only(s) == 1 : 0;
    ct_storage_release(s);
    if (!read_only) {
      struct DLManagedTensor *m = ct_to_dlpack(t);
      if (!m) return ctpy_raise_last("__dlpack__");
      PyObject *cap = PyCapsule_New(m, "dltensor", ctpy_dltensor_capsule_destructor);
      if (!cap && m->deleter) m->deleter(m);
      return cap;
    }
  }
  static PyObject *dlpack = NULL;
  if (!ctpy_interop_attr(&dlpack, "dlpack")) return NULL;
  PyObject *stack[9];
  const Py_ssize_t n = nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  if (n > 8) {
    PyErr_Format(PyExc_TypeError, "__dlpack__() takes at most 4 arguments (%zd given)", n);
    return NULL;
  }
  stack[0] = self;
  for (Py_ssize_t i = 0; i < n; ++i) stack[i + 1] = args[i];
  return PyObject_Vectorcall(dlpack, stack, (size_t)(nargs + 1), kwnames);
}

/* t.__dlpack_device__(): (DLDeviceType.kDLCPU, 0), _interop's tuple. */
static PyObject *ctpy_m___dlpack_device__(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  static PyObject *device = NULL;
  PyObject *d = ctpy_interop_attr(&device, "_CPU_DEVICE_ENUM");
  Py_XINCREF(d);
  return d;
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
