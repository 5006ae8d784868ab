#pragma once

// Each cmd_*.cpp declares its own commands: their options, bound to typed variables and checked
// as they are parsed, and what runs. CommandLine (command_line.cpp) puts them together in the
// order of the overview.

#include "app/renewalctl/command_tree.h"

namespace rd::cli {

// db start|stop|status|url and migrate (cmd_db.cpp), db backup|restore (cmd_db_backup.cpp),
// db move (cmd_db_move.cpp): under the `db` group CommandLine makes.
void registerDbClusterCommands(CommandTree &tree, CLI::App &dbGroup);
void registerDbBackupCommands(CommandTree &tree, CLI::App &dbGroup);
void registerDbMoveCommand(CommandTree &tree, CLI::App &dbGroup);
void registerMigrateCommand(CommandTree &tree, CLI::App &root);

void registerSubscriptionsCommands(CommandTree &tree, CLI::App &root);
void registerApplyCommand(CommandTree &tree, CLI::App &root);
void registerLedgerCommands(CommandTree &tree, CLI::App &root);
void registerBenchCommand(CommandTree &tree, CLI::App &root);
void registerProvidersCommands(CommandTree &tree, CLI::App &root);
void registerIngestCommand(CommandTree &tree, CLI::App &root);
void registerServeCommand(CommandTree &tree, CLI::App &root);
void registerReplayCommand(CommandTree &tree, CLI::App &root);
void registerNormalizeCommand(CommandTree &tree, CLI::App &root);
void registerOutboxCommands(CommandTree &tree, CLI::App &root);
void registerDemoCommand(CommandTree &tree, CLI::App &root);
void registerSimulateCommand(CommandTree &tree, CLI::App &root);
void registerStatementCommands(CommandTree &tree, CLI::App &root);
void registerCasesCommands(CommandTree &tree, CLI::App &root);
void registerSnapshotCommands(CommandTree &tree, CLI::App &root);
void registerCloseCommand(CommandTree &tree, CLI::App &root);
void registerAuditCommands(CommandTree &tree, CLI::App &root);
void registerFoldCommand(CommandTree &tree, CLI::App &root);
void registerInboxCommands(CommandTree &tree, CLI::App &root);
void registerAccessCommands(CommandTree &tree, CLI::App &root);
// find TEXT (cmd_find.cpp): the desk's Find anything for scripts (#42).
void registerFindCommand(CommandTree &tree, CLI::App &root);

// roles grant (cmd_audit.cpp) and roles check (cmd_db_move.cpp): under the `roles` group.
void registerRolesGrantCommand(CommandTree &tree, CLI::App &rolesGroup);
void registerRolesCheckCommand(CommandTree &tree, CLI::App &rolesGroup);

} // namespace rd::cli
