# Shared by bench/backup-bench.sh and bench/purge-bench.sh (sourced, not run): the renewalctl
# under test, PostgreSQL's binaries, and the small measuring helpers both print their figures
# with. Every figure is printed with the load average beside it: the machine these figures
# come from is shared, and a figure without its load cannot be compared.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ctl="${RENEWAL_DESK_BUILD_DIR:-$here/build}/app/renewalctl/renewalctl"
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)

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
