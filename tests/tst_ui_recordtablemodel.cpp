#include "ui/models/recordtablemodel.h"

#include <QAbstractItemModelTester>
#include <QtTest>

/// The small in-memory table: rows with the same keys are updated in place, others reset.
class TestUiRecordTableModel : public QObject
{
    Q_OBJECT

private slots:
    void rowsAreReplacedInPlaceByKey()
    {
        rd::ui::RecordTableModel records(2,
            {{u"a"_qs,
                [](rd::ui::RowRef r, int role) {
                    return role == Qt::DisplayRole ? r[1] : QVariant();
                }}},
            0);
        QAbstractItemModelTester recordTester(
            &records, QAbstractItemModelTester::FailureReportingMode::QtTest);
        records.setRows({u"k1"_qs, 1, u"k2"_qs, 2});
        QCOMPARE(records.rowCount(), 2);
        QSignalSpy reset(&records, &QAbstractItemModel::modelReset);
        records.setRows({u"k1"_qs, 10, u"k2"_qs, 20}); // same keys: in place
        QCOMPARE(reset.size(), 0);
        QCOMPARE(records.index(1, 0).data().toInt(), 20);
        records.setRows({u"k3"_qs, 3});
        QCOMPARE(reset.size(), 1);
        QCOMPARE(records.rowOfKey(u"k3"_qs), 0);
    }
};

QTEST_MAIN(TestUiRecordTableModel)
#include "tst_ui_recordtablemodel.moc"
