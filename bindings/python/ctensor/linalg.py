"""ctensor.linalg: the part of torch.linalg ctensor has (vector_norm)."""

from ._std_norm import vector_norm

__all__ = ["vector_norm"]


def __getattr__(name):
    """A torch.linalg function ctensor lacks: an AttributeError that says so."""
    if not name.startswith("__"):
        raise AttributeError(f"module 'ctensor.linalg' has no attribute '{name}': ctensor does not implement "
                             f"torch.linalg.{name}", name=name, obj=None)
    raise AttributeError(f"module 'ctensor.linalg' has no attribute '{name}'", name=name, obj=None)
