"""Writes the seed corpus of ctensor_fuzz_pt (fuzz/corpus_pt): small archives made by
torch.save, covering what the reader accepts (every dtype, views and tied weights, empty and
0-d tensors, nested containers and scalars, requires_grad, Parameters, OrderedDict state dicts
with _metadata) plus protocol 4 pickles, each also without CRCs.  Run with the venv's python (torch 2.13):

    python fuzz/make_pt_corpus.py fuzz/corpus_pt
"""

import collections
import io
import pathlib
import sys

import torch


def objects():
    dtypes = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
              torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128]
    yield "dtypes", {str(d): torch.ones(2, 3, dtype=d) for d in dtypes}
    base = torch.arange(12.0).reshape(3, 4)
    yield "views", {"base": base, "t": base.t(), "slice": base[1:, 2:], "row": base[1], "same": base}
    lin = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Linear(2, 3))
    lin[1].weight = torch.nn.Parameter(lin[0].weight.t().contiguous())
    yield "state_dict", lin.state_dict()
    yield "nested", {"l": [torch.zeros(0), 1, 2.5, "s", None, True, (1, -2**40)], "d": {"e": {}, "f": []},
                     3: torch.tensor(7)}
    yield "grad", {"rg": torch.ones(2, requires_grad=True), "p": [torch.nn.Parameter(torch.ones(1))]}
    yield "odict", collections.OrderedDict([("a", torch.eye(2)), ("b", 1)])
    yield "bare", torch.arange(5, dtype=torch.int32)


def main(out):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name, obj in objects():
        for proto in (2, 4):
            # Twins without CRCs (recorded as 0: none, which the reader does not check), so that
            # mutations of data.pkl reach the unpickler instead of stopping at its CRC check.
            for crc in (True, False):
                torch.serialization.set_crc32_options(crc)
                buf = io.BytesIO()
                torch.save(obj, buf, pickle_protocol=proto)
                (out / f"{name}_p{proto}{'' if crc else '_nocrc'}.pt").write_bytes(buf.getvalue())
    torch.serialization.set_crc32_options(True)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fuzz/corpus_pt")
