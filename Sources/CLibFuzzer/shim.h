#ifndef PLACEDB_CLIBFUZZER_SHIM_H
#define PLACEDB_CLIBFUZZER_SHIM_H
#include <stddef.h>
#include <stdint.h>
// libFuzzer's entry point for a program that has its own main
// (compiler-rt, FuzzerInterface.h). Defined only when the program is linked
// with -sanitize=fuzzer; placedb-fuzz calls it only when built with -DFUZZING.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
