"""Tensor hooks and custom autograd functions: Tensor.register_hook, ctensor.autograd.Function,
ctensor.autograd.function.once_differentiable and Variable, over the C library's
ct_tensor_register_hook and ct_custom_op_apply (through _C._register_hook and
_C._custom_op_apply, autograd_callbacks.c).

Hooks and backward functions run on the thread that called backward, with grad mode off; an
exception they raise ends backward and reaches its caller unchanged.  Each is owned by the C
library (the tensor or the graph node that can call it) and released when it can no longer
run; a hook or ctx that refers to its own tensor makes a reference cycle through C that
Python's collector cannot see (as a lambda closing over its tensor would in torch's C++ API)."""

from __future__ import annotations

import functools
import inspect
import threading
import warnings

from . import _C
from ._autograd import no_grad, is_grad_enabled

__all__ = ["RemovableHandle", "Function", "FunctionCtx", "once_differentiable", "Variable"]

_DIFFERENTIABLE_BACKWARD = _C.CT_CUSTOM_DIFFERENTIABLE_BACKWARD  # ct_custom_output_flag
_EXPECTED_VERSION_HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its "
                          "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
_INFERENCE_SAVED = ("Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                    "mode in computation tracked by autograd. To work around this, you can make a clone to get a "
                    "normal tensor and use it in autograd, or use `torch.no_grad()` instead of "
                    "`torch.inference_mode()`.")
_FREED = ("Trying to backward through the graph a second time (or directly access saved tensors after they have "
          "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
          "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
          "you need to access saved tensors after calling backward.")

_DIRTY_NOT_INPUT = ("ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been "
                    "mutated should be passed to ctx.mark_dirty().")
_DIRTY_NOT_RETURNED = ("Some elements marked as dirty during the forward method were not returned as output. The "
                       "inputs that are modified inplace must all be outputs of the Function.")
_DIRTY_VIEW_MULTIPLE_OUTPUTS = (
    "If your Function modifies inplace an input that is a view of another Tensor, your Function cannot return more "
    "than one Tensor. This is not supported by the current autograd engine. You should either make sure the input "
    "is not a view (using .clone() for example) or make your Function only return one Tensor (potentially splitting "
    "it into two Functions: one doing the inplace that returns a single Tensor and a second one that does the other "
    "operations). You can ask on the forum https://discuss.pytorch.org/ if you need help to do this change.")

# Whether the backward running on this thread retains the graph (set by _autograd._backward):
# a custom function's saved tensors are freed after its backward otherwise, as torch's.
_state = threading.local()


def _retaining():
    return getattr(_state, "retain_graph", True)


class RemovableHandle:
    """torch.utils.hooks.RemovableHandle for a tensor hook: remove() unregisters it (twice is
    harmless); also a context manager that removes it on exit."""

    __slots__ = ("id", "_cap")

    def __init__(self, hook_id, cap):
        self.id = hook_id
        self._cap = cap

    def remove(self):
        _C._hook_remove(self._cap)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


def _hook_name(fn):
    return getattr(fn, "__name__", None) or type(fn).__name__


def register_hook(self, hook):
    """Registers hook(grad) -> Tensor or None, called with this tensor's gradient in backward
    (torch's Tensor.register_hook); a returned tensor replaces the gradient.  Returns a handle
    whose remove() unregisters it."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    name = _hook_name(hook)

    def call(grad):
        r = hook(grad)
        if r is None:
            return None
        if not isinstance(r, _C.Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
        if r.shape != grad.shape:
            raise RuntimeError(f"hook '{name}' has changed the size of value")
        if r.dtype != grad.dtype:
            raise RuntimeError(f"hook '{name}' has changed the type of value (was {grad.type()} got {r.type()})")
        return r

    hook_id, cap = _C._register_hook(self, call)
    return RemovableHandle(hook_id, cap)


def _size_text(t):
    return "[" + ", ".join(str(s) for s in t.shape) + "]"


class _Saved:
    """A tensor saved by ctx.save_for_backward and its version then.  An output is kept as a
    detached alias (sharing its version counter), so that the node does not own its output;
    saved_tensors gives it back through ct_custom_op_saved_output, with the node as grad_fn
    under create_graph."""

    __slots__ = ("tensor", "version", "output_nr")

    def __init__(self, tensor, output_nr, recording=True):
        if recording and tensor.is_inference():
            raise RuntimeError(_INFERENCE_SAVED)
        self.tensor = tensor
        try:
            self.version = tensor._version
        except RuntimeError:  # an inference tensor, kept by a forward that records nothing
            self.version = None
        self.output_nr = output_nr


class FunctionCtx:
    """The ctx of a custom Function: what forward leaves for backward."""

    def save_for_backward(self, *tensors):
        """Saves tensors (or None) for backward; read them back as ctx.saved_tensors.  (Checked
        when forward returns, as torch.)"""
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        raise NotImplementedError("ctensor: forward-mode AD (save_for_forward) is not supported")

    def mark_dirty(self, *args):
        """Marks inputs that forward modified in place (and returns)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args):
        """Marks outputs that get no gradient (requires_grad False)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value):
        """True (default): backward gets zeros for outputs no gradient reached; False: None."""
        self.materialize_grads = bool(value)

    @property
    def saved_tensors(self):
        """The tensors given to save_for_backward, checked against in-place writes since."""
        saved = getattr(self, "_saved", None)
        if saved is None:
            return ()
        if self._freed:
            raise RuntimeError(_FREED)
        out = []
        for s in saved:
            if s is None:
                out.append(None)
                continue
            now = s.tensor._version if s.version is not None else None
            if now != s.version:
                where = f", which is output {s.output_nr} of {self._name}," if s.output_nr is not None else ""
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [{s.tensor.type()} {_size_text(s.tensor)}]{where} is at version {now}; expected "
                    f"version {s.version} instead. {_EXPECTED_VERSION_HINT}")
            # an output: under create_graph, with this node as grad_fn (torch's SavedVariable)
            out.append(s.tensor if s.output_nr is None else _C.ct_custom_op_saved_output(s.tensor, s.output_nr))
        return tuple(out)


class _FunctionMeta(type):
    def __init__(cls, name, bases, attrs):
        super().__init__(name, bases, attrs)
        # torch's <Name>Backward, the class of grad_fn (here only its name)
        cls._backward_name = name + "Backward"


class Function(FunctionCtx, metaclass=_FunctionMeta):
    """torch.autograd.Function: subclass it with staticmethods forward(ctx, *args) (or forward(*args)
    plus setup_context(ctx, inputs, output)) and backward(ctx, *grad_outputs), and call
    apply(*args).  The outputs' grad_fn is named <Name>Backward."""

    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    vjp = backward

    @classmethod
    def apply(cls, *args, **kwargs):
        custom_setup = cls.setup_context is not Function.setup_context
        if custom_setup:  # torch binds forward's defaults into the arguments (bind_default_args)
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args, kwargs = bound.args, {}
        ctx = FunctionCtx()
        ctx._name = cls.__name__
        ctx._freed = False
        ctx.materialize_grads = True
        ctx.to_save = ()
        ctx.dirty_tensors = ()
        ctx.non_differentiable = ()
        tensor_args = [(i, a) for i, a in enumerate(args) if isinstance(a, _C.Tensor)]
        recording = (is_grad_enabled() and not _C.ct_is_inference_mode_enabled()  # torch: none in inference mode
                     and any(a.requires_grad for _, a in tensor_args))
        ctx.needs_input_grad = tuple(isinstance(a, _C.Tensor) and a.requires_grad for a in args)  # grad mode aside
        with no_grad():
            if custom_setup:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
        is_tuple = isinstance(output, tuple)
        outputs = list(output) if is_tuple else [output]
        inputs = [a for _, a in tensor_args]
        dirty = {id(t) for t in ctx.dirty_tensors}
        nondiff = {id(t) for t in ctx.non_differentiable}
        for t in ctx.dirty_tensors:  # torch's _process_backward_mode_ad: a dirty tensor should be an input
            if (isinstance(t, _C.Tensor) and not any(t is a for a in inputs) and any(t is o for o in outputs)):
                differentiable = recording and id(t) not in nondiff and (t.is_floating_point() or t.is_complex())
                if differentiable and t._is_view():
                    raise RuntimeError(_DIRTY_NOT_INPUT)
                if differentiable:
                    warnings.warn(_DIRTY_NOT_INPUT)
                dirty.discard(id(t))  # an ordinary output then
        c_outs, flags, out_index, positions = [], [], {}, []
        for k, o in enumerate(outputs):
            if not isinstance(o, _C.Tensor):
                continue
            flag = 1 if id(o) in nondiff else 0
            if id(o) in dirty:
                flag |= 2
                if recording and o.is_leaf and o.requires_grad:
                    raise RuntimeError("a leaf Variable that requires grad has been used in an in-place operation.")
                if recording and flag == 2 and o._is_view() and len(outputs) > 1:
                    raise RuntimeError(_DIRTY_VIEW_MULTIPLE_OUTPUTS)
            elif any(o is a for a in inputs):
                with no_grad():  # torch returns an input as a view of itself, which takes the node
                    o = o.view_as(o)
                outputs[k] = o
            out_index[id(o)] = len(c_outs)
            positions.append(k)
            c_outs.append(o)
            flags.append(flag)
        if any(id(t) in dirty and not any(t is o for o in outputs) for t in ctx.dirty_tensors):
            raise RuntimeError(_DIRTY_NOT_RETURNED)
        for i, t in enumerate(ctx.to_save):
            if t is not None and not isinstance(t, _C.Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} is of type "
                                f"{type(t).__name__}")
        saved = []
        for t in ctx.to_save:
            if t is None:
                saved.append(None)
            elif id(t) in out_index and recording:
                saved.append(_Saved(t.detach(), out_index[id(t)]))
            else:
                saved.append(_Saved(t, None, recording))
        ctx._saved = saved
        del ctx.to_save
        # torch clears them once used: ctx lives as long as the node, and they may be outputs
        ctx.dirty_tensors = ctx.non_differentiable = None
        # backward is differentiable (create_graph records what it computes), as torch's;
        # once_differentiable's wrapper makes its own results refuse a second backward.
        flags = [f | _DIFFERENTIABLE_BACKWARD for f in flags]
        if c_outs:  # not recording, it still marks the views among the outputs (torch's IN_CUSTOM_FUNCTION)
            _C._custom_op_apply(cls.__name__, tuple(inputs), tuple(c_outs), tuple(flags), ctx.materialize_grads,
                                _backward_runner(cls, ctx, args, positions, len(outputs)))
        return tuple(outputs) if is_tuple else outputs[0]


def _backward_runner(cls, ctx, args, positions, n_outputs):
    """The callable the C node calls with the tensor outputs' gradients: backward gets one per
    output of forward (None for a non-tensor output), as torch's.  It keeps which arguments were
    tensors, not the arguments: an input marked dirty is an output, and an output held by its
    own node is a reference cycle through C that Python's gc cannot see."""
    name = cls._backward_name
    n = len(args)
    tensor_arg = tuple(isinstance(a, _C.Tensor) for a in args)

    def run(grads):
        full = [None] * n_outputs
        for k, g in zip(positions, grads):
            full[k] = g
        result = cls.backward(ctx, *full)
        if not isinstance(result, tuple):
            result = (result,)
        if len(result) > n and all(g is None for g in result[n:]):
            result = result[:n]  # torch drops trailing Nones
        if len(result) != n:
            raise RuntimeError(f"function {name} returned an incorrect number of gradients (expected {n}, "
                               f"got {len(result)})")
        out = []
        for i, (is_tensor, g) in enumerate(zip(tensor_arg, result)):
            if not is_tensor:
                if g is not None:
                    raise RuntimeError(f"function {name} returned a gradient different than None at position "
                                       f"{i + 1}, but the corresponding forward input was not a Variable")
                continue
            if g is not None and not isinstance(g, _C.Tensor):
                raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")
            out.append(g)
        if not _retaining() and any(s is not None for s in ctx._saved):
            ctx._freed = True
        return out

    return run


_ONCE_DIFFERENTIABLE = "trying to differentiate twice a function that was marked with @once_differentiable"


def once_differentiable(fn):
    """torch.autograd.function.once_differentiable: backward runs with grad mode off; when grad
    mode is on (create_graph) and a gradient it was given requires grad, its results go
    through a node whose backward fails with torch's "trying to differentiate twice a function
    that was marked with @once_differentiable" (torch's DelayedError)."""
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not is_grad_enabled() or not any(isinstance(a, _C.Tensor) and a.requires_grad for a in args):
            return outputs
        is_tuple = isinstance(outputs, tuple)
        outs = outputs if is_tuple else (outputs,)
        # torch's fake_requires_grad: detached aliases that require grad, so the node records
        aliases = [o.detach().requires_grad_() if isinstance(o, _C.Tensor) else None for o in outs]
        tensors = [a for a in aliases if a is not None]
        if not tensors:
            return outputs
        errs = iter(_DelayedError.apply(*tensors))
        result = tuple(next(errs) if a is not None else None for a in aliases)
        return result if is_tuple else result[0]
    return wrapper


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, _C.Tensor)


class Variable(metaclass=_VariableMeta):
    """torch.autograd.Variable, deprecated in torch: Variable(t, requires_grad=False) is
    t.detach() with requires_grad set; every Tensor is an instance."""

    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if data is None:
            from ._creation import empty
            data = empty(0)
        if not isinstance(data, _C.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)


def install():
    _C._install(_C.Tensor, "register_hook", register_hook)


class _DelayedError(Function):
    """torch's DelayedError node: passes tensors through, and fails when differentiated."""

    @staticmethod
    def forward(ctx, *tensors):
        return tuple(t.view_as(t) for t in tensors)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(_ONCE_DIFFERENTIABLE)


_DelayedError._backward_name = "DelayedError"
