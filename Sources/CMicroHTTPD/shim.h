#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call: this fixes the
   options placedb serve uses (docs/server.md). One event loop (epoll, its
   own thread) without a listening socket: placedb's acceptor hands it
   connections with MHD_add_connection. */
static inline struct MHD_Daemon *placedb_mhd_start(unsigned int flags,
                                                   MHD_AccessHandlerCallback handler, void *handler_cls,
                                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                                   unsigned int connection_limit,
                                                   unsigned int timeout_seconds, size_t memory_limit) {
    return MHD_start_daemon(flags | MHD_USE_NO_LISTEN_SOCKET, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

/* The connections the daemon holds now (all its threads): MHD_get_daemon_info
   is variadic too. */
static inline unsigned int placedb_mhd_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}
