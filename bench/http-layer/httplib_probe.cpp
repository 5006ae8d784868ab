// BENCHMARK PROBE, NOT PRODUCT CODE. The receiver's handler semantics over cpp-httplib 0.11.4
// (Debian 12: libcpp-httplib-dev, a compiled libcpp-httplib.so), minus the database:
//   POST /webhooks/stripe-main: Stripe-Signature checked (HMAC-SHA256 over t + "." + body);
//   then the "database commit" -- a 2 ms SLEEP, a stand-in for WebhookIngestor::ingest -- and
//   the 200. Body limit 1 MiB (set_payload_max_length: 413).
// cpp-httplib runs each connection, and so each handler, on a thread of its task queue: the
// natural way to build this with httplib is that the pool thread IS the database worker (it
// sleeps the 2 ms itself). There is no separate 8-worker queue, so no 503 on a full queue:
// httplib's ThreadPool queue of accepted connections is unbounded.
// Settings, as far as 0.11.4 allows: read/write timeout 10 s (per recv/send, not per request),
// keep-alive timeout 10 s, keep-alive max count 1000, pool of POOL threads (default 16),
// TCP_NODELAY on (NODELAY 1, the default here; Debian's library is built with
// CPPHTTPLIB_TCP_NODELAY false, and with Nagle on every keep-alive answer waits ~40 ms for the
// client's delayed ACK, since httplib writes the header and the body in separate send()s).
// Header limit: the CPPHTTPLIB_HEADER_MAX_LENGTH / _REQUEST_URI_MAX_LENGTH macros are baked
// into Debian's compiled libcpp-httplib.so (8192); defining them here changes nothing.
// Usage: httplib_probe PORT SECRET [POOL] [NODELAY]
#include "probe_common.h"

#include <httplib.h>

#include <iostream>

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::cerr << "usage: httplib_probe PORT SECRET [POOL] [NODELAY]\n";
        return 2;
    }
    const int port = std::atoi(argv[1]);
    const std::string secret = argv[2];
    const std::size_t pool = argc > 3 ? static_cast<std::size_t>(std::atoi(argv[3])) : 16;
    const bool nodelay = argc > 4 ? std::atoi(argv[4]) != 0 : true;

    httplib::Server server;
    server.new_task_queue = [pool] { return new httplib::ThreadPool(pool); };
    server.set_tcp_nodelay(nodelay);
    server.set_read_timeout(10, 0);
    server.set_write_timeout(10, 0);
    server.set_keep_alive_timeout(10);
    server.set_keep_alive_max_count(1000);
    server.set_payload_max_length(probe::kMaxBody);

    server.Post(
        "/webhooks/stripe-main", [&secret](const httplib::Request &req, httplib::Response &res) {
            const auto sig = req.get_header_value("Stripe-Signature");
            if (!probe::stripeSignatureValid(sig, req.body, secret, 0)) {
                res.status = 400;
                res.set_content("{\"result\":\"signature_mismatch\"}", "application/json");
                return;
            }
            std::this_thread::sleep_for(probe::kFakeCommit); // stand-in for the database commit
            res.status = 200;
            res.set_content("{\"result\":\"stored\"}", "application/json");
        });

    std::cerr << "httplib_probe listening on 127.0.0.1:" << port << " pool " << pool << " nodelay "
              << nodelay << "\n";
    if (!server.listen("127.0.0.1", port)) {
        std::cerr << "cannot listen\n";
        return 1;
    }
}
