// PyTorch checkpoints: the zip archives torch.save writes (since 1.6), read zero-copy with
// their storage sharing intact.
//
// Note [torch.save archives in ctensor]
// An archive holds <prefix>/data.pkl (the pickled object), <prefix>/byteorder, and one entry
// <prefix>/data/<key> per storage (zip_archive.h).  data.pkl is read by the restricted
// unpickler (pickle_reader.h); each storage key becomes ONE ctensor storage: cut in place
// from the file's one mapping (torch aligns each entry's data to 64 bytes; a misaligned one
// is copied) or, in copy mode, read into owned memory.  The CRC-32 of data.pkl and of every
// copied storage is checked; a storage mapped in place is not read at open, so not checked
// (Note [CRC-32 checks] in zip_archive.h).  Tensors that shared a storage in
// torch (tied weights, views, a tensor saved twice) share it here, with their offsets.
// The saved object reaches C as a flat list:
//   - entries: (key path, tensor) for every tensor leaf, in pickle order.  A key path joins
//     the keys from the root with '.': a dict key as its text (a str as is, other keys as
//     JSON: 3, true, null), a list or tuple item as its index: {"a": {"b": t}} gives "a.b",
//     {"l": [t0, t1]} "l.0" and "l.1", a bare tensor "" (the empty path).
//   - metadata: (key path, JSON text) for every other leaf: None, bools, ints, floats (JSON
//     with NaN/Infinity as Python's json writes them), strings (JSON string literals).
//   - structure: the whole nesting as JSON, for bindings that rebuild it: {"dict": [[k, v],
//     ...]} ({"odict": ...} for an OrderedDict, with "attrs": {...} when it has attributes,
//     as a state dict's _metadata), {"list": [...]}, {"tuple": [...]}, {"tensor": i} (i the
//     first entry holding that tensor object), and scalars as JSON values.
// Empty containers and dict attributes appear only in the structure.  A container that
// contains itself, nesting deeper than kMaxDepth, or a tree that unfolds to more than
// kMaxNodes values (shared containers referenced over and over) is refused.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint.h"

namespace ct::torchpt {

constexpr int kMaxDepth = 200;
constexpr int64_t kMaxNodes = int64_t(1) << 22;

struct Checkpoint final : ::ct::Checkpoint {
  std::vector<std::string> names;      // entry key paths
  std::vector<Ref<Tensor>> tensors;    // entry tensors (one object may appear twice)
  std::vector<std::pair<std::string, std::string>> leaves;  // non-tensor leaves
  std::string json;                    // the structure
  int64_t storages = 0;                // distinct storages made

  int64_t count() const override { return int64_t(names.size()); }
  const std::string& name(int64_t i) const override { return names[size_t(i)]; }
  Ref<Tensor> tensor(int64_t i) const override;
  int64_t find(const std::string& name) const override;
  Ref<Storage> whole_storage(const char* op) const override;
  bool has_metadata() const override { return !leaves.empty(); }
  const std::vector<std::pair<std::string, std::string>>& metadata() const override { return leaves; }
  const std::string& structure() const override { return json; }
};

// Opens the archive at path.  mode: 0-2 map the file (MapMode: storages are cut from the
// mapping), 3 copies every storage into owned memory (nothing stays mapped).  Throws
// InvalidArgument "<op>: '<path>': <what>" for anything malformed (DType for a storage type
// ctensor lacks); nothing is left mapped or allocated.
Checkpoint* open_file(const std::string& path, int mode, const char* op);
// The same over a copy of bytes[0, n) ("<memory>" in messages); storages are copies.
Checkpoint* open_memory(const void* bytes, int64_t n, const char* op);

}  // namespace ct::torchpt
