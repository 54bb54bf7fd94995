// Process-wide defaults: ct_set_default_dtype (torch.set_default_dtype) and the print options
// (torch.set_printoptions).  Each test restores what it changed, since the state is global.
#include <cmath>
#include <string>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;

// Restores the default dtype when a test ends, even on an assertion failure.
struct DefaultDtypeGuard {
  ct_dtype saved = ct_get_default_dtype();
  ~DefaultDtypeGuard() { ct_set_default_dtype(saved); }
};

// Restores torch's default print options when a test ends.
struct PrintOptionsGuard {
  ~PrintOptionsGuard() {
    ct_set_print_option(CT_PRINT_PRECISION, 4);
    ct_set_print_option(CT_PRINT_THRESHOLD, 1000);
    ct_set_print_option(CT_PRINT_EDGEITEMS, 3);
    ct_set_print_option(CT_PRINT_LINEWIDTH, 80);
    ct_set_print_option(CT_PRINT_SCI_MODE, -1);
  }
};

TEST(DefaultDtype, StartsAsFloat32AndAcceptsOnlyFloatingTypes) {
  DefaultDtypeGuard guard;
  EXPECT_EQ(ct_get_default_dtype(), CT_FLOAT32);
  for (ct_dtype d : {CT_FLOAT16, CT_BFLOAT16, CT_FLOAT64, CT_FLOAT32}) {
    EXPECT_EQ(ct_set_default_dtype(d), CT_OK);
    EXPECT_EQ(ct_get_default_dtype(), d);
  }
  EXPECT_EQ(ct_set_default_dtype(CT_INT64), CT_ERR_DTYPE);
  EXPECT_NE(std::string(ct_last_error()).find("only floating-point types are supported as the default type"),
            std::string::npos);
  EXPECT_EQ(ct_set_default_dtype(static_cast<ct_dtype>(42)), CT_ERR_DTYPE);
  EXPECT_EQ(ct_get_default_dtype(), CT_FLOAT32);  // refused calls change nothing
}

TEST(DefaultDtype, DecidesFloatResultsOfIntegerInputs) {
  DefaultDtypeGuard guard;
  const int64_t n = 3;
  TensorRef ints(ct_arange(1, 4, 1, CT_INT64));
  for (ct_dtype d : {CT_FLOAT64, CT_FLOAT16, CT_FLOAT32}) {
    ASSERT_EQ(ct_set_default_dtype(d), CT_OK);
    TensorRef scaled(ct_mul_scalar(ints, 1.5));  // int tensor * Python float
    EXPECT_EQ(ct_tensor_dtype(scaled), d);
    TensorRef quotient(ct_div(ints, ints));  // true division of integers
    EXPECT_EQ(ct_tensor_dtype(quotient), d);
    TensorRef root(ct_sqrt(ints));
    EXPECT_EQ(ct_tensor_dtype(root), d);
    TensorRef halves(ct_full(1, &n, 0.5, CT_FLOAT16));  // a floating operand keeps its dtype
    TensorRef kept(ct_mul_scalar(halves, 1.5));
    EXPECT_EQ(ct_tensor_dtype(kept), CT_FLOAT16);
  }
}

TEST(DefaultDtype, DecidesWhichDtypesReprNames) {
  DefaultDtypeGuard guard;
  const int64_t n = 2, zero = 0;
  TensorRef f32(ct_full(1, &n, 1.5, CT_FLOAT32));
  TensorRef f64(ct_full(1, &n, 1.5, CT_FLOAT64));
  TensorRef empty64(ct_empty(1, &zero, CT_FLOAT64));
  TensorRef empty_long(ct_empty(1, &zero, CT_INT64));
  EXPECT_EQ(repr(f64), "tensor([1.5000, 1.5000], dtype=ctensor.float64)");
  ASSERT_EQ(ct_set_default_dtype(CT_FLOAT64), CT_OK);
  EXPECT_EQ(repr(f32), "tensor([1.5000, 1.5000], dtype=ctensor.float32)");
  EXPECT_EQ(repr(f64), "tensor([1.5000, 1.5000])");
  EXPECT_EQ(repr(empty64), "tensor([])");
  // an empty int64 tensor names its dtype: nothing in "[]" shows it
  EXPECT_EQ(repr(empty_long), "tensor([], dtype=ctensor.int64)");
}

TEST(PrintOptions, DefaultsAndRangeChecks) {
  PrintOptionsGuard guard;
  EXPECT_EQ(ct_get_print_option(CT_PRINT_PRECISION), 4);
  EXPECT_EQ(ct_get_print_option(CT_PRINT_THRESHOLD), 1000);
  EXPECT_EQ(ct_get_print_option(CT_PRINT_EDGEITEMS), 3);
  EXPECT_EQ(ct_get_print_option(CT_PRINT_LINEWIDTH), 80);
  EXPECT_EQ(ct_get_print_option(CT_PRINT_SCI_MODE), -1);
  EXPECT_EQ(ct_set_print_option(CT_PRINT_PRECISION, -1), CT_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ct_last_error()).find("precision"), std::string::npos);
  EXPECT_EQ(ct_set_print_option(CT_PRINT_PRECISION, 2.5), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_set_print_option(CT_PRINT_PRECISION, 65), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_set_print_option(CT_PRINT_EDGEITEMS, -1), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_set_print_option(CT_PRINT_SCI_MODE, 2), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_set_print_option(CT_PRINT_THRESHOLD, std::nan("")), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_set_print_option(static_cast<ct_print_option>(99), 1), CT_ERR_INVALID_ARGUMENT);
  EXPECT_TRUE(std::isnan(ct_get_print_option(static_cast<ct_print_option>(-1))));
  EXPECT_EQ(ct_last_status(), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_get_print_option(CT_PRINT_PRECISION), 4);  // refused values change nothing
  EXPECT_EQ(ct_set_print_option(CT_PRINT_THRESHOLD, INFINITY), CT_OK);
  EXPECT_EQ(ct_get_print_option(CT_PRINT_THRESHOLD), INFINITY);
}

// Expected texts are torch 2.13's under the same torch.set_printoptions.
TEST(PrintOptions, ChangeRepr) {
  PrintOptionsGuard guard;
  TensorRef ten(ct_arange(0, 10, 1, CT_INT64));
  TensorRef thirds(ct_arange(0, 1, 1.0 / 3.0, CT_FLOAT64));
  ASSERT_EQ(ct_set_print_option(CT_PRINT_PRECISION, 2), CT_OK);
  EXPECT_EQ(repr(thirds), "tensor([0.00, 0.33, 0.67], dtype=ctensor.float64)");
  ASSERT_EQ(ct_set_print_option(CT_PRINT_THRESHOLD, 5), CT_OK);
  EXPECT_EQ(repr(ten), "tensor([0, 1, 2,  ..., 7, 8, 9])");
  ASSERT_EQ(ct_set_print_option(CT_PRINT_EDGEITEMS, 1), CT_OK);
  EXPECT_EQ(repr(ten), "tensor([0,  ..., 9])");
  ASSERT_EQ(ct_set_print_option(CT_PRINT_EDGEITEMS, 0), CT_OK);
  EXPECT_EQ(repr(ten), "tensor([...], size=(10,))");
  ASSERT_EQ(ct_set_print_option(CT_PRINT_SCI_MODE, 1), CT_OK);
  ASSERT_EQ(ct_set_print_option(CT_PRINT_THRESHOLD, 2), CT_OK);
  EXPECT_EQ(repr(thirds), "tensor([...], size=(3,), dtype=ctensor.float64)");
  ASSERT_EQ(ct_set_print_option(CT_PRINT_THRESHOLD, 1000), CT_OK);
  EXPECT_EQ(repr(thirds), "tensor([0.00e+00, 3.33e-01, 6.67e-01], size=(3,), dtype=ctensor.float64)");
  ASSERT_EQ(ct_set_print_option(CT_PRINT_EDGEITEMS, 3), CT_OK);
  ASSERT_EQ(ct_set_print_option(CT_PRINT_LINEWIDTH, 20), CT_OK);
  EXPECT_EQ(repr(ten), "tensor([0, 1, 2, 3,\n        4, 5, 6, 7,\n        8, 9])");
}

}  // namespace
