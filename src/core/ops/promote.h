// Type promotion exactly as PyTorch's result_type: categories bool < integer < floating < complex;
// dimensioned tensors outrank 0-dim tensors, which outrank Python scalars, and a
// lower-priority operand only changes the result when its category is higher.
#pragma once

#include <span>

#include "core/dtype.h"

namespace ct {

// The promoted dtype of two dtypes (torch.promote_types).
DType promote_types(DType a, DType b);

enum class OperandKind { Dimensioned, ZeroDim, PythonFloat, PythonInt, PythonBool, PythonComplex };
struct OperandType {
  DType dtype;
  OperandKind kind;
};
// torch.result_type over any mix of operands.  A PythonFloat scalar of a higher category
// gives float32 (the default dtype), a PythonInt gives int64.
DType result_type(std::span<const OperandType> operands);

// torch.can_cast: whether an in-place op may write a `from` result into a `to` tensor
// (no float -> integer, no non-bool -> bool).
bool can_cast(DType from, DType to);

// The C++ type name ("float", "long int", "c10::Half", ...) PyTorch prints for a dtype's
// TypeMeta (randint's bounds errors, assigning a grad of another dtype).
const char* cpp_type_name(DType d);

}  // namespace ct
