# Statistics.var / Statistics.std for tensors, with Statistics' keywords (corrected, dims),
# computed by the library (CTensor.tensor_var / tensor_std: Welford's algorithm, autograd).
# As Statistics does for an array: every element (dims = :) gives a number; given dims
# give a tensor with them kept as size 1.  `mean = m` (a precomputed mean) is not taken.
module CTensorStatisticsExt

import CTensor
import Statistics

function _spread(f, t::CTensor.Tensor, corrected::Bool, mean, dims)
    mean === nothing || throw(ArgumentError("CTensor: var/std of a Tensor take no `mean` keyword; " *
                                            "the library computes the mean itself"))
    r = f(t; dims = dims, corrected = corrected)
    return dims isa Colon ? r[] : r
end

Statistics.var(t::CTensor.Tensor; corrected::Bool = true, mean = nothing, dims = :) =
    _spread(CTensor.tensor_var, t, corrected, mean, dims)
Statistics.std(t::CTensor.Tensor; corrected::Bool = true, mean = nothing, dims = :) =
    _spread(CTensor.tensor_std, t, corrected, mean, dims)

end # module
