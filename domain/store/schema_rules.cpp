// What a restore checks beyond rows and audit chains (#39, item 3): a re-forged dump can carry
// its own GRANTs, function bodies and dropped constraints, and the counts, the anchor and the
// chains would not see any of them (`GRANT SELECT (raw_body) ... TO renewal_viewer` in a dump
// restored as "verified", and a viewer read raw bodies). So the restored schema's rules are
// compared with the rules this program's migrations make, in a scratch database on the same
// server: the same PostgreSQL prints both, so the same rules read the same.
//
// Why a scratch database and not the schema dump of docs/: the dump is a document for people
// (no privileges, no extension's objects), and a database the migrations just made is what
// "the rules the migrations define" means, on this server's version.
#include "domain/store/internal/schema_rules.h"

#include "domain/core/errors.h"
#include "domain/store/internal/pqxx_session.h"
#include "domain/store/migrator.h"
#include "domain/store/postgres_tools.h"
#include "domain/store/random_uuid.h"

#include <pqxx/pqxx>

#include <algorithm>

namespace rd {
namespace {

// One row per rule: (rule, value). Privileges are sorted items, with a missing ACL read as
// its default (acldefault): a GRANT that restores the default is no difference. Everything
// is in schema public; search_path is fixed by the caller so that names print alike.
constexpr const char *kRulesSql = R"SQL(
WITH pub AS (SELECT 'public'::regnamespace AS oid)
SELECT rule, value FROM (
  SELECT 'privileges of schema public' AS rule,
         (SELECT string_agg(a::text, ' ' ORDER BY a::text)
            FROM unnest(coalesce(n.nspacl, acldefault('n', n.nspowner))) a)
         || ', owner ' || n.nspowner::regrole::text AS value
    FROM pg_namespace n WHERE n.oid = (SELECT oid FROM pub)
  UNION ALL
  SELECT 'default privileges of ' || d.defaclrole::regrole::text || ' on '
         || CASE d.defaclobjtype WHEN 'r' THEN 'tables' WHEN 'S' THEN 'sequences'
              WHEN 'f' THEN 'functions' WHEN 'T' THEN 'types' WHEN 'n' THEN 'schemas'
              ELSE d.defaclobjtype::text END
         || CASE WHEN d.defaclnamespace = 0 THEN '' ELSE ' in schema public' END,
         (SELECT string_agg(a::text, ' ' ORDER BY a::text) FROM unnest(d.defaclacl) a)
    FROM pg_default_acl d WHERE d.defaclnamespace IN (0, (SELECT oid FROM pub))
  UNION ALL
  SELECT 'extension ' || e.extname, e.extversion
    FROM pg_extension e WHERE e.extnamespace = (SELECT oid FROM pub)
  UNION ALL
  SELECT 'event trigger ' || t.evtname,
         t.evtevent || ' ' || t.evtfoid::regproc::text || ' ' || t.evtenabled::text
    FROM pg_event_trigger t
  UNION ALL
  SELECT 'relation ' || c.oid::regclass::text,
         'kind ' || c.relkind::text || ', row security ' || c.relrowsecurity || '/'
         || c.relforcerowsecurity || ', privileges '
         || coalesce((SELECT string_agg(a::text, ' ' ORDER BY a::text)
                        FROM unnest(coalesce(c.relacl, acldefault(
                               (CASE WHEN c.relkind = 'S' THEN 's' ELSE 'r' END)::"char", c.relowner))) a),
                     '')
    FROM pg_class c
   WHERE c.relnamespace = (SELECT oid FROM pub) AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
  UNION ALL
  SELECT 'column ' || c.oid::regclass::text || '.' || quote_ident(a.attname),
         format_type(a.atttypid, a.atttypmod)
         || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
         || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
         || CASE WHEN a.attgenerated <> '' THEN ' generated' ELSE '' END
         || coalesce(', privileges '
              || (SELECT string_agg(x::text, ' ' ORDER BY x::text) FROM unnest(a.attacl) x), '')
    FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
   WHERE c.relnamespace = (SELECT oid FROM pub) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
  UNION ALL
  SELECT 'definition of view ' || c.oid::regclass::text, pg_get_viewdef(c.oid)
    FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM pub) AND c.relkind IN ('v', 'm')
  UNION ALL
  SELECT 'definition of function ' || p.oid::regprocedure::text,
         CASE WHEN p.prokind = 'a' THEN 'aggregate' ELSE pg_get_functiondef(p.oid) END
    FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM pub)
  UNION ALL
  SELECT 'privileges of function ' || p.oid::regprocedure::text,
         (SELECT string_agg(a::text, ' ' ORDER BY a::text)
            FROM unnest(coalesce(p.proacl, acldefault('f', p.proowner))) a)
    FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM pub)
  UNION ALL
  -- A domain's constraint has conrelid 0, which regclass prints as '-': named by its domain,
  -- or two domains' constraints of one name would be one rule.
  SELECT 'constraint ' || quote_ident(k.conname) || ' on '
         || CASE WHEN k.conrelid <> 0 THEN k.conrelid::regclass::text
                 ELSE k.contypid::regtype::text END,
         pg_get_constraintdef(k.oid)
    FROM pg_constraint k WHERE k.connamespace = (SELECT oid FROM pub)
  UNION ALL
  SELECT 'index ' || i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
   WHERE c.relnamespace = (SELECT oid FROM pub)
  UNION ALL
  SELECT 'trigger ' || quote_ident(t.tgname) || ' on ' || t.tgrelid::regclass::text,
         pg_get_triggerdef(t.oid) || ', enabled ' || t.tgenabled::text
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
   WHERE c.relnamespace = (SELECT oid FROM pub) AND NOT t.tgisinternal
  UNION ALL
  SELECT 'rule ' || quote_ident(r.rulename) || ' on ' || r.ev_class::regclass::text,
         pg_get_ruledef(r.oid)
    FROM pg_rewrite r JOIN pg_class c ON c.oid = r.ev_class
   WHERE c.relnamespace = (SELECT oid FROM pub) AND r.rulename <> '_RETURN'
  UNION ALL
  SELECT 'policy ' || quote_ident(p.polname) || ' on ' || p.polrelid::regclass::text,
         p.polcmd::text || ' ' || p.polpermissive || ' ' || p.polroles::text || ' '
         || coalesce(pg_get_expr(p.polqual, p.polrelid), '') || ' '
         || coalesce(pg_get_expr(p.polwithcheck, p.polrelid), '')
    FROM pg_policy p JOIN pg_class c ON c.oid = p.polrelid
   WHERE c.relnamespace = (SELECT oid FROM pub)
  UNION ALL
  SELECT 'type ' || t.oid::regtype::text,
         CASE t.typtype WHEN 'd' THEN 'domain over ' || format_type(t.typbasetype, t.typtypmod)
              || CASE WHEN t.typnotnull THEN ' not null' ELSE '' END
              || coalesce(' default ' || t.typdefault, '')
           WHEN 'e' THEN 'enum (' || (SELECT string_agg(quote_literal(e.enumlabel), ', '
                                              ORDER BY e.enumsortorder)
                                        FROM pg_enum e WHERE e.enumtypid = t.oid) || ')'
           ELSE 'type ' || t.typtype::text END
         || ', privileges ' || coalesce((SELECT string_agg(a::text, ' ' ORDER BY a::text)
                                          FROM unnest(coalesce(t.typacl,
                                                 acldefault('T', t.typowner))) a), '')
    FROM pg_type t
   WHERE t.typnamespace = (SELECT oid FROM pub) AND t.typtype IN ('d', 'e', 'r', 'm')
) rules
)SQL";

/// `conninfo` naming database `dbname` instead, every other setting as libpq read it.
std::string onDatabase(const std::string &conninfo, const std::string &dbname)
{
    std::string out;
    for (const auto &[key, value] : parseConninfo(conninfo)) {
        if (key == "dbname")
            continue;
        out += key + "=" + conninfoValue(value) + " ";
    }
    return out + "dbname=" + conninfoValue(dbname);
}

/// `value` as a difference shows it: one line of at most 160 characters from `from` on
/// (where two definitions part, less some context), "..." where it was cut.
std::string shown(const std::string &value, std::size_t from = 0)
{
    std::string line = from > 0 ? "..." : "";
    for (std::size_t i = from; i < value.size(); ++i) {
        if (line.size() >= 160) {
            line += "...";
            break;
        }
        line += value[i] == '\n' || value[i] == '\t' ? ' ' : value[i];
    }
    return line;
}

/// Where `a` and `b` first differ, less 40 characters of context.
std::size_t partingAt(const std::string &a, const std::string &b)
{
    const auto at = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    const auto i = static_cast<std::size_t>(at.first - a.begin());
    return i > 40 ? i - 40 : 0;
}

} // namespace

std::string describeSchemaRuleDifference(const SchemaRuleDifference &d)
{
    if (d.expected.empty())
        return d.rule + ": only in the restored database ('" + d.restored + "')";
    if (d.restored.empty())
        return d.rule + ": missing from the restored database (the migrations make '" + d.expected
            + "')";
    return d.rule + ": restored '" + d.restored + "', the migrations make '" + d.expected + "'";
}

std::map<std::string, std::string> schemaRules(pqxx::connection &conn)
{
    pqxx::read_transaction tx(conn);
    // Names and definitions print schema-qualified unless visible: both databases alike.
    tx.exec0("SET LOCAL search_path = public, pg_catalog");
    std::map<std::string, std::string> rules;
    for (const auto &row : tx.exec(kRulesSql))
        rules.emplace(row[0].as<std::string>(),
            row[1].is_null() ? std::string("(none)") : row[1].as<std::string>());
    return rules;
}

SchemaRulesCheck compareSchemaRulesWithMigrations(pqxx::connection &restored,
    const std::string &restoredConninfo, const std::filesystem::path &migrationsDir)
{
    SchemaRulesCheck check;
    {
        pqxx::read_transaction tx(restored);
        if (!tx.exec1("SELECT rolsuper OR rolcreatedb FROM pg_catalog.pg_roles "
                      "WHERE rolname = current_user")[0]
                 .as<bool>()) {
            check.notCompared = "the login " + std::string(restored.username())
                + " may not create the scratch database the comparison needs (CREATEDB)";
            check.noCreateDb = true;
            return check;
        }
    }
    const std::string scratch = "rd_restore_check_" + randomUuid().substr(0, 8);
    const auto dropScratch = [&] {
        try {
            pqxx::nontransaction tx(restored);
            tx.exec0("DROP DATABASE IF EXISTS " + tx.quote_name(scratch) + " WITH (FORCE)");
        } catch (const std::exception &) {
            // Best effort: a scratch database left behind holds no data, only the schema.
        }
    };
    {
        pqxx::nontransaction tx(restored);
        tx.exec0("CREATE DATABASE " + tx.quote_name(scratch) + " TEMPLATE template0");
    }
    try {
        std::map<std::string, std::string> expected;
        {
            const auto conn = connectTo(onDatabase(restoredConninfo, scratch));
            migrate(*conn, loadMigrations(migrationsDir), loadRepeatables(migrationsDir));
            // The settings a restore applies outside the dump (database_backup.cpp's
            // applyDatabaseLevelSettings) are the migrations' too: nothing to add here.
            expected = schemaRules(*conn);
        }
        const auto found = schemaRules(restored);
        check.compared = true;
        check.rules = static_cast<long long>(expected.size());
        auto e = expected.begin();
        auto f = found.begin();
        while (e != expected.end() || f != found.end()) {
            if (f == found.end() || (e != expected.end() && e->first < f->first)) {
                check.differences.push_back({e->first, "", shown(e->second)});
                ++e;
            } else if (e == expected.end() || f->first < e->first) {
                check.differences.push_back({f->first, shown(f->second), ""});
                ++f;
            } else {
                if (e->second != f->second) {
                    const auto at = partingAt(f->second, e->second);
                    check.differences.push_back(
                        {e->first, shown(f->second, at), shown(e->second, at)});
                }
                ++e;
                ++f;
            }
        }
    } catch (...) {
        dropScratch();
        throw;
    }
    dropScratch();
    return check;
}

} // namespace rd
