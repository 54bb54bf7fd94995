// File-backed storages: storages whose bytes are a memory mapping of a file.
//
// Note [One mapping, many storages]
// A MappedFile is one mmap of a byte range of a file, with its own reference count.  Every
// storage cut from it (Storage::wrap with release_mapping as deleter) holds one reference; the
// range is unmapped when the last such storage dies, whichever thread drops it.  The file
// descriptor is closed as soon as the mapping exists (POSIX keeps the mapping valid).
// Modes:
//   ReadOnly     PROT_READ, MAP_SHARED: the storage is read-only (writers fail with
//                CT_ERR_READ_ONLY), and sees later changes others make to the file.
//   CopyOnWrite  PROT_READ|PROT_WRITE, MAP_PRIVATE: writes go to private pages, never to the
//                file; the file needs only read permission.
//   Shared       PROT_READ|PROT_WRITE, MAP_SHARED on a file opened read-write: writes reach
//                the file (the kernel writes them back; msync is the caller's business).
// A file shrunk by someone else after mapping makes reads past its new end fault (SIGBUS), as
// with any mmap: the library cannot prevent that.
#pragma once

#include <cstdint>
#include <string>

#include "ref.h"
#include "storage.h"

namespace ct {

enum class MapMode : int { ReadOnly = 0, CopyOnWrite = 1, Shared = 2 };

// Throws InvalidArgument naming op unless 0 <= mode <= 2.
MapMode checked_map_mode(int mode, const char* op);

// A storage over bytes [offset, offset + nbytes) of the file at path (nbytes < 0: to the end
// of the file).  Errors (InvalidArgument, naming op, the file and strerror for OS failures):
// cannot open or stat the file, not a regular file, a negative offset, a range past the end
// of the file, mmap failure.  Nothing is left mapped or open on an error.
Ref<Storage> map_file(const std::string& path, int64_t offset, int64_t nbytes, MapMode mode, const char* op);

// A storage over bytes [offset, offset + nbytes) of `whole`, a storage made by map_file: it
// shares whole's mapping (one more reference to it) and its read-only flag.  Throws
// InvalidArgument (naming op) if whole is not such a storage or the range is outside it.
Ref<Storage> cut_mapping(const Storage& whole, int64_t offset, int64_t nbytes, const char* op);

// Where a storage's bytes come from, if they are a file mapping made above: the path and the
// file offset of the storage's first byte.
bool mapped_origin(const Storage& s, std::string* path, int64_t* offset);

// Size of the regular file at path; throws as map_file.
int64_t regular_file_size(const std::string& path, const char* op);

}  // namespace ct
