#include "ui/models/navigationhistory.h"

#include <QtTest>

using rd::ui::NavigationHistory;
using rd::ui::Place;

/// Back and forward as in a browser: a visit drops what was forward; a place left keeps what
/// was selected on it and how it was reached.
class TestUiNavigationHistory : public QObject
{
    Q_OBJECT

    static QString where(const Place &p) { return QString::number(p.page) + u':' + p.item; }

private slots:
    void backAndForwardAsInABrowser()
    {
        NavigationHistory h;
        QVERIFY(!h.canGoBack());
        QVERIFY(!h.canGoForward());
        int shown = 0;
        h.visit({0, {}, {}}, {3, [&] { shown = 3; }, {}});
        QVERIFY(h.canGoBack());
        QVERIFY(!h.canGoForward());
        // Left with case 7 selected: back there selects it again, and runs its drill-down.
        h.visit({3, {}, u"7"_qs}, {1, {}, {}});
        QCOMPARE(h.size(), 3);
        Place p = h.back({1, {}, u"sub-a"_qs});
        QCOMPARE(where(p), u"3:7"_qs);
        QVERIFY(p.show);
        p.show();
        QCOMPARE(shown, 3);
        QVERIFY(h.canGoForward());
        QCOMPARE(where(h.forward({3, {}, u"8"_qs})), u"1:sub-a"_qs);
        QCOMPARE(where(h.back({1, {}, u"sub-a"_qs})), u"3:8"_qs);
        QCOMPARE(where(h.back({3, {}, u"8"_qs})), u"0:"_qs);
        QVERIFY(!h.canGoBack());
        // A new visit from here drops what was forward.
        h.visit({0, {}, {}}, {5, {}, {}});
        QVERIFY(!h.canGoForward());
        QCOMPARE(h.size(), 2);
        QCOMPARE(where(h.back({5, {}, {}})), u"0:"_qs);
    }

    /// A page reached without a visit (nothing recorded it) is a place of its own: back
    /// returns to the one before it.
    void anUnrecordedPageIsAPlaceOfItsOwn()
    {
        NavigationHistory h;
        h.visit({0, {}, {}}, {3, {}, {}});
        QCOMPARE(where(h.back({4, {}, u"x"_qs})), u"3:"_qs);
        QCOMPARE(where(h.forward({3, {}, {}})), u"4:x"_qs);
    }

    void oldestPlacesAreForgotten()
    {
        NavigationHistory h;
        for (int i = 0; i < NavigationHistory::kLimit + 20; ++i)
            h.visit({i, {}, {}}, {i + 1, {}, {}});
        QCOMPARE(h.size(), NavigationHistory::kLimit);
        int backs = 0;
        Place p;
        while (h.canGoBack()) {
            p = h.back(h.current());
            ++backs;
        }
        QCOMPARE(backs, NavigationHistory::kLimit - 1);
        QCOMPARE(p.page, 21);
    }
};

QTEST_MAIN(TestUiNavigationHistory)
#include "tst_ui_navigationhistory.moc"
