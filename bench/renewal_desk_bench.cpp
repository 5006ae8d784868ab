// renewal-desk-bench: how the desk's read models behave on a large database, next to a plain
// QSqlQueryModel over the whole table. Not a test: it prints figures.
//
//   renewal-desk-bench --db CONNINFO [--no-scroll] [--no-plain] [--repeat N] [--ledger-only]
//                      [--ledger-year YYYY] [--audit-log]
//
// Measured: time from issuing the query to the first page in the model, for the default order,
// a jump to other indexed orders and an id search; the subscription detail load; the Overview
// (every tile and chart) and its change check; resident
// memory and time while loading every row page by page ("scrolling all of it"); the same for
// QSqlQueryModel::setQuery over the whole table. The renewals ledger: its first and next
// page for several filters (sparse ones included) and its totals of a year.

#include "ui/models/auditlog.h"
#include "ui/models/connectionsettings.h"
#include "ui/models/databasepool.h"
#include "ui/models/ledgermodel.h"
#include "ui/models/ledgertotals.h"
#include "ui/models/overview.h"
#include "ui/models/subscriptiondetail.h"
#include "ui/models/subscriptionsmodel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QFutureWatcher>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQueryModel>
#include <QTableView>
#include <QThread>

#include <algorithm>
#include <cstdio>

using namespace rd::ui;

namespace {

double residentMiB()
{
    QFile f(u"/proc/self/status"_qs);
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toDouble() / 1024.0;
    }
    return -1;
}

double median(QVector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v[v.size() / 2];
}

/// Milliseconds from creating the model (the query is issued at once) to its first page.
double firstPage(DatabasePool &pool, const SubscriptionFilter &filter, SubscriptionOrder order,
    Qt::SortOrder direction, int *rows = nullptr, const QString &position = {})
{
    QElapsedTimer t;
    t.start();
    SubscriptionsModel model(&pool);
    model.setOrder(order, direction);
    model.setFilter(filter);
    model.setStartPosition(position);
    QSignalSpy loaded(&model, &PagedTableModel::pageLoaded);
    QSignalSpy failed(&model, &PagedTableModel::loadFailed);
    while (loaded.isEmpty() && failed.isEmpty())
        loaded.wait(30000);
    if (!failed.isEmpty())
        std::fprintf(stderr, "load failed: %s\n", qPrintable(failed.first().first().toString()));
    if (rows)
        *rows = model.loadedRows();
    return double(t.nsecsElapsed()) / 1e6;
}

/// Milliseconds from creating a ledger model to its first page, and (when `next`) from asking
/// for the next page to its arrival.
double ledgerPage(DatabasePool &pool, const LedgerFilter &filter, int *rows, double *next = nullptr)
{
    QElapsedTimer t;
    t.start();
    LedgerModel model(&pool, filter);
    QSignalSpy loaded(&model, &PagedTableModel::pageLoaded);
    QSignalSpy failed(&model, &PagedTableModel::loadFailed);
    while (loaded.isEmpty() && failed.isEmpty())
        loaded.wait(30000);
    const double first = double(t.nsecsElapsed()) / 1e6;
    if (!failed.isEmpty())
        std::fprintf(
            stderr, "ledger load failed: %s\n", qPrintable(failed.first().first().toString()));
    if (next && model.canFetchMore({})) {
        t.restart();
        model.fetchMore({});
        while (loaded.size() < 2 && failed.isEmpty())
            loaded.wait(30000);
        *next = double(t.nsecsElapsed()) / 1e6;
    }
    *rows = model.loadedRows();
    return first;
}

void line(const char *what, double ms, const QString &extra = {})
{
    std::printf("%-58s %10.1f ms  %s\n", what, ms, qPrintable(extra));
    std::fflush(stdout);
}

/// Milliseconds from issuing an audit log page's query (the page after `after`) to its rows,
/// on a pool thread as the page reads it.
double auditLogPage(DatabasePool &pool, const auditlog::Filter &filter,
    const QVector<QVariant> &after, int *rows = nullptr, QVector<QVariant> *last = nullptr)
{
    QElapsedTimer t;
    t.start();
    auto f = pool.run(
        [filter, after](QSqlDatabase &d) { return auditlog::fetchPage(d, filter, after, 200); });
    QFutureWatcher<Page> w;
    QSignalSpy done(&w, &QFutureWatcherBase::finished);
    w.setFuture(f);
    if (!w.isFinished())
        done.wait(60000);
    const double ms = double(t.nsecsElapsed()) / 1e6;
    try {
        const Page page = w.result();
        if (rows)
            *rows = page.rows;
        if (last && page.rows > 0) {
            const int n = auditlog::FieldCount;
            *last = page.cells.mid((page.rows - 1) * n, n);
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "audit log page failed: %s\n", e.what());
    }
    return ms;
}

/// The audit log's pages and filters (#15: each <= 50 ms at 12M audit rows).
void auditLogBench(DatabasePool &pool, int runs)
{
    auto facts = pool.run([](QSqlDatabase &d) {
        QSqlQuery q = execSql(d,
            u"SELECT (SELECT reltuples::bigint FROM pg_class WHERE oid = "
            "'subscription_transition_audits'::regclass), "
            "(SELECT count(*) FROM reconciliation_case_history), "
            "(SELECT provider_subscription_id FROM subscriptions ORDER BY provider_key, "
            "provider_subscription_id OFFSET 777 LIMIT 1), "
            "(SELECT min(case_id) FROM reconciliation_case_history)"_qs);
        q.next();
        return QStringList {q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
            q.value(3).toString()};
    });
    facts.waitForFinished();
    const QStringList s = facts.result();
    std::printf("\naudit log: about %s audit rows, %s case history entries (pages of 200, "
                "median of %d)\n",
        qPrintable(s[0]), qPrintable(s[1]), runs);
    const auto utc
        = [](const char *t) { return QDateTime::fromString(QString::fromLatin1(t), Qt::ISODate); };
    struct Case
    {
        const char *name;
        auditlog::Filter filter;
    };
    auto filter = [](auto set) {
        auditlog::Filter f;
        set(f);
        return f;
    };
    const QVector<Case> cases {
        {"audit log: newest first, no filter", {}},
        {"audit log: June 2025 (time range)", filter([&](auditlog::Filter &f) {
             f.from = utc("2025-06-01T00:00:00Z");
             f.to = utc("2025-07-01T00:00:00Z");
         })},
        {"audit log: renewals",
            filter([](auditlog::Filter &f) { f.what = u"subscription_renewed"_qs; })},
        {"audit log: imports",
            filter([](auditlog::Filter &f) { f.what = u"subscription_imported"_qs; })},
        {"audit log: reconciliations (none)",
            filter([](auditlog::Filter &f) { f.what = u"subscription_reconciled"_qs; })},
        {"audit log: case action noted", filter([](auditlog::Filter &f) { f.what = u"noted"_qs; })},
        {"audit log: actor alice", filter([](auditlog::Filter &f) { f.actor = u"alice"_qs; })},
        {"audit log: actor nobody (no rows)",
            filter([](auditlog::Filter &f) { f.actor = u"nobody"_qs; })},
        {"audit log: database role postgres",
            filter([](auditlog::Filter &f) { f.dbRole = u"postgres"_qs; })},
        {"audit log: database role renewal_ingest (case entries)",
            filter([](auditlog::Filter &f) { f.dbRole = u"renewal_ingest"_qs; })},
        {"audit log: provider paddle-eu",
            filter([](auditlog::Filter &f) { f.provider = u"paddle-eu"_qs; })},
        {"audit log: provider stripe-us, database role postgres", filter([](auditlog::Filter &f) {
             f.provider = u"stripe-us"_qs;
             f.dbRole = u"postgres"_qs;
         })},
        {"audit log: renewals of chargebee in June 2025", filter([&](auditlog::Filter &f) {
             f.what = u"subscription_renewed"_qs;
             f.provider = u"chargebee"_qs;
             f.from = utc("2025-06-01T00:00:00Z");
             f.to = utc("2025-07-01T00:00:00Z");
         })},
        {"audit log: one subscription (provider id)",
            filter([&](auditlog::Filter &f) { f.subscription = s[2]; })},
        {"audit log: one case", filter([&](auditlog::Filter &f) { f.caseId = s[3].toLongLong(); })},
    };
    auditLogPage(pool, {}, {}); // warm up
    for (const Case &c : cases) {
        QVector<double> t;
        int rows = 0;
        for (int i = 0; i < runs; ++i)
            t << auditLogPage(pool, c.filter, {}, &rows);
        line(c.name, median(t), QString(u"(%1 rows)"_qs).arg(rows));
    }
    // A page deep in the list: after 50 pages read (10,000 rows), and after a year back.
    for (const auto &[name, f] :
        {std::pair {"audit log: page 51 (after 10,000 rows)", auditlog::Filter {}},
            std::pair {"audit log: renewals, page 51",
                filter([](auditlog::Filter &f) { f.what = u"subscription_renewed"_qs; })},
            std::pair {"audit log: provider paddle-eu, page 51",
                filter([](auditlog::Filter &f) { f.provider = u"paddle-eu"_qs; })}}) {
        QVector<QVariant> after;
        for (int p = 0; p < 50; ++p)
            auditLogPage(pool, f, after, nullptr, &after);
        QVector<double> t;
        int rows = 0;
        for (int i = 0; i < runs; ++i)
            t << auditLogPage(pool, f, after, &rows);
        line(name, median(t), QString(u"(%1 rows)"_qs).arg(rows));
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    QCommandLineOption db(u"db"_qs, u"libpq conninfo"_qs, u"CONNINFO"_qs);
    QCommandLineOption noScroll(u"no-scroll"_qs, u"skip loading every row"_qs);
    QCommandLineOption noPlain(u"no-plain"_qs, u"skip the QSqlQueryModel comparison"_qs);
    QCommandLineOption repeat(u"repeat"_qs, u"runs per timing (median)"_qs, u"N"_qs, u"5"_qs);
    QCommandLineOption ledgerOnly(u"ledger-only"_qs, u"only the renewals ledger's figures"_qs);
    QCommandLineOption ledgerYear(u"ledger-year"_qs,
        u"the year the ledger's figures read (default: the year with the most renewals)"_qs,
        u"YYYY"_qs);
    QCommandLineOption auditLog(u"audit-log"_qs, u"measure the audit log's pages only"_qs);
    parser.addOptions({db, noScroll, noPlain, repeat, ledgerOnly, ledgerYear, auditLog});
    parser.process(app);
    if (!parser.isSet(db)) {
        std::fprintf(stderr, "renewal-desk-bench: --db CONNINFO is required\n");
        return 64;
    }
    const int runs = std::max(1, parser.value(repeat).toInt());
    const QString conninfo = parser.value(db);
    DatabasePool pool(conninfo);
    if (parser.isSet(auditLog)) {
        auditLogBench(pool, runs);
        return 0;
    }

    // Size of the data set (planner estimates: exact counts would take longer than the bench).
    auto sizes = pool.run([](QSqlDatabase &d) {
        QSqlQuery q = execSql(d,
            u"SELECT (SELECT reltuples::bigint FROM pg_class WHERE oid = "
            u"'subscriptions'::regclass), "
            "(SELECT reltuples::bigint FROM pg_class "
            "WHERE oid = 'subscription_billing_periods'::regclass), "
            "(SELECT count(*) FROM reconciliation_cases WHERE status = 'open'), "
            "(SELECT provider_subscription_id FROM subscriptions "
            "ORDER BY provider_key, provider_subscription_id OFFSET 5000 LIMIT 1), "
            "(SELECT id::text FROM subscriptions WHERE provider_key = 'paddle-eu' "
            "ORDER BY provider_subscription_id LIMIT 1), "
            "(SELECT provider_key || '/' || provider_subscription_id FROM subscriptions "
            "WHERE provider_key = 'stripe-main' ORDER BY provider_subscription_id "
            "OFFSET 100000 LIMIT 1), "
            "(SELECT datcollate FROM pg_database WHERE datname = current_database())"_qs);
        q.next();
        return QStringList {q.value(0).toString(), q.value(1).toString(), q.value(2).toString(),
            q.value(3).toString(), q.value(4).toString(), q.value(5).toString(),
            q.value(6).toString()};
    });
    sizes.waitForFinished();
    const QStringList s = sizes.result();
    std::printf("data set: ~%s subscriptions, ~%s billing periods, %s open cases; "
                "database collation %s\n",
        qPrintable(s[0]), qPrintable(s[1]), qPrintable(s[2]), qPrintable(s[6]));
    std::printf(
        "machine: %d cores, RSS at start %.1f MiB\n\n", QThread::idealThreadCount(), residentMiB());

    {
        // The renewals ledger (#15): the first and the next page for filters from dense to
        // absent, and the month × currency totals of a year (what the page reads, the fold
        // of pending deltas included).
        auto latest = pool.run([](QSqlDatabase &d) {
            QSqlQuery q = execSql(d,
                u"SELECT extract(year FROM day)::int FROM renewal_totals('-infinity', "
                "'infinity') GROUP BY 1 ORDER BY sum(renewals) DESC LIMIT 1"_qs);
            return q.next() ? q.value(0).toInt() : QDate::currentDate().year();
        });
        latest.waitForFinished();
        const int year
            = parser.isSet(ledgerYear) ? parser.value(ledgerYear).toInt() : latest.result();
        const QDate jan(year, 1, 1);
        std::printf("renewals ledger, year %d (UTC days; pages of 200):\n", year);
        auto f = [&](LedgerDate date, QDate from, QDate to, QString provider = {},
                     QString currency = {}, QString recordedBy = {}) {
            LedgerFilter filter;
            filter.date = date;
            filter.from = from;
            filter.to = to;
            filter.provider = provider;
            filter.currency = currency;
            filter.recordedBy = recordedBy;
            return filter;
        };
        const auto paid = LedgerDate::PaidAt;
        const auto start = LedgerDate::PeriodStart;
        const struct
        {
            const char *name;
            LedgerFilter filter;
        } ledgerCases[] = {
            {"ledger: paid in the year", f(paid, jan, jan.addYears(1))},
            {"ledger: paid in March", f(paid, jan.addMonths(2), jan.addMonths(3))},
            {"ledger: all time", f(paid, {}, {})},
            {"ledger: provider paddle-eu, the year",
                f(paid, jan, jan.addYears(1), u"paddle-eu"_qs)},
            {"ledger: provider stripe-us, two days",
                f(paid, jan.addDays(40), jan.addDays(42), u"stripe-us"_qs)},
            {"ledger: currency GBP, the year", f(paid, jan, jan.addYears(1), {}, u"GBP"_qs)},
            {"ledger: currency JPY (none), all time", f(paid, {}, {}, {}, u"JPY"_qs)},
            {"ledger: recorded by operator (none), the year",
                f(paid, jan, jan.addYears(1), {}, {}, u"operator"_qs)},
            {"ledger: paddle-eu + EUR + webhook, a week",
                f(paid, jan.addDays(100), jan.addDays(107), u"paddle-eu"_qs, u"EUR"_qs,
                    u"webhook"_qs)},
            {"ledger: period start in Q2", f(start, jan.addMonths(3), jan.addMonths(6))},
            {"ledger: period start, USD, all time", f(start, {}, {}, {}, u"USD"_qs)},
            {"ledger: period start, recorded by import (none)",
                f(start, {}, {}, {}, {}, u"import"_qs)},
        };
        int warm = 0;
        ledgerPage(pool, ledgerCases[0].filter, &warm);
        for (const auto &c : ledgerCases) {
            QVector<double> first, next;
            int rows = 0;
            for (int i = 0; i < runs; ++i) {
                double n = 0;
                first << ledgerPage(pool, c.filter, &rows, &n);
                next << n;
            }
            line(c.name, median(first),
                QString(u"(%1 rows; next page %2 ms; median of %3)"_qs)
                    .arg(rows)
                    .arg(median(next), 0, 'f', 1)
                    .arg(runs));
        }
        for (const auto &[name, filter] :
            {std::make_pair("ledger totals: the year by month × currency, by provider",
                 f(paid, jan, jan.addYears(1))),
                std::make_pair("ledger totals: the year, provider paddle-eu",
                    f(paid, jan, jan.addYears(1), u"paddle-eu"_qs)),
                std::make_pair("ledger totals: all time", f(paid, {}, {})),
                std::make_pair(
                    "ledger totals: paid in March", f(paid, jan.addMonths(2), jan.addMonths(3))),
                std::make_pair("ledger totals: period start in March",
                    f(start, jan.addMonths(2), jan.addMonths(3))),
                std::make_pair(
                    "ledger totals: period start in the year", f(start, jan, jan.addYears(1)))}) {
            QVector<double> t;
            int groups = 0;
            for (int i = 0; i < runs; ++i) {
                QElapsedTimer timer;
                timer.start();
                auto totals = pool.run(
                    [filter = filter](QSqlDatabase &d) { return loadLedgerTotals(d, filter); });
                totals.waitForFinished();
                t << double(timer.nsecsElapsed()) / 1e6;
                groups = int(totals.result().months.size());
            }
            line(name, median(t), QString(u"(%1 month × currency rows)"_qs).arg(groups));
        }
        std::printf("\n");
        if (parser.isSet(ledgerOnly))
            return 0;
    }

    struct Case
    {
        const char *name;
        SubscriptionFilter filter;
        SubscriptionOrder order;
        Qt::SortOrder direction;
        QString typed = {}; ///< a "go to" position, as typed
    };
    const QString idPrefix = s[3].left(9);
    // A fragment from the middle of an id, as support pastes it (5 of the hex digits).
    const QString idFragment = s[3].mid(6, 5);
    SubscriptionFilter contains {{}, {}, false, idFragment, true};
    SubscriptionFilter containsPaddle {u"paddle-eu"_qs, {}, false, idFragment, true};
    // A fragment of three characters matches about 1 id in 4,000 (more pages than one).
    SubscriptionFilter containsShort {{}, {}, false, s[3].mid(7, 3), true};
    const Case cases[] = {
        {"first page, provider+id order", {}, SubscriptionOrder::ProviderAndId, Qt::AscendingOrder},
        {"jump: period end, descending", {}, SubscriptionOrder::PeriodEnd, Qt::DescendingOrder},
        {"jump: period end, ascending", {}, SubscriptionOrder::PeriodEnd, Qt::AscendingOrder},
        {"jump: status, descending", {}, SubscriptionOrder::Status, Qt::DescendingOrder},
        {"filter: status past_due, by period end", {QString(), u"past_due"_qs, false, {}},
            SubscriptionOrder::PeriodEnd, Qt::AscendingOrder},
        {"filter: provider paddle-eu", {u"paddle-eu"_qs, {}, false, {}},
            SubscriptionOrder::ProviderAndId, Qt::AscendingOrder},
        {"filter: open cases only", {{}, {}, true, {}}, SubscriptionOrder::ProviderAndId,
            Qt::AscendingOrder},
        {"search: id prefix, every provider", {{}, {}, false, idPrefix},
            SubscriptionOrder::ProviderAndId, Qt::AscendingOrder},
        {"search: id prefix 'sub_0', every provider", {{}, {}, false, u"sub_0"_qs},
            SubscriptionOrder::ProviderAndId, Qt::AscendingOrder},
        {"search: id prefix, provider paddle-eu", {u"paddle-eu"_qs, {}, false, idPrefix},
            SubscriptionOrder::ProviderAndId, Qt::AscendingOrder},
        {"search: id contains 5 chars, every provider", contains, SubscriptionOrder::ProviderAndId,
            Qt::AscendingOrder},
        {"search: id contains 5 chars, provider paddle-eu", containsPaddle,
            SubscriptionOrder::ProviderAndId, Qt::AscendingOrder},
        {"search: id contains 3 chars, every provider", containsShort,
            SubscriptionOrder::ProviderAndId, Qt::AscendingOrder},
        {"search: id contains 'sub', every provider", {{}, {}, false, u"sub"_qs, true},
            SubscriptionOrder::ProviderAndId, Qt::AscendingOrder},
        {"go to: period end 2026-01-14, ascending", {}, SubscriptionOrder::PeriodEnd,
            Qt::AscendingOrder, u"2026-01-14"_qs},
        {"go to: period end 2026-01-14, descending", {}, SubscriptionOrder::PeriodEnd,
            Qt::DescendingOrder, u"2026-01-14"_qs},
        {"go to: status past_due", {}, SubscriptionOrder::Status, Qt::AscendingOrder,
            u"past_due"_qs},
        {"go to: a provider/id halfway", {}, SubscriptionOrder::ProviderAndId, Qt::AscendingOrder,
            s[5]},
    };
    firstPage(pool, {}, SubscriptionOrder::ProviderAndId, Qt::AscendingOrder); // warm up
    for (const Case &c : cases) {
        QVector<double> t;
        int rows = 0;
        QString error;
        const auto position = SubscriptionsModel::parsePosition(c.order, c.typed, &error);
        if (!position) {
            std::fprintf(stderr, "%s: %s\n", c.name, qPrintable(error));
            return 65;
        }
        for (int i = 0; i < runs; ++i)
            t << firstPage(pool, c.filter, c.order, c.direction, &rows, *position);
        line(c.name, median(t),
            QString(u"(%1 rows in the page; median of %2)"_qs).arg(rows).arg(runs));
    }

    {
        QVector<double> t;
        int periods = 0;
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer timer;
            timer.start();
            auto f
                = pool.run([id = s[4]](QSqlDatabase &d) { return loadSubscriptionDetail(d, id); });
            QFutureWatcher<std::optional<SubscriptionDetail>> w;
            QSignalSpy done(&w, &QFutureWatcherBase::finished);
            w.setFuture(f);
            done.wait(30000);
            t << double(timer.nsecsElapsed()) / 1e6;
            periods = int(w.result()->periods.size() / SubscriptionDetail::PeriodFieldCount);
        }
        line("subscription detail (header, periods, audits, outbox, cases)", median(t),
            QString(u"(%1 billing periods)"_qs).arg(periods));
    }

    {
        // The Overview: every tile and chart in one snapshot (loadOverview, the renewal totals
        // folded first), and the change check its page runs every 2 s while shown.
        QVector<double> t;
        QVector<double> mark;
        OverviewFigures figures;
        for (int i = 0; i < runs; ++i) {
            QElapsedTimer timer;
            timer.start();
            auto f = pool.run([](QSqlDatabase &d) { return loadOverview(d); });
            f.waitForFinished();
            t << double(timer.nsecsElapsed()) / 1e6;
            figures = f.result();
            timer.restart();
            auto m = pool.run([](QSqlDatabase &d) { return overviewChangeMark(d); });
            m.waitForFinished();
            mark << double(timer.nsecsElapsed()) / 1e6;
        }
        qint64 renewals = 0;
        for (const DayCount &d : figures.renewalsPerDay)
            renewals += d.count;
        qint64 deliveries = 0;
        for (const KeyCount &k : figures.deliveriesByOutcome)
            deliveries += k.count;
        line("overview (every tile and chart, one snapshot)", median(t),
            QString(u"(%1 renewals, %2 deliveries in 30 days; %3 open cases)"_qs)
                .arg(renewals)
                .arg(deliveries)
                .arg(figures.openCases));
        line("overview change check (polled every 2 s while shown)", median(mark));
    }

    if (!parser.isSet(noScroll)) {
        // Through a real table view, the way a user drags to the end: the view asks for the
        // next page whenever it is at the bottom, and paints what it shows (data() is what
        // keeps a page in memory).
        std::printf("\nscrolling all of it in a table view (pages of 200, at most %d in memory):\n",
            PagedTableModel::kDefaultResidentPages);
        const double before = residentMiB();
        SubscriptionsModel model(&pool);
        QTableView view;
        view.resize(1200, 800);
        view.setModel(&model);
        view.show();
        QSignalSpy loaded(&model, &PagedTableModel::pageLoaded);
        QElapsedTimer t;
        t.start();
        int nextReport = 100000;
        double peak = 0;
        while (!model.isComplete()) {
            if (model.isLoading()) {
                loaded.wait(30000);
            }
            view.scrollToBottom();
            QCoreApplication::processEvents();
            if (model.loadedRows() >= nextReport) {
                peak = std::max(peak, residentMiB());
                std::printf("  %8d rows  %8.1f s  RSS %7.1f MiB  (%d pages in memory)\n",
                    model.loadedRows(), double(t.elapsed()) / 1000, residentMiB(),
                    model.residentPages());
                std::fflush(stdout);
                nextReport += 100000;
            }
        }
        peak = std::max(peak, residentMiB());
        std::printf("  %8d rows  %8.1f s  RSS %7.1f MiB, peak %.1f MiB (%.0f MiB over the start)\n",
            model.loadedRows(), double(t.elapsed()) / 1000, residentMiB(), peak, peak - before);

        // Back to places scrolled past long ago: their pages were evicted and are read again
        // after the keyset the page before them ends at.
        QSignalSpy restored(&model, &PagedTableModel::rowsRestored);
        for (const double where : {0.0, 0.5, 0.25, 0.999}) {
            const int row = int(where * (model.loadedRows() - 1));
            QElapsedTimer jump;
            jump.start();
            view.scrollTo(model.index(row, 0), QAbstractItemView::PositionAtTop);
            view.viewport()->repaint(); // the paint asks for the rows shown
            while (!model.isResident(row) && jump.elapsed() < 30000)
                restored.wait(30000);
            view.viewport()->repaint();
            line(
                qPrintable(QString(u"scroll back to row %1 (evicted page read again)"_qs).arg(row)),
                double(jump.nsecsElapsed()) / 1e6,
                QString(u"RSS %1 MiB"_qs).arg(residentMiB(), 0, 'f', 1));
        }
    }

    if (!parser.isSet(noPlain)) {
        std::printf("\nplain QSqlQueryModel over the whole table, on the calling thread:\n");
        QSqlDatabase plain = QSqlDatabase::addDatabase(u"QPSQL"_qs, u"plain"_qs);
        ConnectionSettings::fromConninfo(conninfo).applyTo(plain);
        if (!plain.open()) {
            std::fprintf(stderr, "cannot open: %s\n", qPrintable(plain.lastError().text()));
            return 69;
        }
        const double before = residentMiB();
        QElapsedTimer t;
        t.start();
        {
            QSqlQueryModel model;
            model.setQuery(u"SELECT provider_key, provider_subscription_id, status, "
                           "cancel_at_period_end, current_period_start, current_period_end "
                           "FROM subscriptions ORDER BY provider_key, provider_subscription_id"_qs,
                plain);
            line("setQuery returns (first rows visible; GUI thread blocked)",
                double(t.nsecsElapsed()) / 1e6,
                QString(u"RSS %1 MiB"_qs).arg(residentMiB(), 0, 'f', 1));
            while (model.canFetchMore())
                model.fetchMore();
            line("every row in the model", double(t.nsecsElapsed()) / 1e6,
                QString(u"%1 rows, RSS %2 MiB (%3 bytes/row over the start)"_qs)
                    .arg(model.rowCount())
                    .arg(residentMiB(), 0, 'f', 1)
                    .arg((residentMiB() - before) * 1048576.0 / std::max(1, model.rowCount()), 0,
                        'f', 0));
        }
        plain.close();
    }
    return 0;
}
