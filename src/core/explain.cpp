// Explaining tensors in words; counting shared elements (Note [Counting shared elements]).
#include "explain.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <sstream>
#include <vector>

#include "error.h"
#include "mapped_file.h"
#include "memory_format.h"
#include "overlap.h"

namespace ct {
namespace {

// The memory formats t's strides match exactly (torch's is_contiguous(memory_format=)), and the
// one torch would suggest for new tensors made like it (suggest_memory_format).
std::string memory_format_words(const Tensor& t) {
  std::string exact;
  for (MemoryFormat f : {MemoryFormat::Contiguous, MemoryFormat::ChannelsLast, MemoryFormat::ChannelsLast3d}) {
    if (!is_contiguous_as(t.sizes(), t.strides(), f)) continue;
    exact += exact.empty() ? "" : " and ";
    exact += memory_format_name(f);
  }
  if (exact.empty()) exact = "none exactly";
  else if (exact.find(" and ") != std::string::npos) exact += " (size-1 dims make both match)";
  return exact + "; suggested for new tensors like it: " + memory_format_name(suggest_memory_format(t));
}

using i128 = __int128;

// Bytes [lo, hi) of the address space.
struct Interval {
  i128 lo;
  i128 hi;
};

struct Dim {
  i128 stride;  // > 0, in elements
  i128 size;    // > 1
};

// The disjoint, sorted byte intervals covered by t's elements (each a whole number of
// elements); false if more than max_runs runs would be needed.
bool element_intervals(const Tensor& t, int64_t max_runs, std::vector<Interval>& out) {
  out.clear();
  if (t.numel() == 0) return true;
  i128 first = t.offset();  // element offset of the lowest element
  std::vector<Dim> dims;
  for (int d = 0; d < t.ndim(); ++d) {
    const i128 n = t.size(d), s = t.stride(d);
    if (n <= 1 || s == 0) continue;
    if (s < 0) first += s * (n - 1);
    dims.push_back({s < 0 ? -s : s, n});
  }
  std::sort(dims.begin(), dims.end(), [](const Dim& x, const Dim& y) { return x.stride < y.stride; });
  std::vector<Dim> folded;  // smallest stride first
  for (const Dim& d : dims) {
    if (!folded.empty() && d.stride == folded.back().stride * folded.back().size) {
      folded.back().size *= d.size;
    } else {
      folded.push_back(d);
    }
  }
  i128 run_len = 1;
  size_t outer_begin = 0;
  if (!folded.empty() && folded[0].stride == 1) {
    run_len = folded[0].size;
    outer_begin = 1;
  }
  i128 runs = 1;
  for (size_t k = outer_begin; k < folded.size(); ++k) {
    runs *= folded[k].size;
    if (runs > max_runs) return false;
  }
  const i128 isz = t.itemsize();
  const i128 origin = i128(uintptr_t(t.storage()->data())) + first * isz;
  std::vector<Dim> outer(folded.begin() + std::ptrdiff_t(outer_begin), folded.end());
  std::vector<i128> index(outer.size(), 0);
  out.reserve(size_t(runs));
  i128 pos = 0;  // element offset of the current run relative to `first`
  for (;;) {
    const i128 lo = origin + pos * isz;
    out.push_back({lo, lo + run_len * isz});
    size_t k = 0;
    for (; k < outer.size(); ++k) {  // odometer, fastest on the smallest stride
      if (++index[k] < outer[k].size) {
        pos += outer[k].stride;
        break;
      }
      pos -= outer[k].stride * (outer[k].size - 1);
      index[k] = 0;
    }
    if (k == outer.size()) break;
  }
  std::sort(out.begin(), out.end(), [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
  size_t n = 0;
  for (const Interval& iv : out) {
    if (n > 0 && iv.lo <= out[n - 1].hi) {
      out[n - 1].hi = std::max(out[n - 1].hi, iv.hi);
    } else {
      out[n++] = iv;
    }
  }
  out.resize(n);
  return true;
}

i128 element_count(const std::vector<Interval>& elems, i128 isz) {
  i128 n = 0;
  for (const Interval& iv : elems) n += (iv.hi - iv.lo) / isz;
  return n;
}

// Elements of `elems` (intervals of whole elements of isz bytes) that share a byte with
// `bytes`; both lists sorted and disjoint.
i128 count_touched(const std::vector<Interval>& elems, i128 isz, const std::vector<Interval>& bytes) {
  i128 count = 0;
  size_t i = 0, j = 0;
  i128 last_counted = -1;  // element index within elems[i] counted last
  while (i < elems.size() && j < bytes.size()) {
    const Interval& e = elems[i];
    const Interval& b = bytes[j];
    const i128 lo = std::max(e.lo, b.lo), hi = std::min(e.hi, b.hi);
    if (lo < hi) {
      const i128 k1 = std::max((lo - e.lo) / isz, last_counted + 1), k2 = (hi - 1 - e.lo) / isz;
      if (k2 >= k1) {
        count += k2 - k1 + 1;
        last_counted = k2;
      }
    }
    if (e.hi <= b.hi) {
      ++i;
      last_counted = -1;
    } else {
      ++j;
    }
  }
  return count;
}

std::string yes_no(bool v) { return v ? "yes" : "no"; }

std::string address(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIxPTR, uintptr_t(p));
  return buf;
}

// A 128-bit integer in decimal (iostreams print no __int128).
std::string int128_str(__int128 v) {
  if (v == 0) return "0";
  const bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  for (; u; u /= 10) digits.insert(digits.begin(), char('0' + int(u % 10)));
  return neg ? "-" + digits : digits;
}

// One tensor's block: "name: ..." then indented lines.
void describe(std::ostringstream& os, const char* name, const Tensor& t) {
  const Storage& s = *t.storage();
  const int64_t isz = t.itemsize();
  os << name << ": tensor of shape " << list_str(t.sizes()) << ", dtype " << dtype_name(t.dtype())
     << ", " << t.numel() << (t.numel() == 1 ? " element\n" : " elements\n");
  os << "  storage: id " << s.id() << ", " << s.nbytes() << " bytes";
  if (s.nbytes() % isz == 0) os << " (" << s.nbytes() / isz << " elements of " << isz << " bytes)";
  std::string mapped_path;
  int64_t mapped_offset = 0;
  if (mapped_origin(s, &mapped_path, &mapped_offset)) {
    os << ", mapped from " << mapped_path << " at offset " << mapped_offset;
  } else {
    os << ", " << (s.owns_memory() ? "memory owned by ctensor" : "foreign memory");
  }
  os << (s.read_only() ? ", read-only" : "") << "\n";
  os << "  storage refcount: " << s.refcount() << " (tensors and storage handles on it)\n";
  if (t.tracks_version()) {
    os << "  version: " << t.version() << " (in-place writes through this tensor, its views and detach())\n";
  } else {
    os << "  version: none (an inference tensor: made in inference mode, it tracks no in-place writes)\n";
  }
  // bytes as a wide product: an empty tensor's offset may be any int64 (its bytes overflow)
  const __int128 offset_bytes = static_cast<__int128>(t.offset()) * isz;
  os << "  storage offset: " << t.offset() << " elements (" << int128_str(offset_bytes) << " bytes)\n";
  os << "  strides: " << list_str(t.strides()) << " elements\n";
  os << "  contiguous: " << yes_no(t.is_contiguous()) << "\n";
  os << "  memory format: " << memory_format_words(t) << "\n";
  os << "  data pointer: " << address(t.raw_data()) << " = storage start + " << int128_str(offset_bytes)
     << " bytes\n";
  if (t.is_view()) {
    const Tensor& b = *t.base();
    os << "  view: yes; base: tensor of shape " << list_str(b.sizes()) << ", dtype " << dtype_name(b.dtype())
       << ", on the same storage\n";
  } else {
    os << "  view: no (not made by a view operation; no base)\n";
  }
  // Note [Math bits]: the stored bytes stay; every reader applies the bit
  if (t.is_conj())
    os << "  conjugate view of storage " << s.id()
       << ": values are read conjugated (the stored values are their conjugates)\n";
  if (t.is_neg())
    os << "  negative view of storage " << s.id() << ": values are read negated (the stored values are their negatives)\n";
  os << "  tensor refcount: " << t.refcount() << " (handles, plus views whose base it is)\n";
  const int64_t distinct = count_distinct_elements(t);
  os << "  distinct memory locations: ";
  if (distinct >= 0) {
    os << distinct;
  } else {
    os << "unknown (more than " << kExplainMaxRuns << " runs to enumerate)";
  }
  os << "; internal overlap: " << yes_no(has_internal_overlap(t)) << "\n";
}

void relate(std::ostringstream& os, const Tensor& a, const Tensor& b) {
  os << "a and b:\n";
  os << "  same tensor object: " << yes_no(&a == &b) << "\n";
  if (a.storage() == b.storage()) {
    os << "  same storage: yes (id " << a.storage()->id() << ")\n";
  } else {
    os << "  same storage: no (ids " << a.storage()->id() << " and " << b.storage()->id() << ")\n";
  }
  os << "  a is b's base: " << yes_no(b.base() == &a) << "; b is a's base: " << yes_no(a.base() == &b)
     << "; same base: " << yes_no(a.base() != nullptr && a.base() == b.base()) << "\n";
  const int ov = overlaps(a, b);
  os << "  elements overlap (exact): " << (ov == 1 ? "yes" : ov == 0 ? "no" : "unknown (search bound hit)")
     << "\n";
  const SharedElements sh = count_shared_elements(a, b);
  if (!sh.known) {
    os << "  shared elements: unknown (more than " << kExplainMaxRuns << " runs to enumerate)\n";
    return;
  }
  os << "  shared elements: " << sh.shared_a << " of a's " << sh.distinct_a << " distinct, " << sh.shared_b
     << " of b's " << sh.distinct_b << " distinct\n";
  os << "  same memory locations: " << yes_no(sh.same_locations) << "\n";
}

}  // namespace

int64_t count_distinct_elements(const Tensor& t, int64_t max_runs) {
  if (t.numel() == 0) return 0;
  if (!has_internal_overlap(t)) return t.numel();  // every index its own location
  std::vector<Interval> iv;
  if (!element_intervals(t, max_runs, iv)) return -1;
  return int64_t(element_count(iv, t.itemsize()));
}

SharedElements count_shared_elements(const Tensor& a, const Tensor& b, int64_t max_runs) {
  SharedElements r;
  std::vector<Interval> ia, ib;
  if (!element_intervals(a, max_runs, ia) || !element_intervals(b, max_runs, ib)) return r;
  r.known = true;
  r.distinct_a = int64_t(element_count(ia, a.itemsize()));
  r.distinct_b = int64_t(element_count(ib, b.itemsize()));
  r.shared_a = int64_t(count_touched(ia, a.itemsize(), ib));
  r.shared_b = int64_t(count_touched(ib, b.itemsize(), ia));
  // Merged intervals of one itemsize describe the element set exactly, so equal lists are
  // equal sets (whereas equal counts alone could hide elements shifted by a few bytes).
  r.same_locations = a.itemsize() == b.itemsize() && ia.size() == ib.size() &&
                     std::equal(ia.begin(), ia.end(), ib.begin(), [](const Interval& x, const Interval& y) {
                       return x.lo == y.lo && x.hi == y.hi;
                     });
  return r;
}

std::string explain(const Tensor& a, const Tensor* b) {
  std::ostringstream os;
  describe(os, "a", a);
  if (b != nullptr) {
    describe(os, "b", *b);
    relate(os, a, *b);
  }
  return os.str();
}

}  // namespace ct
