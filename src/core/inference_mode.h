// Inference mode (torch's c10::InferenceMode) and inference tensors.
//
// Note [Inference tensors]
// Inference mode is a thread-local flag, off by default.  Entering it (InferenceModeGuard,
// ct_set_inference_mode) also turns grad mode off, and leaving it restores both, as torch's
// guard does; InferenceModeGuard(false) turns inference mode off and grad mode ON.
//
// A tensor created while the flag is on is an INFERENCE tensor (Tensor::is_inference):
// - it has no version counter: reading its version fails (kNoVersionMessage), and so does an
//   in-place write outside inference mode, AFTER the write, as torch's bump does
//   (kInplaceMessage; Tensor::bump_version);
// - a view of it (even one taken outside) is an inference tensor too, with no counter and
//   no base: not a view for autograd or ct_tensor_is_view (torch's as_view returns early);
// - detach()/.data of it are inference tensors; outside inference mode they get a fresh
//   counter of their own (so they can be written in place and read their version), inside
//   they have none; view(dtype) of it outside is a normal tensor with a fresh counter;
// - it may not be saved for backward (kSavedMessage) nor be set to require grad outside
//   inference mode (kRequiresGradMessage);
// - inside inference mode an in-place write to any inference tensor bumps nothing.
// Tensors created outside, and views, detach() and .data of them taken inside, stay normal:
// views share their base's counter, in-place writes bump it, inside or outside.  Nothing is
// recorded in inference mode, even with grad mode on (autograd::grad_recording).  What a
// tensor is changes only by `x.data = y`, which takes y's state and keeps x's counter (so a
// normal tensor may have no counter: it refuses writes outside as an inference tensor does).
//
// Representation: one bit of the Tensor (kInferenceBit, next to the math bits) and, for
// "no counter", Tensor::version_ pointing at disabled_counter() (never counted, never
// freed).  A normal tensor pays nothing: its bit is 0 and its counter pointer what it was.
#pragma once

namespace ct {

extern constinit thread_local bool t_inference_mode __attribute__((tls_model("initial-exec")));
inline bool inference_mode_enabled() { return t_inference_mode; }
// Sets only the flag (the guard below also sets grad mode).
inline void set_inference_mode_flag(bool on) { t_inference_mode = on; }

// torch's messages (RuntimeError there; InvalidArgument here).
inline constexpr const char* kNoVersionMessage = "Inference tensors do not track version counter.";
inline constexpr const char* kInplaceMessage =
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get a normal "
    "tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more details.";
inline constexpr const char* kRequiresGradMessage =
    "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.";
inline constexpr const char* kSavedMessage =
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it "
    "in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.";

// Sets inference mode to `enabled` and grad mode to !enabled (torch's InferenceMode guard);
// returns the previous state: bit 0 inference mode, bit 1 grad mode.
int enter_inference_mode(bool enabled);
// Restores a state returned by enter_inference_mode.
void restore_inference_mode(int state);

struct InferenceModeGuard {
  int prev;
  explicit InferenceModeGuard(bool enabled = true) : prev(enter_inference_mode(enabled)) {}
  ~InferenceModeGuard() { restore_inference_mode(prev); }
  InferenceModeGuard(const InferenceModeGuard&) = delete;
  InferenceModeGuard& operator=(const InferenceModeGuard&) = delete;
};

// Turns only the flag off for a scope (grad mode untouched): for internal temporaries that
// must keep a version counter (the math-bit resolution copies of the C boundary).
struct InferenceFlagOff {
  bool prev = inference_mode_enabled();
  InferenceFlagOff() { set_inference_mode_flag(false); }
  ~InferenceFlagOff() { set_inference_mode_flag(prev); }
  InferenceFlagOff(const InferenceFlagOff&) = delete;
  InferenceFlagOff& operator=(const InferenceFlagOff&) = delete;
};

}  // namespace ct
