#include "domain/core/encoding.h"

#include <QtTest>

#include <optional>
#include <string>

namespace {

std::string bytes(const QByteArray &b)
{
    return std::string(b.constData(), std::size_t(b.size()));
}

QByteArray qbytes(const std::string &s)
{
    return QByteArray(s.data(), qsizetype(s.size()));
}

} // namespace

/// The one hex helper and libcrypto's base64 behind domain/core/encoding.h: RFC 4648's test
/// vectors, every padding length, bytes that are zero (which EVP_DecodeBlock's padding zeros
/// must not be mistaken for), and what a strict decoder refuses.
class TestEncoding : public QObject
{
    Q_OBJECT

private slots:
    void hex_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QByteArray>("hex");
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("zero byte") << QByteArray(1, '\0') << QByteArray("00");
        QTest::newRow("every nibble") << QByteArray::fromRawData("\x01\x23\x45\x67\x89\xab\xcd\xef",
            8) << QByteArray("0123456789abcdef");
        QTest::newRow("high bytes") << QByteArray("\xff\x80\x7f", 3) << QByteArray("ff807f");
        QTest::newRow("text") << QByteArray("foobar") << QByteArray("666f6f626172");
    }

    void hex()
    {
        QFETCH(QByteArray, data);
        QFETCH(QByteArray, hex);
        QCOMPARE(qbytes(rd::toHex(bytes(data))), hex);
        const auto back = rd::fromHex(bytes(hex));
        QVERIFY(back.has_value());
        QCOMPARE(qbytes(*back), data);
        // Upper case reads the same.
        const auto upper = rd::fromHex(bytes(hex.toUpper()));
        QVERIFY(upper.has_value());
        QCOMPARE(qbytes(*upper), data);
    }

    void hexRefused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("odd length") << QByteArray("abc");
        QTest::newRow("not a digit") << QByteArray("0g");
        QTest::newRow("space") << QByteArray("00 0");
        QTest::newRow("prefix") << QByteArray("0x00");
        QTest::newRow("sign") << QByteArray("-1");
    }

    void hexRefused()
    {
        QFETCH(QByteArray, text);
        QVERIFY(!rd::fromHex(bytes(text)).has_value());
    }

    void base64_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QByteArray>("encoded");
        // RFC 4648 section 10.
        QTest::newRow("empty") << QByteArray() << QByteArray();
        QTest::newRow("f, two pads") << QByteArray("f") << QByteArray("Zg==");
        QTest::newRow("fo, one pad") << QByteArray("fo") << QByteArray("Zm8=");
        QTest::newRow("foo, no pad") << QByteArray("foo") << QByteArray("Zm9v");
        QTest::newRow("foob") << QByteArray("foob") << QByteArray("Zm9vYg==");
        QTest::newRow("fooba") << QByteArray("fooba") << QByteArray("Zm9vYmE=");
        QTest::newRow("foobar") << QByteArray("foobar") << QByteArray("Zm9vYmFy");
        // Zero bytes at the end: data, not padding.
        QTest::newRow("one zero byte") << QByteArray(1, '\0') << QByteArray("AA==");
        QTest::newRow("two zero bytes") << QByteArray(2, '\0') << QByteArray("AAA=");
        QTest::newRow("three zero bytes") << QByteArray(3, '\0') << QByteArray("AAAA");
        QTest::newRow("f then zero") << QByteArray("f\0", 2) << QByteArray("ZgA=");
        QTest::newRow("the last letters") << QByteArray("\xfb\xff\xbf", 3) << QByteArray("+/+/");
        QTest::newRow("basic auth")
            << QByteArray("hooks:correct-horse") << QByteArray("aG9va3M6Y29ycmVjdC1ob3JzZQ==");
    }

    void base64()
    {
        QFETCH(QByteArray, data);
        QFETCH(QByteArray, encoded);
        QCOMPARE(qbytes(rd::base64Encode(bytes(data))), encoded);
        const auto decoded = rd::base64Decode(bytes(encoded));
        QVERIFY(decoded.has_value());
        QCOMPARE(qbytes(*decoded), data);
        QCOMPARE(qbytes(*decoded), QByteArray::fromBase64(encoded));
    }

    // Every length 0..64 of every byte value round-trips, and agrees with Qt's base64.
    void base64RoundTrip()
    {
        std::string data;
        for (int length = 0; length <= 64; ++length) {
            const std::string encoded = rd::base64Encode(data);
            QCOMPARE(qbytes(encoded), qbytes(data).toBase64());
            const auto decoded = rd::base64Decode(encoded);
            QVERIFY(decoded.has_value());
            QCOMPARE(qbytes(*decoded), qbytes(data));
            data += static_cast<char>(255 - 4 * length);
        }
    }

    void base64Refused_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("length not a multiple of four") << QByteArray("Zm9vY");
        QTest::newRow("missing padding") << QByteArray("Zg");
        QTest::newRow("three pads") << QByteArray("Z===");
        QTest::newRow("only padding") << QByteArray("====");
        QTest::newRow("pad in the middle") << QByteArray("Zg==Zm9v");
        QTest::newRow("pad inside a quantum") << QByteArray("Z=9v");
        QTest::newRow("leading space") << QByteArray(" Zm9v");
        QTest::newRow("trailing line end") << QByteArray("Zm9v\n");
        QTest::newRow("space inside") << QByteArray("Zm9 v");
        QTest::newRow("url alphabet") << QByteArray("Zm-_");
        QTest::newRow("bad character") << QByteArray("Zm9!");
        QTest::newRow("NUL") << QByteArray("Zm9\0", 4);
    }

    void base64Refused()
    {
        QFETCH(QByteArray, text);
        QVERIFY(!rd::base64Decode(bytes(text)).has_value());
    }

    void asciiIEquals_data()
    {
        QTest::addColumn<QByteArray>("a");
        QTest::addColumn<QByteArray>("b");
        QTest::addColumn<bool>("equal");
        QTest::newRow("same") << QByteArray("Stripe-Signature") << QByteArray("Stripe-Signature")
                              << true;
        QTest::newRow("other case")
            << QByteArray("stripe-SIGNATURE") << QByteArray("Stripe-Signature") << true;
        QTest::newRow("empty") << QByteArray() << QByteArray() << true;
        QTest::newRow("prefix") << QByteArray("Basic") << QByteArray("Basi") << false;
        QTest::newRow("other letter") << QByteArray("Basic") << QByteArray("Basik") << false;
        // Only A-Z fold: '@' and '`' sit next to them, and Latin-1 letters stay as they are.
        QTest::newRow("next to the letters") << QByteArray("@[") << QByteArray("`{") << false;
        QTest::newRow("latin-1") << QByteArray("\xc4") << QByteArray("\xe4") << false;
    }

    void asciiIEquals()
    {
        QFETCH(QByteArray, a);
        QFETCH(QByteArray, b);
        QFETCH(bool, equal);
        QCOMPARE(rd::asciiIEquals(bytes(a), bytes(b)), equal);
        QCOMPARE(rd::asciiIEquals(bytes(b), bytes(a)), equal);
    }
};

QTEST_APPLESS_MAIN(TestEncoding)
#include "tst_encoding.moc"
