"""ctensor.autograd.gradcheck and gradgradcheck: torch 2.13's backward-mode gradient checks
(torch/autograd/gradcheck.py), with its checks, order and messages.

gradcheck(func, inputs) runs, as torch's _gradcheck_helper:
1. the input checks (_check_inputs): a warning for an input requiring grad that is not
   float64/complex128, RuntimeError for one with a stride-0 dimension, ValueError when none
   requires grad (these are not GradcheckErrors: raise_exception=False does not catch them);
2. the Jacobian check, slow or fast (fast_mode=True, _gradcheck_fast.py), of every
   differentiable output against every input that requires grad.  Slow: the numerical
   Jacobian by central differences, (f(x + eps e_k) - f(x - eps e_k)) / (2 eps), each element
   of the input perturbed in turn through .data (so that autograd's version checks do not see
   it), the analytical one from one backward per output element (a one-hot grad_output),
   twice, to check that backward is reentrant; they must agree as torch.allclose(analytical,
   numerical, rtol, atol).  Complex values as torch's: a complex output is checked twice, as
   its imaginary then its real part (messages "While considering the imaginary part of complex
   outputs only, ..."); a complex input's column of the numerical Jacobian is the conjugate
   Wirtinger derivative ds/dx + 1j ds/dy, which the complex gradient of a real output must
   equal;
3. _test_backward_mul_by_grad_output: zero grad_outputs must give zero (or no) gradients of
   the inputs' dtypes and sizes;
4. with check_undefined_grad=True (the default), _test_undefined_backward_mode: the outputs
   passed through _UndefinedGrad (identity; its backward sends no gradient on, as torch's
   UndefinedGrad), all at once and then one at a time, must give no or zero input gradients
   without failing.  A custom Function's backward is then called with None (with
   ctx.set_materialize_grads(False)) or zeros, as torch's engine calls it.

Messages are torch 2.13's; GradcheckError is a RuntimeError, as torch's.  Not done: the
batched and forward-mode checks (NotImplementedError when asked for), sparse and masked
inputs (ctensor has none)."""

from __future__ import annotations

import warnings

from . import _C

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when a gradient check fails (torch.autograd.gradcheck.GradcheckError)."""


GradcheckError.__module__ = "ctensor.autograd.gradcheck"


_FAILED_NONDET = ("\n\nNOTE: If your op relies on non-deterministic operations i.e., it is listed here:\n"
                  "https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html\n"
                  "this failure might be expected.\n\n"
                  "If you are adding a new operator, please file an issue and then use one of the\n"
                  "workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.\n"
                  "If the test\n"
                  "- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck\n"
                  "  with `nondet_tol=<tol>` as a keyword argument.\n"
                  "- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test\n"
                  "  to have `gradcheck_nondet_tol=<tol>`.\n"
                  "- is a Module test (e.g., in common_nn.py), then modify the corresponding\n"
                  "  module_test entry to have `gradcheck_nondet_tol=<tol>`\n")

_UNDEFINED_NOTES = 'Please look at "Notes about undefined output gradients" in "tools/autograd/derivatives.yaml"'


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _diff_inputs(inputs):
    """The inputs that require grad (torch's _iter_tensors(inputs, True))."""
    return [x for x in inputs if isinstance(x, _C.Tensor) and x.requires_grad]


def _differentiable_outputs(x):
    """torch's: the outputs that require grad (a non-tensor output raises AttributeError, as in
    torch)."""
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _values(t):
    """t's values as a flat NumPy array (C order): complex128 for a complex t, else float64."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    import ctensor
    if t.is_complex():
        return np.array(t.detach().to(ctensor.complex128).resolve_conj().resolve_neg().contiguous().numpy(),
                        dtype=np.complex128).reshape(-1)
    return np.array(t.detach().double().resolve_neg().contiguous().numpy(), dtype=np.float64).reshape(-1)


def _as_tensor(a, dtype):
    """A NumPy array (or scalar) as a ctensor tensor of dtype, its complex counterpart for
    complex values (a Jacobian is printed with torch's dtype)."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    import ctensor
    a = np.asarray(a)
    if a.dtype.kind == "c" and not dtype.is_complex:
        dtype = ctensor.complex128 if dtype == ctensor.float64 else ctensor.complex64
    # np.array, not np.ascontiguousarray: that makes a 0-d array 1-d
    return ctensor.from_numpy(np.array(a, dtype=np.complex128 if a.dtype.kind == "c" else np.float64,
                                       order="C")).to(dtype)


def _allclose(a, b, rtol, atol):
    """torch.allclose(a, b, rtol, atol) of NumPy arrays: |a - b| <= atol + rtol |b|, no NaN."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=False))


def _grad(outputs, inputs, grad_outputs, **kw):
    """ctensor.autograd.grad, and torch's answer (no gradients) for no outputs, which
    ctensor.autograd.grad refuses."""
    import ctensor
    if not outputs:
        return (None,) * len(inputs)
    return ctensor.autograd.grad(outputs, inputs, grad_outputs, **kw)


def _all_zero(t):
    """torch's t.eq(0).all() (NaN is not zero)."""
    return not _values(t).any()


def _zeros_like(o):
    import ctensor
    return ctensor.zeros(tuple(o.shape), dtype=o.dtype)  # torch's legacy_contiguous_format zeros


def _check_inputs(inputs):
    import ctensor
    any_grad = False
    for idx, inp in enumerate(inputs):
        if isinstance(inp, _C.Tensor) and inp.requires_grad:
            if inp.dtype not in (ctensor.float64, ctensor.complex128):
                warnings.warn(f"Input #{idx} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ", stacklevel=4)
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.shape)):
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                                   "inputs that are non-overlapping to be able to compute the numerical gradients "
                                   "correctly. You should call .contiguous on the input before passing it to "
                                   "gradcheck.")
            any_grad = True
    if not any_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")


def _same_dtype_and_shape(a, b, eps, idx=None):
    """torch's _check_outputs_same_dtype_and_shape, of the outputs at x - delta and x + delta."""
    on_index = f"on index {idx} " if idx is not None else ""
    if a.shape != b.shape:
        raise AssertionError(f"Expected `func` to return outputs with the same shape when inputs are perturbed "
                             f"{on_index}by {eps}, but got: shapes {a.shape} and {b.shape}.")
    if a.dtype != b.dtype:
        raise AssertionError(f"Expected `func` to return outputs with the same dtype when inputs are perturbed "
                             f"{on_index}by {eps}, but got: dtypes {a.dtype} and {b.dtype}.")


def _central_difference(func, inputs, assign, orig, delta, norm, check):
    """(f(x + delta) - f(x - delta)) / (2 norm) of every tensor output of func, flat NumPy
    arrays, with assign(value) setting the perturbed part of an input's .data to orig -+ delta
    and then back to orig.  func runs with grad mode on, as torch's (gradgradcheck's
    differentiates inside)."""
    from ._autograd import no_grad

    def run(value):
        with no_grad():
            assign(value)
        # copies, as torch's (an output may be a view of the input perturbed next)
        return [o.detach().clone() for o in _as_tuple(func(*inputs)) if isinstance(o, _C.Tensor)]

    lo = run(orig - delta)
    hi = run(orig + delta)
    with no_grad():
        assign(orig)
    out = []
    for a, b in zip(lo, hi):
        check(a, b)
        out.append((_values(b) - _values(a)) / (2 * norm))
    return out


def _numerical(func, inputs, eps):
    """[input requiring grad][tensor output of func] -> (input numel, output numel) NumPy
    arrays: float64, or complex128 for a complex input (the conjugate Wirtinger derivative,
    torch's)."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    result = []
    for inp in _diff_inputs(inputs):
        cx = inp.is_complex()
        data = inp.data
        shape = tuple(inp.shape)
        cols = []
        for k in range(inp.numel()):
            idx = tuple(int(i) for i in np.unravel_index(k, shape)) if shape else ()
            orig = data[idx].item()

            def assign(value, _idx=idx):
                data[_idx] = value

            def check(a, b, _idx=idx):
                _same_dtype_and_shape(a, b, eps, _idx)

            ds_dx = _central_difference(func, inputs, assign, orig, eps, eps, check)
            if cx:  # C -> R: ds/dx + 1j ds/dy
                ds_dy = _central_difference(func, inputs, assign, orig, eps * 1j, eps, check)
                ds_dx = [a + 1j * b for a, b in zip(ds_dx, ds_dy)]
            cols.append(ds_dx)
        sizes = [c.size for c in cols[0]] if cols else [o.numel() for o in _tensor_outputs(func(*inputs))]
        per_out = []
        for j, m in enumerate(sizes):
            jac = np.zeros((inp.numel(), m), dtype=np.complex128 if cx else np.float64)
            for k, c in enumerate(cols):
                jac[k] = c[j]
            per_out.append(jac)
        result.append(per_out)
    return result


def _stack_and_check(vjps, diff_inputs, numel_out):
    """torch's _stack_and_check_tensors: vjps[i][j], the gradient of input i from the j-th
    grad_output (None: none), as column j of input i's (input numel, numel_out) Jacobian;
    whether all had the input's size, and its dtype (a wrong size hides a wrong dtype)."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    jacs, sizes_ok, types_ok = [], True, True
    for x, col_list in zip(diff_inputs, vjps):
        jac = np.zeros((x.numel(), numel_out), dtype=np.complex128 if x.is_complex() else np.float64)
        for j, g in enumerate(col_list):
            if g is None:
                continue
            if tuple(g.shape) != tuple(x.shape):
                sizes_ok = False
            elif g.dtype != x.dtype:
                types_ok = False
            if g.numel() != x.numel():
                raise AssertionError(f"Expected out_jacobian column to have {g.numel()} elements, but got "
                                     f"{x.numel()}")
            jac[:, j] = _values(g)
        jacs.append(jac)
    return jacs, sizes_ok, types_ok


def _check_analytical_jacobian_attributes(inputs, output, nondet_tol, check_grad_dtypes, v=None):
    """torch's: the analytical Jacobians of output, [input requiring grad] -> (input numel,
    output numel) NumPy arrays (with v, a grad_output for fast mode: (input numel, 1), v^T J),
    each computed twice to check that backward is reentrant."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    import ctensor
    diff = _diff_inputs(inputs)

    def vjps():
        if v is not None:
            gs = ctensor.autograd.grad(output, diff, v.reshape(output.shape), retain_graph=True, allow_unused=True)
            return [[None if g is None else g.clone()] for g in gs]
        rows = [[] for _ in diff]
        flat = _zeros_like(output).reshape(-1)
        for m in range(output.numel()):
            flat.zero_()
            flat[m] = 1  # the m-th row of the Jacobian
            gs = ctensor.autograd.grad(output, diff, flat.reshape(output.shape), retain_graph=True,
                                       allow_unused=True)
            for i, g in enumerate(gs):
                rows[i].append(None if g is None else g.clone())
        return rows

    numel_out = 1 if v is not None else output.numel()
    jac1, sizes_ok, types_ok = _stack_and_check(vjps(), diff, numel_out)
    jac2, _, _ = _stack_and_check(vjps(), diff, numel_out)
    reentrant = all(a.size == 0 or np.max(np.abs(a - b)) <= nondet_tol for a, b in zip(jac1, jac2))
    # torch 2.13 unpacks the two flags the other way round (types_ok, sizes_ok = sizes, types):
    # kept, so that the same gradients give the same message
    if not sizes_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not types_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    if not reentrant:
        raise GradcheckError("Backward is not reentrant, i.e., running backward with same input and grad_output "
                             "multiple times gives different values, although analytical gradient matches "
                             f"numerical gradient.The tolerance for nondeterminism was {nondet_tol}."
                             + _FAILED_NONDET)
    return jac1


def _notallclose_msg(analytical, numerical, output_idx, input_idx, complex_indices, test_imag):
    """torch's _get_notallclose_msg (backward mode); analytical and numerical are tensors."""
    part = "imaginary" if test_imag else "real"
    prefix = (f"While considering the {part} part of complex outputs only, "
              if complex_indices and output_idx in complex_indices else "")
    return (prefix + f"Jacobian mismatch for output {output_idx:d} with respect to input {input_idx:d},\n"
            f"numerical:{numerical}\nanalytical:{analytical}\n")


def _tensor_outputs(func_out):
    return [o for o in _as_tuple(func_out) if isinstance(o, _C.Tensor)]


def _slow_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol,
                    complex_indices=None, test_imag=False):
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    numerical = _numerical(func, inputs, eps)
    if not outputs:  # torch's _check_no_differentiable_outputs
        for per_out in numerical:
            for n in per_out:
                if np.count_nonzero(n) > 0:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    all_outs = _tensor_outputs(func_out)
    differentiable = [j for j, o in enumerate(all_outs) if o.requires_grad]
    diff = _diff_inputs(inputs)
    for i, (j, o) in enumerate(zip(differentiable, outputs)):
        analytical = _check_analytical_jacobian_attributes(inputs, o, nondet_tol, check_grad_dtypes)
        for k, (a, n) in enumerate(zip(analytical, (per_out[j] for per_out in numerical))):
            if not _allclose(a, n, rtol, atol):
                n_dtype = diff[k].dtype if diff[k].is_complex() else o.dtype
                raise GradcheckError(_notallclose_msg(_as_tensor(a, diff[k].dtype), _as_tensor(n, n_dtype), i, k,
                                                      complex_indices, test_imag))
    return True


def _real_and_imag_output(func):
    """torch's: func with its complex outputs replaced by their real, and imaginary, parts."""
    def apply_to_c_outs(part):
        def wrapped_fn(*args):
            return tuple(getattr(o, part) if isinstance(o, _C.Tensor) and o.is_complex() else o
                         for o in _as_tuple(func(*args)))
        return wrapped_fn
    return apply_to_c_outs("real"), apply_to_c_outs("imag")


def _gradcheck_real_imag(gradcheck_fn, func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes,
                         nondet_tol):
    """torch's (backward mode): with a complex output, the check of its imaginary parts, then
    of its real parts."""
    complex_indices = [i for i, o in enumerate(outputs) if o.is_complex()]
    if any(o.is_complex() for o in _tensor_outputs(func_out)):
        real_fn, imag_fn = _real_and_imag_output(func)
        for fn, test_imag in ((imag_fn, True), (real_fn, False)):
            out = fn(*inputs)
            gradcheck_fn(fn, out, inputs, _differentiable_outputs(out), eps, rtol, atol, check_grad_dtypes,
                         nondet_tol, complex_indices=complex_indices, test_imag=test_imag)
    else:
        gradcheck_fn(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol)


def _test_backward_mul_by_grad_output(outputs, inputs):
    """torch's: zero grad_outputs must give zero (or no) gradients, of the inputs' dtypes and
    sizes."""
    diff = _diff_inputs(inputs)
    if not diff:
        raise GradcheckError("no Tensors requiring grad found in input")
    grads = _grad(outputs, diff, [_zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff):
        if gi is None:
            continue
        if not _all_zero(gi):
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype:
            raise GradcheckError("grad is incorrect type")
        if tuple(gi.shape) != tuple(di.shape):
            raise GradcheckError("grad is incorrect size")
    return True


def _undefined_grad():
    """torch._C._functions.UndefinedGrad()'s apply: a clone of its input whose backward sends
    no gradient on (grad_fn UndefinedGradBackward)."""
    from ._function import Function

    class UndefinedGrad(Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            return None

    return UndefinedGrad.apply


def _warn_bc_breaking():
    warnings.warn("Backwards compatibility: New undefined gradient support checking feature is enabled by default, "
                  "but it may break existing callers of this function. If this is true for you, you can call this "
                  'function with "check_undefined_grad=False" to disable the feature', stacklevel=4)


def _test_undefined_backward_mode(func, outputs, inputs):
    """torch's: every backward must accept undefined output gradients (all at once, then one
    output at a time) and give no or zero input gradients."""
    diff = _diff_inputs(inputs)
    if not diff:
        raise GradcheckError("no Tensors requiring grad found in input")
    undefined = _undefined_grad()

    def check_undefined_grad_support(output_to_check):
        try:
            grads = _grad(output_to_check, diff, [_zeros_like(o) for o in output_to_check], allow_unused=True)
        except RuntimeError as e:
            _warn_bc_breaking()
            raise GradcheckError("Expected backward function to handle undefined output grads. "
                                 + _UNDEFINED_NOTES) from e
        for gi in grads:
            if gi is not None and not _all_zero(gi):
                _warn_bc_breaking()
                raise GradcheckError("Expected all input grads to be undefined or zero when all output grads are "
                                     "undefined or zero. " + _UNDEFINED_NOTES)
        return True

    outputs_to_check = [[undefined(o) for o in _differentiable_outputs(func(*inputs))]]
    if len(outputs_to_check[0]) > 1:  # one undefined at a time
        for undef_idx in range(len(outputs)):
            outs = _differentiable_outputs(func(*inputs))
            outputs_to_check.append([undefined(o) if k == undef_idx else o for k, o in enumerate(outs)])
    return all(check_undefined_grad_support(o) for o in outputs_to_check)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    """Checks the gradients of func at inputs (the tensors that require grad, float64 or
    complex128) against finite differences, as torch.autograd.gradcheck: True, or
    GradcheckError (False with raise_exception=False).  fast_mode=True compares v^T J u for
    random unit vectors u, v instead of whole Jacobians."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    if check_batched_grad or check_batched_forward_grad or check_forward_ad:
        raise NotImplementedError("ctensor.autograd.gradcheck: batched and forward-mode checks are not supported")
    try:
        return _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad,
                                 check_grad_dtypes, fast_mode)
    except GradcheckError:
        if raise_exception:
            raise
        return False


def _gradcheck_helper(func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
                      fast_mode):
    tupled = _as_tuple(inputs)
    _check_inputs(tupled)
    func_out = func(*tupled)
    outputs = _differentiable_outputs(func_out)
    if fast_mode:
        from ._gradcheck_fast import fast_gradcheck as check
    else:
        check = _slow_gradcheck
    _gradcheck_real_imag(check, func, func_out, tupled, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol)
    _test_backward_mul_by_grad_output(outputs, tupled)
    if check_undefined_grad:
        _test_undefined_backward_mode(func, outputs, tupled)
    return True


def _random_grad_output(shape, dtype, noncontiguous):
    """torch.testing.make_tensor(shape, low=-1, high=1, requires_grad=True): uniform in [-1, 1),
    non-contiguous (every other element of a tensor twice as wide) when asked."""
    import ctensor

    def uniform(*size):
        if dtype.is_complex:  # real and imaginary parts uniform, as make_tensor's
            real = ctensor.float64 if dtype == ctensor.complex128 else ctensor.float32
            return ctensor.view_as_complex(ctensor.rand(*size, 2, dtype=real) * 2 - 1)
        return ctensor.rand(*size, dtype=dtype) * 2 - 1

    if noncontiguous and len(shape) > 0:
        t = uniform(*shape[:-1], shape[-1] * 2)[..., ::2].detach()
    else:
        t = uniform(*shape).detach()
    return t.requires_grad_()


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Checks the second derivatives of func at inputs, as torch.autograd.gradgradcheck: gradcheck
    (with the same fast_mode, check_undefined_grad, ...) of the function (inputs, grad_outputs)
    -> autograd.grad(func(inputs), inputs, grad_outputs, create_graph=True), with random
    grad_outputs in [-1, 1) unless given.  True, or GradcheckError (False with
    raise_exception=False)."""
    import ctensor
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    if check_batched_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_batched_grad=True requires check_rev_over_rev to be True")
    if check_fwd_over_rev:
        raise NotImplementedError("ctensor.autograd.gradgradcheck: forward-over-reverse checks are not supported")
    tupled_inputs = _as_tuple(inputs)

    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*tupled_inputs))
        tupled_grad_outputs = tuple(
            _random_grad_output(tuple(x.shape), x.dtype if (x.is_floating_point() or x.is_complex())
                                else ctensor.float64, gen_non_contig_grad_outputs) for x in outputs)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_args_indices = {i for i, x in enumerate(tupled_inputs)
                               if isinstance(x, _C.Tensor) and x.requires_grad}
    diff_grad_output_indices = {i for i, x in enumerate(tupled_grad_outputs) if x.requires_grad}

    def new_func(*args):
        input_args = tuple(x.requires_grad_() if i in diff_input_args_indices else x
                           for i, x in enumerate(args[:-num_outputs]))
        outputs = _differentiable_outputs(func(*input_args))
        grad_outputs = tuple(x.requires_grad_() if i in diff_grad_output_indices else x
                             for i, x in enumerate(args[-num_outputs:]))
        diff_input_args = tuple(x for i, x in enumerate(input_args) if i in diff_input_args_indices)
        grad_inputs = ctensor.autograd.grad(outputs, diff_input_args, grad_outputs, create_graph=True,
                                            allow_unused=True)
        return tuple(g for g in grad_inputs if g is not None)

    return gradcheck(new_func, tupled_inputs + tupled_grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_backward_ad=check_rev_over_rev, masked=masked)
