"""torch.dot / vdot / mv / bmm (and their Tensor methods): torch's dimension checks, then the
C library's ct_matmul (BLAS for float32/float64/complex64/complex128) or ct_vdot (the first
argument conjugated).  Errors past the dimension checks are ct_matmul's, which words them as
torch's dot/mv/bmm kernels."""

from __future__ import annotations

from . import _C

Tensor = _C.Tensor

__all__ = ["dot", "vdot", "mv", "bmm"]


def _check(fn, value, arg, pos):
    if not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' (position {pos}) must be Tensor, not {type(value).__name__}")


def dot(input, tensor):
    """torch.dot: the unconjugated inner product of two 1-D tensors of one dtype (0-dim)."""
    _check("dot", input, "input", 1)
    _check("dot", tensor, "tensor", 2)
    if input.dim() != 1 or tensor.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {tensor.dim()}D tensors")
    return _C.ct_matmul(input, tensor)


def vdot(input, other):
    """torch.vdot: sum(conj(input) * other) of two 1-D tensors of one dtype (0-dim)."""
    _check("vdot", input, "input", 1)
    _check("vdot", other, "other", 2)
    return _C.ct_vdot(input, other)


def mv(input, vec):
    """torch.mv: matrix (n x m) @ vector (m) -> (n)."""
    _check("mv", input, "input", 1)
    _check("mv", vec, "vec", 2)
    if input.dim() != 2 or vec.dim() != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {input.dim()}, {vec.dim()}")
    if input.shape[1] != vec.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({input.shape[0]}), mat ({input.shape[0]}x{input.shape[1]}), "
                           f"vec ({vec.shape[0]})")
    return _C.ct_matmul(input, vec)


def bmm(input, mat2):
    """torch.bmm: (b x n x m) @ (b x m x p) -> (b x n x p), no broadcasting."""
    _check("bmm", input, "input", 1)
    _check("bmm", mat2, "mat2", 2)
    if input.dim() != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if mat2.dim() != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    b, n, m = input.shape
    if mat2.shape[0] != b or mat2.shape[1] != m:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {m}] but got: "
                           f"[{mat2.shape[0]}, {mat2.shape[1]}].")
    return _C.ct_matmul(input, mat2)


class _ProductMethods:
    def dot(self, tensor):
        """A new 0-dim tensor: the unconjugated inner product of two 1-D tensors."""
        return dot(self, tensor)

    def vdot(self, other):
        """A new 0-dim tensor: sum(conj(self) * other) of two 1-D tensors."""
        return vdot(self, other)

    def mv(self, vec):
        """A new tensor: matrix (n x m) @ vector (m)."""
        return mv(self, vec)

    def bmm(self, mat2):
        """A new tensor: batched matrix products, (b x n x m) @ (b x m x p)."""
        return bmm(self, mat2)


def install():
    """Adds dot, vdot, mv and bmm to ctensor.Tensor."""
    for name in ("dot", "vdot", "mv", "bmm"):
        _C._install(Tensor, name, getattr(_ProductMethods, name))
