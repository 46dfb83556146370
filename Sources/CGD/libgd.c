#include <dlfcn.h>
#include <png.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "CGD.h"

// The C side of placedb's libgd: libgd opened when first used, and libpng's
// warnings kept off stderr. One file: valgrind 3.19 cannot read the debug
// information of a binary holding two DWARF 5 C compilation units.

// MARK: libgd, opened when first used

// The libgd functions placedb calls (PlaceKitGD, the test images, the
// benchmarks), each defined here with gd.h's own prototype (the compiler
// checks them against it) and forwarding to libgd's, found with dlsym the
// first time. libgd's PNG readers still get the quiet warning handler
// below: its png_create_read_struct is the executable's, which the dynamic
// linker binds first for a library opened later as for one linked.

static const char *const library = "libgd.so.3";
static pthread_once_t once = PTHREAD_ONCE_INIT;
static void *handle;
static char failure[512];

static void open_library(void) {
    handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "%s", reason ? reason : library);
    }
}

const char *cgd_load(void) {
    pthread_once(&once, open_library);
    return handle ? NULL : failure;
}

static void *cgd_symbol(const char *name) {
    const char *error = cgd_load();
    void *symbol = error ? NULL : dlsym(handle, name);
    if (symbol == NULL) {
        fprintf(stderr, "placedb: libgd's %s is not available (%s)\n", name, error ? error : library);
        abort();
    }
    return symbol;
}

// The function `name` of libgd, looked up once (atomically: threads may
// race to look it up, and find the same address; the atomic builtins, not an
// _Atomic type, whose debug information valgrind 3.19 cannot read).
#define LIBGD(name)                                                                        \
    ({                                                                                     \
        static __typeof__(&name) cached;                                                   \
        __typeof__(&name) f = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                  \
        if (f == NULL) {                                                                   \
            f = (__typeof__(&name))cgd_symbol(#name);                                      \
            __atomic_store_n(&cached, f, __ATOMIC_RELEASE);                                \
        }                                                                                  \
        f;                                                                                 \
    })

void gdSetErrorMethod(gdErrorMethod method) { LIBGD(gdSetErrorMethod)(method); }
void gdFree(void *m) { LIBGD(gdFree)(m); }

gdImagePtr gdImageCreateTrueColor(int sx, int sy) { return LIBGD(gdImageCreateTrueColor)(sx, sy); }
void gdImageDestroy(gdImagePtr im) { LIBGD(gdImageDestroy)(im); }

gdImagePtr gdImageCreateFromJpegPtr(int size, void *data) { return LIBGD(gdImageCreateFromJpegPtr)(size, data); }
gdImagePtr gdImageCreateFromJpegPtrEx(int size, void *data, int ignore_warning) {
    return LIBGD(gdImageCreateFromJpegPtrEx)(size, data, ignore_warning);
}
gdImagePtr gdImageCreateFromPngPtr(int size, void *data) { return LIBGD(gdImageCreateFromPngPtr)(size, data); }
gdImagePtr gdImageCreateFromGifPtr(int size, void *data) { return LIBGD(gdImageCreateFromGifPtr)(size, data); }
gdImagePtr gdImageCreateFromWebpPtr(int size, void *data) { return LIBGD(gdImageCreateFromWebpPtr)(size, data); }

void *gdImageJpegPtr(gdImagePtr im, int *size, int quality) { return LIBGD(gdImageJpegPtr)(im, size, quality); }
void *gdImagePngPtr(gdImagePtr im, int *size) { return LIBGD(gdImagePngPtr)(im, size); }
void *gdImagePngPtrEx(gdImagePtr im, int *size, int level) { return LIBGD(gdImagePngPtrEx)(im, size, level); }
void *gdImageGifPtr(gdImagePtr im, int *size) { return LIBGD(gdImageGifPtr)(im, size); }
void *gdImageWebpPtrEx(gdImagePtr im, int *size, int quantization) {
    return LIBGD(gdImageWebpPtrEx)(im, size, quantization);
}

void gdImageAlphaBlending(gdImagePtr im, int alphaBlendingArg) { LIBGD(gdImageAlphaBlending)(im, alphaBlendingArg); }
void gdImageSaveAlpha(gdImagePtr im, int saveAlphaArg) { LIBGD(gdImageSaveAlpha)(im, saveAlphaArg); }
void gdImageInterlace(gdImagePtr im, int interlaceArg) { LIBGD(gdImageInterlace)(im, interlaceArg); }
void gdImageSetPixel(gdImagePtr im, int x, int y, int color) { LIBGD(gdImageSetPixel)(im, x, y, color); }
int gdImageGetTrueColorPixel(gdImagePtr im, int x, int y) { return LIBGD(gdImageGetTrueColorPixel)(im, x, y); }
void gdImageFilledRectangle(gdImagePtr im, int x1, int y1, int x2, int y2, int color) {
    LIBGD(gdImageFilledRectangle)(im, x1, y1, x2, y2, color);
}
void gdImageCopy(gdImagePtr dst, gdImagePtr src, int dstX, int dstY, int srcX, int srcY, int w, int h) {
    LIBGD(gdImageCopy)(dst, src, dstX, dstY, srcX, srcY, w, h);
}
void gdImageCopyResampled(
    gdImagePtr dst, gdImagePtr src, int dstX, int dstY, int srcX, int srcY, int dstW, int dstH, int srcW, int srcH) {
    LIBGD(gdImageCopyResampled)(dst, src, dstX, dstY, srcX, srcY, dstW, dstH, srcW, srcH);
}
gdImagePtr gdImageRotateInterpolated(const gdImagePtr src, const float angle, int bgcolor) {
    return LIBGD(gdImageRotateInterpolated)(src, angle, bgcolor);
}
void gdImageFlipHorizontal(gdImagePtr im) { LIBGD(gdImageFlipHorizontal)(im); }
void gdImageFlipVertical(gdImagePtr im) { LIBGD(gdImageFlipVertical)(im); }
void gdImageFlipBoth(gdImagePtr im) { LIBGD(gdImageFlipBoth)(im); }

// MARK: libpng's warnings

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
