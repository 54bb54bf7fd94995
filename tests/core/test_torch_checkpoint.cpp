// The .pt readers on hand-made bytes: the zip central-directory reader (classic and zip64
// records, alignment, hostile offsets at every truncation), the restricted unpickler
// (opcodes, refused globals, memo and nesting limits, tensor bounds, one storage per key),
// and torchpt::open_memory on a whole archive (entries, sharing, structure JSON).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/live_count.h"
#include "core/pickle_reader.h"
#include "core/torch_checkpoint.h"
#include "core/torch_save.h"
#include "core/zip_archive.h"

namespace ct {
namespace {

void put(std::string& s, uint64_t v, int n) {
  for (int i = 0; i < n; ++i) s += char((v >> (8 * i)) & 0xff);
}

struct ZipItem {
  std::string name, data;
};

// A zip of stored entries, data aligned to 64 bytes as torch.save writes them; zip64 puts
// every size and offset in zip64 records and extra fields.
std::string make_zip(const std::vector<ZipItem>& items, bool zip64) {
  std::string out, cd;
  for (const ZipItem& e : items) {
    const uint64_t off = out.size();
    size_t xlen = (64 - (off + 30 + e.name.size()) % 64) % 64;
    if (xlen > 0 && xlen < 4) xlen += 64;
    put(out, 0x04034b50, 4);
    put(out, 20, 2), put(out, 0, 2), put(out, 0, 2), put(out, 0, 4), put(out, 0, 4);
    put(out, e.data.size(), 4), put(out, e.data.size(), 4);
    put(out, e.name.size(), 2), put(out, xlen, 2);
    out += e.name;
    if (xlen) {
      put(out, 0x4246, 2), put(out, xlen - 4, 2);
      out.append(xlen - 4, '\0');
    }
    out += e.data;
    put(cd, 0x02014b50, 4);
    put(cd, 20, 2), put(cd, 20, 2), put(cd, 0, 2), put(cd, 0, 2), put(cd, 0, 4), put(cd, 0, 4);
    put(cd, zip64 ? 0xFFFFFFFF : e.data.size(), 4), put(cd, zip64 ? 0xFFFFFFFF : e.data.size(), 4);
    put(cd, e.name.size(), 2), put(cd, zip64 ? 28 : 0, 2), put(cd, 0, 2), put(cd, 0, 2), put(cd, 0, 2), put(cd, 0, 4);
    put(cd, zip64 ? 0xFFFFFFFF : off, 4);
    cd += e.name;
    if (zip64) {
      put(cd, 1, 2), put(cd, 24, 2), put(cd, e.data.size(), 8), put(cd, e.data.size(), 8), put(cd, off, 8);
    }
  }
  const uint64_t cd_off = out.size();
  out += cd;
  if (zip64) {
    const uint64_t rec = out.size();
    put(out, 0x06064b50, 4), put(out, 44, 8), put(out, 20, 2), put(out, 20, 2), put(out, 0, 4), put(out, 0, 4);
    put(out, items.size(), 8), put(out, items.size(), 8), put(out, cd.size(), 8), put(out, cd_off, 8);
    put(out, 0x07064b50, 4), put(out, 0, 4), put(out, rec, 8), put(out, 1, 4);
  }
  put(out, 0x06054b50, 4), put(out, 0, 2), put(out, 0, 2);
  put(out, zip64 ? 0xFFFF : items.size(), 2), put(out, zip64 ? 0xFFFF : items.size(), 2);
  put(out, zip64 ? 0xFFFFFFFF : cd.size(), 4), put(out, zip64 ? 0xFFFFFFFF : cd_off, 4), put(out, 0, 2);
  return out;
}

std::string errors_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ZipArchive, ReadsClassicAndZip64Alike) {
  for (bool zip64 : {false, true}) {
    const std::string z = make_zip({{"a/data.pkl", "xyz"}, {"a/data/0", std::string(40, 'q')}, {"a/e", ""}}, zip64);
    auto es = zip::read_directory(z.data(), int64_t(z.size()), "'t.zip'", "test");
    ASSERT_EQ(es.size(), 3u);
    EXPECT_EQ(es[0].name, "a/data.pkl");
    EXPECT_EQ(es[1].name, "a/data/0");
    EXPECT_EQ(es[1].offset % 64, 0);
    EXPECT_EQ(es[1].size, 40);
    EXPECT_EQ(z.substr(size_t(es[0].offset), 3), "xyz");
    EXPECT_EQ(es[2].size, 0);
    EXPECT_EQ(es[1].crc, 0u);  // make_zip records none
  }
}

TEST(ZipArchive, CrcCheckedOnCopyZeroMeansNone) {
  const std::string data = "123456789";  // the zip CRC-32 check value: 0xcbf43926
  EXPECT_EQ(zip::crc32(0, data.data(), 9), 0xcbf43926u);
  EXPECT_EQ(zip::crc32(zip::crc32(0, data.data(), 4), data.data() + 4, 5), 0xcbf43926u);  // continues
  zip::Entry e{"a/data/0", 0, 9, 0xcbf43926u};
  std::string out(9, '\0');
  EXPECT_EQ(errors_of([&] { zip::check_crc(e, data.data(), "'t.pt'", "test"); }), "");
  EXPECT_EQ(errors_of([&] { zip::copy_checked(e, data.data(), out.data(), "'t.pt'", "test"); }), "");
  EXPECT_EQ(out, data);
  const std::string bad = "123456780";
  const std::string want = "test: 't.pt': entry 'a/data/0': CRC-32 mismatch: the archive records 0xcbf43926, the data has 0x" ;
  EXPECT_EQ(errors_of([&] { zip::check_crc(e, bad.data(), "'t.pt'", "test"); }).rfind(want, 0), 0u);
  EXPECT_EQ(errors_of([&] { zip::copy_checked(e, bad.data(), out.data(), "'t.pt'", "test"); }).rfind(want, 0), 0u);
  e.crc = 0;  // none recorded (torch's set_crc32_options(False))
  EXPECT_EQ(errors_of([&] { zip::check_crc(e, bad.data(), "'t.pt'", "test"); }), "");
  // copy_checked over more than one chunk: the CRC continues across chunks
  std::string big(size_t(600) << 10, 'x');
  big[12345] = 'y';
  std::string dst(big.size(), '\0');
  zip::Entry b{"a/data/1", 0, int64_t(big.size()), zip::crc32(0, big.data(), int64_t(big.size()))};
  EXPECT_EQ(errors_of([&] { zip::copy_checked(b, big.data(), dst.data(), "'t.pt'", "test"); }), "");
  EXPECT_EQ(dst, big);
}

TEST(ZipArchive, EveryTruncationIsAClearError) {
  for (bool zip64 : {false, true}) {
    const std::string z = make_zip({{"a/data.pkl", "xyz"}, {"a/data/0", std::string(40, 'q')}}, zip64);
    for (size_t n = 0; n < z.size(); ++n) {
      const std::string cut = z.substr(0, n);  // an exact-size buffer: ASan sees any overread
      const std::string msg = errors_of([&] { zip::read_directory(cut.data(), int64_t(n), "'t.zip'", "test"); });
      EXPECT_NE(msg.find("test: 't.zip': "), std::string::npos) << n << ": " << msg;
    }
  }
}

TEST(ZipArchive, HostileFieldsNamed) {
  std::string z = make_zip({{"a/x", "hello"}}, false);
  const size_t cd = z.find("PK\x01\x02");
  std::string bad = z;
  bad[cd + 10] = 8;  // deflate
  EXPECT_NE(errors_of([&] { zip::read_directory(bad.data(), int64_t(bad.size()), "'t'", "op"); }).find("is compressed (method 8)"),
            std::string::npos);
  bad = z;
  bad[cd + 24] = char(0xff);  // uncompressed size != compressed size
  EXPECT_NE(errors_of([&] { zip::read_directory(bad.data(), int64_t(bad.size()), "'t'", "op"); }).find("compressed size"),
            std::string::npos);
  bad = z;
  for (int i = 0; i < 4; ++i) bad[cd + 20 + i] = bad[cd + 24 + i] = char(0x7f);  // huge size
  EXPECT_NE(errors_of([&] { zip::read_directory(bad.data(), int64_t(bad.size()), "'t'", "op"); }).find("reaches past"),
            std::string::npos);
  // two entries whose data overlap: the second's local offset points at the first
  std::string two = make_zip({{"a/x", std::string(100, 'a')}, {"a/y", std::string(100, 'b')}}, false);
  const size_t cd1 = two.find("PK\x01\x02");
  const size_t cd2 = two.find("PK\x01\x02", cd1 + 4);
  std::string y = two;
  y.replace(cd2 + 42, 4, two.substr(cd1 + 42, 4));
  EXPECT_NE(errors_of([&] { zip::read_directory(y.data(), int64_t(y.size()), "'t'", "op"); }).find("overlap"),
            std::string::npos);
}

// ---- pickles --------------------------------------------------------------------------
std::string U(const std::string& s) {
  std::string out = "X";
  put(out, s.size(), 4);
  return out + s;
}
const std::string kRebuild = "ctorch._utils\n_rebuild_tensor_v2\n";
const std::string kFloat = "ctorch\nFloatStorage\n";
std::string pid(const std::string& key, int numel) {
  return "((" + U("storage") + kFloat + U(key) + U("cpu") + "K" + char(numel) + "tQ";
}
// _rebuild_tensor_v2 of storage `key` with 2-d size and stride
std::string tensor(const std::string& key, int numel, int off, int s0, int s1, int st0, int st1) {
  return kRebuild + pid(key, numel) + "K" + char(off) + "K" + char(s0) + "K" + char(s1) + "\x86" + "K" + char(st0) +
         "K" + char(st1) + "\x86\x89}tR";
}

struct Source {
  int calls = 0;
  pickle::StorageSource fn() {
    return [this](const std::string&, DType d, int64_t numel) {
      ++calls;
      return Ref<Storage>::adopt(Storage::allocate(numel * itemsize(d), "test"));
    };
  }
};

pickle::Result unpickle(const std::string& p, Source& src, const pickle::Limits& lim = pickle::Limits()) {
  return pickle::load(p.data(), int64_t(p.size()), src.fn(), "'m.pt'", "op", lim);
}

TEST(Unpickler, ContainersAndScalars) {
  Source src;
  const std::string p = std::string("\x80\x02}(") + U("a") + "J\xfe\xff\xff\xff" + U("b") + "](G\x3f\xf8" +
                        std::string(6, '\0') + std::string("N\x88\x8a\x02\x00\x01" "e", 7) + U("c") +
                        std::string("\x8a\x00u.", 4);
  auto r = unpickle(p, src);
  ASSERT_EQ(r.root->kind, pickle::Kind::Dict);
  ASSERT_EQ(r.root->items.size(), 6u);
  EXPECT_EQ(r.root->items[1]->i, -2);
  const pickle::Value* b = r.root->items[3];
  ASSERT_EQ(b->items.size(), 4u);
  EXPECT_EQ(b->items[0]->f, 1.5);
  EXPECT_EQ(b->items[1]->kind, pickle::Kind::None);
  EXPECT_TRUE(b->items[2]->b);
  EXPECT_EQ(b->items[3]->i, 256);
  EXPECT_EQ(r.root->items[5]->i, 0);
}

TEST(Unpickler, OneStoragePerKeyAndTensorsOnIt) {
  Source src;
  const int64_t t0 = live_tensors(), s0 = live_storages();
  {
    const std::string p = "\x80\x02}(" + U("w") + tensor("0", 6, 0, 2, 3, 3, 1) + U("t") + tensor("0", 6, 0, 3, 2, 1, 3) + "u.";
    // both persistent ids name key "0": the loader gives one storage (here the source is
    // called twice and the caller, torchpt, caches); the unpickler makes two tensors
    auto r = unpickle(p, src);
    ASSERT_EQ(r.tensors.size(), 2u);
    EXPECT_EQ(r.tensors[1]->strides()[1], 3);
  }
  EXPECT_EQ(live_tensors(), t0);
  EXPECT_EQ(live_storages(), s0);
}

TEST(Unpickler, RefusesAndLimits) {
  Source src;
  auto err = [&](const std::string& p, pickle::Limits lim = pickle::Limits()) {
    return errors_of([&] { unpickle(p, src, lim); });
  };
  EXPECT_NE(err("\x80\x02" "cos\nsystem\n" + U("ls") + "\x85R.").find("global 'os.system' is not allowed"), std::string::npos);
  EXPECT_NE(err("\x80\x02" "cbuiltins\neval\n.").find("global 'builtins.eval' is not allowed"), std::string::npos);
  EXPECT_NE(err("\x80\x02" "ctorch\nQInt8Storage\n.").find("has no ctensor dtype"), std::string::npos);
  EXPECT_NE(err("\x80\x02" "]r\xff\xff\xff\x7f.").find("memo index 2147483647 is over the limit"), std::string::npos);
  EXPECT_NE(err("\x80\x02h\x05.").find("memo index 5 was never written"), std::string::npos);
  EXPECT_NE(err(std::string("\x80\x02") + std::string(2000, '(')).find("nested MARKs"), std::string::npos);
  pickle::Limits small;
  small.max_stack = 10;
  EXPECT_NE(err(std::string("\x80\x02") + std::string(20, 'N'), small).find("values on the stack"), std::string::npos);
  small = pickle::Limits();
  small.max_objects = 5;
  EXPECT_NE(err(std::string("\x80\x02") + "](NNNNNNNe.", small).find("objects"), std::string::npos);
  EXPECT_NE(err("\x80\x02" "\x8a\x09" + std::string(9, '\1') + ".").find("at most 64-bit"), std::string::npos);
  EXPECT_NE(err("\x80\x02" "0").find("opcode POP (0x30)"), std::string::npos);
  EXPECT_NE(err("\x80\x02" "N").find("truncated"), std::string::npos);
  EXPECT_NE(err("\x80\x02" "NN.").find("STOP with 2 values"), std::string::npos);
  // bounds: 2x3 with offset 1 on 6 elements reaches element 6
  EXPECT_NE(err("\x80\x02" + tensor("0", 6, 1, 2, 3, 3, 1) + ".").find("reaches element 6 of a storage of 6 float32"),
            std::string::npos);
  // every truncation of a valid pickle is an error, never a crash
  const std::string good = "\x80\x02}(" + U("w") + tensor("0", 6, 0, 2, 3, 3, 1) + "u.";
  for (size_t n = 0; n < good.size(); ++n) {
    const std::string cut = good.substr(0, n);
    EXPECT_NE(err(cut), "") << n;
  }
}

// ---- whole archives -------------------------------------------------------------------
TEST(TorchCheckpoint, EntriesSharingAndStructure) {
  const int64_t t0 = live_tensors(), s0 = live_storages();
  {
    const std::string p = "\x80\x02}(" + U("w") + tensor("0", 6, 0, 2, 3, 3, 1) + "q\x01" + U("t") +
                          tensor("0", 6, 0, 3, 2, 1, 3) + U("same") + "h\x01" + U("l") + "](K\x07" + U("s") + "eu.";
    std::string data(24, '\0');
    for (int i = 0; i < 6; ++i) reinterpret_cast<float*>(data.data())[i] = float(i);
    for (bool zip64 : {false, true}) {
      const std::string z =
          make_zip({{"m/data.pkl", p}, {"m/byteorder", "little"}, {"m/data/0", data}, {"m/version", "3\n"}}, zip64);
      std::unique_ptr<torchpt::Checkpoint> c(torchpt::open_memory(z.data(), int64_t(z.size()), "op"));
      ASSERT_EQ(c->count(), 3);
      EXPECT_EQ(c->name(0), "w");
      EXPECT_EQ(c->name(1), "t");
      EXPECT_EQ(c->name(2), "same");
      EXPECT_EQ(c->tensor(0).get(), c->tensor(2).get());  // one object saved twice
      EXPECT_EQ(c->tensor(0)->storage(), c->tensor(1)->storage());
      EXPECT_EQ(c->storages, 1);
      EXPECT_EQ(reinterpret_cast<const float*>(c->tensor(1)->data())[5], 5.0f);
      ASSERT_EQ(c->metadata().size(), 2u);
      EXPECT_EQ(c->metadata()[0], std::make_pair(std::string("l.0"), std::string("7")));
      EXPECT_EQ(c->metadata()[1], std::make_pair(std::string("l.1"), std::string("\"s\"")));
      EXPECT_EQ(c->structure(),
                "{\"dict\": [[\"w\", {\"tensor\": 0}], [\"t\", {\"tensor\": 1}], [\"same\", {\"tensor\": 0}], "
                "[\"l\", {\"list\": [7, \"s\"]}]]}");
    }
    const std::string big = make_zip({{"m/data.pkl", p}, {"m/byteorder", "big"}, {"m/data/0", data}}, false);
    EXPECT_NE(errors_of([&] { delete torchpt::open_memory(big.data(), int64_t(big.size()), "op"); }).find("big-endian"),
              std::string::npos);
    const std::string missing = make_zip({{"m/data.pkl", p}}, false);
    EXPECT_NE(errors_of([&] { delete torchpt::open_memory(missing.data(), int64_t(missing.size()), "op"); })
                  .find("storage '0' has no entry m/data/0"),
              std::string::npos);
    const std::string short_data = make_zip({{"m/data.pkl", p}, {"m/data/0", data.substr(4)}}, false);
    EXPECT_NE(errors_of([&] { delete torchpt::open_memory(short_data.data(), int64_t(short_data.size()), "op"); })
                  .find("holds 20 bytes, but data.pkl declares 6 float32 elements (24 bytes)"),
              std::string::npos);
  }
  EXPECT_EQ(live_tensors(), t0);
  EXPECT_EQ(live_storages(), s0);
}

TEST(TorchSave, RoundTripKeepsSharingAndNesting) {
  const int64_t t0 = live_tensors(), s0 = live_storages();
  const std::string path = ::testing::TempDir() + "ct_torch_save_test.pt";
  {
    Ref<Tensor> a = Tensor::empty(Shape{2, 3}, DType::Float64, "test");
    for (int i = 0; i < 6; ++i) reinterpret_cast<double*>(a->data())[i] = i * 1.5;
    Ref<Tensor> b = Tensor::make(a->storage(), DType::Float64, Shape{3, 2}, Shape{1, 3}, 0, nullptr);
    Ref<Tensor> c = Tensor::make(a->storage(), DType::Float64, Shape{2}, Shape{1}, 4, nullptr);
    Ref<Tensor> other = Tensor::empty(Shape{0}, DType::Int16, "test");
    torchpt::save_file(path,
                       "{\"odict\": [[\"a\", {\"tensor\": 0}], [\"t\", {\"tensor\": 1}], [\"again\", {\"tensor\": 0}], "
                       "[\"l\", {\"list\": [{\"tensor\": 2}, {\"tensor\": 3}, -70000, 2.5e-3, \"s\", null]}]], "
                       "\"attrs\": {\"dict\": [[\"_metadata\", {\"dict\": []}]]}}",
                       {a.get(), b.get(), c.get(), other.get()}, "op");
    std::unique_ptr<torchpt::Checkpoint> k(torchpt::open_file(path, 3, "op"));
    ASSERT_EQ(k->count(), 5);
    EXPECT_EQ(k->name(3), "l.0");
    EXPECT_EQ(k->tensor(0).get(), k->tensor(2).get());
    EXPECT_EQ(k->tensor(0)->storage(), k->tensor(1)->storage());
    EXPECT_EQ(k->tensor(0)->storage(), k->tensor(3)->storage());
    EXPECT_NE(k->tensor(0)->storage(), k->tensor(4)->storage());
    EXPECT_EQ(k->tensor(3)->offset(), 4);
    EXPECT_EQ(k->tensor(1)->strides()[1], 3);
    EXPECT_EQ(reinterpret_cast<const double*>(k->tensor(3)->data())[1], 7.5);
    EXPECT_EQ(k->storages, 2);
    EXPECT_EQ(k->structure(),
              "{\"odict\": [[\"a\", {\"tensor\": 0}], [\"t\", {\"tensor\": 1}], [\"again\", {\"tensor\": 0}], "
              "[\"l\", {\"list\": [{\"tensor\": 3}, {\"tensor\": 4}, -70000, 0.0025, \"s\", null]}]], "
              "\"attrs\": {\"dict\": [[\"_metadata\", {\"dict\": []}]]}}");
    // the zip layout: every storage 64-byte aligned
    std::unique_ptr<torchpt::Checkpoint> m(torchpt::open_file(path, 0, "op"));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(m->tensor(0)->storage()->data()) % 64, 0u);
    // a dtype clash on one storage is refused and leaves no file
    Ref<Tensor> as_int = Tensor::make(a->storage(), DType::Int64, Shape{6}, Shape{1}, 0, nullptr);
    const std::string bad = ::testing::TempDir() + "ct_torch_save_bad.pt";
    EXPECT_NE(errors_of([&] {
                torchpt::save_file(bad, "{\"list\": [{\"tensor\": 0}, {\"tensor\": 1}]}", {a.get(), as_int.get()}, "op");
              }).find("shares a storage with a float64 tensor"),
              std::string::npos);
    EXPECT_NE(access(bad.c_str(), F_OK), 0);
    EXPECT_NE(errors_of([&] { torchpt::save_file(bad, "{\"tensor\": 5}", {a.get()}, "op"); }).find("out of range"),
              std::string::npos);
  }
  std::remove(path.c_str());
  EXPECT_EQ(live_tensors(), t0);
  EXPECT_EQ(live_storages(), s0);
}

}  // namespace
}  // namespace ct
