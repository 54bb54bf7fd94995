// The strict JSON reader of json_lite.h: a recursive-descent parser over a byte range.
#include "json_lite.h"

#include <cctype>
#include <cstring>

#include "error.h"

namespace ct::json {

namespace {

class Parser {
 public:
  Parser(const char* p, size_t n, const std::string& what) : p_(p), n_(n), what_(what) {}

  Value document() {
    skip_space();
    Value v = value(0);
    skip_space();
    if (i_ != n_) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    CT_FAIL(InvalidArgument, what_ << ": " << why << " at byte " << i_);
  }
  bool at_end() const { return i_ >= n_; }
  unsigned char peek() const { return static_cast<unsigned char>(p_[i_]); }

  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++i_;
  }

  void expect(char c, const char* why) {
    if (at_end() || p_[i_] != c) fail(why);
    ++i_;
  }

  Value value(int depth) {
    if (at_end()) fail("EOF while parsing a value");
    Value v;
    switch (p_[i_]) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"': v.kind = Value::Kind::String; v.text = string(); return v;
      case 't': literal("true"); v.kind = Value::Kind::Bool; v.boolean = true; return v;
      case 'f': literal("false"); v.kind = Value::Kind::Bool; return v;
      case 'n': literal("null"); return v;
      default:
        if (p_[i_] == '-' || (p_[i_] >= '0' && p_[i_] <= '9')) {
          v.kind = Value::Kind::Number;
          v.text = number();
          return v;
        }
        fail("expected value");
    }
  }

  void literal(const char* word) {
    const size_t len = std::strlen(word);
    if (n_ - i_ < len || std::memcmp(p_ + i_, word, len) != 0) fail("expected value");
    i_ += len;
  }

  std::string number() {
    const size_t start = i_;
    if (peek() == '-') ++i_;
    if (at_end() || !std::isdigit(peek())) fail("invalid number");
    if (peek() == '0') {
      ++i_;
    } else {
      while (!at_end() && std::isdigit(peek())) ++i_;
    }
    if (!at_end() && peek() == '.') {
      ++i_;
      if (at_end() || !std::isdigit(peek())) fail("invalid number");
      while (!at_end() && std::isdigit(peek())) ++i_;
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      ++i_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++i_;
      if (at_end() || !std::isdigit(peek())) fail("invalid number");
      while (!at_end() && std::isdigit(peek())) ++i_;
    }
    return std::string(p_ + start, i_ - start);
  }

  unsigned hex4() {
    if (n_ - i_ < 4) fail("unexpected end of hex escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = p_[i_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
      else fail("invalid escape");
    }
    return v;
  }

  static void put_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  // The input was checked to be valid UTF-8 as a whole (parse()), so raw bytes copy as is.
  std::string string() {
    ++i_;  // the opening quote
    std::string out;
    for (;;) {
      if (at_end()) fail("EOF while parsing a string");
      const unsigned char c = peek();
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c < 0x20) fail("control character (\\u0000-\\u001F) found while parsing a string");
      if (c != '\\') {
        out += char(c);
        ++i_;
        continue;
      }
      ++i_;
      if (at_end()) fail("EOF while parsing a string");
      const char e = p_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xDC00 && cp <= 0xDFFF) fail("lone trailing surrogate in hex escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (n_ - i_ < 2 || p_[i_] != '\\' || p_[i_ + 1] != 'u') fail("lone leading surrogate in hex escape");
            i_ += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("lone leading surrogate in hex escape");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          put_utf8(out, cp);
          break;
        }
        default: --i_; fail("invalid escape");
      }
    }
  }

  Value array(int depth) {
    if (depth > kMaxDepth) fail("recursion limit exceeded (more than " + std::to_string(kMaxDepth) + " levels)");
    ++i_;
    Value v;
    v.kind = Value::Kind::Array;
    skip_space();
    if (!at_end() && peek() == ']') {
      ++i_;
      return v;
    }
    for (;;) {
      skip_space();
      v.items.push_back(value(depth));
      skip_space();
      if (at_end()) fail("EOF while parsing a list");
      if (peek() == ']') {
        ++i_;
        return v;
      }
      expect(',', "expected `,` or `]`");
    }
  }

  Value object(int depth) {
    if (depth > kMaxDepth) fail("recursion limit exceeded (more than " + std::to_string(kMaxDepth) + " levels)");
    ++i_;
    Value v;
    v.kind = Value::Kind::Object;
    skip_space();
    if (!at_end() && peek() == '}') {
      ++i_;
      return v;
    }
    for (;;) {
      skip_space();
      if (at_end()) fail("EOF while parsing an object");
      if (peek() != '"') fail("key must be a string");
      const size_t key_at = i_;
      std::string key = string();
      for (const auto& k : v.keys) {
        if (k == key) {
          i_ = key_at;
          fail("duplicate key \"" + key + "\"");
        }
      }
      skip_space();
      expect(':', "expected `:`");
      skip_space();
      Value member = value(depth);
      v.keys.push_back(std::move(key));
      v.values.push_back(std::move(member));
      skip_space();
      if (at_end()) fail("EOF while parsing an object");
      if (peek() == '}') {
        ++i_;
        return v;
      }
      expect(',', "expected `,` or `}`");
    }
  }

  const char* p_;
  size_t n_;
  size_t i_ = 0;
  const std::string& what_;
};

// Index of the first byte that is not part of valid UTF-8 (overlongs, surrogates and code
// points past U+10FFFF are invalid, as in Rust's str), or n if all are valid.
size_t first_invalid_utf8(const unsigned char* s, size_t n) {
  size_t i = 0;
  while (i < n) {
    const unsigned c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if (c == 0xED) { len = 3; hi = 0x9F; }
    else if (c >= 0xE1 && c <= 0xEF) len = 3;
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c == 0xF4) { len = 4; hi = 0x8F; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else return i;
    if (n - i < len) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (size_t k = 2; k < len; ++k)
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    i += len;
  }
  return n;
}

}  // namespace

Value parse(const char* text, size_t n, const std::string& what) {
  const size_t bad = first_invalid_utf8(reinterpret_cast<const unsigned char*>(text), n);
  CT_CHECK(bad == n, InvalidArgument, what << ": invalid UTF-8 at byte " << bad);
  return Parser(text, n, what).document();
}

const char* kind_name(Value::Kind k) {
  switch (k) {
    case Value::Kind::Null: return "null";
    case Value::Kind::Bool: return "a boolean";
    case Value::Kind::Number: return "a number";
    case Value::Kind::String: return "a string";
    case Value::Kind::Array: return "an array";
    case Value::Kind::Object: return "an object";
  }
  return "?";
}

bool as_uint(const Value& v, uint64_t max, uint64_t* out) {
  if (v.kind != Value::Kind::Number || v.text.empty() || v.text.size() > 20) return false;
  uint64_t r = 0;
  for (char c : v.text) {
    if (c < '0' || c > '9') return false;
    if (__builtin_mul_overflow(r, uint64_t(10), &r) || __builtin_add_overflow(r, uint64_t(c - '0'), &r)) return false;
  }
  if (r > max) return false;
  *out = r;
  return true;
}

void append_string(std::string& out, const std::string& s) {
  static const char kHex[] = "0123456789abcdef";
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += char(c);
        }
    }
  }
  out += '"';
}

}  // namespace ct::json
