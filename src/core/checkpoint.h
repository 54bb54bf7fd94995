// What a ct_checkpoint handle points at: an open checkpoint file of either format (a
// safetensors file, safetensors.h; a torch.save archive, torch_checkpoint.h), seen through
// one interface: named tensors, string metadata, and the nesting of the saved object.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ref.h"
#include "storage.h"
#include "tensor.h"

namespace ct {

class Checkpoint {
 public:
  static constexpr uint32_t kMagic = 0x5afe7e45u;
  uint32_t magic = kMagic;  // cleared on release, so a stale handle is recognised
  std::string where;        // the file, quoted, for messages ("'model.pt'", "<memory>")

  virtual ~Checkpoint() = default;
  virtual int64_t count() const = 0;
  virtual const std::string& name(int64_t i) const = 0;  // i checked by the caller
  virtual Ref<Tensor> tensor(int64_t i) const = 0;       // i checked here
  virtual int64_t find(const std::string& name) const = 0;  // index, or -1
  // The one storage holding the whole file; throws InvalidArgument for formats without one.
  virtual Ref<Storage> whole_storage(const char* op) const = 0;
  virtual bool has_metadata() const = 0;
  virtual const std::vector<std::pair<std::string, std::string>>& metadata() const = 0;
  // JSON text of the saved object's nesting, tensors as {"tensor": i} (torch_checkpoint.h).
  virtual const std::string& structure() const = 0;
};

}  // namespace ct
