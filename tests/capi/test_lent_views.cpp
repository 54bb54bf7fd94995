// Note [Views lent by their root] (src/core/storage.h): a view of a tensor made on a fresh
// storage (its root) is counted by that storage instead of holding a reference on the storage
// and one on the root.  What users see must not change: ct_tensor_refcount counts the views
// whose base a tensor is, ct_storage_refcount every tensor on the storage and every handle, as
// torch counts them, and every object lives exactly as long as something holds it.  These
// tests walk the transitions that scheme has: the root released before its views, a storage
// handle outliving all of them, the root or a view moving to another storage while views
// live, and views made and released on several threads while the root goes away.
#include <thread>
#include <vector>

#include "test_helpers.h"

using ctt::StorageRef;
using ctt::TensorRef;
using ctt::values;

namespace {

class LentViews : public ctt::CtTest {};

int64_t storage_refcount_of(const ct_tensor* t) {
  StorageRef s(ct_tensor_storage(t));
  return ct_storage_refcount(s) - 1;  // less this handle
}

TEST_F(LentViews, CountsAreTorchsWithTheRootReleasedFirst) {
  ct_tensor* root = ctt::make_iota_f32({3, 4});  // a root: made on a fresh storage
  ASSERT_NE(root, nullptr);
  StorageRef st(ct_tensor_storage(root));
  EXPECT_EQ(ct_storage_refcount(st), 2);  // the root and this handle
  TensorRef v1(ct_transpose(root, 0, 1));
  TensorRef v2(ct_slice(v1, 0, 1, 3, 1));  // a view of a view: its base is the root
  ASSERT_NE(v2.get(), nullptr);
  EXPECT_EQ(ct_tensor_refcount(root), 3);
  EXPECT_EQ(ct_storage_refcount(st), 4);
  EXPECT_EQ(ct_tensor_refcount(v1), 1);

  const int64_t live = ct_live_tensors();
  ct_tensor_release(root);  // the views keep it: it is their base
  EXPECT_EQ(ct_live_tensors(), live);
  EXPECT_EQ(ct_storage_refcount(st), 4) << "the root is still a tensor on the storage";
  ct_tensor* b = ct_tensor_base(v2);
  EXPECT_EQ(b, root);
  EXPECT_EQ(ct_tensor_refcount(b), 3);  // this handle and the two views
  EXPECT_EQ(values(b), ctt::iota(12));
  ct_tensor_release(b);

  v1.reset();
  EXPECT_EQ(ct_live_tensors(), live - 1);
  EXPECT_EQ(ct_storage_refcount(st), 3);
  v2.reset();  // the last view: the root goes with it
  EXPECT_EQ(ct_live_tensors(), live - 3);
  EXPECT_EQ(ct_storage_refcount(st), 1) << "only this handle is left";
  EXPECT_EQ(ct_storage_nbytes(st), 48);
}

TEST_F(LentViews, AStorageHandleOutlivesTheRootAndItsViews) {
  ct_tensor* root = ctt::make_iota_f32({6});
  ASSERT_NE(root, nullptr);
  ct_tensor* v = ct_narrow(root, 0, 2, 3);
  ASSERT_NE(v, nullptr);
  StorageRef st(ct_tensor_storage(v));
  EXPECT_EQ(ct_storage_refcount(st), 3);
  ct_tensor_release(v);  // the view first, then the root: the sole-owner paths
  EXPECT_EQ(ct_storage_refcount(st), 2);
  EXPECT_EQ(ct_tensor_refcount(root), 1);
  ct_tensor_release(root);
  EXPECT_EQ(ct_storage_refcount(st), 1);
  // The storage can take a new tensor; it is not a root (the storage is not fresh), so its
  // views hold ordinary references, and the counts stay right.
  CT_MAKE(again, ct_zeros(1, std::vector<int64_t>{6}.data(), CT_FLOAT32));
  ASSERT_EQ(ct_set_storage_(again, st), CT_OK) << ctt::last_error_str();
  EXPECT_EQ(ct_storage_refcount(st), 2);
  CT_MAKE(w, ct_slice(again, 0, 0, 2, 1));
  EXPECT_EQ(ct_storage_refcount(st), 3);
  EXPECT_EQ(ct_tensor_refcount(again), 2);
  EXPECT_EQ(values(w), (std::vector<double>{0, 1}));
}

TEST_F(LentViews, TheRootMovesToAnotherStorageWhileItsViewsLive) {
  CT_MAKE(x, ctt::make_iota_f32({2, 3}));
  CT_MAKE(y, ctt::full({4}, 7.0));
  StorageRef home(ct_tensor_storage(x));
  StorageRef other(ct_tensor_storage(y));
  CT_MAKE(old_view, ct_transpose(x, 0, 1));
  EXPECT_EQ(ct_storage_refcount(home), 3);  // x, old_view, handle

  ASSERT_EQ(ct_set_(x, y), CT_OK) << ctt::last_error_str();  // torch: x.set_(y)
  EXPECT_EQ(ct_shares_storage(x, y), 1);
  EXPECT_EQ(ct_storage_refcount(home), 2) << "x left: old_view and the handle";
  EXPECT_EQ(ct_storage_refcount(other), 3) << "y, x and the handle";
  EXPECT_EQ(ct_tensor_refcount(x), 2) << "our handle and old_view's base";
  ct_tensor* b = ct_tensor_base(old_view);
  EXPECT_EQ(b, x.get());
  ct_tensor_release(b);
  EXPECT_EQ(values(old_view), (std::vector<double>{0, 3, 1, 4, 2, 5})) << "the old storage lives";

  CT_MAKE(new_view, ct_slice(x, 0, 1, 3, 1));  // on y's storage: ordinary references
  EXPECT_EQ(ct_tensor_refcount(x), 3);
  EXPECT_EQ(ct_storage_refcount(other), 4);
  EXPECT_EQ(values(new_view), (std::vector<double>{7, 7}));

  // Back home while the old view lives: x counts on its home again.
  CT_MAKE(home_again, ct_alias(old_view));
  CT_MAKE(home_full, ct_view(x, 1, std::vector<int64_t>{4}.data()));
  EXPECT_EQ(ct_storage_refcount(home), 3);  // old_view, home_again, handle
  ct_tensor* t = ct_transpose(old_view, 0, 1);  // x's geometry on its home storage
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(ct_set_(x, t), CT_OK) << ctt::last_error_str();
  ct_tensor_release(t);
  EXPECT_EQ(ct_storage_refcount(home), 4) << "x is back";
  EXPECT_EQ(ct_storage_refcount(other), 4) << "y, new_view, home_full, handle";
  EXPECT_EQ(values(x), ctt::iota(6));

  // Release x first: its views keep it; then the views, in turn.
  ct_tensor* raw = x.take();
  ct_tensor_release(raw);
  EXPECT_EQ(ct_storage_refcount(home), 4);
  new_view.reset();
  home_full.reset();
  EXPECT_EQ(ct_storage_refcount(other), 2);
  old_view.reset();  // x's last view: x goes
  EXPECT_EQ(ct_storage_refcount(home), 2) << "home_again and the handle";
  EXPECT_EQ(ct_storage_refcount(other), 2) << "y and the handle";
}

TEST_F(LentViews, TheRootDiesAwayFromHome) {
  ct_tensor* x = ctt::make_iota_f32({4});
  ASSERT_NE(x, nullptr);
  CT_MAKE(y, ctt::zeros({2}));
  StorageRef home(ct_tensor_storage(x));
  CT_MAKE(v, ct_narrow(x, 0, 1, 2));
  ASSERT_EQ(ct_set_data(x, y), CT_OK) << ctt::last_error_str();  // torch: x.data = y
  EXPECT_EQ(ct_storage_refcount(home), 2);
  EXPECT_EQ(storage_refcount_of(y), 2);
  ct_tensor_release(x);
  EXPECT_EQ(storage_refcount_of(y), 2) << "v's base still holds y's storage";
  v.reset();
  EXPECT_EQ(ct_storage_refcount(home), 1);
  EXPECT_EQ(storage_refcount_of(y), 1);
}

TEST_F(LentViews, AViewMovesToAnotherStorage) {
  CT_MAKE(x, ctt::make_iota_f32({2, 3}));
  CT_MAKE(y, ctt::full({3}, 2.0));
  StorageRef home(ct_tensor_storage(x));
  CT_MAKE(v, ct_select(x, 0, 1));
  EXPECT_EQ(ct_storage_refcount(home), 3);
  ASSERT_EQ(ct_set_(v, y), CT_OK) << ctt::last_error_str();
  EXPECT_EQ(ct_storage_refcount(home), 2) << "v left";
  EXPECT_EQ(storage_refcount_of(y), 2);
  EXPECT_EQ(ct_tensor_refcount(x), 2) << "v is still a view of x (torch keeps _base)";
  ct_tensor* b = ct_tensor_base(v);
  EXPECT_EQ(b, x.get());
  ct_tensor_release(b);
  ct_tensor* raw = x.take();
  ct_tensor_release(raw);  // v keeps x alive with an ordinary reference now
  EXPECT_EQ(ct_storage_refcount(home), 2);
  v.reset();
  EXPECT_EQ(ct_storage_refcount(home), 1);
  EXPECT_EQ(storage_refcount_of(y), 1);
}

TEST_F(LentViews, ViewsOfAnAliasHoldOrdinaryReferences) {
  CT_MAKE(x, ctt::make_iota_f32({3}));
  CT_MAKE(d, ct_detach(x));  // not a root: it shares x's storage
  CT_MAKE(v, ct_slice(d, 0, 1, 3, 1));
  CT_MAKE(w, ct_slice(x, 0, 0, 1, 1));
  EXPECT_EQ(ct_tensor_refcount(d), 2);
  EXPECT_EQ(ct_tensor_refcount(x), 2);
  EXPECT_EQ(storage_refcount_of(x), 4);
  ct_tensor* raw = d.take();
  ct_tensor_release(raw);
  EXPECT_EQ(storage_refcount_of(x), 4);
  v.reset();
  EXPECT_EQ(storage_refcount_of(x), 2);
}

// Views of one root made and released on several threads while the root's last handle goes:
// the TSan and ASan builds of this suite check the races and the lifetimes.
TEST_F(LentViews, ThreadsShareTheRootsCount) {
  ct_tensor* x = ctt::make_iota_f32({8, 8});
  ASSERT_NE(x, nullptr);
  StorageRef st(ct_tensor_storage(x));
  constexpr int kThreads = 4, kRounds = 2000;
  std::vector<ct_tensor*> seeds;
  for (int i = 0; i < kThreads; ++i) seeds.push_back(ct_select(x, 0, i));
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      ct_tensor* seed = seeds[size_t(i)];
      for (int r = 0; r < kRounds; ++r) {
        ct_tensor* a = ct_slice(seed, 0, 1, 7, 2);  // a view of a view: base x
        ct_tensor* b = ct_tensor_base(a);
        ct_tensor* c = ct_transpose(b, 0, 1);
        if (!a || !b || !c || ct_tensor_refcount(b) < 4) ++failures[size_t(i)];
        ct_tensor_release(c);
        ct_tensor_release(b);
        ct_tensor_release(a);
      }
      ct_tensor_release(seed);
    });
  }
  ct_tensor_release(x);  // while the threads run
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) EXPECT_EQ(failures[size_t(i)], 0) << "thread " << i;
  EXPECT_EQ(ct_storage_refcount(st), 1) << "every view and the root are gone";
}

}  // namespace
