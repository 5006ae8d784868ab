#include "tests/support/test_database.h"
#include "ui/models/connectionsettings.h"
#include "ui/widgets/connectiondialog.h"
#include "ui/widgets/mainwindow.h"

#include <libpq-fe.h>

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

#include <memory>

namespace {

using Settings = QMap<QString, QString>;

/// libpq's own reading of a conninfo: the judge of the quoting, not our parser.
Settings libpqReads(const QString &conninfo)
{
    char *error = nullptr;
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> options(
        PQconninfoParse(conninfo.toUtf8().constData(), &error), &PQconninfoFree);
    if (!options) {
        const QString message = QString::fromUtf8(error ? error : "?");
        PQfreemem(error);
        qWarning("libpq refused %s: %s", qPrintable(conninfo), qPrintable(message));
        return {{u"<error>"_qs, message}};
    }
    Settings settings;
    for (const PQconninfoOption *o = options.get(); o->keyword; ++o) {
        if (o->val)
            settings.insert(QString::fromUtf8(o->keyword), QString::fromUtf8(o->val));
    }
    return settings;
}

template<typename T>
T *field(const rd::ui::ConnectionDialog &dialog, const char *name)
{
    auto *w = dialog.findChild<T *>(QString::fromLatin1(name));
    if (!w)
        qFatal("no field %s", name);
    return w;
}

} // namespace

/// The connection dialog writes conninfo strings that libpq reads back as the fields typed, and
/// reads an existing conninfo back into its fields; a connection string (a URI) typed in fills
/// them; File › Connect shows the connection as it is; Test connection tries the test run's
/// real server.
class TestUiConnectionDialog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void fieldsToConninfo_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port"); // 0: not given
        QTest::addColumn<QString>("dbname");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("sslmode");
        QTest::addColumn<QString>("conninfo");

        QTest::newRow("plain") << u"db.example.com"_qs << 5432 << u"renewal_desk"_qs << u"alice"_qs
                               << u"require"_qs
                               << u"host='db.example.com' port=5432 dbname='renewal_desk' "
                                  "user='alice' sslmode='require'"_qs;
        QTest::newRow("socket directory with a space")
            << u"/tmp/x y/socket"_qs << 0 << u"my db"_qs << u"bob"_qs << u"prefer"_qs
            << u"host='/tmp/x y/socket' dbname='my db' user='bob' sslmode='prefer'"_qs;
        QTest::newRow("single quote")
            << QString() << 0 << u"rd"_qs << u"o'brien"_qs << u"disable"_qs
            << u"dbname='rd' user='o\\'brien' sslmode='disable'"_qs;
        QTest::newRow("backslash") << QString() << 0 << u"a\\b"_qs << QString() << u"allow"_qs
                                   << u"dbname='a\\\\b' sslmode='allow'"_qs;
        QTest::newRow("backslash before a quote, at the end")
            << QString() << 0 << u"x\\'"_qs << QString() << u"verify-ca"_qs
            << u"dbname='x\\\\\\'' sslmode='verify-ca'"_qs;
        QTest::newRow("equals sign and spaces")
            << u"h"_qs << 6543 << u"a = b"_qs << u" padded "_qs << u"verify-full"_qs
            << u"host='h' port=6543 dbname='a = b' user='padded' sslmode='verify-full'"_qs;
        QTest::newRow("nothing but the TLS mode")
            << QString() << 0 << QString() << QString() << u"prefer"_qs << u"sslmode='prefer'"_qs;
    }

    void fieldsToConninfo()
    {
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, dbname);
        QFETCH(QString, user);
        QFETCH(QString, sslmode);
        QFETCH(QString, conninfo);

        rd::ui::ConnectionDialog dialog(u"dbname=placeholder"_qs);
        QVERIFY(!field<QCheckBox>(dialog, "embedded")->isChecked());
        field<QLineEdit>(dialog, "host")->setText(host);
        field<QSpinBox>(dialog, "port")->setValue(port);
        field<QLineEdit>(dialog, "dbname")->setText(dbname);
        field<QLineEdit>(dialog, "user")->setText(user);
        auto *mode = field<QComboBox>(dialog, "sslmode");
        QVERIFY(mode->findText(sslmode) >= 0);
        mode->setCurrentText(sslmode);
        QCOMPARE(dialog.conninfo(), conninfo);

        // libpq reads back exactly what was typed (surrounding spaces trimmed).
        Settings expected;
        if (!host.trimmed().isEmpty())
            expected.insert(u"host"_qs, host.trimmed());
        if (port > 0)
            expected.insert(u"port"_qs, QString::number(port));
        if (!dbname.trimmed().isEmpty())
            expected.insert(u"dbname"_qs, dbname.trimmed());
        if (!user.trimmed().isEmpty())
            expected.insert(u"user"_qs, user.trimmed());
        expected.insert(u"sslmode"_qs, sslmode);
        QCOMPARE(libpqReads(dialog.conninfo()), expected);

        // The desk's own connection settings (the QPSQL side) agree with libpq.
        const auto s = rd::ui::ConnectionSettings::fromConninfo(dialog.conninfo());
        QCOMPARE(s.host, expected.value(u"host"_qs));
        QCOMPARE(s.port, port > 0 ? port : -1);
        QCOMPARE(s.databaseName, expected.value(u"dbname"_qs));
        QCOMPARE(s.userName, expected.value(u"user"_qs));
        QVERIFY2(s.options.contains(u"sslmode='"_qs + sslmode + u'\''), qPrintable(s.options));
    }

    void sslModesAreLibpqs()
    {
        QCOMPARE(rd::ui::ConnectionDialog::sslModes().first(), u"prefer"_qs); // libpq's default
        QStringList modes = rd::ui::ConnectionDialog::sslModes();
        modes.sort();
        QCOMPARE(modes,
            (QStringList {u"allow"_qs, u"disable"_qs, u"prefer"_qs, u"require"_qs, u"verify-ca"_qs,
                u"verify-full"_qs}));
    }

    void embeddedIsEmpty()
    {
        rd::ui::ConnectionDialog fresh(QString {});
        QVERIFY(field<QCheckBox>(fresh, "embedded")->isChecked());
        QVERIFY(!field<QLineEdit>(fresh, "host")->isEnabled());
        QCOMPARE(fresh.conninfo(), QString());

        rd::ui::ConnectionDialog server(u"host=db dbname=rd"_qs);
        field<QCheckBox>(server, "embedded")->setChecked(true);
        QCOMPARE(server.conninfo(), QString());
        field<QCheckBox>(server, "embedded")->setChecked(false);
        QCOMPARE(server.conninfo(), u"host='db' dbname='rd' sslmode='prefer'"_qs);
    }

    void currentRoundTrips_data()
    {
        QTest::addColumn<QString>("current");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("dbname");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("sslmode");

        QTest::newRow("key=value")
            << u"host=/tmp/s port=5433 dbname=rd user=bob sslmode=verify-full"_qs << u"/tmp/s"_qs
            << 5433 << u"rd"_qs << u"bob"_qs << u"verify-full"_qs;
        QTest::newRow("quoted, escaped")
            << u"host = 'a host' dbname='my \\'db\\'' user=back\\\\slash"_qs << u"a host"_qs << 0
            << u"my 'db'"_qs << u"back\\slash"_qs << u"prefer"_qs;
        QTest::newRow("URI") << u"postgresql://bob@db.example.com:5433/renewal?sslmode=require"_qs
                             << u"db.example.com"_qs << 5433 << u"renewal"_qs << u"bob"_qs
                             << u"require"_qs;
        QTest::newRow("URI with a socket directory")
            << u"postgresql:///rd?host=%2Ftmp%2Frd%20sock&sslmode=disable"_qs << u"/tmp/rd sock"_qs
            << 0 << u"rd"_qs << QString() << u"disable"_qs;
        QTest::newRow("password dropped, other settings kept")
            << u"host=h password=secret application_name='renewal desk' sslrootcert=/etc/ca.pem "
               "connect_timeout=5"_qs
            << u"h"_qs << 0 << QString() << QString() << u"prefer"_qs;
    }

    void currentRoundTrips()
    {
        QFETCH(QString, current);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, dbname);
        QFETCH(QString, user);
        QFETCH(QString, sslmode);

        rd::ui::ConnectionDialog dialog(current);
        QVERIFY(!field<QCheckBox>(dialog, "embedded")->isChecked());
        QCOMPARE(field<QLineEdit>(dialog, "host")->text(), host);
        QCOMPARE(field<QSpinBox>(dialog, "port")->value(), port);
        QCOMPARE(field<QLineEdit>(dialog, "dbname")->text(), dbname);
        QCOMPARE(field<QLineEdit>(dialog, "user")->text(), user);
        QCOMPARE(field<QComboBox>(dialog, "sslmode")->currentText(), sslmode);

        // OK without touching anything: the same connection, less the password, with the
        // TLS mode stated.
        Settings expected = libpqReads(current);
        expected.remove(u"password"_qs);
        expected.insert(u"sslmode"_qs, sslmode);
        const QString written = dialog.conninfo();
        QVERIFY2(!written.contains(u"secret"_qs), qPrintable(written));
        QCOMPARE(libpqReads(written), expected);
        // And once more through the dialog: nothing drifts.
        QCOMPARE(rd::ui::ConnectionDialog(written).conninfo(), written);
    }

    void unreadableCurrentIsSaid()
    {
        rd::ui::ConnectionDialog dialog(u"host='unterminated"_qs);
        bool said = false;
        for (auto *label : dialog.findChildren<QLabel *>())
            said |= label->text().contains(u"could not be read"_qs);
        QVERIFY(said);
    }

    /// #13 item 12: a connection string typed (or pasted) in its field fills the others as
    /// libpq reads it; one libpq cannot read is said at once, and OK waits for a readable one.
    void connectionStringFillsTheFields_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("dbname");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("sslmode");
        QTest::addColumn<QString>("conninfo"); // empty: unreadable

        QTest::newRow("URI") << u"postgresql://alice@db.example.com:5433/renewal?sslmode=require"_qs
                             << u"db.example.com"_qs << 5433 << u"renewal"_qs << u"alice"_qs
                             << u"require"_qs
                             << u"host='db.example.com' port=5433 dbname='renewal' user='alice' "
                                "sslmode='require'"_qs;
        QTest::newRow("postgres:// scheme, no port")
            << u"postgres://db/rd"_qs << u"db"_qs << 0 << u"rd"_qs << QString() << u"prefer"_qs
            << u"host='db' dbname='rd' sslmode='prefer'"_qs;
        QTest::newRow("URI with a socket directory and an encoded space")
            << u"postgresql:///my%20db?host=/tmp/sock"_qs << u"/tmp/sock"_qs << 0 << u"my db"_qs
            << QString() << u"prefer"_qs << u"host='/tmp/sock' dbname='my db' sslmode='prefer'"_qs;
        QTest::newRow("URI password dropped, other settings kept")
            << u"postgresql://bob:secret@h/d?application_name=desk"_qs << u"h"_qs << 0 << u"d"_qs
            << u"bob"_qs << u"prefer"_qs
            << u"host='h' dbname='d' user='bob' sslmode='prefer' application_name='desk'"_qs;
        QTest::newRow("key=value pairs")
            << u"host=h port=6543 dbname=rd sslmode=disable"_qs << u"h"_qs << 6543 << u"rd"_qs
            << QString() << u"disable"_qs << u"host='h' port=6543 dbname='rd' sslmode='disable'"_qs;
        QTest::newRow("unknown URI parameter")
            << u"postgresql://h/d?nonsense=1"_qs << u"old"_qs << 0 << u"olddb"_qs << QString()
            << u"prefer"_qs << QString();
        QTest::newRow("unterminated IPv6 host")
            << u"postgresql://[::1/d"_qs << u"old"_qs << 0 << u"olddb"_qs << QString()
            << u"prefer"_qs << QString();
    }

    void connectionStringFillsTheFields()
    {
        QFETCH(QString, typed);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, dbname);
        QFETCH(QString, user);
        QFETCH(QString, sslmode);
        QFETCH(QString, conninfo);

        rd::ui::ConnectionDialog dialog(u"host=old dbname=olddb"_qs);
        dialog.show();
        auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
        // Pasted, as a connection string usually arrives (typing goes through its readable
        // prefixes).
        QGuiApplication::clipboard()->setText(typed);
        field<QLineEdit>(dialog, "connection-string")->paste();
        QCOMPARE(field<QLineEdit>(dialog, "connection-string")->text(), typed);
        QCOMPARE(field<QLineEdit>(dialog, "host")->text(), host);
        QCOMPARE(field<QSpinBox>(dialog, "port")->value(), port);
        QCOMPARE(field<QLineEdit>(dialog, "dbname")->text(), dbname);
        QCOMPARE(field<QLineEdit>(dialog, "user")->text(), user);
        QCOMPARE(field<QComboBox>(dialog, "sslmode")->currentText(), sslmode);
        const QString result = field<QLabel>(dialog, "test-result")->text();
        if (conninfo.isEmpty()) {
            QVERIFY(!ok->isEnabled());
            QVERIFY2(result.contains(u"cannot be read"_qs), qPrintable(result));
        } else {
            QVERIFY(ok->isEnabled());
            QCOMPARE(dialog.conninfo(), conninfo);
            QVERIFY2(!dialog.conninfo().contains(u"secret"_qs), qPrintable(dialog.conninfo()));
            if (typed.contains(u"secret"_qs))
                QVERIFY2(result.contains(u"password"_qs), qPrintable(result));
        }
        // Switching to the embedded database needs nothing readable.
        field<QCheckBox>(dialog, "embedded")->setChecked(true);
        QVERIFY(ok->isEnabled());
        QCOMPARE(dialog.conninfo(), QString());
    }

    /// #13 item 12: File › Connect on the embedded cluster shows "embedded" checked, not its
    /// socket directory as a host; on a server, that server.
    void connectShowsTheConnectionAsItIs_data()
    {
        QTest::addColumn<bool>("onEmbedded");
        QTest::newRow("embedded cluster") << true;
        QTest::newRow("a server") << false;
    }

    void connectShowsTheConnectionAsItIs()
    {
        QFETCH(bool, onEmbedded);
        // The test run's cluster listens on a socket directory, as the embedded one does.
        rdtest::TestDatabase db("ui_connectiondialog");
        const QString conninfo = QString::fromStdString(db.conninfo());
        const QString socketDir = rd::ui::ConnectionSettings::fromConninfo(conninfo).host;
        QVERIFY(socketDir.startsWith(u'/'));
        rd::ui::MainWindow window(conninfo, u"test"_qs);
        window.setOnEmbeddedDatabase(onEmbedded);
        const auto dialog = window.makeConnectionDialog();
        QCOMPARE(field<QCheckBox>(*dialog, "embedded")->isChecked(), onEmbedded);
        QCOMPARE(field<QLineEdit>(*dialog, "host")->isEnabled(), !onEmbedded);
        QCOMPARE(field<QLineEdit>(*dialog, "host")->text(), onEmbedded ? QString() : socketDir);
        QCOMPARE(field<QPushButton>(*dialog, "test-connection")->isEnabled(), !onEmbedded);
        QCOMPARE(dialog->conninfo().isEmpty(), onEmbedded);
    }

    /// #13 item 12: Test connection tries the connection off the GUI thread (the dialog keeps
    /// answering) and says what came of it: the server's version, or libpq's reason.
    void testConnection_data()
    {
        QTest::addColumn<QString>("change"); // appended to the test run's cluster conninfo
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("said");

        QTest::newRow("the test run's server") << QString() << true << u"Connected: PostgreSQL"_qs;
        QTest::newRow("no such database") << u" dbname=rd_no_such_database"_qs << false
                                          << u"rd_no_such_database\" does not exist"_qs;
        QTest::newRow("no server at that socket")
            << u" host=/nonexistent/rd-socket"_qs << false << u"Could not connect: "_qs;
    }

    void testConnection()
    {
        QFETCH(QString, change);
        QFETCH(bool, ok);
        QFETCH(QString, said);

        rd::ui::ConnectionDialog dialog(QString::fromStdString(rdtest::clusterConninfo()) + change);
        dialog.show();
        QSignalSpy tested(&dialog, &rd::ui::ConnectionDialog::connectionTested);
        auto *button = field<QPushButton>(dialog, "test-connection");
        QVERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(!button->isEnabled()); // while it tries
        QVERIFY(tested.wait(20000));
        QCOMPARE(tested.first().first().toBool(), ok);
        QVERIFY(button->isEnabled());
        const QString result = field<QLabel>(dialog, "test-result")->text();
        QVERIFY2(result.contains(said), qPrintable(result));
        if (ok)
            QVERIFY2(result.contains(u"database postgres"_qs), qPrintable(result));
    }

    /// The dialog is wide enough for its hints: the connection string's and the host's
    /// placeholders show whole, the notes read in a few lines rather than a narrow column.
    void hintsShowWhole()
    {
        rd::ui::ConnectionDialog dialog(
            u"host=db.example.com dbname=renewals sslrootcert=/etc/ca.pem"_qs);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        for (const char *name : {"connection-string", "host"}) {
            auto *edit = field<QLineEdit>(dialog, name);
            QVERIFY(edit);
            const int text = edit->fontMetrics().horizontalAdvance(edit->placeholderText());
            QVERIFY2(edit->width() >= text + 8,
                qPrintable(QString(u"%1: %2 px for a hint of %3 px"_qs)
                               .arg(QString::fromUtf8(name))
                               .arg(edit->width())
                               .arg(text)));
        }
        auto *note = dialog.findChild<QLabel *>(u"connection-note"_qs);
        QVERIFY(note);
        const int lines = note->height() / note->fontMetrics().lineSpacing();
        QVERIFY2(lines <= 4, qPrintable(QString(u"%1 lines"_qs).arg(lines)));
    }
};

QTEST_MAIN(TestUiConnectionDialog)
#include "tst_ui_connectiondialog.moc"
