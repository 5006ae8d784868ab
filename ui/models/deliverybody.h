#pragma once

#include <QByteArray>
#include <QString>

#include <optional>

namespace rd::ui {

/// A stored webhook body as the delivery view shows it: JSON re-indented when the body is
/// JSON, a hex dump when it is not (or is not valid UTF-8).
struct BodyDisplay
{
    enum class Kind { Json, Hex, Empty };
    Kind kind = Kind::Empty;
    QString text;
    /// How many of the body's bytes `text` covers: all of them for JSON, the first
    /// `maxHexBytes` for a long hex dump.
    qsizetype shownBytes = 0;
    /// Hex only: the body's readable start as text (readablePrefix), shown beside the dump so
    /// that a body cut in transit or broken by one bad byte can still be read up to there.
    QString readableText;
    /// How many bytes readableText decodes.
    qsizetype readableBytes = 0;
};

/// The length of the longest prefix of `body` that is valid UTF-8 and holds no control
/// character but tab, line feed and carriage return: where a reader must stop. A multi-byte
/// character cut at the end, an overlong form, a surrogate or a byte that starts nothing ends
/// it.
qsizetype readablePrefix(const QByteArray &body);

/// The body re-indented, four spaces a level, one member or element a line: strings, numbers
/// and literals exactly as sent (no reordering, no rounding: "12.500" stays "12.500").
/// nullopt when the body is not a JSON object or array in valid UTF-8.
std::optional<QString> prettyJson(const QByteArray &body);

/// `hexdump -C` style: "00000010  7b 22 69 64 22 3a 20 22  65 76 74 5f 31 22 7d 0a  |{"id":
/// "evt_1"}.|", sixteen bytes a line, the first `maxBytes` of `body`.
QString hexDump(const QByteArray &body, qsizetype maxBytes = -1);

/// What the view shows for `body`. Runs off the GUI thread: a body can be a MiB.
BodyDisplay displayBody(const QByteArray &body, qsizetype maxHexBytes = 64 * 1024);

} // namespace rd::ui
