#include "tests/support/receiver_process.h"

#include "tests/support/test_database.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QTemporaryDir>

#include <csignal>

using namespace std::chrono_literals;

namespace rdtest {

Receiver::Receiver(
    const std::string &conninfo, const QString &secrets, QStringList extra, std::uint16_t port)
{
    QStringList args {"serve", "--listen", QString("127.0.0.1:%1").arg(port), "--secrets", secrets,
        "--db", QString::fromStdString(conninfo)};
    m_process.start(QString::fromStdString(renewalctlPath()), args << extra);
    m_process.waitForStarted();
    // The first line says where it listens: {"listening":["127.0.0.1:PORT"], ...}.
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (std::chrono::steady_clock::now() < deadline && m_port == 0) {
        if (!m_process.canReadLine() && !m_process.waitForReadyRead(200)) {
            if (m_process.state() != QProcess::Running)
                break;
            continue;
        }
        while (m_process.canReadLine()) {
            const QByteArray line = m_process.readLine();
            m_log += line;
            const auto j = nlohmann::json::parse(line.toStdString(), nullptr, false);
            if (j.is_object() && j.contains("listening")) {
                const std::string first = j["listening"][0];
                m_port = static_cast<std::uint16_t>(std::stoi(first.substr(first.rfind(':') + 1)));
            }
        }
    }
}

Receiver::~Receiver()
{
    if (m_process.state() == QProcess::Running) {
        ::kill(static_cast<pid_t>(m_process.processId()), SIGTERM);
        if (!m_process.waitForFinished(20000))
            m_process.kill();
    }
    m_process.waitForFinished(5000);
}

int Receiver::terminate(QByteArray *log)
{
    ::kill(static_cast<pid_t>(m_process.processId()), SIGTERM);
    m_process.waitForFinished(60000);
    m_log += m_process.readAllStandardOutput();
    if (log)
        *log = m_log;
    return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
}

QByteArray Receiver::waitForLogLine(const QByteArray &text, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        while (m_process.canReadLine()) {
            const QByteArray line = m_process.readLine();
            m_log += line;
            if (line.contains(text))
                return line;
        }
        if (std::chrono::steady_clock::now() >= deadline || m_process.state() != QProcess::Running)
            return {};
        m_process.waitForReadyRead(100);
    }
}

QString writeSecrets(const QTemporaryDir &dir, const std::string &json, mode_t mode)
{
    const QString path = dir.filePath("secrets.json");
    QFile f(path);
    f.open(QIODevice::WriteOnly | QIODevice::Truncate);
    f.write(json.data(), static_cast<qint64>(json.size()));
    f.close();
    ::chmod(path.toLocal8Bit().constData(), mode);
    return path;
}

} // namespace rdtest
