// Inference mode through the header: the mode and grad mode set and restored together,
// inference tensors (no counter, views that are not views, alias/data of them), torch's
// refusals with the exact status and message, thread-locality.  torch 2.13 is the reference
// (tests/python/test_inference_mode.py compares with it directly).
#include <thread>

#include "test_helpers.h"

using namespace ctt;

namespace {
class InferenceMode : public CtTest {
 protected:
  void TearDown() override {
    ct_restore_inference_mode(2);  // a failed assertion must not leave the mode on for later tests
    CtTest::TearDown();
  }
};

constexpr const char* kInplace =
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal "
    "tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.";
}  // namespace

TEST_F(InferenceMode, SetsAndRestoresBothModes) {
  EXPECT_EQ(ct_is_inference_mode_enabled(), 0);
  EXPECT_EQ(ct_is_grad_enabled(), 1);
  const int outer = ct_set_inference_mode(1);
  EXPECT_EQ(outer, 2);  // inference off, grad on
  EXPECT_EQ(ct_is_inference_mode_enabled(), 1);
  EXPECT_EQ(ct_is_grad_enabled(), 0);
  const int inner = ct_set_inference_mode(0);  // torch.inference_mode(False): grad mode ON
  EXPECT_EQ(inner, 1);
  EXPECT_EQ(ct_is_inference_mode_enabled(), 0);
  EXPECT_EQ(ct_is_grad_enabled(), 1);
  CT_ASSERT_OK(ct_restore_inference_mode(inner));
  EXPECT_EQ(ct_is_inference_mode_enabled(), 1);
  EXPECT_EQ(ct_is_grad_enabled(), 0);
  CT_ASSERT_OK(ct_restore_inference_mode(outer));
  EXPECT_EQ(ct_is_inference_mode_enabled(), 0);
  EXPECT_EQ(ct_is_grad_enabled(), 1);
  CT_EXPECT_FAIL(ct_restore_inference_mode(4), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "state must be a value returned by ct_set_inference_mode (0 to 3), got 4");
  EXPECT_EQ(ct_is_inference_mode_enabled(), 0);
}

TEST_F(InferenceMode, InferenceTensorsHaveNoCounter) {
  CT_MAKE(x, zeros({2, 3}));
  const int prev = ct_set_inference_mode(1);
  CT_MAKE(a, zeros({2, 3}));
  CT_MAKE(av, ct_select(a.get(), 0, 1));
  CT_MAKE(xv, ct_select(x.get(), 0, 1));  // a view of a normal tensor: normal, shares x's counter
  CT_MAKE(xd, ct_data(x.get()));          // .data of a normal tensor: normal, fresh counter
  CT_ASSERT_OK(ct_add_scalar_(a.get(), 1));  // no bump, no error inside
  CT_ASSERT_OK(ct_add_scalar_(xv.get(), 1));
  CT_ASSERT_OK(ct_restore_inference_mode(prev));

  EXPECT_EQ(ct_tensor_is_inference(a.get()), 1);
  EXPECT_EQ(ct_tensor_is_inference(av.get()), 1);
  EXPECT_TRUE(is_not_view(av.get()));
  EXPECT_EQ(ct_tensor_is_inference(xv.get()), 0);
  EXPECT_EQ(ct_tensor_is_view(xv.get()), 1);
  EXPECT_EQ(ct_tensor_is_inference(xd.get()), 0);
  EXPECT_EQ(ct_tensor_version(x.get()), 1);
  EXPECT_EQ(ct_tensor_version(xd.get()), 0);
  EXPECT_EQ(ct_same_version_counter(a.get(), av.get()), 0);
  CT_EXPECT_FAIL(ct_tensor_version(a.get()), -1, CT_ERR_INVALID_ARGUMENT,
                 "Inference tensors do not track version counter.");
  CT_EXPECT_FAIL(ct_tensor_version(av.get()), -1, CT_ERR_INVALID_ARGUMENT,
                 "Inference tensors do not track version counter.");
  EXPECT_EQ(ct_tensor_is_inference(nullptr), -1);
}

TEST_F(InferenceMode, InplaceOutsideFailsAfterTheWrite) {
  const int prev = ct_set_inference_mode(1);
  CT_MAKE(a, zeros({3}));
  CT_ASSERT_OK(ct_restore_inference_mode(prev));
  CT_EXPECT_FAIL(ct_add_scalar_(a.get(), 1), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, kInplace);
  EXPECT_EQ(values(a.get()), (std::vector<double>{1, 1, 1}));  // torch writes, then refuses
  CT_MAKE(v, ct_select(a.get(), 0, 0));
  CT_EXPECT_FAIL(ct_fill_(v.get(), 5), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, kInplace);
  // detach() and .data of it, taken outside: inference tensors with counters of their own
  CT_MAKE(d, ct_detach(a.get()));
  EXPECT_EQ(ct_tensor_is_inference(d.get()), 1);
  EXPECT_EQ(ct_tensor_version(d.get()), 0);
  CT_ASSERT_OK(ct_add_scalar_(d.get(), 1));
  EXPECT_EQ(ct_tensor_version(d.get()), 1);
  // a clone is normal; torch fills it with copy_, so it reads version 1
  CT_MAKE(c, ct_clone(a.get()));
  EXPECT_EQ(ct_tensor_is_inference(c.get()), 0);
  EXPECT_EQ(ct_tensor_version(c.get()), 1);
}

TEST_F(InferenceMode, AutogradRefusals) {
  const int prev = ct_set_inference_mode(1);
  CT_MAKE(a, ones({3}));
  CT_ASSERT_OK(ct_restore_inference_mode(prev));
  CT_EXPECT_FAIL(ct_set_requires_grad(a.get(), 1), CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT,
                 "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
  CT_ASSERT_OK(ct_set_requires_grad(a.get(), 0));
  CT_MAKE(w, ones({3}));
  CT_ASSERT_OK(ct_set_requires_grad(w.get(), 1));
  CT_EXPECT_NULL(ct_mul(w.get(), a.get()), CT_ERR_INVALID_ARGUMENT,
                 "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
                 "mode in computation tracked by autograd.");
  CT_MAKE(s, ct_add(w.get(), a.get()));  // add saves nothing: allowed
  EXPECT_EQ(ct_requires_grad(s.get()), 1);
}

TEST_F(InferenceMode, ThreadLocal) {
  const int prev = ct_set_inference_mode(1);
  int other_mode = -1, other_grad = -1, other_tensor = -1;
  std::thread th([&] {
    other_mode = ct_is_inference_mode_enabled();
    other_grad = ct_is_grad_enabled();
    ct_tensor* t = ct_zeros(0, nullptr, CT_FLOAT32);
    other_tensor = ct_tensor_is_inference(t);
    ct_tensor_release(t);
  });
  th.join();
  CT_ASSERT_OK(ct_restore_inference_mode(prev));
  EXPECT_EQ(other_mode, 0);
  EXPECT_EQ(other_grad, 1);
  EXPECT_EQ(other_tensor, 0);
}
