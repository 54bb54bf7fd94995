# Type stubs for ctensor.autograd (torch.autograd's grad mode and backward over the C library).
from typing import Any, Callable, Optional, Sequence, Tuple, TypeVar, Union, overload

from . import Tensor
from . import _function as function
from ._function import Function as Function, Variable as Variable

_F = TypeVar("_F", bound=Callable[..., Any])
_Tensors = Union[Tensor, Sequence[Tensor]]

class Node:
    """A node of the backward graph as seen from Python: x.grad_fn.  Its class is named after"""
    def name(self) -> str:
        """torch's name of the node, e.g. "AddBackward0" (a str)."""

# no_grad and enable_grad also decorate without parentheses (@no_grad), as torch 2.x's
class no_grad:
    """Context manager and decorator: ops inside record no graph (their results do not"""
    @overload
    def __new__(cls, orig_func: _F) -> _F: ...  # type: ignore[misc]
    @overload
    def __new__(cls, orig_func: None = ...) -> "no_grad": ...
    def __init__(self) -> None: ...
    def __enter__(self) -> None: ...
    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None: ...
    def __call__(self, func: _F) -> _F: ...
    def clone(self) -> "no_grad":
        """A new context manager of the same kind (torch's _DecoratorContextManager.clone)."""

class enable_grad:
    """Context manager and decorator turning grad mode on (inside no_grad), as torch's."""
    @overload
    def __new__(cls, orig_func: _F) -> _F: ...  # type: ignore[misc]
    @overload
    def __new__(cls, orig_func: None = ...) -> "enable_grad": ...
    def __enter__(self) -> None: ...
    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None: ...
    def __call__(self, func: _F) -> _F: ...
    def clone(self) -> "enable_grad":
        """A new context manager of the same kind (torch's _DecoratorContextManager.clone)."""

class set_grad_enabled:
    """set_grad_enabled(mode): sets grad mode at once (a function call); as a context manager"""
    def __init__(self, mode: bool) -> None: ...
    def __enter__(self) -> None: ...
    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None: ...
    def __call__(self, func: _F) -> _F: ...
    def clone(self) -> "set_grad_enabled":
        """A new context manager setting the same mode."""

class inference_mode:
    """Context manager and decorator for inference mode, as torch.inference_mode(mode=True):"""
    @overload
    def __new__(cls, mode: _F) -> _F: ...  # type: ignore[misc]
    @overload
    def __new__(cls, mode: bool = ...) -> "inference_mode": ...
    def __init__(self, mode: bool = ...) -> None: ...
    def __enter__(self) -> None: ...
    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None: ...
    def __call__(self, func: _F) -> _F: ...
    def clone(self) -> "inference_mode":
        """A new context manager with the same mode."""

def is_grad_enabled() -> bool:
    """True if grad mode is on for this thread (new threads start with it on)."""
def backward(tensors: _Tensors, grad_tensors: Optional[_Tensors] = ..., retain_graph: Optional[bool] = ...,
             create_graph: bool = ..., grad_variables: Optional[_Tensors] = ...,
             inputs: Optional[_Tensors] = ...) -> None:
    """ctensor.autograd.backward: one backward from every tensor (with its gradient),"""
def grad(outputs: _Tensors, inputs: _Tensors, grad_outputs: Optional[_Tensors] = ...,
         retain_graph: Optional[bool] = ..., create_graph: bool = ..., only_inputs: bool = ...,
         allow_unused: Optional[bool] = ..., is_grads_batched: bool = ...,
         materialize_grads: bool = ...) -> Tuple[Optional[Tensor], ...]:
    """ctensor.autograd.grad: the gradients of outputs with respect to inputs (leaves or not),"""

class GradcheckError(RuntimeError):
    """Raised by gradcheck when a gradient check fails (torch.autograd.gradcheck.GradcheckError)."""

def gradcheck(func: Callable[..., Any], inputs: Any, *, eps: float = ..., atol: float = ..., rtol: float = ...,
              raise_exception: bool = ..., nondet_tol: float = ..., check_undefined_grad: bool = ...,
              check_grad_dtypes: bool = ..., check_batched_grad: bool = ..., check_batched_forward_grad: bool = ...,
              check_forward_ad: bool = ..., check_backward_ad: bool = ..., fast_mode: bool = ...,
              masked: Optional[bool] = ...) -> bool:
    """Checks the gradients of func at inputs (the tensors that require grad, float64 or"""
def gradgradcheck(func: Callable[..., Any], inputs: Any, grad_outputs: Any = ..., *, eps: float = ...,
                  atol: float = ..., rtol: float = ..., gen_non_contig_grad_outputs: bool = ...,
                  raise_exception: bool = ..., nondet_tol: float = ..., check_undefined_grad: bool = ...,
                  check_grad_dtypes: bool = ..., check_batched_grad: bool = ..., check_fwd_over_rev: bool = ...,
                  check_rev_over_rev: bool = ..., fast_mode: bool = ..., masked: bool = ...) -> bool:
    """Checks the second derivatives of func at inputs, as torch.autograd.gradgradcheck: gradcheck"""
