"""ctensor.autograd: torch.autograd's functions over the C library's autograd."""

import sys as _sys

from ._autograd import (no_grad, enable_grad, set_grad_enabled, is_grad_enabled, inference_mode,  # noqa: F401
                        backward, grad, Node)
from . import _function as function  # noqa: E402
from ._function import Function, Variable  # noqa: E402,F401

from . import _gradcheck  # noqa: E402
from ._gradcheck import gradcheck, gradgradcheck, GradcheckError  # noqa: E402,F401

# ctensor.autograd.function and ctensor.autograd.gradcheck (whose GradcheckError is imported
# from there), as torch's (this module is not a package)
_sys.modules[__name__ + ".function"] = function
_sys.modules[__name__ + ".gradcheck"] = _gradcheck

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode", "backward", "grad",
           "Node", "Function", "Variable", "function", "gradcheck", "gradgradcheck",
           "GradcheckError"]
