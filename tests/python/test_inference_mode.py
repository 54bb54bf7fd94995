"""inference_mode against torch 2.13: the mode itself (grad mode set and restored, nesting,
mode=False, decorator, clone(), thread-locality), inference tensors (no version counter, views
that are not views, detach()/.data/view(dtype) of them, copies of them), torch's refusals with
its messages (in-place update outside, requires_grad=True outside, saving for backward) and
the views of normal tensors taken inside.  Each scenario runs the same code on both libraries
and compares what it observes."""

import threading

import pytest

import ctensor
from ctutil import recorded_error, torch

pytestmark = pytest.mark.skipif(torch is None, reason="torch not installed")


def both(scenario):
    """scenario(lib) run with ctensor and with torch: the two results."""
    return scenario(ctensor), scenario(torch)


def version(t):
    try:
        return t._version
    except Exception as e:  # noqa: BLE001 - compared
        return recorded_error(e)


def attempt(f):
    try:
        r = f()
        return "ok" if r is None or hasattr(r, "shape") else r
    except Exception as e:  # noqa: BLE001 - compared
        return recorded_error(e)


def state(t):
    """What a user sees of a tensor's inference state."""
    return (t.is_inference(), t._is_view(), t._base is not None, version(t))


def writable(t):
    """state, then an in-place write (its outcome) and the state after it."""
    return (state(t), attempt(lambda: t.add_(1)), version(t))


def modes(lib):
    return (lib.is_inference_mode_enabled(), lib.is_grad_enabled())


def test_mode_sets_and_restores_grad_mode():
    def scenario(lib):
        seen = [modes(lib)]
        with lib.inference_mode():
            seen.append(modes(lib))
            with lib.inference_mode():
                seen.append(modes(lib))
            seen.append(modes(lib))
            with lib.inference_mode(False):  # torch: grad mode ON, whatever it was
                seen.append(modes(lib))
            seen.append(modes(lib))
            with lib.enable_grad():
                seen.append(modes(lib))
            lib.set_grad_enabled(True)  # restored on exit
            seen.append(modes(lib))
        seen.append(modes(lib))
        with lib.no_grad():
            with lib.inference_mode(False):
                seen.append(modes(lib))
            with lib.inference_mode(mode=True):
                seen.append(modes(lib))
            seen.append(modes(lib))
        try:
            with lib.inference_mode():
                raise KeyError("x")
        except KeyError:
            pass
        seen.append(modes(lib))
        return seen
    c, t = both(scenario)
    assert c == t
    assert t[1] == (True, False)


def test_tensors_made_inside():
    def scenario(lib):
        x = lib.ones(3, 4)
        out = []
        with lib.inference_mode():
            a = lib.ones(3, 4)
            made = {"new": lambda: lib.zeros(2), "arange": lambda: lib.arange(4.), "clone(normal)": lambda: x.clone(),
                    "add(normal)": lambda: x + 1, "view(inference)": lambda: a[1:],
                    "detach(inference)": lambda: a.detach(),
                    "data(inference)": lambda: a.data, "t(inference)": lambda: a.t(),
                    "view dtype(inference)": lambda: a.view(lib.int32), "view dtype(normal)": lambda: x.view(lib.int32),
                    "view(normal)": lambda: x[1:], "t(normal)": lambda: x.t(), "detach(normal)": lambda: x.detach(),
                    "data(normal)": lambda: x.data, "reshape(normal)": lambda: x.reshape(12),
                    "unbind(normal)": lambda: x.unbind()[1], "tensor()": lambda: lib.tensor([1., 2.])}
            inside = {k: f() for k, f in made.items()}
            for k, t in inside.items():
                out.append((k, "inside", writable(t)))
            out.append(("x", version(x)))
        for k, t in inside.items():
            out.append((k, "outside", writable(t)))
        out.append(("x", version(x)))
        return out
    c, t = both(scenario)
    assert c == t


def test_tensors_derived_outside():
    def scenario(lib):
        with lib.inference_mode():
            a = lib.arange(12.).reshape(3, 4)
            z = lib.zeros(2, dtype=lib.complex64)
        ops = {"view": lambda: a[1:], "select": lambda: a[0], "narrow": lambda: a.narrow(0, 0, 1),
               "t": lambda: a.t(), "permute": lambda: a.permute(1, 0), "unsqueeze": lambda: a.unsqueeze(0),
               "reshape view": lambda: a.reshape(12), "reshape copy": lambda: a.t().reshape(12),
               "flatten": lambda: a.flatten(), "expand": lambda: a[:1].expand(2, 4), "diagonal": lambda: a.diagonal(),
               "unfold": lambda: a.unfold(1, 2, 2), "as_strided": lambda: a.as_strided((2,), (1,)),
               "split": lambda: a.split(1)[0], "unbind": lambda: a.unbind()[0], "chunk": lambda: a.chunk(2)[0],
               "detach": lambda: a.detach(), "data": lambda: a.data, "clone": lambda: a.clone(),
               "contiguous (self)": lambda: a.contiguous(), "contiguous (copy)": lambda: a.t().contiguous(),
               "to same": lambda: a.to(lib.float32), "to other": lambda: a.to(lib.float64),
               "to copy": lambda: a.to(lib.float32, copy=True), "view dtype": lambda: a.view(lib.int32),
               "add": lambda: a + 1, "neg": lambda: -a, "matmul": lambda: a @ a.t(), "index_select":
               lambda: a.index_select(0, lib.tensor([0])), "flip": lambda: a.flip(0), "cat": lambda: lib.cat([a, a]),
               "conj": lambda: z.conj(), "real": lambda: z.real, "imag": lambda: z.imag,
               "view_as_real": lambda: lib.view_as_real(z), "empty_like": lambda: lib.empty_like(a)}
        out = []
        for k, f in ops.items():
            r = f()
            out.append((k, state(r)))
            if r.is_inference() or not r._is_view():
                out.append((k, writable(r)))
        return out
    c, t = both(scenario)
    assert c == t


def test_detach_and_data_of_inference_tensors_outside():
    def scenario(lib):
        with lib.inference_mode():
            a = lib.zeros(3)
        d = a.detach()
        out = [state(d)]
        d.add_(1)
        dd = d.detach()  # its own counter, not d's
        d.add_(1)
        out += [version(d), version(dd), state(d[1:]), a.tolist()]
        with lib.inference_mode():
            d.add_(1)  # inference tensors bump nothing inside
            out.append(version(d))
        m = a.data
        m.mul_(2)
        out += [version(m), a.tolist()]
        return out
    c, t = both(scenario)
    assert c == t


def test_inplace_outside_is_refused_after_the_write():
    """torch bumps the version after the op has written: the data (or the metadata of an in-place
    view op) has changed when the error is raised."""
    def scenario(lib):
        out = []

        def fresh():
            with lib.inference_mode():
                return lib.arange(6.).reshape(2, 3)
        x = lib.ones(2, 3)
        for name, op in [("add_", lambda a: a.add_(1)), ("mul_", lambda a: a.mul_(x)), ("fill_", lambda a: a.fill_(7)),
                         ("zero_", lambda a: a.zero_()), ("copy_", lambda a: a.copy_(x)), ("neg_", lambda a: a.neg_()),
                         ("setitem", lambda a: a.__setitem__(0, 5.)), ("t_", lambda a: a.t_()),
                         ("unsqueeze_", lambda a: a.unsqueeze_(0)), ("transpose_", lambda a: a.transpose_(0, 1)),
                         ("as_strided_", lambda a: a.as_strided_((3,), (1,))), ("set_", lambda a: a.set_(x)),
                         ("resize_ same", lambda a: a.resize_(2, 3)), ("detach_", lambda a: a.detach_()),
                         ("requires_grad_(False)", lambda a: a.requires_grad_(False)),
                         ("view write", lambda a: a[0].add_(1))]:
            a = fresh()
            out.append((name, attempt(lambda: op(a)), tuple(a.shape), a.tolist()))
        return out
    c, t = both(scenario)
    assert c == t
    msg = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a "
           "normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.")
    assert ("add_", ("RuntimeError", msg), (2, 3), [[1., 2., 3.], [4., 5., 6.]]) in c


def test_version_message():
    with ctensor.inference_mode():
        a = ctensor.ones(2)
    with pytest.raises(RuntimeError) as e:
        a._version
    assert str(e.value) == "Inference tensors do not track version counter."


def test_requires_grad():
    def scenario(lib):
        with lib.inference_mode():
            a = lib.ones(2)
            i = lib.ones(2, dtype=lib.int64)
            b = lib.ones(2)
            inside = attempt(lambda: b.requires_grad_())
        out = [inside, b.requires_grad, b.is_leaf,
               attempt(lambda: a.requires_grad_()), attempt(lambda: setattr(a, "requires_grad", True)),
               attempt(lambda: a.requires_grad_(False)), a.requires_grad,
               attempt(lambda: i.requires_grad_()),  # the dtype check comes first
               attempt(lambda: a[0].requires_grad_()), attempt(lambda: a.detach().requires_grad_()),
               attempt(lambda: a.clone().requires_grad_())]
        w = lib.ones(2, requires_grad=True)
        out.append(attempt(lambda: (b * 2).sum().backward()))
        out.append(b.grad.tolist())
        out.append(attempt(lambda: (b + w).sum().backward()))
        out.append(b.grad.tolist())
        return out
    c, t = both(scenario)
    assert c == t


def test_saved_for_backward_refused():
    def scenario(lib):
        with lib.inference_mode():
            a = lib.full((3,), 2.)
        w = lib.ones(3, requires_grad=True)
        out = [attempt(lambda: w * a), attempt(lambda: a * w), attempt(lambda: a.detach() * w),
               attempt(lambda: a[1:] * w[1:])]
        s = a + w  # add saves nothing
        s.sum().backward()
        out.append(w.grad.tolist())
        c = (a.clone() * w).sum()  # the workaround: a normal copy
        c.backward()
        out.append(w.grad.tolist())
        with lib.no_grad():
            out.append(attempt(lambda: w * a))
        return out
    c, t = both(scenario)
    assert c == t
    assert c[0][1].startswith("Inference tensors cannot be saved for backward. Please do not use Tensors created in "
                              "inference mode in computation tracked by autograd.")


def test_views_of_normal_tensors_taken_inside():
    def scenario(lib):
        x = lib.ones(4, requires_grad=True)
        y = x * 1
        z = lib.ones(4)
        w = lib.ones(3, requires_grad=True)
        with lib.inference_mode():
            v = y[1:]
            vz = z[1:]
            out = [state(v), state(vz), attempt(lambda: vz.mul_(2)), version(z)]
        out += [attempt(lambda: v.add_(1)), attempt(lambda: vz.mul_(w)), attempt(lambda: vz.mul_(2)), version(z)]
        with lib.inference_mode():
            v2 = y[1:]
        y.add_(1)
        out.append(attempt(lambda: v2.grad_fn))
        with lib.inference_mode():
            v3 = vz[1:]  # a view of a view taken inside
        out.append(attempt(lambda: v3.mul_(w[1:])))
        return out
    c, t = both(scenario)
    assert c == t
    assert c[4][1].startswith("A view was created in inference mode and is being modified inplace in normal mode.")


def test_decorator_and_clone():
    def scenario(lib):
        out = []

        @lib.inference_mode
        def f1(x):
            out.append(modes(lib))
            return x * 2

        @lib.inference_mode()
        def f2(x):
            out.append(modes(lib))
            return x * 2

        @lib.inference_mode(False)
        def f3(x):
            out.append(modes(lib))
            return x * 2

        @lib.inference_mode()
        def gen():
            out.append(("gen", modes(lib)))
            yield 1
            out.append(("gen", modes(lib)))
            yield 2

        @lib.inference_mode()
        def boom():
            raise ValueError("boom")

        x = lib.ones(2, requires_grad=True)
        for f in (f1, f2, f3):
            r = f(x)
            out.append((r.is_inference(), r.requires_grad, modes(lib)))
        with lib.inference_mode():
            r = f3(x)
            out.append((r.is_inference(), r.requires_grad, modes(lib)))
        for v in gen():
            out.append(("main", v, modes(lib)))
        out.append(attempt(boom))
        out.append(modes(lib))
        m = lib.inference_mode(False)
        k = m.clone()
        out.append((type(k) is type(m), k is not m, k.mode, lib.inference_mode().clone().mode, f1.__name__))
        return out
    c, t = both(scenario)
    assert c == t


def test_thread_local():
    def scenario(lib):
        seen = {}

        def worker(name):
            seen[name + " start"] = modes(lib)
            with lib.inference_mode():
                seen[name + " inside"] = modes(lib)
                seen[name + " tensor"] = lib.ones(1).is_inference()
                barrier.wait()
                barrier.wait()
            seen[name + " end"] = modes(lib)
        barrier = threading.Barrier(2)
        with lib.inference_mode():
            th = threading.Thread(target=worker, args=("thread",))
            th.start()
            barrier.wait()  # the thread is inside its inference mode; this one too
            seen["main"] = (modes(lib), lib.ones(1).is_inference())
            barrier.wait()
            th.join()
        th = threading.Thread(target=worker, args=("thread2",))
        barrier = threading.Barrier(2)
        th.start()
        barrier.wait()
        seen["main outside"] = (modes(lib), lib.ones(1).is_inference())
        barrier.wait()
        th.join()
        return seen
    c, t = both(scenario)
    assert c == t


def test_module_functions():
    with ctensor.inference_mode():
        a = ctensor.ones(2)
    assert ctensor.is_inference(a) and not ctensor.is_inference(ctensor.ones(1))
    assert ctensor.autograd.inference_mode is ctensor.inference_mode
    with pytest.raises(RuntimeError, match="state must be a value returned by ct_set_inference_mode"):
        ctensor._C.ct_restore_inference_mode(4)


def test_math_bit_inputs_written_inside():
    """An in-place op on a conj view inside inference mode (the C boundary resolves the bit into a
    copy and writes it back) must still write through, for normal and inference tensors."""
    def scenario(lib):
        x = lib.tensor([1 + 2j, 3 - 1j])
        with lib.inference_mode():
            a = lib.tensor([1 + 2j, 3 - 1j])
            xc, ac = x.conj(), a.conj()
            xc.mul_(2)
            ac.mul_(2)
            return x.tolist(), a.tolist(), version(x), version(a)
    c, t = both(scenario)
    assert c == t


def test_nothing_is_recorded_inside_even_with_enable_grad():
    def scenario(lib):
        x = lib.ones(3, requires_grad=True)
        out = []
        with lib.inference_mode():
            with lib.enable_grad():
                y = x * 2
                out.append((y.requires_grad, y.grad_fn is None, y.is_inference(), lib.is_grad_enabled()))
                out.append(attempt(lambda: x.add_(1)))  # no leaf check: autograd is not involved
            out.append(version(x))
        return out
    c, t = both(scenario)
    assert c == t


def test_set_data_takes_the_inference_state_and_keeps_the_counter():
    def scenario(lib):
        with lib.inference_mode():
            a = lib.zeros(3)
            b = lib.zeros(3)
        n = lib.ones(3)
        n.add_(1)
        n.data = a  # inference now, with its own counter still
        out = [n.is_inference(), version(n), attempt(lambda: n.add_(1)), version(n)]
        b.data = lib.ones(3)  # normal now, still without a counter
        out += [b.is_inference(), version(b), attempt(lambda: b.add_(1)), b.tolist()]
        return out
    c, t = both(scenario)
    assert c == t


def test_custom_function():
    def scenario(lib):
        class Mul(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x, y):
                ctx.save_for_backward(x, y)
                return x * y

            @staticmethod
            def backward(ctx, g):
                x, y = ctx.saved_tensors
                return y * g, x * g
        w = lib.ones(3, requires_grad=True)
        with lib.inference_mode():
            a = lib.full((3,), 2.)
            r = Mul.apply(a, a)  # records nothing: nothing to save
            rw = Mul.apply(w, w)  # not even with an input that requires grad
            out = [(r.is_inference(), r.requires_grad), (rw.is_inference(), rw.requires_grad, rw.grad_fn is None)]
        out.append(attempt(lambda: Mul.apply(w, a)))  # recorded outside: a may not be saved
        out.append(attempt(lambda: Mul.apply(a, a)))  # nothing requires grad: nothing saved
        s = Mul.apply(w, a.clone()).sum()
        s.backward()
        out.append(w.grad.tolist())
        return out
    c, t = both(scenario)
    assert c == t


def test_explain_says_there_is_no_counter():
    with ctensor.inference_mode():
        a = ctensor.ones(2)
    text = _explain_text(a)
    assert "version: none (an inference tensor: made in inference mode, it tracks no in-place writes)" in text
    assert "version: 0 " in _explain_text(ctensor.ones(2))


def _explain_text(t):
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        r = ctensor.explain(t)
    return r if isinstance(r, str) else buf.getvalue()


def test_views_of_an_inference_tensor_that_requires_grad():
    def scenario(lib):
        with lib.inference_mode():
            b = lib.ones(3)
            b.requires_grad_()
        w = lib.ones(3, requires_grad=True)
        out = []
        for v in (b[0], b.t(), b.view(3), b.unsqueeze(0), b.detach()):
            out.append((v.requires_grad, v.grad_fn is None, v.is_leaf, v._is_view(), v.is_inference()))
        (b + w).sum().backward()  # a normal argument: recorded, b's gradient accumulates
        out.append(b.grad.tolist())
        return out
    c, t = both(scenario)
    assert c == t
