#!/usr/bin/env bash
# Installs the Debian 12 packages Renewal Desk needs to build, test and run, when missing.
# Uses apt-get directly as root, or through sudo; otherwise says what to install.
set -euo pipefail

packages=(
    g++ cmake make pkg-config git
    qt6-base-dev qt6-base-dev-tools libqt6sql6-psql qt6-qpa-plugins libgl-dev fonts-dejavu-core
    qt6-charts-dev libqt6opengl6-dev  # Qt Charts (the Overview); its CMake package needs Qt6OpenGL
    libpqxx-dev nlohmann-json3-dev libcli11-dev libssl-dev libboost-dev
    libcurl4-openssl-dev  # statement fetch: the providers' list APIs over HTTPS
    # lupdate/lrelease (the desk's translations at build time) and Qt's own German catalog.
    qt6-l10n-tools qt6-translations-l10n
    cmark-gfm  # renders docs/user-guide.md into the desk's Help › User guide at build time
    wrk curl openssl
    postgresql
    clang libclang-rt-14-dev
    # Packaging (scripts/package.sh) and its checks: icons rendered from the SVG, the .deb
    # checked by lintian, the desktop entry and AppStream metadata validated.
    dpkg-dev file librsvg2-bin lintian appstream desktop-file-utils
)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "renewal-desk: installing missing Debian packages: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    echo "renewal-desk: please install as root: apt-get install ${missing[*]}" >&2
    exit 69
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
# Debian's postgresql package would start a system cluster of its own; we only need the
# binaries, and our embedded cluster runs on its own socket, so that is harmless.
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
