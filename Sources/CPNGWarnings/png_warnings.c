#include <png.h>
#include <stdatomic.h>
#include "CPNGWarnings.h"

// libgd 2.3 calls png_create_read_struct(version, &jmpbuf, gdPngErrorHandler,
// NULL) and png_create_write_struct(..., NULL): with no warning function,
// libpng's png_default_warning fprintf()s "libpng warning: %s" to stderr,
// which placedb's library must never write to (and the handler libgd takes
// through gdSetErrorMethod never sees it). libgd gives no way to set one, so
// placedb defines these two functions itself: the dynamic linker binds
// libgd's calls to the executable's definitions first, and these create the
// struct through libpng's png_create_*_struct_2 with a warning function when
// the caller gave none. Everything else (errors, allocation) is libpng's and
// libgd's as before. PNGWarningTests checks the built binary's stderr.

static atomic_ulong dropped;

static void placedb_png_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
    atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
}

unsigned long cpng_warnings_dropped(void) { return atomic_load_explicit(&dropped, memory_order_relaxed); }

png_structp PNGAPI png_create_read_struct(png_const_charp user_png_ver, png_voidp error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn) {
    return png_create_read_struct_2(user_png_ver, error_ptr, error_fn, warn_fn ? warn_fn : placedb_png_warning, NULL, NULL, NULL);
}

png_structp PNGAPI png_create_write_struct(png_const_charp user_png_ver, png_voidp error_ptr, png_error_ptr error_fn, png_error_ptr warn_fn) {
    return png_create_write_struct_2(user_png_ver, error_ptr, error_fn, warn_fn ? warn_fn : placedb_png_warning, NULL, NULL, NULL);
}
