// torch.save archives (Note [torch.save archives in ctensor] in torch_checkpoint.h).
#include "torch_checkpoint.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "error.h"
#include "json_lite.h"
#include "mapped_file.h"
#include "pickle_reader.h"
#include "zip_archive.h"

namespace ct::torchpt {

Ref<Tensor> Checkpoint::tensor(int64_t i) const {
  CT_CHECK(i >= 0 && i < count(), Index,
           "checkpoint_tensor: index " << i << " is out of range for " << where << " with " << count() << " tensors");
  return tensors[size_t(i)];
}

int64_t Checkpoint::find(const std::string& n) const {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == n) return int64_t(i);
  }
  return -1;
}

Ref<Storage> Checkpoint::whole_storage(const char* op) const {
  CT_FAIL(InvalidArgument, op << ": " << where << " is a PyTorch checkpoint with " << storages
                              << " storages, not one: take them from its tensors");
}

namespace {

using pickle::Kind;
using pickle::Value;

// Walks the unpickled object once, writing the structure and the flat lists.
class Flattener {
 public:
  Flattener(Checkpoint& c, const pickle::Result& r, const char* op) : c_(c), r_(r), op_(op) {}

  void run() {
    std::string out;
    node(r_.root, "", 0, false, out);
    c_.json = std::move(out);
  }

 private:
  void node(const Value* v, const std::string& path, int depth, bool in_attrs, std::string& out) {
    CT_CHECK(++visited_ <= kMaxNodes, InvalidArgument,
             op_ << ": " << c_.where << ": the saved object unfolds to more than " << kMaxNodes
                 << " values (containers shared over and over: a memo bomb?)");
    CT_CHECK(depth <= kMaxDepth, InvalidArgument,
             op_ << ": " << c_.where << ": containers nest deeper than " << kMaxDepth << " levels (at '" << path << "')");
    switch (v->kind) {
      case Kind::None: out += "null"; return leaf(path, "null", in_attrs);
      case Kind::Bool: out += v->b ? "true" : "false"; return leaf(path, v->b ? "true" : "false", in_attrs);
      case Kind::Int: {
        const std::string s = std::to_string(v->i);
        out += s;
        return leaf(path, s, in_attrs);
      }
      case Kind::Float: {
        const std::string s = float_text(v->f);
        out += s;
        return leaf(path, s, in_attrs);
      }
      case Kind::Str: {
        std::string s;
        json::append_string(s, v->s);
        out += s;
        return leaf(path, s, in_attrs);
      }
      case Kind::Tensor: {
        CT_CHECK(!in_attrs, InvalidArgument,
                 op_ << ": " << c_.where << ": a tensor inside a dict's attributes is not supported");
        auto it = first_entry_.find(v->i);
        if (it == first_entry_.end()) it = first_entry_.emplace(v->i, int64_t(c_.names.size())).first;
        c_.names.push_back(path);
        c_.tensors.push_back(r_.tensors[size_t(v->i)]);
        out += "{\"tensor\": " + std::to_string(it->second) + "}";
        return;
      }
      case Kind::Storage:
      case Kind::Global:
        CT_FAIL(InvalidArgument, op_ << ": " << c_.where << ": a bare " << (v->kind == Kind::Storage ? "storage" : "global")
                                     << " at '" << path << "' is not supported (weights-only loads hold tensors)");
      case Kind::List:
      case Kind::Tuple:
      case Kind::Dict:
        break;
    }
    CT_CHECK(on_path_.insert(v).second, InvalidArgument,
             op_ << ": " << c_.where << ": a container contains itself (at '" << path << "')");
    if (v->kind == Kind::Dict) {
      out += v->ordered ? "{\"odict\": [" : "{\"dict\": [";
      for (size_t k = 0; k + 1 < v->items.size(); k += 2) {
        if (k) out += ", ";
        out += "[";
        std::string key;
        node(v->items[k], path, depth + 1, true, key);  // keys: JSON only, no entries
        out += key + ", ";
        const std::string seg = v->items[k]->kind == Kind::Str ? v->items[k]->s : key;
        node(v->items[k + 1], join(path, seg), depth + 1, in_attrs, out);
        out += "]";
      }
      out += "]";
      if (v->attrs) {
        out += ", \"attrs\": ";
        node(v->attrs, path, depth + 1, true, out);
      }
      out += "}";
    } else {
      out += v->kind == Kind::List ? "{\"list\": [" : "{\"tuple\": [";
      for (size_t k = 0; k < v->items.size(); ++k) {
        if (k) out += ", ";
        node(v->items[k], join(path, std::to_string(k)), depth + 1, in_attrs, out);
      }
      out += "]}";
    }
    on_path_.erase(v);
  }

  void leaf(const std::string& path, const std::string& text, bool in_attrs) {
    if (!in_attrs) c_.leaves.emplace_back(path, text);
  }
  static std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }
  // Python's json: repr digits, NaN, Infinity, -Infinity; a float always shows a '.' or 'e'.
  static std::string float_text(double f) {
    if (std::isnan(f)) return "NaN";
    if (std::isinf(f)) return f > 0 ? "Infinity" : "-Infinity";
    char buf[40];
    for (int prec = 1; prec <= 17; ++prec) {  // the shortest text that reads back exactly
      std::snprintf(buf, sizeof buf, "%.*g", prec, f);
      if (std::strtod(buf, nullptr) == f) break;
    }
    std::string s = buf;
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
  }

  Checkpoint& c_;
  const pickle::Result& r_;
  const char* op_;
  int64_t visited_ = 0;
  std::unordered_set<const Value*> on_path_;
  std::unordered_map<int64_t, int64_t> first_entry_;  // tensor object -> its first entry
};

// Loads from `whole` (the file's bytes: a mapping when cut is true, else owned memory whose
// storages are copied out).
Checkpoint* load(std::unique_ptr<Checkpoint> c, Ref<Storage> whole, bool cut, const char* op) {
  const char* bytes = whole->data();
  const int64_t size = whole->nbytes();
  // torch.save(..., _use_new_zipfile_serialization=False) writes bare pickles, starting PROTO.
  CT_CHECK(!(size >= 2 && uint8_t(bytes[0]) == 0x80 && bytes[1] >= 2 && bytes[1] <= 5), InvalidArgument,
           op << ": " << c->where << ": this is torch's legacy format (_use_new_zipfile_serialization=False, "
                 "before PyTorch 1.6), which ctensor does not read: save it again with torch.save's defaults");
  const std::vector<zip::Entry> entries = zip::read_directory(bytes, size, c->where, op);
  CT_CHECK(!entries.empty(), InvalidArgument, op << ": " << c->where << ": the archive is empty");
  const std::string& first = entries[0].name;
  const size_t slash = first.find('/');
  CT_CHECK(slash != std::string::npos, InvalidArgument,
           op << ": " << c->where << ": entry '" << first << "' is not inside a folder: not a torch.save archive");
  const std::string prefix = first.substr(0, slash + 1);
  std::map<std::string, const zip::Entry*> by_name;
  for (const zip::Entry& e : entries) by_name[e.name] = &e;
  auto entry = [&](const std::string& n) -> const zip::Entry* {
    auto it = by_name.find(prefix + n);
    return it == by_name.end() ? nullptr : it->second;
  };
  if (const zip::Entry* bo = entry("byteorder")) {
    const std::string order(bytes + bo->offset, size_t(bo->size));
    CT_CHECK(order != "big", InvalidArgument,
             op << ": " << c->where << ": the file was saved on a big-endian machine (byteorder 'big'): "
                   "ctensor reads little-endian checkpoints only");
    CT_CHECK(order == "little", InvalidArgument,
             op << ": " << c->where << ": byteorder is '" << order << "', not 'little' or 'big'");
  }
  const zip::Entry* pkl = entry("data.pkl");
  CT_CHECK(pkl != nullptr, InvalidArgument,
           op << ": " << c->where << ": no " << prefix << "data.pkl: not a torch.save archive");

  zip::check_crc(*pkl, bytes + pkl->offset, c->where, op);
  std::unordered_map<std::string, Ref<Storage>> made;
  pickle::StorageSource source = [&](const std::string& key, DType dtype, int64_t numel) -> Ref<Storage> {
    const int64_t isz = itemsize(dtype);
    CT_CHECK(numel <= INT64_MAX / isz, InvalidArgument,
             op << ": " << c->where << ": storage '" << key << "' declares " << numel << " elements (too many)");
    const int64_t nbytes = numel * isz;
    auto it = made.find(key);
    if (it == made.end()) {
      const zip::Entry* e = entry("data/" + key);
      CT_CHECK(e != nullptr, InvalidArgument,
               op << ": " << c->where << ": storage '" << key << "' has no entry " << prefix << "data/" << key);
      CT_CHECK(e->size == nbytes, InvalidArgument,
               op << ": " << c->where << ": storage '" << key << "' holds " << e->size << " bytes, but data.pkl declares "
                  << numel << " " << dtype_name(dtype) << " elements (" << nbytes << " bytes)");
      Ref<Storage> s;
      if (cut && e->offset % 64 == 0) {
        s = cut_mapping(*whole, e->offset, e->size, op);
      } else {
        s = Ref<Storage>::adopt(Storage::allocate(e->size, op));
        zip::copy_checked(*e, bytes + e->offset, s->data(), c->where, op);  // Note [CRC-32 checks]
      }
      it = made.emplace(key, std::move(s)).first;
    }
    CT_CHECK(it->second->nbytes() == nbytes, InvalidArgument,
             op << ": " << c->where << ": storage '" << key << "' holds " << it->second->nbytes()
                << " bytes, but data.pkl declares " << numel << " " << dtype_name(dtype) << " elements (" << nbytes
                << " bytes)");
    return it->second;
  };
  const pickle::Result r = pickle::load(bytes + pkl->offset, pkl->size, source, c->where, op);
  c->storages = int64_t(made.size());
  Flattener(*c, r, op).run();
  return c.release();
}

}  // namespace

Checkpoint* open_file(const std::string& path, int mode, const char* op) {
  CT_CHECK(mode >= 0 && mode <= 3, InvalidArgument,
           op << ": mode " << mode
              << " is not CT_FILE_READ_ONLY (0), CT_FILE_COPY_ON_WRITE (1), CT_FILE_SHARED (2) or CT_FILE_COPY (3)");
  auto c = std::make_unique<Checkpoint>();
  c->where = "'" + path + "'";
  const bool copy = mode == 3;
  Ref<Storage> whole = map_file(path, 0, -1, copy ? MapMode::ReadOnly : static_cast<MapMode>(mode), op);
  return load(std::move(c), std::move(whole), !copy, op);
}

Checkpoint* open_memory(const void* bytes, int64_t n, const char* op) {
  CT_CHECK(n >= 0, InvalidArgument, op << ": byte count " << n << " is negative");
  CT_CHECK(bytes != nullptr || n == 0, InvalidArgument, op << ": bytes is NULL but the count is " << n);
  auto c = std::make_unique<Checkpoint>();
  c->where = "<memory>";
  Ref<Storage> whole = Ref<Storage>::adopt(Storage::allocate(n, op));
  if (n > 0) std::memcpy(whole->data(), bytes, size_t(n));
  return load(std::move(c), std::move(whole), false, op);
}

}  // namespace ct::torchpt
