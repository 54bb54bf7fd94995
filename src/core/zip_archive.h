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
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ct::zip {

struct Entry {
  std::string name;
  int64_t offset = 0;  // archive offset of the entry's first data byte
  int64_t size = 0;    // bytes of data (stored: compressed size == uncompressed size)
};

// The entries of the archive bytes[0, size), in central-directory order.  `where` names the
// archive in messages ("'model.pt'").  Throws InvalidArgument "<op>: <where>: <what>" for a
// missing or malformed end record, directory or local header, an offset or size past the end,
// a compressed or encrypted entry, entries whose data overlap, or a name given twice.
std::vector<Entry> read_directory(const char* bytes, int64_t size, const std::string& where, const char* op);

}  // namespace ct::zip
