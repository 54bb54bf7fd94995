// Elementwise arithmetic, math, comparisons, where and fill, on ElementwiseIter.
// Promotion, broadcasting, in-place rules and messages follow PyTorch 2.13
// (see the Compute section of include/ctensor.h).
#pragma once

#include <complex>
#include <span>

#include "core/ops/promote.h"
#include "core/tensor.h"

namespace ct {

enum class BinaryOp { Add, Sub, Mul, Div };
enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge };
// Reciprocal, Angle: floating results (the default dtype for integers and bools; angle of a
// complex tensor is real); Sgn, Sign keep the dtype (Sign refuses complex, as torch).
enum class UnaryOp { Neg, Abs, Exp, Log, Sqrt, Sin, Cos, Tanh, Sigmoid, Relu, Reciprocal, Sgn, Sign, Angle };

// A binary operand: a tensor, a Python-float scalar, or a Python-complex scalar (is_complex:
// the value is {scalar, imag}; it promotes as torch's wrapped complex number, to the default
// complex dtype next to integer tensors and to the tensor's precision next to floating ones).
struct Operand {
  const Tensor* tensor = nullptr;
  double scalar = 0;
  double imag = 0;
  bool is_complex = false;
  static Operand of(const Tensor& t) { return {&t, 0, 0, false}; }
  static Operand of(double s) { return {nullptr, s, 0, false}; }
  static Operand of(std::complex<double> z) { return {nullptr, z.real(), z.imag(), true}; }
};

Ref<Tensor> binary(BinaryOp op, Operand a, Operand b);
void binary_(BinaryOp op, const Tensor& self, Operand other);
// torch's add / sub with alpha (op Add or Sub): a + alpha * b, a - alpha * b, and in place,
// with add's and sub's dtypes, broadcasting, checks and version bump.  As torch's kernel
// (ufunc/add.h): alpha is first converted to the compute dtype (a float16 result scales by
// float16(alpha)); a floating result is one fused multiply-add per element, rounded once
// (fmadd; a product rounded first would differ in the last bit); an integer result wraps; a
// complex one multiplies then adds.  alpha must be integral for an integer or bool result
// (torch's "For integral input tensors, argument alpha must not be a floating point number.")
// and fit the dtype.  alpha == 1 is add / sub.
Ref<Tensor> add_scaled(BinaryOp op, const Tensor& a, const Tensor& b, double alpha);
void add_scaled_(BinaryOp op, const Tensor& self, const Tensor& other, double alpha);
Ref<Tensor> compare(CompareOp op, Operand a, Operand b);
Ref<Tensor> unary(UnaryOp op, const Tensor& a);
void unary_(UnaryOp op, const Tensor& self);
Ref<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b);
// torch's threshold_backward(grad, result, 0), relu's backward in one pass: result <= 0 ? 0 :
// grad (a NaN result passes grad on).  grad and result of one real dtype, broadcastable.
Ref<Tensor> threshold_backward(const Tensor& grad, const Tensor& result);
// torch.maximum (max true) / torch.minimum: elementwise, broadcasting, promoted dtype; a NaN
// in either operand gives NaN (a's NaN when both are).
Ref<Tensor> maximum(const Tensor& a, const Tensor& b, bool max);
// Writes value into every element of self; bumps the version.
void fill_(const Tensor& self, double value);

bool equal(const Tensor& a, const Tensor& b);
// torch.isclose: |a - b| <= atol + rtol * |b| (or a == b, or both NaN when equal_nan), a bool
// tensor of the broadcast shape; a and b of one dtype (integers and bools compare in the
// default dtype).  op names the caller in the broadcast error.
Ref<Tensor> isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
                    const char* op = "isclose");
// isclose(...).all()
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan = false);
double item(const Tensor& t);  // refuses complex tensors (their value has two parts)
std::complex<double> item_complex(const Tensor& t);  // any dtype; a real value has imag 0

// Copies along an existing (cat) or a new (stack) dim.
Ref<Tensor> cat(std::span<const Tensor* const> tensors, int64_t dim);
Ref<Tensor> stack(std::span<const Tensor* const> tensors, int64_t dim);

// Checks shared by the in-place elementwise ops: writable storage, and no internal overlap as
// torch counts it (a dim of size > 1 with stride 0; torch's message).  Their kernels write each
// element of an otherwise overlapping self (unfold, as_strided) in TensorIterator's order, on
// one thread (ElementwiseIter), reading what earlier elements wrote, as torch's.
void check_writable(const Tensor& self, const char* op);
// The same, refusing every self whose elements share memory (has_internal_overlap): for the
// in-place ops that compute their result aside and copy it in, whose values would differ from
// torch's on such a self (cumsum_, cumprod_, clamp_ with tensor bounds).
void check_writable_no_overlap(const Tensor& self, const char* op);

// The pieces every elementwise op shares, for the kernels in sibling files (binary_math.cpp):
// an operand's promotion type, the operand converted to dtype d (a scalar as a 0-dim tensor),
// a fresh output laid out as TensorIterator lays it out from the converted inputs, and an
// input cloned when it partially overlaps the output an in-place op writes.
OperandType operand_type(Operand x);
MaybeOwned<Tensor> operand_as(Operand x, DType d);  // borrowed when x is a tensor of dtype d
Ref<Tensor> elementwise_output(IntList sizes, std::span<const Tensor* const> inputs, DType d, const char* op);
MaybeOwned<Tensor> unaliased(const Tensor& out, MaybeOwned<Tensor> input);

}  // namespace ct
