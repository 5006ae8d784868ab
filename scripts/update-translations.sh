#!/usr/bin/env bash
# Brings the desk's translation catalogs (resources/translations/*.ts) up to date with its
# sources: every tr() string of ui/ and app/renewal-desk (every folder under them, whatever
# it is called), new ones marked unfinished, vanished ones dropped. Then translate what
# tests/tst_ui_translations names (Qt Linguist, or any editor). docs/desk.md, "Translations".
#   update-translations.sh [TS_FILE...]    default: resources/translations/*.ts
# Also `cmake --build build --target update_translations`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
lupdate="${LUPDATE:-}"
[ -n "$lupdate" ] || lupdate="$(command -v lupdate || true)"
[ -n "$lupdate" ] || lupdate=/usr/lib/qt6/bin/lupdate
[ -x "$lupdate" ] || { echo "update-translations: lupdate not found (Debian: qt6-l10n-tools)" >&2; exit 69; }
if [ $# -gt 0 ]; then
    ts=("$@")
else
    shopt -s nullglob
    ts=("$root"/resources/translations/*.ts)
fi
[ ${#ts[@]} -gt 0 ] || { echo "update-translations: no .ts files" >&2; exit 1; }
cd "$root"
# -I .: the sources include "ui/…" from the top, and lupdate needs the headers to know
# which namespace a class lives in (the context is rd::ui::Class, as moc names it).
# -locations none: no line numbers to conflict over whenever a source moves.
# KEEP_VANISHED=1 (the test) keeps what the sources no longer have, marked vanished.
drop=(-no-obsolete)
[ "${KEEP_VANISHED:-0}" = 1 ] && drop=()
for f in "${ts[@]}"; do
    lang="$(basename "$f" .ts)"; lang="${lang##*_}"
    "$lupdate" -silent -I . -extensions cpp,h -locations none "${drop[@]}" \
        -target-language "$lang" ui app/renewal-desk -ts "$f"
done
