/* Stand-in for <stddef.h> when the generator preprocesses ctensor.h for pycparser: only
   the names the header uses, as typedefs, so that each keeps its name in the parse tree. */
typedef unsigned long size_t;
typedef long ptrdiff_t;
#define NULL ((void *)0)
