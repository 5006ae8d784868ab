#pragma once

#include <QMetaType>
#include <QSqlDatabase>
#include <QString>
#include <QVector>

namespace rd::ui {

/// One thing an id pasted into Find anything (Ctrl+K) names, and where the desk shows it.
struct FoundItem
{
    enum class Kind {
        Subscription, ///< opens the subscription
        BillingPeriod, ///< opens its subscription with this billing period selected
        Case, ///< opens the case
        Delivery, ///< opens the inbox delivery
    };
    Kind kind = Kind::Subscription;
    QString subscriptionUuid; ///< Subscription, BillingPeriod
    QString billingPeriodId; ///< BillingPeriod
    qint64 caseId = 0; ///< Case
    qint64 deliveryId = 0; ///< Delivery
    QString title; ///< "Subscription sub_1Pq (stripe-main)", "Case 42 · payload conflict"
    QString detail; ///< what else tells it apart: status, period, amount, when
    QString matchedBy; ///< "its provider event id": which of its ids was pasted
};

/// What was pasted, read: trimmed, one pair of surrounding quotes dropped; "case 42", "#42"
/// name a case only; a bare number may be a case, a delivery or any text id.
struct FindQuery
{
    QString typed; ///< as typed: what find_anything reads, as `renewalctl find` hands it
    QString text; ///< the id as it will be compared (empty when `error` is set)
    bool caseOnly = false; ///< "case 42" / "#42"
    qint64 number = -1; ///< the case or delivery number, when the text is one
    QString uuid; ///< lower-case, when the text is a uuid (ours: subscriptions, periods)
    bool email = false; ///< has an '@': also a customer's e-mail address (#42)
    QString error; ///< why nothing can be looked up ("an id has no line breaks")
};

/// The longest text looked up: longer than every id a provider or the desk hands out (an
/// inbox key is "sha256:" and 64 hex digits), short enough to say at once what is wrong.
inline constexpr int kMaxFindLength = 255;

/// The most matches listed.
inline constexpr int kMaxFound = 50;

FindQuery parseFindText(const QString &typed);

/// Every match of `query` (at most kMaxFound), subscriptions first, then billing periods and
/// failed payments, cases and deliveries: the database's find_anything, which `renewalctl find`
/// runs too. Each kind of id is one index probe per provider (the provider keys found by a loose
/// index scan), whatever the server's collation; an e-mail address is looked up by its keyed
/// hash: see docs/desk.md. Throws rd::DatabaseFailure. Runs on a pool thread.
QVector<FoundItem> findAnything(QSqlDatabase &db, const FindQuery &query);

} // namespace rd::ui

Q_DECLARE_METATYPE(rd::ui::FoundItem)
