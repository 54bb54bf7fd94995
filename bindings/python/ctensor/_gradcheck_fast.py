"""gradcheck's fast_mode=True: torch 2.13's _fast_gradcheck, backward mode
(https://github.com/pytorch/pytorch/issues/53876).

Instead of whole Jacobians J it compares one number per (input, output) pair: v^T J u for a
random unit vector u of the input (a pair of real ones (ur, ui) for a complex input) and v of
the output.  Numerically J u is one central difference along u, (f(x + eps u) - f(x - eps u))
/ (2 eps) (for a complex input, the one along ur plus 1j times the one along 1j ui: the
conjugate Wirtinger derivative); analytically v^T J is one backward with grad_output v, run
twice (reentrancy).  They must agree as torch.allclose with atol scaled by sum(u) sum(v)
(torch's _adjusted_atol).  On a mismatch the message has the slow mode's Jacobians of that
pair too, and FAST_FAIL_SLOW_OK_MSG when the slow check would have passed.

u and v are torch's own: torch draws them with torch.rand(n, generator=torch.Generator()), a
fresh generator with torch's default seed each time, which NumPy's MT19937 (torch's CPU
generator, seeded alike) reproduces exactly; the user's ctensor.manual_seed stream is not
touched, as torch's global one is not."""

from __future__ import annotations

from ._gradcheck import (GradcheckError, _as_tensor, _allclose, _central_difference,
                         _check_analytical_jacobian_attributes, _diff_inputs, _notallclose_msg, _numerical,
                         _same_dtype_and_shape, _tensor_outputs)

# torch.Generator().initial_seed(): torch's default seed
_TORCH_DEFAULT_SEED = 67280421310721

FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


class _TorchRand:
    """torch.rand(n, generator=g) (float32) of a fresh torch.Generator(): mt19937 seeded with
    the default seed's low 32 bits (init_genrand, as NumPy's legacy seeding), each value the
    low 24 bits of one output times 2**-24 (torch's uniform_real_distribution<float>)."""

    def __init__(self):
        import numpy as np  # gradcheck needs NumPy; importing ctensor does not
        key = np.random.RandomState(_TORCH_DEFAULT_SEED & 0xFFFFFFFF).get_state()[1]
        self._bits = np.random.MT19937()
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": 624}}

    def unit_vector(self, n):
        """torch's _vec_from_tensor: n values of rand, divided by their norm (float64)."""
        import numpy as np  # gradcheck needs NumPy; importing ctensor does not
        raw = self._bits.random_raw(n)
        vec = ((raw & 0xFFFFFF).astype(np.float32) * np.float32(2.0 ** -24)).astype(np.float64)
        return vec / np.linalg.norm(vec)


def _make_vectors(inp_tensors, outputs):
    """torch's _make_vectors: u per input (ur, then ui for a complex one), then v per output."""
    rand = _TorchRand()
    all_u = []
    for inp in inp_tensors:
        ur = rand.unit_vector(inp.numel())
        all_u.append((ur, rand.unit_vector(inp.numel())) if inp.is_complex() else ur)
    all_v = [rand.unit_vector(o.numel()) for o in outputs]
    return all_v, all_u


def _scalar(x, dtype):
    """x as the Python number a 0-d tensor of dtype holds (complex for a complex dtype or x)."""
    return _as_tensor(x, dtype).item()


def _real_of(dtype):
    """The real dtype of a complex dtype; dtype itself otherwise."""
    import ctensor
    return {ctensor.complex128: ctensor.float64, ctensor.complex64: ctensor.float32}.get(dtype, dtype)


def _dot(a, b):
    """torch's vJ.dot(u) in float64, as the products summed by ctensor's sum (torch's order
    for a sum): the same in every run.  NumPy's dot, like torch's, goes to a BLAS whose last
    bit changes with the arrays' addresses."""
    import numpy as np
    import ctensor
    prod = np.ascontiguousarray(a, dtype=np.float64) * np.ascontiguousarray(b, dtype=np.float64)
    return np.float64(ctensor.from_numpy(prod).sum().item())


def _numerical_jvps(func, inputs, inp, u, eps):
    """J u of every tensor output of func (flat NumPy arrays) for input inp (torch's
    _get_numerical_jvp_wrt_specific_input): the whole input perturbed along eps u."""
    import ctensor
    data = inp.data
    orig = data.clone()
    shape = tuple(inp.shape)

    def delta(vec):
        return ctensor.from_numpy(vec * eps).to(_real_of(inp.dtype)).reshape(shape)

    def check(a, b):
        _same_dtype_and_shape(a, b, eps)

    ur = u[0] if isinstance(u, tuple) else u
    ds_dx = _central_difference(func, inputs, data.copy_, orig, delta(ur), eps, check)
    if not inp.is_complex():
        return ds_dx
    ds_dy = _central_difference(func, inputs, data.copy_, orig, delta(u[1]) * 1j, eps, check)
    return [a + 1j * b for a, b in zip(ds_dx, ds_dy)]  # the conjugate Wirtinger derivative


def _adjusted_atol(atol, u, v):
    """torch's: atol scaled by v^T M u for M all ones, sum(u) sum(v) ((sum(ur) + sum(ui)) sum(v)
    for a complex input)."""
    sum_u = float(u[0].sum()) + float(u[1].sum()) if isinstance(u, tuple) else float(u.sum())
    return atol * sum_u * float(v.sum())


def _run_slow_mode_and_get_error(func, inputs, outputs, input_idx, output_idx, rtol, atol, eps):
    """torch's: the slow mode's Jacobians of the pair that failed, for the message."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    import ctensor
    all_outs = _tensor_outputs(func(*inputs))
    differentiable = [k for k, o in enumerate(all_outs) if o.requires_grad]
    numerical = _numerical(func, inputs, eps)[input_idx][differentiable[output_idx]]
    analytical = _check_analytical_jacobian_attributes(inputs, outputs[output_idx], float("inf"), False)[input_idx]
    inp = _diff_inputs(inputs)[input_idx]
    out_dtype = inp.dtype if inp.is_complex() else outputs[output_idx].dtype
    max_diff = np.max(np.abs(numerical - analytical))
    num_t, ana_t = _as_tensor(numerical, out_dtype), _as_tensor(analytical, inp.dtype)
    diff_dtype = ctensor.promote_types(num_t.dtype, ana_t.dtype)
    msg = ("\nThe above quantities relating the numerical and analytical jacobians are computed \n"
           "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
           "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
           f"Numerical:\n {num_t}\n"
           f"Analytical:\n{ana_t}\n\n"
           f"The max per-element difference (slow mode) is: {_scalar(max_diff, _real_of(diff_dtype))}.\n")
    if _allclose(analytical, numerical, rtol, atol):  # the slow check would have passed
        msg += FAST_FAIL_SLOW_OK_MSG
    return msg


def fast_gradcheck(func, func_out, inputs, outputs, eps, rtol, atol, check_grad_dtypes, nondet_tol,
                   complex_indices=None, test_imag=False):
    """torch's _fast_gradcheck, backward mode (the signature of _slow_gradcheck)."""
    import numpy as np  # gradcheck needs NumPy; importing ctensor does not
    import ctensor
    inp_tensors = _diff_inputs(inputs)
    all_v, all_u = _make_vectors(inp_tensors, outputs)
    differentiable = [k for k, o in enumerate(_tensor_outputs(func_out)) if o.requires_grad]
    numerical = []  # [input][output]: v^T (J u)
    for inp, u in zip(inp_tensors, all_u):
        jvps = _numerical_jvps(func, inputs, inp, u, eps)
        if not outputs:  # torch's _check_no_differentiable_outputs_fast
            for jvp in jvps:
                if jvp.size and np.max(np.abs(jvp)) > nondet_tol:
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        numerical.append([np.sum(v * jvps[k]) for v, k in zip(all_v, differentiable)])
    analytical = []  # [output][input]: (v^T J) u
    for o, v in zip(outputs, all_v):
        v_t = ctensor.from_numpy(v).to(o.dtype)
        all_vj = _check_analytical_jacobian_attributes(inputs, o, nondet_tol, check_grad_dtypes, v=v_t)
        row = []
        for vj, u in zip(all_vj, all_u):
            vj = vj[:, 0]
            row.append(_dot(vj.real, u[0]) + 1j * _dot(vj.imag, u[1]) if isinstance(u, tuple) else _dot(vj, u))
        analytical.append(row)
    for i, (inp, per_out) in enumerate(zip(inp_tensors, numerical)):
        for j, n in enumerate(per_out):
            a = analytical[j][i]
            if not _allclose(a, n, rtol, _adjusted_atol(atol, all_u[i], all_v[j])):
                n_dtype = inp.dtype if inp.is_complex() else outputs[j].dtype
                slow = _run_slow_mode_and_get_error(func, inputs, outputs, i, j, rtol, atol, eps)
                # torch formats these 0-d tensors as their Python numbers (Tensor.__format__)
                raise GradcheckError(_notallclose_msg(_scalar(a, inp.dtype), _scalar(n, n_dtype), j, i,
                                                      complex_indices, test_imag) + slow)
    return True
