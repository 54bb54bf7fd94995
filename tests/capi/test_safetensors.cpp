// safetensors files and mapped storages through the C API: round trips, the exact bytes
// written, the three mapping modes, sharing, and hostile files (each a clear error, nothing
// leaked: the CtTest fixture checks live tensors and storages).  The differential tests
// against the safetensors package and torch are in tests/python/test_safetensors.py.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using ctt::TensorRef;

class Safetensors : public ctt::CtTest {
 protected:
  void SetUp() override {
    CtTest::SetUp();
    char tmpl[] = "/tmp/ct_safetensors_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const auto& f : files_) std::remove(f.c_str());
    rmdir(dir_.c_str());
    CtTest::TearDown();
  }
  std::string file(const std::string& name) {
    files_.push_back(dir_ + "/" + name);
    return files_.back();
  }
  std::string dir_;
  std::vector<std::string> files_;
};

std::string read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

void write_all(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  f << bytes;
}

// A file image: the 8-byte length, the header as given, then data.
std::string image(const std::string& header, const std::string& data = "") {
  std::string out(8, '\0');
  uint64_t n = header.size();
  for (int k = 0; k < 8; ++k) out[size_t(k)] = char((n >> (8 * k)) & 0xFF);
  return out + header + data;
}

struct CheckpointRef {
  ct_checkpoint* p;
  ~CheckpointRef() { ct_checkpoint_release(p); }
};

template <class T>
std::vector<T> values(ct_tensor* t) {
  std::vector<T> v(size_t(ct_tensor_numel(t)));
  ct_tensor* c = ct_contiguous(t);
  if (!v.empty()) std::memcpy(v.data(), ct_tensor_data(c), v.size() * sizeof(T));
  ct_tensor_release(c);
  return v;
}

// A call that must return NULL with this status and message (storages, checkpoints).
template <class P>
::testing::AssertionResult null_with(P* p, ct_status status, const char* message) {
  if (p != nullptr) return ::testing::AssertionFailure() << "expected NULL";
  return ctt::expect_error(status, message);
}

TEST_F(Safetensors, WritesThePackagesBytes) {
  const int8_t b[] = {0, 1, 2};
  const double a[] = {1, 1};
  const int64_t s3[] = {3}, s2[] = {2};
  CT_MAKE(tb, ct_from_data(b, 1, s3, CT_INT8));
  CT_MAKE(ta, ct_from_data(a, 1, s2, CT_FLOAT64));
  const char* names[] = {"b", "a"};
  const ct_tensor* ts[] = {tb, ta};
  const std::string path = file("two.safetensors");
  CT_ASSERT_OK(ct_safetensors_save(path.c_str(), 2, names, ts, -1, nullptr, nullptr, 0));
  // what safetensors.torch.save_file writes for {"b": int8 [0,1,2], "a": float64 [1,1]}
  const std::string header =
      "{\"a\":{\"dtype\":\"F64\",\"shape\":[2],\"data_offsets\":[0,16]},"
      "\"b\":{\"dtype\":\"I8\",\"shape\":[3],\"data_offsets\":[16,19]}}";
  std::string padded = header + std::string((8 - header.size() % 8) % 8, ' ');
  std::string data(reinterpret_cast<const char*>(a), 16);
  data += std::string(reinterpret_cast<const char*>(b), 3);
  EXPECT_EQ(read_all(path), image(padded, data));
}

TEST_F(Safetensors, RoundTripSharesOneReadOnlyMapping) {
  float m[6] = {0, 1, 2, 3, 4, 5};
  const int64_t s23[] = {2, 3};
  CT_MAKE(x, ct_from_data(m, 2, s23, CT_FLOAT32));
  CT_MAKE(xt, ct_transpose(x, 0, 1));      // non-contiguous: written in C order
  CT_MAKE(row, ct_narrow(x, 0, 1, 1));     // offset 3 on x's storage
  CT_MAKE(scalar, ct_full(0, nullptr, 7.0, CT_INT64));
  const int64_t s0[] = {0, 4};
  CT_MAKE(empty, ct_zeros(2, s0, CT_BFLOAT16));
  const char* names[] = {"xt", "row", "scalar", "empty"};
  const ct_tensor* ts[] = {xt, row, scalar, empty};
  const std::string path = file("rt.safetensors");
  // xt and row share memory of x's storage: refused, then written with copies when asked.
  CT_EXPECT_FAIL(ct_safetensors_save(path.c_str(), 4, names, ts, -1, nullptr, nullptr, 0), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "tensors 'xt' and 'row' share memory");
  EXPECT_NE(access(path.c_str(), F_OK), 0) << "a refused save creates no file";
  {
    // two disjoint rows of one storage are not shared memory (the package's rule)
    CT_MAKE(row0, ct_narrow(x, 0, 0, 1));
    const char* rows[] = {"r0", "r1"};
    const ct_tensor* both[] = {row0, row};
    CT_ASSERT_OK(ct_safetensors_save(path.c_str(), 2, rows, both, -1, nullptr, nullptr, 0));
  }
  const char* keys[] = {"format"};
  const char* vals[] = {"pt"};
  CT_ASSERT_OK(ct_safetensors_save(path.c_str(), 4, names, ts, 1, keys, vals, CT_SAVE_COPY_SHARED));

  CheckpointRef c{ct_safetensors_open(path.c_str(), CT_FILE_READ_ONLY)};
  ASSERT_NE(c.p, nullptr) << ctt::last_error_str();
  ASSERT_EQ(ct_checkpoint_count(c.p), 4);
  EXPECT_STREQ(ct_checkpoint_name(c.p, 0), "empty");  // sorted names
  EXPECT_STREQ(ct_checkpoint_name(c.p, 3), "xt");
  EXPECT_EQ(ct_checkpoint_has_metadata(c.p), 1);
  ASSERT_EQ(ct_checkpoint_metadata_count(c.p), 1);
  EXPECT_STREQ(ct_checkpoint_metadata_key(c.p, 0), "format");
  EXPECT_STREQ(ct_checkpoint_metadata_value(c.p, 0), "pt");

  CT_MAKE(lxt, ct_checkpoint_tensor(c.p, ct_checkpoint_find(c.p, "xt")));
  CT_MAKE(lrow, ct_checkpoint_tensor(c.p, ct_checkpoint_find(c.p, "row")));
  CT_MAKE(lscalar, ct_checkpoint_tensor(c.p, ct_checkpoint_find(c.p, "scalar")));
  CT_MAKE(lempty, ct_checkpoint_tensor(c.p, ct_checkpoint_find(c.p, "empty")));
  EXPECT_TRUE(ctt::sizes_are(lxt, {3, 2}));
  EXPECT_EQ(values<float>(lxt), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(values<float>(lrow), (std::vector<float>{3, 4, 5}));
  EXPECT_EQ(values<int64_t>(lscalar), (std::vector<int64_t>{7}));
  EXPECT_EQ(ct_tensor_ndim(lscalar), 0);
  EXPECT_TRUE(ctt::sizes_are(lempty, {0, 4}));
  EXPECT_EQ(ct_tensor_dtype(lempty), CT_BFLOAT16);
  EXPECT_EQ(ct_shares_storage(lxt, lrow), 1);
  EXPECT_EQ(ct_shares_storage(lxt, lscalar), 1);
  EXPECT_EQ(ct_tensor_is_contiguous(lxt), 1);

  ct_storage* s = ct_tensor_storage(lxt);
  EXPECT_EQ(ct_storage_is_read_only(s), 1);
  EXPECT_EQ(ct_storage_nbytes(s), int64_t(read_all(path).size()));
  EXPECT_EQ(ct_storage_is_resizable(s), 0);
  ct_storage_release(s);
  CT_EXPECT_FAIL(ct_fill_(lxt, 1.0), CT_ERR_READ_ONLY, CT_ERR_READ_ONLY, "");

  char buf[4096];
  ASSERT_GT(ct_explain(lxt, nullptr, buf, sizeof buf), 0);
  EXPECT_NE(std::string(buf).find("mapped from " + path + " at offset 0, read-only"), std::string::npos) << buf;

  // The tensors outlive the handle, and the mapping outlives both the handle and the file.
  ct_checkpoint_release(c.p);
  c.p = nullptr;
  std::remove(path.c_str());
  EXPECT_EQ(values<float>(lrow), (std::vector<float>{3, 4, 5}));
}

TEST_F(Safetensors, CopyOnWriteLeavesTheFileAndSharedWritesThrough) {
  const int32_t v[] = {1, 2, 3, 4};
  const int64_t s4[] = {4};
  CT_MAKE(t, ct_from_data(v, 1, s4, CT_INT32));
  const char* names[] = {"t"};
  const ct_tensor* ts[] = {t};
  const std::string path = file("modes.safetensors");
  CT_ASSERT_OK(ct_safetensors_save(path.c_str(), 1, names, ts, -1, nullptr, nullptr, 0));
  const std::string before = read_all(path);
  {
    CheckpointRef c{ct_safetensors_open(path.c_str(), CT_FILE_COPY_ON_WRITE)};
    ASSERT_NE(c.p, nullptr) << ctt::last_error_str();
    CT_MAKE(x, ct_checkpoint_tensor(c.p, 0));
    CT_ASSERT_OK(ct_fill_(x, 9));
    EXPECT_EQ(values<int32_t>(x), (std::vector<int32_t>{9, 9, 9, 9}));
    EXPECT_EQ(read_all(path), before);
  }
  {
    CheckpointRef c{ct_safetensors_open(path.c_str(), CT_FILE_COPY)};
    ASSERT_NE(c.p, nullptr) << ctt::last_error_str();
    CT_MAKE(x, ct_checkpoint_tensor(c.p, 0));
    CT_ASSERT_OK(ct_fill_(x, 8));
    EXPECT_EQ(read_all(path), before);
    char buf[2048];
    ct_explain(x, nullptr, buf, sizeof buf);
    EXPECT_NE(std::string(buf).find("memory owned by ctensor"), std::string::npos) << buf;
  }
  {
    CheckpointRef c{ct_safetensors_open(path.c_str(), CT_FILE_SHARED)};
    ASSERT_NE(c.p, nullptr) << ctt::last_error_str();
    CT_MAKE(x, ct_checkpoint_tensor(c.p, 0));
    CT_ASSERT_OK(ct_fill_(x, 5));
  }
  CheckpointRef c{ct_safetensors_open(path.c_str(), CT_FILE_READ_ONLY)};
  ASSERT_NE(c.p, nullptr) << ctt::last_error_str();
  CT_MAKE(x, ct_checkpoint_tensor(c.p, 0));
  EXPECT_EQ(values<int32_t>(x), (std::vector<int32_t>{5, 5, 5, 5}));
}

TEST_F(Safetensors, MisalignedTensorIsCopied) {
  // the data starts at an odd byte, so an F32 at begin 0 is misaligned
  const std::string header = "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
  const size_t pad = (5 - (8 + header.size()) % 4) % 4;  // (8 + header + pad) % 4 == 1
  const std::string h = header + std::string(pad, ' ');
  ASSERT_NE((8 + h.size()) % 4, 0u);
  const float one = 1.5f;
  const std::string bytes = image(h, std::string(reinterpret_cast<const char*>(&one), 4));
  CheckpointRef c{ct_safetensors_open_memory(bytes.data(), int64_t(bytes.size()))};
  ASSERT_NE(c.p, nullptr) << ctt::last_error_str();
  CT_MAKE(t, ct_checkpoint_tensor(c.p, 0));
  EXPECT_EQ(values<float>(t), std::vector<float>{1.5f});
  ct_storage* whole = ct_checkpoint_storage(c.p);
  ct_storage* own = ct_tensor_storage(t);
  EXPECT_NE(ct_storage_id(whole), ct_storage_id(own));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(ct_tensor_data(t)) % 4, 0u);
  ct_storage_release(whole);
  ct_storage_release(own);
}

TEST_F(Safetensors, HostileHeadersAreRefusedByName) {
  const std::string ok = "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
  struct Case {
    std::string bytes;
    ct_status status;
    const char* message;
  };
  std::string bomb(10000, '[');
  std::string huge(8, '\0');
  huge[4] = 1;  // 2^32 bytes of header
  std::string past(8, '\0');
  past[0] = 100;  // 100 bytes of header in an 8-byte file
  const std::vector<Case> cases = {
      {"1234", CT_ERR_INVALID_ARGUMENT, "too short for the 8-byte header length"},
      {huge, CT_ERR_INVALID_ARGUMENT, "header length 4294967296 exceeds the limit of 100000000 bytes"},
      {past, CT_ERR_INVALID_ARGUMENT, "header length 100 reaches past the end of the file (8 bytes)"},
      {image("{\"a\":"), CT_ERR_INVALID_ARGUMENT, "invalid JSON in header: EOF while parsing a value"},
      {image("{} x"), CT_ERR_INVALID_ARGUMENT, "trailing characters"},
      {image("\xff"), CT_ERR_INVALID_ARGUMENT, "invalid UTF-8 at byte 0"},
      {image("[]"), CT_ERR_INVALID_ARGUMENT, "the header is an array, not an object"},
      {image(bomb), CT_ERR_INVALID_ARGUMENT, "recursion limit exceeded"},
      {image(ok + " "), CT_ERR_INVALID_ARGUMENT, "cover 4 bytes of data, but the file holds 0 (offsets past the end"},
      {image(ok, "123"), CT_ERR_INVALID_ARGUMENT, "the tensors cover 4 bytes of data, but the file holds 3"},
      {image(ok, "12345"), CT_ERR_INVALID_ARGUMENT, "(trailing bytes)"},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}", "1234"), CT_ERR_INVALID_ARGUMENT,
       "needs 8 bytes, but its data_offsets [0, 4] hold 4"},
      {image("{\"a\":{\"dtype\":\"C128\",\"shape\":[1],\"data_offsets\":[0,4]}}", "1234"), CT_ERR_INVALID_ARGUMENT,
       "unknown dtype \"C128\""},
      {image("{\"a\":{\"dtype\":\"F8_E4M3\",\"shape\":[4],\"data_offsets\":[0,4]}}", "1234"), CT_ERR_DTYPE,
       "dtype F8_E4M3, which ctensor does not have"},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", "1234"), CT_ERR_INVALID_ARGUMENT,
       "shape entry -1 is not a non-negative integer"},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,4]}}", "1234"),
       CT_ERR_INVALID_ARGUMENT, "whose byte size overflows int64"},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,0]}}", "1234"), CT_ERR_INVALID_ARGUMENT,
       "end before they begin"},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
             "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
             "1234"),
       CT_ERR_INVALID_ARGUMENT, "tensor 'b' has data_offsets [0, 4] but the previous tensor 'a' ends at 4 (overlapping"},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}", "12345678"), CT_ERR_INVALID_ARGUMENT,
       "but the data starts at 0 (a gap)"},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},\"a\":{}}", "1234"),
       CT_ERR_INVALID_ARGUMENT, "duplicate key \"a\""},
      {image("{\"__metadata__\":{\"k\":1}}"), CT_ERR_INVALID_ARGUMENT, "metadata \"k\" is a number, not a string"},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}"), CT_ERR_INVALID_ARGUMENT, "lacks \"data_offsets\""},
      {image("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,9223372036854775808]}}"),
       CT_ERR_INVALID_ARGUMENT, "are not non-negative integers below 2^63"},
      {image("{\"a\":\"\\ud800\"}"), CT_ERR_INVALID_ARGUMENT, "lone leading surrogate"},
  };
  for (const auto& c : cases) {
    ct_clear_error();
    ct_checkpoint* p = ct_safetensors_open_memory(c.bytes.data(), int64_t(c.bytes.size()));
    EXPECT_EQ(p, nullptr) << c.message;
    ct_checkpoint_release(p);
    EXPECT_TRUE(ctt::expect_error(c.status, c.message));
    EXPECT_NE(std::string(ct_last_error()).find("<memory>"), std::string::npos) << ct_last_error();
  }
  // The same through a file: the message names it.
  const std::string path = file("bad.safetensors");
  write_all(path, image(ok, "123"));
  EXPECT_EQ(ct_safetensors_open(path.c_str(), CT_FILE_READ_ONLY), nullptr);
  EXPECT_TRUE(ctt::expect_error(CT_ERR_INVALID_ARGUMENT, ("'" + path + "': the tensors cover 4 bytes").c_str()));
}

TEST_F(Safetensors, AcceptsWhatThePackageAccepts) {
  // null metadata, extra entry keys, offsets out of file order, whitespace around the object
  const std::string h =
      "  {\"__metadata__\":null,\"b\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[4,6],\"x\":[1]},"
      "\"a\":{\"data_offsets\":[0,4],\"shape\":[],\"dtype\":\"I32\"}}  ";
  const std::string bytes = image(h, std::string("\x01\x00\x00\x00\x07\x08", 6));
  CheckpointRef c{ct_safetensors_open_memory(bytes.data(), int64_t(bytes.size()))};
  ASSERT_NE(c.p, nullptr) << ctt::last_error_str();
  EXPECT_EQ(ct_checkpoint_has_metadata(c.p), 0);
  CT_MAKE(b, ct_checkpoint_tensor(c.p, 1));
  EXPECT_EQ(values<uint8_t>(b), (std::vector<uint8_t>{7, 8}));
  CT_EXPECT_FAIL(ct_checkpoint_find(c.p, "zz"), -1, CT_ERR_INDEX, "no tensor named 'zz' in <memory>");
  CT_EXPECT_NULL(ct_checkpoint_tensor(c.p, 2), CT_ERR_INDEX, "index 2 is out of range");
  EXPECT_EQ(ct_checkpoint_name(c.p, -1), nullptr);
  EXPECT_EQ(ct_checkpoint_metadata_key(c.p, 0), nullptr);
}

TEST_F(Safetensors, StorageFromFile) {
  const std::string path = file("raw.bin");
  write_all(path, "0123456789");
  ct_storage* s = ct_storage_from_file(path.c_str(), 3, 4, CT_FILE_READ_ONLY);
  ASSERT_NE(s, nullptr) << ctt::last_error_str();
  EXPECT_EQ(ct_storage_nbytes(s), 4);
  EXPECT_EQ(std::string(static_cast<const char*>(ct_storage_data(s)), 4), "3456");
  EXPECT_EQ(ct_storage_is_read_only(s), 1);
  EXPECT_EQ(ct_storage_refcount(s), 1);
  CT_MAKE(t, ct_empty(1, std::vector<int64_t>{0}.data(), CT_UINT8));
  const int64_t sz[] = {2};
  CT_ASSERT_OK(ct_set_storage_strided_(t, s, 1, 1, sz, -1, nullptr));
  EXPECT_EQ(ct_storage_refcount(s), 2);
  char buf[2048];
  ct_explain(t, nullptr, buf, sizeof buf);
  EXPECT_NE(std::string(buf).find("mapped from " + path + " at offset 3"), std::string::npos) << buf;
  ct_storage_release(s);
  EXPECT_EQ(values<uint8_t>(t), (std::vector<uint8_t>{'4', '5'}));

  ct_storage* whole = ct_storage_from_file(path.c_str(), 0, -1, CT_FILE_SHARED);
  ASSERT_NE(whole, nullptr) << ctt::last_error_str();
  EXPECT_EQ(ct_storage_nbytes(whole), 10);
  static_cast<char*>(ct_storage_data(whole))[0] = 'X';
  ct_storage_release(whole);
  EXPECT_EQ(read_all(path), "X123456789");

  EXPECT_TRUE(null_with(ct_storage_from_file((dir_ + "/missing").c_str(), 0, -1, CT_FILE_READ_ONLY),
                 CT_ERR_INVALID_ARGUMENT, "/missing': No such file or directory"));
  EXPECT_TRUE(null_with(ct_storage_from_file(path.c_str(), 8, 3, CT_FILE_READ_ONLY), CT_ERR_INVALID_ARGUMENT,
                 "reach past the end of"));
  EXPECT_TRUE(null_with(ct_storage_from_file(path.c_str(), 11, -1, CT_FILE_READ_ONLY), CT_ERR_INVALID_ARGUMENT,
                 "offset 11 is past the end"));
  EXPECT_TRUE(null_with(ct_storage_from_file(path.c_str(), -1, -1, CT_FILE_READ_ONLY), CT_ERR_INVALID_ARGUMENT,
                 "offset -1 is negative"));
  EXPECT_TRUE(null_with(ct_storage_from_file(dir_.c_str(), 0, -1, CT_FILE_READ_ONLY), CT_ERR_INVALID_ARGUMENT,
                 "is not a regular file"));
  EXPECT_TRUE(null_with(ct_storage_from_file(path.c_str(), 0, -1, (ct_file_mode)3), CT_ERR_INVALID_ARGUMENT, "mode 3"));
  EXPECT_TRUE(null_with(ct_storage_from_file(nullptr, 0, -1, CT_FILE_READ_ONLY), CT_ERR_INVALID_ARGUMENT, "path is NULL"));
  EXPECT_TRUE(null_with(ct_safetensors_open((dir_ + "/missing").c_str(), CT_FILE_COPY), CT_ERR_INVALID_ARGUMENT,
                 "No such file or directory"));
}

TEST_F(Safetensors, SaveRefusals) {
  CT_MAKE(a, ct_zeros(1, std::vector<int64_t>{2}.data(), CT_FLOAT32));
  const std::string path = file("refused.safetensors");
  const char* dup[] = {"a", "a"};
  const ct_tensor* two[] = {a, a};
  CT_EXPECT_FAIL(ct_safetensors_save(path.c_str(), 2, dup, two, -1, nullptr, nullptr, CT_SAVE_COPY_SHARED),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "the name 'a' is given twice");
  const char* reserved[] = {"__metadata__"};
  CT_EXPECT_FAIL(ct_safetensors_save(path.c_str(), 1, reserved, two, -1, nullptr, nullptr, 0),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "reserved");
  const char* one[] = {"a"};
  const char* keys[] = {"k", "k"};
  const char* vals[] = {"1", "2"};
  CT_EXPECT_FAIL(ct_safetensors_save(path.c_str(), 1, one, two, 2, keys, vals, 0), CT_ERR_INVALID_ARGUMENT,
                 CT_ERR_INVALID_ARGUMENT, "metadata key 'k' is given twice");
  CT_EXPECT_FAIL(ct_safetensors_save((dir_ + "/no/such/dir").c_str(), 1, one, two, -1, nullptr, nullptr, 0),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "No such file or directory");
  const ct_tensor* null_tensor[] = {nullptr};
  CT_EXPECT_FAIL(ct_safetensors_save(path.c_str(), 1, one, null_tensor, -1, nullptr, nullptr, 0),
                 CT_ERR_INVALID_ARGUMENT, CT_ERR_INVALID_ARGUMENT, "");
  EXPECT_NE(access(path.c_str(), F_OK), 0);
  // empty metadata is written as an empty object, read back as present
  CT_ASSERT_OK(ct_safetensors_save(path.c_str(), 0, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CheckpointRef c{ct_safetensors_open(path.c_str(), CT_FILE_READ_ONLY)};
  ASSERT_NE(c.p, nullptr) << ctt::last_error_str();
  EXPECT_EQ(ct_checkpoint_count(c.p), 0);
  EXPECT_EQ(ct_checkpoint_has_metadata(c.p), 1);
}

}  // namespace
