// File-backed storages (Note [One mapping, many storages] in mapped_file.h).
#include "mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>

#include "error.h"

namespace ct {

namespace {

struct MappedFile {
  std::atomic<int64_t> refs{1};
  void* base = nullptr;  // page-aligned start of the mapping (nullptr for an empty range)
  size_t length = 0;     // bytes mapped
  int64_t base_offset = 0;  // file offset of base
  std::string path;
};

void release_mapping(void* /*data*/, void* ctx) {
  auto* m = static_cast<MappedFile*>(ctx);
  if (m->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (m->base) munmap(m->base, m->length);
  delete m;
}

// Closes a descriptor on every exit path.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

std::string os_error() { return std::strerror(errno); }

}  // namespace

MapMode checked_map_mode(int mode, const char* op) {
  CT_CHECK(mode >= 0 && mode <= 2, InvalidArgument,
           op << ": mode " << mode << " is not CT_FILE_READ_ONLY (0), CT_FILE_COPY_ON_WRITE (1) or CT_FILE_SHARED (2)");
  return static_cast<MapMode>(mode);
}

int64_t regular_file_size(const std::string& path, const char* op) {
  struct stat st;
  CT_CHECK(::stat(path.c_str(), &st) == 0, InvalidArgument, op << ": cannot open '" << path << "': " << os_error());
  CT_CHECK(S_ISREG(st.st_mode), InvalidArgument, op << ": '" << path << "' is not a regular file");
  return int64_t(st.st_size);
}

Ref<Storage> map_file(const std::string& path, int64_t offset, int64_t nbytes, MapMode mode, const char* op) {
  CT_CHECK(offset >= 0, InvalidArgument, op << ": offset " << offset << " is negative (file '" << path << "')");
  Fd f;
  f.fd = ::open(path.c_str(), (mode == MapMode::Shared ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  CT_CHECK(f.fd >= 0, InvalidArgument, op << ": cannot open '" << path << "': " << os_error());
  struct stat st;
  CT_CHECK(::fstat(f.fd, &st) == 0, InvalidArgument, op << ": cannot stat '" << path << "': " << os_error());
  CT_CHECK(S_ISREG(st.st_mode), InvalidArgument, op << ": '" << path << "' is not a regular file");
  const int64_t size = int64_t(st.st_size);
  CT_CHECK(offset <= size, InvalidArgument,
           op << ": offset " << offset << " is past the end of '" << path << "' (" << size << " bytes)");
  if (nbytes < 0) nbytes = size - offset;
  CT_CHECK(nbytes <= size - offset, InvalidArgument,
           op << ": bytes [" << offset << ", " << offset << " + " << nbytes << ") reach past the end of '" << path
              << "' (" << size << " bytes)");

  auto m = std::make_unique<MappedFile>();
  m->path = path;
  char* data = nullptr;
  if (nbytes > 0) {
    const int64_t page = ::sysconf(_SC_PAGESIZE);
    m->base_offset = offset - offset % page;
    m->length = size_t(offset - m->base_offset + nbytes);
    const int prot = mode == MapMode::ReadOnly ? PROT_READ : PROT_READ | PROT_WRITE;
    const int flags = mode == MapMode::CopyOnWrite ? MAP_PRIVATE : MAP_SHARED;
    void* base = ::mmap(nullptr, m->length, prot, flags, f.fd, off_t(m->base_offset));
    CT_CHECK(base != MAP_FAILED, InvalidArgument,
             op << ": cannot map " << nbytes << " bytes of '" << path << "' at offset " << offset << ": " << os_error());
    m->base = base;
    data = static_cast<char*>(base) + (offset - m->base_offset);
  } else {
    m->base_offset = offset;
  }
  MappedFile* raw = m.get();
  Storage* s;
  try {
    s = Storage::wrap(data, nbytes, &release_mapping, raw, mode == MapMode::ReadOnly);
  } catch (...) {
    if (raw->base) munmap(raw->base, raw->length);
    throw;
  }
  m.release();  // the storage owns it now
  return Ref<Storage>::adopt(s);
}

Ref<Storage> cut_mapping(const Storage& whole, int64_t offset, int64_t nbytes, const char* op) {
  CT_CHECK(whole.deleter() == &release_mapping, InvalidArgument, op << ": the storage is not a file mapping");
  CT_CHECK(offset >= 0 && nbytes >= 0 && offset <= whole.nbytes() && nbytes <= whole.nbytes() - offset,
           InvalidArgument,
           op << ": bytes [" << offset << ", " << offset << " + " << nbytes << ") are outside a mapping of "
              << whole.nbytes() << " bytes");
  auto* m = static_cast<MappedFile*>(whole.deleter_ctx());
  m->refs.fetch_add(1, std::memory_order_relaxed);
  try {
    return Ref<Storage>::adopt(Storage::wrap(whole.data() + offset, nbytes, &release_mapping, m, whole.read_only()));
  } catch (...) {
    release_mapping(nullptr, m);
    throw;
  }
}

bool mapped_origin(const Storage& s, std::string* path, int64_t* offset) {
  if (s.deleter() != &release_mapping) return false;
  const auto* m = static_cast<const MappedFile*>(s.deleter_ctx());
  *path = m->path;
  *offset = m->base ? m->base_offset + (s.data() - static_cast<char*>(m->base)) : m->base_offset;
  return true;
}

}  // namespace ct
