"""The "Introduction to PyTorch Tensors" tutorial, the parts ctensor implements (it lacks ceil, floor,
asin, bitwise_xor, unique, linalg.cross and module-level sin_): creation, *_like, dtypes, arithmetic
and broadcasting, math, reductions, in-place ops, copies, shapes, the NumPy bridge."""
import torch
import math
import numpy as np

x = torch.empty(3, 4)
print(type(x))
print(x.shape, x.dtype)

zeros = torch.zeros(2, 3)
print(zeros)
ones = torch.ones(2, 3)
print(ones)

torch.manual_seed(1729)
random = torch.rand(2, 3)
print(random.shape)

x = torch.empty(2, 2, 3)
print(x.shape)
empty_like_x = torch.empty_like(x)
print(empty_like_x.shape)
zeros_like_x = torch.zeros_like(x)
print(zeros_like_x.shape)
print(zeros_like_x)
ones_like_x = torch.ones_like(x)
print(ones_like_x)

some_constants = torch.tensor([[3.1415926, 2.71828], [1.61803, 0.0072897]])
print(some_constants)
some_integers = torch.tensor((2, 3, 5, 7, 11, 13, 17, 19))
print(some_integers)
more_integers = torch.tensor(((2, 4, 6), [3, 6, 9]))
print(more_integers)

a = torch.ones((2, 3), dtype=torch.int16)
print(a)
b = torch.tensor([[0.5, 19.75, 3.25], [7.0, 12.5, 1.0]], dtype=torch.float64) * 20.
print(b)
c = b.to(torch.int32)
print(c)

ones = torch.zeros(2, 2) + 1
twos = torch.ones(2, 2) * 2
threes = (torch.ones(2, 2) * 7 - 1) / 2
fours = twos ** 2
sqrt2s = twos ** 0.5
print(ones)
print(twos)
print(threes)
print(fours)
print(sqrt2s)

powers2 = twos ** torch.tensor([[1, 2], [3, 4]])
print(powers2)
fives = ones + fours
print(fives)
dozens = threes * fours
print(dozens)

rand = torch.ones(2, 4) * 0.5
doubled = rand * (torch.ones(1, 4) * 2)
print(rand)
print(doubled)

a = torch.ones(4, 3, 2)
b = a * torch.ones(3, 2)
print(b.shape)
c = a * torch.ones(3, 1)
print(c.shape)
d = a * torch.ones(1, 2)
print(d.shape)

a = torch.tensor([[0.5, -0.25], [1.75, -2.5]]) * 2 - 1
print('Common functions:')
print(torch.abs(a))
print(torch.clamp(a, -0.5, 0.5))

angles = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
sines = torch.sin(angles)
print('\nSine and arcsine:')
print(angles)
print(sines)


print('\nBroadcasted, element-wise equality comparison:')
d = torch.tensor([[1., 2.], [3., 4.]])
e = torch.ones(1, 2)
print(torch.eq(d, e))

print('\nReduction ops:')
print(torch.max(d))
print(torch.max(d).item())
print(torch.mean(d))
print(torch.std(d))
print(torch.prod(d))

v1 = torch.tensor([1., 0., 0.])
v2 = torch.tensor([0., 1., 0.])
m1 = torch.tensor([[1.5, -0.5], [2.0, 0.25]])
m2 = torch.tensor([[3., 0.], [0., 3.]])

print('\nVectors & Matrices:')
print(m1)
m3 = torch.matmul(m1, m2)
print(m3)

a = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print('a:')
print(a)
print(torch.sin(a))
print(a)

b = torch.tensor([0, math.pi / 4, math.pi / 2, 3 * math.pi / 4])
print('\nb:')
print(b)
print(b.sin_())
print(b)

a = torch.ones(2, 2)
b = torch.rand(2, 2)
print('Before:')
print(a)
print('\nAfter adding:')
print(a.add_(torch.ones(2, 2)))
print(a)
print('\nAfter multiplying')
print(b.mul_(torch.zeros(2, 2)))
print(b)

a = torch.ones(2, 2)
b = a
a[0][1] = 561
print(b)

a = torch.ones(2, 2)
b = a.clone()
assert b is not a
print(torch.eq(a, b))
a[0][1] = 561
print(b)

a = torch.ones(2, 2, requires_grad=True)
print(a)
b = a.clone()
print(b)
c = a.detach().clone()
print(c)
print(a)

a = torch.rand(3, 226, 226)
b = a.unsqueeze(0)
print(a.shape)
print(b.shape)

c = torch.rand(1, 1, 1, 1, 1)
print(c.shape)

a = torch.rand(1, 20)
print(a.shape)
b = a.squeeze(0)
print(b.shape)
c = torch.rand(2, 2)
print(c.shape)
d = c.squeeze(0)
print(d.shape)

a = torch.ones(4, 3, 2)
c = a * torch.rand(3, 1)
print(c.shape)
a = torch.ones(4, 3, 2)
b = torch.tensor([0.25, 0.5, 0.75])
c = b.unsqueeze(1)
print(c.shape)
print(a * c)

batch_me = torch.rand(3, 226, 226)
print(batch_me.shape)
batch_me.unsqueeze_(0)
print(batch_me.shape)

output3d = torch.rand(6, 20, 20)
print(output3d.shape)
input1d = output3d.reshape(6 * 20 * 20)
print(input1d.shape)
print(torch.reshape(output3d, (6 * 20 * 20,)).shape)

numpy_array = np.ones((2, 3))
print(numpy_array)
pytorch_tensor = torch.from_numpy(numpy_array)
print(pytorch_tensor)

pytorch_rand = torch.ones(2, 3) * 0.25
numpy_rand = pytorch_rand.numpy()
print(numpy_rand)

numpy_array[1, 1] = 23
print(pytorch_tensor)
pytorch_rand[1, 1] = 17
print(numpy_rand)
