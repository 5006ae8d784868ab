#include "ui/models/deliverybody.h"

#include "domain/core/encoding.h"

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

qsizetype readablePrefix(const QByteArray &body)
{
    const auto *b = reinterpret_cast<const unsigned char *>(body.constData());
    const qsizetype n = body.size();
    qsizetype i = 0;
    while (i < n) {
        const unsigned char c = b[i];
        if (c < 0x80) {
            if (c == 0x7f || (c < 0x20 && c != '\t' && c != '\n' && c != '\r'))
                return i;
            ++i;
            continue;
        }
        // The sequence's length and the range its second byte must be in (RFC 3629's table:
        // no overlong forms, no surrogates, nothing above U+10FFFF).
        int len = 0;
        unsigned char lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf) {
            len = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            if (c == 0xe0)
                lo = 0xa0;
            else if (c == 0xed)
                hi = 0x9f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            if (c == 0xf0)
                lo = 0x90;
            else if (c == 0xf4)
                hi = 0x8f;
        } else {
            return i;
        }
        if (i + len > n)
            return i; // cut inside the character
        if (b[i + 1] < lo || b[i + 1] > hi)
            return i;
        for (int k = 2; k < len; ++k) {
            if (b[i + k] < 0x80 || b[i + k] > 0xbf)
                return i;
        }
        if (len == 2 && c == 0xc2 && b[i + 1] < 0xa0)
            return i; // C1 control characters
        i += len;
    }
    return n;
}

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
    const std::string hex = rd::toHex(std::string_view(body.constData(), std::size_t(n)));
    QString out;
    out.reserve((n / 16 + 1) * 79);
    for (qsizetype line = 0; line < n; line += 16) {
        out += u"%1  "_qs.arg(line, 8, 16, QChar(u'0'));
        QString ascii;
        for (qsizetype i = line; i < line + 16; ++i) {
            if (i < n) {
                const auto b = static_cast<unsigned char>(body[i]);
                out += QLatin1Char(hex[std::size_t(2 * i)]);
                out += QLatin1Char(hex[std::size_t(2 * i + 1)]);
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
    d.readableBytes = readablePrefix(body.first(d.shownBytes));
    d.readableText = QString::fromUtf8(body.first(d.readableBytes));
    return d;
}

} // namespace rd::ui
