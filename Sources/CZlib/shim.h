#ifndef PLACEDB_CZLIB_SHIM_H
#define PLACEDB_CZLIB_SHIM_H
#include <zlib.h>
#endif
