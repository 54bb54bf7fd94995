// bench/train_step.c's training step written against libtorch's C++ API: the reference for
// issue 26's "the step in C <= 0.5x the step from Python" (how far does torch's own C++
// frontend get below torch's Python on the same step?).
//
//   train_step_libtorch BATCH WIDTH SECONDS
//
// Same model and update as train_step.c and bench/compare_training.py: a 3-layer MLP (three
// WIDTH x WIDTH float32 weights with biases, ReLU after the first two), MSE loss against a
// fixed target, backward, then under no-grad p += -lr * grad in place and the gradient set to
// undefined (torch.optim.SGD with zero_grad()'s set_to_none default), one thread.  Prints
// "step_ns N": the minimum over 5 rounds of the mean time per step.
//
// Not built by CMake (torch's headers would slow every CI build by minutes): bench/
// compare_training.py --libtorch compiles it on demand against the pip wheel's libtorch.
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../best_ns.h"

namespace {

constexpr int kLayers = 3;
constexpr double kLr = 1e-3;

struct Model {
  std::vector<torch::Tensor> w, b;
  torch::Tensor x, y;
};

void step(Model& m) {
  torch::Tensor h = m.x;
  for (int l = 0; l < kLayers; ++l) {
    h = torch::matmul(h, m.w[l]) + m.b[l];
    if (l < kLayers - 1) h = torch::relu(h);
  }
  torch::Tensor diff = h - m.y;
  torch::Tensor loss = (diff * diff).mean();
  loss.backward();
  torch::NoGradGuard no_grad;
  for (int l = 0; l < kLayers; ++l) {
    for (torch::Tensor* p : {&m.w[l], &m.b[l]}) {
      p->add_(p->grad(), -kLr);
      p->mutable_grad() = torch::Tensor();
    }
  }
}

void run_step(void* m) { step(*static_cast<Model*>(m)); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: train_step_libtorch BATCH WIDTH SECONDS\n");
    return 2;
  }
  const int B = std::atoi(argv[1]), W = std::atoi(argv[2]);
  const double seconds = std::atof(argv[3]);
  if (B <= 0 || W <= 0 || seconds <= 0) {
    std::fprintf(stderr, "train_step_libtorch: BATCH, WIDTH and SECONDS must be positive\n");
    return 2;
  }
  at::set_num_threads(1);
  torch::manual_seed(0);

  Model m;
  for (int l = 0; l < kLayers; ++l) {
    m.w.push_back((torch::randn({W, W}) * 0.1).requires_grad_());
    m.b.push_back(torch::zeros({W}).requires_grad_());
  }
  m.x = torch::randn({B, W});
  m.y = torch::randn({B, W});
  for (int i = 0; i < 20; ++i) step(m);  // warm up: grads allocated, caches filled
  std::printf("step_ns %.1f\n", best_ns(run_step, &m, seconds));
  return 0;
}
