// CommandHistory: the REPL's input history, driven the way the console drives it.

#include "inputhistory/CommandHistory.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

CommandHistory historyOf(const QStringList &entries, bool prefixSearch = true)
{
    CommandHistory history;
    history.setPrefixSearch(prefixSearch);
    for (const QString &entry : entries)
        history.add(entry);
    return history;
}

void writeFile(const QString &path, const QByteArray &content)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(content);
}

} // namespace

class TestCommandHistory : public QObject
{
    Q_OBJECT

private slots:
    void skipsBlankAndImmediatelyRepeatedEntries();
    void upAndDownWalkTheEntriesAndComeBackToTheDraft();
    void editsToRecalledEntriesSurviveNavigation();
    void submittingDropsScratchEdits();
    void resettingNavigationDropsScratchEdits();
    void prefixSearchVisitsOnlyEntriesStartingWithTheTypedText();
    void prefixSearchCanBeSwitchedOff();
    void upSkipsEntriesEqualToTheShownText();
    void anEmptyHistoryLeavesTheTextAlone();
    void reverseSearchFindsTheNewestMatchAtOrBeforeAnIndex_data();
    void reverseSearchFindsTheNewestMatchAtOrBeforeAnIndex();
    void reverseSearchCanBeCaseSensitive();
    void capacityDropsTheOldestEntries();
    void savesAndLoadsMultiLineEntriesIntact();
    void savingCreatesTheFolderAndReplacesTheFile();
    void loadingSkipsMalformedLines();
    void loadingAMissingFileGivesAnEmptyHistory();
    void loadingKeepsTheNewestEntriesUpToCapacity();
    void savingToAnUnwritablePlaceReportsAnError();
};

void TestCommandHistory::skipsBlankAndImmediatelyRepeatedEntries()
{
    const CommandHistory history = historyOf({"", "  \n\t", "(a)", "(a)", "(b)", "(a)"});
    QCOMPARE(history.entries(), QStringList({"(a)", "(b)", "(a)"}));
}

void TestCommandHistory::upAndDownWalkTheEntriesAndComeBackToTheDraft()
{
    CommandHistory history = historyOf({"a", "b", "c"}, false);
    QVERIFY(!history.isNavigating());
    QCOMPARE(history.previous("draft"), "c");
    QVERIFY(history.isNavigating());
    QCOMPARE(history.previous("c"), "b");
    QCOMPARE(history.previous("b"), "a");
    QCOMPARE(history.previous("a"), "a"); // the oldest: nothing further
    QCOMPARE(history.next("a"), "b");
    QCOMPARE(history.next("b"), "c");
    QCOMPARE(history.next("c"), "draft");
    QVERIFY(!history.isNavigating());
    QCOMPARE(history.next("draft"), "draft");
}

void TestCommandHistory::editsToRecalledEntriesSurviveNavigation()
{
    CommandHistory history = historyOf({"(a)", "(b)", "(c)"}, false);
    QCOMPARE(history.previous(""), "(c)");
    QCOMPARE(history.previous("(c 2)"), "(b)"); // the person edited (c) before going up
    QCOMPARE(history.previous("(b)"), "(a)");
    QCOMPARE(history.next("(a x)"), "(b)");
    QCOMPARE(history.next("(b)"), "(c 2)");
    QCOMPARE(history.previous("(c 2)"), "(b)");
    QCOMPARE(history.previous("(b)"), "(a x)");
    QCOMPARE(history.entries(), QStringList({"(a)", "(b)", "(c)"})); // the record is untouched
}

void TestCommandHistory::submittingDropsScratchEdits()
{
    CommandHistory history = historyOf({"(a)", "(b)"}, false);
    QCOMPARE(history.previous(""), "(b)");
    QCOMPARE(history.previous("(b edited)"), "(a)");
    history.add("(a)");          // submitting the recalled (a)
    QVERIFY(!history.isNavigating());
    QCOMPARE(history.previous(""), "(a)");
    QCOMPARE(history.previous("(a)"), "(b)"); // not "(b edited)": edits were scratch
}

void TestCommandHistory::resettingNavigationDropsScratchEdits()
{
    CommandHistory history = historyOf({"(a)"}, false);
    QCOMPARE(history.previous("typed"), "(a)");
    history.resetNavigation();
    QVERIFY(!history.isNavigating());
    QCOMPARE(history.previous(""), "(a)");
    QCOMPARE(history.next("(a)"), ""); // the old draft "typed" is gone
}

void TestCommandHistory::prefixSearchVisitsOnlyEntriesStartingWithTheTypedText()
{
    CommandHistory history = historyOf({"(defun a ())", "(+ 1 2)", "(defun b ())", "(print 1)"});
    QVERIFY(history.prefixSearch());
    QCOMPARE(history.previous("(def"), "(defun b ())");
    QCOMPARE(history.previous("(defun b ())"), "(defun a ())");
    QCOMPARE(history.previous("(defun a ())"), "(defun a ())");
    QCOMPARE(history.next("(defun a ())"), "(defun b ())");
    QCOMPARE(history.next("(defun b ())"), "(def"); // back to what was typed
    QCOMPARE(history.previous("(pr"), "(print 1)"); // a new navigation takes a new prefix
}

void TestCommandHistory::prefixSearchCanBeSwitchedOff()
{
    CommandHistory history = historyOf({"(defun a ())", "(print 1)"});
    history.setPrefixSearch(false);
    QCOMPARE(history.previous("(def"), "(print 1)");
}

void TestCommandHistory::upSkipsEntriesEqualToTheShownText()
{
    CommandHistory history = historyOf({"a", "b", "a"}, false);
    QCOMPARE(history.previous("a"), "b"); // the newest "a" is already on screen
    QCOMPARE(history.previous("b"), "a");
}

void TestCommandHistory::anEmptyHistoryLeavesTheTextAlone()
{
    CommandHistory history;
    QCOMPARE(history.previous("x"), "x");
    QCOMPARE(history.next("x"), "x");
    QVERIFY(!history.isNavigating());
    QVERIFY(history.isEmpty());
    QCOMPARE(history.search("x"), -1);
}

void TestCommandHistory::reverseSearchFindsTheNewestMatchAtOrBeforeAnIndex_data()
{
    QTest::addColumn<QString>("needle");
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("found");
    QTest::newRow("newest match, any case") << "square" << -1 << 3;
    QTest::newRow("searching again from before the last match") << "square" << 2 << 1;
    QTest::newRow("at the given index") << "square" << 0 << 0;
    QTest::newRow("inside a string") << "hello" << -1 << 2;
    QTest::newRow("no match") << "nope" << -1 << -1;
    QTest::newRow("from past the end means the newest") << "defun" << 99 << 0;
    QTest::newRow("empty needle matches the newest") << "" << -1 << 3;
    QTest::newRow("across lines") << "x)\n  (*" << -1 << 0;
}

void TestCommandHistory::reverseSearchFindsTheNewestMatchAtOrBeforeAnIndex()
{
    QFETCH(QString, needle);
    QFETCH(int, from);
    QFETCH(int, found);
    const CommandHistory history =
        historyOf({"(defun square (x)\n  (* x x))", "(square 4)", "(print \"hello\")", "(SQUARE 5)"});
    QCOMPARE(history.search(needle, from), found);
}

void TestCommandHistory::reverseSearchCanBeCaseSensitive()
{
    const CommandHistory history = historyOf({"(square 4)", "(SQUARE 5)"});
    QCOMPARE(history.search("square", -1, Qt::CaseSensitive), 0);
}

void TestCommandHistory::capacityDropsTheOldestEntries()
{
    CommandHistory small(3);
    for (int i = 1; i <= 5; ++i)
        small.add(QString::number(i));
    QCOMPARE(small.entries(), QStringList({"3", "4", "5"}));

    CommandHistory history;
    QCOMPARE(history.capacity(), CommandHistory::DefaultCapacity);
    for (int i = 0; i < 1005; ++i)
        history.add(QString::number(i));
    QCOMPARE(history.size(), 1000);
    QCOMPARE(history.at(0), "5");
    history.setCapacity(2);
    QCOMPARE(history.entries(), QStringList({"1003", "1004"}));
    history.setCapacity(0);
    QCOMPARE(history.capacity(), 1); // a history that keeps nothing is not a history
}

void TestCommandHistory::savesAndLoadsMultiLineEntriesIntact()
{
    const QStringList entries = {
        "(+ 1 2)",
        "(defun f (x)\n  \"Doc with \\\"quotes\\\" and a \\\\ backslash.\"\n  (* x 2))",
        "(format t \"tab\there~%\")\r\n",
        "(print \"λ → ✓\")",
        "{\"input\": \"not really json\"}",
        "\n\n(padded)\n\n",
    };
    const CommandHistory saved = historyOf(entries);
    QTemporaryDir dir;
    const QString path = dir.filePath("history.jsonl");
    QString error;
    QVERIFY2(saved.save(path, &error), qPrintable(error));

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().count('\n'), entries.size()); // one record per line

    CommandHistory loaded;
    QVERIFY2(loaded.load(path, &error), qPrintable(error));
    QCOMPARE(loaded.entries(), entries);
}

void TestCommandHistory::savingCreatesTheFolderAndReplacesTheFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("nested/deeper/history.jsonl");
    QVERIFY(historyOf({"(a)", "(b)", "(c)"}).save(path));
    QVERIFY(historyOf({"(z)"}).save(path));
    CommandHistory loaded;
    QVERIFY(loaded.load(path));
    QCOMPARE(loaded.entries(), QStringList({"(z)"}));
}

void TestCommandHistory::loadingSkipsMalformedLines()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("history.jsonl");
    writeFile(path, "{\"input\":\"(a)\"}\n"
                    "garbage\n"
                    "\n"
                    "{\"input\": 3}\n"
                    "{\"other\":\"(x)\"}\n"
                    "{\"input\":\"   \"}\n"
                    "{\"input\":\"(b)\"}\n"
                    "{\"input\":\"(trunc");
    CommandHistory history = historyOf({"(old)"});
    QVERIFY(history.load(path));
    QCOMPARE(history.entries(), QStringList({"(a)", "(b)"}));
}

void TestCommandHistory::loadingAMissingFileGivesAnEmptyHistory()
{
    QTemporaryDir dir;
    CommandHistory history = historyOf({"(old)"});
    QVERIFY(history.load(dir.filePath("never-written.jsonl")));
    QVERIFY(history.isEmpty());
}

void TestCommandHistory::loadingKeepsTheNewestEntriesUpToCapacity()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("history.jsonl");
    QVERIFY(historyOf({"1", "2", "3", "4"}).save(path));
    CommandHistory history(2);
    QVERIFY(history.load(path));
    QCOMPARE(history.entries(), QStringList({"3", "4"}));
}

void TestCommandHistory::savingToAnUnwritablePlaceReportsAnError()
{
    QString error;
    QVERIFY(!historyOf({"(a)"}).save("/proc/lisp-duet-no-such-dir/history.jsonl", &error));
    QVERIFY(!error.isEmpty());
}

QTEST_APPLESS_MAIN(TestCommandHistory)
#include "tst_commandhistory.moc"
