// repr(): the text PyTorch 2.13 prints for a strided CPU tensor under the current print options
// (print_options.h, torch.set_printoptions), with "ctensor." where torch writes "torch.".
//
// How the output is decided (see torch/_tensor_str.py for the reference behaviour):
//  - Above `threshold` elements the tensor is summarized: along every dim longer than
//    2 * edgeitems only the first and last edgeitems entries are shown, with "..." between.
//    With edgeitems 0 a summarized tensor prints as "[...]" followed by its size.
//  - One formatter serves the whole tensor.  Its statistics (column width, and for floating
//    dtypes whether every value is an integer and whether scientific notation is used) are
//    taken over the shown elements only.
//  - Floating statistics ignore zeros, NaN and infinities; float16/bfloat16 are widened to
//    float first, and every value is formatted from its exact double value.
//  - Rows of a 1-d slice are wrapped so that a line holds floor((linewidth - indent) / (width + 2))
//    entries; the closing suffixes ("dtype=...", "size=...") go on a new line when the last
//    line would become too long.
#include "format.h"

#include "autograd/meta.h"
#include "default_dtype.h"
#include "print_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

namespace ct {
namespace {

// Enough for "%.{p}f" of any double (at most 309 integral digits) with the largest precision
// print_options.cpp accepts (64), "%.{p}e" and any integer.
constexpr size_t kBufSize = 400;

// --- reading elements ------------------------------------------------------------------

// A value as the printer sees it: integers (and bools) exactly, floating values as double.
template <class T>
struct Reader {
  static constexpr bool floating = false;
  static int64_t read(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return int64_t(v);
  }
};
template <>
struct Reader<bool> {  // read the byte: any non-zero byte is true
  static constexpr bool floating = false;
  static int64_t read(const char* p) { return *reinterpret_cast<const unsigned char*>(p) != 0; }
};
template <>
struct Reader<float> {
  static constexpr bool floating = true;
  static double read(const char* p) {
    float v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
};
template <>
struct Reader<double> {
  static constexpr bool floating = true;
  static double read(const char* p) {
    double v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
};
template <>
struct Reader<Half> {
  static constexpr bool floating = true;
  static double read(const char* p) {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return half_bits_to_float(b);
  }
};
template <>
struct Reader<BFloat16> {
  static constexpr bool floating = true;
  static double read(const char* p) {
    uint16_t b;
    std::memcpy(&b, p, 2);
    return bf16_bits_to_float(b);
  }
};

// Layout of the tensor being printed, and the walk over its shown elements.
struct Layout {
  const char* data;
  int64_t itemsize;
  IntList sizes;
  IntList strides;
  bool summarize;
  int64_t edgeitems;

  bool elided(int d) const { return summarize && sizes[d] > 2 * edgeitems; }
  // torch prints a summarized tensor as "[...]" when edgeitems is 0.
  bool all_elided() const { return summarize && edgeitems == 0 && !sizes.empty(); }

  // Calls item(i) for each shown index i of dim d, in order, and gap() where "..." goes.
  template <class Item, class Gap>
  void shown(int d, Item&& item, Gap&& gap) const {
    const int64_t n = sizes[d];
    if (!elided(d)) {
      for (int64_t i = 0; i < n; ++i) item(i);
      return;
    }
    for (int64_t i = 0; i < edgeitems; ++i) item(i);
    gap();
    for (int64_t i = n - edgeitems; i < n; ++i) item(i);
  }

  // Calls f(pointer) for every element the formatter's statistics cover: the shown ones, as
  // torch's get_summarized_data.  With edgeitems 0 that function keeps a whole 1-d tensor
  // (its t[-0:] is all of t) and nothing of a tensor of higher rank.
  template <class F>
  void each_counted(F& f) const {
    if (summarize && edgeitems == 0 && !sizes.empty()) {
      if (sizes.size() == 1) {
        const int64_t step = strides[0] * itemsize;
        for (int64_t i = 0; i < sizes[0]; ++i) f(data + i * step);
      }
      return;
    }
    each(0, data, f);
  }

  // Calls f(pointer) for every shown element at or below dim d, in logical order.
  template <class F>
  void each(int d, const char* p, F& f) const {
    if (d == int(sizes.size())) {
      f(p);
      return;
    }
    const int64_t step = strides[d] * itemsize;
    shown(d, [&](int64_t i) { each(d + 1, p + i * step, f); }, [] {});
  }
};

// --- number text -----------------------------------------------------------------------

// Python's str(int) / str(bool).
size_t int_text(char* buf, int64_t v, bool is_bool) {
  if (is_bool) {
    const char* s = v ? "True" : "False";
    const size_t n = std::strlen(s);
    std::memcpy(buf, s, n);
    return n;
  }
  return size_t(std::to_chars(buf, buf + kBufSize, v).ptr - buf);
}

// Python's format(v, '.{prec}{conv}') for conv 'f' or 'e': correctly rounded, and "nan",
// "inf", "-inf" for non-finite values whatever the sign of a NaN.
size_t float_text(char* buf, double v, char conv, int prec) {
  if (std::isnan(v)) {
    std::memcpy(buf, "nan", 3);
    return 3;
  }
  if (std::isinf(v)) {
    if (v < 0) {
      std::memcpy(buf, "-inf", 4);
      return 4;
    }
    std::memcpy(buf, "inf", 3);
    return 3;
  }
  // to_chars: exactly rounded like printf in the C locale, whatever the process locale.
  const auto fmt = conv == 'e' ? std::chars_format::scientific : std::chars_format::fixed;
  const auto r = std::to_chars(buf, buf + kBufSize, v, fmt, prec);
  return r.ec == std::errc() ? size_t(r.ptr - buf) : 0;
}

// --- the formatter ---------------------------------------------------------------------

struct Formatter {
  int precision = 4;
  bool floating = false;
  bool is_bool = false;
  bool int_mode = true;
  bool sci_mode = false;
  int64_t width = 1;

  // Text of one value, without padding.
  size_t text(char* buf, double fv, int64_t iv) const {
    if (!floating) return int_text(buf, iv, is_bool);
    if (sci_mode) return float_text(buf, fv, 'e', precision);
    if (int_mode) {
      size_t n = float_text(buf, fv, 'f', 0);
      if (std::isfinite(fv)) buf[n++] = '.';
      return n;
    }
    return float_text(buf, fv, 'f', precision);
  }

  // Appends the value right-aligned in the column width.
  void put(std::string& out, double fv, int64_t iv) const {
    char buf[kBufSize];
    const size_t n = text(buf, fv, iv);
    if (int64_t(n) < width) out.append(size_t(width - int64_t(n)), ' ');
    out.append(buf, n);
  }
};

template <class T>
Formatter make_formatter(const Layout& lay, const PrintOptions& opts) {
  using R = Reader<T>;
  Formatter fmt;
  fmt.precision = int(opts.precision);
  fmt.floating = R::floating;
  fmt.is_bool = std::is_same_v<T, bool>;
  char buf[kBufSize];
  if constexpr (!R::floating) {
    auto measure = [&](const char* p) {
      const int64_t n = int64_t(int_text(buf, R::read(p), fmt.is_bool));
      if (n > fmt.width) fmt.width = n;
    };
    lay.each_counted(measure);
  } else {
    // Statistics over the non-zero finite values.
    bool any = false;
    double lo = 0, hi = 0;
    auto scan = [&](const char* p) {
      const double v = R::read(p);
      if (!std::isfinite(v) || v == 0) return;
      const double a = std::fabs(v);
      if (!any) {
        lo = hi = a;
        any = true;
      } else {
        if (a < lo) lo = a;
        if (a > hi) hi = a;
      }
      if (fmt.int_mode && v != std::ceil(v)) fmt.int_mode = false;
    };
    lay.each_counted(scan);
    if (!any) return fmt;  // int_mode, fixed notation, width 1

    if (opts.sci_mode >= 0) {
      fmt.sci_mode = opts.sci_mode == 1;
    } else if (fmt.int_mode) {
      fmt.sci_mode = hi / lo > 1000.0 || hi > 1.0e8;
    } else {
      fmt.sci_mode = hi / lo > 1000.0 || hi > 1.0e8 || lo < 1.0e-4;
    }
    // Width: the longest non-zero finite value in the chosen notation (an integer in
    // fixed notation counts its trailing '.').
    const char conv = fmt.sci_mode ? 'e' : 'f';
    const int prec = (fmt.int_mode && !fmt.sci_mode) ? 0 : fmt.precision;
    const int64_t extra = (fmt.int_mode && !fmt.sci_mode) ? 1 : 0;
    auto measure = [&](const char* p) {
      const double v = R::read(p);
      if (!std::isfinite(v) || v == 0) return;
      const int64_t n = int64_t(float_text(buf, v, conv, prec)) + extra;
      if (n > fmt.width) fmt.width = n;
    };
    lay.each_counted(measure);
  }
  return fmt;
}

// --- layout of the text ----------------------------------------------------------------

// T is the element type, or for a complex tensor the type of its parts (float, double):
// then `imag` is the formatter of the imaginary parts, which sit imag_offset bytes after
// the real ones, and a value prints as torch's "<real>+<imag>j" (real padded to its
// column, the imaginary part's padding stripped, its sign kept: "1.+2.j", "1.-2.j").
template <class T>
struct Printer {
  const Layout& lay;
  const Formatter& fmt;
  std::string& out;
  int64_t linewidth;
  const Formatter* imag = nullptr;
  int64_t imag_offset = 0;

  void value(const char* p) {
    if constexpr (Reader<T>::floating) {
      fmt.put(out, Reader<T>::read(p), 0);
      if (imag) {
        char buf[kBufSize];
        const size_t n = imag->text(buf, Reader<T>::read(p + imag_offset), 0);
        if (buf[0] != '-' && buf[0] != '+') out += '+';
        out.append(buf, n);
        out += 'j';
      }
    } else {
      fmt.put(out, 0, Reader<T>::read(p));
    }
  }

  // A 1-d slice: entries separated by ", ", a new line after every per_line entries.
  void vector(const char* p, int64_t indent) {
    const int d = int(lay.sizes.size()) - 1;
    const int64_t step = lay.strides[d] * lay.itemsize;
    const int64_t entry = fmt.width + 2 + (imag ? imag->width + 1 : 0);  // + "j" and the imaginary column
    const int64_t per_line = std::max<int64_t>(1, (linewidth - indent) / entry);
    int64_t on_line = 0;  // entries already on the current line
    auto next_entry = [&] {
      if (on_line == per_line) {
        out += ",\n";
        out.append(size_t(indent + 1), ' ');
        on_line = 0;
      } else if (on_line > 0) {
        out += ", ";
      }
      ++on_line;
    };
    out += '[';
    lay.shown(
        d,
        [&](int64_t i) {
          next_entry();
          value(p + i * step);
        },
        [&] {
          next_entry();
          out += " ...";
        });
    out += ']';
  }

  // Dim d of an n-d tensor: its slices separated by a comma, one newline per remaining
  // dim below d, and the indentation of the next level.
  void tensor(int d, const char* p, int64_t indent) {
    if (lay.all_elided()) {
      out += "[...]";
      return;
    }
    const int ndim = int(lay.sizes.size());
    if (d == ndim - 1) return vector(p, indent);
    const int64_t step = lay.strides[d] * lay.itemsize;
    bool first = true;
    auto next_slice = [&] {
      if (!first) {
        out += ',';
        out.append(size_t(ndim - d - 1), '\n');
        out.append(size_t(indent + 1), ' ');
      }
      first = false;
    };
    out += '[';
    lay.shown(
        d,
        [&](int64_t i) {
          next_slice();
          tensor(d + 1, p + i * step, indent + 1);
        },
        [&] {
          next_slice();
          out += "...";
        });
    out += ']';
  }
};

// Our dtype suffix "dtype=ctensor.X" is this much longer than torch's "dtype=torch.X".
constexpr int64_t kNamespaceExtra = int64_t(sizeof("ctensor.") - sizeof("torch."));

struct Suffix {
  std::string text;
  int64_t torch_len;  // the length torch's spelling of it has, which decides the wrapping
};

// Appends ", suffix" or ",\n<indent>suffix" the way torch decides between them.  The
// decision (including its off-by-two in the length of the last line) is torch's, made
// with torch's lengths, so that the text is torch's with "ctensor." in place of "torch.".
void add_suffixes(std::string& out, const Suffix* suffixes, int count, int64_t indent, int64_t linewidth) {
  const size_t nl = out.rfind('\n');
  int64_t last_line = int64_t(out.size()) - (nl == std::string::npos ? -1 : int64_t(nl)) + 1;
  for (int i = 0; i < count; ++i) {
    const int64_t len = suffixes[i].torch_len;
    if (last_line + len + 2 > linewidth) {
      out += ",\n";
      out.append(size_t(indent), ' ');
      last_line = indent + len;
    } else {
      out += ", ";
      last_line += len + 2;
    }
    out += suffixes[i].text;
  }
  out += ')';
}

}  // namespace

std::string repr(const Tensor& t) {
  static constexpr std::string_view kPrefix = "tensor(";
  const int64_t indent = int64_t(kPrefix.size());
  const DType dtype = t.dtype();
  std::string out(kPrefix);
  const PrintOptions opts = print_options();
  const DType default_dtype = default_float_dtype();
  // torch's _default_complex_dtype: complex128 when the default is float64, else complex64
  const DType default_complex = default_dtype == DType::Float64 ? DType::Complex128 : DType::Complex64;
  Suffix suffixes[4];
  int nsuffix = 0;
  auto add_dtype = [&] {
    std::string s = std::string("dtype=ctensor.") + dtype_name(dtype);
    const int64_t torch_len = int64_t(s.size()) - kNamespaceExtra;
    suffixes[nsuffix++] = {std::move(s), torch_len};
  };

  auto add_size = [&] {  // Python's str(tuple(t.shape)): "(5,)" for one dim
    std::string s = "size=(";
    for (int d = 0; d < t.ndim(); ++d) {
      if (d) s += ", ";
      s += std::to_string(t.size(d));
    }
    if (t.ndim() == 1) s += ',';
    s += ')';
    const int64_t len = int64_t(s.size());
    suffixes[nsuffix++] = {std::move(s), len};
  };

  if (t.numel() == 0) {
    out += "[]";
    if (t.ndim() != 1) add_size();
    if (dtype != default_dtype) add_dtype();
  } else {
    if (opts.edgeitems == 0) add_size();  // torch: the shape is not readable from "[...]"
    const Layout lay{t.data(), t.itemsize(), t.sizes(), t.strides(), double(t.numel()) > opts.threshold,
                     opts.edgeitems};
    auto print = [&](auto& pr) {
      if (t.ndim() == 0) {
        pr.value(lay.data);
      } else {
        pr.tensor(0, lay.data, indent);
      }
    };
    if (is_complex(dtype)) {
      // torch formats a complex tensor with one formatter for t.real and one for t.imag.
      const int64_t half = t.itemsize() / 2;
      const Layout imag_lay{t.data() + half, t.itemsize(), t.sizes(), t.strides(), lay.summarize, lay.edgeitems};
      auto run = [&](auto part) {
        using P = decltype(part);
        const Formatter real_fmt = make_formatter<P>(lay, opts), imag_fmt = make_formatter<P>(imag_lay, opts);
        Printer<P> pr{lay, real_fmt, out, opts.linewidth, &imag_fmt, half};
        print(pr);
      };
      if (dtype == DType::Complex64) run(float{});
      else run(double{});
    } else {
      CT_DISPATCH_ALL(dtype, [&] {
        const Formatter fmt = make_formatter<scalar_t>(lay, opts);
        Printer<scalar_t> pr{lay, fmt, out, opts.linewidth};
        print(pr);
      });
    }
    // torch leaves out its default dtypes: the default float, its complex counterpart, int64, bool
    if (dtype != default_dtype && dtype != default_complex && dtype != DType::Int64 && dtype != DType::Bool) {
      add_dtype();
    }
  }
  // torch's order: dtype, then grad_fn=<Name> (a tensor with history) or requires_grad=True.
  if (t.autograd()) {
    // torch's _tensor_str: a grad_fn that cannot be regenerated (a view made in no_grad mode
    // whose base was then written in place) prints as <Invalid> instead of raising
    std::shared_ptr<autograd::Node> fn;
    const char* name = nullptr;
    try {
      fn = autograd::grad_fn(t);
      if (fn) name = fn->name();
    } catch (const Error&) {
      name = "Invalid";
    }
    if (name) {
      std::string s = std::string("grad_fn=<") + name + ">";
      const int64_t len = int64_t(s.size());
      suffixes[nsuffix++] = {std::move(s), len};
    } else if (autograd::requires_grad(t)) {
      suffixes[nsuffix++] = {"requires_grad=True", int64_t(sizeof("requires_grad=True") - 1)};
    }
  }
  add_suffixes(out, suffixes, nsuffix, indent, opts.linewidth);
  return out;
}

}  // namespace ct
