#!/usr/bin/env bash
# check-widget-sql.sh refuses what it must and nothing else: run on a made-up tree, it names
# each widget line that runs SQL (a QSql class, execSql, a statement's text) with its file
# and line, passes a widget that starts a model's loader, and leaves the SQL of ui/models and
# ui/actions alone.
# (The exemption list is the repository's: the layering test shows it holds there.)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/ui/widgets" "$tree/ui/models" "$tree/ui/actions"
fail() {
    echo "widget-sql-selftest: $*"
    exit 1
}

cat >"$tree/ui/widgets/clean.cpp" <<'CPP'
// Starts a model's loader: no SQL here (a SELECT in a comment's prose is not a statement).
auto f = m_pool->call(&loadOverview, grace);
label->setText(tr("Select a case"));
CPP
cat >"$tree/ui/models/loader.cpp" <<'CPP'
QSqlQuery q = execSql(db, u"SELECT 1"_qs); // models read: allowed
CPP
cat >"$tree/ui/actions/change.cpp" <<'CPP'
QSqlQuery q = execSql(db, u"UPDATE t SET x = 1"_qs); // actions change: allowed
CPP
bash "$here/check-widget-sql.sh" "$tree" >"$tree/out" 2>&1 || fail "refused a clean tree: $(cat "$tree/out")"

cat >"$tree/ui/widgets/page.cpp" <<'CPP'
#include "page.h"

#include <QSqlQuery>
void Page::load()
{
    run([](QSqlDatabase &db) { return execSql(db, sql); });
    const QString sql = u"SELECT id FROM t"_qs;
}
CPP
if bash "$here/check-widget-sql.sh" "$tree" >"$tree/out" 2>&1; then
    fail "passed a widget that runs SQL"
fi
for expected in 'ui/widgets/page.cpp:3: #include <QSqlQuery>' \
    'ui/widgets/page.cpp:6: run([](QSqlDatabase &db) { return execSql(db, sql); });' \
    'ui/widgets/page.cpp:7: const QString sql = u"SELECT id FROM t"_qs;'; do
    grep -qF "  $expected" "$tree/out" || fail "did not name '$expected':"$'\n'"$(cat "$tree/out")"
done
if grep '^  ' "$tree/out" | grep -q 'clean\.cpp\|ui/models\|ui/actions'; then
    fail "named a file it must let be:"$'\n'"$(cat "$tree/out")"
fi
echo "widget-sql-selftest: SQL in a widget is refused with its file and line"
