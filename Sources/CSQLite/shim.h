#ifndef PLACEDB_CSQLITE_SHIM_H
#define PLACEDB_CSQLITE_SHIM_H
#include <sqlite3.h>
#include "bm25_counted.h"

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer; Swift
// cannot import it, so it is spelled here once.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}
// sqlite3_config is variadic, which Swift cannot call: one wrapper per use.
// Memory statistics take a global mutex on every allocation; placedb does
// not read them. Must run before SQLite initializes.
static inline int csqlite_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
