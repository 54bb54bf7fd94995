"""ctensor.autograd: torch.autograd's functions over the C library's autograd."""

from ._autograd import (no_grad, enable_grad, set_grad_enabled, is_grad_enabled, backward, grad,  # noqa: F401
                         Node)

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "backward", "grad", "Node"]
