// Process-wide defaults torch keeps as module state: ct_set_default_dtype / ct_get_default_dtype
// (torch.set_default_dtype) and ct_set_print_option / ct_get_print_option (torch.set_printoptions).
#include <cmath>
#include <cstring>

#include "capi/guard.h"
#include "core/default_dtype.h"
#include "core/print_options.h"

using namespace ct;
using namespace ct::capi;

namespace {
// A ct_print_option from C, read as raw bits (any int may arrive; see dtype_arg).
int option_arg(const ct_print_option& o) {
  int raw;
  static_assert(sizeof(raw) == sizeof(o), "ct_print_option is int-sized");
  std::memcpy(&raw, &o, sizeof raw);
  return raw;
}
}  // namespace

extern "C" {

ct_status ct_set_default_dtype(ct_dtype dtype) {
  return guard_status([&] { set_default_float_dtype(dtype_arg(dtype, "ct_set_default_dtype"), "ct_set_default_dtype"); });
}

ct_dtype ct_get_default_dtype(void) { return static_cast<ct_dtype>(default_float_dtype()); }

ct_status ct_set_print_option(ct_print_option option, double value) {
  return guard_status([&] { set_print_option(option_arg(option), value, "ct_set_print_option"); });
}

double ct_get_print_option(ct_print_option option) {
  return guard<double>(std::nan(""), [&] { return get_print_option(option_arg(option), "ct_get_print_option"); });
}

}  // extern "C"
