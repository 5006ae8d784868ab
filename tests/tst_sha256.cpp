#include "domain/core/sha256.h"

#include <QtTest>

#include <string>

class TestSha256 : public QObject
{
    Q_OBJECT

private slots:
    // The FIPS 180-2 appendix B examples, plus lengths around the padding boundary.
    void vectors_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("digest");

        QTest::newRow("empty")
            << QByteArray() << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        QTest::newRow("abc") << QByteArray("abc")
                             << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("448 bits")
            << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
        QTest::newRow("million a") << QByteArray(
            1000000, 'a') << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    }

    void vectors()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, digest);
        QCOMPARE(QString::fromStdString(
                     rd::sha256Hex(std::string_view(input.constData(), input.size()))),
            digest);
    }

    // Lengths that straddle the 55/56/64-byte padding boundary agree with Qt's implementation.
    void paddingBoundaries()
    {
        for (int n = 50; n <= 130; ++n) {
            const QByteArray input(n, 'x');
            const QByteArray expected
                = QCryptographicHash::hash(input, QCryptographicHash::Sha256).toHex();
            QCOMPARE(QByteArray::fromStdString(
                         rd::sha256Hex(std::string_view(input.constData(), input.size()))),
                expected);
        }
    }
};

QTEST_APPLESS_MAIN(TestSha256)
#include "tst_sha256.moc"
