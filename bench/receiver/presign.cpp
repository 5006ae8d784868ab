// renewal-presign: signs provider payloads ahead of a load test, so that the load generator
// (wrk, which cannot compute an HMAC) replays deliveries a receiver accepts. Not the product.
//
//   renewal-presign --kind stripe --secret SECRET < payloads.jsonl > deliveries.txt
//
// Reads one payload per line; writes two lines per payload: "Header-Name: value" lines joined
// by a tab (the signature headers), then the payload itself, byte for byte.

#include "domain/core/adapters/provider_kinds.h"
#include "domain/core/webhook_signature.h"

#include <chrono>
#include <cstring>
#include <iostream>
#include <string>

int main(int argc, char **argv)
{
    std::string kindName = "stripe", secret;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--kind") == 0)
            kindName = argv[i + 1];
        else if (std::strcmp(argv[i], "--secret") == 0)
            secret = argv[i + 1];
    }
    const auto kind = rd::providerKindFromString(kindName);
    if (!kind || secret.empty()) {
        std::cerr << "usage: renewal-presign --kind KIND --secret SECRET < payloads > deliveries\n";
        return 64;
    }
    rd::WebhookCredentials credentials;
    (rd::signsWithBasicAuth(*kind) ? credentials.basicAuth : credentials.secrets).push_back(secret);
    const auto now = std::chrono::system_clock::now();
    std::ios::sync_with_stdio(false);
    for (std::string line; std::getline(std::cin, line);) {
        if (line.empty())
            continue;
        std::string headers;
        for (const auto &[name, value] : rd::signDelivery(*kind, line, credentials, now))
            headers += (headers.empty() ? "" : "\t") + name + ": " + value;
        std::cout << headers << '\n' << line << '\n';
    }
    return 0;
}
