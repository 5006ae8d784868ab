#include "domain/core/currency.h"

#include <QtTest>

class TestCurrency : public QObject
{
    Q_OBJECT

private slots:
    void format_data()
    {
        QTest::addColumn<qint64>("minor");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<QString>("expected");
        QTest::newRow("usd") << qint64(123456) << "USD"
                             << "1234.56";
        QTest::newRow("usd cents") << qint64(5) << "USD"
                                   << "0.05";
        QTest::newRow("usd zero") << qint64(0) << "USD"
                                  << "0.00";
        QTest::newRow("jpy") << qint64(500) << "JPY"
                             << "500";
        QTest::newRow("kwd") << qint64(1234) << "KWD"
                             << "1.234";
        QTest::newRow("kwd small") << qint64(7) << "KWD"
                                   << "0.007";
        QTest::newRow("negative") << qint64(-150) << "EUR"
                                  << "-1.50";
        QTest::newRow("int64 min") << std::numeric_limits<qint64>::min() << "USD"
                                   << "-92233720368547758.08";
    }

    void format()
    {
        QFETCH(qint64, minor);
        QFETCH(QString, currency);
        QFETCH(QString, expected);
        QCOMPARE(
            QString::fromStdString(rd::formatMinorUnits(minor, currency.toStdString())), expected);
    }

    void parseMajor_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qint64>("minor");
        QTest::newRow("usd") << "12.34"
                             << "USD" << true << qint64(1234);
        QTest::newRow("usd one digit") << "12.5"
                                       << "USD" << true << qint64(1250);
        QTest::newRow("usd integer") << "12"
                                     << "USD" << true << qint64(1200);
        QTest::newRow("usd trailing zeros") << "12.3400"
                                            << "USD" << true << qint64(1234);
        QTest::newRow("usd sub-cent refused") << "12.345"
                                              << "USD" << false << qint64(0);
        QTest::newRow("jpy") << "500"
                             << "JPY" << true << qint64(500);
        QTest::newRow("jpy fraction refused") << "500.5"
                                              << "JPY" << false << qint64(0);
        QTest::newRow("kwd") << "1.234"
                             << "KWD" << true << qint64(1234);
        QTest::newRow("leading dot") << ".5"
                                     << "USD" << true << qint64(50);
        QTest::newRow("negative refused") << "-1.00"
                                          << "USD" << false << qint64(0);
        QTest::newRow("exponent refused") << "1e3"
                                          << "USD" << false << qint64(0);
        QTest::newRow("two dots") << "1.2.3"
                                  << "USD" << false << qint64(0);
        QTest::newRow("only dot") << "."
                                  << "USD" << false << qint64(0);
        QTest::newRow("empty") << ""
                               << "USD" << false << qint64(0);
        QTest::newRow("overflow") << "999999999999999999999"
                                  << "USD" << false << qint64(0);
        // 0.1 + 0.2 style: a float conversion would give 29 or 30 cents depending on rounding.
        QTest::newRow("float trap") << "0.29"
                                    << "USD" << true << qint64(29);
    }

    void parseMajor()
    {
        QFETCH(QString, text);
        QFETCH(QString, currency);
        QFETCH(bool, valid);
        QFETCH(qint64, minor);
        const auto v = rd::parseMajorUnits(text.toStdString(), currency.toStdString());
        QCOMPARE(v.has_value(), valid);
        if (valid)
            QCOMPARE(*v, minor);
    }
};

QTEST_GUILESS_MAIN(TestCurrency)
#include "tst_currency.moc"
