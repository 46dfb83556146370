#ifndef PLACEDB_CSQLITE_SHIM_H
#define PLACEDB_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer; Swift
// cannot import it, so it is spelled here once.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}
#endif
