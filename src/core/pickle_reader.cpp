// Restricted unpickler (Note [What the restricted unpickler accepts] in pickle_reader.h).
#include "pickle_reader.h"

#include <cstring>
#include <iomanip>

#include "autograd/meta.h"
#include "shape.h"
#include "error.h"

namespace ct::pickle {

namespace {

struct StorageName {
  const char* name;
  DType dtype;
};
constexpr StorageName kStorages[] = {
    {"FloatStorage", DType::Float32},         {"DoubleStorage", DType::Float64},
    {"HalfStorage", DType::Float16},          {"BFloat16Storage", DType::BFloat16},
    {"LongStorage", DType::Int64},            {"IntStorage", DType::Int32},
    {"ShortStorage", DType::Int16},           {"CharStorage", DType::Int8},
    {"ByteStorage", DType::UInt8},            {"BoolStorage", DType::Bool},
    {"ComplexFloatStorage", DType::Complex64}, {"ComplexDoubleStorage", DType::Complex128},
};

// Names of the opcodes we refuse, for messages (the rest are shown by byte).
const char* refused_name(uint8_t op) {
  switch (op) {
    case 'i': return "INST";
    case 'o': return "OBJ";
    case 0x81: return "NEWOBJ";
    case 0x92: return "NEWOBJ_EX";
    case 'P': return "PERSID";
    case 'S': return "STRING";
    case 'T': return "BINSTRING";
    case 'U': return "SHORT_BINSTRING";
    case 'V': return "UNICODE";
    case 'I': return "INT";
    case 'L': return "LONG";
    case 0x8b: return "LONG4";
    case 'F': return "FLOAT";
    case '0': return "POP";
    case '1': return "POP_MARK";
    case '2': return "DUP";
    case 'g': return "GET";
    case 'p': return "PUT";
    case 'B': return "BINBYTES";
    case 'C': return "SHORT_BINBYTES";
    case 0x8e: return "BINBYTES8";
    case 0x8f: return "EMPTY_SET";
    case 0x90: return "ADDITEMS";
    case 0x91: return "FROZENSET";
    case 0x96: return "BYTEARRAY8";
    case 0x97: return "NEXT_BUFFER";
    case 0x98: return "READONLY_BUFFER";
    case 0x82: return "EXT1";
    case 0x83: return "EXT2";
    case 0x84: return "EXT4";
    default: return nullptr;
  }
}

class Unpickler {
 public:
  Unpickler(const char* bytes, int64_t n, const StorageSource& storages, const std::string& where, const char* op,
            const Limits& limits)
      : p_(bytes), n_(n), storages_(storages), where_(where), op_(op), limits_(limits) {}

  Result run() {
    for (;;) {
      const int64_t at = pos_;
      const uint8_t code = uint8_t(*take(1, "an opcode"));
      at_ = at;
      switch (code) {
        case 0x80: take(1, "PROTO"); break;           // PROTO: any version; opcodes decide
        case 0x95: take(8, "FRAME"); break;           // FRAME: a length hint only
        case '.': return finish();                    // STOP
        case '(': mark(); break;
        case 'N': push(make(Kind::None)); break;
        case 0x88: push(boolean(true)); break;
        case 0x89: push(boolean(false)); break;
        case 'J': push(integer(int32_t(le(take(4, "BININT"), 4)))); break;
        case 'K': push(integer(int64_t(le(take(1, "BININT1"), 1)))); break;
        case 'M': push(integer(int64_t(le(take(2, "BININT2"), 2)))); break;
        case 0x8a: long1(); break;
        case 'G': binfloat(); break;
        case 'X': str(int64_t(le(take(4, "BINUNICODE"), 4))); break;
        case 0x8c: str(int64_t(le(take(1, "SHORT_BINUNICODE"), 1))); break;
        case 0x8d: str8(); break;
        case '}': push(make(Kind::Dict)); break;
        case ']': push(make(Kind::List)); break;
        case ')': push(make(Kind::Tuple)); break;
        case 't': push(sequence(Kind::Tuple, pop_mark())); break;
        case 0x85: case 0x86: case 0x87: push(sequence(Kind::Tuple, pop_n(code - 0x84))); break;
        case 'l': push(sequence(Kind::List, pop_mark())); break;
        case 'd': {
          Value* d = make(Kind::Dict);
          add_items(d, pop_mark());
          push(d);
          break;
        }
        case 's': {
          Value* d = top_below(2, Kind::Dict, "SETITEM");
          add_items(d, pop_n(2));
          break;
        }
        case 'u': {
          auto kv = pop_mark();
          Value* d = top_below(0, Kind::Dict, "SETITEMS");
          add_items(d, std::move(kv));
          break;
        }
        case 'a': {
          auto v = pop_n(1);
          top_below(0, Kind::List, "APPEND")->items.push_back(v[0]);
          break;
        }
        case 'e': {
          auto v = pop_mark();
          Value* l = top_below(0, Kind::List, "APPENDS");
          l->items.insert(l->items.end(), v.begin(), v.end());
          break;
        }
        case 'q': put(int64_t(le(take(1, "BINPUT"), 1))); break;
        case 'r': put(int64_t(le(take(4, "LONG_BINPUT"), 4))); break;
        case 0x94: put(int64_t(memo_.size())); break;  // MEMOIZE
        case 'h': get(int64_t(le(take(1, "BINGET"), 1))); break;
        case 'j': get(int64_t(le(take(4, "LONG_BINGET"), 4))); break;
        case 'c': {
          std::string module = line("GLOBAL"), name = line("GLOBAL");
          push(global(module, name));
          break;
        }
        case 0x93: {  // STACK_GLOBAL
          auto mn = pop_n(2);
          CT_CHECK(mn[0]->kind == Kind::Str && mn[1]->kind == Kind::Str, InvalidArgument,
                   prefix() << "STACK_GLOBAL needs two strings");
          push(global(mn[0]->s, mn[1]->s));
          break;
        }
        case 'R': reduce(); break;
        case 'b': build(); break;
        case 'Q': persistent_load(); break;
        default: {
          const char* name = refused_name(code);
          std::ostringstream hex;
          hex << "0x" << std::hex << std::setw(2) << std::setfill('0') << int(code);
          CT_FAIL(InvalidArgument, prefix() << "opcode " << (name ? name : "") << (name ? " (" : "") << hex.str()
                                            << (name ? ")" : "") << " is not allowed in a weights-only load");
        }
      }
    }
  }

 private:
  std::string prefix() const {
    std::ostringstream os;
    os << op_ << ": " << where_ << ": data.pkl at byte " << at_ << ": ";
    return os.str();
  }

  const char* take(int64_t k, const char* what) {
    CT_CHECK(k >= 0 && k <= n_ - pos_, InvalidArgument,
             op_ << ": " << where_ << ": data.pkl is truncated: " << what << " at byte " << pos_ << " needs " << k
                 << " bytes, " << (n_ - pos_) << " remain");
    const char* r = p_ + pos_;
    pos_ += k;
    return r;
  }
  static uint64_t le(const char* p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | uint8_t(p[i]);
    return v;
  }

  Value* make(Kind k) {
    CT_CHECK(int64_t(result_.arena.size()) < limits_.max_objects, InvalidArgument,
             prefix() << "more than " << limits_.max_objects << " objects (a pickle bomb?)");
    result_.arena.emplace_back();
    Value* v = &result_.arena.back();
    v->kind = k;
    return v;
  }
  Value* boolean(bool b) {
    Value* v = make(Kind::Bool);
    v->b = b;
    return v;
  }
  Value* integer(int64_t i) {
    Value* v = make(Kind::Int);
    v->i = i;
    return v;
  }
  void push(Value* v) {
    CT_CHECK(int64_t(stack_.size()) < limits_.max_stack, InvalidArgument,
             prefix() << "more than " << limits_.max_stack << " values on the stack");
    stack_.push_back(v);
  }
  void mark() {
    CT_CHECK(int64_t(marks_.size()) < limits_.max_marks, InvalidArgument,
             prefix() << "more than " << limits_.max_marks << " nested MARKs (nesting too deep)");
    marks_.push_back(stack_.size());
  }
  std::vector<Value*> pop_mark() {
    CT_CHECK(!marks_.empty(), InvalidArgument, prefix() << "no MARK to pop to");
    const size_t m = marks_.back();
    marks_.pop_back();
    std::vector<Value*> out(stack_.begin() + int64_t(m), stack_.end());
    stack_.resize(m);
    return out;
  }
  std::vector<Value*> pop_n(size_t k) {
    const size_t floor = marks_.empty() ? 0 : marks_.back();
    CT_CHECK(stack_.size() >= floor + k, InvalidArgument, prefix() << "the stack holds too few values");
    std::vector<Value*> out(stack_.end() - int64_t(k), stack_.end());
    stack_.resize(stack_.size() - k);
    return out;
  }
  // The value under the top `skip` values (checked to be of kind k), for SETITEM and APPEND.
  Value* top_below(size_t skip, Kind k, const char* what) {
    const size_t floor = marks_.empty() ? 0 : marks_.back();
    CT_CHECK(stack_.size() >= floor + skip + 1, InvalidArgument, prefix() << what << " with too few values on the stack");
    Value* v = stack_[stack_.size() - skip - 1];
    CT_CHECK(v->kind == k, InvalidArgument,
             prefix() << what << " on a " << kind_name(v->kind) << ", not a " << kind_name(k));
    return v;
  }
  static const char* kind_name(Kind k) {
    switch (k) {
      case Kind::None: return "None";
      case Kind::Bool: return "bool";
      case Kind::Int: return "int";
      case Kind::Float: return "float";
      case Kind::Str: return "str";
      case Kind::List: return "list";
      case Kind::Tuple: return "tuple";
      case Kind::Dict: return "dict";
      case Kind::Tensor: return "tensor";
      case Kind::Storage: return "storage";
      case Kind::Global: return "global";
    }
    return "?";
  }
  Value* sequence(Kind k, std::vector<Value*> items) {
    Value* v = make(k);
    v->items = std::move(items);
    return v;
  }
  void add_items(Value* d, std::vector<Value*> kv) {
    CT_CHECK(kv.size() % 2 == 0, InvalidArgument, prefix() << "an odd number of values for a dict's items");
    d->items.insert(d->items.end(), kv.begin(), kv.end());
  }

  void long1() {
    const int64_t k = int64_t(le(take(1, "LONG1"), 1));
    const char* b = take(k, "LONG1");
    CT_CHECK(k <= 8, InvalidArgument, prefix() << "an integer of " << k << " bytes: ctensor reads at most 64-bit integers");
    uint64_t u = k ? le(b, int(k)) : 0;
    if (k > 0 && k < 8 && (uint8_t(b[k - 1]) & 0x80)) u |= ~uint64_t(0) << (8 * k);  // sign-extend
    push(integer(int64_t(u)));
  }
  void binfloat() {
    const char* b = take(8, "BINFLOAT");
    uint64_t u = 0;
    for (int i = 0; i < 8; ++i) u = (u << 8) | uint8_t(b[i]);  // big-endian
    Value* v = make(Kind::Float);
    std::memcpy(&v->f, &u, 8);
    push(v);
  }
  // UTF-8 as Python decodes BINUNICODE ("utf-8", "surrogatepass": encoded surrogates pass).
  static bool valid_utf8(const unsigned char* p, int64_t n) {
    for (int64_t i = 0; i < n;) {
      const unsigned c = p[i];
      int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
      if (len == 0 || i + len > n) return false;
      uint32_t cp = len == 1 ? c : c & (0x7F >> len);
      for (int k = 1; k < len; ++k) {
        if ((p[i + k] & 0xC0) != 0x80) return false;
        cp = (cp << 6) | (p[i + k] & 0x3F);
      }
      const uint32_t lowest[] = {0, 0, 0x80, 0x800, 0x10000};
      if (cp < lowest[len] || cp > 0x10FFFF) return false;  // overlong or out of range
      i += len;
    }
    return true;
  }
  void str(int64_t len) {
    const char* b = take(len, "a string");
    CT_CHECK(valid_utf8(reinterpret_cast<const unsigned char*>(b), len), InvalidArgument,
             prefix() << "a string of " << len << " bytes is not valid UTF-8");
    Value* v = make(Kind::Str);
    v->s.assign(b, size_t(len));
    push(v);
  }
  void str8() {
    const uint64_t len = le(take(8, "BINUNICODE8"), 8);
    CT_CHECK(len <= uint64_t(n_ - pos_), InvalidArgument,
             op_ << ": " << where_ << ": data.pkl is truncated: a string of " << len << " bytes at byte " << pos_);
    str(int64_t(len));
  }
  std::string line(const char* what) {
    const char* start = p_ + pos_;
    const void* nl = std::memchr(start, '\n', size_t(n_ - pos_));
    CT_CHECK(nl != nullptr, InvalidArgument,
             op_ << ": " << where_ << ": data.pkl is truncated: " << what << " at byte " << at_ << " has no end of line");
    const int64_t len = static_cast<const char*>(nl) - start;
    pos_ += len + 1;
    return std::string(start, size_t(len));
  }

  void put(int64_t i) {
    CT_CHECK(!stack_.empty(), InvalidArgument, prefix() << "memo write with an empty stack");
    CT_CHECK(i < limits_.max_memo, InvalidArgument,
             prefix() << "memo index " << i << " is over the limit of " << limits_.max_memo << " (a memo bomb?)");
    if (int64_t(memo_.size()) <= i) memo_.resize(size_t(i) + 1, nullptr);
    memo_[size_t(i)] = stack_.back();
  }
  void get(int64_t i) {
    CT_CHECK(i < int64_t(memo_.size()) && memo_[size_t(i)] != nullptr, InvalidArgument,
             prefix() << "memo index " << i << " was never written");
    push(memo_[size_t(i)]);
  }

  Value* global(const std::string& module, const std::string& name) {
    Value* v = make(Kind::Global);
    *v = resolve_global(module, name, where_, op_);
    return v;
  }

  int64_t int_arg(const Value* v, const char* what) {
    CT_CHECK(v->kind == Kind::Int, InvalidArgument,
             prefix() << what << " is a " << kind_name(v->kind) << ", not an int");
    return v->i;
  }
  Shape ints(const Value* v, const char* what) {
    CT_CHECK(v->kind == Kind::Tuple || v->kind == Kind::List, InvalidArgument,
             prefix() << what << " is a " << kind_name(v->kind) << ", not a tuple");
    Shape out;
    for (const Value* x : v->items) out.push_back(int_arg(x, what));
    return out;
  }

  void reduce() {
    auto fa = pop_n(2);
    Value* f = fa[0];
    Value* args = fa[1];
    CT_CHECK(f->kind == Kind::Global, InvalidArgument, prefix() << "REDUCE calls a " << kind_name(f->kind));
    CT_CHECK(args->kind == Kind::Tuple, InvalidArgument,
             prefix() << "REDUCE's arguments are a " << kind_name(args->kind) << ", not a tuple");
    const auto& a = args->items;
    switch (f->global) {
      case Global::OrderedDict: {
        CT_CHECK(a.empty(), InvalidArgument, prefix() << "collections.OrderedDict is called with arguments");
        Value* d = make(Kind::Dict);
        d->ordered = true;
        push(d);
        return;
      }
      case Global::RebuildTensorV2: return push(rebuild_tensor(a));
      case Global::RebuildParameter: {
        CT_CHECK(a.size() == 3 && a[0]->kind == Kind::Tensor && a[1]->kind == Kind::Bool, InvalidArgument,
                 prefix() << "torch._utils._rebuild_parameter takes (tensor, requires_grad, hooks)");
        if (a[1]->b) autograd::set_requires_grad(*result_.tensors[size_t(a[0]->i)], true);
        return push(a[0]);
      }
      case Global::StorageType:
        CT_FAIL(InvalidArgument, prefix() << "a storage type (" << f->s << ") is called: weights-only loads "
                                             "take storages only from persistent ids");
    }
  }

  Value* rebuild_tensor(const std::vector<Value*>& a) {
    CT_CHECK(a.size() == 6 || a.size() == 7, InvalidArgument,
             prefix() << "torch._utils._rebuild_tensor_v2 takes 6 or 7 arguments, not " << a.size());
    CT_CHECK(a[0]->kind == Kind::Storage, InvalidArgument,
             prefix() << "torch._utils._rebuild_tensor_v2: the storage is a " << kind_name(a[0]->kind));
    const int64_t offset = int_arg(a[1], "the storage offset");
    const Shape sizes = ints(a[2], "the size");
    const Shape strides = ints(a[3], "the stride");
    CT_CHECK(a[4]->kind == Kind::Bool, InvalidArgument, prefix() << "requires_grad is a " << kind_name(a[4]->kind));
    const Storage& st = *a[0]->storage;
    const DType dt = a[0]->dtype;
    const int64_t isz = itemsize(dt);
    CT_CHECK(sizes.size() == strides.size(), InvalidArgument,
             prefix() << "size " << list_str(sizes) << " and stride " << list_str(strides) << " differ in length");
    CT_CHECK(int64_t(sizes.size()) <= kMaxDims, InvalidArgument,
             prefix() << "a tensor of " << sizes.size() << " dimensions (ctensor has at most " << kMaxDims << ")");
    CT_CHECK(offset >= 0, InvalidArgument, prefix() << "storage offset " << offset << " is negative");
    // The last element's index, overflow-checked: offset + sum((size - 1) * stride).
    bool empty = false;
    __int128 last = offset;
    for (size_t d = 0; d < sizes.size(); ++d) {
      CT_CHECK(sizes[d] >= 0 && strides[d] >= 0, InvalidArgument,
               prefix() << "size " << list_str(sizes) << " or stride " << list_str(strides) << " has a negative value");
      if (sizes[d] == 0) empty = true;
      last += __int128(sizes[d] > 0 ? sizes[d] - 1 : 0) * strides[d];
    }
    checked_numel(sizes, op_);
    if (!empty) {
      CT_CHECK((last + 1) * isz <= st.nbytes(), InvalidArgument,
               prefix() << "a tensor of size " << list_str(sizes) << ", stride " << list_str(strides)
                        << " and storage offset " << offset << " reaches element " << int64_t(last) << " of a storage of "
                        << st.nbytes() / isz << " " << dtype_name(dt) << " elements");
    }
    Value* v = make(Kind::Tensor);
    v->i = int64_t(result_.tensors.size());
    result_.tensors.push_back(Tensor::make(a[0]->storage.get(), dt, sizes, strides, offset, nullptr));
    if (a[4]->b) autograd::set_requires_grad(*result_.tensors.back(), true);
    return v;
  }

  void build() {
    auto sv = pop_n(1);
    Value* state = sv[0];
    CT_CHECK(!stack_.empty() && stack_.size() > (marks_.empty() ? 0 : marks_.back()), InvalidArgument,
             prefix() << "BUILD with an empty stack");
    Value* inst = stack_.back();
    CT_CHECK(inst->kind == Kind::Dict && state->kind == Kind::Dict, InvalidArgument,
             prefix() << "BUILD sets a " << kind_name(state->kind) << " state on a " << kind_name(inst->kind)
                      << ": weights-only loads set only a dict's attributes");
    inst->attrs = state;
  }

  void persistent_load() {
    auto pv = pop_n(1);
    const Value* pid = pv[0];
    CT_CHECK(pid->kind == Kind::Tuple && pid->items.size() == 5 && pid->items[0]->kind == Kind::Str &&
                 pid->items[0]->s == "storage",
             InvalidArgument, prefix() << "a persistent id that is not ('storage', type, key, location, numel)");
    const Value* type = pid->items[1];
    CT_CHECK(type->kind == Kind::Global && type->global == Global::StorageType, InvalidArgument,
             prefix() << "the persistent id's storage type is not a torch.<X>Storage");
    CT_CHECK(pid->items[2]->kind == Kind::Str, InvalidArgument, prefix() << "the persistent id's key is not a str");
    const int64_t numel = int_arg(pid->items[4], "the persistent id's numel");
    CT_CHECK(numel >= 0, InvalidArgument, prefix() << "the persistent id's numel " << numel << " is negative");
    Value* v = make(Kind::Storage);
    v->dtype = type->dtype;
    v->storage = storages_(pid->items[2]->s, type->dtype, numel);
    push(v);
  }

  Result finish() {
    CT_CHECK(marks_.empty() && stack_.size() == 1, InvalidArgument,
             prefix() << "STOP with " << stack_.size() << " values on the stack and " << marks_.size()
                      << " open MARKs");
    result_.root = stack_.back();
    return std::move(result_);
  }

  const char* p_;
  int64_t n_;
  int64_t pos_ = 0;
  int64_t at_ = 0;  // position of the opcode being run, for messages
  const StorageSource& storages_;
  const std::string& where_;
  const char* op_;
  Limits limits_;
  Result result_;
  std::vector<Value*> stack_;
  std::vector<size_t> marks_;
  std::vector<Value*> memo_;
};

}  // namespace

Value resolve_global(const std::string& module, const std::string& name, const std::string& where, const char* op) {
  Value v;
  v.kind = Kind::Global;
  v.s = module + "." + name;
  if (module == "collections" && name == "OrderedDict") {
    v.global = Global::OrderedDict;
    return v;
  }
  if (module == "torch._utils" && name == "_rebuild_tensor_v2") {
    v.global = Global::RebuildTensorV2;
    return v;
  }
  if (module == "torch._utils" && name == "_rebuild_parameter") {
    v.global = Global::RebuildParameter;
    return v;
  }
  if (module == "torch") {
    for (const auto& s : kStorages) {
      if (name == s.name) {
        v.global = Global::StorageType;
        v.dtype = s.dtype;
        return v;
      }
    }
    CT_CHECK(!(name.size() > 7 && name.compare(name.size() - 7, 7, "Storage") == 0), DType,
             op << ": " << where << ": data.pkl: storage type torch." << name << " has no ctensor dtype");
  }
  CT_FAIL(InvalidArgument, op << ": " << where << ": data.pkl: global '" << module << "." << name
                              << "' is not allowed in a weights-only load (allowed: collections.OrderedDict, "
                                 "torch._utils._rebuild_tensor_v2, torch._utils._rebuild_parameter, "
                                 "torch.<X>Storage)");
}

Result load(const char* bytes, int64_t n, const StorageSource& storages, const std::string& where, const char* op,
            const Limits& limits) {
  return Unpickler(bytes, n, storages, where, op, limits).run();
}

}  // namespace ct::pickle
