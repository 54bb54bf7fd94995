/* Python callables as ctensor autograd callbacks: tensor hooks (ct_tensor_register_hook) and
   custom op backward functions (ct_custom_op_apply), for ctensor/_function.py and
   Tensor.register_hook.  Inserted into the SWIG wrapper after fastpath.c (ctpy_wrap,
   ctpy_handle, ctpy_release_owner).
   The callables are the package's wrappers, which do torch's checks and conversions; the
   trampolines only move tensors across.  Backward runs without the GIL (ctpy_backward_py), so
   each call takes it.  A Python exception raised by a callback is kept (per thread) and
   re-raised as-is by _C._backward after ct_backward fails, as torch propagates a hook's
   exception. */

static _Thread_local PyObject *ctpy_cb_exc_type, *ctpy_cb_exc_value, *ctpy_cb_exc_tb;

/* Keeps the current Python exception (the first one) for ctpy_cb_reraise; returns the failure
   status for ctensor. */
/* release of a callback's user_data: the callable's reference (GIL taken; nothing once the
   interpreter is finalizing). */
static void ctpy_cb_release(void *user_data) { ctpy_release_owner(NULL, user_data); }

static ct_status ctpy_cb_fail(void) {
  if (!ctpy_cb_exc_type) {
    PyErr_Fetch(&ctpy_cb_exc_type, &ctpy_cb_exc_value, &ctpy_cb_exc_tb);
  } else {
    PyErr_Clear();
  }
  ct_set_error(CT_ERR_INVALID_ARGUMENT, "a Python autograd callback raised an exception");
  return CT_ERR_INVALID_ARGUMENT;
}

/* After a failed ct_backward: 1 with the callback's exception raised again, or 0. */
static int ctpy_cb_reraise(void) {
  if (!ctpy_cb_exc_type) return 0;
  PyErr_Restore(ctpy_cb_exc_type, ctpy_cb_exc_value, ctpy_cb_exc_tb);
  ctpy_cb_exc_type = ctpy_cb_exc_value = ctpy_cb_exc_tb = NULL;
  return 1;
}

/* A tensor hook: user_data is a callable taking the gradient and returning None or a Tensor. */
static ct_status ctpy_hook_call(void *user_data, const ct_tensor *grad, ct_tensor **replacement) {
  PyGILState_STATE gs = PyGILState_Ensure();
  ct_status st = CT_OK;
  PyObject *g = ctpy_wrap(ct_tensor_retain((ct_tensor *)grad));
  PyObject *r = g ? PyObject_CallOneArg((PyObject *)user_data, g) : NULL;
  Py_XDECREF(g);
  if (!r) {
    st = ctpy_cb_fail();
  } else if (r != Py_None) {
    ct_tensor *h = ctpy_handle(r);
    if (h) {
      *replacement = ct_tensor_retain(h);
    } else {
      PyErr_Format(PyExc_TypeError, "expected Variable, but hook returned '%s'", Py_TYPE(r)->tp_name);
      st = ctpy_cb_fail();
    }
  }
  Py_XDECREF(r);
  PyGILState_Release(gs);
  return st;
}

/* A custom op's backward: user_data is a callable taking a tuple of gradients (None where
   none) and returning a sequence of n_inputs Tensors or Nones. */
static ct_status ctpy_custom_backward(void *user_data, int n_outputs, const ct_tensor *const *grad_outputs,
                                      int n_inputs, ct_tensor **grad_inputs) {
  PyGILState_STATE gs = PyGILState_Ensure();
  ct_status st = CT_OK;
  PyObject *r = NULL, *seq = NULL;
  PyObject *args = PyTuple_New(n_outputs);
  if (!args) goto fail;
  for (int i = 0; i < n_outputs; ++i) {
    PyObject *g;
    if (grad_outputs[i]) {
      g = ctpy_wrap(ct_tensor_retain((ct_tensor *)grad_outputs[i]));
      if (!g) goto fail;
    } else {
      g = Py_NewRef(Py_None);
    }
    PyTuple_SET_ITEM(args, i, g);
  }
  r = PyObject_CallOneArg((PyObject *)user_data, args);
  if (!r) goto fail;
  seq = PySequence_Fast(r, "custom backward: expected a sequence of gradients");
  if (!seq) goto fail;
  if (PySequence_Fast_GET_SIZE(seq) != n_inputs) {
    PyErr_Format(PyExc_RuntimeError, "custom backward: expected %d gradients, got %zd", n_inputs,
                 PySequence_Fast_GET_SIZE(seq));
    goto fail;
  }
  for (int i = 0; i < n_inputs; ++i) {
    PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
    if (o == Py_None) continue;
    ct_tensor *h = ctpy_handle(o);
    if (!h) {
      PyErr_Format(PyExc_TypeError, "custom backward: gradient %d is a %s, not a Tensor", i, Py_TYPE(o)->tp_name);
      goto fail;
    }
    grad_inputs[i] = ct_tensor_retain(h);
  }
  goto done;
fail:
  st = ctpy_cb_fail();
done:
  Py_XDECREF(args);
  Py_XDECREF(r);
  Py_XDECREF(seq);
  PyGILState_Release(gs);
  return st;
}

static void ctpy_hook_handle_destructor(PyObject *cap) {
  ct_hook_handle_release((ct_hook_handle *)PyCapsule_GetPointer(cap, "ctensor.hook_handle"));
}

/* _C._register_hook(t, fn) -> (id, handle capsule): fn(grad) -> None or Tensor. */
static PyObject *ctpy_register_hook_py(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *t, *fn;
  if (!PyArg_ParseTuple(args, "OO:_register_hook", &t, &fn)) return NULL;
  ct_tensor *th = ctpy_handle(t);
  if (!th) {
    PyErr_SetString(PyExc_TypeError, "_register_hook: expected a tensor");
    return NULL;
  }
  ct_hook_handle *h = NULL;
  Py_INCREF(fn); /* released by ctpy_release_owner, also when registration fails */
  ct_clear_error();
  if (ct_tensor_register_hook(th, ctpy_hook_call, fn, ctpy_cb_release, &h) != CT_OK)
    return ctpy_raise_last("ct_tensor_register_hook");
  const int64_t id = ct_hook_id(h);
  PyObject *cap = PyCapsule_New(h, "ctensor.hook_handle", ctpy_hook_handle_destructor);
  if (!cap) {
    ct_hook_handle_release(h);
    return NULL;
  }
  return Py_BuildValue("(LN)", (long long)id, cap);
}

/* _C._hook_remove(capsule) */
static PyObject *ctpy_hook_remove_py(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *cap;
  if (!PyArg_ParseTuple(args, "O:_hook_remove", &cap)) return NULL;
  ct_hook_handle *h = (ct_hook_handle *)PyCapsule_GetPointer(cap, "ctensor.hook_handle");
  if (!h) return NULL;
  ct_clear_error();
  if (ct_hook_remove(h) != CT_OK) return ctpy_raise_last("ct_hook_remove");
  Py_RETURN_NONE;
}

/* _C._custom_op_apply(name, inputs, outputs, flags, materialize, backward): ct_custom_op_apply
   over tuples of tensors (flags: a tuple of ints, one per output). */
static PyObject *ctpy_custom_op_apply_py(PyObject *self, PyObject *args) {
  (void)self;
  const char *name;
  PyObject *ins, *outs, *flags, *fn;
  int materialize;
  if (!PyArg_ParseTuple(args, "sO!O!O!pO:_custom_op_apply", &name, &PyTuple_Type, &ins, &PyTuple_Type, &outs,
                        &PyTuple_Type, &flags, &materialize, &fn))
    return NULL;
  const Py_ssize_t n_in = PyTuple_GET_SIZE(ins), n_out = PyTuple_GET_SIZE(outs);
  if (PyTuple_GET_SIZE(flags) != n_out || n_in > INT_MAX || n_out > INT_MAX) {
    PyErr_SetString(PyExc_ValueError, "_custom_op_apply: one flag per output");
    return NULL;
  }
  ct_tensor **hs = (ct_tensor **)PyMem_Malloc(sizeof(ct_tensor *) * (size_t)(n_in + n_out + 1));
  int *fl = (int *)PyMem_Malloc(sizeof(int) * (size_t)(n_out + 1));
  PyObject *result = NULL;
  if (!hs || !fl) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n_in + n_out; ++i) {
    PyObject *o = i < n_in ? PyTuple_GET_ITEM(ins, i) : PyTuple_GET_ITEM(outs, i - n_in);
    if (!(hs[i] = ctpy_handle(o))) {
      PyErr_SetString(PyExc_TypeError, "_custom_op_apply: expected tensors");
      goto done;
    }
  }
  for (Py_ssize_t i = 0; i < n_out; ++i) {
    fl[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(flags, i));
    if (fl[i] == -1 && PyErr_Occurred()) goto done;
  }
  Py_INCREF(fn); /* released by ctpy_release_owner once the node goes (or at once) */
  ct_clear_error();
  if (ct_custom_op_apply(name, (int)n_in, hs, (int)n_out, hs + n_in, fl, materialize, ctpy_custom_backward, fn,
                         ctpy_cb_release) != CT_OK) {
    ctpy_raise_last("ct_custom_op_apply");
    goto done;
  }
  result = Py_NewRef(Py_None);
done:
  PyMem_Free(hs);
  PyMem_Free(fl);
  return result;
}
