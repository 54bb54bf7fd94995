#include "print_options.h"

#include <cmath>
#include <mutex>

#include "error.h"

namespace ct {
namespace {

// A mutex, not atomics: a repr reads all five together, and setting them is rare.
std::mutex g_mutex;
PrintOptions g_options;

// Largest precision: formatting any double then fits repr's fixed-size number buffer.
constexpr int64_t kMaxPrecision = 64;
// Integral options are exact integers of at most this magnitude (doubles hold them exactly).
constexpr double kMaxIntegral = 9007199254740992.0;  // 2^53

const char* option_name(int option) {
  switch (option) {
    case int(PrintOption::Precision): return "precision";
    case int(PrintOption::Threshold): return "threshold";
    case int(PrintOption::Edgeitems): return "edgeitems";
    case int(PrintOption::Linewidth): return "linewidth";
    case int(PrintOption::SciMode): return "sci_mode";
  }
  return nullptr;
}

const char* checked_name(int option, const char* op) {
  const char* name = option_name(option);
  CT_CHECK(name, InvalidArgument, op << ": unknown print option " << option);
  return name;
}

int64_t integral(double value, const char* name, const char* op, double lo, double hi) {
  CT_CHECK(std::isfinite(value) && value == std::floor(value) && value >= lo && value <= hi, InvalidArgument,
           op << ": " << name << " must be an integer in [" << int64_t(lo) << ", " << int64_t(hi) << "], got "
              << value);
  return int64_t(value);
}

}  // namespace

PrintOptions print_options() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_options;
}

void set_print_option(int option, double value, const char* op) {
  const char* name = checked_name(option, op);
  PrintOptions next = print_options();
  switch (PrintOption(option)) {
    case PrintOption::Precision: next.precision = integral(value, name, op, 0, kMaxPrecision); break;
    case PrintOption::Threshold:
      // torch compares numel > threshold with any number, inf included; NaN would compare
      // false everywhere and so silently mean "never", which nobody asks for on purpose.
      CT_CHECK(!std::isnan(value), InvalidArgument, op << ": threshold must be a number, got nan");
      next.threshold = value;
      break;
    case PrintOption::Edgeitems: next.edgeitems = integral(value, name, op, 0, kMaxIntegral); break;
    case PrintOption::Linewidth: next.linewidth = integral(value, name, op, -kMaxIntegral, kMaxIntegral); break;
    case PrintOption::SciMode: next.sci_mode = int(integral(value, name, op, -1, 1)); break;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  // One option changes; a concurrent setter of another option is not lost.
  switch (PrintOption(option)) {
    case PrintOption::Precision: g_options.precision = next.precision; break;
    case PrintOption::Threshold: g_options.threshold = next.threshold; break;
    case PrintOption::Edgeitems: g_options.edgeitems = next.edgeitems; break;
    case PrintOption::Linewidth: g_options.linewidth = next.linewidth; break;
    case PrintOption::SciMode: g_options.sci_mode = next.sci_mode; break;
  }
}

double get_print_option(int option, const char* op) {
  checked_name(option, op);
  const PrintOptions o = print_options();
  switch (PrintOption(option)) {
    case PrintOption::Precision: return double(o.precision);
    case PrintOption::Threshold: return o.threshold;
    case PrintOption::Edgeitems: return double(o.edgeitems);
    case PrintOption::Linewidth: return double(o.linewidth);
    case PrintOption::SciMode: return double(o.sci_mode);
  }
  return 0;  // not reached: checked_name refused the others
}

}  // namespace ct
