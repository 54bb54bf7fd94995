/* The public header alone, compiled as strict C99 (-std=c99 -pedantic -Wall -Wextra -Werror):
   no C++ leaks, no extensions, no warnings.  Included twice to check the include guard. */
#include "ctensor.h"
#include "ctensor.h"
#include "ctensor_dlpack.h" /* the DLPack structs, also strict C99 */
#include "ctensor_dlpack.h"

/* The ABI numbers of the enums, checked at compile time (a negative array size fails). */
#define CT_STATIC_CHECK(name, cond) typedef char name[(cond) ? 1 : -1]
CT_STATIC_CHECK(ct_check_bool, CT_BOOL == 0);
CT_STATIC_CHECK(ct_check_uint8, CT_UINT8 == 1);
CT_STATIC_CHECK(ct_check_int8, CT_INT8 == 2);
CT_STATIC_CHECK(ct_check_int16, CT_INT16 == 3);
CT_STATIC_CHECK(ct_check_int32, CT_INT32 == 4);
CT_STATIC_CHECK(ct_check_int64, CT_INT64 == 5);
CT_STATIC_CHECK(ct_check_float16, CT_FLOAT16 == 6);
CT_STATIC_CHECK(ct_check_bfloat16, CT_BFLOAT16 == 7);
CT_STATIC_CHECK(ct_check_float32, CT_FLOAT32 == 8);
CT_STATIC_CHECK(ct_check_float64, CT_FLOAT64 == 9);
CT_STATIC_CHECK(ct_check_ok, CT_OK == 0);
CT_STATIC_CHECK(ct_check_invalid, CT_ERR_INVALID_ARGUMENT == 1);
CT_STATIC_CHECK(ct_check_shape, CT_ERR_SHAPE == 2);
CT_STATIC_CHECK(ct_check_dtype, CT_ERR_DTYPE == 3);
CT_STATIC_CHECK(ct_check_index, CT_ERR_INDEX == 4);
CT_STATIC_CHECK(ct_check_not_viewable, CT_ERR_NOT_VIEWABLE == 5);
CT_STATIC_CHECK(ct_check_overlap, CT_ERR_OVERLAP == 6);
CT_STATIC_CHECK(ct_check_oom, CT_ERR_OUT_OF_MEMORY == 7);
CT_STATIC_CHECK(ct_check_read_only, CT_ERR_READ_ONLY == 8);
CT_STATIC_CHECK(ct_check_internal, CT_ERR_INTERNAL == 9);
CT_STATIC_CHECK(ct_check_max_dims, CT_MAX_DIMS == 64);
CT_STATIC_CHECK(ct_check_version, CT_VERSION_CHECK(0, 1, 0));

/* Every declaration is usable from C: take the address of a few of each family. */
typedef ct_tensor *(*ct_view_fn)(const ct_tensor *, int, const int64_t *);
typedef int64_t (*ct_query_fn)(const ct_tensor *, int);
typedef void (*ct_deleter_fn)(void *, void *);

int ct_header_c99_probe(void);
int ct_header_c99_probe(void) {
  ct_view_fn v = &ct_view;
  ct_query_fn q = &ct_tensor_stride;
  ct_tensor *(*blob)(void *, int, const int64_t *, const int64_t *, ct_dtype, ct_deleter_fn, void *) =
      &ct_from_blob;
  ct_status (*copy)(ct_tensor *, const ct_tensor *) = &ct_copy_;
  struct DLManagedTensor *(*dl)(const ct_tensor *) = &ct_to_dlpack;
  return (v != 0) + (q != 0) + (blob != 0) + (copy != 0) + (dl != 0);
}
