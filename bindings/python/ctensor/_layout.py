"""torch.layout: ctensor has one, ``strided`` (dense memory with sizes and strides), which every
tensor has.  Factories take ``layout=`` and refuse any other, since ctensor has no sparse tensors."""

from __future__ import annotations

from ._dtype import ModuleConstant

__all__ = ["layout", "strided", "check_layout"]


class layout(ModuleConstant):
    """A memory layout; ``ctensor.strided`` is the only one."""

    __slots__ = ("_name",)

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'ctensor.layout' instances")

    @classmethod
    def _make(cls, name):
        obj = object.__new__(cls)
        object.__setattr__(obj, "_name", name)
        return obj

    def __setattr__(self, name, value):
        raise AttributeError(f"'ctensor.layout' object attribute '{name}' is read-only")


strided = layout._make("strided")


def check_layout(value, fn):
    """A factory's layout= argument: None or ctensor.strided."""
    if value is None or value is strided:
        return
    if not isinstance(value, layout):
        raise TypeError(f"{fn}(): argument 'layout' must be ctensor.layout, not {type(value).__name__}")
