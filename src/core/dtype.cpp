#include "dtype.h"

namespace ct {

const char* dtype_name(DType d) {
  static const char* const names[kNumDTypes] = {"bool",    "uint8",   "int8",     "int16",   "int32",
                                                "int64",   "float16", "bfloat16", "float32", "float64",
                                                "complex64", "complex128"};
  return names[int(d)];
}

const char* torch_scalar_type_name(DType d) {
  static const char* const names[kNumDTypes] = {"Bool", "Byte",  "Char",     "Short", "Int",
                                                "Long", "Half", "BFloat16", "Float", "Double",
                                                "ComplexFloat", "ComplexDouble"};
  return names[int(d)];
}

DType checked_dtype(int d, const char* op) {
  CT_CHECK(is_valid_dtype(d), DType,
           op << ": invalid dtype " << d << " (expected a ct_dtype value in [0, " << kNumDTypes - 1 << "])");
  return DType(d);
}

}  // namespace ct

namespace ct {

void check_scalar_fits(double v, DType d) {
  static const char* const cpp_names[kNumDTypes] = {"bool",    "uint8_t", "int8_t",     "int16_t", "int",
                                                    "int64_t", "c10::Half", "c10::BFloat16", "float", "double",
                                                    "c10::complex<float>", "c10::complex<double>"};
  double lo = 0, hi = 0;
  switch (d) {
    case DType::Bool:
    case DType::Float64:
    case DType::Complex128: return;
    case DType::Complex64: lo = -3.4028234663852886e+38; hi = 3.4028234663852886e+38; break;
    case DType::UInt8: lo = 0; hi = 255; break;  // a Python float: -1.0 is refused, as torch
    case DType::Int8: lo = -128; hi = 127; break;
    case DType::Int16: lo = -32768; hi = 32767; break;
    case DType::Int32: lo = -2147483648.0; hi = 2147483647.0; break;
    case DType::Int64: lo = -9223372036854775808.0; hi = 9223372036854775807.0; break;
    case DType::Float16: lo = -65504; hi = 65504; break;
    case DType::BFloat16: lo = -3.3895313892515355e+38; hi = 3.3895313892515355e+38; break;
    case DType::Float32: lo = -3.4028234663852886e+38; hi = 3.4028234663852886e+38; break;
  }
  const bool floating = is_floating(d) || is_complex(d);
  const bool fits = floating ? (std::isnan(v) || std::isinf(v) || (v >= lo && v <= hi))
                             : (v >= lo && (d == DType::Int64 ? v < 9223372036854775808.0 : v <= hi));
  CT_CHECK(fits, InvalidArgument, "value cannot be converted to type " << cpp_names[int(d)] << " without overflow");
}

}  // namespace ct

namespace ct {

void fail_not_implemented(DType d, const char* op) {
  CT_CHECK(is_valid_dtype(int(d)), Internal, "unknown dtype " << int(d));
  CT_FAIL(DType, (op ? op : "") << (op ? ": " : "") << "not implemented for '" << torch_scalar_type_name(d)
                                << "' (ctensor's complex dtypes have +, -, *, /, abs, exp, log, sqrt, sin, cos, tanh, "
                                   "sigmoid, pow, ==, sum, mean, prod, var, std, norm, cumsum, cumprod and matmul; "
                                   "this operation has no complex kernel in ctensor yet)");
}

}  // namespace ct
