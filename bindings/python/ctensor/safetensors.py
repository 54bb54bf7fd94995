"""ctensor.safetensors: the safetensors package's torch API (safetensors.torch) for ctensor
tensors: ``from ctensor.safetensors import load_file, save_file`` where code had
``from safetensors.torch import load_file, save_file``.  See ctensor/_safetensors.py."""

from ._safetensors import load_file, save_file, load, save, safe_open  # noqa: F401

__all__ = ["load_file", "save_file", "load", "save", "safe_open"]
