#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rd {

/// Where the receiver listens: a host name or address and a port ("0" picks a free one).
struct ListenAddress
{
    std::string host;
    std::uint16_t port = 0;
};

/// "HOST:PORT", "[::1]:8080" or ":8080" (all addresses). Throws InputError naming what is wrong.
ListenAddress parseListenAddress(const std::string &text);

/// Everything `renewalctl serve` is told. The limits bound memory: at most maxClients requests
/// of at most maxBodyBytes are read at once, and at most queueDepth wait for a database worker.
struct ReceiverConfig
{
    std::vector<ListenAddress> listen;
    std::string secretsPath;
    std::string conninfo;
    int databaseConnections = 8; ///< delivery workers, one database connection each
    std::size_t queueDepth = 64; ///< deliveries read and waiting for a worker; more: 503
    int maxClients = 512; ///< open client connections; more are answered 503 and closed
    std::size_t maxBodyBytes = 1024 * 1024;
    std::size_t maxHeaderBytes = 16 * 1024;
    std::size_t maxHeaderFields = 100;
    std::chrono::seconds tolerance {300};
    /// A whole request (headers and body) must arrive within this, and an idle keep-alive
    /// connection is closed after it: a client sending a byte a second is cut off.
    std::chrono::seconds readTimeout {10};
    int ioThreads = 1;
    /// How often /metrics' renewal_overdue_subscriptions is read from the database.
    std::chrono::milliseconds overdueRefresh {15000};
    /// The newest migration this program has: /healthz checks that the database's schema is
    /// not newer (0: only that it connects).
    int newestMigration = 0;
    std::string tlsCertPath; ///< with tlsKeyPath: HTTPS on every listen address
    std::string tlsKeyPath;
};

} // namespace rd
