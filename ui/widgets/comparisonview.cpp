#include "ui/widgets/comparisonview.h"

#include "ui/models/comparisonmodel.h"
#include "ui/widgets/tableview.h"

#include <QHeaderView>

namespace rd::ui {

void showComparison(TableView *view, ComparisonModel *model)
{
    view->setModel(model);
    view->setColumnsFitted(true);
    // The highlight is the point: no alternating colours competing with it.
    view->setAlternatingRowColors(false);
    QHeaderView *header = view->horizontalHeader();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Stretch);
    header->setSectionResizeMode(ComparisonModel::FieldColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(ComparisonModel::NoteColumn, QHeaderView::ResizeToContents);
}

} // namespace rd::ui
