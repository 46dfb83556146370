#ifndef PLACEDB_CGD_SHIM_H
#define PLACEDB_CGD_SHIM_H
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
#endif
