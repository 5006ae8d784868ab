#!/usr/bin/env bash
# Builds the Debian packages renewal-desk and renewalctl into ./dist (or $PACKAGE_OUT) with
# CPack, from ./build (or $RENEWAL_DESK_BUILD_DIR), which scripts/build.sh configures for this:
# an optimized build (RelWithDebInfo; CPack strips the binaries) installed under /usr.
# A build folder configured otherwise (a Debug build, another prefix) is left as it is: the
# packages are then built in its subfolder package/, configured for them.
#   scripts/package.sh              build what is needed, then package
#   scripts/package.sh --no-build   package the build folder as it is (the ctest test does;
#                                   exit 77 when it is not configured for packages)
# Prints the paths of the two .deb files (earlier ones in the output folder are replaced).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RENEWAL_DESK_BUILD_DIR:-$here/build}"
out="${PACKAGE_OUT:-$here/dist}"
no_build=0
case "${1:-}" in
"") ;;
--no-build) no_build=1 ;;
*) echo "usage: $0 [--no-build]" >&2; exit 64 ;;
esac

# The value of a CMake cache entry of build folder $1.
cache_value() {
    sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt" 2>/dev/null
}
# Whether build folder $1 makes packages: installed under /usr, optimized.
packageable() {
    [ "$(cache_value "$1" CMAKE_INSTALL_PREFIX)" = /usr ] \
        && case "$(cache_value "$1" CMAKE_BUILD_TYPE)" in
               Release | RelWithDebInfo | MinSizeRel) true ;;
               *) false ;;
           esac
}

if [ "$no_build" = 1 ]; then
    if ! packageable "$build"; then
        echo "package.sh: $build is not configured for packages (CMAKE_INSTALL_PREFIX=/usr," \
             "an optimized CMAKE_BUILD_TYPE); run scripts/package.sh without --no-build" >&2
        exit 77
    fi
else
    "$here/scripts/build.sh"
    if ! packageable "$build"; then
        build="$build/package"
        cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
              -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_TESTING=OFF >/dev/null
        cmake --build "$build" --parallel "$(nproc)"
    fi
fi

mkdir -p "$out"
# Earlier builds' packages (another version) go: $out holds this build's two.
rm -f "$out"/renewal-desk_*.deb "$out"/renewalctl_*.deb
work="$(mktemp -d "$build/cpack.XXXXXX")"
trap 'rm -rf "$work"' EXIT
# (CPack runs the build folder's "preinstall" target first: with everything built, a no-op.)
(cd "$build" && cpack -G DEB -B "$work" >"$work.log" 2>&1) || {
    cat "$work.log" >&2
    rm -f "$work.log"
    exit 1
}
rm -f "$work.log"
shopt -s nullglob
debs=("$work"/*.deb)
if [ ${#debs[@]} -ne 2 ]; then
    echo "package.sh: expected two packages, CPack made ${#debs[@]}: ${debs[*]##*/}" >&2
    exit 1
fi
for deb in "${debs[@]}"; do
    mv -f "$deb" "$out/"
    echo "$out/${deb##*/}"
done
