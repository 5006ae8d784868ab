#include "ui/models/caserow.h"

namespace rd::ui {

const QString &caseRowSelect()
{
    static const QString select = uR"(SELECT c.id, c.error_code, c.provider_key,
        c.provider_subscription_id, c.provider_renewal_key, rd_rfc3339(c.first_seen_at),
        rd_rfc3339(c.last_seen_at), c.occurrences, coalesce(c.subscription_id::text, ''),
        jsonb_pretty(c.event), c.event::text, c.local_state::text, c.first_provider_event_id,
        c.last_provider_event_id,
        CASE WHEN c.status = 'open' THEN 'open'
             WHEN c.resolved_by = 'system' THEN 're-applied automatically'
             ELSE replace(coalesce(c.resolution, c.status), '_', ' ') || ' by '
                  || coalesce(c.resolved_by, '?') END,
        c.status = 'open', coalesce(c.assigned_to, ''), rd_rfc3339(c.assigned_at),
        c.status = 'dismissed',
        CASE WHEN c.status = 'dismissed' THEN coalesce((SELECT rd_case_reopen_refusal(r)
            FROM reconciliation_cases r WHERE r.id = c.id), '') END )"_qs;
    return select;
}

const QVector<Field> &caseRowStorage()
{
    static const QVector<Field> storage {Field::Int, Field::Interned, Field::Interned, Field::Text,
        Field::Text, Field::Micros, Field::Micros, Field::Int, Field::Text, Field::Text,
        Field::Text, Field::Text, Field::Text, Field::Text, Field::Interned, Field::Bool,
        Field::Interned, Field::Micros, Field::Bool, Field::Text};
    static_assert(CaseRow::FieldCount == 20);
    return storage;
}

} // namespace rd::ui
