# The installed layout and the two Debian packages made of it (CPack DEB; scripts/package.sh):
#   renewalctl    component "renewalctl" (the program, the migrations, renewalctl(1), bash
#                 completion) and component "systemd" (the receiver's and the publisher's
#                 units and their example settings)
#   renewal-desk  component "desk" (the program, desktop entry, AppStream metadata, icons,
#                 renewal-desk(1)); depends on renewalctl, whose migrations it applies
# Every path here is relative to CMAKE_INSTALL_PREFIX; packages need it to be /usr (the
# migrations and the systemd units name the installed paths).

set(RD_APP_ID io.renewaldesk.RenewalDesk)
set(RD_HOMEPAGE "https://renewaldesk.io" CACHE STRING "The project's home page (packages, AppStream)")
set(RD_SCREENSHOT_URL "${RD_HOMEPAGE}/docs/screenshots"
    CACHE STRING "Where docs/screenshots are published (AppStream screenshots)")
set(RD_MAINTAINER "Renewal Desk maintainers <maintainers@users.noreply.a-seed-f5c3d6b2.example>")
set(RD_PROJECT_LICENSE LicenseRef-proprietary) # resources/debian/copyright says why
# This release: its date (AppStream, the Debian changelog) and the Debian revision.
set(RD_RELEASE_DATE 2026-12-01)
set(RD_RELEASE_DATE_RFC2822 "Tue, 01 Dec 2026 12:00:00 +0000")
set(RD_DEB_REVISION 1)
set(RD_DEB_VERSION "${PROJECT_VERSION}-${RD_DEB_REVISION}")
set(RD_PACKAGING_DIR ${CMAKE_CURRENT_BINARY_DIR}/packaging)

# --- renewalctl --------------------------------------------------------------------------
# The numbered files, the repeatable definitions under functions/ and views/, and their order
# (repeatables.txt): docs/migrations.md. Not schema/current.sql: it is the review copy of what
# they make, which no program reads.
install(DIRECTORY migrations/ DESTINATION ${CMAKE_INSTALL_DATADIR}/renewal-desk/migrations
        COMPONENT renewalctl FILES_MATCHING PATTERN "*.sql" PATTERN "repeatables.txt"
        PATTERN "schema" EXCLUDE)

# The webhook receiver and the outbox publisher as systemd services, pointing at the installed
# renewalctl, with example settings and secrets files beside the documentation (docs/operations.md,
# "Receiving webhooks"). Component "systemd", so that `cmake --install BUILD --component
# systemd` installs them without building anything.
set(RD_DOC_DIR "${CMAKE_INSTALL_FULL_DATAROOTDIR}/doc/renewalctl")
set(RD_EXAMPLES_DIR "${RD_DOC_DIR}/examples")
foreach(unit renewal-desk-receiver.service renewal-desk-outbox.service
             renewal-desk-fold.service renewal-desk-fold.timer
             renewal-desk-backup.service renewal-desk-backup.timer
             renewal-desk-access.service renewal-desk-access.timer)
    configure_file(resources/systemd/${unit}.in ${CMAKE_CURRENT_BINARY_DIR}/systemd/${unit} @ONLY)
    install(FILES ${CMAKE_CURRENT_BINARY_DIR}/systemd/${unit}
            DESTINATION lib/systemd/system COMPONENT systemd)
endforeach()
install(FILES resources/systemd/receiver.env resources/systemd/outbox.env resources/systemd/fold.env
              resources/systemd/backup.env resources/systemd/access.env
              resources/systemd/webhook-secrets.json
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/renewalctl/examples COMPONENT systemd)
install(FILES README.md docs/operations.md DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/renewalctl
        COMPONENT systemd)

# --- renewal-desk ------------------------------------------------------------------------
install(FILES resources/${RD_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications
        COMPONENT desk)
configure_file(resources/appstream/${RD_APP_ID}.metainfo.xml.in
               ${RD_PACKAGING_DIR}/${RD_APP_ID}.metainfo.xml @ONLY)
install(FILES ${RD_PACKAGING_DIR}/${RD_APP_ID}.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT desk)
configure_file(resources/man/renewal-desk.1.in ${RD_PACKAGING_DIR}/renewal-desk.1 @ONLY)
find_program(RD_GZIP gzip REQUIRED)
# Gzipped (-n: no name or time stamp inside, so the same input gives the same bytes).
add_custom_command(OUTPUT ${RD_PACKAGING_DIR}/renewal-desk.1.gz
    COMMAND ${RD_GZIP} -9 -n -f -k ${RD_PACKAGING_DIR}/renewal-desk.1
    DEPENDS ${RD_PACKAGING_DIR}/renewal-desk.1 VERBATIM)
add_custom_target(renewal_desk_man ALL DEPENDS ${RD_PACKAGING_DIR}/renewal-desk.1.gz)
install(FILES ${RD_PACKAGING_DIR}/renewal-desk.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT desk)

# The icon: the hand-drawn SVG, and PNGs rendered from it at build time.
set(RD_ICON_SVG ${CMAKE_CURRENT_SOURCE_DIR}/resources/icons/${RD_APP_ID}.svg)
install(FILES ${RD_ICON_SVG} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
        COMPONENT desk)
find_program(RD_RSVG_CONVERT rsvg-convert REQUIRED) # Debian: librsvg2-bin (scripts/deps.sh)
set(RD_ICON_PNGS "")
foreach(size 16 22 24 32 48 64 128 256 512)
    set(png ${RD_PACKAGING_DIR}/icons/${size}x${size}/${RD_APP_ID}.png)
    add_custom_command(OUTPUT ${png}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${RD_PACKAGING_DIR}/icons/${size}x${size}
        COMMAND ${RD_RSVG_CONVERT} --width ${size} --height ${size} --output ${png} ${RD_ICON_SVG}
        DEPENDS ${RD_ICON_SVG} VERBATIM)
    list(APPEND RD_ICON_PNGS ${png})
    install(FILES ${png} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
            COMPONENT desk)
endforeach()
add_custom_target(renewal_desk_icons ALL DEPENDS ${RD_ICON_PNGS})

# --- both: Debian's changelog and copyright in each package's documentation directory -----
configure_file(resources/debian/changelog.in ${RD_PACKAGING_DIR}/changelog.Debian @ONLY)
add_custom_command(OUTPUT ${RD_PACKAGING_DIR}/changelog.Debian.gz
    COMMAND ${RD_GZIP} -9 -n -f -k ${RD_PACKAGING_DIR}/changelog.Debian
    DEPENDS ${RD_PACKAGING_DIR}/changelog.Debian VERBATIM)
add_custom_target(renewal_debian_changelog ALL DEPENDS ${RD_PACKAGING_DIR}/changelog.Debian.gz)
foreach(pair "desk:renewal-desk" "renewalctl:renewalctl")
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 component)
    list(GET pair 1 package)
    install(FILES ${RD_PACKAGING_DIR}/changelog.Debian.gz resources/debian/copyright
            DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${package} COMPONENT ${component})
    # The lintian tags a package overrides, each with its reason (docs/operations.md, "Install and packages").
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/resources/debian/${package}.lintian-overrides)
        install(FILES resources/debian/${package}.lintian-overrides
                DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides RENAME ${package}
                COMPONENT ${component})
    endif()
endforeach()

# --- CPack: one .deb per component group --------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME renewal-desk)
set(CPACK_PACKAGE_VENDOR "Renewal Desk maintainers")
set(CPACK_PACKAGE_CONTACT "${RD_MAINTAINER}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_COMPONENTS_ALL desk renewalctl systemd)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${RD_DEB_REVISION})
set(CPACK_DEBIAN_PACKAGE_SOURCE renewal-desk)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RD_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${RD_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

set(CPACK_DEBIAN_RENEWALCTL_PACKAGE_NAME renewalctl)
set(CPACK_DEBIAN_RENEWALCTL_PACKAGE_SECTION utils)
# The embedded cluster runs Debian's initdb and pg_ctl; a server elsewhere (--db) needs none.
# `db backup` and `db restore` run pg_dump and pg_restore (postgresql-client; postgresql
# brings them too).
set(CPACK_DEBIAN_RENEWALCTL_PACKAGE_RECOMMENDS "postgresql, postgresql-client")
# `statement fetch` reads the providers' APIs with libcurl (OpenSSL flavour). Named here as
# well as found by dpkg-shlibdeps, so that the package says it before and after renewalctl
# links renewal_fetch.
set(CPACK_DEBIAN_RENEWALCTL_PACKAGE_DEPENDS libcurl4)
set(CPACK_DEBIAN_RENEWALCTL_DESCRIPTION
"Renewal Desk command line, webhook receiver and outbox publisher
renewalctl runs Renewal Desk's embedded PostgreSQL cluster and migrates its
schema, imports subscriptions and applies renewals exactly once, receives
billing providers' signed webhooks over HTTP(S) (renewalctl serve), publishes
the outbox of intents for other systems, and works the reconciliation cases.
The receiver and the publisher come as systemd services (not enabled).")

set(CPACK_DEBIAN_DESK_PACKAGE_NAME renewal-desk)
set(CPACK_DEBIAN_DESK_PACKAGE_SECTION x11)
# Qt loads its PostgreSQL driver as a plugin, which dpkg-shlibdeps cannot see. (The X11 and
# offscreen platform plugins are in libqt6gui6, which it does see.)
set(CPACK_DEBIAN_DESK_PACKAGE_DEPENDS "renewalctl (= ${RD_DEB_VERSION}), libqt6sql6-psql")
# A native window on a Wayland desktop (without it, Qt falls back to X11 through Xwayland).
# Qt's own catalogs: the standard buttons (OK, Cancel) in the desk's language.
set(CPACK_DEBIAN_DESK_PACKAGE_RECOMMENDS "qt6-wayland, qt6-translations-l10n")
set(CPACK_DEBIAN_DESK_DESCRIPTION
"Renewal Desk: review subscription renewals and reconcile them
The desk for finance and support staff: subscriptions and their billing
periods, the reconciliation cases that renewals which could not be applied
safely became (re-apply, attach a provider snapshot after a preview, dismiss
with a reason), the webhook inbox and the outbox, live as changes arrive.
The data lives in PostgreSQL: a private cluster started on demand, or a
server of the organisation's own.")

include(CPack)
cpack_add_component_group(renewalctl)
cpack_add_component_group(desk)
cpack_add_component(renewalctl GROUP renewalctl)
cpack_add_component(systemd GROUP renewalctl)
cpack_add_component(desk GROUP desk)
