// ct_*_out and ct_write_out: torch 2.13's out= rules through the public header (values and
// texts printed by torch 2.13, e.g. python -c "import torch; x = torch.empty(0);
// torch.add(torch.ones(2, 3).t(), 1, out=x); print(x.stride(), x._version)").  The Python
// differential sweep is tests/python/test_out_arg.py.
#include <vector>

#include "test_helpers.h"

using namespace ctt;

namespace {

class OutArg : public CtTest {};

TEST_F(OutArg, CorrectlyShapedOutIsWrittenInPlaceKeepingStorageStridesAndBumpingOnce) {
  CT_MAKE(a, make_iota_f32({2, 3}));
  CT_MAKE(base, zeros({3, 2}));
  CT_MAKE(out, ct_transpose(base, 0, 1));  // (2, 3) with strides (1, 2)
  const uint64_t storage = ct_tensor_storage_id(out);
  void* data = ct_tensor_data(out);
  const int64_t v0 = ct_tensor_version(out);
  CT_ASSERT_OK(ct_add_scalar_out(out, a, 1.0));
  EXPECT_TRUE(geometry_is(out, {2, 3}, {1, 2}, 0));
  EXPECT_EQ(ct_tensor_storage_id(out), storage);
  EXPECT_EQ(ct_tensor_data(out), data);
  EXPECT_EQ(ct_tensor_version(out), v0 + 1);
  EXPECT_EQ(values(out), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(values(base), (std::vector<double>{1, 4, 2, 5, 3, 6}));  // written through the view
}

TEST_F(OutArg, EmptyOutIsResizedAndTakesTheInputsLayout) {
  CT_MAKE(a, make_iota_f32({3, 2}));
  CT_MAKE(at, ct_transpose(a, 0, 1));
  CT_MAKE(out, empty({0}));
  const uint64_t storage = ct_tensor_storage_id(out);
  int warn = -1;
  CT_MAKE(r, ct_exp(at));
  const ct_tensor* inputs[] = {at};
  CT_ASSERT_OK(ct_write_out(out, r, 1, inputs, CT_OUT_CASTABLE, "exp", &warn));
  EXPECT_EQ(warn, 0);  // an empty out never warns
  EXPECT_TRUE(geometry_is(out, {2, 3}, {1, 2}, 0));  // torch: stride (1, 2)
  EXPECT_EQ(ct_tensor_storage_id(out), storage);
  EXPECT_EQ(ct_tensor_version(out), 1);
}

TEST_F(OutArg, WrongShapedOutWithElementsIsResizedAndReportedForTheWarning) {
  CT_MAKE(a, make_iota_f32({2, 3}));
  CT_MAKE(b, make_iota_f32({2, 3}));
  CT_MAKE(out, zeros({5}));
  CT_MAKE(r, ct_add(a, b));
  int warn = -1;
  CT_ASSERT_OK(ct_write_out(out, r, 0, nullptr, CT_OUT_CASTABLE, "add", &warn));
  EXPECT_EQ(warn, 1);
  EXPECT_TRUE(geometry_is(out, {2, 3}, {3, 1}, 0));
  EXPECT_EQ(ct_tensor_version(out), 1);
  EXPECT_EQ(values(out), (std::vector<double>{0, 2, 4, 6, 8, 10}));
}

TEST_F(OutArg, OutThatIsAnInputIsFineButNeverResized) {
  CT_MAKE(x, make_iota_f32({3}));
  CT_ASSERT_OK(ct_add_scalar_out(x, x, 1.0));
  EXPECT_EQ(values(x), (std::vector<double>{1, 2, 3}));
  CT_MAKE(m, zeros({2, 3}));
  EXPECT_EQ(ct_add_out(x, x, m), CT_ERR_SHAPE);
  EXPECT_TRUE(expect_error(CT_ERR_SHAPE, "output with shape [3] doesn't match the broadcast shape [2, 3]"));
}

TEST_F(OutArg, DtypeRulesFollowTheOpFamily) {
  CT_MAKE(f, make_iota_f32({2, 3}));
  CT_MAKE(l, zeros({2, 3}, CT_INT64));
  CT_MAKE(d, zeros({2, 3}, CT_FLOAT64));
  EXPECT_EQ(ct_add_scalar_out(l, f, 1.0), CT_ERR_DTYPE);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "result type Float can't be cast to the desired output type Long"));
  EXPECT_EQ(ct_neg_out(d, f), CT_ERR_DTYPE);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "Found dtype Double but expected Float"));
  CT_ASSERT_OK(ct_exp_out(d, f));  // float -> double casts
  CT_MAKE(ft, ct_transpose(f, 0, 1));
  CT_MAKE(d2, zeros({2, 2}, CT_FLOAT64));
  EXPECT_EQ(ct_matmul_out(d2, f, ft), CT_ERR_DTYPE);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "Expected out tensor to have dtype float, but got double instead"));
  CT_MAKE(d3, zeros({3}, CT_FLOAT64));
  const int dim0[] = {0};
  EXPECT_EQ(ct_amax_out(d3, f, 1, dim0, 0), CT_ERR_DTYPE);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "Expected the dtype for input and out to match, but got Float for input's "
                                         "dtype and Double for out's dtype."));
  CT_MAKE(l4, zeros({4, 3}, CT_INT64));
  const ct_tensor* ts[] = {f, f};
  EXPECT_EQ(ct_cat_out(l4, 2, ts, 0), CT_ERR_DTYPE);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "torch.cat(): input types can't be cast to the desired output type Long"));
}

TEST_F(OutArg, SumComputesInOutsDtype) {
  CT_MAKE(x, make_from<float>({0.5f, 0.7f, 0.5f, 0.9f}, {2, 2}, CT_FLOAT32));
  CT_MAKE(out, zeros({2}, CT_INT64));
  const int dim0[] = {0};
  CT_ASSERT_OK(ct_sum_out(out, x, 1, dim0, 0));
  EXPECT_EQ(values(out), (std::vector<double>{0, 0}));  // torch: tensor([0, 0])
}

TEST_F(OutArg, MaxDimWritesBothOuts) {
  CT_MAKE(x, make_from<float>({1, 5, 3, 4}, {2, 2}, CT_FLOAT32));
  CT_MAKE(v, empty({0}));
  CT_MAKE(i, empty({0}, CT_INT64));
  CT_ASSERT_OK(ct_max_dim_out(v, i, x, 1, 0));
  EXPECT_EQ(values(v), (std::vector<double>{5, 4}));
  EXPECT_EQ(values(i), (std::vector<double>{1, 1}));
  CT_MAKE(i32, empty({2}, CT_INT32));
  EXPECT_EQ(ct_max_dim_out(v, i32, x, 1, 0), CT_ERR_DTYPE);
  EXPECT_TRUE(expect_error(CT_ERR_DTYPE, "Expected out tensor to have dtype long int, but got int instead"));
}

TEST_F(OutArg, OverlapAndInternalOverlapAreRefused) {
  CT_MAKE(z, make_iota_f32({6}));
  CT_MAKE(head, ct_narrow(z, 0, 0, 5));
  CT_MAKE(tail, ct_narrow(z, 0, 1, 5));
  EXPECT_EQ(ct_add_scalar_out(tail, head, 1.0), CT_ERR_OVERLAP);
  EXPECT_TRUE(expect_error(CT_ERR_OVERLAP, "some elements of the input tensor and the written-to tensor refer to a "
                                           "single memory location"));
  CT_MAKE(one, zeros({1}));
  CT_MAKE(ex, expand(one, {3}));
  CT_MAKE(src, zeros({3}));
  EXPECT_EQ(ct_add_scalar_out(ex, src, 1.0), CT_ERR_OVERLAP);
  EXPECT_TRUE(expect_error(CT_ERR_OVERLAP, "more than one element of the written-to tensor refers to a single"));
  EXPECT_EQ(values(z), (std::vector<double>{0, 1, 2, 3, 4, 5}));  // nothing written
}

TEST_F(OutArg, RequiresGradIsRefusedUnderGradModeOnly) {
  CT_MAKE(x, ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(x, 1));
  CT_MAKE(out, empty({3}));
  EXPECT_EQ(ct_exp_out(out, x), CT_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(expect_error(CT_ERR_INVALID_ARGUMENT, "exp(): functions with out=... arguments don't support automatic "
                                                    "differentiation, but one of the arguments requires grad."));
  EXPECT_EQ(ct_tensor_version(out), 0);
  const int prev = ct_is_grad_enabled();
  ct_set_grad_enabled(0);
  CT_ASSERT_OK(ct_exp_out(out, x));
  ct_set_grad_enabled(prev);
  EXPECT_EQ(ct_tensor_version(out), 1);
}

TEST_F(OutArg, CreationIntoOutUsesOutsDtype) {
  CT_MAKE(out, empty({2}, CT_INT64));
  CT_ASSERT_OK(ct_arange_out(out, 0, 5, 1));
  EXPECT_EQ(ct_tensor_dtype(out), CT_INT64);
  EXPECT_EQ(values(out), (std::vector<double>{0, 1, 2, 3, 4}));
  CT_MAKE(e, zeros({2, 2}));
  CT_ASSERT_OK(ct_eye_out(e, 2, 2));
  EXPECT_EQ(values(e), (std::vector<double>{1, 0, 0, 1}));
}

TEST_F(OutArg, NullAndBadArgumentsAreErrorsNotCrashes) {
  CT_MAKE(x, ones({3}));
  EXPECT_EQ(ct_add_out(nullptr, x, x), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_add_out(x, nullptr, x), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_write_out(x, x, -1, nullptr, CT_OUT_ANY, nullptr, nullptr), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_write_out(x, x, 0, nullptr, (ct_out_rule)42, "op", nullptr), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_cat_out(x, 0, nullptr, 0), CT_ERR_INVALID_ARGUMENT);
}

}  // namespace
