#pragma once

namespace rd::ui {

class ComparisonModel;
class TableView;

/// Shows a comparison in a table view: columns fitted, the differing rows' highlight not
/// competing with alternating colours.
void showComparison(TableView *view, ComparisonModel *model);

} // namespace rd::ui
