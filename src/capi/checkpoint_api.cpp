// Files at the boundary: mapped storages and safetensors checkpoints (core/mapped_file.h,
// core/safetensors.h).  A ct_checkpoint handle points at the core Checkpoint itself.
#include <string>
#include <vector>

#include "capi/guard.h"
#include "core/mapped_file.h"
#include "core/safetensors.h"

using namespace ct;
using namespace ct::capi;

struct ct_checkpoint {};

namespace {

const safetensors::Checkpoint& checkpoint_arg(const ct_checkpoint* c, const char* op) {
  const auto* p = reinterpret_cast<const safetensors::Checkpoint*>(c);
  CT_CHECK(p != nullptr, InvalidArgument, op << ": the checkpoint is NULL");
  CT_CHECK(p->magic == safetensors::Checkpoint::kMagic, InvalidArgument,
           op << ": the checkpoint is not a live ct_checkpoint (released?)");
  return *p;
}

ct_checkpoint* to_checkpoint(safetensors::Checkpoint* p) { return reinterpret_cast<ct_checkpoint*>(p); }

const char* path_arg(const char* path, const char* op) {
  CT_CHECK(path != nullptr, InvalidArgument, op << ": path is NULL");
  return path;
}

template <class V>
const V& item(const std::vector<V>& v, int64_t i, const safetensors::Checkpoint& c, const char* op, const char* what) {
  CT_CHECK(i >= 0 && i < int64_t(v.size()), Index,
           op << ": index " << i << " is out of range for the " << v.size() << " " << what << " of " << c.where);
  return v[size_t(i)];
}

}  // namespace

extern "C" {

ct_storage* ct_storage_from_file(const char* path, int64_t offset, int64_t nbytes, ct_file_mode mode) {
  return guard<ct_storage*>(nullptr, [&] {
    const char* op = "ct_storage_from_file";
    int raw;
    std::memcpy(&raw, &mode, sizeof raw);
    return to_handle(map_file(path_arg(path, op), offset, nbytes, checked_map_mode(raw, op), op));
  });
}

ct_checkpoint* ct_safetensors_open(const char* path, ct_file_mode mode) {
  return guard<ct_checkpoint*>(nullptr, [&] {
    const char* op = "ct_safetensors_open";
    int raw;
    std::memcpy(&raw, &mode, sizeof raw);
    return to_checkpoint(safetensors::open_file(path_arg(path, op), raw, op));
  });
}

ct_checkpoint* ct_safetensors_open_memory(const void* bytes, int64_t n) {
  return guard<ct_checkpoint*>(nullptr, [&] {
    return to_checkpoint(safetensors::open_memory(bytes, n, "ct_safetensors_open_memory"));
  });
}

void ct_checkpoint_release(ct_checkpoint* c) {
  auto* p = reinterpret_cast<safetensors::Checkpoint*>(c);
  if (!p || p->magic != safetensors::Checkpoint::kMagic) return;
  p->magic = 0;
  delete p;
}

int64_t ct_checkpoint_count(const ct_checkpoint* c) {
  return guard<int64_t>(-1, [&] { return int64_t(checkpoint_arg(c, "ct_checkpoint_count").header.entries.size()); });
}

const char* ct_checkpoint_name(const ct_checkpoint* c, int64_t i) {
  return guard<const char*>(nullptr, [&] {
    const char* op = "ct_checkpoint_name";
    const auto& k = checkpoint_arg(c, op);
    return item(k.header.entries, i, k, op, "tensors").name.c_str();
  });
}

int64_t ct_checkpoint_find(const ct_checkpoint* c, const char* name) {
  return guard<int64_t>(-1, [&] {
    const char* op = "ct_checkpoint_find";
    const auto& k = checkpoint_arg(c, op);
    CT_CHECK(name != nullptr, InvalidArgument, op << ": name is NULL");
    const int64_t i = k.find(name);
    CT_CHECK(i >= 0, Index, op << ": no tensor named '" << name << "' in " << k.where);
    return i;
  });
}

ct_tensor* ct_checkpoint_tensor(const ct_checkpoint* c, int64_t i) {
  return guard<ct_tensor*>(nullptr, [&] { return to_handle(checkpoint_arg(c, "ct_checkpoint_tensor").tensor(i)); });
}

ct_storage* ct_checkpoint_storage(const ct_checkpoint* c) {
  return guard<ct_storage*>(nullptr, [&] { return to_handle(checkpoint_arg(c, "ct_checkpoint_storage").storage); });
}

int ct_checkpoint_has_metadata(const ct_checkpoint* c) {
  return guard<int>(-1, [&] { return int(checkpoint_arg(c, "ct_checkpoint_has_metadata").header.has_metadata); });
}

int64_t ct_checkpoint_metadata_count(const ct_checkpoint* c) {
  return guard<int64_t>(
      -1, [&] { return int64_t(checkpoint_arg(c, "ct_checkpoint_metadata_count").header.metadata.size()); });
}

const char* ct_checkpoint_metadata_key(const ct_checkpoint* c, int64_t i) {
  return guard<const char*>(nullptr, [&] {
    const char* op = "ct_checkpoint_metadata_key";
    const auto& k = checkpoint_arg(c, op);
    return item(k.header.metadata, i, k, op, "metadata entries").first.c_str();
  });
}

const char* ct_checkpoint_metadata_value(const ct_checkpoint* c, int64_t i) {
  return guard<const char*>(nullptr, [&] {
    const char* op = "ct_checkpoint_metadata_value";
    const auto& k = checkpoint_arg(c, op);
    return item(k.header.metadata, i, k, op, "metadata entries").second.c_str();
  });
}

ct_status ct_safetensors_save(const char* path, int64_t n, const char* const* names, const ct_tensor* const* tensors,
                              int64_t n_metadata, const char* const* keys, const char* const* values, int flags) {
  return guard_status([&] {
    const char* op = "ct_safetensors_save";
    path_arg(path, op);
    CT_CHECK(n >= 0, InvalidArgument, op << ": tensor count " << n << " is negative");
    CT_CHECK(n == 0 || (names && tensors), InvalidArgument, op << ": names or tensors is NULL with " << n << " tensors");
    CT_CHECK(n_metadata <= 0 || (keys && values), InvalidArgument,
             op << ": keys or values is NULL with " << n_metadata << " metadata entries");
    CT_CHECK((flags & ~CT_SAVE_COPY_SHARED) == 0, InvalidArgument, op << ": unknown flags " << flags);
    std::vector<safetensors::SaveItem> items;
    for (int64_t i = 0; i < n; ++i) {
      CT_CHECK(names[i] != nullptr, InvalidArgument, op << ": names[" << i << "] is NULL");
      items.push_back({names[i], &value_arg(tensors[i], op)});
    }
    std::vector<std::pair<std::string, std::string>> metadata;
    for (int64_t i = 0; i < n_metadata; ++i) {
      CT_CHECK(keys[i] && values[i], InvalidArgument, op << ": metadata entry " << i << " has a NULL key or value");
      metadata.emplace_back(keys[i], values[i]);
    }
    safetensors::save_file(path, items, n_metadata >= 0, metadata, (flags & CT_SAVE_COPY_SHARED) != 0, op);
  });
}

}  // extern "C"
