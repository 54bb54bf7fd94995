// safetensors reading and writing (Note [safetensors layout and ctensor's storages]).
#include "safetensors.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <utility>

#include "copy.h"
#include "error.h"
#include "json_lite.h"
#include "json_lite.h"
#include "mapped_file.h"
#include "parallel.h"
#include "shape.h"

namespace ct::safetensors {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "safetensors stores little-endian data: a big-endian host would need byte swaps");

namespace {

struct DTypeCode {
  const char* code;
  DType dtype;
  int rank;  // the package's Dtype enum order, which orders tensors on writing (descending)
};

constexpr DTypeCode kCodes[] = {
    {"BOOL", DType::Bool, 0},     {"U8", DType::UInt8, 4},    {"I8", DType::Int8, 5},
    {"I16", DType::Int16, 11},    {"F16", DType::Float16, 13}, {"BF16", DType::BFloat16, 14},
    {"I32", DType::Int32, 15},    {"F32", DType::Float32, 17}, {"F64", DType::Float64, 19},
    {"I64", DType::Int64, 20},    {"C64", DType::Complex64, 18},
};

// dtypes of the format that ctensor lacks: refused by name, with a message saying so.
constexpr const char* kForeignCodes[] = {"F4", "F6_E2M3", "F6_E3M2", "F8_E5M2", "F8_E4M3", "F8_E8M0",
                                         "F8_E4M3FNUZ", "F8_E5M2FNUZ", "U16", "U32", "U64"};

const DTypeCode& code_of(DType d) {
  for (const auto& c : kCodes)
    if (c.dtype == d) return c;
  // complex128: the format has no code for it (the package's save_file raises KeyError).
  CT_FAIL(DType, "safetensors: the format has no dtype for " << dtype_name(d));
}

using json::Value;

const Value* member(const Value& obj, const char* key) {
  for (size_t i = 0; i < obj.keys.size(); ++i)
    if (obj.keys[i] == key) return &obj.values[i];
  return nullptr;
}

Entry entry_of(const std::string& name, const Value& v, const std::string& where, const char* op) {
  CT_CHECK(v.kind == Value::Kind::Object, InvalidArgument,
           op << ": " << where << ": tensor '" << name << "' is " << json::kind_name(v.kind) << ", not an object");
  Entry e;
  e.name = name;
  const Value* dtype = member(v, "dtype");
  const Value* shape = member(v, "shape");
  const Value* offsets = member(v, "data_offsets");
  CT_CHECK(dtype && shape && offsets, InvalidArgument,
           op << ": " << where << ": tensor '" << name << "' lacks "
              << (!dtype ? "\"dtype\"" : !shape ? "\"shape\"" : "\"data_offsets\""));
  CT_CHECK(dtype->kind == Value::Kind::String, InvalidArgument,
           op << ": " << where << ": tensor '" << name << "': \"dtype\" is " << json::kind_name(dtype->kind)
              << ", not a string");
  bool known = false;
  for (const auto& c : kCodes) {
    if (dtype->text == c.code) {
      e.dtype = c.dtype;
      known = true;
    }
  }
  if (!known) {
    for (const char* f : kForeignCodes)
      CT_CHECK(dtype->text != f, DType,
               op << ": " << where << ": tensor '" << name << "' has dtype " << f << ", which ctensor does not have");
    CT_FAIL(InvalidArgument, op << ": " << where << ": tensor '" << name << "' has unknown dtype \"" << dtype->text
                                << "\" (expected one of BOOL, U8, I8, I16, I32, I64, F16, BF16, F32, F64, C64)");
  }
  CT_CHECK(shape->kind == Value::Kind::Array, InvalidArgument,
           op << ": " << where << ": tensor '" << name << "': \"shape\" is " << json::kind_name(shape->kind)
              << ", not an array");
  CT_CHECK(shape->items.size() <= size_t(kMaxDims), InvalidArgument,
           op << ": " << where << ": tensor '" << name << "' has " << shape->items.size() << " dims (at most "
              << kMaxDims << ")");
  for (const auto& d : shape->items) {
    uint64_t n;
    CT_CHECK(json::as_uint(d, uint64_t(INT64_MAX), &n), InvalidArgument,
             op << ": " << where << ": tensor '" << name << "': shape entry "
                << (d.kind == Value::Kind::Number ? d.text : json::kind_name(d.kind))
                << " is not a non-negative integer below 2^63");
    e.shape.push_back(int64_t(n));
  }
  CT_CHECK(offsets->kind == Value::Kind::Array && offsets->items.size() == 2, InvalidArgument,
           op << ": " << where << ": tensor '" << name << "': \"data_offsets\" is not an array of two integers");
  uint64_t b, en;
  CT_CHECK(json::as_uint(offsets->items[0], uint64_t(INT64_MAX), &b) &&
               json::as_uint(offsets->items[1], uint64_t(INT64_MAX), &en),
           InvalidArgument,
           op << ": " << where << ": tensor '" << name << "': \"data_offsets\" are not non-negative integers below 2^63");
  CT_CHECK(b <= en, InvalidArgument,
           op << ": " << where << ": tensor '" << name << "' has data_offsets [" << b << ", " << en
              << "] that end before they begin");
  e.begin = int64_t(b);
  e.end = int64_t(en);
  // numel * itemsize without overflow: a shape of huge dims is a hostile file, not a crash
  // (a zero dim makes the size 0 whatever the others are)
  int64_t bytes = itemsize(e.dtype);
  bool overflow = false;
  if (std::find(e.shape.begin(), e.shape.end(), 0) != e.shape.end()) {
    bytes = 0;
  } else {
    for (int64_t d : e.shape) overflow = overflow || __builtin_mul_overflow(bytes, d, &bytes);
  }
  CT_CHECK(!overflow, InvalidArgument,
           op << ": " << where << ": tensor '" << name << "' has shape " << list_str(e.shape)
              << " whose byte size overflows int64");
  CT_CHECK(bytes == e.end - e.begin, InvalidArgument,
           op << ": " << where << ": tensor '" << name << "' of dtype " << dtype->text << " and shape "
              << list_str(e.shape) << " needs " << bytes << " bytes, but its data_offsets [" << e.begin << ", "
              << e.end << "] hold " << (e.end - e.begin));
  return e;
}

}  // namespace

Header parse(const char* bytes, int64_t size, const std::string& where, const char* op) {
  CT_CHECK(size >= 8, InvalidArgument,
           op << ": " << where << ": the file is " << size << " bytes, too short for the 8-byte header length");
  uint64_t n = 0;
  for (int k = 7; k >= 0; --k) n = (n << 8) | static_cast<unsigned char>(bytes[k]);
  CT_CHECK(n <= kMaxHeaderBytes, InvalidArgument,
           op << ": " << where << ": header length " << n << " exceeds the limit of " << kMaxHeaderBytes << " bytes");
  CT_CHECK(int64_t(n) <= size - 8, InvalidArgument,
           op << ": " << where << ": header length " << n << " reaches past the end of the file (" << size
              << " bytes)");
  const std::string what = op + std::string(": ") + where + ": invalid JSON in header";
  const Value root = json::parse(bytes + 8, size_t(n), what);
  CT_CHECK(root.kind == Value::Kind::Object, InvalidArgument,
           op << ": " << where << ": the header is " << json::kind_name(root.kind) << ", not an object");
  Header h;
  h.data_start = 8 + int64_t(n);
  for (size_t i = 0; i < root.keys.size(); ++i) {
    const std::string& key = root.keys[i];
    const Value& v = root.values[i];
    if (key == "__metadata__") {
      if (v.kind == Value::Kind::Null) continue;  // the package reads null as no metadata
      CT_CHECK(v.kind == Value::Kind::Object, InvalidArgument,
               op << ": " << where << ": \"__metadata__\" is " << json::kind_name(v.kind) << ", not an object");
      h.has_metadata = true;
      for (size_t k = 0; k < v.keys.size(); ++k) {
        const std::string& mk = v.keys[k];
        const Value& mv = v.values[k];
        CT_CHECK(mv.kind == Value::Kind::String, InvalidArgument,
                 op << ": " << where << ": metadata \"" << mk << "\" is " << json::kind_name(mv.kind)
                    << ", not a string");
        h.metadata.emplace_back(mk, mv.text);
      }
      continue;
    }
    h.entries.push_back(entry_of(key, v, where, op));
  }
  // Coverage: sorted by offsets, each tensor starts where the previous one ended.
  std::vector<const Entry*> by_offset;
  for (const auto& e : h.entries) by_offset.push_back(&e);
  std::sort(by_offset.begin(), by_offset.end(), [](const Entry* a, const Entry* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  int64_t covered = 0;
  const Entry* prev = nullptr;
  for (const Entry* e : by_offset) {
    CT_CHECK(e->begin == covered, InvalidArgument,
             op << ": " << where << ": tensor '" << e->name << "' has data_offsets [" << e->begin << ", " << e->end
                << "] but " << (prev ? "the previous tensor '" + prev->name + "' ends" : std::string("the data starts"))
                << " at " << covered << (e->begin < covered ? " (overlapping tensors)" : " (a gap)"));
    covered = e->end;
    prev = e;
  }
  const int64_t buffer = size - h.data_start;
  CT_CHECK(covered == buffer, InvalidArgument,
           op << ": " << where << ": the tensors cover " << covered << " bytes of data, but the file holds " << buffer
              << (covered > buffer ? " (offsets past the end of the file)" : " (trailing bytes)"));
  std::sort(h.entries.begin(), h.entries.end(), [](const Entry& a, const Entry& b) { return a.name < b.name; });
  return h;
}

Ref<Tensor> Checkpoint::tensor(int64_t i) const {
  CT_CHECK(i >= 0 && i < int64_t(header.entries.size()), Index,
           "checkpoint_tensor: index " << i << " is out of range for " << where << " with "
                                       << header.entries.size() << " tensors");
  const Entry& e = header.entries[size_t(i)];
  const int64_t isz = itemsize(e.dtype);
  const int64_t byte_offset = header.data_start + e.begin;
  const Shape strides = contiguous_strides(e.shape);
  if (byte_offset % isz == 0) {
    return Tensor::make(storage.get(), e.dtype, e.shape, strides, byte_offset / isz, nullptr);
  }
  // Misaligned in the file: a copy on a storage of its own (Note [safetensors layout ...]).
  Ref<Tensor> t = Tensor::empty(e.shape, e.dtype, "checkpoint_tensor");
  if (e.end > e.begin) std::memcpy(t->data(), storage->data() + byte_offset, size_t(e.end - e.begin));
  return t;
}

const std::string& Checkpoint::structure() const {
  if (structure_.empty()) {
    std::string out = "{\"dict\": [";
    for (size_t i = 0; i < header.entries.size(); ++i) {
      if (i) out += ", ";
      out += "[";
      json::append_string(out, header.entries[i].name);
      out += ", {\"tensor\": " + std::to_string(i) + "}]";
    }
    structure_ = out + "]}";
  }
  return structure_;
}

int64_t Checkpoint::find(const std::string& name) const {
  const auto& v = header.entries;
  auto it = std::lower_bound(v.begin(), v.end(), name, [](const Entry& e, const std::string& n) { return e.name < n; });
  return it != v.end() && it->name == name ? int64_t(it - v.begin()) : -1;
}

namespace {

// Reads the whole file at path into a new owned storage: the "load with copies" path.  Each
// thread preads one contiguous part (files of 64 MiB or more are split): most of such a load
// is the kernel faulting in and zeroing the fresh pages it writes, which two threads do at
// twice the rate (a 2 GiB file here: 0.45-1.3 s on one thread, 0.2-0.3 s on two when the host
// backs the pages promptly).
Ref<Storage> read_file(const std::string& path, const char* op) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  CT_CHECK(fd >= 0, InvalidArgument, op << ": cannot open '" << path << "': " << std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  const off_t end = ::lseek(fd, 0, SEEK_END);
  CT_CHECK(end >= 0, InvalidArgument, op << ": cannot seek in '" << path << "': " << std::strerror(errno));
  Ref<Storage> s = Ref<Storage>::adopt(Storage::allocate(int64_t(end), op));
  // The first failure (offset, errno; 0 for an early end of file), reported after the threads.
  std::atomic<int64_t> failed_at{-1};
  std::atomic<int> failed_errno{0};
  parallel_for(int64_t(end), int64_t(64) << 20, [&](int64_t begin, int64_t stop) {
    int64_t done = begin;
    while (done < stop && failed_at.load(std::memory_order_relaxed) < 0) {
      const size_t chunk = size_t(std::min<int64_t>(stop - done, int64_t(1) << 30));
      const ssize_t got = ::pread(fd, s->data() + done, chunk, off_t(done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        int64_t none = -1;
        if (failed_at.compare_exchange_strong(none, done)) failed_errno.store(got == 0 ? 0 : errno);
        return;
      }
      done += got;
    }
  });
  const int64_t at = failed_at.load();
  CT_CHECK(at < 0, InvalidArgument,
           op << ": cannot read '" << path << "' at offset " << at << ": "
              << (failed_errno.load() == 0 ? "unexpected end of file" : std::strerror(failed_errno.load())));
  return s;
}

}  // namespace

Checkpoint* open_file(const std::string& path, int mode, const char* op) {
  CT_CHECK(mode >= 0 && mode <= 3, InvalidArgument,
           op << ": mode " << mode
              << " is not CT_FILE_READ_ONLY (0), CT_FILE_COPY_ON_WRITE (1), CT_FILE_SHARED (2) or CT_FILE_COPY (3)");
  auto c = std::make_unique<Checkpoint>();
  c->where = "'" + path + "'";
  if (mode == int(OpenMode::Copy)) {
    c->storage = read_file(path, op);
  } else {
    // A file too short for its header length is reported by parse(), not by the mapping.
    c->storage = map_file(path, 0, -1, static_cast<MapMode>(mode), op);
  }
  c->header = parse(c->storage->data(), c->storage->nbytes(), c->where, op);
  return c.release();
}

Checkpoint* open_memory(const void* bytes, int64_t n, const char* op) {
  CT_CHECK(n >= 0, InvalidArgument, op << ": byte count " << n << " is negative");
  CT_CHECK(bytes != nullptr || n == 0, InvalidArgument, op << ": bytes is NULL but the count is " << n);
  auto c = std::make_unique<Checkpoint>();
  c->where = "<memory>";
  c->storage = Ref<Storage>::adopt(Storage::allocate(n, op));
  if (n > 0) std::memcpy(c->storage->data(), bytes, size_t(n));
  c->header = parse(c->storage->data(), n, c->where, op);
  return c.release();
}

namespace {

// Writes all of [p, p + n) at the descriptor's position.
void write_all(int fd, const char* p, int64_t n, const std::string& path, const char* op) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, size_t(std::min<int64_t>(n, int64_t(1) << 30)));
    if (w < 0 && errno == EINTR) continue;
    CT_CHECK(w > 0, InvalidArgument, op << ": cannot write '" << path << "': " << std::strerror(errno));
    p += w;
    n -= w;
  }
}

// The bytes [first, last] a non-empty tensor's elements reach in its storage.
std::pair<int64_t, int64_t> byte_span(const Tensor& t) {
  int64_t lo = t.offset(), hi = t.offset();
  for (int d = 0; d < t.ndim(); ++d) {
    const int64_t reach = (t.sizes()[size_t(d)] - 1) * t.strides()[size_t(d)];
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo * t.itemsize(), (hi + 1) * t.itemsize() - 1};
}

// The package's rule (_find_shared_tensors): tensors on one storage whose memory ranges
// intersect.  Disjoint parts of one storage (two rows of a matrix) may be saved together.
bool share_memory(const Tensor& a, const Tensor& b) {
  if (a.storage() != b.storage() || a.numel() == 0 || b.numel() == 0) return false;
  const auto [alo, ahi] = byte_span(a);
  const auto [blo, bhi] = byte_span(b);
  return alo <= bhi && blo <= ahi;
}

}  // namespace

void save_file(const std::string& path, const std::vector<SaveItem>& items, bool has_metadata,
               const std::vector<std::pair<std::string, std::string>>& metadata, bool copy_shared, const char* op) {
  // Checks first, so that nothing is created on a refusal.
  for (size_t i = 0; i < items.size(); ++i) {
    code_of(items[i].tensor->dtype());  // a dtype the format has (complex128 is not one)
    CT_CHECK(items[i].name != "__metadata__", InvalidArgument,
             op << ": the name \"__metadata__\" is reserved for the header's metadata");
    for (size_t j = 0; j < i; ++j) {
      CT_CHECK(items[i].name != items[j].name, InvalidArgument,
               op << ": the name '" << items[i].name << "' is given twice");
      CT_CHECK(copy_shared || !share_memory(*items[i].tensor, *items[j].tensor), InvalidArgument,
               op << ": tensors '" << items[j].name << "' and '" << items[i].name << "' share memory (storage "
                  << items[i].tensor->storage()->id()
                  << "): the file would hold their bytes twice and loading it would give independent tensors "
                     "(pass CT_SAVE_COPY_SHARED to write them anyway)");
    }
  }
  for (size_t i = 0; i < metadata.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      CT_CHECK(metadata[i].first != metadata[j].first, InvalidArgument,
               op << ": the metadata key '" << metadata[i].first << "' is given twice");

  std::vector<const SaveItem*> order;
  for (const auto& it : items) order.push_back(&it);
  std::sort(order.begin(), order.end(), [](const SaveItem* a, const SaveItem* b) {
    const int ra = code_of(a->tensor->dtype()).rank, rb = code_of(b->tensor->dtype()).rank;
    return ra != rb ? ra > rb : a->name < b->name;
  });

  std::string header = "{";
  if (has_metadata) {
    std::vector<const std::pair<std::string, std::string>*> sorted;
    for (const auto& kv : metadata) sorted.push_back(&kv);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
    header += "\"__metadata__\":{";
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (i) header += ',';
      json::append_string(header, sorted[i]->first);
      header += ':';
      json::append_string(header, sorted[i]->second);
    }
    header += '}';
  }
  int64_t offset = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    const Tensor& t = *order[i]->tensor;
    if (i || has_metadata) header += ',';
    json::append_string(header, order[i]->name);
    header += ":{\"dtype\":\"";
    header += code_of(t.dtype()).code;
    header += "\",\"shape\":";
    header += '[';
    for (int d = 0; d < t.ndim(); ++d) header += (d ? "," : "") + std::to_string(t.sizes()[size_t(d)]);
    header += ']';
    const int64_t nbytes = t.numel() * t.itemsize();
    header += ",\"data_offsets\":[" + std::to_string(offset) + "," + std::to_string(offset + nbytes) + "]}";
    offset += nbytes;
  }
  header += '}';
  while (header.size() % 8) header += ' ';
  CT_CHECK(header.size() <= kMaxHeaderBytes, InvalidArgument,
           op << ": the header would be " << header.size() << " bytes, more than the limit of " << kMaxHeaderBytes);

  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  CT_CHECK(fd >= 0, InvalidArgument, op << ": cannot create '" << path << "': " << std::strerror(errno));
  try {
    char len[8];
    uint64_t n = header.size();
    for (int k = 0; k < 8; ++k) len[k] = char((n >> (8 * k)) & 0xFF);
    write_all(fd, len, 8, path, op);
    write_all(fd, header.data(), int64_t(header.size()), path, op);
    for (const SaveItem* it : order) {
      if (it->tensor->numel() == 0) continue;
      const Ref<Tensor> c = contiguous(*it->tensor);
      write_all(fd, c->data(), c->numel() * c->itemsize(), path, op);
    }
    const int closed = ::close(std::exchange(fd, -1));
    CT_CHECK(closed == 0, InvalidArgument, op << ": cannot write '" << path << "': " << std::strerror(errno));
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(path.c_str());
    throw;
  }
}

}  // namespace ct::safetensors
