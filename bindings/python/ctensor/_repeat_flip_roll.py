"""repeat, tile, flip, fliplr, flipud and roll as torch 2.13's Python API, over ct_repeat,
ct_tile, ct_flip, ct_fliplr, ct_flipud and ct_roll (include/ctensor.h).  Every result is a
copy on a new storage.  Argument forms follow torch's parser: a method taking a list of ints
accepts them spread (x.repeat(2, 3)) or as one sequence (x.repeat((2, 3))); the module
functions take one int or a sequence, except torch.flip's dims, which must be a sequence."""

from __future__ import annotations

import operator

from . import _C

Tensor = _C.Tensor


def _int_list(op, name, value, pos):
    """value (an int or a sequence of ints) as a list, with torch's TypeError otherwise."""
    try:
        return [operator.index(value)]
    except TypeError:
        pass
    try:
        return [operator.index(v) for v in value]
    except TypeError:
        raise TypeError(f"{op}(): argument '{name}' (position {pos}) must be tuple of ints, "
                        f"not {type(value).__name__}") from None


def _varargs(op, name, args, kwargs):
    """The int list of a method declared as op(*name) / op(name): spread ints or one sequence."""
    if kwargs:
        for k in kwargs:
            if k != name:
                raise TypeError(f"{op}() got an unexpected keyword argument '{k}'")
        if args:
            raise TypeError(f"{op}() got multiple values for argument '{name}'")
        return _int_list(op, name, kwargs[name], 1)
    if not args:
        raise TypeError(f'{op}() missing 1 required positional arguments: "{name}"')
    if len(args) == 1:
        return _int_list(op, name, args[0], 1)
    try:
        return [operator.index(a) for a in args]
    except TypeError:
        raise TypeError(f"{op}() takes 1 positional argument but {len(args)} were given") from None


class _RepeatFlipRollMethods:
    def repeat(self, *sizes, **kwargs):
        """Tensor.repeat(*repeats): self tiled along each dim (new storage, C order)."""
        return _C.ct_repeat(self, _varargs("repeat", "repeats", sizes, kwargs))

    def tile(self, *dims, **kwargs):
        """Tensor.tile(*dims): repeat with dims padded by leading 1s."""
        return _C.ct_tile(self, _varargs("tile", "dims", dims, kwargs))

    def flip(self, *dims, **kwargs):
        """Tensor.flip(*dims): self reversed along dims (new storage, laid out as clone())."""
        return _C.ct_flip(self, _varargs("flip", "dims", dims, kwargs))

    def fliplr(self):
        """Tensor.fliplr(): flip of dim 1."""
        return _C.ct_fliplr(self)

    def flipud(self):
        """Tensor.flipud(): flip of dim 0."""
        return _C.ct_flipud(self)

    def roll(self, shifts, dims=None):
        """Tensor.roll(shifts, dims=None): elements moved by shifts along dims (or over the
        flattened tensor when dims is None), wrapping around."""
        s = _int_list("roll", "shifts", shifts, 1)
        d = [] if dims is None else _int_list("roll", "dims", dims, 2)
        return _C.ct_roll(self, s, d)


def install():
    """Adds the methods to ctensor.Tensor."""
    for name, value in vars(_RepeatFlipRollMethods).items():
        if not name.startswith("__"):
            _C._install(Tensor, name, value)


# ---- module functions (torch has no torch.repeat) ------------------------------------------

def tile(input, dims):
    """torch.tile(input, dims)."""
    return _C.ct_tile(input, _int_list("tile", "dims", dims, 2))


def flip(input, dims):
    """torch.flip(input, dims): dims must be a sequence of ints, as in torch."""
    if not isinstance(dims, (list, tuple)) and not hasattr(dims, "__len__"):
        raise TypeError(f"flip(): argument 'dims' (position 2) must be tuple of ints, not {type(dims).__name__}")
    return _C.ct_flip(input, _int_list("flip", "dims", dims, 2))


def fliplr(input):
    """torch.fliplr(input)."""
    return _C.ct_fliplr(input)


def flipud(input):
    """torch.flipud(input)."""
    return _C.ct_flipud(input)


def roll(input, shifts, dims=None):
    """torch.roll(input, shifts, dims=None)."""
    return _RepeatFlipRollMethods.roll(input, shifts, dims)
