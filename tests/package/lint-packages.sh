#!/usr/bin/env bash
# The packages' static checks (ctest: package_lint): lintian on both .deb files must report no
# error and no warning (the tags the packages override are in resources/debian/*.lintian-
# overrides, each with its reason; docs/operations.md, "Install and packages"); the desktop entry and the AppStream
# metadata as they are in the package must pass desktop-file-validate and
# `appstreamcli validate --no-net`.
#   lint-packages.sh DIST    (DIST holds renewal-desk_*.deb and renewalctl_*.deb)
set -euo pipefail
dist="$1"
app_id=io.renewaldesk.RenewalDesk
shopt -s nullglob
desk=("$dist"/renewal-desk_*.deb)
ctl=("$dist"/renewalctl_*.deb)
[ ${#desk[@]} -eq 1 ] && [ ${#ctl[@]} -eq 1 ] || {
    echo "lint-packages: expected one renewal-desk and one renewalctl package in $dist" >&2
    exit 1
}

status=0
for deb in "${ctl[0]}" "${desk[0]}"; do
    echo "== lintian ${deb##*/}"
    # --fail-on error,warning: a new warning fails the test until it is fixed or overridden
    # with its reason. Info tags are shown (--display-info), not failed on.
    if ! lintian --fail-on error,warning --display-info --tag-display-limit 0 "$deb"; then
        echo "lint-packages: lintian failed on ${deb##*/}" >&2
        status=1
    fi
done

unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked"' EXIT
dpkg-deb -x "${desk[0]}" "$unpacked"
echo "== desktop-file-validate"
desktop-file-validate "$unpacked/usr/share/applications/$app_id.desktop" || status=1
echo "== appstreamcli validate --no-net"
appstreamcli validate --no-net "$unpacked/usr/share/metainfo/$app_id.metainfo.xml" || status=1
# The metainfo names the desktop entry, the icon, the program that are in the package.
grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" \
    "$unpacked/usr/share/metainfo/$app_id.metainfo.xml" || { echo "launchable missing" >&2; status=1; }
for f in usr/bin/renewal-desk usr/share/icons/hicolor/scalable/apps/$app_id.svg \
         usr/share/icons/hicolor/48x48/apps/$app_id.png usr/share/man/man1/renewal-desk.1.gz; do
    [ -e "$unpacked/$f" ] || { echo "lint-packages: renewal-desk lacks /$f" >&2; status=1; }
done
file "$unpacked/usr/share/icons/hicolor/48x48/apps/$app_id.png" | grep -q "48 x 48" \
    || { echo "lint-packages: the 48x48 icon is not 48 x 48" >&2; status=1; }

# The desk package links no libpqxx of its own and renewalctl no Qt at all (Depends computed
# by dpkg-shlibdeps from what the binaries link).
ctl_depends="$(dpkg-deb -f "${ctl[0]}" Depends)"
desk_depends="$(dpkg-deb -f "${desk[0]}" Depends)"
echo "renewalctl Depends: $ctl_depends"
echo "renewalctl Recommends: $(dpkg-deb -f "${ctl[0]}" Recommends)"
echo "renewal-desk Depends: $desk_depends"
if grep -q "libqt6" <<<"$ctl_depends"; then
    echo "lint-packages: renewalctl depends on Qt" >&2
    status=1
fi
grep -q "libpqxx" <<<"$ctl_depends" || { echo "lint-packages: renewalctl's Depends lack libpqxx (shlibdeps?)" >&2; status=1; }
grep -q "libcurl4" <<<"$ctl_depends" || { echo "lint-packages: renewalctl's Depends lack libcurl4 (statement fetch)" >&2; status=1; }
grep -q "libqt6widgets6" <<<"$desk_depends" || { echo "lint-packages: renewal-desk's Depends lack Qt Widgets (shlibdeps?)" >&2; status=1; }
# One item of the list (postgresql-client, for the backup timer's pg_dump, is another).
tr ',' '\n' <<<"$(dpkg-deb -f "${ctl[0]}" Recommends)" | sed 's/^ *//; s/ *$//' | grep -qx "postgresql" || { echo "lint-packages: renewalctl does not recommend postgresql" >&2; status=1; }
exit $status
