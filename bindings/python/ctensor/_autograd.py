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


def _backward(t, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    if create_graph:
        raise NotImplementedError("ctensor: create_graph=True (higher-order gradients) is not supported")
    if inputs is not None:
        raise NotImplementedError("ctensor: backward(inputs=...) is not supported")
    if retain_graph is None:
        retain_graph = create_graph
    if gradient is not None and not isinstance(gradient, _C.Tensor):
        from ._creation import tensor
        gradient = tensor(gradient, dtype=t.dtype)
    from ._function import _state  # custom functions free their saved tensors unless retained
    prev = getattr(_state, "retain_graph", True)
    _state.retain_graph = bool(retain_graph)
    try:
        _C._backward(t, gradient, bool(retain_graph))
    finally:
        _state.retain_graph = prev


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None):
    """ctensor.autograd.backward: backward from each tensor (with its gradient), accumulating
    into the leaves' .grad, as torch.autograd.backward."""
    if grad_variables is not None:
        grad_tensors = grad_variables
    if isinstance(tensors, _C.Tensor):
        tensors = (tensors,)
    tensors = tuple(tensors)
    if grad_tensors is None:
        grad_tensors = (None,) * len(tensors)
    elif isinstance(grad_tensors, _C.Tensor):
        grad_tensors = (grad_tensors,)
    grad_tensors = tuple(grad_tensors)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(f"grad can be implicitly created only for scalar outputs" if not grad_tensors else
                           f"Mismatch in number of gradients: got {len(grad_tensors)} but expected "
                           f"{len(tensors)}")
    if retain_graph is None:
        retain_graph = create_graph
    # torch runs one backward over all roots; one C call per root gives the same sums when the
    # graph is retained between them
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        last = i == len(tensors) - 1
        _backward(t, g, retain_graph=retain_graph or not last, create_graph=create_graph, inputs=inputs)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=False, is_grads_batched=False):
    """ctensor.autograd.grad for leaf inputs: the gradients of outputs with respect to inputs,
    returned as a tuple, without touching the inputs' .grad.  Non-leaf inputs are not supported
    (the C library keeps grads of leaves only).  Unlike torch's, it runs a whole backward: other
    leaves of the graph that require grad (not in inputs) accumulate into their .grad."""
    if create_graph:
        raise NotImplementedError("ctensor: create_graph=True (higher-order gradients) is not supported")
    single = isinstance(inputs, _C.Tensor)
    inputs = (inputs,) if single else tuple(inputs)
    for i, x in enumerate(inputs):
        if not x.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        if not x.is_leaf:
            raise NotImplementedError("ctensor.autograd.grad: only leaf tensors are supported as inputs")
    saved = [x.grad for x in inputs]
    try:
        for x in inputs:
            x.grad = None
        backward(outputs, grad_outputs, retain_graph=retain_graph)
        result = [x.grad for x in inputs]
    finally:
        for x, g in zip(inputs, saved):
            x.grad = g
    for i, g in enumerate(result):
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                               "graph. Set allow_unused=True if this is the desired behavior.")
    return tuple(result)


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
