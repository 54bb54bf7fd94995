// Zip central directory reader (Note [torch.save's zip archives] in zip_archive.h).
#include "zip_archive.h"

#include <algorithm>
#include <cstring>
#include <iomanip>
#include <sstream>
#include <unordered_set>

#include <zlib.h>

#include "error.h"

namespace ct::zip {

namespace {

constexpr uint32_t kEndSig = 0x06054b50;
constexpr uint32_t kEnd64LocatorSig = 0x07064b50;
constexpr uint32_t kEnd64Sig = 0x06064b50;
constexpr uint32_t kCentralSig = 0x02014b50;
constexpr uint32_t kLocalSig = 0x04034b50;
constexpr int64_t kEndBytes = 22, kLocatorBytes = 20, kEnd64Bytes = 56, kCentralBytes = 46, kLocalBytes = 30;

// Little-endian reads at a position already checked to lie inside the archive.
uint64_t le(const char* p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | uint8_t(p[i]);
  return v;
}

struct Reader {
  const char* bytes;
  int64_t size;
  const std::string& where;
  const char* op;

  // Throws unless [at, at + n) lies inside the archive (what names the structure).
  void need(int64_t at, int64_t n, const char* what) const {
    CT_CHECK(at >= 0 && n >= 0 && at <= size && n <= size - at, InvalidArgument,
             op << ": " << where << ": " << what << " at byte " << at << " (" << n
                << " bytes) reaches past the end of the archive (" << size << " bytes): truncated or corrupt zip");
  }
  uint64_t u(int64_t at, int n, const char* what) const {
    need(at, n, what);
    return le(bytes + at, n);
  }
  [[noreturn]] void fail(const std::string& what) const { CT_FAIL(InvalidArgument, op << ": " << where << ": " << what); }
};

// Position of the classic end record: the last signature that has room for its comment.
int64_t find_end_record(const Reader& r) {
  CT_CHECK(r.size >= kEndBytes, InvalidArgument,
           r.op << ": " << r.where << ": " << r.size << " bytes is too short for a zip archive (truncated?)");
  const int64_t lowest = std::max<int64_t>(0, r.size - kEndBytes - 65535);
  for (int64_t at = r.size - kEndBytes; at >= lowest; --at) {
    if (le(r.bytes + at, 4) == kEndSig && at + kEndBytes + int64_t(le(r.bytes + at + 20, 2)) == r.size) return at;
  }
  r.fail("no end-of-central-directory record: not a zip archive, or truncated");
}

}  // namespace

std::vector<Entry> read_directory(const char* bytes, int64_t size, const std::string& where, const char* op) {
  const Reader r{bytes, size, where, op};
  const int64_t end = find_end_record(r);
  uint64_t count = r.u(end + 10, 2, "end record");
  uint64_t dir_size = r.u(end + 12, 4, "end record");
  uint64_t dir_offset = r.u(end + 16, 4, "end record");
  CT_CHECK(r.u(end + 4, 2, "end record") == 0 && r.u(end + 6, 2, "end record") == 0, InvalidArgument,
           op << ": " << where << ": multi-disk zip archives are not supported");
  // zip64: a locator right before the end record points at the zip64 end record.
  int64_t dir_limit = end;  // the directory ends before the end records
  if (end >= kLocatorBytes && le(bytes + end - kLocatorBytes, 4) == kEnd64LocatorSig) {
    const int64_t loc = end - kLocatorBytes;
    const uint64_t rec = r.u(loc + 8, 8, "zip64 locator");
    CT_CHECK(rec <= uint64_t(loc) && uint64_t(loc) - rec >= uint64_t(kEnd64Bytes), InvalidArgument,
             op << ": " << where << ": the zip64 end record offset " << rec << " is not before its locator at byte "
                << loc);
    const int64_t at = int64_t(rec);
    if (r.u(at, 4, "zip64 end record") != kEnd64Sig) r.fail("bad zip64 end record signature at byte " + std::to_string(at));
    count = r.u(at + 32, 8, "zip64 end record");
    dir_size = r.u(at + 40, 8, "zip64 end record");
    dir_offset = r.u(at + 48, 8, "zip64 end record");
    dir_limit = at;
  }
  CT_CHECK(dir_offset <= uint64_t(dir_limit) && dir_size <= uint64_t(dir_limit) - dir_offset, InvalidArgument,
           op << ": " << where << ": the central directory [" << dir_offset << ", " << dir_offset << " + " << dir_size
              << ") does not end before the end record at byte " << dir_limit << ": truncated or corrupt zip");
  CT_CHECK(count <= dir_size / kCentralBytes, InvalidArgument,
           op << ": " << where << ": " << count << " entries cannot fit in a central directory of " << dir_size
              << " bytes");

  std::vector<Entry> out;
  out.reserve(size_t(count));
  std::unordered_set<std::string> names;
  int64_t at = int64_t(dir_offset);
  const int64_t dir_end = int64_t(dir_offset + dir_size);
  for (uint64_t i = 0; i < count; ++i) {
    CT_CHECK(at + kCentralBytes <= dir_end, InvalidArgument,
             op << ": " << where << ": central directory entry " << i << " runs past the directory's end");
    if (r.u(at, 4, "central directory entry") != kCentralSig) {
      r.fail("bad central directory signature for entry " + std::to_string(i) + " at byte " + std::to_string(at));
    }
    const uint64_t flags = r.u(at + 8, 2, "central directory entry");
    const uint64_t method = r.u(at + 10, 2, "central directory entry");
    const uint32_t crc = uint32_t(r.u(at + 16, 4, "central directory entry"));
    uint64_t csize = r.u(at + 20, 4, "central directory entry");
    uint64_t usize = r.u(at + 24, 4, "central directory entry");
    const int64_t name_len = int64_t(r.u(at + 28, 2, "central directory entry"));
    const int64_t extra_len = int64_t(r.u(at + 30, 2, "central directory entry"));
    const int64_t comment_len = int64_t(r.u(at + 32, 2, "central directory entry"));
    uint64_t local = r.u(at + 42, 4, "central directory entry");
    const int64_t var = at + kCentralBytes;
    CT_CHECK(var + name_len + extra_len + comment_len <= dir_end, InvalidArgument,
             op << ": " << where << ": central directory entry " << i << " runs past the directory's end");
    Entry e;
    e.name.assign(bytes + var, size_t(name_len));
    // zip64 extra field: 8-byte values, in this order, for the fields that are 0xFFFFFFFF.
    for (int64_t x = var + name_len; x + 4 <= var + name_len + extra_len;) {
      const uint64_t id = le(bytes + x, 2);
      const int64_t len = int64_t(le(bytes + x + 2, 2));
      CT_CHECK(x + 4 + len <= var + name_len + extra_len, InvalidArgument,
               op << ": " << where << ": entry '" << e.name << "': an extra field runs past its header");
      if (id == 0x0001) {
        int64_t p = x + 4;
        for (uint64_t* field : {&usize, &csize, &local}) {
          if (*field != 0xFFFFFFFFu) continue;
          CT_CHECK(p + 8 <= x + 4 + len, InvalidArgument,
                   op << ": " << where << ": entry '" << e.name << "': its zip64 extra field is too short");
          *field = le(bytes + p, 8);
          p += 8;
        }
      }
      x += 4 + len;
    }
    CT_CHECK((flags & 1) == 0, InvalidArgument, op << ": " << where << ": entry '" << e.name << "' is encrypted");
    CT_CHECK(method == 0, InvalidArgument,
             op << ": " << where << ": entry '" << e.name << "' is compressed (method " << method
                << "): only stored entries are supported, which is what torch.save writes");
    CT_CHECK(csize == usize, InvalidArgument,
             op << ": " << where << ": stored entry '" << e.name << "' has compressed size " << csize
                << " != size " << usize);
    CT_CHECK(local <= uint64_t(size), InvalidArgument,
             op << ": " << where << ": entry '" << e.name << "': local header offset " << local
                << " is past the end of the archive (" << size << " bytes)");
    const int64_t lh = int64_t(local);
    if (r.u(lh, 4, "local header") != kLocalSig) {
      r.fail("entry '" + e.name + "': bad local header signature at byte " + std::to_string(lh));
    }
    const int64_t data = lh + kLocalBytes + int64_t(r.u(lh + 26, 2, "local header")) + int64_t(r.u(lh + 28, 2, "local header"));
    CT_CHECK(data <= dir_limit && usize <= uint64_t(dir_limit - data), InvalidArgument,
             op << ": " << where << ": entry '" << e.name << "': data [" << data << ", " << data << " + " << usize
                << ") reaches past the entries' area (" << dir_limit << " bytes): truncated or corrupt zip");
    e.offset = data;
    e.size = int64_t(usize);
    e.crc = crc;
    CT_CHECK(names.insert(e.name).second, InvalidArgument,
             op << ": " << where << ": entry '" << e.name << "' appears twice");
    out.push_back(std::move(e));
    at = var + name_len + extra_len + comment_len;
  }
  // Entries whose data overlap would let one file byte belong to two storages.
  std::vector<const Entry*> sorted;
  for (const Entry& e : out) {
    if (e.size > 0) sorted.push_back(&e);
  }
  std::sort(sorted.begin(), sorted.end(), [](const Entry* a, const Entry* b) { return a->offset < b->offset; });
  for (size_t k = 1; k < sorted.size(); ++k) {
    CT_CHECK(sorted[k - 1]->offset + sorted[k - 1]->size <= sorted[k]->offset, InvalidArgument,
             op << ": " << where << ": the data of entries '" << sorted[k - 1]->name << "' and '" << sorted[k]->name
                << "' overlap");
  }
  return out;
}

uint32_t crc32(uint32_t crc, const char* p, int64_t n) {
  return uint32_t(::crc32_z(crc, reinterpret_cast<const Bytef*>(p), size_t(n)));
}

namespace {

[[noreturn]] void crc_mismatch(const Entry& e, uint32_t got, const std::string& where, const char* op) {
  auto hex = [](uint32_t v) {
    std::ostringstream s;
    s << "0x" << std::hex << std::setw(8) << std::setfill('0') << v;
    return s.str();
  };
  CT_FAIL(InvalidArgument, op << ": " << where << ": entry '" << e.name << "': CRC-32 mismatch: the archive records "
                              << hex(e.crc) << ", the data has " << hex(got) << " (the file is corrupt)");
}

}  // namespace

void check_crc(const Entry& e, const char* data, const std::string& where, const char* op) {
  if (e.crc == 0) return;  // none recorded (Note [CRC-32 checks])
  const uint32_t got = crc32(0, data, e.size);
  if (got != e.crc) crc_mismatch(e, got, where, op);
}

void copy_checked(const Entry& e, const char* src, char* dst, const std::string& where, const char* op) {
  constexpr int64_t kChunk = int64_t(256) << 10;  // stays in L2 between the copy and the CRC
  uint32_t got = 0;
  for (int64_t at = 0; at < e.size; at += kChunk) {
    const int64_t n = std::min(kChunk, e.size - at);
    std::memcpy(dst + at, src + at, size_t(n));
    if (e.crc != 0) got = crc32(got, dst + at, n);
  }
  if (e.crc != 0 && got != e.crc) crc_mismatch(e, got, where, op);
}

}  // namespace ct::zip
