# LinearAlgebra.norm(t, p) for tensors: the p-norm of all the elements, as norm(A, p) of any
# array, computed by the library (CTensor.tensor_norm, torch.linalg.vector_norm).  A number,
# as LinearAlgebra returns; CTensor.tensor_norm gives the 0-D tensor autograd runs through.
module CTensorLinearAlgebraExt

import CTensor
import LinearAlgebra

LinearAlgebra.norm(t::CTensor.Tensor, p::Real = 2) = CTensor.tensor_norm(t, p)[]

end # module
