#include "ui/models/deliverybody.h"

#include <QtTest>

/// How the Inbox's delivery view shows a stored body: JSON re-indented with every value as
/// sent, anything else (not JSON, not UTF-8, a bare scalar) as a hex dump.
class TestUiDeliveryBody : public QObject
{
    Q_OBJECT

private slots:
    void prettyJson_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("pretty");
        QTest::newRow("object") << QByteArray(R"({"a":1,"b":[true,null]})")
                                << u"{\n    \"a\": 1,\n    \"b\": [\n        true,\n        null\n"
                                   "    ]\n}"_qs;
        // Numbers and member order as sent: a parsed document would give 12.5 and sort "z".
        QTest::newRow("values as sent")
            << QByteArray(R"({"z":"12.500","amount":12.500,"big":123456789012345678901})")
            << u"{\n    \"z\": \"12.500\",\n    \"amount\": 12.500,\n"
               "    \"big\": 123456789012345678901\n}"_qs;
        QTest::newRow("structure inside strings")
            << QByteArray(R"({"s":"a, {b}: [c] \"q\" \\"})")
            << u"{\n    \"s\": \"a, {b}: [c] \\\"q\\\" \\\\\"\n}"_qs;
        QTest::newRow("empty containers and spaces") << QByteArray(
            "{ \"o\" : { } ,\n\t\"l\" : [ ] }") << u"{\n    \"o\": {},\n    \"l\": []\n}"_qs;
        QTest::newRow("utf-8") << QByteArray("[\"M\xc3\xbcnchen\"]") << u"[\n    \"München\"\n]"_qs;
    }

    void prettyJson()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, pretty);
        const auto shown = rd::ui::prettyJson(body);
        QVERIFY(shown.has_value());
        QCOMPARE(*shown, pretty);
        const auto display = rd::ui::displayBody(body);
        QCOMPARE(display.kind, rd::ui::BodyDisplay::Kind::Json);
        QCOMPARE(display.shownBytes, body.size());
    }

    void notJsonIsHex_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("text") << QByteArray("hello, world");
        QTest::newRow("truncated json") << QByteArray(R"({"id": "evt_1", "data": {)");
        QTest::newRow("invalid utf-8 inside json") << QByteArray("{\"a\": \"\xff\xfe\"}");
        QTest::newRow("bare number") << QByteArray("42");
        QTest::newRow("binary") << QByteArray("\x00\x01\x02\x03", 4);
    }

    void notJsonIsHex()
    {
        QFETCH(QByteArray, body);
        QVERIFY(!rd::ui::prettyJson(body).has_value());
        const auto display = rd::ui::displayBody(body);
        QCOMPARE(display.kind, rd::ui::BodyDisplay::Kind::Hex);
        QCOMPARE(display.text, rd::ui::hexDump(body));
        // Every byte, two hex digits each, sixteen a line.
        QCOMPARE(display.text.count(u'\n'), (body.size() + 15) / 16);
        QVERIFY(display.text.startsWith(u"00000000  %1 "_qs.arg(
            QString::number(static_cast<unsigned char>(body[0]), 16), 2, QChar(u'0'))));
    }

    void hexDumpLayout()
    {
        const QByteArray body("0123456789abcdef\x7f\x80z", 19);
        QCOMPARE(rd::ui::hexDump(body),
            u"00000000  30 31 32 33 34 35 36 37  38 39 61 62 63 64 65 66  |0123456789abcdef|\n"
            "00000010  7f 80 7a                                          |..z|\n"_qs);
    }

    /// A long body that is not JSON: the dump covers its start only, and says how much.
    void longHexIsCut()
    {
        const QByteArray body(1024 * 1024, '\x01');
        const auto display = rd::ui::displayBody(body, 4096);
        QCOMPARE(display.kind, rd::ui::BodyDisplay::Kind::Hex);
        QCOMPARE(display.shownBytes, 4096);
        QCOMPARE(display.text.count(u'\n'), 4096 / 16);
    }

    /// A cut or broken body: the longest readable start, as text, beside the hex (issue #28,
    /// item 24). Each row gives the body and the text a reader sees.
    void readableStart_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("readable");
        QTest::newRow("truncated json")
            << QByteArray(R"({"id": "evt_1", "data": {)") << uR"({"id": "evt_1", "data": {)"_qs;
        QTest::newRow("cut inside a character")
            << QByteArray("{\"city\": \"M\xc3\xbcnchen \xe2\x82") << u"{\"city\": \"München "_qs;
        QTest::newRow("invalid byte inside json")
            << QByteArray("{\"a\": \"\xff\xfe\"}") << u"{\"a\": \""_qs;
        QTest::newRow("lines kept")
            << QByteArray("line one\r\nline\ttwo\n\x80") << u"line one\r\nline\ttwo\n"_qs;
        QTest::newRow("overlong slash") << QByteArray("a\xc0\xaf"
                                                      "b")
                                        << u"a"_qs;
        QTest::newRow("surrogate") << QByteArray("ab\xed\xa0\x80") << u"ab"_qs;
        QTest::newRow("above U+10FFFF") << QByteArray("x\xf4\x90\x80\x80") << u"x"_qs;
        QTest::newRow("four-byte character whole")
            << QByteArray("ok \xf0\x9f\x98\x80 \xf0\x9f") << u"ok \U0001F600 "_qs;
        QTest::newRow("NUL stops") << QByteArray("abc\0def", 7) << u"abc"_qs;
        QTest::newRow("binary") << QByteArray("\x00\x01\x02\x03", 4) << QString();
    }

    void readableStart()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, readable);
        const auto display = rd::ui::displayBody(body);
        QCOMPARE(display.kind, rd::ui::BodyDisplay::Kind::Hex);
        QCOMPARE(display.readableText, readable);
        QCOMPARE(display.readableBytes, readable.toUtf8().size());
        QCOMPARE(rd::ui::readablePrefix(body), readable.toUtf8().size());
    }

    /// Only the dumped start is decoded: a long body's text stops where its hex stops.
    void readableStartOfLongBody()
    {
        const QByteArray body(8192, 'a');
        const auto display = rd::ui::displayBody(body, 4096);
        QCOMPARE(display.readableBytes, 4096);
        QCOMPARE(display.readableText, QString(4096, u'a'));
    }

    void emptyBody() { QCOMPARE(rd::ui::displayBody({}).kind, rd::ui::BodyDisplay::Kind::Empty); }
};

QTEST_MAIN(TestUiDeliveryBody)
#include "tst_ui_deliverybody.moc"
