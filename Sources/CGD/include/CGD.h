#ifndef PLACEDB_CGD_H
#define PLACEDB_CGD_H
// libgd's API, with libgd loaded when first used: libgd.c defines each
// libgd function placedb calls, forwarding to libgd opened with dlopen. A
// process that never touches an image (every command but photo add and photo
// fetch) does not load libgd and the ~50 libraries it needs (HEIF, AVIF,
// TIFF, X11...), whose loading and initializers took about 6 ms of each run.
#include <gd.h>
#include <gd_errors.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// libgd reports problems through one process-wide callback that prints to
// stderr by default. placedb's library never prints, so PlaceKit installs
// this handler instead. It keeps, per thread, the first message since the
// caller cleared the buffer before a libgd call; the caller reads it after
// the call to put libgd's reason in its one-line error. Only PlaceKit's
// GDImage.swift calls these (each Swift file that did would get its own
// copy of the buffer: a function-local static, emitted with the function).
static inline char *cgd_last_error_buffer(void) {
    static _Thread_local char buffer[256];
    return buffer;
}

static inline void cgd_error_handler(int priority, const char *format, va_list args) {
    // Errors and warnings only (GD_ERROR = 3, GD_WARNING = 4); notices and
    // debug output are dropped.
    // The first message of a call is kept: it names the cause (libpng's
    // "IDAT: CRC error"), the ones after it only the unwinding.
    if (priority > GD_WARNING || format == NULL || cgd_last_error_buffer()[0] != 0) return;
    vsnprintf(cgd_last_error_buffer(), 256, format, args);
}

/// NULL once libgd is loaded (loading it if needed), else why it cannot be
/// (the loader's message). Call before the first libgd function: one that
/// runs without libgd prints the reason and aborts.
const char *cgd_load(void);

static inline void cgd_install_error_handler(void) { gdSetErrorMethod(cgd_error_handler); }
static inline void cgd_clear_error(void) { cgd_last_error_buffer()[0] = 0; }
static inline const char *cgd_last_error(void) { return cgd_last_error_buffer(); }

// Accessors for the gdImage fields Swift reads (the header spells them as
// macros, which Swift cannot import).
static inline int cgd_width(gdImagePtr im) { return gdImageSX(im); }
static inline int cgd_height(gdImagePtr im) { return gdImageSY(im); }
static inline int cgd_is_truecolor(gdImagePtr im) { return gdImageTrueColor(im); }
static inline int cgd_truecolor(int r, int g, int b, int a) { return gdTrueColorAlpha(r, g, b, a); }
static inline int cgd_red(int c) { return gdTrueColorGetRed(c); }
static inline int cgd_green(int c) { return gdTrueColorGetGreen(c); }
static inline int cgd_blue(int c) { return gdTrueColorGetBlue(c); }
static inline int cgd_alpha(int c) { return gdTrueColorGetAlpha(c); }

// libgd creates its PNG readers and writers with no warning handler, so
// libpng's default one printed "libpng warning: ..." on stderr for a bad
// ancillary chunk or any interlaced image. This target gives every libpng
// reader and writer created without one a handler that drops the warning
// (libgd ignores PNG warnings: the image is decoded all the same; errors
// still go through libgd's error method to GDImage). libgd.c says how.

/// The number of warnings dropped in this process (for tests and tools).
unsigned long cpng_warnings_dropped(void);

#endif
