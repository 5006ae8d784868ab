#pragma once

#include "domain/store/webhook_ingestor.h"

#include <QString>

#include <string>

namespace rdtest {

/// An ingest outcome as QCOMPARE can print it (it prints QStrings, not this enum).
inline QString outcomeName(rd::IngestOutcome outcome)
{
    return QString::fromStdString(std::string(rd::toString(outcome)));
}

} // namespace rdtest
