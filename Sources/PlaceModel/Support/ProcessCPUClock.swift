#if canImport(Glibc)
    import Glibc
#endif

/// CPU seconds (user and system) the whole process has used, every thread
/// counted: with wall time it tells work from waiting (for the disk, for
/// another thread, for a core on a loaded machine).
package enum ProcessCPUClock {
    package static func now() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
