// torch.save archives from ctensor (Note [What torch_save writes] in torch_save.h).
#include "torch_save.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include <cerrno>
#include <cmath>
#include <algorithm>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "autograd/meta.h"
#include "error.h"
#include "json_lite.h"
#include "zip_archive.h"

namespace ct::torchpt {

namespace {

const char* storage_name(DType d) {
  switch (d) {
    case DType::Float32: return "FloatStorage";
    case DType::Float64: return "DoubleStorage";
    case DType::Float16: return "HalfStorage";
    case DType::BFloat16: return "BFloat16Storage";
    case DType::Int64: return "LongStorage";
    case DType::Int32: return "IntStorage";
    case DType::Int16: return "ShortStorage";
    case DType::Int8: return "CharStorage";
    case DType::UInt8: return "ByteStorage";
    case DType::Bool: return "BoolStorage";
    case DType::Complex64: return "ComplexFloatStorage";
    case DType::Complex128: return "ComplexDoubleStorage";
  }
  return "?";
}

void put(std::string& s, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) s += char((v >> (8 * i)) & 0xff);
}

struct StorageKey {
  const Storage* storage;
  DType dtype;
};

class PickleWriter {
 public:
  PickleWriter(const std::vector<const Tensor*>& tensors, const char* op) : tensors_(tensors), op_(op) {}

  std::string run(const json::Value& root) {
    out_ = "\x80\x02";
    node(root, 0);
    out_ += '.';
    return std::move(out_);
  }
  std::vector<StorageKey> storages;

 private:
  void str(const std::string& s) {
    out_ += 'X';
    put(out_, s.size(), 4);
    out_ += s;
  }
  void integer(int64_t v) {
    if (v >= 0 && v < 256) {
      out_ += 'K';
      put(out_, uint64_t(v), 1);
    } else if (v >= 0 && v < 65536) {
      out_ += 'M';
      put(out_, uint64_t(v), 2);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      out_ += 'J';
      put(out_, uint64_t(uint32_t(int32_t(v))), 4);
    } else {
      out_ += "\x8a\x08";
      put(out_, uint64_t(v), 8);
    }
  }
  void global(const char* module, const char* name) {
    out_ += 'c';
    out_ += module;
    out_ += '\n';
    out_ += name;
    out_ += '\n';
  }
  void memo_put() {
    out_ += 'r';
    put(out_, uint64_t(memo_++), 4);
  }
  void memo_get(int64_t i) {
    out_ += 'j';
    put(out_, uint64_t(i), 4);
  }
  void empty_ordered_dict() {
    global("collections", "OrderedDict");
    out_ += ")R";
  }
  [[noreturn]] void bad(const std::string& what) { CT_FAIL(InvalidArgument, op_ << ": " << what); }

  const json::Value* member(const json::Value& v, const char* key) {
    for (size_t i = 0; i < v.keys.size(); ++i) {
      if (v.keys[i] == key) return &v.values[i];
    }
    return nullptr;
  }

  void node(const json::Value& v, int depth) {
    using K = json::Value::Kind;
    if (depth > 200) bad("the structure nests deeper than 200 levels");
    switch (v.kind) {
      case K::Null: out_ += 'N'; return;
      case K::Bool: out_ += v.boolean ? '\x88' : '\x89'; return;
      case K::String: return str(v.text);
      case K::Number: return number(v.text);
      case K::Array: bad("a bare JSON array in the structure (lists are {\"list\": [...]})");
      case K::Object: break;
    }
    if (const json::Value* t = member(v, "tensor")) return tensor(*t);
    if (const json::Value* l = member(v, "list")) {
      out_ += ']';
      return items(*l, "APPENDS", 'e', depth);
    }
    if (const json::Value* l = member(v, "tuple")) {
      if (l->kind != K::Array) bad("\"tuple\" is not an array");
      if (l->items.empty()) {
        out_ += ')';
        return;
      }
      out_ += '(';
      for (const json::Value& x : l->items) node(x, depth + 1);
      out_ += 't';
      return;
    }
    const json::Value* d = member(v, "odict");
    const bool ordered = d != nullptr;
    if (!d) d = member(v, "dict");
    if (!d || d->kind != K::Array) bad("a structure node is none of dict, odict, list, tuple, tensor");
    if (ordered) {
      empty_ordered_dict();
    } else {
      out_ += '}';
    }
    if (!d->items.empty()) {
      out_ += '(';
      for (const json::Value& kv : d->items) {
        if (kv.kind != K::Array || kv.items.size() != 2) bad("a dict item is not a [key, value] pair");
        node(kv.items[0], depth + 1);
        node(kv.items[1], depth + 1);
      }
      out_ += 'u';
    }
    if (const json::Value* a = member(v, "attrs")) {
      node(*a, depth + 1);
      out_ += 'b';
    }
  }

  void items(const json::Value& l, const char*, char op, int depth) {
    if (l.kind != json::Value::Kind::Array) bad("\"list\" is not an array");
    if (l.items.empty()) return;
    out_ += '(';
    for (const json::Value& x : l.items) node(x, depth + 1);
    out_ += op;
  }

  void number(const std::string& text) {
    if (text.find_first_of(".eE") != std::string::npos) {
      const double f = std::strtod(text.c_str(), nullptr);
      if (!std::isfinite(f)) bad("the float " + text + " is out of range");
      uint64_t u;
      std::memcpy(&u, &f, 8);
      out_ += 'G';
      for (int i = 7; i >= 0; --i) out_ += char((u >> (8 * i)) & 0xff);
      return;
    }
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (errno == ERANGE || *end) bad("the integer " + text + " does not fit in 64 bits");
    integer(v);
  }

  void tensor(const json::Value& iv) {
    uint64_t i = 0;
    if (!json::as_uint(iv, uint64_t(INT64_MAX), &i) || i >= tensors_.size()) {
      bad("tensor index " + iv.text + " is out of range for " + std::to_string(tensors_.size()) + " tensors");
    }
    auto seen = memo_of_.find(i);
    if (seen != memo_of_.end()) return memo_get(seen->second);
    const Tensor& t = *tensors_[i];
    const Storage* s = t.storage();
    size_t key = 0;
    while (key < storages.size() && storages[key].storage != s) ++key;
    if (key == storages.size()) {
      CT_CHECK(s->nbytes() % t.itemsize() == 0, InvalidArgument,
               op_ << ": tensor " << i << ": its storage of " << s->nbytes() << " bytes is not a whole number of "
                   << dtype_name(t.dtype()) << " elements");
      storages.push_back({s, t.dtype()});
    }
    CT_CHECK(storages[key].dtype == t.dtype(), InvalidArgument,
             op_ << ": tensor " << i << " (" << dtype_name(t.dtype()) << ") shares a storage with a "
                 << dtype_name(storages[key].dtype) << " tensor: torch.save cannot save one storage as two types");
    global("torch._utils", "_rebuild_tensor_v2");
    out_ += "((";
    str("storage");
    global("torch", storage_name(t.dtype()));
    str(std::to_string(key));
    str("cpu");
    integer(s->nbytes() / t.itemsize());
    out_ += "tQ";
    integer(t.offset());
    out_ += '(';
    for (int d = 0; d < t.ndim(); ++d) integer(t.sizes()[d]);
    out_ += "t(";
    for (int d = 0; d < t.ndim(); ++d) integer(t.strides()[d]);
    out_ += 't';
    out_ += autograd::requires_grad(t) ? '\x88' : '\x89';
    empty_ordered_dict();
    out_ += "tR";
    memo_of_[i] = memo_;
    memo_put();
  }

  const std::vector<const Tensor*>& tensors_;
  const char* op_;
  std::string out_;
  int64_t memo_ = 0;
  std::unordered_map<uint64_t, int64_t> memo_of_;
};

// Streams stored entries into a file and writes the central directory at the end.
class ZipWriter {
 public:
  ZipWriter(int fd, const std::string& path, const char* op) : fd_(fd), path_(path), op_(op) {
    struct stat st;
    sparse_ = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);  // holes only where a file can have them
  }

  void entry(const std::string& name, const char* data, int64_t n) {
    const bool big = n >= 0xFFFFFFFFll || pos_ >= 0xFFFFFFFFll;
    std::string h;
    // In a regular file the CRC field (byte 14) is patched once the data is written (one pass
    // over the data); elsewhere (a pipe: no pwrite) the CRC is taken first.
    const uint32_t first_crc = sparse_ ? 0 : zip::crc32(0, data, n);
    put(h, 0x04034b50, 4), put(h, big ? 45 : 20, 2), put(h, 0, 2), put(h, 0, 2), put(h, 0, 4), put(h, first_crc, 4);
    put(h, big ? 0xFFFFFFFFu : uint64_t(n), 4), put(h, big ? 0xFFFFFFFFu : uint64_t(n), 4);
    const int64_t z64 = big ? 20 : 0;  // local zip64 extra: both sizes
    int64_t pad = (64 - (pos_ + 30 + int64_t(name.size()) + z64 + 4) % 64) % 64;  // + 4: the pad field's header
    put(h, name.size(), 2), put(h, uint64_t(z64 + 4 + pad), 2);
    h += name;
    if (big) put(h, 1, 2), put(h, 16, 2), put(h, uint64_t(n), 8), put(h, uint64_t(n), 8);
    put(h, 0x4246, 2), put(h, uint64_t(pad), 2);  // "FB": torch's alignment padding
    h.append(size_t(pad), 'Z');
    const int64_t local = pos_;
    write(h.data(), int64_t(h.size()));
    uint32_t crc = first_crc;
    if (sparse_) {
      crc = write_sparse(data, n);
      std::string c4;
      put(c4, crc, 4);
      patch(local + 14, c4);
    } else {
      write(data, n);
    }
    // central directory record
    std::string& c = dir_;
    put(c, 0x02014b50, 4), put(c, big ? 45 : 20, 2), put(c, big ? 45 : 20, 2), put(c, 0, 2), put(c, 0, 2);
    put(c, 0, 4), put(c, crc, 4);
    put(c, big ? 0xFFFFFFFFu : uint64_t(n), 4), put(c, big ? 0xFFFFFFFFu : uint64_t(n), 4);
    put(c, name.size(), 2), put(c, big ? 28 : 0, 2), put(c, 0, 2), put(c, 0, 2), put(c, 0, 2), put(c, 0, 4);
    put(c, big ? 0xFFFFFFFFu : uint64_t(local), 4);
    c += name;
    if (big) put(c, 1, 2), put(c, 24, 2), put(c, uint64_t(n), 8), put(c, uint64_t(n), 8), put(c, uint64_t(local), 8);
    ++count_;
  }

  void finish() {
    const int64_t dir_at = pos_;
    std::string e = dir_;
    const int64_t rec = dir_at + int64_t(dir_.size());
    put(e, 0x06064b50, 4), put(e, 44, 8), put(e, 45, 2), put(e, 45, 2), put(e, 0, 4), put(e, 0, 4);
    put(e, uint64_t(count_), 8), put(e, uint64_t(count_), 8), put(e, dir_.size(), 8), put(e, uint64_t(dir_at), 8);
    put(e, 0x07064b50, 4), put(e, 0, 4), put(e, uint64_t(rec), 8), put(e, 1, 4);
    put(e, 0x06054b50, 4), put(e, 0, 2), put(e, 0, 2), put(e, count_ >= 0xFFFF ? 0xFFFF : uint64_t(count_), 2);
    put(e, count_ >= 0xFFFF ? 0xFFFF : uint64_t(count_), 2), put(e, dir_.size() >= 0xFFFFFFFFu ? 0xFFFFFFFFu : dir_.size(), 4);
    put(e, dir_at >= 0xFFFFFFFFll ? 0xFFFFFFFFu : uint64_t(dir_at), 4), put(e, 0, 2);
    write(e.data(), int64_t(e.size()));
  }

 private:
  // Note [Holes for zero blocks]
  // A storage written to a regular file skips every all-zero block of kBlock bytes that is
  // kBlock-aligned in the FILE (lseek instead of write): the file system leaves a hole, which
  // reads back as zeros and takes no disk space, so a checkpoint of mostly-zero tensors (a
  // fresh optimizer state, a >4 GiB test file) stays small on disk.  The CRC still covers the
  // zeros: the CRC of a zero block is computed once and folded in with crc32_combine_op.
  static constexpr int64_t kBlock = int64_t(64) << 10;
  static constexpr int64_t kRun = int64_t(1) << 20;  // non-zero bytes CRC'd then written together

  uint32_t write_plain(const char* p, int64_t n, uint32_t crc = 0) {
    for (int64_t at = 0; at < n; at += kRun) {  // the CRC reads each run from cache before the write
      const int64_t k = std::min(kRun, n - at);
      crc = zip::crc32(crc, p + at, k);
      write(p + at, k);
    }
    return crc;
  }

  static bool all_zero(const char* p, int64_t n) {  // n: a multiple of 64
    for (int64_t at = 0; at < n; at += 64) {
      uint64_t w[8];
      std::memcpy(w, p + at, 64);
      if ((w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7]) != 0) return false;
    }
    return true;
  }

  uint32_t write_sparse(const char* p, int64_t n) {
    static const uint32_t zero_crc = [] {
      const std::vector<char> z(size_t(kBlock), 0);
      return zip::crc32(0, z.data(), kBlock);
    }();
    static const uLong zero_op = ::crc32_combine_gen64(kBlock);
    const int64_t head = std::min(n, (kBlock - pos_ % kBlock) % kBlock);
    uint32_t crc = write_plain(p, head);
    int64_t at = head;
    while (at + kBlock <= n) {
      if (all_zero(p + at, kBlock)) {
        int64_t end = at;
        do {
          crc = uint32_t(::crc32_combine_op(crc, zero_crc, zero_op));
          end += kBlock;
        } while (end + kBlock <= n && all_zero(p + end, kBlock));
        skip(end - at);
        at = end;
      } else {
        int64_t end = at + kBlock;
        while (end + kBlock <= n && end - at < kRun && !all_zero(p + end, kBlock)) end += kBlock;
        crc = write_plain(p + at, end - at, crc);
        at = end;
      }
    }
    return write_plain(p + at, n - at, crc);
  }

  void skip(int64_t n) {
    CT_CHECK(::lseek(fd_, off_t(n), SEEK_CUR) >= 0, InvalidArgument,
             op_ << ": cannot seek in '" << path_ << "': " << std::strerror(errno));
    pos_ += n;
  }

  void patch(int64_t at, const std::string& bytes) {
    const ssize_t w = ::pwrite(fd_, bytes.data(), bytes.size(), off_t(at));
    CT_CHECK(w == ssize_t(bytes.size()), InvalidArgument,
             op_ << ": cannot write '" << path_ << "': " << (w < 0 ? std::strerror(errno) : "short write"));
  }

  void write(const char* p, int64_t n) {
    pos_ += n;
    while (n > 0) {
      const ssize_t w = ::write(fd_, p, size_t(std::min<int64_t>(n, int64_t(1) << 30)));
      if (w < 0 && errno == EINTR) continue;
      CT_CHECK(w > 0, InvalidArgument, op_ << ": cannot write '" << path_ << "': " << std::strerror(errno));
      p += w;
      n -= w;
    }
  }

  int fd_;
  const std::string& path_;
  const char* op_;
  int64_t pos_ = 0;
  int64_t count_ = 0;
  bool sparse_ = false;
  std::string dir_;
};

}  // namespace

void save_file(const std::string& path, const std::string& structure, const std::vector<const Tensor*>& tensors,
               const char* op) {
  const json::Value root = json::parse(structure.data(), structure.size(), std::string(op) + ": the structure");
  PickleWriter pw(tensors, op);
  const std::string pkl = pw.run(root);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  CT_CHECK(fd >= 0, InvalidArgument, op << ": cannot create '" << path << "': " << std::strerror(errno));
  try {
    ZipWriter z(fd, path, op);
    z.entry("archive/data.pkl", pkl.data(), int64_t(pkl.size()));
    z.entry("archive/.format_version", "1", 1);
    z.entry("archive/.storage_alignment", "64", 2);
    z.entry("archive/byteorder", "little", 6);
    for (size_t k = 0; k < pw.storages.size(); ++k) {
      const Storage* s = pw.storages[k].storage;
      z.entry("archive/data/" + std::to_string(k), s->data(), s->nbytes());
    }
    z.entry("archive/version", "3\n", 2);
    z.finish();
    const int closed = ::close(std::exchange(fd, -1));
    CT_CHECK(closed == 0, InvalidArgument, op << ": cannot write '" << path << "': " << std::strerror(errno));
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(path.c_str());
    throw;
  }
}

}  // namespace ct::torchpt
