"""PyTorch checkpoints: ctensor.load (the C reader ct_torch_load) on files torch.save writes,
against torch.load(weights_only=True): values bit for bit, dtype, sizes, strides, storage
offsets, requires_grad, the nesting, and storage sharing (tensors that shared a storage in
torch share one here); hostile files refused with clear errors and nothing leaked."""

import collections
import io
import mmap
import os
import pickle
import struct
import zipfile
import zlib

import pytest

import ctensor
from ctensor import _C
from ctensor._explain import explain_text
from ctutil import collect, live, torch

import numpy as np

if torch is None:
    pytest.skip("needs torch", allow_module_level=True)

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]


def sample(dtype, shape=(2, 3), seed=0):
    g = torch.Generator().manual_seed(seed)
    dt = getattr(torch, dtype)
    if dt is torch.bool:
        return torch.rand(shape, generator=g) > 0.5
    if dt.is_floating_point or dt.is_complex:
        return (torch.randn(shape, generator=g, dtype=dt if dt.is_complex else torch.float32) * 100).to(dt)
    info = torch.iinfo(dt)
    return torch.randint(info.min, info.max, shape, generator=g, dtype=dt)


@pytest.fixture
def no_leaks():
    collect()
    before = live()
    yield
    collect()
    assert live() == before


def sid(t):
    return ctensor.storage_id(t)


def same(c, t):
    """Same dtype, sizes, strides, offset, requires_grad and stored bytes of every element."""
    assert str(c.dtype).replace("ctensor.", "") == str(t.dtype).replace("torch.", "")
    assert tuple(c.shape) == tuple(t.shape)
    assert tuple(c.stride()) == tuple(t.stride())
    assert c.storage_offset() == t.storage_offset()
    assert bool(c.requires_grad) == bool(t.requires_grad)
    a = torch.from_dlpack(c.detach().contiguous())
    b = t.detach().contiguous()
    assert torch.equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8))


def walk(c, t, path=""):
    """Compares two loaded objects node by node; returns {path: (ct, torch)} of the tensors."""
    out = {}
    if isinstance(t, torch.Tensor):
        same(c, t)
        out[path] = (c, t)
    elif isinstance(t, dict):
        assert type(c) is type(t), path
        assert list(c.keys()) == list(t.keys()), path
        for k in t:
            out.update(walk(c[k], t[k], f"{path}.{k}"))
    elif isinstance(t, (list, tuple)):
        assert type(c) is type(t) and len(c) == len(t), path
        for i, (x, y) in enumerate(zip(c, t)):
            out.update(walk(x, y, f"{path}.{i}"))
    else:
        assert type(c) is type(t) and (c == t or (c != c and t != t)), (path, c, t)
    return out


def check_sharing(pairs):
    """Tensors share a ctensor storage exactly when their torch tensors shared one; a tensor
    object saved twice is one object here too."""
    items = list(pairs.values())
    for i, (c1, t1) in enumerate(items):
        for c2, t2 in items[i + 1:]:
            shared_t = t1.untyped_storage().data_ptr() == t2.untyped_storage().data_ptr() and t1.numel() and t2.numel()
            if t1.untyped_storage().nbytes() and t2.untyped_storage().nbytes():
                assert (sid(c1) == sid(c2)) == bool(t1.untyped_storage().data_ptr() == t2.untyped_storage().data_ptr())
            assert (c1 is c2) == (t1 is t2)
            del shared_t


def round_trip(tmp_path, obj, mmap=False):
    p = tmp_path / "m.pt"
    torch.save(obj, p)
    ref = torch.load(p, weights_only=True, mmap=mmap)
    got = ctensor.load(p, mmap=mmap)
    pairs = walk(got, ref)
    check_sharing(pairs)
    return got, ref, pairs


@pytest.mark.parametrize("mmap", [False, True])
@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype(tmp_path, dtype, mmap, no_leaks):
    obj = {"w": sample(dtype), "s": sample(dtype, ()), "e": sample(dtype, (0, 5)), "v": sample(dtype, (7,), 1)}
    round_trip(tmp_path, obj, mmap)


def test_state_dict_with_tied_weights_and_views(tmp_path, no_leaks):
    emb = torch.nn.Embedding(10, 4)
    head = torch.nn.Linear(4, 10, bias=False)
    head.weight = emb.weight  # tied
    model = torch.nn.Sequential(emb, torch.nn.Linear(4, 4), head)
    sd = model.state_dict()
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    obj = {"model": sd, "t": base.t(), "slice": base[1:3, 2:5], "base": base, "again": base,
           "row": base[2], "diag": base.diagonal()}
    got, ref, pairs = round_trip(tmp_path, obj)
    assert isinstance(got["model"], collections.OrderedDict)
    assert got["model"]._metadata == ref["model"]._metadata
    assert sid(got["model"]["0.weight"]) == sid(got["model"]["2.weight"])
    assert got["model"]["0.weight"] is not got["model"]["2.weight"]  # state_dict detaches each
    assert got["base"] is got["again"]
    assert sid(got["slice"]) == sid(got["base"]) and got["slice"].storage_offset() == 8
    assert got["t"].stride() == (1, 6)
    # a write through one tensor is seen through the others (mmap=False: owned copies)
    got["base"][2, 3] = 100.0
    assert got["row"][3].item() == 100.0 and got["slice"][1, 1].item() == 100.0


def test_mmap_maps_in_place(tmp_path, no_leaks):
    obj = {"a": torch.arange(100, dtype=torch.float64), "b": torch.ones(3, 3)}
    got, _, _ = round_trip(tmp_path, obj, mmap=True)
    assert "mapped from" in explain_text(got["a"])
    got["a"][0] = 5.0  # copy-on-write: the file does not change
    assert torch.load(tmp_path / "m.pt", weights_only=True)["a"][0].item() == 0.0


def test_nested_containers_and_scalars(tmp_path, no_leaks):
    obj = {"lst": [torch.ones(2), 1, 2.5, "x", None, True, (1, 2.0, "y")],
           "nested": {"a": {"b": [torch.zeros(1, 2), {"c": torch.eye(2)}]}, "empty": {}, "el": []},
           3: "int key", "big": 2**62, "neg": -7, "nan": float("nan"), "inf": float("-inf"),
           "od": collections.OrderedDict([("z", 1), ("a", torch.arange(3))])}
    got, _, _ = round_trip(tmp_path, obj)
    assert type(got["od"]) is collections.OrderedDict


def test_requires_grad_and_parameters(tmp_path, no_leaks):
    obj = {"rg": torch.ones(2, requires_grad=True), "no": torch.zeros(2)}
    got, _, _ = round_trip(tmp_path, obj)
    assert got["rg"].requires_grad and not got["no"].requires_grad
    p = tmp_path / "p.pt"
    torch.save([torch.nn.Parameter(torch.ones(2))], p)
    ref = torch.load(p, weights_only=True)
    got = ctensor.load(p)
    assert got[0].requires_grad and ref[0].requires_grad


def test_c_entries_and_metadata(tmp_path, no_leaks):
    p = tmp_path / "c.pt"
    torch.save({"enc": {"w": torch.ones(2)}, "layers": [torch.zeros(1), 5], "name": "m\"x"}, p)
    h = _C.ct_torch_load(str(p), _C.CT_FILE_READ_ONLY)
    try:
        names = [_C.ct_checkpoint_name(h, i) for i in range(_C.ct_checkpoint_count(h))]
        assert names == ["enc.w", "layers.0"]
        meta = {_C.ct_checkpoint_metadata_key(h, i): _C.ct_checkpoint_metadata_value(h, i)
                for i in range(_C.ct_checkpoint_metadata_count(h))}
        assert meta == {"layers.1": "5", "name": '"m\\"x"'}
        assert _C.ct_checkpoint_find(h, "layers.0") == 1
        t = _C.ct_checkpoint_tensor(h, 0)
        assert _C.ct_checkpoint_tensor(h, 0) is not None and sid(t) == sid(_C.ct_checkpoint_tensor(h, 0))
        with pytest.raises(Exception, match="read-only|read only"):
            t.fill_(2.0)
        with pytest.raises(RuntimeError, match="PyTorch checkpoint with 2 storages"):
            _C.ct_checkpoint_storage(h)
        del t
    finally:
        _C.ct_checkpoint_release(h)


def test_bytes_and_file_objects(tmp_path, no_leaks):
    buf = io.BytesIO()
    torch.save({"a": torch.arange(4)}, buf)
    got = ctensor.load(buf.getvalue())
    assert got["a"].tolist() == [0, 1, 2, 3]
    buf.seek(0)
    assert ctensor.load(buf)["a"].tolist() == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="weights_only=False"):
        ctensor.load(buf.getvalue(), weights_only=False)


# ---- hostile files ---------------------------------------------------------------------

def saved_bytes(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def rewrite(data, name_suffix, new_bytes):
    """The archive with one entry's bytes replaced (sizes fixed), entries stored at 64 bytes."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as z:
        for info in src.infolist():
            body = new_bytes if info.filename.endswith(name_suffix) else src.read(info)
            z.writestr(info.filename, body)
    return out.getvalue()


def pkl(opcodes):
    return rewrite(saved_bytes({"a": torch.ones(1)}), "data.pkl", opcodes)


def load_error(data):
    collect()
    before = live()
    with pytest.raises(Exception) as e:
        ctensor.load(data)
    collect()
    assert live() == before
    return str(e.value)


def test_truncated_files():
    data = saved_bytes({"a": torch.ones(100)})
    for n in (0, 10, 100, len(data) // 2, len(data) - 1):
        msg = load_error(data[:n])
        assert "<memory>" in msg and ("truncated" in msg or "not a zip" in msg or "too short" in msg), msg


def test_bad_offsets():
    data = bytearray(saved_bytes({"a": torch.ones(100)}))
    end64 = data.rfind(b"PK\x06\x06")  # torch.save always writes the zip64 end record
    bad = data[:]
    bad[end64 + 48:end64 + 56] = struct.pack("<Q", len(data) + 1000)  # directory offset past the end
    assert "the central directory [" in load_error(bytes(bad))
    bad = data[:]
    loc = data.rfind(b"PK\x06\x07")
    bad[loc + 8:loc + 16] = struct.pack("<Q", 2**63)  # zip64 record offset absurd
    assert "zip64 end record offset" in load_error(bytes(bad))
    cd = data.find(b"PK\x01\x02")
    bad = data[:]
    bad[cd + 42:cd + 46] = struct.pack("<I", len(data) - 10)  # local header offset near the end
    msg = load_error(bytes(bad))
    assert "local header" in msg or "past the end" in msg, msg


def test_global_refused_by_name():
    evil = b"\x80\x02cposix\nsystem\nX\x02\x00\x00\x00ls\x85R."
    msg = load_error(pkl(evil))
    assert "global 'posix.system' is not allowed" in msg
    msg = load_error(pkl(pickle.dumps(os.system, protocol=2)))
    assert "is not allowed" in msg


def test_tensor_past_its_storage():
    t = torch.arange(4.0)
    data = saved_bytes({"a": t})
    raw = zipfile.ZipFile(io.BytesIO(data)).read("archive/data.pkl")
    # storage offset 0 -> 3 with size 4: reaches element 6 of a 4-element storage
    bad = raw.replace(b"Q\x4b\x00\x4b\x04\x85", b"Q\x4b\x03\x4b\x04\x85")
    assert bad != raw
    assert "reaches element 6 of a storage of 4 float32 elements" in load_error(rewrite(data, "data.pkl", bad))


def test_wrong_storage_size():
    data = saved_bytes({"a": torch.arange(4.0)})
    assert "holds 12 bytes, but data.pkl declares 4 float32 elements" in load_error(
        rewrite(data, "data/0", b"\x00" * 12))


def test_memo_bomb_and_deep_nesting():
    bomb = b"\x80\x02]r\xff\xff\xff\x00."  # LONG_BINPUT at index 2^24 - 1
    assert "memo index 16777215 is over the limit" in load_error(pkl(bomb))
    # a dict whose value k<i> is a list holding k<i-1> twice: 2^40 paths through 41 lists
    parts = [b"\x80\x02}X\x02\x00\x00\x00k0]q\x00s"]
    for i in range(1, 41):
        key = b"k%d" % i
        parts.append(b"X" + struct.pack("<I", len(key)) + key + b"](h" + bytes([i - 1]) + b"h" + bytes([i - 1])
                     + b"eq" + bytes([i]) + b"s")
    assert "unfolds to more than" in load_error(pkl(b"".join(parts) + b"."))
    deep = b"\x80\x02" + b"](" * 1500 + b"e" * 1500 + b"."
    assert "nested MARKs" in load_error(pkl(deep))
    deep2 = b"\x80\x02" + b"]" * 600 + b"a" * 599 + b"."
    assert "deeper than 200 levels" in load_error(pkl(deep2))
    cyc = b"\x80\x02]q\x00h\x00a."
    assert "contains itself" in load_error(pkl(cyc))


def test_big_endian_refused():
    data = saved_bytes({"a": torch.ones(1)})
    assert "big-endian" in load_error(rewrite(data, "byteorder", b"big"))


def test_unknown_opcode_named():
    assert "opcode INST (0x69)" in load_error(pkl(b"\x80\x02i"))


# ---- writing: ctensor.save -> torch.load(weights_only=True) ------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
def test_save_every_dtype_read_by_torch(tmp_path, dtype, no_leaks):
    p = tmp_path / "t.pt"
    torch.save({"w": sample(dtype), "s": sample(dtype, ()), "e": sample(dtype, (0, 5))}, p)
    obj = ctensor.load(p)
    q = tmp_path / "c.pt"
    ctensor.save(obj, q)
    walk(obj, torch.load(q, weights_only=True))


def test_save_keeps_sharing_views_and_nesting(tmp_path, no_leaks):
    emb = torch.nn.Embedding(6, 4)
    head = torch.nn.Linear(4, 6, bias=False)
    head.weight = emb.weight
    sd = torch.nn.Sequential(emb, head).state_dict()
    base = torch.arange(24, dtype=torch.float64).reshape(4, 6)
    src = {"model": sd, "t": base.t(), "slice": base[1:3, 2:5], "base": base, "again": base,
           "nest": [1, 2.5, "s", None, True, (3, -2**40), {"k": torch.ones(2, requires_grad=True)}], 7: "int key"}
    p = tmp_path / "t.pt"
    torch.save(src, p)
    ours = ctensor.load(p)
    q = tmp_path / "c.pt"
    ctensor.save(ours, q)
    back = torch.load(q, weights_only=True)
    pairs = walk(ours, back)
    check_sharing(pairs)
    ref = torch.load(p, weights_only=True)
    assert back["model"]._metadata == ref["model"]._metadata
    assert back["base"] is back["again"]
    assert back["slice"].untyped_storage().data_ptr() == back["base"].untyped_storage().data_ptr()
    assert back["model"]["0.weight"].untyped_storage().data_ptr() == back["model"]["1.weight"].untyped_storage().data_ptr()
    # and ctensor reads its own file with the same sharing
    again = ctensor.load(q, mmap=True)
    check_sharing(walk(again, back))


def test_save_refuses_what_torch_load_would_not_read(tmp_path):
    with pytest.raises(TypeError, match="cannot save a set"):
        ctensor.save({"a": {1, 2}}, tmp_path / "x.pt")
    x = ctensor.arange(4, dtype=ctensor.float32)
    with pytest.raises(RuntimeError, match="shares a storage with a float32 tensor"):
        ctensor.save([x, x.view(ctensor.int32)], tmp_path / "y.pt")
    assert not (tmp_path / "y.pt").exists()
    with pytest.raises(ValueError, match="allow_nan|Out of range float"):
        ctensor.save({"n": float("nan")}, tmp_path / "z.pt")


def test_legacy_format_named(tmp_path):
    p = tmp_path / "old.pt"
    torch.save({"a": torch.ones(2)}, p, _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match="legacy format"):
        ctensor.load(p)


def test_torch_maps_ctensor_files(tmp_path, no_leaks):
    base = torch.arange(12.0).reshape(3, 4)
    p = tmp_path / "t.pt"
    torch.save({"b": base, "v": base[1:, ::2]}, p)
    q = tmp_path / "c.pt"
    ctensor.save(ctensor.load(p), q)
    back = torch.load(q, weights_only=True, mmap=True)  # torch maps our 64-byte aligned storages
    assert torch.equal(back["v"], base[1:, ::2]) and back["v"].stride() == (4, 2)
    assert back["v"].untyped_storage().data_ptr() == back["b"].untyped_storage().data_ptr()


def test_invalid_utf8_refused_as_torch_does():
    assert "not valid UTF-8" in load_error(pkl(b"\x80\x02X\x01\x00\x00\x00\xff."))


# ---- CRC-32 ------------------------------------------------------------------------------

def entry_offset(data, name):
    """File offset of the first data byte of the entry name (from its local header)."""
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(name)
    n, extra = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    return info.header_offset + 30 + n + extra


def test_crc_checked_for_copied_records(tmp_path, no_leaks):
    data = bytearray(saved_bytes({"a": torch.arange(100.0)}))
    name = zipfile.ZipFile(io.BytesIO(bytes(data))).namelist()[0].split("/")[0] + "/data/0"
    at = entry_offset(bytes(data), name) + 8  # the low byte of a[2]
    data[at] ^= 1
    recorded = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo(name).CRC
    body = bytes(data[at - 8:at + 392])
    p = tmp_path / "flipped.pt"
    p.write_bytes(bytes(data))
    msg = f"'{p}': entry '{name}': CRC-32 mismatch: the archive records 0x{recorded:08x}, the data has " \
          f"0x{zlib.crc32(body):08x} (the file is corrupt)"
    for source in (str(p), bytes(data)):  # copy mode, and bytes (always copied)
        collect()
        before = live()
        with pytest.raises(RuntimeError) as e:
            ctensor.load(source, mmap=False)
        collect()
        assert live() == before
        assert str(e.value).endswith(msg.replace(f"'{p}'", "<memory>") if isinstance(source, bytes) else msg)
    # A storage mapped in place is not read at open, so not checked: the flipped value shows,
    # as with torch.load, which checks neither mode (PyTorch builds miniz without CRC checks).
    flipped = torch.load(p, weights_only=True)["a"]
    assert flipped[2].item() != 2.0
    assert torch.equal(torch.load(p, weights_only=True, mmap=True)["a"], flipped)
    got = ctensor.load(p, mmap=True)["a"]
    assert torch.equal(torch.from_dlpack(got), flipped)


def test_crc_of_data_pkl_checked_in_every_mode(tmp_path):
    data = bytearray(saved_bytes({"abc": torch.ones(1)}))
    at = bytes(data).find(b"abc")
    data[at] = ord("x")  # still a valid pickle: only the CRC says it changed
    p = tmp_path / "pkl.pt"
    p.write_bytes(bytes(data))
    assert "xbc" in torch.load(p, weights_only=True)
    for mmap_ in (False, True):
        with pytest.raises(RuntimeError, match=r"data\.pkl': CRC-32 mismatch: the archive records 0x"):
            ctensor.load(p, mmap=mmap_)


def test_crc_zero_means_none_recorded(tmp_path, no_leaks):
    p = tmp_path / "nocrc.pt"
    torch.serialization.set_crc32_options(False)
    try:
        torch.save({"a": torch.arange(5.0)}, p)
    finally:
        torch.serialization.set_crc32_options(True)
    assert all(i.CRC == 0 for i in zipfile.ZipFile(p).infolist())
    assert ctensor.load(p)["a"].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_save_writes_crcs_zipfile_checks(tmp_path, no_leaks):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(300_001, generator=g)  # not a whole number of 64 KiB blocks
    p = tmp_path / "r.pt"
    ctensor.save({"x": ctensor.from_dlpack(x), "s": ctensor.arange(3)}, p)
    assert zipfile.ZipFile(p).testzip() is None  # Python's zipfile checks every entry's CRC-32
    assert torch.equal(torch.load(p, weights_only=True)["x"], x)


# ---- holes for zero blocks and zip64 (files of more than 4 GiB) ----------------------------

BLOCK = 64 << 10


def sparse_files_or_skip(folder):
    """Skips (saying why) unless the file system at folder leaves holes where a writer seeks."""
    probe = folder / "probe"
    with open(probe, "wb") as f:
        f.seek(16 << 20)
        f.write(b"x")
    st = os.stat(probe)
    probe.unlink()
    if not hasattr(st, "st_blocks") or st.st_blocks * 512 >= 16 << 20:
        pytest.skip(f"the file system of {folder} does not make sparse files (a 16 MiB file with one byte "
                    f"written takes {getattr(st, 'st_blocks', '?')} blocks): holes cannot be checked")


def test_save_leaves_holes_for_zero_blocks(tmp_path, no_leaks):
    sparse_files_or_skip(tmp_path)
    x = torch.zeros(40 * BLOCK // 4 + 5)  # 40 blocks and a bit
    x[0], x[BLOCK // 4 * 7 + 3], x[-1] = 1.5, -2.0, 3.0  # non-zero in blocks 0, 7 and the tail
    y = torch.randn(1000, generator=torch.Generator().manual_seed(1))
    p = tmp_path / "z.pt"
    cx = ctensor.from_dlpack(x)
    ctensor.save({"x": cx, "y": ctensor.from_dlpack(y), "v": cx[10:20]}, p)
    st = os.stat(p)
    assert st.st_size > 40 * BLOCK and st.st_blocks * 512 < 8 * BLOCK, (st.st_size, st.st_blocks)
    assert zipfile.ZipFile(p).testzip() is None  # the CRCs cover the zeros in the holes
    back = torch.load(p, weights_only=True)
    assert torch.equal(back["x"], x) and torch.equal(back["y"], y)
    assert back["v"].untyped_storage().data_ptr() == back["x"].untyped_storage().data_ptr()
    del cx
    again = ctensor.load(p)  # copy mode: CRC checked over the holes' zeros
    assert torch.equal(torch.from_dlpack(again["x"]), x)


def test_zip64_sparse_file_over_4gib(tmp_path, no_leaks):
    """ctensor writes a >4 GiB checkpoint (zip64 sizes and offsets) with holes; torch.load(mmap=True)
    and ctensor.load(mmap=True) read it.  The zero tensor lives in an anonymous private mapping
    (untouched pages read as the kernel's zero page), so neither RAM nor disk holds 4 GiB.  The
    torch-writes direction is this same file read by torch: torch.save of a 4 GiB tensor writes
    and checksums every byte (4 GiB of disk, far over the test's budget)."""
    sparse_files_or_skip(tmp_path)
    n = (4 << 30) // 4 + BLOCK // 4  # float32 elements: 4 GiB + 64 KiB
    buf = mmap.mmap(-1, n * 4, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    a = np.frombuffer(buf, dtype=np.float32)
    a[0], a[2**29 + 7], a[-1] = 1.0, 3.0, 2.0
    big = ctensor.from_numpy(a)
    p = tmp_path / "big.pt"
    ctensor.save({"big": big, "view": big[2**29:2**29 + 16], "small": ctensor.arange(10, dtype=ctensor.float32)}, p)
    del big
    st = os.stat(p)
    assert st.st_size > 4 << 30 and st.st_blocks * 512 < 1 << 20, (st.st_size, st.st_blocks)
    z = zipfile.ZipFile(p)  # Python's zipfile reads the zip64 records independently
    info = {i.filename.split("/", 1)[1]: i for i in z.infolist()}
    assert info["data/0"].file_size == n * 4 and info["data/1"].header_offset > 4 << 30
    assert np.frombuffer(z.read(info["data/1"].filename), dtype=np.float32).tolist() == list(range(10))  # + CRC
    t = torch.load(p, mmap=True, weights_only=True)
    assert t["big"].shape == (n,) and t["big"].dtype == torch.float32
    assert (t["big"][0].item(), t["big"][2**29 + 7].item(), t["big"][-1].item(), t["big"][12345].item()) == (1, 3, 2, 0)
    assert t["view"].storage_offset() == 2**29 and t["view"][7].item() == 3.0
    assert t["view"].untyped_storage().data_ptr() == t["big"].untyped_storage().data_ptr()
    assert t["small"].tolist() == list(range(10))
    c = ctensor.load(p, mmap=True)
    assert "mapped from" in explain_text(c["big"])
    assert tuple(c["big"].shape) == (n,) and c["big"][-1].item() == 2.0 and c["big"][2**29 + 7].item() == 3.0
    assert sid(c["view"]) == sid(c["big"]) and c["view"].storage_offset() == 2**29
    assert c["small"].tolist() == list(range(10))
    del t, c, a
    buf.close()
