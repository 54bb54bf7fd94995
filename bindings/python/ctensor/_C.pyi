# ctensor._C: the SWIG module generated from include/ctensor.h.  Every ct_* function of the
# header is here under its own name (ct_view, ct_transpose, ...), taking ctensor.Tensor for
# ct_tensor*, sequences of ints for (ndim, sizes), dtype objects or ints for ct_dtype, and
# returning ctensor.Tensor for ct_tensor*; see bindings/python/ctensor.i.
from typing import Any

def __getattr__(name: str) -> Any: ...
