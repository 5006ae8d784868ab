#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;

namespace rd::ui {

/// Where a backup or a restore is: the phase in words and the bytes done of the expected (a
/// busy bar while the size is not known). Shown while the job runs, hidden otherwise.
class BackupProgressPanel : public QWidget
{
    Q_OBJECT

public:
    explicit BackupProgressPanel(const QString &objectName, QWidget *parent = nullptr);

    /// Shows the panel, busy, before the job's first word.
    void begin();
    void showProgress(const QString &phase, qint64 bytes, qint64 expectedBytes);
    void showCanceling();
    void end();
    QString text() const;

private:
    QLabel *m_phase;
    QProgressBar *m_bar;
};

} // namespace rd::ui
