#include "ui/models/comparisonmodel.h"
#include "ui/models/snapshotdiff.h"
#include "ui/models/snapshotinput.h"

#include "domain/core/errors.h"

#include <QAbstractItemModelTester>
#include <QtTest>

namespace {

qint64 at(const char *rfc3339)
{
    return rd::parseRfc3339(rfc3339)->micros;
}

/// The desk holds: active, January 2026, renews, version v1, January's renewal in_0 recorded.
rd::ui::CaseSubscription januarySubscription()
{
    rd::ui::LocalSubscription local;
    local.status = u"active"_qs;
    local.periodStartMicros = at("2026-01-01T00:00:00Z");
    local.periodEndMicros = at("2026-02-01T00:00:00Z");
    local.providerVersion = u"v1"_qs;
    local.revision = 3;
    local.latestRenewal = rd::ui::LocalSubscription::Renewal {
        u"in_0"_qs, at("2026-01-01T00:00:00Z"), at("2026-02-01T00:00:00Z"), 1999, u"USD"_qs};
    return {u"stripe-main"_qs, u"sub_1"_qs, local};
}

rd::SuccessfulRenewalEvent renewal(
    const char *key, const char *start, const char *end, std::int64_t amount = 1999)
{
    rd::SuccessfulRenewalEvent e;
    e.providerKey = "stripe-main";
    e.providerEventId = "evt_" + std::string(key);
    e.providerSubscriptionId = "sub_1";
    e.providerRenewalKey = key;
    e.period = {*rd::parseRfc3339(start), *rd::parseRfc3339(end)};
    e.paidAmountMinor = amount;
    e.currency = "USD";
    e.paidAt = *rd::parseRfc3339(start);
    return e;
}

/// A snapshot that agrees with januarySubscription() in every field.
rd::ProviderSnapshot agreeingSnapshot()
{
    rd::ProviderSnapshot s;
    s.providerKey = "stripe-main";
    s.providerSubscriptionId = "sub_1";
    s.status = "active";
    s.currentPeriod = rd::Period {
        *rd::parseRfc3339("2026-01-01T00:00:00Z"), *rd::parseRfc3339("2026-02-01T00:00:00Z")};
    s.providerVersion = "v1";
    s.capturedAt = *rd::parseRfc3339("2026-01-15T10:00:00Z");
    return s;
}

using Change = std::function<void(rd::ui::CaseSubscription &, rd::ProviderSnapshot &)>;

} // namespace

Q_DECLARE_METATYPE(Change)

/// The preview of "Attach provider snapshot": what the diff calls a change is what
/// attach_provider_snapshot() changes. What it refuses is the database's preview's to say
/// (tst_ui_reapply drives the dialog against the database).
class TestUiSnapshotPreview : public QObject
{
    Q_OBJECT

private slots:
    void diff_data()
    {
        QTest::addColumn<Change>("change");
        QTest::addColumn<QStringList>("changed");
        QTest::addColumn<bool>("creates");

        const Change none = [](auto &, auto &) {};
        QTest::newRow("identical") << none << QStringList {} << false;
        QTest::newRow("status") << Change([](auto &, auto &s) { s.status = "past_due"; })
                                << QStringList {u"status"_qs} << false;
        QTest::newRow("cancel flag") << Change([](auto &, auto &s) { s.cancelAtPeriodEnd = true; })
                                     << QStringList {u"cancels at period end"_qs} << false;
        QTest::newRow("period moved on") << Change([](auto &, auto &s) {
            s.currentPeriod = rd::Period {*rd::parseRfc3339("2026-02-01T00:00:00Z"),
                *rd::parseRfc3339("2026-03-01T00:00:00Z")};
        }) << QStringList {u"period start"_qs, u"period end"_qs}
                                         << false;
        QTest::newRow("period end only, to the microsecond")
            << Change([](auto &, auto &s) { s.currentPeriod->end.micros += 1; })
            << QStringList {u"period end"_qs} << false;
        QTest::newRow("canceled, no period") << Change([](auto &, auto &s) {
            s.status = "canceled";
            s.currentPeriod.reset();
        }) << QStringList {u"status"_qs, u"period start"_qs, u"period end"_qs}
                                             << false;
        QTest::newRow("provider version")
            << Change([](auto &, auto &s) { s.providerVersion = "v2"; })
            << QStringList {u"provider version"_qs} << false;
        QTest::newRow("no version keeps ours")
            << Change([](auto &, auto &s) { s.providerVersion.reset(); }) << QStringList {}
            << false;
        QTest::newRow("local has no version")
            << Change([](auto &c, auto &) { c.local->providerVersion = QString(); })
            << QStringList {u"provider version"_qs} << false;
        QTest::newRow("new latest renewal") << Change([](auto &, auto &s) {
            s.latestRenewal = renewal("in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z");
        }) << QStringList {u"latest renewal"_qs}
                                            << false;
        QTest::newRow("latest renewal already recorded") << Change([](auto &, auto &s) {
            s.latestRenewal = renewal("in_0", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z");
        }) << QStringList {} << false;
        // Under a key already recorded the renewal is no new billing period, whatever its
        // amount: whether the database accepts a conflicting one is its preview's verdict
        // (tst_ui_reapply), not the diff's.
        QTest::newRow("latest renewal under a recorded key") << Change([](auto &, auto &s) {
            s.latestRenewal = renewal("in_0", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", 2400);
        }) << QStringList {} << false;
        // The capture time changes no field.
        QTest::newRow("captured long ago") << Change([](auto &, auto &s) {
            s.capturedAt = *rd::parseRfc3339("2020-01-01T00:00:00Z");
        }) << QStringList {} << false;
        QTest::newRow("not in the desk")
            << Change([](auto &c, auto &) { c.local.reset(); })
            << QStringList {u"status"_qs, u"cancels at period end"_qs, u"period start"_qs,
                   u"period end"_qs, u"provider version"_qs}
            << true;
    }

    void diff()
    {
        QFETCH(Change, change);
        QFETCH(QStringList, changed);
        QFETCH(bool, creates);
        auto subject = januarySubscription();
        auto snapshot = agreeingSnapshot();
        change(subject, snapshot);
        const auto diff = rd::ui::diffSnapshot(subject, snapshot);
        QCOMPARE(diff.changedFields(), changed);
        QCOMPARE(diff.createsSubscription, creates);
        // Every field attach_provider_snapshot() can touch has its line, changed or not.
        QCOMPARE(diff.lines.size(), 6);
    }

    void linesReadLikeTheDesk()
    {
        auto snapshot = agreeingSnapshot();
        snapshot.status = "past_due";
        snapshot.latestRenewal = renewal("in_1", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z");
        const auto diff = rd::ui::diffSnapshot(januarySubscription(), snapshot);
        const auto &status = diff.lines.at(0);
        QCOMPARE(status.field, u"status"_qs);
        QCOMPARE(status.local, u"active"_qs);
        QCOMPARE(status.other, u"past_due"_qs);
        QCOMPARE(status.note, u"changes"_qs);
        const auto &latest = diff.lines.at(5);
        QCOMPARE(latest.local, u"in_0 · 1 Jan → 1 Feb 2026 · $19.99"_qs);
        QCOMPARE(latest.other, u"in_1 · 1 Feb → 1 Mar 2026 · $19.99"_qs);
        QCOMPARE(latest.note, u"new billing period"_qs);
        // Times carry UTC in the tooltip, as everywhere in the desk.
        QVERIFY2(diff.lines.at(2).localTooltip.contains(u"UTC"_qs),
            qPrintable(diff.lines.at(2).localTooltip));

        rd::ui::ComparisonModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setLines(u"current (local)"_qs, u"snapshot"_qs, diff.lines);
        QCOMPARE(model.rowCount(), 6);
        QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), u"current (local)"_qs);
        QCOMPARE(
            model.index(0, rd::ui::ComparisonModel::NoteColumn).data().toString(), u"◀ changes"_qs);
        // Changed lines are highlighted, unchanged ones are not.
        QVERIFY(model.index(0, 1).data(Qt::BackgroundRole).isValid());
        QVERIFY(!model.index(1, 1).data(Qt::BackgroundRole).isValid());
    }

    void readsWhatOperatorsPaste_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("error"); // empty: read
        QTest::addColumn<QString>("status");

        QTest::newRow("not JSON") << u"{\"status\": "_qs << u"body"_qs << QString();
        QTest::newRow("an array") << u"[1, 2]"_qs << u"expected a JSON object"_qs << QString();
        QTest::newRow("ours, end before start")
            << u"{\"providerKey\":\"stripe-main\",\"providerSubscriptionId\":\"sub_1\","
               "\"status\":\"active\",\"currentPeriod\":{\"start\":\"2026-02-01T00:00:00Z\","
               "\"end\":\"2026-01-01T00:00:00Z\"},\"cancelAtPeriodEnd\":false,"
               "\"providerVersion\":null,\"capturedAt\":\"2026-01-05T00:00:00Z\","
               "\"latestRenewal\":null}"_qs
            << u"currentPeriod.end"_qs << QString();
        QTest::newRow("Stripe, told by its shape")
            << u"{\"id\":\"sub_1\",\"object\":\"subscription\",\"status\":\"unpaid\","
               "\"cancel_at_period_end\":false,\"current_period_start\":1767225600,"
               "\"current_period_end\":1769904000}"_qs
            << QString() << u"past_due"_qs;
        QTest::newRow("Stripe without a status")
            << u"{\"id\":\"sub_1\",\"object\":\"subscription\",\"cancel_at_period_end\":false}"_qs
            << u"status"_qs << QString();
        QTest::newRow("something else")
            << u"{\"id\":\"x\"}"_qs << u"not a snapshot in Renewal Desk's form"_qs << QString();
    }

    void readsWhatOperatorsPaste()
    {
        QFETCH(QString, text);
        QFETCH(QString, error);
        QFETCH(QString, status);
        try {
            const auto s = rd::ui::readSnapshotText(
                text.toStdString(), "stripe-main", std::nullopt, rd::Timestamp::now());
            QVERIFY2(error.isEmpty(), "read a snapshot that should have been refused");
            QCOMPARE(QString::fromStdString(s.status), status);
            QCOMPARE(s.providerKey, std::string("stripe-main"));
        } catch (const rd::InputError &e) {
            QVERIFY2(!error.isEmpty(), e.what());
            QVERIFY2(QString::fromUtf8(e.what()).contains(error), e.what());
        }
    }
};

QTEST_MAIN(TestUiSnapshotPreview)
#include "tst_ui_snapshotpreview.moc"
