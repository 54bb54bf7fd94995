"""safetensors files: ctensor.load_file/save_file/load/save/safe_open against the safetensors
package and torch, both directions (values bit for bit, bytes written, header rules, errors),
and what ctensor adds: every tensor of a file a view of one mapped storage, the three mapping
modes, nothing leaked."""

import os
import struct

import pytest

import ctensor
from ctensor import _C
from ctutil import collect, live, torch

st = pytest.importorskip("safetensors.torch")
safetensors = pytest.importorskip("safetensors")

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64"]


def sample(dtype, shape=(2, 3), seed=0):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if dt is torch.bool:
        return torch.rand(shape, generator=g) > 0.5
    if dt.is_floating_point or dt.is_complex:
        return (torch.randn(shape, generator=g, dtype=dt if dt.is_complex else torch.float32) * 100).to(dt)
    info = torch.iinfo(dt)
    return torch.randint(info.min, info.max, shape, generator=g, dtype=dt)


def ct_of(t):
    return ctensor.from_dlpack(t.contiguous()).clone()


def torch_of(c):
    return torch.from_dlpack(c.contiguous().clone())


def same_bits(c, t):
    """Same dtype, shape and stored bytes (a clone would write bool bytes as 0/1: none here)."""
    a = torch.from_dlpack(c.contiguous())
    return a.dtype == t.dtype and a.shape == t.shape and torch.equal(a.reshape(-1).view(torch.uint8).clone(),
                                                                     t.contiguous().reshape(-1).view(torch.uint8))


@pytest.fixture
def no_leaks():
    collect()
    before = live()
    yield
    collect()
    assert live() == before


@pytest.mark.parametrize("dtype", DTYPES)
def test_package_file_loads_bit_for_bit(tmp_path, dtype, no_leaks):
    tensors = {"w": sample(dtype), "scalar": sample(dtype, ()), "empty": sample(dtype, (0, 5)),
               "v": sample(dtype, (7,), seed=1)}
    path = tmp_path / "p.safetensors"
    st.save_file(tensors, path)
    loaded = ctensor.load_file(path)
    assert sorted(loaded) == sorted(tensors)
    for k, t in tensors.items():
        assert same_bits(loaded[k], t), k
    with safetensors.safe_open(path, "pt") as f, ctensor.safe_open(path, "pt") as g:
        assert g.keys() == f.keys()
        assert g.metadata() == f.metadata() is None
    del loaded


@pytest.mark.parametrize("dtype", DTYPES)
def test_saved_bytes_equal_the_packages(tmp_path, dtype):
    tensors = {"b": sample(dtype), "a": sample(dtype, (4,), seed=2), "s": sample(dtype, ()),
               "e": sample(dtype, (3, 0)), "i": sample("int64", (2,)), "f": sample("float16", (3,))}
    ours, theirs = tmp_path / "ours.safetensors", tmp_path / "theirs.safetensors"
    ctensor.save_file({k: ct_of(v) for k, v in tensors.items()}, ours, metadata={"format": "pt"})
    st.save_file(tensors, theirs, metadata={"format": "pt"})
    assert ours.read_bytes() == theirs.read_bytes()
    assert ctensor.safetensors.save({k: ct_of(v) for k, v in tensors.items()}) == st.save(tensors)
    back = st.load_file(ours)
    for k, t in tensors.items():
        assert torch.equal(back[k].view(torch.uint8) if t.dim() else back[k], t.view(torch.uint8) if t.dim() else t)


def test_metadata_round_trip_both_ways(tmp_path):
    md = {"z": "last", "a": "é\n\"quoted\"\\", "ctl": "\x01\x7f", "": ""}
    p1, p2 = tmp_path / "a.safetensors", tmp_path / "b.safetensors"
    ctensor.save_file({"x": ctensor.zeros(2)}, p1, metadata=md)
    st.save_file({"x": torch.zeros(2)}, p2, metadata=md)
    with safetensors.safe_open(p1, "pt") as f:
        assert f.metadata() == md
    with ctensor.safe_open(p2, "pt") as f:
        assert f.metadata() == md
    # empty metadata is kept as an empty object, as the package writes it
    ctensor.save_file({"x": ctensor.zeros(2)}, p1, metadata={})
    st.save_file({"x": torch.zeros(2)}, p2, metadata={})
    assert p1.read_bytes() == p2.read_bytes()
    with ctensor.safe_open(p1) as f:
        assert f.metadata() == {}


def test_all_tensors_of_a_file_share_one_mapped_storage(tmp_path, no_leaks):
    path = tmp_path / "m.safetensors"
    st.save_file({"a": torch.arange(6.0), "b": torch.arange(4, dtype=torch.int64), "c": torch.ones(3)}, path)
    d = ctensor.load_file(path)
    assert _C.ct_shares_storage(d["a"], d["b"]) == 1 and _C.ct_shares_storage(d["a"], d["c"]) == 1
    assert not d["a"]._is_view() and d["a"].is_contiguous()
    assert d["a"].untyped_storage().nbytes() == os.path.getsize(path)
    assert f"mapped from {path} at offset 0" in _C.ct_explain(d["a"], None)
    # the mapping outlives the file and the handle
    os.unlink(path)
    assert d["a"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    del d


def test_copy_load_of_a_large_file_in_parts(tmp_path):
    # 160 MiB: read by two threads, one contiguous part each (the split falls inside "b")
    path = tmp_path / "large.safetensors"
    a = torch.arange(20 << 20, dtype=torch.int32)
    b = torch.arange(20 << 20, dtype=torch.float32).neg_()
    st.save_file({"a": a, "b": b}, path)
    threads = ctensor.get_num_threads()
    ctensor.set_num_threads(2)
    try:
        d = ctensor.load_file(path, mode="copy")
    finally:
        ctensor.set_num_threads(threads)
    assert d["a"].untyped_storage().nbytes() == os.path.getsize(path)
    assert torch.equal(torch.from_numpy(d["a"].numpy()), a)
    assert torch.equal(torch.from_numpy(d["b"].numpy()), b)


def test_modes(tmp_path, no_leaks):
    path = tmp_path / "modes.safetensors"
    st.save_file({"x": torch.arange(4, dtype=torch.int32)}, path)
    before = path.read_bytes()
    x = ctensor.load_file(path)["x"]  # copy-on-write by default, as the package's storages
    x.fill_(7)
    assert path.read_bytes() == before
    r = ctensor.load_file(path, mode="r")["x"]
    assert r.untyped_storage().is_read_only() if hasattr(r.untyped_storage(), "is_read_only") else True
    with pytest.raises(Exception, match="read-only"):
        r.fill_(1)
    c = ctensor.load_file(path, mode="copy")["x"]
    c.add_(1)
    assert path.read_bytes() == before
    s = ctensor.load_file(path, mode="r+")["x"]
    s.fill_(5)
    del s
    assert st.load_file(path)["x"].tolist() == [5, 5, 5, 5]
    assert r.tolist() == [5, 5, 5, 5]  # a shared read-only mapping sees the write
    with pytest.raises(ValueError, match="mode 'w' is invalid"):
        ctensor.load_file(path, mode="w")
    del x, r, c


def test_save_checks_mirror_the_package(tmp_path):
    path = tmp_path / "refused.safetensors"
    w = torch.arange(6.0).reshape(2, 3)
    cw = ct_of(w)
    cases = [
        ({"a": w, "b": w[0]}, {"a": cw, "b": cw[0]}),          # overlapping: shared memory
        ({"t": w.t()}, {"t": cw.t()}),                          # non-contiguous
        ([w], [cw]),                                            # not a dict
        ({"a": 1}, {"a": 1}),                                   # not a tensor
    ]
    for theirs, ours in cases:
        with pytest.raises(Exception) as e1:
            st.save_file(theirs, path)
        with pytest.raises(Exception) as e2:
            ctensor.save_file(ours, path)
        assert type(e2.value) is type(e1.value)
        msg1 = str(e1.value).replace("torch.Tensor", "").replace("<class 'list'>", "")
        msg2 = str(e2.value).replace("torch.Tensor", "").replace("<class 'list'>", "")
        assert msg2.split(":")[0] == msg1.split(":")[0]
    # disjoint rows of one storage are fine for both, and read back equal
    st.save_file({"r0": w[0], "r1": w[1]}, path)
    ours = tmp_path / "rows.safetensors"
    ctensor.save_file({"r0": cw[0], "r1": cw[1]}, ours)
    assert ours.read_bytes() == path.read_bytes()


def test_offset_and_non_contiguous_written_contiguous_through_c(tmp_path):
    # the C function writes any strides in C order; the Python save_file keeps the package's rule
    w = ctensor.arange(12.0).reshape(3, 4)
    path = tmp_path / "strided.safetensors"
    _C.ct_safetensors_save(str(path), [("t", w.t()), ("tail", w[1:, 2:])], None, _C.CT_SAVE_COPY_SHARED)
    back = st.load_file(path)
    assert back["t"].tolist() == w.t().tolist()
    assert back["tail"].tolist() == w[1:, 2:].tolist()


def hdr(obj_text, data=b""):
    h = obj_text.encode() if isinstance(obj_text, str) else obj_text
    return struct.pack("<Q", len(h)) + h + data


HOSTILE = [
    b"1234",
    struct.pack("<Q", 2 ** 32) + b"{}",
    struct.pack("<Q", 100),
    hdr("{\"a\":"),
    hdr("{} x"),
    hdr(b"\xff"),
    hdr("[]"),
    hdr("[" * 5000),
    hdr('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}', b"123"),
    hdr('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}', b"12345"),
    hdr('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}}', b"1234"),
    hdr('{"a":{"dtype":"C128","shape":[1],"data_offsets":[0,4]}}', b"1234"),
    hdr('{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}', b"1234"),
    hdr('{"a":{"dtype":"F32","shape":[1.0],"data_offsets":[0,4]}}', b"1234"),
    hdr('{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}}', b"1234"),
    hdr('{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}',
        b"1234"),
    hdr('{"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}', b"12345678"),
    hdr('{"__metadata__":{"k":1}}'),
    hdr('{"a":{"dtype":"F32","shape":[1]}}'),
    hdr('{"a":"\\ud800"}'),
]

ACCEPTED = [
    hdr("{}"),
    hdr("  {}  "),
    hdr('{"__metadata__":null}'),
    hdr('{"b":{"dtype":"U8","shape":[2],"data_offsets":[4,6],"x":1},"a":{"data_offsets":[0,4],"shape":[],'
        '"dtype":"I32"}}', b"\x01\x00\x00\x00\x07\x08"),
    hdr('{"a":{"dtype":"BOOL","shape":[3],"data_offsets":[0,3]}}', b"\x00\x01\x02"),
]


@pytest.mark.parametrize("data", HOSTILE)
def test_hostile_refused_like_the_package(tmp_path, data, no_leaks):
    with pytest.raises(Exception):
        st.load(data)
    with pytest.raises(RuntimeError) as e:  # ctensor's exception for CT_ERR_INVALID_ARGUMENT
        ctensor.safetensors.load(data)
    assert "<memory>" in str(e.value)
    path = tmp_path / "bad.safetensors"
    path.write_bytes(data)
    with pytest.raises(RuntimeError) as e:
        ctensor.load_file(path)
    assert str(path) in str(e.value)


@pytest.mark.parametrize("data", ACCEPTED)
def test_accepted_like_the_package(data, no_leaks):
    theirs = st.load(data)
    ours = ctensor.safetensors.load(data)
    assert sorted(ours) == sorted(theirs)
    for k in theirs:
        assert same_bits(ours[k], theirs[k])
    del ours


def test_foreign_dtype_named(tmp_path):
    data = hdr('{"a":{"dtype":"F8_E4M3","shape":[4],"data_offsets":[0,4]}}', b"1234")
    st.load(data)  # the package knows it
    with pytest.raises(TypeError, match="dtype F8_E4M3, which ctensor does not have"):
        ctensor.safetensors.load(data)


def test_safe_open_api(tmp_path, no_leaks):
    path = tmp_path / "api.safetensors"
    st.save_file({"b": torch.zeros(1), "c": torch.zeros(0), "a": torch.ones(2, dtype=torch.int8)}, path,
                 metadata={"k": "v"})
    with safetensors.safe_open(path, "pt") as f, ctensor.safe_open(path, "pt") as g:
        assert g.keys() == f.keys()
        assert g.offset_keys() == f.offset_keys()
        assert g.metadata() == f.metadata()
        assert same_bits(g.get_tensor("a"), f.get_tensor("a"))
        with pytest.raises(KeyError):
            g.get_tensor("zz")
    with pytest.raises(ValueError, match="cpu"):
        ctensor.safe_open(path, "pt", device="cuda")
    with pytest.raises(RuntimeError, match="No such file or directory"):
        ctensor.safe_open(tmp_path / "missing.safetensors", "pt")


def test_from_file_like_torch(tmp_path, no_leaks):
    path = tmp_path / "raw.bin"
    torch.arange(8, dtype=torch.int16).numpy().tofile(path)
    before = path.read_bytes()
    ours = ctensor.from_file(str(path), shared=False, size=6, dtype=ctensor.int16)
    theirs = torch.from_file(str(path), shared=False, size=6, dtype=torch.int16)
    assert ours.tolist() == theirs.tolist() and ours.shape == theirs.shape
    assert f"mapped from {path} at offset 0" in _C.ct_explain(ours, None)
    ours.fill_(0)
    assert path.read_bytes() == before  # copy-on-write
    w = ctensor.from_file(str(path), shared=True, size=2, dtype=ctensor.int16)
    w.fill_(9)
    del w
    assert torch.from_file(str(path), shared=False, size=3, dtype=torch.int16).tolist() == [9, 9, 2]
    with pytest.raises(RuntimeError, match="reach past the end"):
        ctensor.from_file(str(path), size=100, dtype=ctensor.int16)
    del ours


def test_complex128_has_no_safetensors_dtype(tmp_path, no_leaks):
    with pytest.raises(KeyError):  # the package
        st.save_file({"z": torch.zeros(2, dtype=torch.complex128)}, tmp_path / "theirs.safetensors")
    path = tmp_path / "ours.safetensors"
    with pytest.raises(TypeError, match="the format has no dtype for complex128"):
        ctensor.save_file({"z": ctensor.zeros(2, dtype=ctensor.complex128)}, path)
    assert not path.exists()
