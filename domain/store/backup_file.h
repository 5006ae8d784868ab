#pragma once

#include "domain/core/sha256.h"
#include "domain/store/database_backup.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace rd {

// The backup file: a small self-describing container around one pg_dump custom-format archive.
//
//   RENEWAL-DESK-BACKUP 1\n                         the magic line (format 1)
//   {"format":1,"program":...,"anchor":...}\n       the manifest, one line of JSON
//   DUMP sha256=<64 hex> bytes=<20 digits>\n        the dump's digest and size (fixed width)
//   <the pg_dump -Fc archive, exactly `bytes` bytes>
//
// The manifest comes first so that `head -c 2000 FILE` shows people what a file holds; the
// dump's digest line has a fixed width because it is known only once the dump has been
// streamed: it is written as zeros and rewritten in place (one pass over the dump, no
// temporary copy of a file that may be gigabytes). The manifest held in memory, and in the
// backup log, carries the digest too (dumpSha256, dumpBytes); on disk they are in the DUMP
// line only, so the manifest line never has to be rewritten.

constexpr std::string_view kBackupMagic = "RENEWAL-DESK-BACKUP 1\n";

/// The manifest as JSON (the file's manifest line; dumpSha256/dumpBytes included when
/// `withDump`).
std::string manifestJson(const BackupManifest &manifest, bool withDump);
/// The manifest from its JSON; InputError naming the field that is wrong.
BackupManifest manifestFromJson(std::string_view json);

/// Writes a backup file: the header, then the dump as it arrives, then the digest line is
/// rewritten. The file is `path` + ".partial" until commit() renames it; destroyed before
/// commit(), it removes the partial file.
class BackupFileWriter
{
public:
    /// Creates `path`.partial (mode 0600; refused when `path` exists) and writes the magic and
    /// manifest lines and a placeholder digest line.
    BackupFileWriter(std::filesystem::path path, const BackupManifest &manifest);
    ~BackupFileWriter();
    BackupFileWriter(const BackupFileWriter &) = delete;
    BackupFileWriter &operator=(const BackupFileWriter &) = delete;

    void append(std::string_view dumpBytes);
    long long dumpBytes() const { return m_dumpBytes; }
    /// Rewrites the digest line, syncs, and gives the file its final name (never replacing a
    /// file that appeared there meanwhile). Returns the manifest with the dump's digest and
    /// size filled in, and the file's size.
    BackupManifest commit(long long *fileBytes = nullptr);

private:
    std::filesystem::path m_path;
    std::filesystem::path m_partial;
    BackupManifest m_manifest;
    std::ofstream m_out;
    std::streamoff m_digestLineAt = 0;
    long long m_dumpBytes = 0;
    Sha256 m_sha;
    bool m_committed = false;
};

/// An opened backup file whose header has been read: the manifest (with the DUMP line's digest
/// and size) and a stream positioned at the dump. Header errors are InputErrors naming them.
class BackupFileReader
{
public:
    explicit BackupFileReader(const std::filesystem::path &path);
    const BackupManifest &manifest() const { return m_manifest; }
    /// Reads up to `max` dump bytes into `buffer`; 0 at the dump's end (or the file's, when it
    /// is truncated: the caller compares with manifest().dumpBytes).
    std::size_t read(char *buffer, std::size_t max);
    /// Whether the file ends where its dump does (checked once the dump has been read).
    bool endsAfterDump();
    /// The SHA-256 (hex) of every byte read so far: the whole file's, once the dump has been
    /// read and endsAfterDump() held. What `db restore --digest` compares (#39, item 3). Asked
    /// once: the hash then starts again, empty (Sha256::hexDigest).
    std::string fileSha256() { return m_fileSha.hexDigest(); }

private:
    std::ifstream m_in;
    BackupManifest m_manifest;
    long long m_left = 0;
    Sha256 m_fileSha;
};

/// Writes a whole backup file from a manifest and dump bytes (dump digest and size computed
/// here). For tests that forge files, and for tools.
void writeBackupFile(
    const std::filesystem::path &path, const BackupManifest &manifest, std::string_view dump);

} // namespace rd
