"""ctensor.backends: torch.backends' switches and queries as a CPU-only torch answers them
(``backends.mps.is_available()`` is False, ``backends.cudnn.benchmark = True`` is accepted and
changes nothing, as it changes nothing for a CPU tensor in torch)."""

from __future__ import annotations

import types

__all__ = ["mps", "cudnn", "cuda"]


def _false(*args, **kwargs):
    return False


mps = types.SimpleNamespace(is_available=_false, is_built=_false)
mps.__doc__ = "torch.backends.mps: Apple's Metal backend, absent here."

cudnn = types.SimpleNamespace(is_available=_false, version=lambda: None, enabled=True, benchmark=False,
                              deterministic=False, allow_tf32=True)
cudnn.__doc__ = "torch.backends.cudnn: its flags (stored, unused: there is no CUDA device) and queries."

cuda = types.SimpleNamespace(is_built=_false, matmul=types.SimpleNamespace(allow_tf32=False))
cuda.__doc__ = "torch.backends.cuda: not built with CUDA."
