#include "domain/store/backup_file.h"

#include "domain/core/errors.h"
#include "domain/core/json_input.h"
#include "domain/store/private_files.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace rd {
namespace {

constexpr std::string_view kDumpLinePrefix = "DUMP sha256=";
// "DUMP sha256=" + 64 hex + " bytes=" + 20 digits + "\n": fixed, so it can be rewritten.
constexpr std::size_t kDumpLineSize = 12 + 64 + 7 + 20 + 1;
// The manifest line is bounded by what it says of itself before its anchor (#39, item 8: a
// 300 MB line of junk was read whole, 504 MB of memory and 7-9 s, before it was refused). Its
// first kManifestHeadBytes hold every field but the anchor (written in that order); the anchor
// is some 150 bytes a chain head, so kBytesPerAnchorHead leaves room for several times that.
// Past kMaxManifestBytes (some two million heads) nothing is one of ours.
constexpr std::size_t kManifestHeadBytes = 64 * 1024;
constexpr std::size_t kBytesPerAnchorHead = 1024;
constexpr std::size_t kMaxManifestBytes = std::size_t(2) << 30;
constexpr std::string_view kManifestStart = R"({"format":)";
constexpr std::string_view kAnchorHeadsField = R"("anchorHeads":)";
// The breaks a backup of broken chains records (#42, item 6) come after anchorHeads, their
// count first: each is some 450 bytes, with its three hashes.
constexpr std::string_view kBreakCountField = R"("breakCount":)";
constexpr std::size_t kBytesPerRecordedBreak = 2048;

/// The whole number after `field` in `head`; npos when the field is not there, and at most
/// `cap` (a count past it bounds nothing more).
std::size_t countAfter(std::string_view head, std::string_view field, std::size_t cap)
{
    const auto at = head.find(field);
    if (at == std::string_view::npos)
        return std::string_view::npos;
    std::size_t n = 0;
    for (auto i = at + field.size(); i < head.size() && head[i] >= '0' && head[i] <= '9'; ++i) {
        n = n * 10 + static_cast<std::size_t>(head[i] - '0');
        if (n > cap)
            return cap;
    }
    return n;
}

std::string dumpLine(const std::string &sha, long long bytes)
{
    char line[kDumpLineSize + 1];
    std::snprintf(line, sizeof line, "DUMP sha256=%s bytes=%020lld\n", sha.c_str(), bytes);
    return std::string(line, kDumpLineSize);
}

std::string systemError(const std::string &what, const fs::path &path)
{
    return "cannot " + what + " " + path.string() + ": " + std::strerror(errno);
}

/// How long the manifest line starting with `head` may be: InputError when the head is not a
/// manifest's (the line after the magic is junk) or names no anchorHeads before the anchor.
std::size_t manifestLineLimit(const fs::path &path, std::string_view head)
{
    if (!head.starts_with(kManifestStart.substr(0, std::min(head.size(), kManifestStart.size()))))
        throw InputError(path.string(),
            "the line after RENEWAL-DESK-BACKUP is not a manifest: the file is damaged");
    const auto heads = countAfter(head, kAnchorHeadsField, kMaxManifestBytes / kBytesPerAnchorHead);
    if (heads == std::string_view::npos)
        throw InputError(path.string(),
            "the manifest names no anchorHeads in its first 64 KiB: the file is damaged");
    auto breaks = countAfter(head, kBreakCountField, kMaxManifestBytes / kBytesPerRecordedBreak);
    if (breaks == std::string_view::npos) // a file written before #42
        breaks = 0;
    return std::min(kMaxManifestBytes,
        kManifestHeadBytes + heads * kBytesPerAnchorHead + breaks * kBytesPerRecordedBreak);
}

bool isHex64(const std::string &s)
{
    if (s.size() != 64)
        return false;
    for (const char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

} // namespace

std::string manifestJson(const BackupManifest &m, bool withDump)
{
    // In this order, the anchor last: `head -c 2000 FILE` shows what the file holds.
    nlohmann::ordered_json j {{"format", m.format}, {"program", m.program},
        {"schemaVersion", m.schemaVersion}, {"takenAt", m.takenAt}, {"source", m.source},
        {"counts", m.counts}, {"anchorDigest", m.anchorDigest}, {"anchorHeads", m.anchorHeads}};
    if (m.chainsVerified) {
        // After anchorHeads, within the first 64 KiB: the breaks' count bounds the line.
        nlohmann::ordered_json breaks = nlohmann::ordered_json::array();
        for (const auto &b : m.chainBreaks)
            breaks.push_back({{"chain", b.chain}, {"chainId", b.chainId}, {"rowId", b.rowId},
                {"seq", b.seq}, {"problem", b.problem}, {"rowHash", b.rowHash},
                {"contentHash", b.contentHash}, {"previousRowHash", b.previousRowHash},
                {"provider", b.provider}, {"subscription", b.subscription}});
        j["chains"] = {{"breakCount", m.chainBreaks.size()}, {"rows", m.auditRows},
            {"chains", m.auditChains}, {"moreBreaks", m.moreChainBreaks}, {"breaks", breaks}};
    }
    if (withDump) {
        j["dumpSha256"] = m.dumpSha256;
        j["dumpBytes"] = m.dumpBytes;
    }
    j["anchor"] = m.anchor;
    return j.dump();
}

namespace {

/// The manifest's "chains": what the backup's verification found (#42, item 6).
void chainsFromJson(const nlohmann::json &j, BackupManifest &m)
{
    if (!j.is_object())
        throw InputError("manifest.chains", "not an object");
    auto field = [](const nlohmann::json &in, const std::string &where, const char *key) {
        const auto it = in.find(key);
        if (it == in.end())
            throw InputError(where + "." + key, "missing");
        return *it;
    };
    auto integer = [&](const nlohmann::json &in, const std::string &where, const char *key) {
        const auto v = field(in, where, key);
        if (!v.is_number_integer() || v.get<long long>() < 0)
            throw InputError(where + "." + key, "not a whole number");
        return v.get<long long>();
    };
    auto text = [&](const nlohmann::json &in, const std::string &where, const char *key) {
        const auto v = field(in, where, key);
        if (!v.is_string())
            throw InputError(where + "." + key, "not a string");
        return v.get<std::string>();
    };
    m.chainsVerified = true;
    m.auditRows = integer(j, "manifest.chains", "rows");
    m.auditChains = integer(j, "manifest.chains", "chains");
    const auto more = field(j, "manifest.chains", "moreBreaks");
    if (!more.is_boolean())
        throw InputError("manifest.chains.moreBreaks", "not true or false");
    m.moreChainBreaks = more.get<bool>();
    const auto breaks = field(j, "manifest.chains", "breaks");
    if (!breaks.is_array())
        throw InputError("manifest.chains.breaks", "not a list");
    for (std::size_t i = 0; i < breaks.size(); ++i) {
        const std::string where = "manifest.chains.breaks[" + std::to_string(i) + "]";
        const auto &b = breaks[i];
        if (!b.is_object())
            throw InputError(where, "not an object");
        ChainBreak c {text(b, where, "chain"), text(b, where, "chainId"),
            integer(b, where, "rowId"), integer(b, where, "seq"), text(b, where, "problem"),
            text(b, where, "provider"), text(b, where, "subscription")};
        c.rowHash = text(b, where, "rowHash");
        c.contentHash = text(b, where, "contentHash");
        c.previousRowHash = text(b, where, "previousRowHash");
        m.chainBreaks.push_back(std::move(c));
    }
    if (integer(j, "manifest.chains", "breakCount") != static_cast<long long>(m.chainBreaks.size()))
        throw InputError("manifest.chains.breakCount", "is not the number of breaks listed");
}

} // namespace

BackupManifest manifestFromJson(std::string_view text)
{
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception &) {
        throw InputError("manifest", "not valid JSON (the file is damaged or not a backup)");
    }
    if (!j.is_object())
        throw InputError("manifest", "not a JSON object");
    auto string = [&](const char *key) {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_string())
            throw InputError(std::string("manifest.") + key, "missing or not a string");
        return it->get<std::string>();
    };
    auto integer = [&](const char *key) {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_number_integer())
            throw InputError(std::string("manifest.") + key, "missing or not a whole number");
        return it->get<long long>();
    };
    BackupManifest m;
    m.format = static_cast<int>(integer("format"));
    if (m.format != 1)
        throw InputError("manifest.format",
            "format " + std::to_string(m.format)
                + " is not one this program reads (it reads format 1)");
    m.program = string("program");
    m.schemaVersion = string("schemaVersion");
    m.takenAt = string("takenAt");
    m.source = string("source");
    m.anchor = string("anchor");
    m.anchorDigest = string("anchorDigest");
    m.anchorHeads = integer("anchorHeads");
    const auto counts = j.find("counts");
    if (counts == j.end() || !counts->is_object())
        throw InputError("manifest.counts", "missing or not an object");
    for (const auto &[table, n] : counts->items()) {
        if (!n.is_number_integer() || n.get<long long>() < 0)
            throw InputError("manifest.counts." + printableAscii(table), "not a count");
        m.counts[table] = n.get<long long>();
    }
    if (m.schemaVersion.empty())
        throw InputError("manifest.schemaVersion", "empty");
    if (!isHex64(m.anchorDigest))
        throw InputError("manifest.anchorDigest", "expected 64 lower-case hexadecimal digits");
    if (const auto chains = j.find("chains"); chains != j.end())
        chainsFromJson(*chains, m);
    return m;
}

BackupFileWriter::BackupFileWriter(fs::path path, const BackupManifest &manifest)
    : m_path(std::move(path)), m_manifest(manifest)
{
    m_partial = m_path;
    m_partial += ".partial";
    std::error_code ec;
    if (fs::exists(m_path, ec))
        throw InputError(m_path.string(), "exists already (a backup never replaces a file)");
    // 0600: the dump holds every table, raw bodies included. A partial file left by a crash
    // is replaced. A directory that does not exist or may not be written: the caller's choice
    // of path, named in the InputError.
    createPrivateFile(m_partial);
    m_out.open(m_partial, std::ios::binary | std::ios::out | std::ios::trunc);
    const std::string header = std::string(kBackupMagic) + manifestJson(manifest, false) + "\n";
    m_out.write(header.data(), static_cast<std::streamsize>(header.size()));
    m_digestLineAt = static_cast<std::streamoff>(header.size());
    const std::string placeholder = dumpLine(std::string(64, '0'), 0);
    m_out.write(placeholder.data(), static_cast<std::streamsize>(placeholder.size()));
    if (!m_out) {
        std::error_code ignored;
        fs::remove(m_partial, ignored);
        throw std::runtime_error("cannot write " + m_partial.string());
    }
}

BackupFileWriter::~BackupFileWriter()
{
    if (!m_committed) {
        m_out.close();
        std::error_code ignored;
        fs::remove(m_partial, ignored);
    }
}

void BackupFileWriter::append(std::string_view bytes)
{
    m_sha.update(bytes);
    m_out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!m_out)
        throw std::runtime_error("cannot write " + m_partial.string() + " (is the disk full?)");
    m_dumpBytes += static_cast<long long>(bytes.size());
}

BackupManifest BackupFileWriter::commit(long long *fileBytes)
{
    m_manifest.dumpSha256 = m_sha.hexDigest();
    m_manifest.dumpBytes = m_dumpBytes;
    m_out.seekp(m_digestLineAt);
    const std::string line = dumpLine(m_manifest.dumpSha256, m_dumpBytes);
    m_out.write(line.data(), static_cast<std::streamsize>(line.size()));
    m_out.close();
    if (!m_out)
        throw std::runtime_error("cannot write " + m_partial.string() + " (is the disk full?)");
    // Durable before it gets the name that says it is complete.
    const int fd = ::open(m_partial.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        if (fd >= 0)
            ::close(fd);
        throw std::runtime_error(systemError("sync", m_partial));
    }
    ::close(fd);
    // link() + unlink(): the final name appears complete, and never over a file that was
    // created there meanwhile (rename() would silently replace it).
    if (::link(m_partial.c_str(), m_path.c_str()) != 0) {
        if (errno == EEXIST)
            throw InputError(m_path.string(), "exists already (a backup never replaces a file)");
        throw std::runtime_error(systemError("name the backup", m_path));
    }
    m_committed = true;
    ::unlink(m_partial.c_str());
    const int dir = ::open(m_path.parent_path().empty() ? "." : m_path.parent_path().c_str(),
        O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    if (fileBytes) {
        std::error_code ec;
        *fileBytes = static_cast<long long>(fs::file_size(m_path, ec));
    }
    return m_manifest;
}

BackupFileReader::BackupFileReader(const fs::path &path)
{
    std::error_code ec;
    if (fs::is_directory(path, ec))
        throw InputError(path.string(), "is a directory, not a backup file");
    m_in.open(path, std::ios::binary);
    if (!m_in)
        throw InputError(path.string(), std::string("cannot be read: ") + std::strerror(errno));
    std::string magic(kBackupMagic.size(), '\0');
    m_in.read(magic.data(), static_cast<std::streamsize>(magic.size()));
    if (m_in.gcount() != static_cast<std::streamsize>(magic.size()) || magic != kBackupMagic) {
        if (magic.starts_with("RENEWAL-DESK-BACKUP "))
            throw InputError(path.string(),
                "a backup of a format this program does not read (it reads format 1)");
        throw InputError(path.string(), "not a Renewal Desk backup (no RENEWAL-DESK-BACKUP line)");
    }
    std::string manifestLine;
    std::size_t limit = kManifestHeadBytes;
    bool headRead = false;
    for (char c; m_in.get(c);) {
        if (c == '\n')
            break;
        manifestLine += c;
        if (!headRead && manifestLine.size() == kManifestHeadBytes) {
            limit = manifestLineLimit(path, manifestLine);
            headRead = true;
        }
        if (manifestLine.size() > limit)
            throw InputError(path.string(),
                "the manifest line is longer than its " + std::to_string(limit / 1024)
                    + " KiB bound (set by its anchorHeads): the file is damaged");
    }
    if (!m_in)
        throw InputError(path.string(), "truncated: the file ends inside its manifest");
    try {
        m_manifest = manifestFromJson(manifestLine);
    } catch (const InputError &e) {
        throw e.locatedAt(path.string());
    }
    std::string line(kDumpLineSize, '\0');
    m_in.read(line.data(), static_cast<std::streamsize>(line.size()));
    if (m_in.gcount() != static_cast<std::streamsize>(line.size()))
        throw InputError(path.string(), "truncated: the file ends before its dump");
    char sha[65] = {};
    long long bytes = -1;
    m_fileSha.update(magic);
    m_fileSha.update(manifestLine);
    m_fileSha.update("\n");
    m_fileSha.update(line);
    if (!line.starts_with(kDumpLinePrefix) || line.back() != '\n'
        || std::sscanf(line.c_str(), "DUMP sha256=%64s bytes=%lld", sha, &bytes) != 2
        || !isHex64(sha) || bytes < 0)
        throw InputError(path.string(), "the DUMP line is damaged: not a complete backup");
    m_manifest.dumpSha256 = sha;
    m_manifest.dumpBytes = bytes;
    m_left = bytes;
}

std::size_t BackupFileReader::read(char *buffer, std::size_t max)
{
    if (m_left <= 0)
        return 0;
    const auto want
        = static_cast<std::streamsize>(std::min<long long>(m_left, static_cast<long long>(max)));
    m_in.read(buffer, want);
    const auto got = m_in.gcount();
    m_fileSha.update(std::string_view(buffer, static_cast<std::size_t>(got)));
    m_left -= got;
    return static_cast<std::size_t>(got);
}

bool BackupFileReader::endsAfterDump()
{
    return m_left == 0 && m_in.peek() == std::char_traits<char>::eof();
}

void writeBackupFile(const fs::path &path, const BackupManifest &manifest, std::string_view dump)
{
    BackupFileWriter writer(path, manifest);
    writer.append(dump);
    writer.commit();
}

} // namespace rd
