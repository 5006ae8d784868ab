#include "domain/core/currency.h"
#include "domain/core/errors.h"
#include "domain/core/renewal_event.h"

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

    // #39, item 6: a numeric sum's digits, however many, formatted without a 64-bit detour.
    void formatText_data()
    {
        QTest::addColumn<QString>("minor");
        QTest::addColumn<QString>("currency");
        QTest::addColumn<QString>("expected"); // "" for text that is no number
        QTest::newRow("past 64 bits") << "18446744073709553614"
                                      << "USD"
                                      << "184467440737095536.14";
        QTest::newRow("JPY") << "18446744073709553614"
                             << "JPY"
                             << "18446744073709553614";
        QTest::newRow("KWD, small") << "5"
                                    << "KWD"
                                    << "0.005";
        QTest::newRow("negative") << "-5"
                                  << "USD"
                                  << "-0.05";
        QTest::newRow("leading zeros") << "000120"
                                       << "USD"
                                       << "1.20";
        QTest::newRow("zero") << "0"
                              << "EUR"
                              << "0.00";
        QTest::newRow("a decimal point") << "1.5"
                                         << "USD"
                                         << "";
        QTest::newRow("empty") << ""
                               << "USD"
                               << "";
        QTest::newRow("a sign alone") << "-"
                                      << "USD"
                                      << "";
    }

    void formatText()
    {
        QFETCH(QString, minor);
        QFETCH(QString, currency);
        QFETCH(QString, expected);
        const auto text = rd::formatMinorUnitsText(minor.toStdString(), currency.toStdString());
        QCOMPARE(QString::fromStdString(text.value_or("")), expected);
        QCOMPARE(text.has_value(), !expected.isEmpty());
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

    // The code as a renewal, an import or an adapter gives it: upper-cased when it is three
    // letters, then looked up in ISO 4217's active list (the table built from migration 0028).
    void normalize_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("expected"); // the normalized code, or empty when refused
        QTest::addColumn<int>("minorUnits");
        QTest::newRow("USD") << "USD"
                             << "USD" << 2;
        QTest::newRow("usd lower case") << "usd"
                                        << "USD" << 2;
        QTest::newRow("Eur mixed case") << "Eur"
                                        << "EUR" << 2;
        QTest::newRow("JPY") << "JPY"
                             << "JPY" << 0;
        QTest::newRow("KWD") << "KWD"
                             << "KWD" << 3;
        QTest::newRow("CLF") << "CLF"
                             << "CLF" << 4;
        QTest::newRow("UYW") << "UYW"
                             << "UYW" << 4;
        QTest::newRow("XOF (X code with minor units)") << "XOF"
                                                       << "XOF" << 0;
        QTest::newRow("XCG (2025)") << "XCG"
                                    << "XCG" << 2;
        QTest::newRow("ZWG (2024)") << "ZWG"
                                    << "ZWG" << 2;
        QTest::newRow("XYZ") << "XYZ"
                             << "" << 0;
        QTest::newRow("xyz lower case") << "xyz"
                                        << "" << 0;
        QTest::newRow("XAU gold") << "XAU"
                                  << "" << 0;
        QTest::newRow("XDR") << "XDR"
                             << "" << 0;
        QTest::newRow("XTS testing") << "XTS"
                                     << "" << 0;
        QTest::newRow("XXX no currency") << "XXX"
                                         << "" << 0;
        QTest::newRow("HRK withdrawn") << "HRK"
                                       << "" << 0;
        QTest::newRow("ZWL withdrawn") << "ZWL"
                                       << "" << 0;
        QTest::newRow("four letters") << "USDT"
                                      << "" << 0;
        QTest::newRow("digits") << "123"
                                << "" << 0;
    }

    void normalize()
    {
        QFETCH(QString, code);
        QFETCH(QString, expected);
        QFETCH(int, minorUnits);
        if (expected.isEmpty()) {
            try {
                rd::normalizeCurrency(code.toStdString(), "currency");
                QFAIL("accepted");
            } catch (const rd::InputError &e) {
                QCOMPARE(QString::fromStdString(e.field()), QStringLiteral("currency"));
                QVERIFY2(QString::fromUtf8(e.what()).contains("ISO 4217"), e.what());
            }
            QVERIFY(!rd::isIsoCurrency(code.toUpper().toStdString()));
            return;
        }
        QCOMPARE(QString::fromStdString(rd::normalizeCurrency(code.toStdString(), "currency")),
            expected);
        QVERIFY(rd::isIsoCurrency(expected.toStdString()));
        QCOMPARE(rd::currencyExponent(expected.toStdString()), minorUnits);
    }

    void unknownCurrencyMessage()
    {
        try {
            rd::normalizeCurrency("xyz", "data.object.currency");
            QFAIL("accepted");
        } catch (const rd::InputError &e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                QStringLiteral(
                    "data.object.currency: currency 'XYZ' is not an active ISO 4217 code"));
        }
    }

    // The generated table is what currency.cpp's binary search needs: sorted, unique codes of
    // three upper-case letters with 0..4 minor units.
    void tableIsWellFormed()
    {
        const auto table = rd::isoCurrencies();
        QVERIFY(table.size() > 150);
        for (std::size_t i = 0; i < table.size(); ++i) {
            const auto &c = table[i];
            QCOMPARE(c.code.size(), std::size_t(3));
            for (const char ch : c.code)
                QVERIFY(ch >= 'A' && ch <= 'Z');
            QVERIFY(c.minorUnits >= 0 && c.minorUnits <= 4);
            if (i > 0)
                QVERIFY(table[i - 1].code < c.code);
            QVERIFY(rd::isIsoCurrency(c.code));
        }
    }
};

QTEST_GUILESS_MAIN(TestCurrency)
#include "tst_currency.moc"
