#include "domain/store/retry_policy.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

namespace rd {

void RetryPolicy::pause(int attempt) const
{
    thread_local std::mt19937 rng {std::random_device {}()};
    const int capMs = std::min(500, 5 << std::clamp(attempt, 0, 7));
    std::uniform_int_distribution<int> dist(0, capMs);
    std::this_thread::sleep_for(std::chrono::milliseconds(dist(rng)));
}

} // namespace rd
