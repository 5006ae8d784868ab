#pragma once

#include <QTableView>

namespace rd::ui {

/// The desk's table: Ctrl+C copies the selected cells as tab-separated text, "Export CSV…"
/// (context menu) writes what is loaded, Enter/Return opens the current row, Tab and Shift+Tab
/// leave the table (the arrows move within it).
class TableView : public QTableView
{
    Q_OBJECT

public:
    explicit TableView(QWidget *parent = nullptr);

    void setModel(QAbstractItemModel *model) override;
    /// Column widths come from the first rows that arrive, unless a saved layout was restored.
    void setColumnsFitted(bool fitted) { m_fitted = fitted; }
    /// Sizes the columns to their contents within `available` pixels: when they do not all fit,
    /// the widest give way first, down to a floor; the columns kept whole never do (the table
    /// scrolls instead).
    void fitColumnsTo(int available);
    /// Columns never narrowed below what they show (a time, an amount, an id).
    void setWholeColumns(const QList<int> &columns) { m_wholeColumns = columns; }
    /// What a column needs to show its header and the rows on screen whole.
    int naturalColumnWidth(int column) const;
    /// A paged list that starts at a position: reads the rows before the first one reached
    /// (scrolling to the top, Up or Page Up on the first row, the wheel at the top).
    bool fetchBefore();

    /// The selection as text: rows by newline, columns by tab, with a header line.
    QString selectionAsText() const;
    /// The file name an export proposes: the table's name ("subscriptions.csv").
    QString exportFileName() const;
    /// Writes each column's export form (machine values, Role::Export) for every row: a
    /// paged model's whole list, read again from its start; any other model's rows.
    bool exportCsv(const QString &path, QString *error = nullptr) const;

public slots:
    void copySelection();
    void exportCsvInteractively();

signals:
    void openRequested(const QModelIndex &index);
    /// A line for the status bar: where an export went, and how many rows.
    void exported(const QString &message);

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void fitColumns();

    bool m_fitted = false;
    QList<int> m_wholeColumns;
};

} // namespace rd::ui
