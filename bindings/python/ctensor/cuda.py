"""ctensor.cuda: what torch.cuda answers in a build without CUDA, so that scripts which ask
(``torch.cuda.is_available()``, ``torch.cuda.manual_seed(0)``) run unchanged.  Queries answer
"no device"; calls that need a device raise torch's AssertionError."""

from __future__ import annotations

__all__ = ["is_available", "device_count", "is_initialized", "current_device", "synchronize", "init",
           "get_device_name", "get_device_capability", "manual_seed", "manual_seed_all", "seed", "seed_all",
           "empty_cache", "memory_allocated", "max_memory_allocated", "is_bf16_supported"]


def _not_compiled():
    return AssertionError("Torch not compiled with CUDA enabled")


def is_available():
    """False: ctensor tensors live in host memory."""
    return False


def device_count():
    """0: no CUDA device is usable."""
    return 0


def is_initialized():
    return False


def is_bf16_supported(including_emulation=True):
    return False


def current_device():
    raise _not_compiled()


def synchronize(device=None):
    raise _not_compiled()


def init():
    raise _not_compiled()


def get_device_name(device=None):
    raise _not_compiled()


def get_device_capability(device=None):
    raise _not_compiled()


# torch queues the seeding calls until CUDA is first used: without CUDA they do nothing.
def manual_seed(seed):
    int(seed)


def manual_seed_all(seed):
    int(seed)


def seed():
    return None


def seed_all():
    return None


def empty_cache():
    return None


def memory_allocated(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0
