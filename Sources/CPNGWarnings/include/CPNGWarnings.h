#ifndef PLACEDB_CPNGWARNINGS_H
#define PLACEDB_CPNGWARNINGS_H

// libgd creates its PNG readers and writers with no warning handler, so
// libpng's default one printed "libpng warning: ..." on stderr for a bad
// ancillary chunk or any interlaced image. This target gives every libpng
// reader and writer created without one a handler that drops the warning
// (libgd ignores PNG warnings: the image is decoded all the same; errors
// still go through libgd's error method to GDImage). png_warnings.c says how.

/// The number of warnings dropped in this process (for tests and tools).
unsigned long cpng_warnings_dropped(void);

#endif
