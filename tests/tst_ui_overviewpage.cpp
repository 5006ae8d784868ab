#include "tests/support/process_runner.h"
#include "tests/support/renewal_fixtures.h"
#include "tests/support/test_database.h"
#include "ui/actions/caseactions.h"
#include "ui/models/databasepool.h"
#include "ui/models/format.h"
#include "ui/models/overduewatch.h"
#include "ui/models/overview.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/overviewtile.h"

#include "domain/core/renewal_event.h"
#include "domain/demo/demo_history.h"
#include "domain/store/webhook_ingestor.h"

#include <QAbstractBarSeries>
#include <QAbstractItemModelTester>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QGraphicsTextItem>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStackedBarSeries>
#include <QStandardPaths>
#include <QToolButton>
#include <QToolTip>
#include <QtTest>

#include <pqxx/pqxx>

#include <memory>

namespace {

/// Known data spread over the last 45 days, relative to the server's clock: renewals of two
/// providers in three currencies (some today, some before the charts' window), open and
/// dismissed cases of three reasons in every age bucket, deliveries of every outcome (and
/// some not processed), pending, failing and published outbox intents.
const char *kFixture = R"SQL(
INSERT INTO billing_providers (provider_key, kind, display_name)
VALUES ('stripe-main', 'stripe', 'Stripe'), ('paddle-eu', 'paddle', 'Paddle')
ON CONFLICT DO NOTHING;
INSERT INTO subscriptions (provider_key, provider_subscription_id, status, current_period_start,
                           current_period_end, revision)
SELECT p, 'sub_' || p || '_' || i, 'active', '2026-01-01Z', '2026-02-01Z', 1
  FROM unnest(ARRAY['stripe-main', 'paddle-eu']) p, generate_series(1, 20) i;
INSERT INTO subscription_billing_periods (subscription_id, provider_key, provider_renewal_key,
        provider_event_id, period_start, period_end, paid_amount_minor, currency, paid_at)
SELECT s.id, s.provider_key, 'in_' || s.provider_subscription_id || '_' || k,
       'evt_' || s.provider_subscription_id || '_' || k,
       timestamptz '2024-01-01Z' + k * interval '1 month',
       timestamptz '2024-01-01Z' + (k + 1) * interval '1 month',
       1999 + k,
       CASE WHEN s.provider_key = 'paddle-eu' THEN 'EUR' WHEN k % 5 = 1 THEN 'JPY' ELSE 'USD' END,
       now() - k * interval '37 hours' - (length(s.provider_subscription_id) % 7) * interval '1 minute'
  FROM subscriptions s, generate_series(0, 29) k
 WHERE k % 3 <> 2 OR s.provider_key = 'stripe-main';
INSERT INTO reconciliation_cases (provider_key, provider_subscription_id, provider_renewal_key,
        first_provider_event_id, last_provider_event_id, error_code, event, event_fingerprint,
        local_state, first_seen_at, last_seen_at, status, resolution, resolved_at, resolved_by,
        resolution_comment)
SELECT 'stripe-main', 'sub_case_' || i, 'in_case_' || i, 'evt_c' || i, 'evt_c' || i,
       CASE WHEN i % 6 < 3 THEN 'renewal_period_is_not_contiguous'
            WHEN i % 6 < 5 THEN 'provider_renewal_key_payload_conflict'
            ELSE 'subscription_not_found' END,
       '{}', md5(i::text), '{}',
       now() - (ARRAY[interval '10 minutes', interval '5 hours', interval '3 days',
                      interval '20 days', interval '45 days'])[1 + i % 5] - i * interval '1 s',
       now() - i * interval '1 minute',
       CASE WHEN i % 4 = 0 THEN 'dismissed' ELSE 'open' END,
       CASE WHEN i % 4 = 0 THEN 'dismissed' END,
       CASE WHEN i % 4 = 0 THEN now() - (i % 7) * interval '1 day' END,
       CASE WHEN i % 4 = 0 THEN 'alice' END,
       CASE WHEN i % 4 = 0 THEN 'seen twice' END
  FROM generate_series(1, 43) i;
INSERT INTO webhook_inbox (provider_key, provider_event_id, raw_body, body_size, body_sha256,
        received_at, last_delivery_at, outcome, processed_at)
SELECT CASE WHEN i % 2 = 0 THEN 'stripe-main' ELSE 'paddle-eu' END, 'evt_in_' || i, '\x7b7d', 2,
       encode(sha256('\x7b7d'::bytea), 'hex'), now() - i * interval '7 hours', now() - i * interval '7 hours',
       (ARRAY['applied', 'applied', 'applied', 'duplicate', 'not_a_renewal', 'needs_snapshot',
              'rejected', 'invalid', NULL])[1 + i % 9],
       CASE WHEN i % 9 = 8 THEN NULL ELSE now() END
  FROM generate_series(1, 150) i;
-- Deliveries dated in the past after the migration folded the (empty) inbox: fold them again.
UPDATE webhook_inbox_daily_state
   SET folded_before = (SELECT (min(received_at) AT TIME ZONE 'UTC')::date FROM webhook_inbox);
INSERT INTO subscription_outbox (event_type, subscription_id, billing_period_id, payload,
                                 attempts, last_error, published_at)
SELECT 'subscription_renewed', b.subscription_id, b.id, '{}', CASE WHEN n % 3 = 0 THEN 2 ELSE 0 END,
       CASE WHEN n % 3 = 0 THEN 'HTTP 503' END, CASE WHEN n % 5 = 0 THEN now() END
  FROM (SELECT id, subscription_id, row_number() OVER (ORDER BY id) n
          FROM subscription_billing_periods LIMIT 31) b;
-- Three of the invalid deliveries were reviewed (0034): the others are to review.
INSERT INTO webhook_inbox_reviews (inbox_id, note)
SELECT id, 'a test payload' FROM webhook_inbox WHERE outcome = 'invalid' ORDER BY id LIMIT 3;
-- Beside the 40 overdue above (their period ended 1 Feb 2026): one inside the grace, one set
-- to cancel, one canceled.
INSERT INTO subscriptions (provider_key, provider_subscription_id, status, current_period_start,
                           current_period_end, cancel_at_period_end)
VALUES ('stripe-main', 'sub_inside', 'active', now() - interval '30 days', now() - interval '20 hours', false),
       ('stripe-main', 'sub_leaving', 'active', now() - interval '33 days', now() - interval '3 days', true),
       ('paddle-eu', 'sub_gone', 'canceled', now() - interval '33 days', now() - interval '3 days', false);
)SQL";

/// The overdue subscriptions by provider as the Overdue tile shows them, from the base table.
QString overdueSql(int graceHours)
{
    return uR"(WITH o AS (SELECT provider_key, count(*) n FROM subscriptions
        WHERE status = 'active' AND NOT cancel_at_period_end
          AND current_period_end < now() - interval '%1 hours' GROUP BY 1)
        SELECT coalesce(sum(n), 0) || ' ' || coalesce(string_agg(provider_key || ' ' || n, ' · '
               ORDER BY n DESC, provider_key), 'every renewal arrived') FROM o)"_qs.arg(graceHours);
}

/// The UTC day of a timestamptz expression, as SQL.
QString utcDay(const QString &expr)
{
    return u"((%1) AT TIME ZONE 'UTC')::date"_qs.arg(expr);
}

/// What a bar chart shows: "set|value", or "set|YYYY-MM-DD|value" when its bars are days;
/// the zero bars left out.
QStringList barsOf(QChart *chart, const QDate &firstDay, bool byDay)
{
    QStringList out;
    for (QAbstractSeries *s : chart->series()) {
        auto *series = qobject_cast<QAbstractBarSeries *>(s);
        if (!series)
            continue;
        for (QBarSet *set : series->barSets()) {
            for (int i = 0; i < set->count(); ++i) {
                if (set->at(i) == 0)
                    continue;
                QString line = set->label() + u'|';
                if (byDay)
                    line += firstDay.addDays(i).toString(Qt::ISODate) + u'|';
                // A count drawn below the line (cases closed) is a count all the same.
                out << line + QString::number(qint64(std::abs(set->at(i))));
            }
        }
    }
    out.sort();
    return out;
}

QString canonicalTotals(const QVector<rd::ui::CurrencyTotal> &totals)
{
    QStringList out;
    for (const auto &t : totals)
        out << u"%1 %2 %3"_qs.arg(t.currency).arg(t.renewals).arg(t.amountMinor);
    out.sort();
    return out.join(u"; "_qs);
}

/// Clicks bar `index` of `set` where it is drawn (a stacked bar in the middle of its segment,
/// a grouped bar in the middle of its slot).
void clickBar(QChartView *view, QAbstractBarSeries *series, QBarSet *set, int index)
{
    QChart *chart = view->chart();
    const auto sets = series->barSets();
    const int k = int(sets.indexOf(set));
    const bool stacked = qobject_cast<QStackedBarSeries *>(series)
        || qobject_cast<QHorizontalStackedBarSeries *>(series);
    const bool horizontal = qobject_cast<QHorizontalBarSeries *>(series)
        || qobject_cast<QHorizontalStackedBarSeries *>(series);
    qreal along = index;
    qreal value = set->at(index) / 2;
    if (stacked) {
        // Qt stacks the negative values down from the line, the positive ones up.
        for (int j = 0; j < k; ++j)
            if ((sets[j]->at(index) < 0) == (set->at(index) < 0))
                value += sets[j]->at(index);
    } else if (sets.size() > 1) {
        const qreal width = series->barWidth();
        along = index - width / 2 + width * (k + 0.5) / sets.size();
    }
    const QPointF p
        = chart->mapToPosition(horizontal ? QPointF(value, along) : QPointF(along, value), series);
    const QPoint at = view->mapFromScene(chart->mapToScene(p));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
}

} // namespace

/// The Overview against a database with known data: every tile and every chart's bars
/// checked against SQL over the base tables (not the totals the page reads), every figure and
/// bar opening the list behind it, and the page following a renewal another process commits.
class TestUiOverviewPage : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<rdtest::TestDatabase> m_db;
    std::unique_ptr<rd::ui::DatabasePool> m_pool;
    std::unique_ptr<rd::ui::OverviewPage> m_page;

    /// The USD renewals of "Renewals today".
    qint64 usdToday() const
    {
        for (const auto &t : m_page->figures().renewalsToday)
            if (t.currency == u"USD")
                return t.renewals;
        return 0;
    }

    QString sql(const QString &query)
    {
        return QString::fromStdString(rdtest::text(*m_db, query.toStdString()));
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"renewal-desk-tests"_qs);
        rd::ui::setOverdueGraceHoursSetting(std::nullopt);
        m_db = std::make_unique<rdtest::TestDatabase>("ui_overviewpage");
        {
            auto conn = m_db->connect();
            pqxx::nontransaction tx(*conn);
            tx.exec(kFixture);
        }
        m_pool = std::make_unique<rd::ui::DatabasePool>(QString::fromStdString(m_db->conninfo()));
        m_page = std::make_unique<rd::ui::OverviewPage>(m_pool.get());
        m_page->resize(1400, 900);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
        QVERIFY(QTest::qWaitFor([&] { return m_page->isLoaded(); }, 15000));
    }

    void cleanupTestCase()
    {
        m_page.reset();
        m_pool.reset();
        m_db.reset();
    }

    /// The fixture reaches every part of the page: a check that passes on empty figures
    /// would prove nothing.
    void fixtureFillsEveryFigure()
    {
        const auto &f = m_page->figures();
        QVERIFY(!f.renewalsToday.isEmpty());
        QVERIFY(f.renewalsThisMonth.size() >= f.renewalsToday.size());
        QCOMPARE(f.providers, QStringList({u"paddle-eu"_qs, u"stripe-main"_qs}));
        QVERIFY(f.openCases > 0);
        for (qint64 n : f.openByAge)
            QVERIFY(n > 0);
        QVERIFY(f.outboxPending > 0 && f.outboxFailing > 0);
        QVERIFY(f.lastDeliveryAt.isValid());
        QVERIFY(f.deliveriesByOutcome.size() == 7);
    }

    void tilesMatchSql_data()
    {
        QTest::addColumn<QString>("tile");
        QTest::addColumn<QString>("expected"); // SQL
        const QString today = utcDay(u"now()"_qs);
        const QString totals = u"SELECT coalesce(string_agg(currency || ' ' || n || ' ' || amt, "
                               "'; ' ORDER BY currency), '') FROM (SELECT currency, count(*) n, "
                               "sum(paid_amount_minor) amt FROM subscription_billing_periods "
                               "WHERE %1 GROUP BY 1) t"_qs;
        QTest::newRow("renewals today")
            << u"renewals-today"_qs << totals.arg(utcDay(u"paid_at"_qs) + u" = "_qs + today);
        QTest::newRow("renewals this month")
            << u"renewals-month"_qs
            << totals.arg(u"date_trunc('month', "_qs + utcDay(u"paid_at"_qs)
                   + u") = date_trunc('month', "_qs + today + u")"_qs);
        QTest::newRow("open cases")
            << u"open-cases"_qs
            << u"SELECT count(*) || ' oldest ' || (SELECT id FROM reconciliation_cases WHERE "
               "status = 'open' ORDER BY first_seen_at, id LIMIT 1) FROM reconciliation_cases "
               "WHERE status = 'open'"_qs;
        QTest::newRow("outbox")
            << u"outbox"_qs
            << u"SELECT count(*) FILTER (WHERE last_error IS NULL) || ' pending ' || "
               "count(*) FILTER (WHERE last_error IS NOT NULL) || ' failing' "
               "FROM subscription_outbox WHERE published_at IS NULL"_qs;
        QTest::newRow("last delivery")
            << u"last-delivery"_qs << u"SELECT rd_rfc3339(max(received_at)) FROM webhook_inbox"_qs;
        QTest::newRow("overdue") << u"overdue"_qs << overdueSql(24);
    }

    void tilesMatchSql()
    {
        QFETCH(QString, tile);
        QFETCH(QString, expected);
        const QString want = sql(expected);
        const auto &f = m_page->figures();
        rd::ui::OverviewTile *t = m_page->tile(tile);
        QVERIFY(t);
        QStringList shown;
        for (QPushButton *b : t->figures())
            shown << QString(b->text()).replace(u'\n', u" · "_qs); // a list on lines
        if (tile == u"renewals-today" || tile == u"renewals-month") {
            const auto &totals = tile == u"renewals-today" ? f.renewalsToday : f.renewalsThisMonth;
            QCOMPARE(canonicalTotals(totals), want);
            // Each currency on a line of its own, as money, never added to another.
            QCOMPARE(shown.size(), totals.size());
            for (const auto &c : totals) {
                auto *line = t->findChild<QPushButton *>(
                    (tile == u"renewals-today" ? u"today-"_qs : u"month-"_qs) + c.currency);
                QVERIFY2(line, qPrintable(c.currency));
                QVERIFY2(line->text().startsWith(rd::ui::format::money(c.amountMinor, c.currency)),
                    qPrintable(line->text()));
                QVERIFY2(line->text().contains(QLocale().toString(c.renewals)),
                    qPrintable(line->text()));
            }
        } else if (tile == u"open-cases") {
            QCOMPARE(u"%1 oldest %2"_qs.arg(f.openCases).arg(f.oldestOpenCaseId), want);
            QCOMPARE(shown.value(0), QLocale().toString(f.openCases));
            QVERIFY2(shown.value(1).contains(u"case %1"_qs.arg(f.oldestOpenCaseId)),
                qPrintable(shown.value(1)));
        } else if (tile == u"outbox") {
            QCOMPARE(shown.mid(0, 2).join(u' '), want);
            // Intents were published (the fixture's), but no publisher is connected now.
            QVERIFY2(shown.value(2).startsWith(u"no publisher has run for "_qs),
                qPrintable(shown.value(2)));
        } else if (tile == u"overdue") {
            QCOMPARE(shown.join(u' '), want);
            QCOMPARE(f.overdueSubscriptions, 40); // not the one inside the grace, nor the others
        } else {
            QCOMPARE(f.lastDeliveryAt, rd::ui::format::instant(want));
            QCOMPARE(shown.value(0), u"%1 ago"_qs.arg(rd::ui::format::age(f.lastDeliveryAt)));
        }
    }

    void chartsMatchSql_data()
    {
        QTest::addColumn<QString>("chart");
        QTest::addColumn<bool>("byDay");
        QTest::addColumn<QString>("expected"); // SQL: lines "set|[day|]count" joined by ';'
        const QString from = utcDay(u"now()"_qs) + u" - 29"_qs;
        QTest::newRow("renewals per day by provider")
            << u"renewals-per-day"_qs << true
            << u"SELECT string_agg(provider_key || '|' || d || '|' || n, ';') FROM ("
               "SELECT provider_key, %1 d, count(*) n FROM subscription_billing_periods "
               "WHERE %1 >= %2 GROUP BY 1, 2) t"_qs.arg(utcDay(u"paid_at"_qs), from);
        QTest::newRow("deliveries by outcome")
            << u"deliveries"_qs << false
            << u"SELECT string_agg(o || '|' || n, ';') FROM (SELECT CASE coalesce(outcome, '') "
               "WHEN '' THEN 'not processed yet' WHEN 'not_a_renewal' THEN 'not a renewal' "
               "WHEN 'needs_snapshot' THEN 'needs snapshot' ELSE outcome END o, count(*) n "
               "FROM webhook_inbox WHERE %1 >= %2 GROUP BY 1) t"_qs.arg(
                   utcDay(u"received_at"_qs), from);
        QTest::newRow("cases opened and closed per day")
            << u"cases-per-day"_qs << true
            << u"SELECT string_agg(k || '|' || d || '|' || n, ';') FROM ("
               "SELECT 'opened' k, %1 d, count(*) n FROM reconciliation_cases WHERE %1 >= %3 "
               "GROUP BY 2 UNION ALL SELECT 'closed', %2, count(*) "
               "FROM reconciliation_cases WHERE %2 >= %3 GROUP BY 2) t"_qs.arg(
                   utcDay(u"first_seen_at"_qs), utcDay(u"resolved_at"_qs), from);
        QTest::newRow("open cases by age")
            << u"open-by-age"_qs << false
            << u"SELECT string_agg(b || '|' || n, ';') FROM (SELECT CASE "
               "WHEN now() - first_seen_at < interval '1 hour' THEN '< 1 h' "
               "WHEN now() - first_seen_at < interval '1 day' THEN '< 1 day' "
               "WHEN now() - first_seen_at < interval '7 days' THEN '< 1 week' "
               "ELSE 'older' END b, count(*) n FROM reconciliation_cases "
               "WHERE status = 'open' GROUP BY 1) t"_qs;
        QTest::newRow("open cases by reason")
            << u"open-by-reason"_qs << false
            << u"SELECT string_agg('open cases|' || n, ';') FROM (SELECT error_code, count(*) n "
               "FROM reconciliation_cases WHERE status = 'open' GROUP BY 1) t"_qs;
    }

    void chartsMatchSql()
    {
        QFETCH(QString, chart);
        QFETCH(bool, byDay);
        QFETCH(QString, expected);
        QStringList want = sql(expected).split(u';');
        want.sort();
        QChart *c = m_page->chart(chart);
        QVERIFY(c);
        QCOMPARE(barsOf(c, m_page->figures().firstDay, byDay), want);
    }

    /// Every figure and bar opens the list behind it: clicked where it is drawn, it asks for
    /// that list, once, with the right parameters.
    void clickOpensTheListBehind_data()
    {
        QTest::addColumn<QString>("target"); // a tile's figure, or "chart/set/index"
        QTest::addColumn<QString>("expected"); // the signal and its arguments, in words
        QTest::newRow("today in USD") << u"today-USD"_qs << u"ledger today tomorrow  USD"_qs;
        QTest::newRow("month in EUR") << u"month-EUR"_qs << u"ledger month tomorrow  EUR"_qs;
        QTest::newRow("open cases") << u"open-cases-count"_qs << u"cases  -1 -1"_qs;
        QTest::newRow("oldest case") << u"oldest-case"_qs << u"case oldest"_qs;
        QTest::newRow("outbox pending") << u"outbox-pending"_qs << u"outbox undelivered"_qs;
        QTest::newRow("outbox failing") << u"outbox-failing"_qs << u"outbox failed"_qs;
        QTest::newRow("overdue") << u"overdue-count"_qs << u"overdue"_qs;
        QTest::newRow("last delivery") << u"last-delivery-age"_qs << u"inbox  "_qs;
        QTest::newRow("invalid to review")
            << u"invalid-to-review"_qs << u"inbox invalid_to_review "_qs;
        QTest::newRow("renewals bar, paddle-eu today")
            << u"renewals-per-day/paddle-eu/29"_qs << u"ledger today tomorrow paddle-eu "_qs;
        QTest::newRow("renewals bar, stripe-main's first day")
            << u"renewals-per-day/stripe-main/first"_qs << u"ledger bar bar+1 stripe-main "_qs;
        QTest::newRow("deliveries rejected")
            << u"deliveries/rejected/-"_qs << u"inbox rejected 30 days"_qs;
        QTest::newRow("deliveries not processed")
            << u"deliveries/not processed yet/-"_qs << u"inbox unprocessed 30 days"_qs;
        QTest::newRow("cases opened, first day with some")
            << u"cases-per-day/opened/first"_qs << u"day first opened"_qs;
        QTest::newRow("cases closed, first day with some")
            << u"cases-per-day/closed/first"_qs << u"day first closed"_qs;
        QTest::newRow("age under an hour") << u"open-by-age/< 1 h/-"_qs << u"cases  -1 3600"_qs;
        QTest::newRow("age under a day") << u"open-by-age/< 1 day/-"_qs << u"cases  3600 86400"_qs;
        QTest::newRow("age under a week")
            << u"open-by-age/< 1 week/-"_qs << u"cases  86400 604800"_qs;
        QTest::newRow("age older") << u"open-by-age/older/-"_qs << u"cases  604800 -1"_qs;
        QTest::newRow("reason with most cases")
            << u"open-by-reason/open cases/last"_qs << u"cases top-reason -1 -1"_qs;
    }

    void clickOpensTheListBehind()
    {
        QFETCH(QString, target);
        QFETCH(QString, expected);
        using P = rd::ui::OverviewPage;
        const auto &f = m_page->figures();
        QStringList said;
        QDate firstDayWithBars;
        auto dayWord = [&](const QDate &d) {
            if (firstDayWithBars.isValid() && d == firstDayWithBars)
                return u"bar"_qs;
            if (firstDayWithBars.isValid() && d == firstDayWithBars.addDays(1))
                return u"bar+1"_qs;
            const qint64 n = f.todayUtc.daysTo(d);
            return n == 0 ? u"today"_qs : n == 1 ? u"tomorrow"_qs : u"today%1"_qs.arg(n);
        };
        std::vector<QMetaObject::Connection> links;
        links.push_back(connect(m_page.get(), &P::ledgerRequested, this,
            [&](const QDate &from, const QDate &to, const QString &provider, const QString &cur) {
                said << u"ledger %1 %2 %3 %4"_qs.arg(dayWord(from), dayWord(to), provider, cur);
            }));
        links.push_back(connect(m_page.get(), &P::openCasesRequested, this,
            [&](const QString &reason, qint64 min, qint64 max) {
                const bool top = !f.openByReason.isEmpty() && reason == f.openByReason[0].key;
                said << u"cases %1 %2 %3"_qs.arg(top ? u"top-reason"_qs : reason).arg(min).arg(max);
            }));
        links.push_back(connect(m_page.get(), &P::caseOpenRequested, this, [&](qint64 id) {
            said << (id == f.oldestOpenCaseId ? u"case oldest"_qs : u"case %1"_qs.arg(id));
        }));
        links.push_back(
            connect(m_page.get(), &P::casesOfDayRequested, this, [&](const QDate &d, bool closed) {
                said << u"day %1 %2"_qs.arg(d == firstDayWithBars ? u"first"_qs : d.toString(),
                    closed ? u"closed"_qs : u"opened"_qs);
            }));
        links.push_back(connect(m_page.get(), &P::inboxRequested, this,
            [&](const QString &o, const QString &r) { said << u"inbox %1 %2"_qs.arg(o, r); }));
        links.push_back(connect(m_page.get(), &P::outboxRequested, this,
            [&](const QString &s) { said << u"outbox "_qs + s; }));
        links.push_back(
            connect(m_page.get(), &P::overdueRequested, this, [&] { said << u"overdue"_qs; }));

        const QStringList parts = target.split(u'/');
        if (parts.size() == 1) {
            auto *button = m_page->findChild<QPushButton *>(target);
            QVERIFY2(button, qPrintable(target));
            QTest::mouseClick(button, Qt::LeftButton);
        } else {
            auto *view = m_page->findChild<QChartView *>(parts[0]);
            QVERIFY(view);
            QAbstractBarSeries *series = nullptr;
            QBarSet *set = nullptr;
            for (QAbstractSeries *s : view->chart()->series()) {
                if (auto *bars = qobject_cast<QAbstractBarSeries *>(s)) {
                    for (QBarSet *b : bars->barSets())
                        if (b->label() == parts[1]) {
                            series = bars;
                            set = b;
                        }
                }
            }
            QVERIFY2(set, qPrintable(parts[1]));
            int index = -1;
            if (parts[2] == u"-" || parts[2] == u"first") {
                // A bar below the line (cases closed) counts as much as one above it.
                for (int i = 0; i < set->count() && index < 0; ++i)
                    if (set->at(i) != 0)
                        index = i;
                firstDayWithBars = f.firstDay.addDays(index);
            } else if (parts[2] == u"last") {
                index = set->count() - 1;
            } else {
                index = parts[2].toInt();
            }
            QVERIFY2(index >= 0 && set->at(index) != 0, qPrintable(target));
            clickBar(view, series, set, index);
        }
        for (const auto &l : links)
            disconnect(l);
        // "month": the first of the UTC month, said as any other day.
        expected.replace(u"month"_qs, dayWord(QDate(f.todayUtc.year(), f.todayUtc.month(), 1)));
        QCOMPARE(said, QStringList {expected});
    }

    /// A day's bar of "cases opened and closed per day" lists that day's cases on the Cases
    /// page (the drill-down MainWindow wires to it): for every day of the chart, opened and
    /// closed, the cases listed are those SQL finds for that UTC day, as many as the bar says,
    /// in the order shown; the day shows in the filter bar, and clearing it lists every day.
    void casesOfADayAreThatDaysCases()
    {
        const auto &f = m_page->figures();
        auto actions = rd::ui::makeDomainCaseActions(QString::fromStdString(m_db->conninfo()));
        rd::ui::CasesPage cases(m_pool.get(), actions.get());
        QAbstractItemModelTester tester(
            cases.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto listed = [&] {
            QStringList ids;
            for (int r = 0; r < cases.model()->rowCount(); ++r)
                ids << cases.model()->row(r)[rd::ui::CasesPage::Id].toString();
            return ids.join(u',');
        };
        auto *chip = cases.findChild<QToolButton *>(u"case-day"_qs);
        QVERIFY(chip);
        int days = 0;
        for (const QString &key : {u"opened"_qs, u"closed"_qs}) {
            const bool closed = key == u"closed";
            const QString at = closed ? u"resolved_at"_qs : u"first_seen_at"_qs;
            for (int i = 0; i < rd::ui::kOverviewDays; ++i) {
                const QDate day = f.firstDay.addDays(i);
                qint64 bar = 0;
                for (const auto &d : f.casesPerDay)
                    if (d.key == key && d.day == day)
                        bar = d.count;
                const QString from = day.toString(Qt::ISODate) + u"T00:00:00Z"_qs;
                const QString to = day.addDays(1).toString(Qt::ISODate) + u"T00:00:00Z"_qs;
                const QString want = sql(u"SELECT coalesce(string_agg(id::text, ',' ORDER BY %1), "
                                         "'') FROM reconciliation_cases WHERE %2 >= '%3' AND %2 "
                                         "< '%4'"_qs.arg(closed ? u"last_seen_at DESC, id"_qs
                                                                : u"first_seen_at DESC, id DESC"_qs,
                                             at, from, to));
                QCOMPARE(qint64(want.isEmpty() ? 0 : want.count(u',') + 1), bar);
                if (bar > 0)
                    ++days;
                cases.showCasesOfDay(day, closed);
                QCOMPARE(cases.dayUtc(), day);
                QCOMPARE(cases.scope(), rd::ui::CasesPage::Scope::All);
                QTRY_COMPARE_WITH_TIMEOUT(listed(), want, 15000);
                QVERIFY(!chip->isHidden());
                QVERIFY2(chip->text().contains(QLocale().toString(day, u"d MMM yyyy"_qs))
                        && chip->text().startsWith(closed ? u"Closed"_qs : u"Opened"_qs),
                    qPrintable(chip->text()));
            }
        }
        QVERIFY2(days >= 8, "the fixture has cases opened and closed on several days");
        // ✕ clears the day: every case again, the newest (or last seen) first.
        QTest::mouseClick(chip, Qt::LeftButton);
        QVERIFY(!cases.dayUtc().isValid());
        QVERIFY(chip->isHidden());
        QTRY_COMPARE_WITH_TIMEOUT(listed(),
            sql(u"SELECT string_agg(id::text, ',' ORDER BY last_seen_at DESC, id) "
                "FROM reconciliation_cases"_qs),
            15000);
    }

    /// The Overview in a 1024×700 window (and at the test's 1400×900): no axis label of any
    /// chart is elided ("…") or cut at the chart's edge (the last day read "2" for "25"), and
    /// the bars of "cases opened and closed" are wide enough to see and to aim at.
    void chartsStayReadable_data()
    {
        QTest::addColumn<QSize>("pageSize");
        QTest::addColumn<int>("minBarPx");
        // What a 1024×700 window leaves the page (the sidebar, the menus, the status bar).
        QTest::newRow("1024x700") << QSize(850, 640) << 4;
        QTest::newRow("1600x1000") << QSize(1400, 900) << 7;
    }

    void chartsStayReadable()
    {
        QFETCH(QSize, pageSize);
        QFETCH(int, minBarPx);
        rd::ui::OverviewPage page(m_pool.get());
        page.resize(pageSize);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(QTest::qWaitFor([&] { return page.isLoaded(); }, 15000));
        QTest::qWait(200); // the charts lay out their axes
        // Every tile whole, without scrolling sideways: at 1024 pixels they take two rows.
        auto *scroll = page.findChild<QScrollArea *>(u"overview-scroll"_qs);
        QVERIFY(scroll);
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);
        for (const char *name : {"renewals-today", "renewals-month", "open-cases", "overdue",
                 "outbox", "last-delivery"}) {
            const QWidget *t = page.tile(QLatin1String(name));
            QVERIFY2(t, name);
            QVERIFY2(t->width() >= t->minimumSizeHint().width(), name);
        }
        const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(page.grab().save(
                dir + u"/overview-%1x%2.png"_qs.arg(pageSize.width()).arg(pageSize.height())));
        for (auto *view : page.findChildren<QChartView *>()) {
            // The chart's white background: its geometry less its layout's margins (what is
            // drawn outside it reads as cut off).
            qreal left = 0, top = 0, right = 0, bottom = 0;
            view->chart()->layout()->getContentsMargins(&left, &top, &right, &bottom);
            const QRectF chartRect
                = view->chart()->sceneBoundingRect().adjusted(left, top, -right, -bottom);
            int labels = 0;
            for (QGraphicsItem *item : view->scene()->items()) {
                auto *text = dynamic_cast<QGraphicsTextItem *>(item);
                if (!text || !text->isVisible() || text->toPlainText().isEmpty())
                    continue;
                ++labels;
                const QString label = text->toPlainText();
                // Qt Charts elides with "...".
                QVERIFY2(!label.contains(u'…') && !label.contains(u"..."_qs),
                    qPrintable(view->objectName() + u": "_qs + label));
                const QRectF at = text->sceneBoundingRect();
                // Whole within the chart (a pixel of anti-aliasing aside).
                QVERIFY2(chartRect.adjusted(-1, -1, 1, 1).contains(at),
                    qPrintable(
                        u"%1: \"%2\" at %3,%4 %5x%6 outside %7x%8"_qs.arg(view->objectName(), label)
                            .arg(at.x())
                            .arg(at.y())
                            .arg(at.width())
                            .arg(at.height())
                            .arg(chartRect.width())
                            .arg(chartRect.height())));
            }
            QVERIFY2(labels > 3, qPrintable(view->objectName()));
        }
        // The last day's label is today's number, whole, and the axis names the months.
        auto *cases = page.findChild<QChartView *>(u"cases-per-day"_qs);
        QVERIFY(cases);
        QStringList shown;
        for (QGraphicsItem *item : cases->scene()->items())
            if (auto *text = dynamic_cast<QGraphicsTextItem *>(item))
                shown << text->toPlainText();
        const QString today = QLocale().toString(page.figures().todayUtc, u"d"_qs);
        QVERIFY2(shown.contains(today), qPrintable(shown.join(u" | "_qs)));
        const QString months = QLocale().toString(page.figures().firstDay, u"d MMM"_qs) + u" – "_qs
            + QLocale().toString(page.figures().todayUtc, u"d MMM"_qs) + u" (UTC)"_qs;
        QVERIFY2(shown.contains(months), qPrintable(shown.join(u" | "_qs)));

        // Each day's bar as wide as the day allows, and a click anywhere in the day's column
        // opens that day's cases: opened above the line, closed below it.
        auto *series = qobject_cast<QAbstractBarSeries *>(cases->chart()->series().value(0));
        QVERIFY(series);
        const qreal dayPx = cases->chart()->mapToPosition(QPointF(1, 0), series).x()
            - cases->chart()->mapToPosition(QPointF(0, 0), series).x();
        const bool stacked = qobject_cast<QStackedBarSeries *>(series);
        const qreal barPx = series->barWidth() * dayPx / (stacked ? 1 : series->count());
        QVERIFY2(barPx >= minBarPx, qPrintable(u"%1 px"_qs.arg(barPx)));
        QStringList asked;
        connect(&page, &rd::ui::OverviewPage::casesOfDayRequested, this,
            [&](const QDate &day, bool closed) {
                asked << day.toString(Qt::ISODate) + (closed ? u" closed"_qs : u" opened"_qs);
            });
        const QRectF plot = cases->chart()->plotArea();
        const int index = rd::ui::kOverviewDays - 3;
        const qreal x = cases->chart()->mapToPosition(QPointF(index, 0), series).x();
        for (const qreal y : {plot.top() + 3, plot.bottom() - 3}) {
            const QPoint at
                = cases->mapFromScene(cases->chart()->mapToScene(QPointF(x + dayPx * 0.3, y)));
            QTest::mouseClick(cases->viewport(), Qt::LeftButton, {}, at);
        }
        const QString day = page.figures().firstDay.addDays(index).toString(Qt::ISODate);
        QCOMPARE(asked, QStringList({day + u" opened"_qs, day + u" closed"_qs}));
    }

    /// A click anywhere on the Overdue tile opens the overdue list, not only on its figure;
    /// every tile that opens something says so by the pointer, and its figure is reached by
    /// Tab.
    void wholeTileOpens()
    {
        rd::ui::OverviewPage page(m_pool.get());
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(QTest::qWaitFor([&] { return page.isLoaded(); }, 15000));
        QTest::qWait(50); // the figures cleared and added again have settled
        QSignalSpy overdue(&page, &rd::ui::OverviewPage::overdueRequested);
        auto *figure = page.findChild<QPushButton *>(u"overdue-count"_qs);
        QVERIFY(figure);
        auto *tile = qobject_cast<rd::ui::OverviewTile *>(figure->parentWidget());
        QVERIFY(tile);
        QCOMPARE(tile->opens(), figure);
        QCOMPARE(tile->cursor().shape(), Qt::PointingHandCursor);
        // Below the figure, in the tile's margin; then on its title.
        QTest::mouseClick(tile, Qt::LeftButton, {}, QPoint(tile->width() / 2, tile->height() - 3));
        QCOMPARE(overdue.count(), 1);
        QTest::mouseClick(tile, Qt::LeftButton, {}, QPoint(12, 8));
        QCOMPARE(overdue.count(), 2);
        int opening = 0;
        for (auto *t : page.findChildren<rd::ui::OverviewTile *>()) {
            if (!t->opens())
                continue;
            ++opening;
            QCOMPARE(t->cursor().shape(), Qt::PointingHandCursor);
            QVERIFY2(t->opens()->focusPolicy() & Qt::TabFocus, qPrintable(t->title()));
        }
        QVERIFY(opening >= 4);
    }

    /// A bar's tooltip goes with the page: it floated over the list a click opened.
    void tooltipsGoWithThePage()
    {
        rd::ui::OverviewPage page(m_pool.get());
        page.resize(1400, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(QTest::qWaitFor([&] { return page.isLoaded(); }, 15000));
        for (const QString &name : {u"renewals-per-day"_qs, u"cases-per-day"_qs,
                 u"open-by-reason"_qs, u"open-by-age"_qs, u"deliveries"_qs}) {
            QChart *chart = page.chart(name);
            auto *series = qobject_cast<QAbstractBarSeries *>(chart->series().value(0));
            QVERIFY(series);
            QBarSet *set = series->barSets().value(0);
            QVERIFY(set);
            int index = 0;
            while (index + 1 < set->count() && set->at(index) == 0)
                ++index;
            emit set->hovered(true, index); // the pointer over the bar
            QTRY_VERIFY2(QToolTip::isVisible(), qPrintable(name));
            QVERIFY2(!QToolTip::text().isEmpty(), qPrintable(name));
            emit set->hovered(false, index); // and off it
            QTRY_VERIFY_WITH_TIMEOUT(!QToolTip::isVisible(), 2000);
            emit set->hovered(true, index);
            QTRY_VERIFY(QToolTip::isVisible());
            // Words, never a code (the reasons' tip said "renewal_period_is_not_contiguous").
            QVERIFY2(!QToolTip::text().contains(u'_'), qPrintable(QToolTip::text()));
            page.hide(); // a click opened another page
            // Gone at once, not faded out over the next page.
            QVERIFY2(!QToolTip::isVisible(), qPrintable(name));
            // A hover that arrives after the page went shows nothing.
            emit set->hovered(true, index);
            QVERIFY2(!QToolTip::isVisible(), qPrintable(name));
            page.show();
        }
    }

    /// A renewal committed by another process (`renewalctl apply`) shows on the shown page
    /// without a refresh: today's count of its currency, and the outbox's pending intents.
    /// The desk's grace (set on the Subscriptions page) replaces every provider's: the tile
    /// counts with it at the next poll, and says so.
    void theDesksGraceCountsEverywhere()
    {
        auto shown = [&] {
            QStringList s;
            for (QPushButton *b : m_page->tile(u"overdue"_qs)->figures())
                s << QString(b->text()).replace(u'\n', u" · "_qs);
            return s.join(u' ');
        };
        rd::ui::setOverdueGraceHoursSetting(0);
        const QString withZero = sql(overdueSql(0));
        QVERIFY(withZero != sql(overdueSql(24))); // sub_inside counts now
        QVERIFY2(QTest::qWaitFor([&] { return shown() == withZero; }, 15000), qPrintable(shown()));
        QCOMPARE(m_page->figures().overdueGraceHours, std::optional<int>(0));
        auto tip = [&] { return m_page->findChild<QPushButton *>(u"overdue-count"_qs)->toolTip(); };
        QVERIFY2(tip().contains(u"more than a grace of 0 h (the desk's setting) ago"_qs),
            qPrintable(tip()));
        rd::ui::setOverdueGraceHoursSetting(std::nullopt);
        QVERIFY2(QTest::qWaitFor([&] { return shown() == sql(overdueSql(24)); }, 15000),
            qPrintable(shown()));
        QVERIFY2(tip().contains(u"more than each provider's grace ago"_qs), qPrintable(tip()));
    }

    /// #28 item 23: invalid deliveries open no case; the Overview counts those nobody has
    /// reviewed (the fixture reviewed three), in red, and the figure opens them in the Inbox.
    void invalidDeliveriesToReviewAreCounted()
    {
        const qint64 want = sql(u"SELECT count(*) FROM webhook_inbox w WHERE w.outcome = "
                                "'invalid' AND w.id NOT IN (SELECT inbox_id FROM "
                                "webhook_inbox_reviews)"_qs)
                                .toLongLong();
        QVERIFY(want > 0);
        QCOMPARE(m_page->figures().invalidToReview, want);
        QVERIFY(want
            < sql(u"SELECT count(*) FROM webhook_inbox WHERE outcome = 'invalid'"_qs).toLongLong());
        auto *figure = m_page->findChild<QPushButton *>(u"invalid-to-review"_qs);
        QVERIFY(figure);
        QCOMPARE(figure->text(), u"%1 invalid to review"_qs.arg(want));
    }

    void followsARenewalCommittedElsewhere()
    {
        const auto &f = m_page->figures();
        const qint64 before = usdToday();
        const qint64 pendingBefore = f.outboxPending;
        rdtest::importSubscriptions(
            m_db->conninfo(), rdtest::subscriptionLine("stripe-main", "sub_live"));
        rd::SuccessfulRenewalEvent e = rdtest::februaryRenewal("sub_live", "evt_live", "in_live");
        e.paidAt = rd::Timestamp::now();
        const auto applied = rdtest::runProgram(rdtest::ctl(),
            {u"apply"_qs, u"--db"_qs, QString::fromStdString(m_db->conninfo())},
            QByteArray::fromStdString(rd::toJson(e).dump() + "\n"));
        QCOMPARE(applied.exitCode, 0);
        QVERIFY2(QTest::qWaitFor([&] { return usdToday() == before + 1; }, 15000),
            qPrintable(QString::number(usdToday())));
        QCOMPARE(m_page->figures().outboxPending, pendingBefore + 1);
        auto *line = m_page->findChild<QPushButton *>(u"today-USD"_qs);
        QVERIFY(line);
        QVERIFY2(line->text().contains(QLocale().toString(before + 1)), qPrintable(line->text()));
    }

    /// #28 item 11: `renewalctl simulate --live` pays today's renewals now, against the
    /// subscriptions it writes for import: delivered, "Renewals today" moves by as many.
    void liveSimulationMovesRenewalsToday()
    {
        const qint64 before = usdToday();
        rd::DemoOptions options;
        options.subscriptions = 4;
        options.months = 2;
        options.seed = 3;
        options.now = rd::Timestamp::now();
        options.live = true;
        const std::vector<std::pair<std::string, rd::ProviderKind>> stripe {
            {"stripe-main", rd::ProviderKind::Stripe}};
        const auto set = rd::buildSimulationSet(stripe, options);
        rdtest::importSubscriptions(m_db->conninfo(), set.subscriptionLines);
        rd::WebhookIngestor ingestor(m_db->conninfo());
        qint64 applied = 0;
        for (const auto &p : set.payloads) {
            const auto r = ingestor.ingest(p.providerKey, p.body);
            if (r.outcome == rd::IngestOutcome::Applied)
                ++applied;
            else
                QVERIFY2(p.scenario != "renewal", rd::toString(r.outcome).data());
        }
        QCOMPARE(applied, qint64(options.subscriptions));
        QVERIFY2(QTest::qWaitFor([&] { return usdToday() == before + applied; }, 15000),
            qPrintable(QString::number(usdToday())));
    }

    /// #28 item 11: the outbox tile says whether a publisher runs; "publisher running" while
    /// `renewalctl outbox publish --follow` is connected (it publishes the fixture's intents:
    /// the last test).
    void theOutboxTileSaysWhetherAPublisherRuns()
    {
        auto shown = [&] {
            auto *f = m_page->findChild<QPushButton *>(u"outbox-publisher"_qs);
            return f ? f->text() : QString();
        };
        QVERIFY2(shown().startsWith(u"no publisher has run for"_qs), qPrintable(shown()));
        QProcess publisher;
        publisher.start(rdtest::ctl(),
            {u"outbox"_qs, u"publish"_qs, u"--follow"_qs, u"--jsonl"_qs, u"/dev/null"_qs,
                u"--db"_qs, QString::fromStdString(m_db->conninfo())});
        QVERIFY(publisher.waitForStarted());
        QVERIFY2(QTest::qWaitFor([&] { return shown() == u"publisher running"_qs; }, 15000),
            qPrintable(shown()));
        publisher.terminate();
        QVERIFY(publisher.waitForFinished(10000));
        QVERIFY2(
            QTest::qWaitFor([&] { return shown() == u"no publisher has run for 0 min"_qs; }, 15000),
            qPrintable(shown()));
    }

    // Money back this month (#40): the month's USD line says its net beside its gross, by the
    // refund's own day, and follows the refund as it is committed elsewhere. Last: the refund
    // stays (money back is never removed).
    void netBesideGrossOnceMoneyWentBack()
    {
        const auto usdMonth = [&] {
            for (const auto &t : m_page->figures().renewalsThisMonth)
                if (t.currency == u"USD")
                    return t;
            return rd::ui::CurrencyTotal {};
        };
        const rd::ui::CurrencyTotal before = usdMonth();
        QVERIFY(before.renewals > 0);
        QCOMPARE(before.moneyBackMinor, 0LL);
        auto conn = m_db->connect();
        {
            pqxx::work tx(*conn);
            const auto renewal = tx.exec1(
                "SELECT provider_key, provider_renewal_key FROM subscription_billing_periods "
                "WHERE currency = 'USD' AND paid_at >= date_trunc('month', now() AT TIME ZONE "
                "'UTC') AT TIME ZONE 'UTC' ORDER BY paid_at LIMIT 1");
            const auto answer = tx.exec_params1(
                "SELECT result FROM record_money_movements(jsonb_build_object("
                "'providerKey', $1::text, 'providerEventId', 'evt_overview_back', "
                "'providerSubscriptionId', NULL, 'movements', jsonb_build_array("
                "jsonb_build_object('movementKey', 're_overview', 'kind', "
                "'refund', 'amountMinor', 150, 'currency', 'USD', 'occurredAt', "
                "rd_rfc3339(now()), 'renewalRefs', jsonb_build_array($2::text)))), "
                "'cli', 'test')",
                renewal[0].as<std::string>(), renewal[1].as<std::string>());
            QCOMPARE(answer[0].as<std::string>(), std::string("recorded"));
            tx.commit();
        }
        QVERIFY2(QTest::qWaitFor([&] { return usdMonth().moneyBackMinor == 150; }, 15000),
            qPrintable(QString::number(usdMonth().moneyBackMinor)));
        QCOMPARE(usdMonth().amountMinor, before.amountMinor); // gross unchanged
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         auto *net = m_page->findChild<QPushButton *>(u"month-net-USD"_qs);
                         return net && net->isVisible()
                             && net->text()
                             == u"net "_qs
                                 + rd::ui::format::money(before.amountMinor - 150, u"USD"_qs);
                     },
                     15000),
            "no net line under the month's USD");
        // At what a 1024-pixel window leaves the page, the tiles still fit without scrolling
        // sideways.
        const QSize was = m_page->size();
        m_page->resize(850, 640);
        QTest::qWait(200);
        auto *scroll = m_page->findChild<QScrollArea *>(u"overview-scroll"_qs);
        QVERIFY(scroll);
        QCOMPARE(scroll->horizontalScrollBar()->maximum(), 0);
        const QString dir = qEnvironmentVariable("RD_SCREENSHOT_DIR");
        if (!dir.isEmpty())
            QVERIFY(m_page->grab().save(dir + u"/overview-money-back-850x640.png"_qs));
        m_page->resize(was);
    }
};

QTEST_MAIN(TestUiOverviewPage)
#include "tst_ui_overviewpage.moc"
