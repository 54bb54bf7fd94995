// Errors of the core: one exception type carrying a kind (mapped 1:1 to ct_status at the
// C boundary) and a message that names the operation and the values involved.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace ct {

enum class ErrorKind : int {
  InvalidArgument = 1,
  Shape = 2,
  DType = 3,
  Index = 4,
  NotViewable = 5,
  Overlap = 6,
  OutOfMemory = 7,
  ReadOnly = 8,
  Internal = 9,
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

[[noreturn]] inline void raise(ErrorKind kind, const std::string& message) { throw Error(kind, message); }

// Formats a list like PyTorch does: "[2, 3, 4]".
template <class Seq>
std::string list_str(const Seq& seq) {
  std::ostringstream os;
  os << '[';
  bool first = true;
  for (auto v : seq) {
    if (!first) os << ", ";
    os << v;
    first = false;
  }
  os << ']';
  return os.str();
}

}  // namespace ct

// CT_FAIL(Shape, "view(): shape " << x << " is invalid");  builds the message with <<.
// The message is built in a separate cold function (a lambda called at once), so the
// ostringstream and its frame stay out of the hot path of every checking function: a view
// op runs ten or so checks, and an inlined stream costs each one a large stack frame and
// register saves even when the check passes.
#define CT_FAIL(kind, stream_expr)                                      \
  [&]() __attribute__((noinline, cold, noreturn)) {                      \
    std::ostringstream ct_fail_os_;                                      \
    ct_fail_os_ << stream_expr;                                          \
    ::ct::raise(::ct::ErrorKind::kind, ct_fail_os_.str());               \
  }()

#define CT_CHECK(cond, kind, stream_expr)           \
  do {                                              \
    if (__builtin_expect(!(cond), 0)) CT_FAIL(kind, stream_expr); \
  } while (0)
