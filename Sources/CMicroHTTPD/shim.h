#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call: this fixes the
   options placedb serve uses (docs/server.md). One event loop driven by
   placedb's own thread (epoll, MHD_run: no internal polling thread, see
   EventLoop in HTTPServer.swift) without a listening socket: placedb's
   acceptor hands it connections, which the loop's thread adds with
   MHD_add_connection. */
static inline struct MHD_Daemon *placedb_mhd_start(unsigned int flags,
                                                   MHD_AccessHandlerCallback handler, void *cls,
                                                   MHD_RequestCompletedCallback completed,
                                                   MHD_NotifyConnectionCallback notify_connection,
                                                   void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *con),
                                                   unsigned int connection_limit,
                                                   unsigned int timeout_seconds, size_t memory_limit) {
    return MHD_start_daemon(flags | MHD_USE_NO_LISTEN_SOCKET, 0, NULL, NULL, handler, cls,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
                            MHD_OPTION_NOTIFY_CONNECTION, notify_connection, cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, cls,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
                            MHD_OPTION_END);
}

/* The connections the daemon holds now: MHD_get_daemon_info is variadic too. */
static inline unsigned int placedb_mhd_connection_count(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/* The daemon's epoll descriptor, which placedb's loop waits on (-1: none). */
static inline int placedb_mhd_epoll_fd(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
    return info ? info->epoll_fd : -1;
}

/* A connection's socket (-1: unknown) and the context placedb gave it. */
static inline int placedb_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

static inline void *placedb_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* epoll and eventfd, for placedb's event loops (Glibc's module map has neither). */
#include <sys/epoll.h>
#include <sys/eventfd.h>

static inline int placedb_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int placedb_epoll_add_readable(int epfd, int fd) {
    struct epoll_event event;
    event.events = EPOLLIN;
    event.data.fd = fd;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

/* Waits up to timeout_ms; the ready descriptors go to fds (at most max). */
static inline int placedb_epoll_wait(int epfd, int *fds, int max, int timeout_ms) {
    struct epoll_event events[8];
    if (max > 8) max = 8;
    int n = epoll_wait(epfd, events, max, timeout_ms);
    for (int i = 0; i < n; i++) fds[i] = events[i].data.fd;
    return n;
}

static inline int placedb_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
