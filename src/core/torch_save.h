// Writing PyTorch checkpoints: the zip archive torch.save writes, for the objects
// ct_torch_load reads, so that torch.load(weights_only=True) gives the same nesting, values
// and storage sharing.
//
// Note [What torch_save writes]
// The object is given as the JSON structure ct_checkpoint_structure describes (dict, odict
// with attrs, list, tuple, {"tensor": i}, null, booleans, integers of 64 bits, finite floats,
// strings), with tensors[i] for {"tensor": i}; the same i twice is one tensor object (a memo
// reference in the pickle).  Every distinct storage of the tensors is written once, whole
// (data/<key>, keys "0", "1", ... in order of first use, each entry's data aligned to 64 bytes
// as torch does), and each tensor as _rebuild_tensor_v2(storage, offset, size, stride,
// requires_grad, OrderedDict()): tensors that share a storage share it after torch.load.
// Archive layout as torch.save 2.x: archive/data.pkl (pickle protocol 2), .format_version,
// .storage_alignment, byteorder ("little"), data/<key>, version ("3"), with zip64 end records
// (as torch always writes them) and zip64 fields for entries past 4 GiB; CRC-32 of every entry
// (zlib's).  A regular file gets holes for all-zero 64 KiB blocks of storage data (Note [Holes
// for zero blocks] in torch_save.cpp).
#pragma once

#include <string>
#include <vector>

#include "tensor.h"

namespace ct::torchpt {

// Writes to the file at path (created or truncated; a failure removes it).  Throws
// InvalidArgument naming op for malformed JSON or an unsupported node, a tensor index out of
// range, two tensors of different dtypes on one storage (torch refuses those too), a storage
// whose byte size is not a multiple of its tensors' itemsize, or an OS error.
void save_file(const std::string& path, const std::string& structure, const std::vector<const Tensor*>& tensors,
               const char* op);

}  // namespace ct::torchpt
