#include "ui/actions/actionresult.h"
#include "ui/actions/statementimport.h"
#include "ui/models/caseevidence.h"
#include "ui/models/chainbreaktext.h"
#include "ui/models/format.h"
#include "ui/widgets/connectiondialog.h"
#include "ui/widgets/translations.h"

#include "domain/core/case_next_step.h"
#include "domain/store/action_refused.h"
#include "domain/store/audit_verification.h"
#include "domain/store/database_backup.h"
#include "domain/store/statement_run.h"

#include <nlohmann/json.hpp>

#include <QDialogButtonBox>
#include <QDir>
#include <QLibraryInfo>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>

namespace {

/// Everything in a catalog that would show English (or a wrong text) on a translated desk,
/// one line each, naming the context and the source text so that whoever translates next
/// finds it: untranslated and unfinished messages, messages the sources no longer have, and
/// translations whose %1…%9 or %n placeholders differ from the source's.
QStringList catalogProblems(const QString &tsPath)
{
    QFile file(tsPath);
    if (!file.open(QIODevice::ReadOnly))
        return {u"cannot read %1"_qs.arg(tsPath)};
    QStringList problems;
    QXmlStreamReader xml(&file);
    QString context;
    QString source;
    QString type;
    QStringList forms;
    QString translation;
    static const QRegularExpression placeholder(u"%(?:[1-9]|n)"_qs);
    const auto placeholders = [](const QString &text) {
        QStringList found;
        for (auto it = placeholder.globalMatch(text); it.hasNext();)
            found << it.next().captured();
        found.sort();
        found.removeDuplicates();
        return found;
    };
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            const auto name = xml.name();
            if (name == u"name")
                context = xml.readElementText();
            else if (name == u"message") {
                forms.clear();
                translation.clear();
                source.clear();
                type.clear();
            } else if (name == u"source")
                source = xml.readElementText();
            else if (name == u"translation") {
                type = xml.attributes().value(u"type"_qs).toString();
                // A numerus translation holds <numerusform>s; a plain one only text.
                while (!(xml.isEndElement() && xml.name() == u"translation") && !xml.atEnd()) {
                    xml.readNext();
                    if (xml.isCharacters())
                        translation += xml.text();
                    else if (xml.isStartElement() && xml.name() == u"numerusform")
                        forms << xml.readElementText();
                }
            }
        } else if (xml.isEndElement() && xml.name() == u"message") {
            const QString where = u"[%1] \"%2\""_qs.arg(context, source);
            if (!forms.isEmpty())
                translation = forms.join(u'\n');
            const bool empty = forms.isEmpty() ? translation.trimmed().isEmpty()
                                               : std::any_of(forms.cbegin(), forms.cend(),
                                                   [](const QString &f) { return f.isEmpty(); });
            if (type == u"vanished" || type == u"obsolete")
                problems << u"no longer in the sources: "_qs + where;
            else if (type == u"unfinished" && empty)
                problems << u"untranslated: "_qs + where;
            else if (type == u"unfinished")
                problems << u"unfinished: "_qs + where;
            else if (empty)
                problems << u"empty translation: "_qs + where;
            else {
                const QStringList expected = placeholders(source);
                for (const QString &form : forms.isEmpty() ? QStringList {translation} : forms) {
                    if (placeholders(form) != expected) {
                        problems << u"placeholders differ (%1 in the source): %2"_qs.arg(
                            expected.join(u' '), where);
                        break;
                    }
                }
            }
        }
    }
    if (xml.hasError())
        problems << u"%1: %2 at line %3"_qs.arg(tsPath, xml.errorString()).arg(xml.lineNumber());
    return problems;
}

/// scripts/update-translations.sh on a copy of `ts` (what the sources have now, and what the
/// catalog has that they lost, kept as "vanished"): returns the updated copy's path.
QString updatedCopy(const QString &ts, const QTemporaryDir &dir, QString *error)
{
    const QString copy = dir.filePath(QFileInfo(ts).fileName());
    QFile::remove(copy);
    if (!QFile::copy(ts, copy)) {
        *error = u"cannot copy %1"_qs.arg(ts);
        return {};
    }
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    QProcess lupdate;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"LUPDATE"_qs, QStringLiteral(RD_LUPDATE));
    env.insert(u"KEEP_VANISHED"_qs, u"1"_qs);
    lupdate.setProcessEnvironment(env);
    lupdate.start(
        u"bash"_qs, {QStringLiteral(RD_SOURCE_DIR "/scripts/update-translations.sh"), copy});
    if (!lupdate.waitForFinished(300000) || lupdate.exitCode() != 0) {
        *error = u"update-translations.sh failed: "_qs
            + QString::fromLocal8Bit(lupdate.readAllStandardError());
        return {};
    }
    return copy;
}

QStringList checkedInCatalogs()
{
    const QDir dir(QStringLiteral(RD_SOURCE_DIR "/resources/translations"));
    QStringList paths;
    for (const QString &name : dir.entryList({u"renewal-desk_*.ts"_qs}, QDir::Files))
        paths << dir.filePath(name);
    return paths;
}

QString writeCatalog(const QTemporaryDir &dir, const QString &messages)
{
    const QString path = dir.filePath(u"renewal-desk_de.ts"_qs);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(u"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE TS>\n<TS version=\"2.1\" "
            "language=\"de\">\n<context>\n    <name>rd::ui::Sample</name>\n%1</context>\n</TS>\n"_qs
                .arg(messages)
                .toUtf8());
    return path;
}

} // namespace

/// The desk's translations: every string of ui/ and app/renewal-desk translated, and the
/// German catalog (with Qt's own) loaded on request.
class TestUiTranslations : public QObject
{
    Q_OBJECT

private slots:
    // The checker's own test: each kind of problem is found and named.
    void checkerNamesEachProblem_data()
    {
        QTest::addColumn<QString>("messages");
        QTest::addColumn<QString>("problem");
        QTest::newRow("translated")
            << u"<message><source>Case %1</source><translation>Fall %1</translation></message>"_qs
            << QString();
        QTest::newRow("numerus translated")
            << u"<message numerus=\"yes\"><source>%n case(s)</source><translation>"
               "<numerusform>%n Fall</numerusform><numerusform>%n Fälle</numerusform>"
               "</translation></message>"_qs
            << QString();
        QTest::newRow("new string")
            << u"<message><source>Refund</source><translation type=\"unfinished\">"
               "</translation></message>"_qs
            << u"untranslated: [rd::ui::Sample] \"Refund\""_qs;
        QTest::newRow("unfinished")
            << u"<message><source>Refund</source><translation type=\"unfinished\">Erstattung"
               "</translation></message>"_qs
            << u"unfinished: [rd::ui::Sample] \"Refund\""_qs;
        QTest::newRow("vanished")
            << u"<message><source>Gone</source><translation type=\"vanished\">Weg"
               "</translation></message>"_qs
            << u"no longer in the sources: [rd::ui::Sample] \"Gone\""_qs;
        QTest::newRow("obsolete")
            << u"<message><source>Gone</source><translation type=\"obsolete\">Weg"
               "</translation></message>"_qs
            << u"no longer in the sources: [rd::ui::Sample] \"Gone\""_qs;
        QTest::newRow("placeholder lost")
            << u"<message><source>Case %1 of %2</source><translation>Fall %1"
               "</translation></message>"_qs
            << u"placeholders differ (%1 %2 in the source): [rd::ui::Sample] \"Case %1 of %2\""_qs;
        QTest::newRow("numerus form empty")
            << u"<message numerus=\"yes\"><source>%n case(s)</source><translation>"
               "<numerusform>%n Fall</numerusform><numerusform></numerusform>"
               "</translation></message>"_qs
            << u"empty translation: [rd::ui::Sample] \"%n case(s)\""_qs;
        QTest::newRow("numerus form without %n")
            << u"<message numerus=\"yes\"><source>%n case(s)</source><translation>"
               "<numerusform>ein Fall</numerusform><numerusform>%n Fälle</numerusform>"
               "</translation></message>"_qs
            << u"placeholders differ (%n in the source): [rd::ui::Sample] \"%n case(s)\""_qs;
    }

    void checkerNamesEachProblem()
    {
        QFETCH(QString, messages);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        const QStringList problems = catalogProblems(writeCatalog(dir, messages));
        QCOMPARE(problems, problem.isEmpty() ? QStringList() : QStringList {problem});
    }

    // ... and through lupdate: a string the catalog lacks is found in the sources and named.
    void aStringMissingFromTheCatalogIsNamed()
    {
        const QStringList catalogs = checkedInCatalogs();
        QVERIFY(!catalogs.isEmpty());
        QFile f(catalogs.first());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(f.readAll());
        // Drop the main window's "Overview" (its context is the class, as moc names it).
        const qsizetype context = text.indexOf(u"<name>rd::ui::MainWindow</name>"_qs);
        QVERIFY(context >= 0);
        const qsizetype source = text.indexOf(u"<source>Overview</source>"_qs, context);
        QVERIFY(source > 0);
        const qsizetype begin = text.lastIndexOf(u"<message>"_qs, source);
        const qsizetype end = text.indexOf(u"</message>"_qs, source) + 10;
        text.remove(begin, end - begin);
        QTemporaryDir dir;
        const QString stripped = dir.filePath(u"in/"_qs + QFileInfo(catalogs.first()).fileName());
        QVERIFY(QDir().mkpath(dir.filePath(u"in"_qs)));
        QFile out(stripped);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(text.toUtf8());
        out.close();
        QVERIFY(!catalogProblems(stripped).contains(
            u"untranslated: [rd::ui::MainWindow] \"Overview\""_qs));
        QString error;
        const QString updated = updatedCopy(stripped, dir, &error);
        QVERIFY2(!updated.isEmpty(), qPrintable(error));
        QCOMPARE(catalogProblems(updated),
            QStringList {u"untranslated: [rd::ui::MainWindow] \"Overview\""_qs});
    }

    // The test that fails on any string of the desk left in English. After editing strings:
    // scripts/update-translations.sh, then translate what this test names.
    void everyStringIsTranslated_data()
    {
        QTest::addColumn<QString>("ts");
        for (const QString &ts : checkedInCatalogs())
            QTest::newRow(qPrintable(QFileInfo(ts).fileName())) << ts;
    }

    void everyStringIsTranslated()
    {
        QFETCH(QString, ts);
        QTemporaryDir dir;
        QString error;
        const QString updated = updatedCopy(ts, dir, &error);
        QVERIFY2(!updated.isEmpty(), qPrintable(error));
        const QStringList problems = catalogProblems(updated);
        QVERIFY2(problems.isEmpty(),
            qPrintable(u"%1 of the desk's strings need work in %2 (run "
                       "scripts/update-translations.sh, then translate):\n"_qs.arg(problems.size())
                           .arg(QFileInfo(ts).fileName())
                + problems.join(u'\n')));
    }

    // The desk's import report (statementImportText) is the CLI's (describeStatementImport)
    // word for word in English, whatever the run said: kept, dry, repeated, each kind of
    // completeness, unreadable objects, closed months, open cases or none.
    static QList<rd::StatementImportResult> importResults()
    {
        const nlohmann::json base = {{"runId", 7}, {"providerKey", "stripe-main"},
            {"from", "2026-02-01"}, {"to", "2026-02-28"},
            {"files", nlohmann::json::array({{{"name", "p.json"}}, {{"name", "q.json"}}})},
            {"objects", 12}, {"renewals", 9}, {"matched", 5}, {"backfilled", 2}, {"unapplied", 1},
            {"differing", 1}, {"notInStatement", 3}, {"importedBy", "alice"},
            {"statementTotals",
                {{"USD", {{"renewals", 8}, {"amountMinor", 15992}}},
                    {"JPY", {{"renewals", 1}, {"amountMinor", 1500}}}}},
            {"ledgerTotals", {{"USD", {{"renewals", 9}, {"amountMinor", 17991}}}}}};
        QList<rd::StatementImportResult> results;
        for (const char *completeness : {"fetched", "manifest", "stated", "unproven", ""}) {
            rd::StatementImportResult r;
            r.summary = base;
            if (*completeness)
                r.summary["completeness"] = completeness;
            results << r;
        }
        rd::StatementImportResult repeated;
        repeated.summary = base;
        repeated.summary["repeats"]
            = {{"runId", 3}, {"importedBy", "bob"}, {"finishedAt", "2026-03-02T10:00:00Z"}};
        repeated.summary["unreadable"] = 2;
        repeated.summary["statementTotals"] = nlohmann::json::object();
        repeated.summary["closedMonths"] = nlohmann::json::array(
            {{{"month", "2026-02"}, {"closedBy", "carol"}, {"closedAt", "2026-03-03T09:00:00Z"}}});
        repeated.summary["backfilledAfterClose"] = 2;
        // Money back (#40): every list here, and (below) not all.
        results[0].summary["moneyBack"] = {{"listed", true}, {"lines", 4}, {"matched", 1},
            {"backfilled", 2}, {"unapplied", 0}, {"differing", 1}, {"notInStatement", 1},
            {"statementTotals",
                {{"USD", {{"refundedMinor", 800}, {"disputedMinor", 1000}}},
                    {"JPY", {{"refundedMinor", 150}, {"disputedMinor", 0}}}}},
            {"ledgerTotals", nlohmann::json::object()}};
        repeated.summary["moneyBack"] = results[0].summary["moneyBack"];
        repeated.summary["moneyBack"]["listed"] = false;
        repeated.alreadyImported = true;
        repeated.dryRun = true;
        repeated.openFindings = nlohmann::json::array({{{"finding", "unreadable"},
            {"providerRenewalKey", "in_odd"}, {"caseId", 41},
            {"errorCode", "statement_object_unreadable"}, {"providerSubscriptionId", "unknown"}}});
        results << repeated;
        return results;
    }

    // English is the source text: nothing is loaded, and nothing is translated.
    void englishLoadsNothing()
    {
        QCOMPARE(rd::ui::installTranslations(*QCoreApplication::instance(), u"en"_qs), QString());
        rd::ui::ConnectionDialog dialog(QString {});
        QCOMPARE(dialog.windowTitle(), u"Connect to a database"_qs);
        QCOMPARE(rd::ui::format::money(123456, u"EUR"_qs), u"€1,234.56"_qs);
        // The codes the database stores stay as stored: "open", "webhook".
        QCOMPARE(rd::ui::format::storedWord(u"webhook"_qs), u"webhook"_qs);
        // A refusal is the database's own sentence, with its particulars.
        QCOMPARE(rd::ui::refusalText(u"case_already_closed"_qs, u"case 7 was resolved"_qs),
            u"case 7 was resolved"_qs);
        for (const auto &r : importResults())
            QCOMPARE(rd::ui::statementImportText(r),
                QString::fromStdString(rd::describeStatementImport(r)));
    }

    // --lang de: the desk's words, Qt's buttons, and the amounts in German.
    void germanLoads()
    {
        QVERIFY(rd::ui::deskLanguages().contains(u"de"_qs));
        QCOMPARE(rd::ui::installTranslations(*QCoreApplication::instance(), u"de"_qs), u"de"_qs);
        rd::ui::ConnectionDialog dialog(QString {});
        QCOMPARE(dialog.windowTitle(), u"Mit einer Datenbank verbinden"_qs);
        QVERIFY(QFile::exists(
            QLibraryInfo::path(QLibraryInfo::TranslationsPath) + u"/qtbase_de.qm"_qs));
        QDialogButtonBox buttons(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        QCOMPARE(buttons.button(QDialogButtonBox::Cancel)->text(), u"Abbrechen"_qs);
        QCOMPARE(rd::ui::format::money(123456, u"EUR"_qs), u"1.234,56\u00a0€"_qs);
        // The stored codes and the core's next steps in German too, not as the database or
        // the CLI says them.
        QCOMPARE(rd::ui::format::storedWord(u"open"_qs), u"Offen"_qs);
        QCOMPARE(rd::ui::format::storedWord(u"past_due"_qs), u"Zahlung überfällig"_qs);
        QVERIFY(rd::ui::buildCaseEvidence(u"needs_snapshot"_qs, u"{}"_qs, u"{}"_qs)
                    .nextStep.startsWith(u"Schlagen Sie"_qs));
        // Every reason a case can have, in German words (the Reason column, the filter).
        for (const auto code : rd::caseReasonCodes()) {
            const QString stored = QString::fromUtf8(code.data(), qsizetype(code.size()));
            QString english = stored;
            english.replace(u'_', u' ');
            english[0] = english[0].toUpper();
            QVERIFY2(rd::ui::format::humanize(stored) != english, qPrintable(english));
        }
        // Every refusal the database raises: the desk's sentence in German first, the
        // database's particulars after it; a code the desk does not know shows as it came.
        int refusals = 0;
        for (int n = 1; n < 100; ++n) {
            const auto refusal
                = rd::refusalFromSqlstate(u"RD%1"_qs.arg(n, 3, 10, QLatin1Char('0')).toStdString());
            if (!refusal)
                break;
            ++refusals;
            const QString code = QString::fromUtf8(
                rd::toString(*refusal).data(), qsizetype(rd::toString(*refusal).size()));
            const QString text = rd::ui::refusalText(code, u"case 7 was already resolved"_qs);
            QVERIFY2(!rd::ui::refusalHeadline(code).isEmpty(), qPrintable(code));
            QVERIFY2(text.endsWith(u" (case 7 was already resolved)"_qs)
                    && text.size() > u" (case 7 was already resolved)"_qs.size(),
                qPrintable(code + u": "_qs + text));
        }
        QCOMPARE(refusals, 24);
        QCOMPARE(rd::ui::refusalText(u"no_such_refusal"_qs, u"as it came"_qs), u"as it came"_qs);
        QCOMPARE(rd::ui::refusalText(u"case_already_closed"_qs, u"case 7 was resolved"_qs),
            u"Der Fall ist bereits abgeschlossen. (case 7 was resolved)"_qs);
        // An audit chain's break and a restored schema's rule in German: every problem the
        // store names (tst_auditverify holds the English to the CLI's on real breaks), the
        // database's sentences with their figures carried over.
        const std::vector<std::string> problems {std::string(rd::chain_problem::kAltered),
            std::string(rd::chain_problem::kRowsBeforeMissing),
            std::string(rd::chain_problem::kPreviousHash),
            std::string(rd::chain_problem::kRowBeforeMissing),
            std::string(rd::chain_problem::kAnchoredRowGone),
            std::string(rd::chain_problem::kAnchoredRowRewritten),
            "billing period of renewal in_1 has no audit row recording it (added, or its record "
            "removed)",
            "billing period of renewal in_1 holds 1000 USD for 2026-01-01T00:00:00Z to "
            "2026-02-01T00:00:00Z, its audit row recorded 900 USD for 2026-01-01T00:00:00Z to "
            "2026-02-01T00:00:00Z (altered)"};
        for (const auto &problem : problems) {
            const rd::ChainBreak b {
                "subscription_transition_audits", "1f2e", 12, 3, problem, "stripe-main", "sub_1"};
            const QString text = rd::ui::chainBreakText(b);
            QVERIFY2(text.startsWith(u"Abonnement stripe-main sub_1 (Kette 1f2e), Prüfzeile 12 an "
                                     "Position 3: "_qs),
                qPrintable(text));
            QVERIFY2(!text.contains(QString::fromStdString(problem)), qPrintable(text));
        }
        QCOMPARE(rd::ui::chainBreakText(
                     {"reconciliation_case_history", "7", 0, 2, problems.back(), "", ""}),
            u"Fall 7, Position 2: der Abrechnungszeitraum der Verlängerung in_1 enthält 1000 USD "
            "für 2026-01-01T00:00:00Z bis 2026-02-01T00:00:00Z, seine Prüfzeile hielt 900 USD "
            "für 2026-01-01T00:00:00Z bis 2026-02-01T00:00:00Z fest (verändert)"_qs);
        QCOMPARE(rd::ui::chainBreakText(
                     {"reconciliation_case_history", "7", 0, 2, "a problem of tomorrow", "", ""}),
            u"Fall 7, Position 2: a problem of tomorrow"_qs);
        QCOMPARE(rd::ui::schemaRuleDifferenceText(
                     {"privileges of function rd_x(text)", "renewal_viewer=X", ""}),
            u"privileges of function rd_x(text): nur in der wiederhergestellten Datenbank "
            "(„renewal_viewer=X“)"_qs);

        // The import report in German, its amounts as the CLI writes them.
        const QString report = rd::ui::statementImportText(importResults().last());
        // A dry run takes no run number (#42): a kept run names its own.
        const QString kept = rd::ui::statementImportText(importResults().first());
        QVERIFY2(kept.contains(u"Abrechnungslauf 7"_qs), qPrintable(kept));
        QVERIFY2(report.contains(u"Vorschau, zurückgerollt"_qs), qPrintable(report));
        QVERIFY2(report.contains(u"9 × USD 179.91"_qs), qPrintable(report));
        QVERIFY2(!report.contains(u"renewals in the statement"_qs), qPrintable(report));
    }
};

QTEST_MAIN(TestUiTranslations)
#include "tst_ui_translations.moc"
