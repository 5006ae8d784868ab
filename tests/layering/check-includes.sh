#!/usr/bin/env bash
# What each layer's sources may include. The link lines are checked when CMake configures
# (layers.cmake); this catches a header reached without its library (libpqxx's and Qt's
# headers are on the system include path, so a stray #include would still compile).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
status=0

# forbid DIR WHY PATTERN...: no source under DIR includes anything matching a PATTERN.
forbid() {
    local dir=$1 why=$2
    shift 2
    for pattern in "$@"; do
        local hits
        hits=$(grep -rnE "^\s*#\s*include\s*[<\"]($pattern)" "$dir" --include='*.cpp' --include='*.h' || true)
        if [ -n "$hits" ]; then
            echo "layering: $dir: $why:"
            echo "$hits" | sed 's/^/  /'
            status=1
        fi
    done
}

forbid domain/core "the pure core uses no database, no Qt and no outer layer" \
    'pqxx/' 'libpq' 'Q[A-Za-z]+' 'boost/' 'domain/store/' 'domain/demo/' 'domain/receiver/' \
    'app/' 'ui/'
forbid domain/store "the store uses no Qt and no outer layer" \
    'Q[A-Za-z]+' 'boost/' 'domain/demo/' 'domain/receiver/' 'app/' 'ui/'
forbid domain/receiver "the receiver uses no Qt and no outer layer" 'Q[A-Za-z]+' 'app/' 'ui/'
forbid domain/fetch "statement fetch uses no database, no Qt and no outer layer" \
    'pqxx/' 'libpq' 'Q[A-Za-z]+' 'boost/' 'domain/store/' 'domain/demo/' 'domain/receiver/' \
    'app/' 'ui/'
forbid domain/demo "demo data uses no Qt and no outer layer" 'Q[A-Za-z]+' 'app/' 'ui/'
forbid app/renewalctl "renewalctl uses no Qt" 'Q[A-Za-z]+' 'ui/'
forbid ui/models "the read models use no widgets, no libpqxx and no actions" \
    'QtWidgets' 'Q(Widget|Dialog|MainWindow|Label|PushButton|TableView|MessageBox|Application)\b' \
    'ui/widgets/' 'ui/actions/' 'pqxx/' 'app/'
forbid ui/actions "the desk's operations use no widgets and no libpqxx" \
    'QtWidgets' 'Q(Widget|Dialog|MainWindow|Label|PushButton|TableView|MessageBox|Application)\b' \
    'ui/widgets/' 'pqxx/' 'app/'
forbid ui/widgets "the desk never uses libpqxx" 'pqxx/' 'app/'
forbid app/renewal-desk "the desk never uses libpqxx" 'pqxx/' 'app/renewalctl/'
forbid domain/workload "the bench workload uses no Qt and no outer layer" \
    'Q[A-Za-z]+' 'boost/' 'domain/demo/' 'domain/receiver/' 'domain/fetch/' 'app/' 'ui/' 'bench/'
forbid bench/renewal_desk_bench.cpp "the desk's bench measures the read models, never libpqxx" \
    'pqxx/' 'ui/actions/' 'ui/widgets/' 'app/' 'domain/workload/'
forbid bench/receiver "presign signs payloads with the core" \
    'pqxx/' 'libpq' 'Q[A-Za-z]+' 'domain/store/' 'ui/' 'app/'
for dir in domain app ui; do
    forbid "$dir" "bench/ holds scripts and tools: nothing of the product includes it" 'bench/'
done
# libpqxx is the store's own (its sources and domain/store/internal/): everything above it goes
# through the store's API, DbSession and DbRef (db_session.h), and catches rd:: errors only.
for dir in app ui domain/core domain/demo domain/workload domain/receiver domain/fetch; do
    forbid "$dir" "only domain/store uses libpqxx: go through the store's API (db_session.h)" \
        'pqxx/' 'domain/store/internal/'
done
for header in domain/store/*.h; do
    forbid "$header" "a public header of the store names no libpqxx (private ones are in domain/store/internal/)" \
        'pqxx/'
done

# reaches DIR WHY PATTERN: no header of this tree that DIR's sources include, directly or through
# other headers of this tree, includes anything matching PATTERN. (forbid sees one level only:
# a header of the store that includes <pqxx/...> would bring libpqxx along unseen.)
reaches() {
    local dir=$1 why=$2 pattern=$3
    local -A seen=() via=()
    local queue=() file inc hits=""
    mapfile -t queue < <(find "$dir" -name '*.cpp' -o -name '*.h')
    while [ ${#queue[@]} -gt 0 ]; do
        file=${queue[0]}
        queue=("${queue[@]:1}")
        [ -n "${seen[$file]:-}" ] && continue
        seen[$file]=1
        if grep -qE "^\s*#\s*include\s*[<\"]($pattern)" "$file"; then
            hits+="  $file${via[$file]:+ (included by ${via[$file]})}"$'\n'
        fi
        while IFS= read -r inc; do
            if [ -f "$inc" ] && [ -z "${seen[$inc]:-}" ]; then
                [ -n "${via[$inc]:-}" ] || via[$inc]=$file
                queue+=("$inc")
            fi
        done < <(sed -nE 's/^\s*#\s*include\s*"([^"]+)".*/\1/p' "$file")
    done
    if [ -n "$hits" ]; then
        echo "layering: $dir: $why:"
        printf '%s' "$hits"
        status=1
    fi
}
reaches app/renewal-desk "the desk's main includes no header that includes libpqxx" 'pqxx/'
reaches ui/widgets "the desk's pages include no header that includes libpqxx" 'pqxx/'
reaches ui/models "the read models include no header that includes libpqxx" 'pqxx/'
reaches ui/actions "the desk's operations include no header that includes libpqxx" 'pqxx/'
for dir in app domain/demo domain/workload domain/receiver; do
    reaches "$dir" "includes no header that includes libpqxx" 'pqxx/'
done
if grep -rn 'pqxx::' ui app domain/core domain/demo domain/workload domain/receiver domain/fetch \
    --include='*.cpp' --include='*.h'; then
    echo "layering: only domain/store names libpqxx types"
    status=1
fi
# Widgets draw; models read: no SQL in ui/widgets (file and line of each offence).
bash "$root/tests/layering/check-widget-sql.sh" || status=1
# A provider kind lives in one place: no switch on a ProviderKind outside the table of kinds.
bash "$root/tests/layering/check-provider-kinds.sh" || status=1
[ $status -eq 0 ] && echo "layering: every layer includes only what it may"
exit $status
