// A restricted unpickler for the data.pkl of a torch.save archive: exactly what
// torch.load(weights_only=True) accepts for state dicts, and nothing that could run code.
//
// Note [What the restricted unpickler accepts]
// Opcodes (protocol 2, what torch.save writes, plus the protocol 4 string/memo forms):
// PROTO, FRAME, STOP, MARK, NONE, NEWTRUE, NEWFALSE, BININT, BININT1, BININT2, LONG1 (up to
// 8 bytes), BINFLOAT, BINUNICODE, SHORT_BINUNICODE, BINUNICODE8, EMPTY_DICT, EMPTY_LIST,
// EMPTY_TUPLE, TUPLE, TUPLE1-3, DICT, LIST, SETITEM(S), APPEND(S), BINPUT, LONG_BINPUT,
// MEMOIZE, BINGET, LONG_BINGET, GLOBAL, REDUCE, BUILD, BINPERSID.  Any other opcode is
// refused by name and position.  GLOBAL resolves names only; the allowed ones are
// collections.OrderedDict, torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter
// and torch.<X>Storage for the dtypes ctensor has; any other global is refused by name
// before anything is called.  REDUCE "calls" only those, by building values:
//   OrderedDict()                                   an empty ordered dict
//   _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks[, metadata])
//                                                   a tensor on that storage (bounds checked)
//   _rebuild_parameter(tensor, requires_grad, hooks) the tensor, requires_grad set
// BUILD sets a dict's attributes (an OrderedDict state dict carries `_metadata` this way).
// BINPERSID takes ('storage', <X>Storage, key, location, numel): the loader's callback gives
// the storage of data/<key>, made once per key, so tensors that shared a storage in torch
// share one here.  Values live in an arena owned by the result (cycles cost nothing to free).
// Limits (clear errors, never a crash): stack, memo and object counts, MARK nesting, and
// integers of at most 64 bits.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "dtype.h"
#include "ref.h"
#include "storage.h"
#include "tensor.h"

namespace ct::pickle {

enum class Kind : uint8_t { None, Bool, Int, Float, Str, List, Tuple, Dict, Tensor, Storage, Global };
enum class Global : uint8_t { OrderedDict, RebuildTensorV2, RebuildParameter, StorageType };

struct Value {
  Kind kind = Kind::None;
  bool b = false;         // Bool
  bool ordered = false;   // Dict: an OrderedDict
  Global global = Global::OrderedDict;  // Global
  DType dtype = DType::Float32;         // Global StorageType, Storage
  int64_t i = 0;          // Int; Tensor: index in Result::tensors
  double f = 0;           // Float
  std::string s;          // Str; Global: "module.name"
  std::vector<Value*> items;  // List, Tuple: elements; Dict: key, value, key, value, ...
  Value* attrs = nullptr;     // Dict: the state BUILD gave it (a Dict), or nullptr
  Ref<Storage> storage;       // Storage
};

struct Limits {
  int64_t max_stack = 1 << 20;     // values on the stack
  int64_t max_memo = 1 << 22;      // memo slots (BINPUT index + 1)
  int64_t max_objects = 1 << 22;   // values made (about 100 bytes each: under 500 MiB)
  int64_t max_marks = 1000;        // open MARKs (nesting of containers being built)
};

// Gives the storage of data/<key> for a persistent id naming it with dtype and numel.
using StorageSource = std::function<Ref<Storage>(const std::string& key, DType dtype, int64_t numel)>;

struct Result {
  std::deque<Value> arena;
  std::vector<Ref<Tensor>> tensors;  // in the order the pickle built them
  Value* root = nullptr;
};

// Unpickles bytes[0, n).  Messages: "<op>: <where>: <what>" (InvalidArgument; DType for a
// storage type ctensor lacks).
Result load(const char* bytes, int64_t n, const StorageSource& storages, const std::string& where, const char* op,
            const Limits& limits = Limits());

// The global allowed under "module.name", or throws InvalidArgument naming it.
Value resolve_global(const std::string& module, const std::string& name, const std::string& where, const char* op);

}  // namespace ct::pickle
