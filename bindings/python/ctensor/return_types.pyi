# Type stubs for ctensor.return_types (torch.return_types' named results).
from typing import Iterable, Tuple

import builtins

from . import Tensor

class _ValuesIndices(Tuple[Tensor, Tensor]):
    n_fields: builtins.int
    n_sequence_fields: builtins.int
    n_unnamed_fields: builtins.int
    def __new__(cls, sequence: Iterable[Tensor]) -> _ValuesIndices: ...
    @property
    def values(self) -> Tensor: ...
    @property
    def indices(self) -> Tensor: ...

class max(_ValuesIndices):
    """The result of max(dim): the largest values along dim and their first indices."""
class min(_ValuesIndices):
    """The result of min(dim): the smallest values along dim and their first indices."""
class sort(_ValuesIndices):
    """The result of sort(): the sorted values and the positions they came from."""
class topk(_ValuesIndices):
    """The result of topk(): the k largest (or smallest) values and their positions."""
