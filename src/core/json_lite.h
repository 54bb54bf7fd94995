// A strict JSON reader for exactly what file headers need (safetensors): RFC 8259 syntax,
// valid UTF-8, no duplicate keys in an object, a nesting limit, integers kept as text so that
// the caller decides their range.  Not a general-purpose library: no floats are converted,
// no writer (json_string() below escapes one string the way serde_json does).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ct::json {

struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  std::string text;  // String: the decoded UTF-8; Number: the literal as written
  std::vector<Value> items;                          // Array
  // Object members in file order: keys[i] names values[i] (two vectors, not pairs: a pair
  // would need Value complete here, and only vector allows an incomplete element type)
  std::vector<std::string> keys;
  std::vector<Value> values;
};

// Deepest nesting of arrays and objects accepted: a header nests three deep; a "depth bomb"
// of ten thousand '[' would otherwise recurse until the stack is gone.
constexpr int kMaxDepth = 64;

// Parses text[0..n).  On failure throws ct::Error(InvalidArgument) with "`what`: <reason> at
// byte <k>".  Leading and trailing whitespace (space, tab, CR, LF) is allowed, anything else
// after the value is "trailing characters".
Value parse(const char* text, size_t n, const std::string& what);

// Kind names for messages: "null", "a boolean", ...
const char* kind_name(Value::Kind k);

// A non-negative integer literal ("0", "42"; no sign, fraction or exponent) as uint64;
// false if it is not one or exceeds `max`.
bool as_uint(const Value& v, uint64_t max, uint64_t* out);

// Appends s as a JSON string literal with serde_json's escapes: \" \\ \b \f \n \r \t, other
// control characters as \u00XX, everything else (UTF-8 included) as is.
void append_string(std::string& out, const std::string& s);

}  // namespace ct::json
