#include "ui/models/deliverybody.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QStringDecoder>

namespace rd::ui {

namespace {

bool isJsonSpace(QChar c)
{
    return c == u' ' || c == u'\t' || c == u'\n' || c == u'\r';
}

} // namespace

std::optional<QString> prettyJson(const QByteArray &body)
{
    QStringDecoder utf8(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = utf8.decode(body);
    if (utf8.hasError())
        return std::nullopt;
    // Qt's parser only says whether it is JSON: its document would reorder the members and
    // turn every number into a double. The text is re-indented as sent instead.
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || doc.isNull())
        return std::nullopt;

    QString out;
    out.reserve(text.size() + text.size() / 2);
    int depth = 0;
    const auto newline = [&] {
        out += u'\n';
        out += QString(depth * 4, u' ');
    };
    bool inString = false;
    bool escaped = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (inString) {
            out += c;
            if (escaped)
                escaped = false;
            else if (c == u'\\')
                escaped = true;
            else if (c == u'"')
                inString = false;
            continue;
        }
        if (isJsonSpace(c))
            continue;
        switch (c.unicode()) {
        case u'"':
            inString = true;
            out += c;
            break;
        case u'{':
        case u'[': {
            out += c;
            qsizetype next = i + 1;
            while (next < text.size() && isJsonSpace(text[next]))
                ++next;
            const QChar close = c == u'{' ? u'}' : u']';
            if (next < text.size() && text[next] == close) {
                out += close; // {} and [] stay on one line
                i = next;
                break;
            }
            ++depth;
            newline();
            break;
        }
        case u'}':
        case u']':
            --depth;
            newline();
            out += c;
            break;
        case u',':
            out += c;
            newline();
            break;
        case u':':
            out += u": "_qs;
            break;
        default:
            out += c; // numbers and literals, as sent
        }
    }
    return out;
}

QString hexDump(const QByteArray &body, qsizetype maxBytes)
{
    const qsizetype n = maxBytes < 0 ? body.size() : std::min(body.size(), maxBytes);
    static constexpr char kDigits[] = "0123456789abcdef";
    QString out;
    out.reserve((n / 16 + 1) * 79);
    for (qsizetype line = 0; line < n; line += 16) {
        out += u"%1  "_qs.arg(line, 8, 16, QChar(u'0'));
        QString ascii;
        for (qsizetype i = line; i < line + 16; ++i) {
            if (i < n) {
                const auto b = static_cast<unsigned char>(body[i]);
                out += QLatin1Char(kDigits[b >> 4]);
                out += QLatin1Char(kDigits[b & 0xf]);
                out += u' ';
                ascii += b >= 0x20 && b < 0x7f ? QLatin1Char(char(b)) : QLatin1Char('.');
            } else {
                out += u"   "_qs;
            }
            if (i == line + 7)
                out += u' ';
        }
        out += u" |"_qs + ascii + u"|\n"_qs;
    }
    return out;
}

BodyDisplay displayBody(const QByteArray &body, qsizetype maxHexBytes)
{
    BodyDisplay d;
    if (body.isEmpty())
        return d;
    if (auto json = prettyJson(body)) {
        d.kind = BodyDisplay::Kind::Json;
        d.text = std::move(*json);
        d.shownBytes = body.size();
        return d;
    }
    d.kind = BodyDisplay::Kind::Hex;
    d.shownBytes = maxHexBytes < 0 ? body.size() : std::min(body.size(), maxHexBytes);
    d.text = hexDump(body, d.shownBytes);
    return d;
}

} // namespace rd::ui
