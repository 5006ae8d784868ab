#include "ui/actions/monthclose.h"

#include "ui/actions/jsonfields.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"

#include "domain/core/close_report.h"
#include "domain/store/month_close.h"
#include "domain/store/operator_session.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QFile>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace rd::ui {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(rd::ui::MonthClose)
};

} // namespace
namespace {

QString monthText(const QDate &month)
{
    return QDate(month.year(), month.month(), 1).toString(Qt::ISODate);
}

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

/// "2026-03-02T10:15:00Z" as "2026-03-02 10:15 UTC": the report is read on paper, where a
/// reader's time zone is unknown.
QString utcText(const QString &rfc3339)
{
    const QDateTime t = format::instant(rfc3339);
    return t.isValid() ? t.toUTC().toString(u"yyyy-MM-dd HH:mm:ss 'UTC'"_qs) : rfc3339;
}

/// The array's values, escaped for HTML, joined by `separator` (HTML itself).
/// How each run knew it had every page (month_close_report's statementCompleteness, #39),
/// one line a run.
QString completenessText(const nlohmann::json &report)
{
    QStringList lines;
    const auto runs = report.find("statementCompleteness");
    if (runs == report.end() || !runs->is_array())
        return {};
    for (const auto &r : *runs) {
        const QString how = jsonText(r, "completeness");
        const QString what = how == u"fetched"_qs ? Tr::tr("every page fetched from the API")
            : how == u"manifest"_qs ? Tr::tr("every page checked against the fetch's manifest")
            : how == u"stated"_qs   ? Tr::tr("stated complete by the operator (--pages-complete)")
                                    : Tr::tr("imported before completeness was recorded");
        lines << Tr::tr("run #%1: %2").arg(jsonInteger(r, "runId")).arg(what);
    }
    return lines.join(u"<br>"_qs);
}

QString joined(const nlohmann::json &array, const QString &separator)
{
    QStringList out;
    if (array.is_array())
        for (const auto &v : array)
            out << esc(QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump()));
    return out.join(separator);
}

} // namespace

QStringList loadProviderKeys(QSqlDatabase &db)
{
    QSqlQuery q = execSql(db, u"SELECT provider_key FROM public.billing_providers ORDER BY 1"_qs);
    QStringList keys;
    while (q.next())
        keys << q.value(0).toString();
    return keys;
}

QString monthCloseRefusalText(const nlohmann::json &reason)
{
    if (!reason.is_object())
        return {};
    const QString code = jsonText(reason, "code");
    const auto ids = [&](const char *key) {
        QStringList list;
        if (const auto a = reason.find(key); a != reason.end() && a->is_array())
            for (const auto &id : *a)
                list << QString::number(id.is_number_integer() ? id.get<qint64>() : 0);
        return list;
    };
    // The database's sentences (month_close_refusal), one a reason, for lupdate.
    if (code == u"not_first_day")
        return Tr::tr("%1 is not the first day of a month")
            .arg(reason.value("day", nlohmann::json()).is_null() ? u"NULL"_qs
                                                                 : jsonText(reason, "day"));
    if (code == u"provider_not_registered")
        return Tr::tr("provider %1 is not registered").arg(jsonText(reason, "provider"));
    if (code == u"closed_already")
        return Tr::tr("%1 %2 was closed already, by %3 at %4")
            .arg(jsonText(reason, "provider"), jsonText(reason, "month"),
                jsonText(reason, "closedBy"), jsonText(reason, "closedAt"));
    if (code == u"not_ended")
        return Tr::tr("%1 has not ended yet (it ends at %2)")
            .arg(jsonText(reason, "month"), jsonText(reason, "endsAt"));
    if (code == u"no_covering_run") {
        // With a run of part of the month, what differs from what was imported (#42, 4).
        if (reason.contains("latestRun"))
            return Tr::tr("no statement run of %1 covers all of %2: run %3 covers only %4 to %5; "
                          "closing %2 needs one covering %6 to %7 (import the statement again "
                          "with those days)")
                .arg(jsonText(reason, "provider"), jsonText(reason, "month"),
                    jsonText(reason, "latestRun"), jsonText(reason, "latestFrom"),
                    jsonText(reason, "latestTo"), jsonText(reason, "from"), jsonText(reason, "to"));
        return Tr::tr("no statement run of %1 covers all of %2 (%3 to %4); import a statement "
                      "of the whole month first")
            .arg(jsonText(reason, "provider"), jsonText(reason, "month"), jsonText(reason, "from"),
                jsonText(reason, "to"));
    }
    if (code == u"not_proven") {
        const QStringList runs = ids("runs");
        return Tr::tr("no statement run of %1 covering %2 is proven complete (%3: pages given "
                      "without their manifest); import the pages with the manifest `statement "
                      "fetch --save` wrote, fetch them, or state --pages-complete")
            .arg(jsonText(reason, "provider"), jsonText(reason, "month"),
                (runs.size() == 1 ? Tr::tr("run %1") : Tr::tr("runs %1")).arg(runs.join(u", "_qs)));
    }
    if (code == u"open_cases") {
        const qint64 count = jsonInteger(reason, "count");
        const QString cases = ids("first").join(u", "_qs) + (count > 5 ? u", ..."_qs : QString());
        return (count == 1 ? Tr::tr("%1 %2 has 1 open statement case (case %3); resolve or "
                                    "dismiss them first")
                           : Tr::tr("%1 %2 has %4 open statement cases (cases %3); resolve or "
                                    "dismiss them first"))
            .arg(jsonText(reason, "provider"), jsonText(reason, "month"), cases,
                QString::number(count));
    }
    return {};
}

MonthCloseState loadMonthCloseState(QSqlDatabase &db, const QString &provider, const QDate &month)
{
    QSqlQuery q = execSql(db,
        u"SELECT public.month_close_refusal(?, CAST(? AS date)), "
        "public.month_close_refusal_reason(?, CAST(? AS date))::text, EXISTS (SELECT 1 FROM "
        "public.month_closes WHERE provider_key = ? AND month = CAST(? AS date))"_qs,
        {provider, monthText(month), provider, monthText(month), provider, monthText(month)});
    MonthCloseState state;
    if (q.next()) {
        // The desk's words for the reason; the database's sentence for one this build does
        // not know.
        const QString words = q.value(1).isNull()
            ? QString()
            : monthCloseRefusalText(
                nlohmann::json::parse(q.value(1).toString().toStdString(), nullptr, false));
        state.refusal = words.isEmpty() ? q.value(0).toString() : words;
        state.closed = q.value(2).toBool();
        if (!q.value(1).isNull()) {
            const auto reason
                = nlohmann::json::parse(q.value(1).toString().toStdString(), nullptr, false);
            if (reason.is_object() && reason.value("code", std::string()) == "open_cases")
                if (const auto first = reason.find("first");
                    first != reason.end() && first->is_array())
                    for (const auto &id : *first)
                        if (id.is_number_integer())
                            state.caseIds << id.get<qint64>();
        }
    }
    return state;
}

nlohmann::json loadMonthCloseReport(QSqlDatabase &db, const QString &provider, const QDate &month)
{
    QSqlQuery q = execSql(db, u"SELECT public.month_close_report(?, CAST(? AS date))::text"_qs,
        {provider, monthText(month)});
    if (!q.next() || q.value(0).isNull())
        return nullptr;
    return nlohmann::json::parse(q.value(0).toString().toStdString());
}

MonthCloseResult closeMonthAs(
    const std::string &conninfo, const QString &provider, const QDate &month)
{
    return answerOf(u"%1"_qs, [&] {
        rd::OperatorSession session(conninfo);
        const std::string key = provider.toStdString();
        const std::string first = monthText(month).toStdString();
        session.run([&](rd::DbRef db) { return rd::closeMonth(db, key, first); });
        return MonthCloseResult {
            {ActionResult::Kind::Done,
                Tr::tr("%1's %2 is closed.").arg(provider, monthText(month).left(7)), u"closed"_qs},
            session.run([&](rd::DbRef db) { return rd::monthCloseReport(db, key, first); })};
    });
}

QFuture<MonthCloseResult> closeMonthAsync(
    const QString &conninfo, const QString &provider, const QDate &month)
{
    return QtConcurrent::run([conninfo = conninfo.toStdString(), provider, month] {
        return closeMonthAs(conninfo, provider, month);
    });
}

namespace {

// Gross, money back and net per currency (migration 0051), each movement in the month of its
// own date; or why the close has none.
QString moneyBackHtml(
    const nlohmann::json &report, const std::vector<rd::CloseCurrencyTotals> &totals)
{
    QString h = u"<h3>%1</h3>"_qs.arg(Tr::tr("Gross, money back and net"));
    if (!rd::closeCountedMoneyBack(report))
        return h
            + Tr::tr("<p>This month was closed before Renewal Desk counted refunds and "
                     "disputes: its close holds the renewals only.</p>");
    h += Tr::tr("<p>Refunds and disputes count in the month they happened, whatever renewal "
                "they pay back. Money back of earlier months recorded after their close is "
                "counted here, and listed below; those months' reports stay as they were "
                "closed.</p>");
    h += u"<table cellspacing='0' cellpadding='4' border='1' style='border-collapse: collapse'>"
         "<tr style='background: #eee'>"_qs;
    for (const QString &title : {Tr::tr("Currency"), Tr::tr("Gross"), Tr::tr("Refunded"),
             Tr::tr("Disputed"), Tr::tr("Net"), Tr::tr("After close, earlier months")})
        h += u"<th>%1</th>"_qs.arg(title);
    h += u"</tr>"_qs;
    const auto cell = [](const QString &v) { return u"<td align='right'>%1</td>"_qs.arg(v); };
    for (const auto &t : totals) {
        const QString code = QString::fromStdString(t.currency);
        const auto money
            = [&](qint64 minor) { return esc(format::money(minor, code, QLocale::c())); };
        const qint64 after = t.afterCloseRefundedMinor + t.afterCloseDisputedMinor;
        h += u"<tr><td>%1</td>"_qs.arg(esc(code)) + cell(money(t.ledgerMinor))
            + cell(t.refundedMinor == 0 ? u"–"_qs : money(t.refundedMinor))
            + cell(t.disputedMinor == 0 ? u"–"_qs : money(t.disputedMinor))
            + cell(u"<b>%1</b>"_qs.arg(money(t.netMinor())))
            + cell(after == 0
                    ? u"–"_qs
                    : Tr::tr("refunded %1, disputed %2")
                          .arg(money(t.afterCloseRefundedMinor), money(t.afterCloseDisputedMinor)))
            + u"</tr>"_qs;
    }
    if (totals.empty())
        h += u"<tr><td colspan='6'>%1</td></tr>"_qs.arg(
            Tr::tr("No renewal was paid and no money went back in this month."));
    return h + u"</table>"_qs;
}

// The movements of earlier months recorded after their close that this close counted.
QString afterCloseHtml(const nlohmann::json &report)
{
    const auto a = report.find("afterClose");
    if (a == report.end() || !a->is_array() || a->empty())
        return {};
    QString h = u"<h3>%1</h3>"_qs.arg(Tr::tr("Money back recorded after its month was closed"));
    h += u"<table cellspacing='0' cellpadding='3' border='1' width='100%' "
         "style='border-collapse: collapse; font-size: 8pt'><thead><tr style='background: "
         "#eee'>"_qs;
    for (const QString &title :
        {Tr::tr("Movement"), Tr::tr("Kind"), Tr::tr("Amount"), Tr::tr("Happened (UTC)"),
            Tr::tr("Recorded (UTC)"), Tr::tr("Renewal key"), Tr::tr("Subscription")})
        h += u"<th>%1</th>"_qs.arg(title);
    h += u"</tr></thead>"_qs;
    for (const auto &m : *a) {
        const QString currency = jsonText(m, "currency");
        h += u"<tr><td>%1</td><td>%2</td><td align='right'>%3</td><td>%4</td><td>%5</td>"
             "<td>%6</td><td>%7</td></tr>"_qs.arg(esc(jsonText(m, "movementKey")),
                 esc(format::humanize(jsonText(m, "kind"))),
                 esc(format::money(jsonInteger(m, "amountMinor"), currency, QLocale::c())),
                 esc(jsonText(m, "occurredAt").left(10)), esc(jsonText(m, "recordedAt").left(10)),
                 esc(jsonText(m, "renewalKey")), esc(jsonText(m, "subscription")));
    }
    return h + u"</table>"_qs;
}

// Who prepared the close (the person the database recorded) and who reviewed it, each with a
// date and a signature, for the auditor's file: the reviewer's lines are left blank, to be
// filled in by hand.
QString signOffHtml(const nlohmann::json &report)
{
    QString h = u"<h3>%1</h3>"_qs.arg(Tr::tr("Sign-off"));
    h += u"<table cellspacing='0' cellpadding='8' border='1' width='100%' "
         "style='border-collapse: collapse'><tr style='background: #eee'>"_qs;
    for (const QString &title : {QString(), Tr::tr("Name"), Tr::tr("Date"), Tr::tr("Signature")})
        h += u"<th>%1</th>"_qs.arg(title);
    h += u"</tr>"_qs;
    const QString closedAt = jsonText(report, "closedAt");
    // Two lines' height in the blank cells: room for a hand-written name and signature.
    const QString blank = u"&nbsp;<br>&nbsp;"_qs;
    h += u"<tr><td><b>%1</b></td><td>%2</td><td>%3</td><td width='35%'>%4</td></tr>"_qs.arg(
        Tr::tr("Prepared by"), esc(jsonText(report, "closedBy")), esc(closedAt.left(10)), blank);
    h += u"<tr><td><b>%1</b></td><td>%2</td><td>%2</td><td>%2</td></tr>"_qs.arg(
        Tr::tr("Reviewed by"), blank);
    return h + u"</table>"_qs;
}

} // namespace

QString closeReportPageFooter(const nlohmann::json &report, int page, int pages)
{
    return Tr::tr("%1 %2 month close, page %3 of %4")
        .arg(jsonText(report, "providerKey"), jsonText(report, "month"))
        .arg(page)
        .arg(pages);
}

QString closeReportHtml(const nlohmann::json &report)
{
    const QString provider = esc(jsonText(report, "providerKey"));
    const QDate month = QDate::fromString(jsonText(report, "month") + u"-01"_qs, Qt::ISODate);
    const QString monthName = QLocale(QLocale::English).toString(month, u"MMMM yyyy"_qs);
    QString h;
    h += u"<html><body style='font-family: DejaVu Sans, sans-serif; font-size: 9pt'>"_qs;
    h += u"<h2>Month close: %1, %2</h2>"_qs.arg(provider, esc(monthName));
    h += Tr::tr("<p>The renewals recorded for <b>%1</b> and paid in <b>%2</b> (UTC), "
                "compared with the provider's statement.</p>")
             .arg(provider, esc(monthName));

    const auto row = [](const QString &name, const QString &value) {
        return u"<tr><td style='padding-right: 12px; color: #444'>%1</td><td>%2</td></tr>"_qs.arg(
            name, value);
    };
    h += u"<table cellspacing='0' cellpadding='2'>"_qs;
    h += row(Tr::tr("Provider"), provider);
    h += row(Tr::tr("Month"),
        esc(jsonText(report, "month")) + u" ("_qs + month.toString(Qt::ISODate) + u" to "_qs
            + month.addMonths(1).addDays(-1).toString(Qt::ISODate) + u", UTC)"_qs);
    h += row(Tr::tr("Closed by"), esc(jsonText(report, "closedBy")));
    h += row(Tr::tr("Closed at"), esc(utcText(jsonText(report, "closedAt"))));
    // "run #2": the run's id, which a bare "2" beside "Statement runs" read as a count.
    QStringList runs;
    for (const auto &id : report.value("statementRunIds", nlohmann::json::array()))
        runs << u'#' + QString::number(id.is_number_integer() ? id.get<qint64>() : 0);
    h += row(Tr::tr("Statement"),
        (runs.size() == 1 ? Tr::tr("run %1") : Tr::tr("runs %1")).arg(runs.join(u", "_qs)));
    h += row(Tr::tr("Statement SHA-256"),
        u"<span style='font-family: DejaVu Sans Mono; font-size: 7pt'>"_qs
            + joined(report.value("statementSha256s", nlohmann::json()), u"<br>"_qs)
            + u"</span>"_qs);
    h += row(Tr::tr("Statement completeness"), completenessText(report));
    h += u"</table>"_qs;

    h += u"<h3>%1</h3>"_qs.arg(Tr::tr("Totals per currency"));
    h += u"<table cellspacing='0' cellpadding='4' border='1' style='border-collapse: collapse'>"
         "<tr style='background: #eee'>"_qs;
    for (const QString &title :
        {Tr::tr("Currency"), Tr::tr("Ledger renewals"), Tr::tr("Ledger amount"),
            Tr::tr("Statement renewals"), Tr::tr("Statement amount"), Tr::tr("Difference")})
        h += u"<th>%1</th>"_qs.arg(title);
    h += u"</tr>"_qs;
    const auto totals = rd::closeCurrencyTotals(report);
    const QLocale en(QLocale::English);
    for (const auto &t : totals) {
        const QString code = QString::fromStdString(t.currency);
        const qint64 diff = t.ledgerMinor - t.statementMinor;
        const auto cell = [](const QString &v) { return u"<td align='right'>%1</td>"_qs.arg(v); };
        h += u"<tr><td>%1</td>"_qs.arg(esc(code)) + cell(en.toString(t.ledgerRenewals))
            + cell(esc(format::money(t.ledgerMinor, code, QLocale::c())))
            + cell(en.toString(t.statementRenewals))
            + cell(esc(format::money(t.statementMinor, code, QLocale::c())))
            // "-$10.00", not format::money's "$-10.00": the sign leads, as finance writes it.
            + cell(diff == 0 ? Tr::tr("none")
                             : u"<b>%1%2</b>"_qs.arg(diff < 0 ? u"-"_qs : u"+"_qs,
                                 esc(format::money(diff < 0 ? -diff : diff, code, QLocale::c()))))
            + u"</tr>"_qs;
    }
    if (totals.empty())
        h += u"<tr><td colspan='6'>%1</td></tr>"_qs.arg(
            Tr::tr("No renewal was paid in this month on either side."));
    h += u"</table>"_qs;
    h += moneyBackHtml(report, totals);

    h += u"<h3>%1</h3>"_qs.arg(Tr::tr("Findings"));
    h += u"<table cellspacing='0' cellpadding='2'>"_qs;
    h += row(Tr::tr("Matched"), en.toString(jsonInteger(report, "matched")));
    h += row(
        Tr::tr("Backfilled from the statement"), en.toString(jsonInteger(report, "backfilled")));
    h += row(Tr::tr("Unapplied (a case)"), en.toString(jsonInteger(report, "unapplied")));
    h += row(Tr::tr("Differing (a case)"), en.toString(jsonInteger(report, "differing")));
    h += row(Tr::tr("Recorded here, not in the statement (a case)"),
        en.toString(jsonInteger(report, "notInStatement")));
    h += row(Tr::tr("Cases resolved"), en.toString(jsonInteger(report, "casesResolved")));
    h += row(Tr::tr("Cases dismissed"), en.toString(jsonInteger(report, "casesDismissed")));
    h += u"</table>"_qs;

    QString lines;
    qint64 matchedLines = 0;
    if (const auto f = report.find("findings"); f != report.end() && f->is_array()) {
        for (const auto &l : *f) {
            if (jsonText(l, "finding") == u"matched"_qs) {
                ++matchedLines;
                continue;
            }
            QString resolution;
            if (jsonInteger(l, "caseId") > 0) {
                resolution = Tr::tr("case %1 (%2): %3")
                                 .arg(jsonInteger(l, "caseId"))
                                 .arg(esc(format::humanize(jsonText(l, "caseReason"))),
                                     esc(jsonText(l, "caseStatus")));
                if (!jsonText(l, "resolution").isEmpty()
                    && jsonText(l, "resolution") != jsonText(l, "caseStatus"))
                    resolution
                        += u" ("_qs + esc(format::humanize(jsonText(l, "resolution"))) + u")"_qs;
                if (!jsonText(l, "resolvedBy").isEmpty())
                    resolution += Tr::tr(" by %1, %2")
                                      .arg(esc(jsonText(l, "resolvedBy")),
                                          esc(utcText(jsonText(l, "resolvedAt"))));
                if (!jsonText(l, "note").isEmpty())
                    resolution += u"<br><i>%1</i>"_qs.arg(esc(jsonText(l, "note")));
            } else {
                resolution = Tr::tr("recorded from the statement");
            }
            const QString currency = jsonText(l, "currency");
            lines += u"<tr><td>%1</td><td>%2</td><td>%3</td><td align='right'>%4</td>"
                     "<td>%5</td><td>%6</td></tr>"_qs.arg(esc(jsonText(l, "renewalKey")),
                         esc(jsonText(l, "subscription")),
                         // A money back finding (#40) says its movement's kind.
                         esc(format::humanize(jsonText(l, "finding"))
                             + (jsonText(l, "moneyBack").isEmpty() ? QString()
                                                                   : u" ("_qs
                                         + format::humanize(jsonText(l, "moneyBack")) + u")"_qs)),
                         // An unreadable object's line says no amount: blank, not 0.
                         l.value("amountMinor", nlohmann::json()).is_number() ? esc(
                             format::money(jsonInteger(l, "amountMinor"), currency, QLocale::c()))
                                                                              : QString(),
                         esc(jsonText(l, "paidAt").left(10)), resolution);
        }
    }
    if (!lines.isEmpty()) {
        h += u"<table cellspacing='0' cellpadding='3' border='1' width='100%' "
             "style='border-collapse: collapse; font-size: 8pt'><thead><tr style='background: "
             "#eee'>"_qs;
        // The resolution (who, when, the note) gets the room; keys and ids are short.
        for (const auto &[title, width] : {std::pair {Tr::tr("Renewal key"), 17},
                 {Tr::tr("Subscription"), 15}, {Tr::tr("Finding"), 11}, {Tr::tr("Amount"), 11},
                 {Tr::tr("Paid (UTC)"), 11}, {Tr::tr("How it was resolved"), 35}})
            h += u"<th width='%1%'>%2</th>"_qs.arg(width).arg(title);
        // <thead>: the header row repeats on every page the findings run over.
        h += u"</tr></thead>"_qs + lines + u"</table>"_qs;
    }
    if (matchedLines > 0)
        h += Tr::tr("<p>%1 matched renewal(s) are listed in the CSV report.</p>")
                 .arg(en.toString(matchedLines));

    h += afterCloseHtml(report);

    h += u"<h3>%1</h3>"_qs.arg(Tr::tr("Audit anchor"));
    h += Tr::tr("<p>SHA-256 over the heads of the %1 audit chains at the close, as "
                "<tt>renewalctl audit anchor</tt> computes it:</p>")
             .arg(en.toString(jsonInteger(report, "auditAnchorHeads")));
    h += u"<p style='font-family: DejaVu Sans Mono; font-size: 9pt'><b>%1</b></p>"_qs.arg(
        esc(jsonText(report, "auditAnchorDigest")));
    h += signOffHtml(report);
    h += u"</body></html>"_qs;
    return h;
}

bool writeCloseReportPdf(
    const nlohmann::json &report, const QString &path, QString *error, int *pages)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = file.errorString();
        return false;
    }
    int pageCount = 0;
    {
        QPdfWriter writer(&file);
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
            QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
        writer.setResolution(300);
        writer.setTitle(Tr::tr("Month close %1 %2")
                            .arg(jsonText(report, "providerKey"), jsonText(report, "month")));
        writer.setCreator(u"Renewal Desk"_qs);
        // Laid out here, not by QTextDocument::print: print() numbers a page ("3") but cannot
        // say of how many, and an auditor checks that no page is missing ("page 3 of 4").
        QTextDocument doc;
        doc.documentLayout()->setPaintDevice(&writer); // points at the writer's 300 dpi
        doc.setHtml(closeReportHtml(report));
        const qreal dpi = writer.resolution();
        const qreal margin = dpi * 2 / 2.54; // 2 cm, print()'s margin
        const QRectF paper(QPointF(0, 0), writer.pageLayout().fullRectPixels(int(dpi)).size());
        const qreal footer = dpi * 1.0 / 2.54; // 1 cm under the text for the page's line
        const QSizeF body(paper.width() - 2 * margin, paper.height() - 2 * margin - footer);
        doc.setPageSize(body);
        pageCount = doc.pageCount();
        QPainter painter(&writer);
        QFont small(u"DejaVu Sans"_qs);
        small.setPointSizeF(7.5);
        for (int page = 0; page < pageCount; ++page) {
            if (page > 0)
                writer.newPage();
            painter.save();
            painter.translate(margin, margin - page * body.height());
            doc.drawContents(&painter, QRectF(QPointF(0, page * body.height()), body));
            painter.restore();
            painter.setFont(small);
            painter.setPen(QColor(0x44, 0x44, 0x44));
            painter.drawText(
                QRectF(margin, paper.height() - margin - footer * 0.6, body.width(), footer * 0.6),
                Qt::AlignRight | Qt::AlignBottom,
                closeReportPageFooter(report, page + 1, pageCount));
        }
    }
    if (!file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    if (pages)
        *pages = pageCount;
    return true;
}

bool writeCloseReportCsv(const nlohmann::json &report, const QString &path, QString *error)
{
    QSaveFile file(path);
    const std::string csv = rd::closeReportCsv(report);
    if (!file.open(QIODevice::WriteOnly)
        || file.write(csv.data(), qint64(csv.size())) != qint64(csv.size()) || !file.commit()) {
        if (error)
            *error = file.errorString();
        return false;
    }
    return true;
}

} // namespace rd::ui
