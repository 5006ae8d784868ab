-- Edge bounds: provider identifiers of at most 255 bytes, and currencies from ISO 4217's
-- active list. Both are refused first where input enters (the adapters, `renewalctl apply`,
-- `subscriptions import`, `snapshot attach`: domain/core/json_input.h's kMaxIdentifierBytes and
-- domain/core/currency.h); the database refuses them too, so that a caller that skips the
-- edge gets a named refusal rather than a half-stored renewal.
--
-- 1. Identifiers. A correctly signed delivery whose invoice id was 4,000 characters long failed
-- in the B-tree of (provider_key, provider_renewal_key) ("index row size exceeds maximum"), was
-- answered 503, and the provider retried it for ever. 255 bytes (octet_length: UTF-8 bytes,
-- not characters) is far above any provider's ids (Stripe's are under 40) and far below the
-- B-tree entry limit (about 2,700 bytes), with room for the composite keys. Where it holds:
--   * rd_key (0025: every subscription id, provider key and renewal key of the renewal path)
--     gets rd_key_bounded;
--   * a billing period's provider_event_id (indexed by 0019) moves to a new domain,
--     rd_event_id, bounded the same way. A domain, not a table CHECK: the renewal path's table
--     checks were moved into domains for speed (#15, 0025). rd_billing_period_json reads the
--     column, so it is dropped and created again, unchanged (as 0025 wrote it);
--   * the inbox's event id: its non-empty CHECK becomes non-empty and bounded (one check, as
--     before). An over-long event id never reaches it: the ingestor files such a delivery under
--     "sha256:<hex of the body>" (71 bytes), as it files a body too broken to name its event,
--     outcome invalid, the reason naming the field; a byte-identical redelivery still
--     deduplicates, and the body is kept as evidence. The delivery is answered 200 (stored).
--   * reconciliation cases: one CHECK over the five ids they index (cases are written only
--     when a renewal is refused, off the renewal's own path).
-- The audit rows' copies of the event id and renewal key come from the bounded columns above
-- and have no B-tree index; they are left as they are.
--
-- 2. Currencies. A renewal in "xyz" used to be applied as XYZ and shown with 2 decimals. The
-- rows of public.iso_currencies below are the ONE table of ISO 4217's active currencies and
-- their minor units: CMake reads them from this file at build time into the C++ table
-- (domain/core/CMakeLists.txt writes iso4217_table.inc; currency.cpp looks codes up there),
-- and the domain check below is generated from the same rows. Generating the C++ from the
-- migration rather than both from a third file keeps one copy in the repository, and a
-- migration, once applied, never changes (the migrator's checksums), so the C++ cannot drift
-- from what a database was given; tst_currency compares the database's table with the C++
-- one, so a later migration that changes the list without the build reading it fails the
-- suite. The list is ISO 4217 list one as amended to 2026: with HRK (2023), ZWL (2024), ANG
-- (replaced by XCG, 2025), SLL (replaced by SLE) and BGN (Bulgaria adopted the euro on
-- 2026-01-01) withdrawn. Left out on purpose: the X codes with no minor units (gold XAU,
-- silver XAG, platinum XPT, palladium XPD, the European units XBA..XBD, the SDR XDR, XSU,
-- XUA, the testing code XTS and "no currency" XXX): none of them is a billing currency. The
-- fund codes with minor units (BOV, CHE, CHW, CLF, COU, MXV, USN, UYI, UYW) are in the list.
--
-- The domain check is `VALUE IN (...)` over constants: a domain CHECK cannot run a subquery,
-- and a constant list is read once per session into the type cache like 0025's checks. The
-- list is searched in order, so the currencies most renewals are in come first (USD, EUR,
-- GBP), then the rest by code. Measured with bench/pgbench/count-instructions.sh (500
-- subscriptions, renewals 101..300; the bench renews in EUR), instructions a renewal, 0026
-- against this migration in one run: 2,720,802 / 2,729,023 and 2,721,878 / 2,729,464 (+0.3 %:
-- the bounds and the new domain included). With the list in code order (EUR 47th) the renewal
-- cost 11,000..13,500 more than 0026 (+0.4..0.5 %); in the same runs, 0025's regex in place of
-- the list cost 9,500 less than it, and one regex alternation of the codes 14,000 more. So a
-- code late in the list costs about 10,000 instructions (0.4 %); runs of one schema agree
-- within about 2,500.
-- Lower case is refused here as before (the adapters upper-case "usd" before it gets here).
--
-- Existing data is never changed: a row that holds a code outside the list, or an identifier
-- over 255 bytes, makes this migration fail naming the table, the column and the value, for a
-- person to decide (the ledger totals follow the billing periods, so only these are read). A
-- billing period in a currency withdrawn since it was billed (HRK before 2023, say) is such a
-- row: it cannot be corrected (billing periods are insert-only), so keeping it means listing
-- the code here before this migration is first applied anywhere.

CREATE TABLE public.iso_currencies (
    code        text PRIMARY KEY CHECK (code ~ '^[A-Z]{3}$'),
    minor_units smallint NOT NULL CHECK (minor_units BETWEEN 0 AND 4)
);
COMMENT ON TABLE public.iso_currencies IS
    'ISO 4217 active currencies and their minor units (migration 0028; the C++ table is built from the same rows)';
GRANT SELECT ON public.iso_currencies TO renewal_viewer;

-- iso4217 rows begin (domain/core/CMakeLists.txt reads the lines up to "rows end")
INSERT INTO public.iso_currencies (code, minor_units) VALUES
    ('AED', 2), ('AFN', 2), ('ALL', 2), ('AMD', 2), ('AOA', 2), ('ARS', 2),
    ('AUD', 2), ('AWG', 2), ('AZN', 2), ('BAM', 2), ('BBD', 2), ('BDT', 2),
    ('BHD', 3), ('BIF', 0), ('BMD', 2), ('BND', 2), ('BOB', 2), ('BOV', 2),
    ('BRL', 2), ('BSD', 2), ('BTN', 2), ('BWP', 2), ('BYN', 2), ('BZD', 2),
    ('CAD', 2), ('CDF', 2), ('CHE', 2), ('CHF', 2), ('CHW', 2), ('CLF', 4),
    ('CLP', 0), ('CNY', 2), ('COP', 2), ('COU', 2), ('CRC', 2), ('CUC', 2),
    ('CUP', 2), ('CVE', 2), ('CZK', 2), ('DJF', 0), ('DKK', 2), ('DOP', 2),
    ('DZD', 2), ('EGP', 2), ('ERN', 2), ('ETB', 2), ('EUR', 2), ('FJD', 2),
    ('FKP', 2), ('GBP', 2), ('GEL', 2), ('GHS', 2), ('GIP', 2), ('GMD', 2),
    ('GNF', 0), ('GTQ', 2), ('GYD', 2), ('HKD', 2), ('HNL', 2), ('HTG', 2),
    ('HUF', 2), ('IDR', 2), ('ILS', 2), ('INR', 2), ('IQD', 3), ('IRR', 2),
    ('ISK', 0), ('JMD', 2), ('JOD', 3), ('JPY', 0), ('KES', 2), ('KGS', 2),
    ('KHR', 2), ('KMF', 0), ('KPW', 2), ('KRW', 0), ('KWD', 3), ('KYD', 2),
    ('KZT', 2), ('LAK', 2), ('LBP', 2), ('LKR', 2), ('LRD', 2), ('LSL', 2),
    ('LYD', 3), ('MAD', 2), ('MDL', 2), ('MGA', 2), ('MKD', 2), ('MMK', 2),
    ('MNT', 2), ('MOP', 2), ('MRU', 2), ('MUR', 2), ('MVR', 2), ('MWK', 2),
    ('MXN', 2), ('MXV', 2), ('MYR', 2), ('MZN', 2), ('NAD', 2), ('NGN', 2),
    ('NIO', 2), ('NOK', 2), ('NPR', 2), ('NZD', 2), ('OMR', 3), ('PAB', 2),
    ('PEN', 2), ('PGK', 2), ('PHP', 2), ('PKR', 2), ('PLN', 2), ('PYG', 0),
    ('QAR', 2), ('RON', 2), ('RSD', 2), ('RUB', 2), ('RWF', 0), ('SAR', 2),
    ('SBD', 2), ('SCR', 2), ('SDG', 2), ('SEK', 2), ('SGD', 2), ('SHP', 2),
    ('SLE', 2), ('SOS', 2), ('SRD', 2), ('SSP', 2), ('STN', 2), ('SVC', 2),
    ('SYP', 2), ('SZL', 2), ('THB', 2), ('TJS', 2), ('TMT', 2), ('TND', 3),
    ('TOP', 2), ('TRY', 2), ('TTD', 2), ('TWD', 2), ('TZS', 2), ('UAH', 2),
    ('UGX', 0), ('USD', 2), ('USN', 2), ('UYI', 0), ('UYU', 2), ('UYW', 4),
    ('UZS', 2), ('VED', 2), ('VES', 2), ('VND', 0), ('VUV', 0), ('WST', 2),
    ('XAF', 0), ('XCD', 2), ('XCG', 2), ('XOF', 0), ('XPF', 0), ('YER', 2),
    ('ZAR', 2), ('ZMW', 2), ('ZWG', 2);
-- iso4217 rows end

DO $$
DECLARE
    bad record;
BEGIN
    SELECT 'subscription_billing_periods' AS tbl, 'currency' AS col, currency::text AS val
      INTO bad
      FROM public.subscription_billing_periods b
     WHERE NOT EXISTS (SELECT 1 FROM public.iso_currencies i WHERE i.code = b.currency)
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '%.% holds currency ''%'', not an active ISO 4217 code', bad.tbl,
            bad.col, bad.val
            USING HINT = 'Nothing was changed. Billing periods are insert-only: a person '
                || 'decides, e.g. to list a code withdrawn since it was billed (see the header '
                || 'of 0028_edge_bounds.sql).';
    END IF;
    SELECT t.tbl, t.col, left(t.val, 40) || '...' AS val, octet_length(t.val) AS len
      INTO bad
      FROM (SELECT 'subscriptions' AS tbl, 'provider_key' AS col, provider_key::text AS val
              FROM public.subscriptions
            UNION ALL SELECT 'subscriptions', 'provider_subscription_id', provider_subscription_id
              FROM public.subscriptions
            UNION ALL SELECT 'subscription_billing_periods', 'provider_renewal_key',
                   provider_renewal_key FROM public.subscription_billing_periods
            UNION ALL SELECT 'subscription_billing_periods', 'provider_event_id',
                   provider_event_id FROM public.subscription_billing_periods
            UNION ALL SELECT 'webhook_inbox', 'provider_event_id', provider_event_id
              FROM public.webhook_inbox
            UNION ALL SELECT 'reconciliation_cases', 'provider_key', provider_key
              FROM public.reconciliation_cases
            UNION ALL SELECT 'reconciliation_cases', 'provider_subscription_id',
                   provider_subscription_id FROM public.reconciliation_cases
            UNION ALL SELECT 'reconciliation_cases', 'provider_renewal_key', provider_renewal_key
              FROM public.reconciliation_cases
            UNION ALL SELECT 'reconciliation_cases', 'first_provider_event_id',
                   first_provider_event_id FROM public.reconciliation_cases
            UNION ALL SELECT 'reconciliation_cases', 'last_provider_event_id',
                   last_provider_event_id FROM public.reconciliation_cases) t
     WHERE octet_length(t.val) > 255
     LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION '%.% holds an identifier of % bytes (%); at most 255', bad.tbl,
            bad.col, bad.len, bad.val
            USING HINT = 'Nothing was changed: a person decides what the identifier should be.';
    END IF;
END
$$;

-- 1. Identifiers.
ALTER DOMAIN public.rd_key ADD CONSTRAINT rd_key_bounded CHECK (octet_length(VALUE) <= 255);

CREATE DOMAIN public.rd_event_id AS text;
DROP FUNCTION public.rd_billing_period_json(public.subscription_billing_periods);
-- To a domain without constraints first: no rewrite, the indexes kept (as in 0025).
ALTER TABLE public.subscription_billing_periods
    ALTER COLUMN provider_event_id TYPE public.rd_event_id;
ALTER DOMAIN public.rd_event_id ADD CONSTRAINT rd_event_id_bounded
    CHECK (octet_length(VALUE) <= 255);

-- As 0025 wrote it.
CREATE FUNCTION public.rd_billing_period_json(bp public.subscription_billing_periods)
    RETURNS jsonb
    LANGUAGE sql STABLE
    RETURN pg_catalog.jsonb_build_object(
        'id', bp.id, 'subscriptionId', bp.subscription_id, 'providerKey', bp.provider_key,
        'providerRenewalKey', bp.provider_renewal_key, 'providerEventId', bp.provider_event_id,
        'period', public.rd_period_json(bp.period_start, bp.period_end),
        'paidAmountMinor', bp.paid_amount_minor, 'currency', bp.currency,
        'paidAt', public.rd_rfc3339(bp.paid_at), 'recordedBy', bp.recorded_by);
-- Granted as 0027 granted it (docs/roles.md): since 0027 a function starts without PUBLIC's
-- EXECUTE.
GRANT EXECUTE ON FUNCTION public.rd_billing_period_json(public.subscription_billing_periods)
    TO renewal_viewer;

ALTER TABLE public.webhook_inbox
    DROP CONSTRAINT webhook_inbox_provider_event_id_check,
    ADD CONSTRAINT webhook_inbox_event_id_bounded
        CHECK (provider_event_id <> '' AND octet_length(provider_event_id) <= 255);

ALTER TABLE public.reconciliation_cases
    ADD CONSTRAINT reconciliation_cases_ids_bounded
        CHECK (octet_length(provider_key) <= 255
               AND octet_length(provider_subscription_id) <= 255
               AND octet_length(provider_renewal_key) <= 255
               AND octet_length(first_provider_event_id) <= 255
               AND octet_length(last_provider_event_id) <= 255);

-- 2. Currencies: the domain accepts exactly the rows above.
ALTER DOMAIN public.rd_currency_code DROP CONSTRAINT rd_currency_code_iso;
DO $$
BEGIN
    EXECUTE pg_catalog.format(
        'ALTER DOMAIN public.rd_currency_code ADD CONSTRAINT rd_currency_code_iso CHECK (VALUE IN (%s))',
        (SELECT pg_catalog.string_agg(pg_catalog.quote_literal(code), ', '
                    ORDER BY pg_catalog.array_position(ARRAY['USD', 'EUR', 'GBP'], code)
                             NULLS LAST, code)
           FROM public.iso_currencies));
END
$$;
