#include "tests/support/http_client.h"
#include "tests/support/process_runner.h"
#include "tests/support/receiver_process.h"
#include "tests/support/test_database.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <random>
#include <string>
#include <vector>

using namespace std::chrono_literals;
using rdtest::HttpConnection;
using rdtest::Receiver;

namespace {

const std::string kHead = "POST /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n";
const std::string kChunked = kHead + "Transfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n";

// Sends `bytes` on a connection of its own, says that nothing more follows, and returns what
// the receiver answered before it closed (or gave up after `timeout`).
std::string exchange(
    std::uint16_t port, const std::string &bytes, std::chrono::milliseconds timeout)
{
    HttpConnection c(port);
    if (!c.connected())
        return "<connection refused>";
    c.send(bytes); // the receiver may close before taking everything
    c.finishSending();
    return c.receiveUntilClosed(timeout);
}

// The receiver still runs and still reaches its database.
bool healthy(std::uint16_t port)
{
    return rdtest::httpCall(port, "GET", "/healthz", {}, {}, 10s).status == 200;
}

int statusOf(const std::string &answer)
{
    // "HTTP/1.1 431 ..." (or 1.0, answering an HTTP/1.0 request)
    return answer.size() > 9 && answer.rfind("HTTP/1.", 0) == 0 ? std::atoi(answer.c_str() + 9) : 0;
}

std::string field(const std::string &name, const std::string &value)
{
    return name + ": " + value + "\r\n";
}

/// Random HTTP framing: mostly well-formed pieces put together wrong, with sizes around the
/// limits that matter (Beast keeps a field's name and value under 64 KiB, the receiver's
/// header limit, the body limit).
class FramingFuzzer
{
public:
    explicit FramingFuzzer(unsigned seed) : m_random(seed) { }

    std::string next()
    {
        // Each piece is mostly right, so that most requests get deep into the framing
        // before something is wrong.
        std::string r = (rarely() ? pick({"PUT", "P\x01ST", ""}) : pick({"POST", "GET", "HEAD"}))
            + " "
            + (rarely() ? pick({"*", "/%00", ""})
                        : pick({"/healthz", "/webhooks/stripe-main", "/metrics"}))
            + " " + (rarely() ? pick({"HTTP/1.0", "HTTP/2.0", "HTTP/1.1 x"}) : "HTTP/1.1") + crlf();
        const int fields = oneIn(8) ? below(300) : below(6);
        for (int i = 0; i < fields; ++i)
            r += randomField();
        const bool chunked = !oneIn(4);
        if (chunked)
            r += field(oneIn(2) ? "Transfer-Encoding" : "transfer-encoding",
                rarely() ? pick({"gzip, chunked", "chunked, gzip", "identity"}) : "chunked");
        else
            r += field("Content-Length", pick({"0", "5", "-1", "99999999999999999999", "4, 4"}));
        if (oneIn(6))
            r += field("Expect", "100-continue");
        r += crlf();
        if (chunked) {
            const int chunks = below(5);
            for (int i = 0; i < chunks; ++i)
                r += randomChunk();
            r += (rarely() ? pick({"0x", "", "-0"}) : pick({"0", "00000", "0;ext=1"})) + crlf();
            const int trailers = oneIn(5) ? below(400) : below(4);
            for (int i = 0; i < trailers; ++i)
                r += randomField();
            r += crlf();
        } else {
            r += std::string(static_cast<std::size_t>(below(8)), 'b');
        }
        if (oneIn(6))
            r.resize(static_cast<std::size_t>(below(static_cast<int>(r.size()) + 1)));
        if (oneIn(6))
            r += oneIn(2) ? garbage(below(2000)) : kChunked;
        // Loopback buffers take this at once, whether or not the receiver reads it.
        if (r.size() > kMaxRequestBytes)
            r.resize(kMaxRequestBytes);
        return r;
    }

private:
    static constexpr std::size_t kMaxRequestBytes = 1024 * 1024;

    int below(int n) { return n <= 0 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(m_random); }
    bool oneIn(int n) { return below(n) == 0; }
    bool rarely() { return oneIn(12); }
    std::string pick(std::initializer_list<const char *> options)
    {
        return *(options.begin() + below(static_cast<int>(options.size())));
    }
    std::string crlf() { return oneIn(100) ? pick({"\n", "\r", "", "\r\r\n"}) : "\r\n"; }
    std::size_t size()
    {
        // Small, or close to a limit on either side.
        static const int kEdges[] = {16 * 1024, 64 * 1024, 65535, 70000, 200 * 1024};
        if (!oneIn(6))
            return static_cast<std::size_t>(below(40));
        const int edge = kEdges[below(5)];
        return static_cast<std::size_t>(edge - 8 + below(16));
    }
    std::string garbage(int n)
    {
        std::string g(static_cast<std::size_t>(n), '\0');
        for (char &c : g)
            c = static_cast<char>(below(256));
        return g;
    }
    std::string randomField()
    {
        std::string name = rarely() ? garbage(below(10)) : std::string(size() + 1, 'N');
        if (oneIn(4))
            name = pick({"X-Signature", "Stripe-Signature", "Content-Length", "Connection",
                "Transfer-Encoding", "Trailer"});
        return name + (rarely() ? pick({" : ", ""}) : pick({": ", ":"})) + std::string(size(), 'v')
            + crlf();
    }
    std::string randomChunk()
    {
        const std::size_t n = oneIn(3) ? size() : static_cast<std::size_t>(below(64));
        char hex[32];
        std::snprintf(hex, sizeof hex, "%zx", n);
        std::string line = hex;
        switch (below(16)) {
        case 0:
            line = std::string(size() + 1, '0') + line; // a huge chunk-size line
            break;
        case 1:
            line += ";" + std::string(size(), 'e') + "=" + std::string(size(), 'x');
            break;
        case 2:
            line = pick({"g", "-1", "ffffffffffffffffff", " 1", "1 "});
            break;
        default:
            break;
        }
        std::string data(n, 'd');
        if (rarely())
            data.resize(n / 2);
        return line + crlf() + data + crlf();
    }

    std::mt19937 m_random;
};

} // namespace

/// The receiver's HTTP framing under attack: whatever one client sends, only its own connection
/// ends; the process keeps serving everyone else.
class TestReceiverFraming : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        m_db = std::make_unique<rdtest::TestDatabase>("rx_framing");
        const auto r = rdtest::runProgram(rdtest::ctl(),
            rdtest::withDb(
                m_db->conninfo(), {"providers", "add", "stripe-main", "--kind", "stripe"}));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        m_secrets = rdtest::writeSecrets(m_dir, R"({"stripe-main": {"secrets": ["whsec_x"]}})");
        m_conninfo = rdtest::loginAs(*m_db, "rx", "ingest");
    }

    void oneRequestEndsOnlyItsOwnConnection_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status"); // 0: closed without an answer
        const QStringList defaults;
        const QStringList large {"--max-header-bytes", "262144"};
        const auto bytes = [](const std::string &s) { return QByteArray::fromStdString(s); };
        const std::string trailerStart = kChunked + "0\r\n";
        QTest::newRow("trailer value of 64 KiB")
            << defaults << bytes(trailerStart + field("X-Pad", std::string(65536, 'v')) + "\r\n")
            << 431;
        QTest::newRow("trailer name of 70,000 bytes")
            << defaults << bytes(trailerStart + field(std::string(70000, 'N'), "v") + "\r\n")
            << 431;
        std::string manyTrailers = trailerStart;
        for (int i = 0; i < 150; ++i)
            manyTrailers += field("X-T" + std::to_string(i), "1");
        QTest::newRow("150 trailer fields") << defaults << bytes(manyTrailers + "\r\n") << 431;
        std::string headerAndTrailer = kHead + "Transfer-Encoding: chunked\r\n";
        for (int i = 0; i < 60; ++i)
            headerAndTrailer += field("X-H" + std::to_string(i), "1");
        headerAndTrailer += "\r\n4\r\nbody\r\n0\r\n";
        for (int i = 0; i < 60; ++i)
            headerAndTrailer += field("X-T" + std::to_string(i), "1");
        QTest::newRow("60 header and 60 trailer fields")
            << defaults << bytes(headerAndTrailer + "\r\n") << 431;
        QTest::newRow("trailer of 12 KiB after a header of 12 KiB")
            << defaults
            << bytes(kHead + field("X-A", std::string(12000, 'a'))
                   + "Transfer-Encoding: chunked\r\n\r\n4\r\nbody\r\n0\r\n"
                   + field("X-B", std::string(12000, 'b')) + "\r\n")
            << 431;
        QTest::newRow("chunk-size line of 200 KiB")
            << defaults << bytes(kChunked + std::string(200 * 1024, '0') + "1\r\nx\r\n0\r\n\r\n")
            << 400;
        QTest::newRow("bad chunk size")
            << defaults << bytes(kChunked + "zz\r\nx\r\n0\r\n\r\n") << 400;
        QTest::newRow("header value of 70,000 bytes, limit 256 KiB")
            << large << bytes(kHead + field("X-Pad", std::string(70000, 'v')) + "\r\n") << 431;
        QTest::newRow("header name of 70,000 bytes, limit 256 KiB")
            << large << bytes(kHead + field(std::string(70000, 'N'), "v") + "\r\n") << 431;
        QTest::newRow("trailer value of 70,000 bytes, limit 256 KiB")
            << large << bytes(trailerStart + field("X-Pad", std::string(70000, 'v')) + "\r\n")
            << 431;
    }

    void oneRequestEndsOnlyItsOwnConnection()
    {
        QFETCH(QStringList, options);
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        Receiver rx(m_conninfo, m_secrets, options);
        QVERIFY(rx.port() != 0);
        const std::string answer = exchange(rx.port(), request.toStdString(), 10s);
        QVERIFY2(healthy(rx.port()), rx.stderrText().constData());
        QVERIFY2(statusOf(answer) == status, answer.substr(0, 300).c_str());
    }

    void randomFramingNeverStopsTheReceiver_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<unsigned>("seed");
        QTest::newRow("default limits") << QStringList {} << 20261202u;
        QTest::newRow("header limit 256 KiB") << QStringList {"--max-header-bytes", "262144",
            "--max-header-fields", "1000"} << 20261203u;
    }

    void randomFramingNeverStopsTheReceiver()
    {
        QFETCH(QStringList, options);
        QFETCH(unsigned, seed);
        Receiver rx(m_conninfo, m_secrets,
            options << "--read-timeout"
                    << "2");
        QVERIFY(rx.port() != 0);
        FramingFuzzer fuzzer(seed);
        // Bounded both ways: a fixed count, cut short by a time budget on a slow machine.
        const auto deadline = std::chrono::steady_clock::now() + 15s;
        int sent = 0;
        for (; sent < 400 && std::chrono::steady_clock::now() < deadline; ++sent) {
            const std::string request = fuzzer.next();
            const std::string answer = exchange(rx.port(), request, 3s);
            if (!healthy(rx.port()))
                QFAIL(qPrintable(QString("case %1 (seed %2) stopped the receiver: %3\n%4")
                                     .arg(sent)
                                     .arg(seed)
                                     .arg(QString::fromStdString(request.substr(0, 200)))
                                     .arg(QString::fromUtf8(rx.stderrText()))));
            // Every answer is a whole HTTP answer, never a crash dump or internal text.
            QVERIFY2(answer.empty() || statusOf(answer) >= 100, answer.substr(0, 200).c_str());
        }
        QVERIFY(sent >= 50);
    }

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    QTemporaryDir m_dir;
    QString m_secrets;
    std::string m_conninfo;
};

QTEST_GUILESS_MAIN(TestReceiverFraming)
#include "tst_receiver_framing.moc"
