#ifndef PLACEDB_CPREFETCH_SHIM_H
#define PLACEDB_CPREFETCH_SHIM_H
// A hint that the cache line holding `p` will be read soon
// (__builtin_prefetch, which Swift cannot call): the spatial index asks for
// the nodes and points of the branches it has queued before it visits
// them, so that their reads from memory overlap (docs/spatial-index.md).
// The line is read for reading (0) and kept in every cache level (3).
static inline void cprefetch_read(const void *p) {
    __builtin_prefetch(p, 0, 3);
}
#endif
