#include "ui/models/recordtablemodel.h"
#include "ui/widgets/tableview.h"

#include <QTemporaryDir>
#include <QtTest>

/// The desk's table: copy as tab-separated text, export as CSV.
class TestUiTableView : public QObject
{
    Q_OBJECT

private slots:
    void copyAndExportCsv()
    {
        rd::ui::RecordTableModel records(2,
            {{u"key"_qs,
                 [](rd::ui::RowRef r, int role) {
                     return role == Qt::DisplayRole ? r[0] : QVariant();
                 }},
                {u"note"_qs,
                    [](rd::ui::RowRef r, int role) {
                        return role == Qt::DisplayRole ? r[1] : QVariant();
                    }}},
            0);
        records.setRows({u"k1"_qs, u"plain"_qs, u"k2"_qs, u"with, comma and \"quote\""_qs});
        rd::ui::TableView view;
        view.setModel(&records);
        view.selectAll();
        QCOMPARE(view.selectionAsText(), u"key\tnote\nk1\tplain\nk2\twith, comma and \"quote\""_qs);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"out.csv"_qs);
        QVERIFY(view.exportCsv(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()),
            u"key,note\nk1,plain\nk2,\"with, comma and \"\"quote\"\"\"\n"_qs);
    }
};

QTEST_MAIN(TestUiTableView)
#include "tst_ui_tableview.moc"
