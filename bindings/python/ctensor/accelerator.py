"""ctensor.accelerator: what torch.accelerator answers when no accelerator is present, so
that the tutorials' ``if torch.accelerator.is_available(): ...`` guard runs unchanged.  Queries
answer "none"; calls that need a device raise torch's RuntimeError."""

from __future__ import annotations

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index", "set_device_index",
           "synchronize"]


def _none_available():
    return RuntimeError("Cannot access accelerator device when none is available.")


def is_available():
    """False: ctensor computes on the CPU only."""
    return False


def current_accelerator(check_available=False):
    """None: there is no accelerator."""
    return None


def device_count():
    """0: no accelerator device."""
    return 0


def current_device_index():
    raise _none_available()


def set_device_index(device):
    raise _none_available()


def synchronize(device=None):
    raise _none_available()
