#include "ui/widgets/backupprogresspanel.h"

#include "ui/actions/backupjobs.h"

#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {

BackupProgressPanel::BackupProgressPanel(const QString &objectName, QWidget *parent)
    : QWidget(parent), m_phase(new QLabel), m_bar(new QProgressBar)
{
    setObjectName(objectName);
    m_phase->setObjectName(objectName + u"-phase"_qs);
    m_bar->setObjectName(objectName + u"-bar"_qs);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_phase);
    layout->addWidget(m_bar);
    hide();
}

void BackupProgressPanel::begin()
{
    showProgress({}, 0, 0);
    show();
}

void BackupProgressPanel::showProgress(const QString &phase, qint64 bytes, qint64 expectedBytes)
{
    QString text = backupPhaseText(phase);
    // The verifications count audit rows, not bytes.
    if ((phase == u"verify" || phase == u"chains") && bytes > 0)
        text += u"  "_qs
            + tr("%1 of about %2 audit rows")
                  .arg(QLocale().toString(bytes), QLocale().toString(expectedBytes));
    else if (bytes > 0)
        text += u"  "_qs
            + (expectedBytes > 0
                    ? tr("%1 of about %2").arg(fileSizeText(bytes), fileSizeText(expectedBytes))
                    : fileSizeText(bytes));
    m_phase->setText(text);
    if (expectedBytes > 0) {
        m_bar->setRange(0, 1000);
        m_bar->setValue(int(std::min<qint64>(1000, bytes * 1000 / expectedBytes)));
    } else {
        m_bar->setRange(0, 0); // busy: the size is not known (yet)
    }
}

void BackupProgressPanel::showCanceling()
{
    m_phase->setText(tr("Canceling…"));
}

void BackupProgressPanel::end()
{
    hide();
}

QString BackupProgressPanel::text() const
{
    return m_phase->text();
}

} // namespace rd::ui
