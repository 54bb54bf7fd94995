# Sanitizer builds, chosen with -DCT_SANITIZE=... (scripts/sanitize.sh makes each in its own
# build directory; a normal build leaves CT_SANITIZE empty and is untouched by this file).
#
#   address,undefined  ASan + LSan + UBSan on every target (library, tests, Python module).
#                      UBSan stops at the first report (-fno-sanitize-recover), so a report
#                      fails the test that caused it.  Python runs need the ASan runtime
#                      preloaded (LD_PRELOAD=$(gcc -print-file-name=libasan.so)).
#   thread             TSan.  Requires CT_OPENMP=OFF: libgomp is not built with TSan, so its
#                      barriers are invisible to TSan and every parallel region would be
#                      reported as a race; with OpenMP off, ops run serially on the calling
#                      thread, and the races TSan looks for (several user threads sharing
#                      tensors and storages) are exactly the ones the library must get right.
if(CT_SANITIZE STREQUAL "")
  return()
endif()

if(CT_SANITIZE MATCHES "thread")
  if(CT_SANITIZE MATCHES "address")
    message(FATAL_ERROR "CT_SANITIZE: thread and address cannot be combined")
  endif()
  if(CT_OPENMP)
    message(FATAL_ERROR "CT_SANITIZE=thread needs -DCT_OPENMP=OFF (TSan cannot see libgomp's synchronisation)")
  endif()
endif()

set(_ct_san_flags -fsanitize=${CT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
add_compile_options(${_ct_san_flags})
add_link_options(-fsanitize=${CT_SANITIZE})
message(STATUS "ctensor: sanitizers ${CT_SANITIZE} (OpenMP ${CT_OPENMP})")
