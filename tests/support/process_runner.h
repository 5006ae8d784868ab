#pragma once

#include "tests/support/test_database.h"

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>

namespace rdtest {

struct RunResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// Runs renewalctl (or `program`) to completion with `input` on stdin.
inline RunResult runProgram(const QString &program, const QStringList &args,
    const QByteArray &input = {},
    const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
    int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForStarted())
        return {};
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(timeoutMs);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError()};
}

/// The renewalctl under test, as a program for QProcess.
inline QString ctl()
{
    return QString::fromStdString(renewalctlPath());
}

/// `args` pointed at a test database.
inline QStringList withDb(const std::string &conninfo, QStringList args)
{
    return args << "--db" << QString::fromStdString(conninfo);
}
inline QStringList withDb(const TestDatabase &db, QStringList args)
{
    return withDb(db.conninfo(), std::move(args));
}

} // namespace rdtest
