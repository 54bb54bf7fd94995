// The central directory of a zip archive held in memory (a mapping of the file): what
// torch.save writes since PyTorch 1.6.
//
// Note [torch.save's zip archives]
// torch.save writes a zip of STORED (uncompressed) entries "<archive>/data.pkl",
// "<archive>/byteorder", "<archive>/data/<key>" (one per storage), "<archive>/version", ...
// and pads each local header's extra field so that every entry's data starts at a multiple
// of 64 bytes of the file: a storage can be cut from a mapping of the file in place.
// Archives of more than 4 GiB (or 65535 entries) use zip64: an end-of-central-directory
// locator and record before the classic record, and zip64 extra fields (id 0x0001) in
// central headers whose 32-bit sizes or offsets are 0xFFFFFFFF.  Every offset and size read
// here is checked against the archive's size before it is used: a hostile file gives an
// error naming the file and the bad field, never a read past the end.
//
// Note [CRC-32 checks]
// Each entry records the CRC-32 of its data.  Reading checks it only for bytes that are read
// anyway: data.pkl, and a storage that is COPIED (copy mode, a misaligned entry, bytes in
// memory).  A storage mapped in place is not read when the file is opened, so it is not
// checked (checking would read every page of a multi-GiB file at open).  torch.load checks
// neither (PyTorch builds miniz with MINIZ_DISABLE_ZIP_READER_CRC32_CHECKS, and mmap=True cuts
// storages from the mapping by offset).  A recorded CRC of 0 is taken as "none recorded":
// torch.save after torch.serialization.set_crc32_options(False) writes 0 for every entry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ct::zip {

struct Entry {
  std::string name;
  int64_t offset = 0;  // archive offset of the entry's first data byte
  int64_t size = 0;    // bytes of data (stored: compressed size == uncompressed size)
  uint32_t crc = 0;    // the CRC-32 the central directory records for the data
};

// The entries of the archive bytes[0, size), in central-directory order.  `where` names the
// archive in messages ("'model.pt'").  Throws InvalidArgument "<op>: <where>: <what>" for a
// missing or malformed end record, directory or local header, an offset or size past the end,
// a compressed or encrypted entry, entries whose data overlap, or a name given twice.
std::vector<Entry> read_directory(const char* bytes, int64_t size, const std::string& where, const char* op);

// CRC-32 (zlib's, the zip polynomial) of p[0, n), continuing from crc (0 to start).
uint32_t crc32(uint32_t crc, const char* p, int64_t n);

// Throws InvalidArgument "<op>: <where>: entry '<name>': CRC-32 mismatch: the archive records
// 0x<recorded>, the data has 0x<computed> (the file is corrupt)" unless the CRC-32 of data[0,
// e.size) is e.crc or e.crc is 0 (Note [CRC-32 checks]).
void check_crc(const Entry& e, const char* data, const std::string& where, const char* op);
// Copies the entry's data src[0, e.size) to dst and checks its CRC as check_crc does, in one
// pass (each chunk's CRC is taken from the copy while it is still in cache).
void copy_checked(const Entry& e, const char* src, char* dst, const std::string& where, const char* op);

}  // namespace ct::zip
