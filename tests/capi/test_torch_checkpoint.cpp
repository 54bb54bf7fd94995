// PyTorch checkpoints through the C API: ct_torch_save then ct_torch_load round trips (entries,
// key paths, metadata, structure, sharing, offsets, strides, requires_grad, modes) and the
// errors of both (each a clear message, nothing leaked: the CtTest fixture checks live
// tensors and storages).  The differential tests against torch are in
// tests/python/test_torch_load.py; the readers on hand-made bytes in tests/core.
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;

class TorchCheckpoint : public ctt::CtTest {
 protected:
  void TearDown() override {
    std::remove(path_.c_str());
    CtTest::TearDown();
  }
  std::string path_ = ::testing::TempDir() + "ct_capi_torch_" + std::to_string(getpid()) + ".pt";
};

TEST_F(TorchCheckpoint, RoundTripKeepsSharing) {
  const int64_t sizes[] = {2, 3};
  TensorRef w(ct_arange(0, 6, 1, CT_FLOAT32));
  TensorRef m(ct_view(w, 2, sizes));
  TensorRef t(ct_transpose(m, 0, 1));
  TensorRef row(ct_select(m, 0, 1));
  TensorRef other(ct_ones(1, sizes, CT_INT64));
  ASSERT_EQ(ct_set_requires_grad(w, 1), CT_OK);
  const ct_tensor* ts[] = {m, t, row, other, w};
  const char* structure =
      "{\"dict\": [[\"enc\", {\"dict\": [[\"w\", {\"tensor\": 0}], [\"wt\", {\"tensor\": 1}]]}], "
      "[\"rows\", {\"list\": [{\"tensor\": 2}, 4, \"x\"]}], [\"i\", {\"tensor\": 3}], [\"w\", {\"tensor\": 4}], "
      "[\"again\", {\"tensor\": 0}]]}";
  ASSERT_EQ(ct_torch_save(path_.c_str(), structure, 5, ts), CT_OK) << ct_last_error();
  for (ct_file_mode mode : {CT_FILE_READ_ONLY, CT_FILE_COPY_ON_WRITE, CT_FILE_COPY}) {
    ct_checkpoint* c = ct_torch_load(path_.c_str(), mode);
    ASSERT_NE(c, nullptr) << ct_last_error();
    ASSERT_EQ(ct_checkpoint_count(c), 6);
    const char* names[] = {"enc.w", "enc.wt", "rows.0", "i", "w", "again"};
    for (int i = 0; i < 6; ++i) EXPECT_STREQ(ct_checkpoint_name(c, i), names[i]);
    EXPECT_EQ(ct_checkpoint_metadata_count(c), 2);
    EXPECT_STREQ(ct_checkpoint_metadata_key(c, 1), "rows.2");
    EXPECT_STREQ(ct_checkpoint_metadata_value(c, 1), "\"x\"");
    EXPECT_STREQ(ct_checkpoint_structure(c), structure);  // same text back, tensor 0 twice
    TensorRef a(ct_checkpoint_tensor(c, 0)), b(ct_checkpoint_tensor(c, 1)), r(ct_checkpoint_tensor(c, 2)),
        i64(ct_checkpoint_tensor(c, 3)), base(ct_checkpoint_tensor(c, 4)), again(ct_checkpoint_tensor(c, 5));
    EXPECT_EQ(a.get(), again.get());  // one tensor object saved twice
    EXPECT_EQ(ct_shares_storage(a, b), 1);
    EXPECT_EQ(ct_shares_storage(a, r), 1);
    EXPECT_EQ(ct_shares_storage(a, base), 1);
    EXPECT_EQ(ct_shares_storage(a, i64), 0);
    EXPECT_EQ(ct_tensor_stride(b, 0), 1);
    EXPECT_EQ(ct_tensor_stride(b, 1), 3);
    EXPECT_EQ(ct_tensor_offset(r), 3);
    EXPECT_EQ(ct_requires_grad(base), 1);
    EXPECT_EQ(ct_tensor_dtype(i64), CT_INT64);
    double v = 0;
    ASSERT_EQ(ct_item(TensorRef(ct_select(r, 0, 2)), &v), CT_OK);
    EXPECT_EQ(v, 5.0);
    EXPECT_EQ(ct_checkpoint_storage(c), nullptr);
    EXPECT_EQ(ct_last_status(), CT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ct_checkpoint_tensor(c, 6), nullptr);
    EXPECT_EQ(ct_last_status(), CT_ERR_INDEX);
    ct_checkpoint_release(c);
    EXPECT_EQ(ct_tensor_numel(a), 6);  // tensors outlive the handle
  }
}

TEST_F(TorchCheckpoint, Errors) {
  TensorRef w(ct_arange(0, 4, 1, CT_FLOAT32));
  const ct_tensor* ts[] = {w};
  EXPECT_EQ(ct_torch_load(nullptr, CT_FILE_COPY), nullptr);
  EXPECT_EQ(ct_last_status(), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_torch_load("/nonexistent/x.pt", CT_FILE_COPY), nullptr);
  EXPECT_NE(std::string(ct_last_error()).find("cannot open '/nonexistent/x.pt'"), std::string::npos);
  EXPECT_EQ(ct_torch_load_memory("PK", 2), nullptr);
  EXPECT_NE(std::string(ct_last_error()).find("<memory>"), std::string::npos);
  EXPECT_EQ(ct_torch_save(path_.c_str(), "{\"tensor\": 1}", 1, ts), CT_ERR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ct_last_error()).find("tensor index 1 is out of range for 1 tensors"), std::string::npos);
  EXPECT_EQ(ct_torch_save(path_.c_str(), "{\"list\": [", 1, ts), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_torch_save(path_.c_str(), "{\"set\": []}", 1, ts), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_torch_save(path_.c_str(), nullptr, 1, ts), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(ct_torch_save(path_.c_str(), "null", -1, ts), CT_ERR_INVALID_ARGUMENT);
  EXPECT_EQ(access(path_.c_str(), F_OK), -1);  // nothing left behind
  ASSERT_EQ(ct_torch_save(path_.c_str(), "{\"tensor\": 0}", 1, ts), CT_OK);
  ct_checkpoint* c = ct_torch_load(path_.c_str(), CT_FILE_READ_ONLY);
  ASSERT_NE(c, nullptr);
  EXPECT_STREQ(ct_checkpoint_name(c, 0), "");  // a bare tensor has the empty path
  TensorRef t(ct_checkpoint_tensor(c, 0));
  EXPECT_EQ(ct_fill_(t, 1.0), CT_ERR_READ_ONLY);
  ct_checkpoint_release(c);
}

}  // namespace
