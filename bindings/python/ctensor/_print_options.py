"""torch.set_printoptions over the C print options (ct_set_print_option), which the repr of
every tensor reads.  get_printoptions and the printoptions context manager are torch's
torch._tensor_str helpers (torch 2.13 does not export them at top level, nor does ctensor)."""

from __future__ import annotations

import contextlib
import math

from . import _C

__all__ = ["set_printoptions", "get_printoptions", "printoptions"]

_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}
_OPTION = {"precision": _C.CT_PRINT_PRECISION, "threshold": _C.CT_PRINT_THRESHOLD,
           "edgeitems": _C.CT_PRINT_EDGEITEMS, "linewidth": _C.CT_PRINT_LINEWIDTH}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None,
                     sci_mode=None):
    """torch.set_printoptions: a profile ('default', 'short', 'full'; any other name is ignored,
    as torch) first, then each option given; sci_mode is always set (None: chosen from the
    values).  A value the C layer refuses (a negative precision or edgeitems, a fractional
    one) raises RuntimeError before anything changes."""
    values = dict(_PROFILES.get(profile, {})) if isinstance(profile, str) else {}
    for name, value in (("precision", precision), ("threshold", threshold), ("edgeitems", edgeitems),
                        ("linewidth", linewidth)):
        if value is not None:
            values[name] = value
    sci = -1 if sci_mode is None else 1 if sci_mode else 0
    old = _current()
    try:
        for name, value in values.items():
            _C.ct_set_print_option(_OPTION[name], value)
        _C.ct_set_print_option(_C.CT_PRINT_SCI_MODE, sci)
    except BaseException:
        _restore(old)
        raise


def _current():
    return {name: _C.ct_get_print_option(code) for name, code in _OPTION.items()}


def _restore(old):
    for name, value in old.items():
        _C.ct_set_print_option(_OPTION[name], value)


def get_printoptions():
    """The current options as a dict set_printoptions accepts (torch._tensor_str.get_printoptions)."""
    out = {}
    for name, value in _current().items():
        out[name] = int(value) if math.isfinite(value) and value == int(value) else value
    sci = int(_C.ct_get_print_option(_C.CT_PRINT_SCI_MODE))
    out["sci_mode"] = None if sci < 0 else bool(sci)
    return out


@contextlib.contextmanager
def printoptions(**kwargs):
    """Sets the options for the duration of a with block (torch._tensor_str.printoptions)."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)
