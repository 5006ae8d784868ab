REVOKE ALL ON FUNCTION public.rd_money_back_by_currency(uuid[])
    FROM PUBLIC, renewal_viewer, renewal_operator, renewal_ingest;

-- The movements `p_ids`' sums per currency, as a month close keeps them (0051):
-- {"USD": {"movements": n, "refundedMinor": r, "disputedMinor": d}}, refunded being refunds
-- less their reversals and disputed chargebacks less their reinstatements (money_back_totals'
-- rule); {} for none.
CREATE OR REPLACE FUNCTION public.rd_money_back_by_currency(p_ids uuid[])
    RETURNS jsonb
    LANGUAGE sql STABLE SET search_path = pg_catalog, public, pg_temp
    RETURN coalesce((
        SELECT pg_catalog.jsonb_object_agg(t.currency, pg_catalog.jsonb_build_object(
                   'movements', t.n, 'refundedMinor', t.refunded, 'disputedMinor', t.disputed))
          FROM (SELECT m.currency::text AS currency, pg_catalog.count(*) AS n,
                       pg_catalog.sum(CASE m.kind WHEN 'refund' THEN m.amount_minor::numeric
                                                  WHEN 'refund_reversal'
                                                      THEN -m.amount_minor::numeric
                                                  ELSE 0 END) AS refunded,
                       pg_catalog.sum(CASE m.kind WHEN 'chargeback' THEN m.amount_minor::numeric
                                                  WHEN 'chargeback_reversal'
                                                      THEN -m.amount_minor::numeric
                                                  ELSE 0 END) AS disputed
                  FROM public.money_movements m
                 WHERE m.id = ANY (p_ids)
                 GROUP BY 1) t), '{}');
