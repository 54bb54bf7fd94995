#!/usr/bin/perl
# A Perl client of libctensor through FFI::Platypus, knowing only include/ctensor.h.
#
#   perl tests/clients/perl/platypus_client.pl [path/to/libctensor.so]
#
# The library comes from the argument, else from $CTENSOR_LIB, loaded by path.  The checks
# are the ctypes client's (views share storage, copies do not, bases, the error of an
# impossible view, zero-copy wrapping with a deleter, no leak) plus reference counts and
# the version counter bumped by an in-place write through a view.  Prints each check;
# exits 1 if one failed.  Needs FFI::Platypus 2 (Debian: libffi-platypus-perl).
use strict;
use warnings;

BEGIN {
  eval { require FFI::Platypus; FFI::Platypus->VERSION(2); 1 }
    or die "platypus_client.pl: FFI::Platypus 2 is missing (apt-get install libffi-platypus-perl): $@";
}
use FFI::Platypus::Memory qw(malloc free memcpy);
use FFI::Platypus::Buffer qw(scalar_to_buffer buffer_to_scalar);

my $path = $ARGV[0] // $ENV{CTENSOR_LIB};
die "usage: perl platypus_client.pl path/to/libctensor.so   (or set CTENSOR_LIB)\n" unless $path;

# ---- the header: only what this client calls, with include/ctensor.h's types -----------
# A handle (ct_tensor *, ct_storage *) is an opaque: an address, undef for NULL.  The enums
# are C ints with the header's numbers.  const int64_t * arguments are int64_t[] (Perl
# array references); the deleter of ct_from_blob is a closure of type ct_deleter.
my $ffi = FFI::Platypus->new(api => 2, lib => [$path]);
$ffi->type('opaque' => 'ct_tensor');
$ffi->type('opaque' => 'ct_storage');
$ffi->type('int' => 'ct_dtype');
$ffi->type('int' => 'ct_status');
$ffi->type('(opaque, opaque)->void' => 'ct_deleter');   # void (*deleter)(void *data, void *ctx)
my %CT = (CT_OK => 0, CT_ERR_INVALID_ARGUMENT => 1, CT_ERR_SHAPE => 2, CT_ERR_DTYPE => 3,
          CT_ERR_INDEX => 4, CT_ERR_NOT_VIEWABLE => 5, CT_ERR_OVERLAP => 6,
          CT_INT64 => 5, CT_FLOAT32 => 8, CT_FLOAT64 => 9);

my %sig = (
  ct_last_status => [[], 'ct_status'],
  ct_last_error => [[], 'string'],
  ct_clear_error => [[], 'void'],
  ct_status_name => [['ct_status'], 'string'],
  ct_version => [[], 'string'],
  ct_dtype_name => [['ct_dtype'], 'string'],
  ct_dtype_itemsize => [['ct_dtype'], 'int64_t'],
  ct_live_tensors => [[], 'int64_t'],
  ct_live_storages => [[], 'int64_t'],
  ct_tensor_retain => [['ct_tensor'], 'ct_tensor'],
  ct_tensor_release => [['ct_tensor'], 'void'],
  ct_storage_release => [['ct_storage'], 'void'],
  ct_full => [['int', 'int64_t[]', 'double', 'ct_dtype'], 'ct_tensor'],
  ct_arange => [['double', 'double', 'double', 'ct_dtype'], 'ct_tensor'],
  ct_from_data => [['opaque', 'int', 'int64_t[]', 'ct_dtype'], 'ct_tensor'],
  # strides is passed as NULL (contiguous): int64_t* turns undef into NULL, int64_t[] cannot
  ct_from_blob => [['opaque', 'int', 'int64_t[]', 'int64_t*', 'ct_dtype', 'ct_deleter', 'opaque'], 'ct_tensor'],
  ct_view => [['ct_tensor', 'int', 'int64_t[]'], 'ct_tensor'],
  ct_transpose => [['ct_tensor', 'int', 'int'], 'ct_tensor'],
  ct_slice => [['ct_tensor', 'int', 'int64_t', 'int64_t', 'int64_t'], 'ct_tensor'],
  ct_select => [['ct_tensor', 'int', 'int64_t'], 'ct_tensor'],
  ct_expand => [['ct_tensor', 'int', 'int64_t[]'], 'ct_tensor'],
  ct_alias => [['ct_tensor'], 'ct_tensor'],
  ct_reshape => [['ct_tensor', 'int', 'int64_t[]'], 'ct_tensor'],
  ct_contiguous => [['ct_tensor'], 'ct_tensor'],
  ct_reshape_is_view => [['ct_tensor', 'int', 'int64_t[]'], 'int'],
  ct_clone => [['ct_tensor'], 'ct_tensor'],
  ct_index_select => [['ct_tensor', 'int', 'ct_tensor'], 'ct_tensor'],
  ct_copy_ => [['ct_tensor', 'ct_tensor'], 'ct_status'],
  ct_fill_ => [['ct_tensor', 'double'], 'ct_status'],
  ct_tensor_ndim => [['ct_tensor'], 'int'],
  ct_tensor_sizes => [['ct_tensor'], 'opaque'],      # const int64_t *, read with int64s()
  ct_tensor_strides => [['ct_tensor'], 'opaque'],
  ct_tensor_offset => [['ct_tensor'], 'int64_t'],
  ct_tensor_is_contiguous => [['ct_tensor'], 'int'],
  ct_tensor_data => [['ct_tensor'], 'opaque'],
  ct_tensor_is_view => [['ct_tensor'], 'int'],
  ct_tensor_base => [['ct_tensor'], 'ct_tensor'],
  ct_tensor_version => [['ct_tensor'], 'int64_t'],
  ct_tensor_refcount => [['ct_tensor'], 'int64_t'],
  ct_tensor_storage => [['ct_tensor'], 'ct_storage'],
  ct_tensor_storage_id => [['ct_tensor'], 'uint64_t'],
  ct_tensor_to_string => [['ct_tensor', 'opaque', 'int64_t'], 'int64_t'],   # char *buf
  ct_storage_id => [['ct_storage'], 'uint64_t'],
  ct_storage_refcount => [['ct_storage'], 'int64_t'],
  ct_shares_storage => [['ct_tensor', 'ct_tensor'], 'int'],
  ct_overlaps => [['ct_tensor', 'ct_tensor'], 'int'],
  ct_has_internal_overlap => [['ct_tensor'], 'int'],
);
my %ct;
$ct{$_} = $ffi->function($_ => @{ $sig{$_} }) for keys %sig;
sub ct { my $name = shift; $ct{$name}->call(@_) }

my ($passed, $failed) = (0, 0);
sub check {
  my ($ok, $what) = @_;
  if ($ok) { $passed++; print "  ok   $what\n" } else { $failed++; print "  FAIL $what\n" }
}

# const int64_t * results: n values read from the address
sub int64s { my ($p, $n) = @_; $n ? @{ $ffi->cast('opaque' => "int64_t[$n]", $p) } : () }
sub sizes { my $t = shift; join ',', int64s(ct(ct_tensor_sizes => $t), ct(ct_tensor_ndim => $t)) }
sub strides { my $t = shift; join ',', int64s(ct(ct_tensor_strides => $t), ct(ct_tensor_ndim => $t)) }
# byte address of the element at a 0-based index: data + sum(index * stride) elements
sub at {
  my ($t, $itemsize, @index) = @_;
  my @st = split /,/, strides($t);
  my $off = 0;
  $off += $index[$_] * $st[$_] for 0 .. $#index;
  ct(ct_tensor_data => $t) + $off * $itemsize;
}
sub peek { my ($addr, $fmt, $size) = @_; unpack $fmt, buffer_to_scalar($addr, $size) }
sub poke { my ($addr, $fmt, $v) = @_; my $bytes = pack $fmt, $v; my ($src, $n) = scalar_to_buffer($bytes); memcpy($addr, $src, $n) }
sub f32 { my ($t, @index) = @_; peek(at($t, 4, @index), 'f', 4) }
sub set_f32 { my ($t, $v, @index) = @_; poke(at($t, 4, @index), 'f', $v) }
sub same { my ($a, $b) = @_; defined $a && defined $b && $a == $b }

print "Perl FFI::Platypus client: $path (version ", ct('ct_version'), ")\n";
my ($live_t0, $live_s0) = (ct('ct_live_tensors'), ct('ct_live_storages'));

check(ct('ct_version') =~ /\A\d+\.\d+\.\d+\z/, 'ct_version is MAJOR.MINOR.PATCH');
check(join(' ', map { ct(ct_dtype_name => $_) } 0 .. 9) eq
      'bool uint8 int8 int16 int32 int64 float16 bfloat16 float32 float64', "dtype names are PyTorch's");
check(join(',', map { ct(ct_dtype_itemsize => $_) } 0 .. 9) eq '1,1,1,2,4,8,2,2,4,8', 'dtype item sizes');
check(!defined ct(ct_dtype_name => 42) && ct('ct_last_status') == $CT{CT_ERR_DTYPE},
      'an invalid dtype gives NULL and CT_ERR_DTYPE');

# x = arange(12).view(3, 4): a view of the 1-D root
my $root = ct(ct_arange => 0, 12, 1, $CT{CT_FLOAT32});
check(ct(ct_tensor_refcount => $root) == 1, 'a new tensor has refcount 1');
my $x = ct(ct_view => $root, 2, [3, 4]);
check(sizes($x) eq '3,4' && strides($x) eq '4,1' && ct(ct_tensor_offset => $x) == 0,
      'x = arange(12).view(3, 4): sizes (3, 4), strides (4, 1), offset 0');
check(ct(ct_tensor_is_contiguous => $x) == 1 && ct(ct_tensor_is_view => $x) == 1, 'x is a contiguous view');
check(ct(ct_tensor_refcount => $root) == 2, "the view holds its base: root's refcount 1 -> 2");
my $b = ct(ct_tensor_base => $x);
check(same($b, $root), 'base of x is the root tensor (the same handle)');
ct(ct_tensor_release => $b);
my $all = 1;
for my $i (0 .. 2) { for my $j (0 .. 3) { $all &&= f32($x, $i, $j) == 4 * $i + $j } }
check($all, 'x[i][j] == 4i + j through data + i*stride0 + j*stride1');

# slicing, then writing through the view
my $s = ct(ct_slice => $x, 1, 1, 3, 1);
check(sizes($s) eq '3,2' && strides($s) eq '4,1' && ct(ct_tensor_offset => $s) == 1,
      's = x[:, 1:3]: sizes (3, 2), strides (4, 1), offset 1');
check(ct(ct_shares_storage => $s, $x) == 1 && ct(ct_tensor_storage_id => $s) == ct(ct_tensor_storage_id => $x),
      "s shares x's storage (same storage id)");
$b = ct(ct_tensor_base => $s);
check(same($b, $root) && ct(ct_tensor_refcount => $x) == 1,
      "base of s is the root, never the intermediate view x (x's refcount stays 1)");
ct(ct_tensor_release => $b);
set_f32($s, 100, 0, 0);
check(f32($x, 0, 1) == 100, 'writing s[0][0] changes x[0][1]');

# reference counts: handles, views holding their base, storage handles
check(same(ct(ct_tensor_retain => $x), $x) && ct(ct_tensor_refcount => $x) == 2, 'ct_tensor_retain(x): refcount 2');
ct(ct_tensor_release => $x);
check(ct(ct_tensor_refcount => $x) == 1, 'ct_tensor_release(x): refcount back to 1');
my $st = ct(ct_tensor_storage => $x);
check(ct(ct_storage_id => $st) == ct(ct_tensor_storage_id => $x) && ct(ct_storage_refcount => $st) == 4,
      "x's storage: refcount 4 (root, x, s and this storage handle)");
ct(ct_storage_release => $st);

# transpose shares memory
my $t = ct(ct_transpose => $x, 0, 1);
check(sizes($t) eq '4,3' && strides($t) eq '1,4', 't = x.t(): sizes (4, 3), strides (1, 4)');
check(same(ct(ct_tensor_data => $t), ct(ct_tensor_data => $x)) && ct(ct_shares_storage => $t, $x) == 1,
      "t has x's data pointer and storage");
check(ct(ct_tensor_is_contiguous => $t) == 0 && ct(ct_overlaps => $t, $x) == 1,
      't is not contiguous and overlaps x exactly');

# the impossible view, and reshape copying instead
ct('ct_clear_error');
my $v = ct(ct_view => $t, 1, [12]);
my ($status, $msg) = (ct('ct_last_status'), ct('ct_last_error'));
check(!defined $v && $status == $CT{CT_ERR_NOT_VIEWABLE}, 't.view(12) fails with CT_ERR_NOT_VIEWABLE');
check(index($msg, "view size is not compatible with input tensor's size and stride") >= 0,
      "with PyTorch's message: " . substr($msg, 0, 90));
check(ct(ct_status_name => $status) eq 'CT_ERR_NOT_VIEWABLE', 'ct_status_name names it');
check(ct(ct_reshape_is_view => $t, 1, [12]) == 0, 'ct_reshape_is_view(t, 12) == 0');
my $r = ct(ct_reshape => $t, 1, [12]);
check(defined $r && ct(ct_shares_storage => $r, $t) == 0 && ct(ct_tensor_is_contiguous => $r) == 1,
      't.reshape(12) is a contiguous copy');
$all = 1;
$all &&= f32($r, $_) == f32($x, $_ % 3, int($_ / 3)) for 0 .. 11;
check($all, "its values are t's, in row-major order");

# reshape of a contiguous tensor is a view: same data pointer
my $y = ct(ct_reshape => $x, 2, [2, 6]);
check(same(ct(ct_tensor_data => $y), ct(ct_tensor_data => $x)) && ct(ct_tensor_is_view => $y) == 1,
      "x.reshape(2, 6) keeps x's data pointer (a view)");
my $c2 = ct(ct_contiguous => $x);
check(same($c2, $x), 'x.contiguous() is x itself');

# index_select copies
my $idx_data = pack 'q<*', 2, 0;   # two int64 elements, C order
my ($idx_ptr) = scalar_to_buffer($idx_data);
my $idx = ct(ct_from_data => $idx_ptr, 1, [2], $CT{CT_INT64});
my $g = ct(ct_index_select => $x, 0, $idx);
check(sizes($g) eq '2,4' && ct(ct_shares_storage => $g, $x) == 0 && ct(ct_overlaps => $g, $x) == 0,
      'x.index_select(0, [2, 0]) is a (2, 4) copy on a new storage');
$all = 1;
$all &&= f32($g, 0, $_) == f32($x, 2, $_) for 0 .. 3;
check($all, 'row 0 of it is x[2]');
my $bad_data = pack 'q<', 3;
my ($bad_ptr) = scalar_to_buffer($bad_data);
my $bad = ct(ct_from_data => $bad_ptr, 1, [1], $CT{CT_INT64});
check(!defined ct(ct_index_select => $x, 0, $bad) && ct('ct_last_status') == $CT{CT_ERR_INDEX},
      'an out-of-range index gives CT_ERR_INDEX');

# clone vs alias (detach)
my $cl = ct(ct_clone => $x);
my $al = ct(ct_alias => $x);
check(ct(ct_shares_storage => $cl, $x) == 0 && ct(ct_tensor_is_view => $cl) == 0 &&
      !defined ct(ct_tensor_base => $cl), 'clone: new storage, not a view, no base');
check(ct(ct_shares_storage => $al, $x) == 1 && ct(ct_tensor_is_view => $al) == 0 &&
      !defined ct(ct_tensor_base => $al), 'alias: same storage, but not a view and no base');
my $v0 = ct(ct_tensor_version => $x);
my $seven = ct(ct_full => 2, [3, 4], 7, $CT{CT_FLOAT32});
check(ct(ct_copy_ => $al, $seven) == $CT{CT_OK}, 'ct_copy_(alias, full(7)) succeeds');
check(ct(ct_tensor_version => $x) > $v0 && ct(ct_tensor_version => $x) == ct(ct_tensor_version => $al),
      'the write bumped the version that x and its alias share');
check(f32($x, 2, 3) == 7 && f32($cl, 2, 3) == 11, 'x sees the write, the clone does not');

# an in-place op through a view bumps the one counter of the family, not the clone's
my ($v1, $vc) = (ct(ct_tensor_version => $root), ct(ct_tensor_version => $cl));
check(ct(ct_fill_ => $s, 5) == $CT{CT_OK} && f32($x, 2, 2) == 5 && f32($cl, 2, 2) == 10,
      's.fill_(5) writes x[:, 1:3], not the clone');
check(!(grep { ct(ct_tensor_version => $_) != $v1 + 1 } $root, $x, $s) && ct(ct_tensor_version => $cl) == $vc,
      "it bumped root's, x's and s's version by 1, the clone's not");

# expand: internal overlap, and writes into it refused
my $row = ct(ct_view => $x, 2, [1, 12]);
my $e = ct(ct_expand => $row, 2, [3, 12]);
check(strides($e) eq '0,1' && ct(ct_has_internal_overlap => $e) == 1, 'expand gives stride 0 and internal overlap');
check(ct(ct_copy_ => $e, $row) != $CT{CT_OK} && ct('ct_last_status') == $CT{CT_ERR_OVERLAP},
      'ct_copy_ into an expanded tensor is refused with CT_ERR_OVERLAP');

# the repr is PyTorch's
my $n = ct(ct_tensor_to_string => $seven, undef, 0);
my $buf = malloc($n + 1);
ct(ct_tensor_to_string => $seven, $buf, $n + 1);
my $repr = $ffi->cast('opaque' => 'string', $buf);
free($buf);
check(index($repr, 'tensor([[7., 7., 7., 7.],') == 0 && length($repr) == $n,
      'ct_tensor_to_string: ' . (split /\n/, $repr)[0]);

# bad arguments are errors, not crashes
check(!defined ct(ct_select => $x, 0, 3) && ct('ct_last_status') == $CT{CT_ERR_INDEX}, 'x.select(0, 3) gives CT_ERR_INDEX');
check(ct(ct_tensor_ndim => undef) == -1 && !defined ct(ct_transpose => undef, 0, 1) &&
      ct('ct_last_status') == $CT{CT_ERR_INVALID_ARGUMENT} && index(ct('ct_last_error'), 'NULL') >= 0,
      'NULL handles give -1 / NULL and CT_ERR_INVALID_ARGUMENT: ' . ct('ct_last_error'));
check(!defined ct(ct_view => $x, 1, [5]) && ct('ct_last_status') == $CT{CT_ERR_SHAPE}, 'x.view(5) gives CT_ERR_SHAPE');

# zero-copy from memory this program owns, with a deleter written in Perl
my @calls;
my $mem = malloc(8 * 6);
poke($mem + 8 * $_, 'd', $_) for 0 .. 5;
my $ctx = malloc(4);
my $deleter = $ffi->closure(sub { push @calls, [@_] });   # kept alive by this variable
my $w = ct(ct_from_blob => $mem, 2, [2, 3], undef, $CT{CT_FLOAT64}, $deleter, $ctx);
check(defined $w && same(ct(ct_tensor_data => $w), $mem), 'ct_from_blob wraps our buffer without copying');
my $wt = ct(ct_transpose => $w, 0, 1);
poke(at($wt, 8, 0, 1), 'd', 42);   # wt[0][1] is w[1][0]
check(peek($mem + 8 * 3, 'd', 8) == 42, 'a write through its transpose lands in our buffer');
ct(ct_tensor_release => $w);
check(!@calls, 'the deleter has not run while a view holds the storage');
ct(ct_tensor_release => $wt);
check(@calls == 1 && same($calls[0][0], $mem) && same($calls[0][1], $ctx),
      'the deleter ran exactly once, with data and ctx');
free($mem);
free($ctx);

ct(ct_tensor_release => $_) for $bad, $e, $row, $seven, $al, $cl, $g, $idx, $c2, $y, $r, $t, $s, $x, $root;
my ($live_t1, $live_s1) = (ct('ct_live_tensors'), ct('ct_live_storages'));
check($live_t1 == $live_t0 && $live_s1 == $live_s0,
      "no leak: ct_live_tensors $live_t0 -> $live_t1, ct_live_storages $live_s0 -> $live_s1");

print "perl: $passed passed, $failed failed\n";
exit($failed ? 1 : 0);
