#!/usr/bin/env bash
# Widgets draw; models read; actions change: no file under ui/widgets runs SQL. A read is a
# loader in ui/models taking (QSqlDatabase &db, args...), started with DatabasePool::call (or a
# model's fetcher), a change an operation of ui/actions (through the store), so that a widget
# never names a connection, a query or SQL text. SQL may live in ui/models and ui/actions. Run by the layering test
# (check-includes.sh) and by the build whenever a widget source changes (ui/widgets/CMakeLists.txt).
# Prints file:line for each offence and exits 1. Usage: check-widget-sql.sh [ROOT] (ROOT: the
# tree to check, this repository by default; widget-sql-selftest.sh passes one it made).
set -euo pipefail
root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
cd "$root"

# Qt SQL classes (QSqlDatabase, QSqlQuery, QSqlError, ...), the pool's query helpers, and a
# string literal that starts a statement.
statement='"[[:space:]]*(SELECT|INSERT|UPDATE|DELETE|WITH)[[:space:]]'
pattern="QSql|\\bexec(Sql|Direct|OrThrow)\\b|$statement"
hits=$(grep -rnE "$pattern" ui/widgets --include='*.cpp' --include='*.h' || true)
if [ -n "$hits" ]; then
    echo "layering: ui/widgets runs SQL; move the query into a loader in ui/models (or, when it"
    echo "changes data, an operation in ui/actions) and start it with DatabasePool::call (widgets"
    echo "draw, models read, actions change):"
    printf '%s\n' "$hits" | while IFS=: read -r file line text; do
        echo "  $file:$line: $(echo "$text" | sed 's/^[[:space:]]*//')"
    done
    exit 1
fi
