#pragma once

#include <QString>

namespace rd {
struct ChainBreak;
struct SchemaRuleDifference;
} // namespace rd

namespace rd::ui {

/// A break of an audit chain in the desk's language: in English word for word what
/// describeChainBreak says (the CLI's and the log's words), in German the same facts. A problem
/// the desk does not know is shown as the store said it.
QString chainBreakText(const ChainBreak &b);

/// A restored schema rule that differs from the migrations', in the desk's language (English:
/// describeSchemaRuleDifference's words). The rule's name and definitions stay as PostgreSQL
/// prints them.
QString schemaRuleDifferenceText(const SchemaRuleDifference &d);

} // namespace rd::ui
