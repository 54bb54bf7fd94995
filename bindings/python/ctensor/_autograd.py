"""Autograd for Python: grad mode (no_grad, enable_grad, set_grad_enabled), grad_fn objects,
and the Tensor methods backward / requires_grad_ / detach, over the header's Autograd section.

The graph lives in the C library: every ct_* op records its node when grad mode is on and an
input requires grad, so nothing here builds a graph.  Python keeps no reference from a node to
a tensor (grad_fn objects only carry the node's name), so releasing the outputs frees the
graph (ctensor.live_tensors() returns to where it was)."""

from __future__ import annotations

import functools
import inspect
import sys
import warnings

from . import _C

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
           "is_inference_mode_enabled", "is_inference", "backward", "grad",
           "Node", "install"]


def is_grad_enabled():
    """True if grad mode is on for this thread (new threads start with it on)."""
    return _C.ct_is_grad_enabled() == 1


def _wrap_generator(ctx_factory, func):
    """func, a generator function, with the context entered each time execution enters the
    generator and left each time it yields (torch.utils._contextlib._wrap_generator)."""
    @functools.wraps(func)
    def generator_context(*args, **kwargs):
        gen = func(*args, **kwargs)
        try:
            with ctx_factory():
                response = gen.send(None)
            while True:
                try:
                    request = yield response
                except GeneratorExit:
                    with ctx_factory():
                        gen.close()
                    raise
                except BaseException:
                    with ctx_factory():
                        response = gen.throw(*sys.exc_info())
                else:
                    with ctx_factory():
                        response = gen.send(request)
        except StopIteration as e:
            return e.value
    return generator_context


class _DecoratorContextManager:
    """A context manager that is also a decorator (torch.utils._contextlib's): each call of
    the decorated function runs in a fresh clone() of it."""

    def __call__(self, orig_func):
        if inspect.isclass(orig_func):
            warnings.warn("Decorating classes is deprecated and will be disabled in future versions. You should "
                          "only decorate functions or methods. To preserve the current behavior of class "
                          "decoration, you can directly decorate the `__init__` method and nothing else.",
                          FutureWarning, stacklevel=2)
            func = lambda *args, **kwargs: orig_func(*args, **kwargs)  # noqa: E731
        else:
            func = orig_func
        if inspect.isgeneratorfunction(func):
            return _wrap_generator(self.clone, func)

        @functools.wraps(func)
        def decorate_context(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return decorate_context

    def clone(self):
        """A new context manager of the same kind (torch's _DecoratorContextManager.clone)."""
        return self.__class__()


class _NoParamDecoratorContextManager(_DecoratorContextManager):
    """Also a decorator without parentheses: @no_grad as @no_grad() (torch 2.x)."""

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)


class no_grad(_NoParamDecoratorContextManager):
    """Context manager and decorator: ops inside record no graph (their results do not
    require grad), as torch.no_grad()."""

    def __init__(self):
        self.prev = False

    def __enter__(self):
        self.prev = _C.ct_set_grad_enabled(0) == 1

    def __exit__(self, exc_type, exc_value, traceback):
        _C.ct_set_grad_enabled(1 if self.prev else 0)


class enable_grad(_NoParamDecoratorContextManager):
    """Context manager and decorator turning grad mode on (inside no_grad), as torch's."""

    def __enter__(self):
        self.prev = _C.ct_set_grad_enabled(1) == 1

    def __exit__(self, exc_type, exc_value, traceback):
        _C.ct_set_grad_enabled(1 if self.prev else 0)


class set_grad_enabled(_DecoratorContextManager):
    """set_grad_enabled(mode): sets grad mode at once (a function call); as a context manager
    it sets it on entry and restores the previous mode on exit; as a decorator it restores the
    previous mode at once and sets mode around each call, as torch 2.13's set_grad_enabled."""

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'enabled' (position 1) must be bool, not "
                            f"{type(mode).__name__}")
        self.prev = _C.ct_set_grad_enabled(1 if mode else 0) == 1
        self.mode = mode

    def __call__(self, orig_func):
        _C.ct_set_grad_enabled(1 if self.prev else 0)
        return super().__call__(orig_func)

    def __enter__(self):
        _C.ct_set_grad_enabled(1 if self.mode else 0)

    def __exit__(self, exc_type, exc_value, traceback):
        _C.ct_set_grad_enabled(1 if self.prev else 0)

    def clone(self):
        """A new context manager setting the same mode."""
        return self.__class__(self.mode)


def is_inference(input):
    """True if input is an inference tensor (torch.is_inference)."""
    return _C.ct_tensor_is_inference(input) == 1


def is_inference_mode_enabled():
    """True if inference mode is on for this thread (torch.is_inference_mode_enabled)."""
    return _C.ct_is_inference_mode_enabled() == 1


class inference_mode(_DecoratorContextManager):
    """Context manager and decorator for inference mode, as torch.inference_mode(mode=True):
    inside, grad mode is off and new tensors are inference tensors (no version counter, their
    views are not views, they may not be used in recorded computations afterwards); on exit
    both modes are restored.  inference_mode(False) turns inference mode off and grad mode
    on.  Also a decorator, with or without parentheses (@inference_mode, @inference_mode(),
    @inference_mode(False)).  Thread-local.  See the header's "Autograd: inference mode"."""

    def __init__(self, mode=True):
        self.mode = mode

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)

    def __enter__(self):
        self._prev = _C.ct_set_inference_mode(1 if self.mode else 0)

    def __exit__(self, exc_type, exc_value, traceback):
        _C.ct_restore_inference_mode(self._prev)

    def clone(self):
        """A new context manager with the same mode."""
        return self.__class__(self.mode)


# torch's name() of the nodes written by hand in its C++ autograd is their qualified C++ name
# (type(fn).__name__ and the repr say "CopySlices")
_QUALIFIED = {"CopySlices": "torch::autograd::CopySlices", "CopyBackwards": "torch::autograd::CopyBackwards"}


class Node:
    """A node of the backward graph as seen from Python: x.grad_fn.  Its class is named after
    the node ("AddBackward0", "CopySlices", ...), as in torch; name() returns torch's name()
    ("AddBackward0", and "torch::autograd::CopySlices" for CopySlices, as torch 2.13)."""

    __slots__ = ()
    _name = "Node"

    def name(self):
        """torch's name of the node, e.g. "AddBackward0" (a str)."""
        return _QUALIFIED.get(self._name, self._name)

    def __repr__(self):
        return f"<{self._name} object at {id(self):#x}>"


_NODE_CLASSES: dict = {}


def _node(name):
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        # torch's node types are C types without a module: <class 'MulBackward0'>
        cls = type(name, (Node,), {"__slots__": (), "_name": name, "__module__": "builtins"})
        _NODE_CLASSES[name] = cls
    return cls()


def grad_fn(t):
    """t.grad_fn: None for a leaf, else a Node named as torch names it."""
    name = _C.ct_grad_fn_name(t)
    return None if name is None else _node(name)


def _as_tuple(x, what):
    if isinstance(x, _C.Tensor):
        return (x,)
    if type(x) is dict:
        return tuple(x.values())
    from collections.abc import Mapping
    if isinstance(x, Mapping):
        raise TypeError(f"`inputs` argument to `{what}()` must be a dict, not {type(x).__name__}. "
                        "Other Mapping types are not supported.")
    return tuple(x)


def _make_grads(outputs, grads):
    """torch's _make_grads: each given gradient checked against its output (shape, complexness;
    messages from the C library, which checks them), None kept for the library to make ones."""
    out = []
    for g in grads:
        if g is None or isinstance(g, _C.Tensor):
            out.append(g)
        else:
            raise TypeError("gradients can be either Tensors or None, but got " + type(g).__name__)
    return tuple(out)


def _run(outputs, grads, inputs, retain_graph, create_graph, allow_unused, accumulate):
    from ._function import _state  # custom functions free their saved tensors unless retained
    prev = getattr(_state, "retain_graph", True)
    _state.retain_graph = bool(retain_graph)
    try:
        return _C._run_backward(outputs, grads, inputs, bool(retain_graph), bool(create_graph), bool(allow_unused),
                                bool(accumulate))
    finally:
        _state.retain_graph = prev


def _backward(t, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    if gradient is not None and not isinstance(gradient, _C.Tensor):
        from ._creation import tensor
        gradient = tensor(gradient, dtype=t.dtype)
    backward(t, gradient, retain_graph, create_graph, inputs=inputs)


_warned_create_graph = False


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """ctensor.autograd.backward: one backward from every tensor (with its gradient),
    accumulating into the leaves' .grad (only into inputs when given), as torch.autograd.backward.
    create_graph=True records the backward itself, so .grad can be differentiated again."""
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning, stacklevel=2)
        if grad_tensors is None:
            grad_tensors = grad_variables
        else:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                               "`backward()`. Please only use `grad_tensors`.")
    inputs_tuple = () if inputs is None else _as_tuple(inputs, "backward")
    if inputs is not None and len(inputs_tuple) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    tensors = _as_tuple(tensors, "backward") if not isinstance(tensors, _C.Tensor) else (tensors,)
    if grad_tensors is None:
        grad_tensors = (None,) * len(tensors)
    elif isinstance(grad_tensors, _C.Tensor):
        grad_tensors = (grad_tensors,)
    grads = _make_grads(tensors, tuple(grad_tensors))
    if retain_graph is None:
        retain_graph = create_graph
    global _warned_create_graph
    if create_graph and not _warned_create_graph:  # once per process, as torch's TORCH_WARN_ONCE
        _warned_create_graph = True
        warnings.warn("Using backward() with create_graph=True will create a reference cycle between the parameter "
                      "and its gradient which can cause a memory leak. We recommend using autograd.grad when "
                      "creating the graph to avoid this. If you have to use this function, make sure to reset the "
                      ".grad fields of your parameters to None after use to break the cycle and avoid the leak.",
                      UserWarning, stacklevel=3)
    _run(tensors, grads, inputs_tuple, retain_graph, create_graph, True, True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """ctensor.autograd.grad: the gradients of outputs with respect to inputs (leaves or not),
    as a tuple, touching no .grad and running only the part of the graph that leads to the
    inputs, as torch.autograd.grad.  create_graph=True records the computation, so the results
    can be differentiated again (higher-order gradients)."""
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = (outputs,) if isinstance(outputs, _C.Tensor) else tuple(outputs)
    inputs_tuple = _as_tuple(inputs, "grad")
    if len(inputs_tuple) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.",
                      FutureWarning, stacklevel=2)
    if is_grads_batched:
        raise NotImplementedError("ctensor.autograd.grad: is_grads_batched=True (vmap over grad_outputs) is not "
                                  "supported; call grad once per batch element")
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    elif isinstance(grad_outputs, _C.Tensor):
        grad_outputs = (grad_outputs,)
    grads = _make_grads(outputs, tuple(grad_outputs))
    if retain_graph is None:
        retain_graph = create_graph
    result = _run(outputs, grads, inputs_tuple, retain_graph, create_graph, allow_unused, False)
    if materialize_grads:
        from ._creation import zeros_like
        result = tuple(r if r is not None else zeros_like(x).requires_grad_(bool(create_graph))
                       for r, x in zip(result, inputs_tuple))
    if type(inputs) is dict:
        return dict(zip(inputs.keys(), result))
    return result


_NUMPY_ERROR = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."


class _AutogradMethods:
    """Tensor methods installed by install() (never instantiated)."""

    @property
    def grad_fn(self):
        """None for a leaf; else the node that made this tensor (name() -> "AddBackward0")."""
        return grad_fn(self)

    def requires_grad_(self, requires_grad=True):
        """Marks this (leaf) tensor as requiring grad or not; returns self."""
        _C.ct_set_requires_grad(self, 1 if requires_grad else 0)
        return self

    def is_inference(self):
        """True if this is an inference tensor: made in inference mode, or a view, detach() or
        .data of one (torch's Tensor.is_inference)."""
        return _C.ct_tensor_is_inference(self) == 1

    def retain_grad(self):
        """Makes this non-leaf tensor keep the gradient that reaches it in backward, as its .grad
        (a leaf: nothing to do)."""
        _C.ct_retain_grad(self)

    @property
    def retains_grad(self):
        """True if retain_grad() was called on this non-leaf tensor."""
        return _C.ct_retains_grad(self) == 1

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulates d(self)/d(leaf) into every leaf's .grad (gradient: d(loss)/d(self), needed
        unless self has one element)."""
        _backward(self, gradient, retain_graph, create_graph, inputs)


def install():
    for name, value in vars(_AutogradMethods).items():
        if not name.startswith("__"):
            _C._install(_C.Tensor, name, value)
