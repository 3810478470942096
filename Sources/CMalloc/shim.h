// glibc's malloc_trim, which Swift's Glibc module leaves out with the rest of <malloc.h>.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif
