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

    // Fed in pieces of every size (one byte, around the 64-byte block, larger than the input),
    // the incremental hash gives the one-shot digest of the FIPS examples.
    void incrementalMatchesOneShot_data() { vectors_data(); }
    void incrementalMatchesOneShot()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, digest);
        const std::string_view all(input.constData(), std::size_t(input.size()));
        for (const std::size_t piece : {1, 3, 55, 63, 64, 65, 1000, 4096, 2000000}) {
            if (piece == 1 && all.size() > 100000)
                continue; // a million one-byte calls prove nothing the others do not
            rd::Sha256 hash;
            for (std::size_t at = 0; at < all.size(); at += piece)
                hash.update(all.substr(at, piece));
            QCOMPARE(QString::fromStdString(hash.hexDigest()), digest);
        }
    }

    // Empty pieces change nothing, and a digest starts the hash again.
    void emptyPiecesAndRestart()
    {
        rd::Sha256 hash;
        hash.update("");
        hash.update("ab");
        hash.update("");
        hash.update("c");
        QCOMPARE(hash.hexDigest(),
            std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(hash.hexDigest(),
            std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        hash.update("abc");
        QCOMPARE(hash.hexDigest(),
            std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
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
