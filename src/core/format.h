// Printing: PyTorch's repr of a tensor, with "ctensor." where torch prints "torch.".
#pragma once

#include <string>

#include "tensor.h"

namespace ct {

std::string repr(const Tensor& t);

}  // namespace ct
