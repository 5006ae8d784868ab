#include "ui/models/connectionsettings.h"

#include <QtTest>

/// Reading a conninfo the way libpq does, and remembering it without its password.
class TestUiConnectionSettings : public QObject
{
    Q_OBJECT

private slots:
    void conninfoParsing()
    {
        const QString given = u"host='/tmp/x y/socket' port=5433 dbname='renewal_desk' "
                              "user=postgres sslmode=require password=secret "
                              "application_name='it\\'s'"_qs;
        const auto s = rd::ui::ConnectionSettings::fromConninfo(given);
        QCOMPARE(s.host, u"/tmp/x y/socket"_qs);
        QCOMPARE(s.port, 5433);
        QCOMPARE(s.databaseName, u"renewal_desk"_qs);
        QCOMPARE(s.userName, u"postgres"_qs);
        QVERIFY(s.error.isEmpty());
        QVERIFY(s.options.contains(u"sslmode='require'"_qs));
        QVERIFY(s.options.contains(u"application_name='it\\'s'"_qs));
        QVERIFY(!s.options.contains(u"secret"_qs));
        // What the desk remembers: the same connection, never the password.
        const QString remembered = rd::ui::conninfoWithoutPassword(given);
        QVERIFY(!remembered.contains(u"secret"_qs));
        QVERIFY(!remembered.contains(u"password"_qs));
        const auto again = rd::ui::ConnectionSettings::fromConninfo(remembered);
        QCOMPARE(again.host, s.host);
        QCOMPARE(again.port, s.port);
        QCOMPARE(again.databaseName, s.databaseName);
        QCOMPARE(again.userName, s.userName);
        QCOMPARE(again.options, s.options);

        // A URI reads the same way (libpq's parser), and a broken string is named, not guessed.
        const QString uriGiven
            = u"postgresql://finance:secret@db.example.com:6432/renewals?sslmode=verify-full"_qs;
        const auto uri = rd::ui::ConnectionSettings::fromConninfo(uriGiven);
        QVERIFY2(uri.error.isEmpty(), qPrintable(uri.error));
        QCOMPARE(uri.host, u"db.example.com"_qs);
        QCOMPARE(uri.port, 6432);
        QCOMPARE(uri.databaseName, u"renewals"_qs);
        QCOMPARE(uri.userName, u"finance"_qs);
        QVERIFY(uri.options.contains(u"sslmode='verify-full'"_qs));
        QVERIFY(!rd::ui::conninfoWithoutPassword(uriGiven).contains(u"secret"_qs));
        // What the desk saves: nothing added, nothing but the password taken away. The embedded
        // database (an empty conninfo) must stay empty, or the next start would look for a
        // server on the default socket.
        QCOMPARE(rd::ui::conninfoWithoutPassword(QString()), QString());
        QCOMPARE(rd::ui::conninfoWithoutPassword(
                     u"host=/tmp/s dbname=rd password=secret sslmode=require"_qs),
            u"dbname='rd' host='/tmp/s' sslmode='require'"_qs);
        QCOMPARE(rd::ui::conninfoWithoutPassword(u"postgresql://u:secret@h/db"_qs),
            u"user='u' dbname='db' host='h'"_qs);
        const auto broken = rd::ui::ConnectionSettings::fromConninfo(u"host='unterminated"_qs);
        QVERIFY(!broken.error.isEmpty());
        QVERIFY2(broken.error.contains(u"quoted"_qs), qPrintable(broken.error));
    }
};

QTEST_MAIN(TestUiConnectionSettings)
#include "tst_ui_connectionsettings.moc"
