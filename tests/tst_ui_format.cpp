#include "ui/models/format.h"

#include <QtTest>

/// The desk's formatting rules, in English (the desk's own forms) and in German (the locale's).
class TestUiFormat : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { QLocale::setDefault(QLocale::c()); }

    void moneyUsesTheCurrencyExponent_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<qint64>("minor");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<QString>("text");
        QTest::newRow("C USD") << u"C"_qs << qint64(123456) << u"USD"_qs << u"$1,234.56"_qs;
        QTest::newRow("C JPY") << u"C"_qs << qint64(500) << u"JPY"_qs << u"¥500"_qs;
        QTest::newRow("C KWD") << u"C"_qs << qint64(1234) << u"KWD"_qs << u"1.234 KWD"_qs;
        QTest::newRow("C EUR cents") << u"C"_qs << qint64(5) << u"EUR"_qs << u"€0.05"_qs;
        QTest::newRow("en USD") << u"en"_qs << qint64(123456) << u"USD"_qs << u"$1,234.56"_qs;
        QTest::newRow("en EUR millions")
            << u"en"_qs << qint64(123456789) << u"EUR"_qs << u"€1,234,567.89"_qs;
        QTest::newRow("en negative") << u"en_GB"_qs << qint64(-1000) << u"GBP"_qs << u"£-10.00"_qs;
        QTest::newRow("de EUR") << u"de"_qs << qint64(123456) << u"EUR"_qs << u"1.234,56 €"_qs;
        QTest::newRow("de USD") << u"de"_qs << qint64(2000) << u"USD"_qs << u"20,00 $"_qs;
        QTest::newRow("de JPY") << u"de"_qs << qint64(1234567) << u"JPY"_qs << u"1.234.567 ¥"_qs;
        QTest::newRow("de KWD") << u"de_DE"_qs << qint64(1234) << u"KWD"_qs << u"1,234 KWD"_qs;
        QTest::newRow("de negative") << u"de"_qs << qint64(-5) << u"EUR"_qs << u"-0,05 €"_qs;
    }

    void moneyUsesTheCurrencyExponent()
    {
        QFETCH(QString, locale);
        QFETCH(qint64, minor);
        QFETCH(QString, currency);
        QFETCH(QString, text);
        QLocale::setDefault(QLocale(locale));
        // German separates the amount from its currency by a no-break space (CLDR); English
        // keeps the desk's plain one.
        if (locale.startsWith(u"de"))
            text.replace(u' ', u'\u00a0');
        QCOMPARE(rd::ui::format::money(minor, currency), text);
    }

    // A report or an export that is data passes the C locale, whatever the desk's language.
    void dataStaysInTheMachineForm()
    {
        QLocale::setDefault(QLocale(u"de"_qs));
        QCOMPARE(rd::ui::format::money(123456, u"EUR"_qs, QLocale::c()), u"€1,234.56"_qs);
    }

    void datesFollowTheLocale_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("dateTime");
        QTest::addColumn<QString>("period");
        QTest::addColumn<QString>("date");
        QTest::newRow("C") << u"C"_qs << u"2 Mar 2026 14:05"_qs << u"1 Mar → 1 Apr 2026"_qs
                           << u"2 Mar 2026"_qs;
        QTest::newRow("en") << u"en"_qs << u"2 Mar 2026 14:05"_qs << u"1 Mar → 1 Apr 2026"_qs
                            << u"2 Mar 2026"_qs;
        QTest::newRow("de") << u"de"_qs << u"02.03.26 14:05"_qs << u"01.03.26 → 01.04.26"_qs
                            << u"02.03.26"_qs;
    }

    void datesFollowTheLocale()
    {
        QFETCH(QString, locale);
        QFETCH(QString, dateTime);
        QFETCH(QString, period);
        QFETCH(QString, date);
        QLocale::setDefault(QLocale(locale));
        // Built in local time: what the eye sees whatever the machine's time zone.
        const auto local = [](int month, int day, int hour, int minute) {
            return QDateTime(QDate(2026, month, day), QTime(hour, minute)).toUTC();
        };
        QCOMPARE(rd::ui::format::localDateTime(local(3, 2, 14, 5)), dateTime);
        QCOMPARE(rd::ui::format::period(local(3, 1, 12, 0), local(4, 1, 12, 0)), period);
        QCOMPARE(rd::ui::format::localDate(local(3, 2, 14, 5)), date);
    }

    /// A stored code shown as a word: as stored in English (the CLI's, the filters' and the
    /// exports' form), in words of the language otherwise (translated when a catalog is loaded).
    void storedWordsStayAsStoredInEnglishOnly_data()
    {
        QTest::addColumn<QString>("locale");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("shown");
        QTest::newRow("C") << u"C"_qs << u"past_due"_qs << u"past_due"_qs;
        QTest::newRow("en") << u"en"_qs << u"webhook"_qs << u"webhook"_qs;
        QTest::newRow("de") << u"de"_qs << u"past_due"_qs << u"Past due"_qs;
    }

    void storedWordsStayAsStoredInEnglishOnly()
    {
        QFETCH(QString, locale);
        QFETCH(QString, code);
        QFETCH(QString, shown);
        QLocale::setDefault(QLocale(locale));
        QCOMPARE(rd::ui::format::storedWord(code), shown);
    }
};

QTEST_MAIN(TestUiFormat)
#include "tst_ui_format.moc"
