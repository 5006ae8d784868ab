#!/usr/bin/env bash
# The installed packages, with no build tree in sight (ctest: package_install). As root:
# installs both .deb files into this system with apt-get, then runs the installed programs in
# an empty environment (PATH=/usr/bin:/bin, a fresh HOME, a temporary data directory):
# renewalctl db start, migrate (from /usr/share/renewal-desk/migrations), demo, cases list,
# renewal-desk --screenshot; then stops the cluster, purges the two packages and whatever
# apt-get installed for them, so that the system's package set is what it was.
#   install-packages.sh DIST VERSION
# Exit 77 (skipped) unless root, or when either package is installed already (not ours to
# remove afterwards).
set -euo pipefail
dist="$(cd "$1" && pwd)"
version="$2"
shopt -s nullglob
debs=("$dist"/renewalctl_*.deb "$dist"/renewal-desk_*.deb)
[ ${#debs[@]} -eq 2 ] || { echo "install-packages: expected two packages in $dist" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then
    echo "install-packages: installing packages needs root; skipped" >&2
    exit 77
fi
for p in renewalctl renewal-desk; do
    if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
        echo "install-packages: $p is installed already; not touching it; skipped" >&2
        exit 77
    fi
done

installed() { dpkg-query -W -f='${Package}:${Architecture} ${Status}\n' | awk '$NF == "installed" { print $1 }' | sort; }
before="$(mktemp)"
installed >"$before"
scratch="$(mktemp -d /tmp/rd-package-XXXXXX)"
# The embedded cluster runs as the postgres account when we are root: it must reach its data.
chmod 755 "$scratch"
mkdir -p "$scratch/home" "$scratch/shots"
export DEBIAN_FRONTEND=noninteractive
apt=(apt-get -y -qq -o DPkg::Lock::Timeout=600)

run() {
    env -i HOME="$scratch/home" PATH=/usr/bin:/bin LANG=C.UTF-8 \
        RENEWAL_DESK_DATA_DIR="$scratch/data" "$@"
}
cleanup() {
    set +e
    [ -x /usr/bin/renewalctl ] && run renewalctl db stop >/dev/null 2>&1
    "${apt[@]}" purge renewal-desk renewalctl >/dev/null 2>&1
    # Whatever apt-get installed as their dependencies goes too.
    mapfile -t added < <(installed | comm -13 "$before" -)
    if [ ${#added[@]} -gt 0 ]; then
        echo "install-packages: removing what came with them: ${added[*]}"
        "${apt[@]}" purge "${added[@]}" >/dev/null
    fi
    if ! installed | cmp -s "$before" -; then
        echo "install-packages: the installed package set differs from before:" >&2
        installed | diff "$before" - >&2
        cleanup_failed=1
    fi
    rm -rf "$scratch" "$before"
}
cleanup_failed=0
trap 'cleanup; [ $cleanup_failed = 0 ] || exit 1' EXIT

step() { echo "== $*"; }
step "apt-get install ${debs[*]##*/}"
"${apt[@]}" --no-install-recommends install "${debs[@]}" >/dev/null

step "the installed programs, not a build tree's"
[ "$(run sh -c 'command -v renewalctl')" = /usr/bin/renewalctl ]
[ "$(run sh -c 'command -v renewal-desk')" = /usr/bin/renewal-desk ]
for f in /usr/share/applications/io.renewaldesk.RenewalDesk.desktop \
         /usr/share/metainfo/io.renewaldesk.RenewalDesk.metainfo.xml \
         /usr/share/man/man1/renewalctl.1.gz /usr/share/man/man1/renewal-desk.1.gz \
         /usr/share/bash-completion/completions/renewalctl \
         /usr/lib/systemd/system/renewal-desk-receiver.service \
         /usr/lib/systemd/system/renewal-desk-outbox.service \
         /usr/lib/systemd/system/renewal-desk-fold.service \
         /usr/lib/systemd/system/renewal-desk-fold.timer \
         /usr/lib/systemd/system/renewal-desk-backup.service \
         /usr/lib/systemd/system/renewal-desk-backup.timer \
         /usr/lib/systemd/system/renewal-desk-access.service \
         /usr/lib/systemd/system/renewal-desk-access.timer \
         /usr/share/doc/renewalctl/examples/backup.env \
         /usr/share/doc/renewalctl/copyright /usr/share/doc/renewal-desk/changelog.Debian.gz; do
    [ -f "$f" ] || { echo "install-packages: $f is missing" >&2; exit 1; }
done
grep -q "ExecStart=/usr/bin/renewalctl serve" /usr/lib/systemd/system/renewal-desk-receiver.service
grep -q "ExecStart=/usr/bin/renewalctl db backup " /usr/lib/systemd/system/renewal-desk-backup.service

step "renewalctl --version"
got="$(run renewalctl --version)"
echo "$got"
[ "$got" = "renewalctl $version" ] || { echo "install-packages: expected renewalctl $version" >&2; exit 1; }
[ "$(run renewal-desk --version -platform offscreen 2>/dev/null)" = "renewal-desk $version" ]

step "renewalctl db start"
run renewalctl db start
run renewalctl db status

step "renewalctl migrate"
run renewalctl migrate | tee "$scratch/migrate.out"
# Every installed migration applied, by name: they were read from /usr/share.
expected="$(cd /usr/share/renewal-desk/migrations && ls ./*.sql | sed 's|^\./||; s|\.sql$||' | sort)"
applied="$(sed -n 's/^applied //p' "$scratch/migrate.out" | sed 's|\.sql$||' | sort)"
if [ -z "$expected" ] || [ "$expected" != "$applied" ]; then
    echo "install-packages: migrate applied something else than /usr/share/renewal-desk/migrations" >&2
    diff <(echo "$expected") <(echo "$applied") >&2 || true
    exit 1
fi
# The repeatable definitions were installed with them, and applied (docs/migrations.md).
listed="$(grep -c . /usr/share/renewal-desk/migrations/repeatables.txt)"
while read -r f; do
    [ -r "/usr/share/renewal-desk/migrations/$f" ] \
        || { echo "install-packages: $f is listed but not installed" >&2; exit 1; }
done < /usr/share/renewal-desk/migrations/repeatables.txt
grep -q " $listed function and view definitions re-applied" "$scratch/migrate.out" \
    || { echo "install-packages: migrate did not apply the $listed definitions" >&2; exit 1; }
# migrations/schema/current.sql is the source tree's review copy, not part of the product.
[ ! -e /usr/share/renewal-desk/migrations/schema ] \
    || { echo "install-packages: migrations/schema/ was installed" >&2; exit 1; }

step "renewalctl demo"
run renewalctl demo --now 2026-06-01T00:00:00Z | tail -3

step "renewalctl cases list"
run renewalctl cases list | tee "$scratch/cases.out" | head -5
[ "$(wc -l <"$scratch/cases.out")" -ge 2 ] || { echo "install-packages: no cases listed" >&2; exit 1; }

step "renewalctl fold (what renewal-desk-fold.timer runs)"
run renewalctl fold | tee "$scratch/fold.out"
grep -q "^folded [0-9]* renewal delta rows" "$scratch/fold.out"

step "renewalctl db backup and db restore (what renewal-desk-backup.timer runs, and its proof)"
run renewalctl db backup --to "$scratch/" --json | tee "$scratch/backup.json"
backup_file="$(sed -n 's/.*"file":"\([^"]*\)".*/\1/p' "$scratch/backup.json")"
[ -f "$backup_file" ] || { echo "install-packages: no backup file" >&2; exit 1; }
run renewalctl db restore "$backup_file" --data-dir "$scratch/restored" | tee "$scratch/restore.out"
grep -q "^verified: " "$scratch/restore.out"
run renewalctl db stop --data-dir "$scratch/restored"

step "renewal-desk --screenshot"
run QT_QPA_PLATFORM=offscreen renewal-desk --screenshot "$scratch/shots" -platform offscreen
ls "$scratch/shots"
for view in subscriptions cases inbox outbox; do
    file "$scratch/shots/$view.png" | grep -q "PNG image data" \
        || { echo "install-packages: no $view.png" >&2; exit 1; }
done

step "renewalctl db stop"
run renewalctl db stop
echo "install-packages: all installed programs worked"
