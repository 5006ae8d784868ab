#include "domain/core/operator_note.h"

namespace rd {

const std::vector<std::string> &standardReasonCodes()
{
    static const std::vector<std::string> codes {"provider_confirmed", "missing_renewal_arrived",
        "customer_request", "duplicate_charge", "data_correction", "test_data", "other"};
    return codes;
}

} // namespace rd
