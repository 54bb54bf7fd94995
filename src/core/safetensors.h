// safetensors files: reading (zero-copy from one mapping of the file) and writing.
//
// Note [safetensors layout and ctensor's storages]
// A file is: 8 bytes, the little-endian header length N; N bytes of UTF-8 JSON
//   {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, ...,
//    "__metadata__": {"key": "value"}}
// (keys other than dtype/shape/data_offsets in an entry are ignored, as the safetensors
// package does); then the data buffer, where [begin, end) of each tensor is relative to the
// buffer's start.  Rules checked on reading, those of the package (0.8) plus two of ours:
// header length <= 100,000,000 and inside the file; valid UTF-8 JSON with no duplicate keys
// (ours: the package keeps the last); known dtype strings; end - begin == numel * itemsize;
// offsets, sorted, contiguous from 0 and covering the buffer exactly; nesting <= 64 levels.
// ctensor's model: the whole file is ONE storage (mapped, or read into owned memory), and
// each tensor is a contiguous tensor on it at element offset (8 + N + begin) / itemsize, so
// every tensor of a file shares that storage (ct_shares_storage says 1) and writes through
// a writable mapping reach the same bytes torch would see.  That is what safetensors' own
// torch loader does (UntypedStorage.from_file over the whole file).  The format does not
// align data; a tensor whose bytes do not start at a multiple of its itemsize cannot be a
// view (ctensor never reads misaligned elements), so it gets its own storage, a copy.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint.h"
#include "dtype.h"
#include "ref.h"
#include "storage.h"
#include "tensor.h"

namespace ct::safetensors {

// The package's limit on the header length.
constexpr uint64_t kMaxHeaderBytes = 100000000;

struct Entry {
  std::string name;
  DType dtype;
  Shape shape;
  int64_t begin = 0;  // byte offsets in the data buffer
  int64_t end = 0;
};

struct Header {
  int64_t data_start = 0;  // 8 + N: file offset of the data buffer
  std::vector<Entry> entries;  // sorted by name (bytewise), the order of safe_open().keys()
  bool has_metadata = false;
  std::vector<std::pair<std::string, std::string>> metadata;  // in file order
};

// Parses and validates the first `size` bytes of a file (the whole file); `where` names it
// in messages ("'model.safetensors'").  Throws InvalidArgument (or DType for a dtype
// ctensor lacks) with "<op>: <where>: <what is wrong>".
Header parse(const char* bytes, int64_t size, const std::string& where, const char* op);

// An open file: its storage and header.  Fetching a tensor makes a new tensor object each
// time (as safe_open.get_tensor), all on `storage` except misaligned ones.
struct Checkpoint final : ::ct::Checkpoint {
  Ref<Storage> storage;
  Header header;

  int64_t count() const override { return int64_t(header.entries.size()); }
  const std::string& name(int64_t i) const override { return header.entries[size_t(i)].name; }
  Ref<Tensor> tensor(int64_t i) const override;
  int64_t find(const std::string& name) const override;  // index, or -1
  Ref<Storage> whole_storage(const char*) const override { return storage; }
  bool has_metadata() const override { return header.has_metadata; }
  const std::vector<std::pair<std::string, std::string>>& metadata() const override { return header.metadata; }
  // A flat dict of the tensors in name order.
  const std::string& structure() const override;

 private:
  mutable std::string structure_;  // made on first use
};

// Opening modes of a file: the three of MapMode, plus reading it into owned memory.
enum class OpenMode : int { ReadOnly = 0, CopyOnWrite = 1, Shared = 2, Copy = 3 };

Checkpoint* open_file(const std::string& path, int mode, const char* op);
// Parses a copy of bytes[0, n) (the checkpoint owns the copy).
Checkpoint* open_memory(const void* bytes, int64_t n, const char* op);

struct SaveItem {
  std::string name;
  const Tensor* tensor;
};

// The bytes of a file holding items and metadata (has_metadata false: no "__metadata__"
// key), byte for byte what the safetensors package writes: tensors ordered by dtype (the
// package's order: I64 F64 F32 I32 BF16 F16 I16 I8 U8 BOOL) then by name, the header padded
// with spaces to a multiple of 8 bytes, metadata sorted by key (the package writes a hash
// map's order, so with two or more entries its bytes vary from run to run).  Each tensor is
// written contiguous in C order whatever its strides.  Refuses (InvalidArgument) duplicate
// or reserved names, and two items on one storage of non-zero size unless copy_shared.
// Writes to the file at path (created or truncated, mode 0666 & ~umask); a failure removes it.
void save_file(const std::string& path, const std::vector<SaveItem>& items, bool has_metadata,
               const std::vector<std::pair<std::string, std::string>>& metadata, bool copy_shared, const char* op);

}  // namespace ct::safetensors
