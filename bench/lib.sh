# Sourced by every bench script (not run): the source tree ($here), the build under test
# ($build, $ctl: RENEWAL_DESK_BUILD_DIR, default build/), PostgreSQL's binaries ($bindir), a
# scratch cluster of the script's own, and the small measuring helpers the figures are printed
# with. Every figure is printed with the load average beside it: the machine these figures
# come from is shared, and a figure without its load cannot be compared.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"
ctl="$build/app/renewalctl/renewalctl"
# (none on a machine that only has PostgreSQL's clients: scripts that need it say so.)
bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1) || true

# at_exit 'COMMAND': runs COMMAND (evaluated then) when the script exits, the latest
# registered first, each whatever the others did: a script's own cleanup (stop its receiver)
# before the scratch cluster's.
exit_hooks=()
at_exit() {
    exit_hooks=("$1" "${exit_hooks[@]}")
    trap run_exit_hooks EXIT
}
run_exit_hooks() {
    local hook
    for hook in "${exit_hooks[@]}"; do
        eval "$hook" || true
    done
}
# scratch_cluster PREFIX [RENEWALCTL]: a new directory $dir (/tmp/PREFIX-XXXXXX) holding an
# embedded cluster in $dir/cluster, started by RENEWALCTL (default $ctl); $url is its
# conninfo. Both are stopped and removed when the script exits.
scratch_cluster() {
    scratch_ctl="${2:-$ctl}"
    dir=$(mktemp -d "/tmp/$1-XXXXXX")
    chmod 755 "$dir" # the server's account (when run as root) must reach its directory
    at_exit '"$scratch_ctl" db stop --data-dir "$dir/cluster" >/dev/null 2>&1; rm -rf "$dir"'
    "$scratch_ctl" db start --data-dir "$dir/cluster" >/dev/null
    url=$("$scratch_ctl" db url --data-dir "$dir/cluster")
}
# scratch_db NAME: the conninfo of database NAME on the scratch cluster.
scratch_db() { echo "${url/dbname=\'renewal_desk\'/dbname=$1}"; }
# fresh_scratch_db NAME: database NAME on the scratch cluster, dropped and created empty;
# prints its conninfo.
fresh_scratch_db() {
    psql "$url" -qAt -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >/dev/null 2>&1
    scratch_db "$1"
}

die() { echo "$(basename "$0"): $*" >&2; exit 1; }
# psql on the database under test; stops at the first error.
sql() { psql "$db" -X -q -v ON_ERROR_STOP=1 "$@"; }
sql_value() { psql "$db" -X -q -v ON_ERROR_STOP=1 -Atc "$1"; }
# The conninfo $db with another database name (key/value form, as `renewalctl db url` prints).
with_dbname() {
    local name="$1"
    if [[ "$db" =~ dbname=(\'[^\']*\'|[^[:space:]]+) ]]; then
        echo "${db/${BASH_REMATCH[0]}/dbname=$name}"
    else
        echo "$db dbname=$name"
    fi
}
load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
seconds_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
bytes() { numfmt --to=iec-i --suffix=B --format=%.1f -- "$1"; }
# The machine, once per run: cores, memory, the disk under DIR, the server's version.
machine() {
    local dir="$1"
    echo "machine: $(nproc) cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), $(free -g | awk '/Mem:/ { print $2 }') GiB RAM, disk $(df -h --output=source,size,avail "$dir" | awk 'NR == 2 { print $1 " " $2 " (" $3 " free)" }'), $(sql_value 'SHOW server_version' | awk '{ print "PostgreSQL " $1 }'), shared_buffers $(sql_value 'SHOW shared_buffers'), max_wal_size $(sql_value 'SHOW max_wal_size'), load $(load)"
}
# Median, 95th and 99th percentile of the numbers on standard input (nearest rank).
percentiles() {
    sort -g | awk '{ v[NR] = $1 }
        function rank(p) { r = int(p * NR + 0.999999); return v[r < 1 ? 1 : r] }
        END { if (NR == 0) print "- - -"; else print rank(0.5), rank(0.95), rank(0.99) }'
}
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Runs a renewalctl command on a pseudo-terminal (`script`), since it shows its phases
# (check, restore, verify, migrate, done; snapshot, counts, anchor, dump) only on a terminal,
# and writes every line it prints to LOG with the time it arrived: phase_split then says how
# long each phase took. Returns the command's exit status.
run_phased() { # LOG COMMAND...
    local log="$1" st errexit=0
    shift
    [[ $- == *e* ]] && errexit=1
    echo "$(now) start" >"$log"
    set +e
    script -qefc "$(printf '%q ' "$@")" /dev/null </dev/null | stdbuf -o0 tr '\r' '\n' \
        | while IFS= read -r line; do
            [[ -n "${line// /}" ]] && printf '%s %s\n' "$(date +%s.%N)" "$line"
        done >>"$log"
    st=("${PIPESTATUS[@]}")
    ((errexit)) && set -e
    echo "$(now) end" >>"$log"
    return "${st[0]}"
}
# The phases of a run_phased LOG and their seconds: from a phase's first progress line to the
# next phase's ('setup': before the first; the last runs to the command's end).
phase_split() { # LOG
    awk 'BEGIN { split("check snapshot counts anchor dump restore verify migrate done", k, " ")
                 for (i in k) known[k[i] ":"] = 1 }
         NR == 1 { start = $1; order[++n] = "setup"; at["setup"] = $1 }
         $2 in known { p = substr($2, 1, length($2) - 1); if (!(p in at)) { order[++n] = p; at[p] = $1 } }
         $2 == "end" { end = $1 }
         END { for (i = 1; i <= n; i++) {
                   to = (i < n) ? at[order[i + 1]] : end
                   printf "%s%s %.1f s", (i > 1 ? ", " : ""), order[i], to - at[order[i]] }
               print "" }' "$1"
}
