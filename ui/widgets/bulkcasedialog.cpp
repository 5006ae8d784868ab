#include "ui/widgets/bulkcasedialog.h"

#include "ui/actions/bulkcaserun.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/tableview.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace rd::ui {

BulkCaseDialog::BulkCaseDialog(BulkCaseRun *run, const QString &title, QWidget *parent)
    : QDialog(parent)
    , m_run(run)
    , m_heading(new QLabel)
    , m_progress(new QProgressBar)
    , m_table(new TableView)
    , m_summary(new QLabel)
{
    setWindowTitle(title);
    m_run->setParent(this);
    m_heading->setWordWrap(true);
    m_heading->setObjectName(u"bulk-heading"_qs);
    m_progress->setObjectName(u"bulk-progress"_qs);
    m_table->setObjectName(u"bulk-results"_qs);
    m_table->setModel(m_run->results());
    // The sentence wraps within the dialog rather than scrolling sideways.
    m_table->setWordWrap(true);
    m_table->setColumnsFitted(true); // fitted here, not by TableView's first rows
    m_table->horizontalHeader()->setSectionResizeMode(BulkCaseRun::Detail, QHeaderView::Stretch);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_summary->setWordWrap(true);
    m_summary->setObjectName(u"bulk-summary"_qs);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *box = new QDialogButtonBox;
    m_cancel = box->addButton(QDialogButtonBox::Cancel);
    m_cancel->setText(tr("Stop after this case"));
    m_cancel->setToolTip(tr("Cases already run keep their result; the rest are not touched."));
    m_close = box->addButton(QDialogButtonBox::Close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_heading);
    layout->addWidget(m_progress);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_summary);
    layout->addWidget(box);
    connect(m_cancel, &QPushButton::clicked, m_run, &BulkCaseRun::cancel);
    connect(m_close, &QPushButton::clicked, this, &QDialog::accept);
    connect(m_run, &BulkCaseRun::progressed, this, &BulkCaseDialog::update);
    connect(m_run, &BulkCaseRun::finished, this, &BulkCaseDialog::update);
    resize(820, 420);
    update();
}

QString BulkCaseDialog::summaryText() const
{
    return m_summary->text();
}

void BulkCaseDialog::update()
{
    const bool running = m_run->isRunning();
    m_progress->setRange(0, std::max(1, m_run->total()));
    m_progress->setValue(m_run->done());
    m_progress->setFormat(tr("%v of %m cases"));
    m_heading->setText(u"<b>"_qs + windowTitle().toHtmlEscaped() + u"</b> &nbsp;·&nbsp; "_qs
        + (running ? tr("each case through the renewal core on its own, one transaction a "
                        "case: %1 of %2 done.")
                         .arg(m_run->done())
                         .arg(m_run->total())
                   : tr("finished: %1 of %2 run.").arg(m_run->done()).arg(m_run->total())));
    m_summary->setText(m_run->summary());
    m_cancel->setEnabled(running && !m_run->wasCancelled());
    m_close->setEnabled(!running);
    // Fit the short columns once there is something to fit; the sentence takes the rest.
    for (int c = 0; c < BulkCaseRun::Detail; ++c)
        m_table->resizeColumnToContents(c);
}

} // namespace rd::ui
