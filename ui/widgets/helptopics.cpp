#include "ui/widgets/helptopics.h"

#include "ui/widgets/auditlogpage.h"
#include "ui/widgets/casespage.h"
#include "ui/widgets/inboxpage.h"
#include "ui/widgets/ledgerpage.h"
#include "ui/widgets/outboxpage.h"
#include "ui/widgets/overviewpage.h"
#include "ui/widgets/subscriptionspage.h"

namespace rd::ui {

const QList<HelpTopic> &helpTopics()
{
    // The anchors are the GitHub slugs of the guide's headings, so that a link to
    // docs/user-guide.md#cases works on the web page as in the desk.
    static const QList<HelpTopic> topics {
        {&OverviewPage::staticMetaObject, "overview"},
        {&SubscriptionsPage::staticMetaObject, "subscriptions"},
        {&LedgerPage::staticMetaObject, "ledger"},
        {&CasesPage::staticMetaObject, "cases"},
        {&AuditLogPage::staticMetaObject, "audit-log"},
        {&InboxPage::staticMetaObject, "inbox"},
        {&OutboxPage::staticMetaObject, "outbox"},
    };
    return topics;
}

QString helpAnchorFor(const QWidget *page)
{
    if (!page)
        return {};
    for (const HelpTopic &topic : helpTopics())
        if (page->metaObject() == topic.page)
            return QString::fromLatin1(topic.anchor);
    return {};
}

} // namespace rd::ui
