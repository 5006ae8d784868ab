# What each layer may use, checked when the build is configured: a layer whose link line
# reaches something it must not stops the configuration with the reason. Usage requirements
# count (what a target links PUBLIC, or PRIVATE itself); a dependency's PRIVATE libraries,
# which reach the final link only ($<LINK_ONLY:...>), give no headers and do not count.

# Every library `target` can compile against: its own link libraries and, transitively, the
# INTERFACE_LINK_LIBRARIES of the targets among them.
function(rd_usable_libraries target out)
    set(seen "")
    get_target_property(pending ${target} LINK_LIBRARIES)
    if(NOT pending)
        set(pending "")
    endif()
    while(pending)
        list(POP_FRONT pending lib)
        if(lib MATCHES "^\\$<LINK_ONLY:" OR lib IN_LIST seen)
            continue()
        endif()
        list(APPEND seen ${lib})
        if(TARGET ${lib})
            get_target_property(more ${lib} INTERFACE_LINK_LIBRARIES)
            if(more)
                list(APPEND pending ${more})
            endif()
        endif()
    endwhile()
    set(${out} "${seen}" PARENT_SCOPE)
endfunction()

function(rd_forbid target why)
    rd_usable_libraries(${target} usable)
    foreach(forbidden IN LISTS ARGN)
        foreach(lib IN LISTS usable)
            if(lib MATCHES "${forbidden}")
                message(FATAL_ERROR "layering: ${target} reaches ${lib}, but ${why}")
            endif()
        endforeach()
    endforeach()
endfunction()

rd_forbid(renewal_core "the pure core links nlohmann_json and OpenSSL only"
    "PQXX" "LIBPQ" "^Qt6::" "renewal_store" "renewal_demo")
rd_forbid(renewal_store "the store has no Qt and no HTTP layer" "^Qt6::" "renewal_ui" "renewal_cli"
    "renewal_receiver" "^Boost::")
rd_forbid(renewal_demo "demo data has no Qt" "^Qt6::" "renewal_ui" "renewal_cli")
rd_forbid(renewal_cli "renewalctl has no Qt" "^Qt6::" "renewal_ui")
rd_forbid(renewal_ui_models "the read models use no widgets, no libpqxx and change no data"
    "^Qt6::Widgets$" "PQXX" "renewal_ui_actions" "renewal_ui_widgets" "renewal_cli")
rd_forbid(renewal_ui_actions "the desk's operations use no widgets and no libpqxx (the store's API)"
    "^Qt6::Widgets$" "PQXX" "renewal_ui_widgets" "renewal_cli")
rd_forbid(renewal_ui_widgets "the desk calls store operations, never libpqxx" "PQXX"
    "renewal_cli")
rd_forbid(renewal_receiver "the receiver has no Qt" "^Qt6::" "renewal_ui" "renewal_cli")
rd_forbid(renewal_fetch "statement fetch is libcurl over the core: no database, no Qt, no outer layer"
    "PQXX" "LIBPQ" "^Qt6::" "renewal_store" "renewal_demo" "renewal_receiver" "renewal_ui"
    "renewal_cli" "^Boost::")
rd_forbid(renewal_workload "the bench workload is a tool over the store: no Qt, no outer layer"
    "^Qt6::" "renewal_ui" "renewal_cli" "renewal_demo" "renewal_receiver" "renewal_fetch"
    "^Boost::")
rd_forbid(renewal-desk "the desk's main opens its database through the store (prepared_database.h), never libpqxx"
    "PQXX" "renewal_cli" "renewal_workload" "renewal_demo" "renewal_receiver" "renewal_fetch"
    "^Boost::")
rd_forbid(renewal-desk-bench "the desk's bench measures the read models: no pages, no actions, no libpqxx"
    "PQXX" "renewal_ui_actions" "renewal_ui_widgets" "renewal_cli" "renewal_workload" "renewal_demo")
rd_forbid(renewal-presign "presign signs payloads with the core: no database, no Qt"
    "PQXX" "LIBPQ" "^Qt6::" "renewal_store" "renewal_ui" "renewal_cli")

# libpqxx is the store's own, linked PRIVATE (db_session.h is its callers' way in): no other
# target of the product (domain, ui, app, bench) names it on its link line. Tests may
# (rd_test_support).
function(rd_targets_under dir out)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    foreach(sub IN LISTS subdirs)
        rd_targets_under(${sub} more)
        list(APPEND targets ${more})
    endforeach()
    set(${out} "${targets}" PARENT_SCOPE)
endfunction()
foreach(_rd_dir domain ui app bench)
    rd_targets_under(${PROJECT_SOURCE_DIR}/${_rd_dir} _rd_targets)
    foreach(_rd_target IN LISTS _rd_targets)
        get_target_property(_rd_type ${_rd_target} TYPE)
        if(NOT _rd_target STREQUAL "renewal_store" AND NOT _rd_type STREQUAL "UTILITY")
            rd_forbid(${_rd_target} "only renewal_store links libpqxx: go through its API"
                "PQXX")
        endif()
    endforeach()
endforeach()

# Tests link what they test (tests/CMakeLists.txt): a test of the core or of the read models
# reaches no widgets, and no test links renewalctl's command library (tst_cli runs the program).
if(BUILD_TESTING)
    get_property(_rd_tests DIRECTORY ${PROJECT_SOURCE_DIR}/tests PROPERTY BUILDSYSTEM_TARGETS)
    foreach(_rd_test IN LISTS _rd_tests)
        if(_rd_test MATCHES "^tst_")
            rd_forbid(${_rd_test} "a test does not link renewalctl's commands" "renewal_cli"
                "renewal_workload")
        endif()
    endforeach()
    foreach(_rd_test tst_timestamp tst_renewalevent tst_currency tst_csv tst_sha256 tst_encoding
            tst_signatures tst_adapters tst_statement tst_providersnapshot)
        rd_forbid(${_rd_test} "a test of the pure core links the core" "PQXX" "LIBPQ"
            "renewal_store" "^Qt6::Widgets$" "^Qt6::Sql$")
    endforeach()
    foreach(_rd_test tst_ui_snapshotpreview tst_ui_connectionsettings tst_ui_asyncresult
            tst_ui_recordtablemodel tst_ui_caseevidence tst_ui_format tst_ui_deliverybody
            tst_ui_navigationhistory tst_ui_subscriptionsmodel tst_ui_casehistory tst_ui_casequeue)
        rd_forbid(${_rd_test} "a read model's test links no widgets and no actions"
            "^Qt6::Widgets$" "renewal_ui_actions" "renewal_ui_widgets")
    endforeach()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/diagram.cmake)
