#include "ui/models/format.h"

#include <QtTest>

/// The desk's formatting rules.
class TestUiFormat : public QObject
{
    Q_OBJECT

private slots:
    void moneyUsesTheCurrencyExponent_data()
    {
        QTest::addColumn<qint64>("minor");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<QString>("text");
        QTest::newRow("USD") << qint64(123456) << u"USD"_qs << u"$1,234.56"_qs;
        QTest::newRow("JPY") << qint64(500) << u"JPY"_qs << u"¥500"_qs;
        QTest::newRow("KWD") << qint64(1234) << u"KWD"_qs << u"1.234 KWD"_qs;
        QTest::newRow("EUR cents") << qint64(5) << u"EUR"_qs << u"€0.05"_qs;
    }

    void moneyUsesTheCurrencyExponent()
    {
        QFETCH(qint64, minor);
        QFETCH(QString, currency);
        QFETCH(QString, text);
        QCOMPARE(rd::ui::format::money(minor, currency), text);
    }
};

QTEST_MAIN(TestUiFormat)
#include "tst_ui_format.moc"
