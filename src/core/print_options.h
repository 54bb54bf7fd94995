// torch.set_printoptions: how repr() lays out a tensor.  Process-wide, as torch's PRINT_OPTS.
#pragma once

#include <cstdint>

namespace ct {

struct PrintOptions {
  int64_t precision = 4;    // digits after the point (fixed) or of the mantissa (scientific)
  double threshold = 1000;  // more elements than this: summarized (infinity: never)
  int64_t edgeitems = 3;    // entries kept at each end of a summarized dim
  int64_t linewidth = 80;   // characters a line may hold before entries wrap
  int sci_mode = -1;        // -1: chosen from the values, 0: never, 1: always
};

// Which option set_print_option / get_print_option address (the numbers are ct_print_option's).
enum class PrintOption : int { Precision = 0, Threshold = 1, Edgeitems = 2, Linewidth = 3, SciMode = 4 };

// A consistent copy of all options (one repr uses one copy).
PrintOptions print_options();
// Checks value for the option (op names the caller in messages) and sets it; throws
// InvalidArgument for an unknown option or a value it cannot take.
void set_print_option(int option, double value, const char* op);
double get_print_option(int option, const char* op);

}  // namespace ct
