#pragma once

// One `renewalctl serve` process for the receiver's tests: started on a free port (or a given
// one), found by the "listening" line it logs first, and stopped with SIGTERM when the test
// ends.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <chrono>
#include <cstdint>
#include <string>
#include <sys/stat.h>

class QTemporaryDir;

namespace rdtest {

class Receiver
{
public:
    Receiver(const std::string &conninfo, const QString &secrets, QStringList extra = {},
        std::uint16_t port = 0);
    ~Receiver();
    Receiver(const Receiver &) = delete;
    Receiver &operator=(const Receiver &) = delete;

    std::uint16_t port() const { return m_port; }
    qint64 pid() const { return m_process.processId(); }
    QProcess &process() { return m_process; }
    /// SIGTERM, then everything it logged and its exit code.
    int terminate(QByteArray *log = nullptr);
    QByteArray stderrText() { return m_process.readAllStandardError(); }
    /// Waits for the next log line holding `text`; that line, or empty after `timeout`.
    QByteArray waitForLogLine(const QByteArray &text, std::chrono::milliseconds timeout);

private:
    QProcess m_process;
    std::uint16_t m_port = 0;
    QByteArray m_log;
};

/// Writes `json` as dir/secrets.json with `mode`; its path.
QString writeSecrets(const QTemporaryDir &dir, const std::string &json, mode_t mode = 0600);

} // namespace rdtest
