"""ctensor.autograd.gradcheck: torch's slow (first-order, backward-mode) gradient check, and
gradgradcheck, torch's second-order one (gradcheck of the function's create_graph gradients).

The numerical Jacobian of every differentiable output with respect to every input that
requires grad comes from central differences, (f(x + eps e_k) - f(x - eps e_k)) / (2 eps), each
element of the input perturbed in turn through .data (so autograd's version checks do not see
it); the analytical one from one backward per output element (a one-hot grad_output), twice, to
check that backward is reentrant.  They must agree as torch.allclose(analytical, numerical,
rtol, atol).  Messages are torch 2.13's; GradcheckError is a RuntimeError, as torch's.

Complex values as torch's backward-mode check: a complex output is checked twice, as its
imaginary then its real part (messages "While considering the imaginary part of complex
outputs only, ..."); a complex input's column of the numerical Jacobian is the conjugate
Wirtinger derivative ds/dx + 1j ds/dy, which the complex gradient of a real output must equal.

Not done: check_undefined_grad's and the zero-grad_output checks, batched and forward-mode
checks (NotImplementedError when asked for); fast_mode=True runs the full check, whose verdict
implies the fast one's."""

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


def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _values(t):
    """t's values as a flat NumPy array (C order): complex128 for a complex t, else float64."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    import ctensor
    if t.is_complex():
        return np.asarray(t.detach().to(ctensor.complex128).resolve_conj().contiguous().tolist(),
                          dtype=np.complex128).reshape(-1)
    return np.asarray(t.detach().double().contiguous().tolist(), dtype=np.float64).reshape(-1)


def _check_inputs(inputs):
    import ctensor
    any_grad = False
    for idx, inp in enumerate(inputs):
        if isinstance(inp, _C.Tensor) and inp.requires_grad:
            if inp.dtype not in (ctensor.float64, ctensor.complex128):
                warnings.warn(f"Input #{idx} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ", stacklevel=3)
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.shape)):
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                                   "inputs that are non-overlapping to be able to compute the numerical gradients "
                                   "correctly. You should call .contiguous on the input before passing it to "
                                   "gradcheck.")
            any_grad = True
    if not any_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")


def _numerical(func, inputs, outputs_all, eps):
    """[input][output] -> (input numel, output numel) arrays, for every output: float64, or
    complex128 for a complex input (the conjugate Wirtinger derivative, torch's)."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    from ._autograd import no_grad
    result = []
    for inp in inputs:
        if not (isinstance(inp, _C.Tensor) and inp.requires_grad):
            continue
        cx = inp.is_complex()
        per_out = [np.zeros((inp.numel(), o.numel()), dtype=np.complex128 if cx else np.float64)
                   for o in outputs_all]
        data = inp.data
        shape = tuple(inp.shape)

        def central(idx, orig, step):
            # func runs with grad mode on, as torch's (gradgradcheck's differentiates inside)
            with no_grad():
                data[idx] = orig - step
            lo = [_values(o) for o in _as_tuple(func(*inputs)) if isinstance(o, _C.Tensor)]
            with no_grad():
                data[idx] = orig + step
            hi = [_values(o) for o in _as_tuple(func(*inputs)) if isinstance(o, _C.Tensor)]
            with no_grad():
                data[idx] = orig
            return [(h - lo_) / (2 * eps) for lo_, h in zip(lo, hi)]

        for k in range(inp.numel()):
            idx = np.unravel_index(k, shape) if shape else ()
            idx = tuple(int(i) for i in idx)
            orig = data[idx].item()
            ds_dx = central(idx, orig, eps)
            if cx:  # C -> R: ds/dx + 1j ds/dy
                ds_dy = central(idx, orig, eps * 1j)
                ds_dx = [a + 1j * b for a, b in zip(ds_dx, ds_dy)]
            for j in range(len(outputs_all)):
                per_out[j][k] = ds_dx[j]
        result.append(per_out)
    return result


def _analytical(inputs, output):
    """[input] -> (input numel, output numel) float64 array: row k of input, column m of output."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    import ctensor
    diff = [x for x in inputs if isinstance(x, _C.Tensor) and x.requires_grad]
    jac = [np.zeros((x.numel(), output.numel()), dtype=np.complex128 if x.is_complex() else np.float64)
           for x in diff]
    for m in range(output.numel()):
        onehot = ctensor.zeros(output.numel(), dtype=output.dtype)
        onehot[m] = 1
        grads = ctensor.autograd.grad(output, diff, onehot.reshape(output.shape), retain_graph=True,
                                      allow_unused=True)
        for i, (x, g) in enumerate(zip(diff, grads)):
            if g is not None:
                if tuple(g.shape) != tuple(x.shape):
                    raise GradcheckError("Analytical gradient has incorrect size")
                jac[i][:, m] = _values(g)
    return jac


def _as_tensor(a, dtype):
    import ctensor
    if a.dtype.kind == "c" and not dtype.is_complex:  # a complex input's Jacobian (torch's dtype)
        dtype = ctensor.complex128 if dtype == ctensor.float64 else ctensor.complex64
    return ctensor.tensor(a.tolist(), dtype=dtype).reshape(a.shape)


def _slow_gradcheck(func, inputs, func_out, eps, atol, rtol, nondet_tol, complex_out=(), test_imag=False):
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    outputs_all = [o for o in func_out if isinstance(o, _C.Tensor)]
    numerical = _numerical(func, inputs, outputs_all, eps)
    differentiable = [j for j, o in enumerate(outputs_all) if o.requires_grad]
    if not differentiable:
        for per_out in numerical:
            for n in per_out:
                if np.count_nonzero(n) > 0:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    part = "imaginary" if test_imag else "real"
    for i, j in enumerate(differentiable):
        o = outputs_all[j]
        a1 = _analytical(inputs, o)
        a2 = _analytical(inputs, o)
        prefix = f"While considering the {part} part of complex outputs only, " if i in complex_out else ""
        for k, (a, n) in enumerate(zip(a1, (per_out[j] for per_out in numerical))):
            if not np.allclose(a, n, rtol=rtol, atol=atol, equal_nan=False):
                raise GradcheckError(prefix + f"Jacobian mismatch for output {i:d} with respect to input {k:d},\n"
                                     f"numerical:{_as_tensor(n, o.dtype)}\nanalytical:{_as_tensor(a, o.dtype)}\n")
        for a, b in zip(a1, a2):
            if a.size and np.max(np.abs(a - b)) > nondet_tol:
                raise GradcheckError("Backward is not reentrant, i.e., running backward with same input and "
                                     "grad_output multiple times gives different values, although analytical "
                                     f"gradient matches numerical gradient.The tolerance for nondeterminism was "
                                     f"{nondet_tol}." + _FAILED_NONDET)
    return True


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True, nondet_tol=0.0,
              check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
              check_batched_forward_grad=False, check_forward_ad=False, check_backward_ad=True, fast_mode=False,
              masked=None):
    """Checks the gradients of func at inputs (the tensors that require grad, float64) against
    central finite differences, as torch.autograd.gradcheck: True, or GradcheckError (False
    with raise_exception=False)."""
    if check_batched_grad or check_batched_forward_grad or check_forward_ad:
        raise NotImplementedError("ctensor.autograd.gradcheck: batched and forward-mode checks are not supported")
    tupled = _as_tuple(inputs)
    _check_inputs(tupled)
    try:
        if check_backward_ad:
            func_out = _as_tuple(func(*tupled))
            outs = [o for o in func_out if isinstance(o, _C.Tensor) and o.requires_grad]
            complex_out = tuple(i for i, o in enumerate(outs) if o.is_complex())
            if any(isinstance(o, _C.Tensor) and o.is_complex() for o in func_out):
                # torch's _real_and_imag_output: the imaginary parts, then the real parts
                for part, test_imag in (("imag", True), ("real", False)):
                    def part_fn(*args, _part=part):
                        return tuple(getattr(o, _part) if isinstance(o, _C.Tensor) and o.is_complex() else o
                                     for o in _as_tuple(func(*args)))
                    _slow_gradcheck(part_fn, tupled, part_fn(*tupled), eps, atol, rtol, nondet_tol,
                                    complex_out, test_imag)
            else:
                _slow_gradcheck(func, tupled, func_out, eps, atol, rtol, nondet_tol)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def _random_grad_output(shape, dtype, noncontiguous):
    """torch.testing.make_tensor(shape, low=-1, high=1, requires_grad=True): uniform in [-1, 1),
    non-contiguous (every other element of a tensor twice as wide) when asked."""
    import ctensor
    if noncontiguous and len(shape) > 0:
        wide = ctensor.rand(*shape[:-1], shape[-1] * 2, dtype=dtype) * 2 - 1
        t = wide[..., ::2].detach()
    else:
        t = (ctensor.rand(*shape, dtype=dtype) * 2 - 1).detach()
    return t.requires_grad_()


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False, masked=False):
    """Checks the second derivatives of func at inputs, as torch.autograd.gradgradcheck: gradcheck
    of the function (inputs, grad_outputs) -> autograd.grad(func(inputs), inputs, grad_outputs,
    create_graph=True), with random grad_outputs in [-1, 1) unless given.  True, or
    GradcheckError (False with raise_exception=False)."""
    import ctensor
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_fwd_over_rev:
        raise NotImplementedError("ctensor.autograd.gradgradcheck: forward-over-reverse checks are not supported")
    tupled_inputs = _as_tuple(inputs)

    def differentiable(outs):
        return tuple(o for o in _as_tuple(outs) if isinstance(o, _C.Tensor) and o.requires_grad)

    if grad_outputs is None:
        outputs = differentiable(func(*tupled_inputs))
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
        outputs = differentiable(func(*input_args))
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
