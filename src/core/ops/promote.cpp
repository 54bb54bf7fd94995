#include "core/ops/promote.h"

#include "core/default_dtype.h"

namespace ct {
namespace {

int category(DType d) { return d == DType::Bool ? 0 : is_complex(d) ? 3 : is_floating(d) ? 2 : 1; }

// torch's toComplexType for the floating dtype of a higher-priority operand met by a complex
// one: float16 would give complex32, a dtype ctensor does not have.
DType complex_for(DType floating) {
  CT_CHECK(floating != DType::Float16, DType,
           "promotion of Half with a complex operand gives ComplexHalf (complex32), a dtype ctensor does not have");
  return complex_of(floating);
}

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  const int ca = category(a), cb = category(b);
  if (ca == 3 || cb == 3) {  // complex: the wider of the complex one and the other's precision
    const DType c = ca == 3 ? a : b, other = ca == 3 ? b : a;
    return c == DType::Complex128 || other == DType::Float64 || other == DType::Complex128 ? DType::Complex128
                                                                                           : DType::Complex64;
  }
  if (ca != cb) return ca > cb ? a : b;
  if (ca == 2) {  // floating: float16 with bfloat16 meet at float32, else the wider
    if ((a == DType::Float16 && b == DType::BFloat16) || (a == DType::BFloat16 && b == DType::Float16)) {
      return DType::Float32;
    }
    return itemsize(a) > itemsize(b) ? a : b;
  }
  // integers: uint8 with a signed type needs a signed type wider than 8 bits
  if (a == DType::UInt8 || b == DType::UInt8) {
    const DType other = a == DType::UInt8 ? b : a;
    return other == DType::Int8 ? DType::Int16 : other;
  }
  return itemsize(a) >= itemsize(b) ? a : b;
}

DType result_type(std::span<const OperandType> operands) {
  // One running dtype per priority class, as torch's ResultTypeState.
  bool have[3] = {false, false, false};
  DType state[3] = {DType::Bool, DType::Bool, DType::Bool};
  for (const OperandType& op : operands) {
    int cls;
    DType d = op.dtype;
    switch (op.kind) {
      case OperandKind::Dimensioned: cls = 0; break;
      case OperandKind::ZeroDim: cls = 1; break;
      case OperandKind::PythonFloat: cls = 2; d = default_float_dtype(); break;
      case OperandKind::PythonComplex:  // torch's default complex dtype
        cls = 2;
        d = default_float_dtype() == DType::Float64 ? DType::Complex128 : DType::Complex64;
        break;
      case OperandKind::PythonInt: cls = 2; d = DType::Int64; break;
      case OperandKind::PythonBool: cls = 2; d = DType::Bool; break;
      default: cls = 0;
    }
    state[cls] = have[cls] ? promote_types(state[cls], d) : d;
    have[cls] = true;
  }
  // Combine from the lowest priority up: a higher class keeps its dtype unless the lower
  // one is of a higher category (torch's combine_categories).
  bool any = false;
  DType result = DType::Bool;
  for (int cls = 2; cls >= 0; --cls) {
    if (!have[cls]) continue;
    const DType higher = state[cls];
    if (!any) {
      result = higher;
    } else if (is_complex(higher)) {
      result = higher;
    } else if (is_complex(result)) {  // a complex lower-priority operand keeps higher's precision
      result = is_floating(higher) ? complex_for(higher) : result;
    } else if (is_floating(higher)) {
      result = higher;
    } else if (higher == DType::Bool || is_floating(result)) {
      result = promote_types(higher, result);
    } else {
      result = higher;
    }
    any = true;
  }
  return result;
}

bool can_cast(DType from, DType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating(from) && !is_floating(to) && !is_complex(to)) return false;
  if (from != DType::Bool && to == DType::Bool) return false;
  return true;
}

const char* cpp_type_name(DType d) {
  static const char* const names[kNumDTypes] = {"bool", "unsigned char", "signed char", "short int",
                                                "int",  "long int",      "c10::Half",   "c10::BFloat16",
                                                "float", "double", "c10::complex<float>", "c10::complex<double>"};
  return names[int(d)];
}

}  // namespace ct
