// The project tools on real libraries' code (issue 18): Debian's cl-* sources copied into a
// project root, and for every top-level form of every file (forms inside top-level groups
// too): an identity edit by its listed label and by its line range leaves the file byte for
// byte, a change touches only the form's lines and is taken back exactly, and the outline's
// ranges agree with ECL's own reader; definitions and symbol uses agree with an independent
// reading in ECL (tests/corpus/read-corpus.lisp, one ECL batch per library, names resolved by
// ECL's packages); a sample goes through the MCP tools themselves. The figures are printed.
//
// The library classes are driven in-process (no process per form); the tool calls go through
// McpServer as a client's would.

#include "client/EngineProtocol.h"
#include "lispsource/FeatureReading.h"
#include "lispsource/FormSplice.h"
#include "project/ProjectFiles.h"
#include "project/ProjectLisp.h"
#include "tools/ToolSet.h"
#include "PlainEclRun.h"
#include "ToolHarness.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

namespace {
// The Debian packages (installer/install-deps.sh --tests installs them) and their folders.
const QStringList Libraries{QStringLiteral("alexandria"), QStringLiteral("anaphora"), QStringLiteral("babel"),
                            QStringLiteral("bordeaux-threads"), QStringLiteral("cl+ssl"), QStringLiteral("cl-base64"),
                            QStringLiteral("cl-cffi"), QStringLiteral("cl-flexi-streams"), QStringLiteral("cl-ppcre"),
                            QStringLiteral("cl-split-sequence"), QStringLiteral("cl-trivial-gray-streams"), QStringLiteral("fiveam"),
                            QStringLiteral("iterate"), QStringLiteral("kmrcl"), QStringLiteral("ptester"), QStringLiteral("rt"),
                            QStringLiteral("trivial-features"), QStringLiteral("trivial-garbage"), QStringLiteral("usocket"),
                            QStringLiteral("closer-mop"), QStringLiteral("puri"), QStringLiteral("md5"), QStringLiteral("parse-number"),
                            QStringLiteral("trivial-backtrace"), QStringLiteral("yason"), QStringLiteral("local-time"), QStringLiteral("esrap"),
                            QStringLiteral("named-readtables")};
const QString SourceRoot = QStringLiteral("/usr/share/common-lisp/source");

struct EclFile
{
    QList<QPair<int, int>> forms; // octet offsets of each datum READ returned
    int stoppedAt = -1;           // octet offset of a reader error, -1 when read to the end
    QHash<QString, int> uses;     // "HOME NAME" -> count
    QList<QPair<int, QString>> definitions; // top-level form index, "HOME NAME"
};

// Octet offset -> QString index, for a file's UTF-8 bytes.
QList<int> charIndexOfOctet(const QByteArray &bytes)
{
    QList<int> map(bytes.size() + 1, 0);
    int chars = 0;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        map[i] = chars;
        const uchar b = uchar(bytes[i]);
        if ((b & 0xC0) != 0x80)
            chars += b >= 0xF0 ? 2 : 1; // a 4-byte sequence is a surrogate pair
    }
    map[bytes.size()] = chars;
    return map;
}

// #+#.(cl:if ...): a feature only the Lisp that reads it can tell.
bool hasComputedFeature(const SyntaxTree &tree)
{
    for (int i = 0; i < tree.nodeCount(); ++i) {
        const SyntaxNode node = tree.node(i);
        if (!node.is(SyntaxKind::FeatureConditional) || !node.feature().isValid())
            continue;
        for (SyntaxNode n = node.feature(); n.isValid() && n.index() < node.feature().subtreeEnd(); n = n.next())
            if (n.is(SyntaxKind::ReadEval))
                return true;
    }
    return false;
}

bool featureHolds(const SyntaxNode &feature, const QSet<QString> &features)
{
    return PackageDefinition::featureHolds(feature, features);
}

// A node ECL does not read: inside the datum of a #+/#- whose feature does not hold on ECL.
bool excludedOnEcl(SyntaxNode node, const QSet<QString> &features)
{
    for (SyntaxNode child = node, parent = node.parent(); parent.isValid(); child = parent, parent = parent.parent()) {
        if (parent.is(SyntaxKind::FeatureConditional) && parent.datum() == child
            && featureHolds(parent.feature(), features) != parent.featureIsPositive())
            return true;
    }
    return false;
}

struct Figures
{
    int tried = 0;
    int passed = 0;
    QStringList failures; // the first few, for the message
    void count(bool ok, const QString &what)
    {
        ++tried;
        if (ok)
            ++passed;
        else if (failures.size() < 15)
            failures << what;
    }
    QString report(const QString &name) const
    {
        return QStringLiteral("%1: %2 of %3 passed%4").arg(name).arg(passed).arg(tried)
            .arg(failures.isEmpty() ? QString() : QStringLiteral("; first failures:\n  ") + failures.join(QStringLiteral("\n  ")));
    }
};
} // namespace

class TestCorpus : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QStringList m_files; // relative to the root, .lisp only, sorted
    QHash<QString, EclFile> m_ecl; // by relative path
    QSet<QString> m_features;
    QList<PackageDefinition> m_sessionPackages; // packages ECL has that the corpus uses
    ProjectLisp m_project;
    QHash<QString, int> m_index; // relative path -> index in m_project
    std::unique_ptr<ToolHarness> m_h; // the MCP tools over a real engine, for the samples
    ProjectFiles m_projectFiles;

    QString absolute(const QString &relative) const { return m_root.filePath(relative); }

    void copyLibraries()
    {
        for (const QString &library : Libraries) {
            const QString from = SourceRoot + QLatin1Char('/') + library;
            QVERIFY2(QFileInfo(from).isDir(), qPrintable(QStringLiteral("%1 is missing: installer/install-deps.sh --tests installs it").arg(from)));
            QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString source = it.next();
                const QString relative = library + QLatin1Char('/') + QDir(from).relativeFilePath(source);
                QDir().mkpath(QFileInfo(absolute(relative)).path());
                QVERIFY(QFile::copy(source, absolute(relative)));
                if (relative.endsWith(QLatin1String(".lisp")))
                    m_files << relative;
            }
        }
        m_files.sort();
    }

    // One ECL batch per library; every corpus file with a defpackage makes the packages first.
    void readWithEcl()
    {
        QStringList packageFiles;
        for (const QString &relative : std::as_const(m_files)) {
            QFile file(absolute(relative));
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll().toLower();
            if (bytes.contains("defpackage") || bytes.contains("define-package"))
                packageFiles << absolute(relative);
        }
        QFile list(m_root.filePath(QStringLiteral(".packages")));
        QVERIFY(list.open(QIODevice::WriteOnly));
        list.write(packageFiles.join(QLatin1Char('\n')).toUtf8());
        list.close();
        // Two at a time: the test command runs on two cores.
        struct Batch
        {
            QString library;
            QStringList files;
            std::unique_ptr<QProcess> process;
        };
        std::vector<Batch> batches;
        for (const QString &library : Libraries) {
            Batch batch{library, {}, std::make_unique<QProcess>()};
            for (const QString &relative : std::as_const(m_files))
                if (relative.startsWith(library + QLatin1Char('/')))
                    batch.files << relative;
            QFile libraryList(m_root.filePath(QStringLiteral(".files-") + library));
            QVERIFY(libraryList.open(QIODevice::WriteOnly));
            for (const QString &relative : std::as_const(batch.files))
                libraryList.write(absolute(relative).toUtf8() + '\n');
            batches.push_back(std::move(batch));
        }
        for (size_t next = 0, done = 0; done < batches.size();) {
            while (next < batches.size() && next - done < 2) {
                Batch &batch = batches[next++];
                batch.process->start(QStringLiteral("ecl"), {QStringLiteral("--norc"), QStringLiteral("--shell"),
                                                             QStringLiteral(DUET_SOURCE_DIR "/tests/corpus/read-corpus.lisp"), QStringLiteral("--"),
                                                             m_root.filePath(QStringLiteral(".out-") + batch.library), list.fileName(),
                                                             m_root.filePath(QStringLiteral(".files-") + batch.library)});
            }
            Batch &batch = batches[done++];
            QVERIFY2(batch.process->waitForFinished(180000), qPrintable(batch.library));
            QVERIFY2(batch.process->exitCode() == 0, qPrintable(batch.library + QStringLiteral(": ") + QString::fromUtf8(batch.process->readAllStandardError())));
            parseEclOutput(m_root.filePath(QStringLiteral(".out-") + batch.library), batch.files);
        }
    }

    void parseEclOutput(const QString &path, const QStringList &files)
    {
        QFile out(path);
        QVERIFY(out.open(QIODevice::ReadOnly));
        EclFile *current = nullptr;
        for (const QByteArray &raw : out.readAll().split('\n')) {
            const QString line = QString::fromUtf8(raw);
            const QStringList words = line.split(QLatin1Char(' '));
            if (line.startsWith(QLatin1String("FEATURES"))) {
                for (const QString &word : words.mid(1))
                    m_features.insert(word.mid(1)); // ":ECL" -> "ECL"
            } else if (line.startsWith(QLatin1String("PACKAGE "))) {
                const QStringList parts = line.mid(8).split(QLatin1Char('|'));
                PackageDefinition package;
                package.name = parts.value(0);
                package.nicknames = parts.value(1).split(QLatin1Char(','), Qt::SkipEmptyParts);
                package.uses = parts.value(2).split(QLatin1Char(','), Qt::SkipEmptyParts);
                for (const QString &external : parts.value(3).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
                    const QString name = external.section(QLatin1Char('='), 0, 0), home = external.section(QLatin1Char('='), 1);
                    package.exports.insert(name);
                    if (home != package.name)
                        package.imports.insert(name, home);
                }
                m_sessionPackages << package;
            } else if (line.startsWith(QLatin1String("FILE "))) {
                current = &m_ecl[files.value(words.value(1).toInt())];
            } else if (current && line.startsWith(QLatin1String("FORM "))) {
                current->forms.append({words.value(1).toInt(), words.value(2).toInt()});
            } else if (current && line.startsWith(QLatin1String("ERROR "))) {
                current->stoppedAt = words.value(1).toInt();
            } else if (current && line.startsWith(QLatin1String("USE "))) {
                current->uses[words.value(2) + QLatin1Char(' ') + words.value(3)] += words.value(1).toInt(); // #:x read twice: two symbols
            } else if (current && line.startsWith(QLatin1String("DEF "))) {
                current->definitions.append({words.value(1).toInt(), words.value(3) + QLatin1Char(' ') + words.value(4)});
            }
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_root.isValid());
        QElapsedTimer clock;
        clock.start();
        copyLibraries();
        readWithEcl();
        ProjectRoot root;
        QVERIFY(root.setPath(m_root.path()));
        m_project = ProjectLisp::read(root, &m_features); // the session's Lisp is ECL: its features
        for (const PackageDefinition &package : std::as_const(m_sessionPackages)) {
            // What a session says of packages no file declares, and of its own CL-USER.
            if (!m_project.packages.knows(package.name) || package.name == QLatin1String("COMMON-LISP-USER"))
                m_project.packages.add(package);
        }
        for (qsizetype i = 0; i < m_project.sources.files.size(); ++i)
            m_index.insert(m_project.sources.files[i].relative, int(i));
        int forms = 0;
        for (const LispFile &file : m_project.files)
            forms += int(file.forms().size());
        m_h = std::make_unique<ToolHarness>();
        addProjectTools(&m_h->m_tools, &m_h->m_session, &m_h->m_jobs, &m_projectFiles, m_h->setup());
        QVERIFY(m_projectFiles.setRoot(m_root.path(), Origin::person()));
        qInfo("corpus: %d libraries, %d .lisp files (%d read by ECL to the end), %d forms (top-level and in groups); set up in %lld ms",
              int(Libraries.size()), int(m_files.size()),
              int(std::count_if(m_ecl.begin(), m_ecl.end(), [](const EclFile &f) { return f.stoppedAt < 0; })), forms, clock.elapsed());
    }

    void everyFormsRangeAgreesWithEclsReader()
    {
        Figures figures;
        int computed = 0;
        for (const QString &relative : std::as_const(m_files)) {
            const EclFile &ecl = m_ecl.value(relative);
            const LispFile &file = m_project.files[size_t(m_index.value(relative))];
            if (hasComputedFeature(file.tree())) {
                ++computed; // #+#.(...): which forms ECL skips only ECL can say
                continue;
            }
            QFile bytesFile(absolute(relative));
            QVERIFY(bytesFile.open(QIODevice::ReadOnly));
            const QList<int> at = charIndexOfOctet(bytesFile.readAll());
            // Forms ECL skips (#+sbcl ...) are read by it together with the next one.
            QList<QPair<int, int>> host;
            int pendingStart = -1;
            for (const TopLevelForm &form : file.forms()) {
                if (form.depth > 0)
                    continue;
                const int start = pendingStart >= 0 ? pendingStart : form.node.start();
                SyntaxNode body = form.node;
                bool skipped = false;
                while (body.is(SyntaxKind::FeatureConditional) && !skipped) {
                    skipped = featureHolds(body.feature(), m_features) != body.featureIsPositive();
                    body = body.datum();
                }
                if (skipped) {
                    pendingStart = start;
                    continue;
                }
                pendingStart = -1;
                host.append({start, form.node.end()});
            }
            const int stop = ecl.stoppedAt >= 0 ? at.value(std::min<int>(ecl.stoppedAt, int(at.size()) - 1)) : std::numeric_limits<int>::max();
            for (qsizetype i = 0; i < ecl.forms.size(); ++i) {
                const int start = at.value(ecl.forms[i].first), end = at.value(ecl.forms[i].second);
                if (end > stop)
                    break;
                const bool same = i < host.size() && host[i].first == start && host[i].second == end;
                figures.count(same, QStringLiteral("%1: ECL reads [%2,%3), the outline [%4,%5)").arg(relative).arg(start).arg(end)
                                        .arg(i < host.size() ? host[i].first : -1).arg(i < host.size() ? host[i].second : -1));
            }
        }
        qInfo("%s (files with #+#.(...) features left out: %d)", qPrintable(figures.report(QStringLiteral("ranges agree with ECL's reader (forms ECL read)"))), computed);
        QCOMPARE(figures.passed, figures.tried);
    }

    void everyFormIsEditedByItsLabelAndByItsLinesWithoutCorruption()
    {
        Figures identity, byLabel, byLines, change, restore, indented, roundTrip;
        for (const QString &relative : std::as_const(m_files)) {
            const LispFile &file = m_project.files[size_t(m_index.value(relative))];
            const QString &text = file.text();
            for (const TopLevelForm &form : file.forms()) {
                const QString where = QStringLiteral("%1:%2 %3").arg(relative).arg(form.firstLine).arg(form.label);
                const QString shown = text.mid(form.start, form.end - form.start);
                identity.count(FormSplice::apply(file, form, FormSplice::Action::Replace, shown).text == text, where);
                // Every label the outline lists names exactly its form.
                const FormMatches named = file.find(form.label);
                byLabel.count(named.isUnique() && named.forms.first().index == form.index,
                              where + QStringLiteral(": ") + (named.isUnique() ? QStringLiteral("another form") : named.message().left(200)));
                const FormMatches lines = file.findLines(QStringLiteral("%1-%2").arg(form.firstLine).arg(form.lastLine));
                bool linesFindIt = lines.isUnique() && lines.forms.first().index == form.index;
                // A group and its one form on the same lines: the lines name the group.
                for (int up = form.parent; !linesFindIt && up >= 0; up = file.forms().at(up).parent)
                    linesFindIt = lines.isUnique() && lines.forms.first().index == up;
                byLines.count(linesFindIt, where);
                if (!form.node.isComplete())
                    continue;
                // A change touches the form's lines only, and the old text put back restores the file.
                // A definition: a form inside one that defines nothing is listed only as one.
                const QString probe = QStringLiteral("(defun corpus-probe ())");
                const QString changed = FormSplice::apply(file, form, FormSplice::Action::Replace, probe).text;
                const int firstLineStart = form.start == 0 ? 0 : int(text.lastIndexOf(QLatin1Char('\n'), form.start - 1)) + 1;
                const int lastLineEnd = int(text.indexOf(QLatin1Char('\n'), form.end)) < 0 ? int(text.size()) : int(text.indexOf(QLatin1Char('\n'), form.end));
                const qsizetype tail = text.size() - lastLineEnd;
                change.count(changed.left(firstLineStart) == text.left(firstLineStart) && changed.right(tail) == text.right(tail)
                                 && changed.size() - tail - firstLineStart >= 0,
                             where);
                const LispFile after(changed, file.forms().first().package);
                const auto probeForm = std::find_if(after.forms().begin(), after.forms().end(),
                                                    [&](const TopLevelForm &f) { return f.start == form.start && f.label.startsWith(QLatin1String("defun corpus-probe")); });
                restore.count(probeForm != after.forms().end()
                                  && FormSplice::apply(after, *probeForm, FormSplice::Action::Replace, shown).text == text,
                              where);
                insertBeforeThenDelete(file, form, where, indented, roundTrip);
            }
        }
        for (const auto &[figures, name] : {std::pair{&identity, "the form put back as shown changes nothing"},
                                             std::pair{&byLabel, "its label names it and nothing else"},
                                             std::pair{&byLines, "its lines find it"},
                                             std::pair{&change, "a change touches its lines only"},
                                             std::pair{&restore, "the old text put back restores the file byte for byte"},
                                             std::pair{&indented, "a two-line form inserted before it: every line indented as it is"},
                                             std::pair{&roundTrip, "insert-before then delete of that form restores the file byte for byte"}}) {
            qInfo("%s", qPrintable(figures->report(QString::fromLatin1(name))));
            QVERIFY2(figures->passed == figures->tried, name);
        }
    }

    // A form on lines of its own gets a two-line neighbour before it (indented as at the top
    // level, as an agent writes it), which is then deleted by its label: the file as it was.
    static void insertBeforeThenDelete(const LispFile &file, const TopLevelForm &form, const QString &where, Figures &indented, Figures &roundTrip)
    {
        const QString &text = file.text();
        const int lineStart = form.start == 0 ? 0 : int(text.lastIndexOf(QLatin1Char('\n'), form.start - 1)) + 1;
        const bool ownLines = QStringView(text).mid(lineStart, form.start - lineStart).trimmed().isEmpty()
            && (text.indexOf(QLatin1Char('\n'), form.end) < 0 ? QStringView(text).mid(form.end).trimmed().isEmpty()
                                                              : QStringView(text).mid(form.end, text.indexOf(QLatin1Char('\n'), form.end) - form.end).trimmed().isEmpty());
        if (!ownLines || text.contains(QLatin1String("corpus-new")))
            return;
        const FormSplice inserted = FormSplice::apply(file, form, FormSplice::Action::InsertBefore, QStringLiteral("(defun corpus-new ()\n  :new)"));
        const LispFile after(inserted.text, file.forms().first().package);
        const FormMatches added = after.find(QStringLiteral("defun corpus-new"));
        if (!added.isUnique()) {
            indented.count(false, where + QStringLiteral(": the inserted form is not found"));
            return;
        }
        const TopLevelForm &newForm = added.forms.first();
        const int newLineStart = newForm.start == 0 ? 0 : int(inserted.text.lastIndexOf(QLatin1Char('\n'), newForm.start - 1)) + 1;
        const QString indentation = inserted.text.mid(newLineStart, newForm.start - newLineStart);
        const QString shownNew = inserted.text.mid(newForm.start, newForm.end - newForm.start);
        indented.count(shownNew.section(QLatin1Char('\n'), 1).trimmed() == QLatin1String(":new)")
                           && shownNew.section(QLatin1Char('\n'), 1).startsWith(indentation + QStringLiteral("  :new)")),
                       where + QStringLiteral(": ") + shownNew);
        roundTrip.count(FormSplice::apply(after, newForm, FormSplice::Action::Delete, {}).text == text, where);
    }

    // Definitions inside a form that defines nothing, in a top-level group or not.
    void definitionsInsideOtherFormsAreListed_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("line");
        QTest::newRow("unless fboundp, in an eval-when") << "trivial-backtrace/dev/fallback.lisp" << "defun impl-map-backtrace" << 6;
        QTest::newRow("unless fboundp, a defmacro") << "cl-cffi/src/functions.lisp" << "defmacro %foreign-funcall-pointer-varargs" << 162;
        QTest::newRow("two without-package-locks in an eval-when") << "kmrcl/byte-stream.lisp" << "defvar *system-copy-fn*" << 98;
    }
    void definitionsInsideOtherFormsAreListed()
    {
        QFETCH(QString, file);
        QFETCH(QString, label);
        QFETCH(int, line);
        const LispFile &lisp = m_project.files[size_t(m_index.value(file))];
        const FormMatches found = lisp.find(label);
        QVERIFY2(found.isUnique(), qPrintable(found.message()));
        QCOMPARE(found.forms.first().firstLine, line);
        QVERIFY(found.forms.first().parent >= 0);
        const QJsonObject answer = m_h->call(QStringLiteral("find-definition"), {{QStringLiteral("symbol"), label.section(QLatin1Char(' '), 1)}});
        QVERIFY2(ToolHarness::text(answer).contains(QStringLiteral("%1:%2").arg(file).arg(line)), qPrintable(ToolHarness::text(answer)));
    }

    void symbolUsesResolveToTheSymbolsEclReads()
    {
        Figures files, uses;
        for (const QString &relative : std::as_const(m_files)) {
            const EclFile &ecl = m_ecl.value(relative);
            const LispFile &file = m_project.files[size_t(m_index.value(relative))];
            if (ecl.stoppedAt >= 0 || hasComputedFeature(file.tree()))
                continue; // ECL could not read it all (another Lisp's file, a package made at load time)
            QHash<QString, int> host;
            for (const SymbolOccurrence &use : file.symbolUses()) {
                const TopLevelForm &form = file.forms().at(use.formIndex);
                if (form.operatorName == QLatin1String("defpackage") || form.operatorName == QLatin1String("define-package")
                    || excludedOnEcl(use.node, m_features))
                    continue;
                const SymbolHome home = m_project.packages.home(use.symbol, use.package);
                host[(home.package.isEmpty() ? QStringLiteral("#") : home.package) + QLatin1Char(' ') + use.symbol.name] += 1;
            }
            QStringList differences;
            QSet<QString> keys(ecl.uses.keyBegin(), ecl.uses.keyEnd());
            for (auto it = host.cbegin(); it != host.cend(); ++it)
                keys.insert(it.key());
            for (const QString &key : std::as_const(keys)) {
                // ECL's reader adds what the text does not show: QUOTE for ', FUNCTION for #', and
                // its backquote's own symbols.
                if (key.startsWith(QLatin1String("COMMON-LISP QUOTE")) || key.startsWith(QLatin1String("COMMON-LISP FUNCTION"))
                    || key.startsWith(QLatin1String("SI ")) || key.startsWith(QLatin1String("CORPUS-READER "))
                    || key == QLatin1String("COMMON-LISP NIL")) // () and nil are one datum
                    continue;
                const bool same = host.value(key) == ecl.uses.value(key);
                uses.count(same, QStringLiteral("%1: %2 read %3 times by ECL, %4 by the tools").arg(relative, key).arg(ecl.uses.value(key)).arg(host.value(key)));
                if (!same)
                    differences << key;
            }
            files.count(differences.isEmpty(), relative);
        }
        qInfo("%s", qPrintable(uses.report(QStringLiteral("symbols (home package and name) read as often as ECL reads them, per file"))));
        qInfo("%s", qPrintable(files.report(QStringLiteral("files where every symbol agrees"))));
        // What text alone cannot tell: which of several implementation files that define one
        // package ASDF loads (cffi-sys in cffi-ecl.lisp and cffi-sbcl.lisp), how
        // uiop:define-package's :mix settles a conflict, exports a library makes when it
        // loads. Those files differ; anything else found wrong is a regression.
        QVERIFY2(uses.passed * 1000 >= uses.tried * 985, qPrintable(uses.report(QStringLiteral("symbols"))));
    }

    void definitionsAreFoundWhereEclReadsThem()
    {
        Figures found;
        for (const QString &relative : std::as_const(m_files)) {
            const EclFile &ecl = m_ecl.value(relative);
            const LispFile &file = m_project.files[size_t(m_index.value(relative))];
            QList<const TopLevelForm *> topLevel;
            for (const TopLevelForm &form : file.forms())
                if (form.depth == 0)
                    topLevel << &form;
            for (const auto &[index, key] : ecl.definitions) {
                const QString home = key.section(QLatin1Char(' '), 0, 0), name = key.section(QLatin1Char(' '), 1);
                // find-definition's rule: the name, and pkg:name resolved where each form is read.
                bool ok = false;
                for (const TopLevelForm &form : file.forms()) {
                    const DefinedName &d = form.definition;
                    const QString symbol = d.name.startsWith(QLatin1String("(SETF ")) ? d.name.mid(6, d.name.size() - 7) : d.name;
                    if (!d.isValid() || symbol != name)
                        continue;
                    const QString package = d.package.isEmpty() ? form.package : m_project.packages.canonical(d.package);
                    ok = ok || m_project.packages.home(package, symbol).mayBe(home);
                }
                // What text alone cannot tell (as for symbols, below): cffi-sys is defined once per
                // Lisp (cffi-ecl.lisp, cffi-sbcl.lisp...), and only ECL's exports
                // DEFCFUN-HELPER-FORMS, which functions.lisp defines in CFFI when no CFFI-SYS has it.
                if (!ok && key == QLatin1String("CFFI-SYS DEFCFUN-HELPER-FORMS"))
                    continue;
                found.count(ok, QStringLiteral("%1: %2 (form %3)").arg(relative, key).arg(index));
            }
        }
        qInfo("%s", qPrintable(found.report(QStringLiteral("definitions ECL reads, found by name and home package"))));
        QCOMPARE(found.passed, found.tried);
    }

    // Every 25th form through edit-form itself, by its label and by its lines, with the text
    // view-lisp-file shows for it: nothing is written.
    void aSampleOfFormsPutBackThroughEditFormChangesNothing()
    {
        Figures byLabel, byLines;
        int n = 0;
        for (const QString &relative : std::as_const(m_files)) {
            const LispFile &file = m_project.files[size_t(m_index.value(relative))];
            bool viewed = false;
            for (const TopLevelForm &form : file.forms()) {
                if (++n % 25 != 0)
                    continue;
                if (!viewed) {
                    const QJsonObject view = m_h->call(QStringLiteral("view-lisp-file"), {{QStringLiteral("path"), relative}});
                    QVERIFY2(!ToolHarness::isError(view), qPrintable(ToolHarness::text(view)));
                    viewed = true;
                }
                const QString shown = file.text().mid(form.start, form.end - form.start);
                const QString where = QStringLiteral("%1:%2 %3").arg(relative).arg(form.firstLine).arg(form.label);
                const QJsonObject labelled = m_h->call(QStringLiteral("edit-form"), {{QStringLiteral("path"), relative}, {QStringLiteral("form"), form.label},
                                                                                    {QStringLiteral("text"), shown}});
                const QString said = ToolHarness::text(labelled);
                byLabel.count(said.contains(QStringLiteral("nothing was written")), where + QStringLiteral(": ") + said.left(200));
                const FormMatches lines = file.findLines(QStringLiteral("%1-%2").arg(form.firstLine).arg(form.lastLine));
                if (!lines.isUnique() || lines.forms.first().index != form.index)
                    continue; // its lines name its group
                const QJsonObject ranged = m_h->call(QStringLiteral("edit-form"), {{QStringLiteral("path"), relative},
                                                                                  {QStringLiteral("lines"), QStringLiteral("%1-%2").arg(form.firstLine).arg(form.lastLine)},
                                                                                  {QStringLiteral("text"), shown}});
                byLines.count(ToolHarness::text(ranged).contains(QStringLiteral("nothing was written")), where + QStringLiteral(": ") + ToolHarness::text(ranged).left(200));
            }
        }
        qInfo("%s", qPrintable(byLabel.report(QStringLiteral("edit-form by label, the shown text: nothing written"))));
        qInfo("%s", qPrintable(byLines.report(QStringLiteral("edit-form by lines, the shown text: nothing written"))));
        QCOMPARE(byLabel.passed, byLabel.tried);
        QCOMPARE(byLines.passed, byLines.tried);
        for (const QString &relative : std::as_const(m_files)) {
            QFile copy(absolute(relative)), original(SourceRoot + QLatin1Char('/') + relative);
            QVERIFY(copy.open(QIODevice::ReadOnly) && original.open(QIODevice::ReadOnly));
            QVERIFY2(copy.readAll() == original.readAll(), qPrintable(relative));
        }
    }

    // What the edit reader accepts where #+/#- decide is what ECL's reader accepts: the texts
    // read by a plain ecl, and by the check edit-form makes (the reader, then FeatureReading
    // with the session's *features* and the character names the session refuses).
    void theEditReaderAgreesWithEclWhereFeaturesDecide()
    {
        const QStringList texts{QStringLiteral("(defun f () #-ecl . 43)"), QStringLiteral("(defun f () #+ecl . 43)"),
                                QStringLiteral("#+ecl #\\Foobar-Unknown"), QStringLiteral("#-ecl #\\Foobar-Unknown 1"),
                                QStringLiteral("#+ecl #\\LATIN_SMALL_LETTER_A"), QStringLiteral("(a #-ecl . b c)"),
                                QStringLiteral("#+ecl ..."), QStringLiteral("#-ecl ... 1"), QStringLiteral("#+(or sbcl ecl) (list #\\No-Such)"),
                                QStringLiteral("#+sbcl #+ecl #\\Bad 1"), QStringLiteral("(list #\\Space #\\u41 #\\Nul #\\Linefeed)"),
                                QStringLiteral("(a . #-ecl b c)"), QStringLiteral("#-(and ecl (not sbcl)) . 1"), QStringLiteral("(a . #+ecl b c)"),
                                QStringLiteral("(#-ecl a . b)"), QStringLiteral("(a . b #-ecl c)")};
        const QStringList verdicts = PlainEclRun::readVerdicts(texts);
        QCOMPARE(verdicts.size(), texts.size());
        for (qsizetype i = 0; i < texts.size(); ++i) {
            const SyntaxTree tree = SyntaxTree::read(texts[i]);
            QJsonObject reply;
            m_h->m_session.query(EngineProtocol::packages({}, FeatureReading::characterNames(tree)), [&](const QJsonObject &json) { reply = json; });
            QVERIFY(QTest::qWaitFor([&] { return !reply.isEmpty(); }, 20000));
            const EngineProtocol::PackagesReply packages(reply);
            QVERIFY(packages.ok());
            const QStringList unknown = packages.unknownCharacterNames();
            const FormCheck check = LispReader::checkForms(texts[i], 1); // as edit-form checks: complete forms, at least one
            const bool reads = (check.ok || (!check.error.isValid() && check.count >= 1))
                && !FeatureReading::firstProblem(tree, packages.features(), QSet<QString>(unknown.begin(), unknown.end())).isValid();
            QVERIFY2(reads == (verdicts[i] == QLatin1String("READ")),
                     qPrintable(QStringLiteral("%1: ECL %2, the edit reader %3").arg(texts[i], verdicts[i], reads ? QStringLiteral("reads it") : QStringLiteral("refuses it"))));
        }
    }

    // search-forms on the whole corpus: a regular expression with a * is one.
    void searchFormsReadsARegularExpressionWithAStarAsOne()
    {
        const QJsonObject regex = m_h->call(QStringLiteral("search-forms"), {{QStringLiteral("name"), QStringLiteral("^make-.*$")}});
        const QJsonObject prefix = m_h->call(QStringLiteral("search-forms"), {{QStringLiteral("name"), QStringLiteral("^make-")}});
        const QJsonObject glob = m_h->call(QStringLiteral("search-forms"), {{QStringLiteral("name"), QStringLiteral("make-*")}});
        const int total = ToolHarness::structured(prefix).value(QStringLiteral("total")).toInt();
        qInfo("search-forms: ^make-.*$ %d, ^make- %d, make-* %d", ToolHarness::structured(regex).value(QStringLiteral("total")).toInt(), total,
              ToolHarness::structured(glob).value(QStringLiteral("total")).toInt());
        QVERIFY(total > 100);
        QCOMPARE(ToolHarness::structured(regex).value(QStringLiteral("total")).toInt(), total);
        QCOMPARE(ToolHarness::structured(glob).value(QStringLiteral("total")).toInt(), total);
        QCOMPARE(ToolHarness::structured(regex).value(QStringLiteral("name_read_as")).toString(), QStringLiteral("regex"));
        QCOMPARE(ToolHarness::structured(glob).value(QStringLiteral("name_read_as")).toString(), QStringLiteral("glob"));
        QVERIFY(ToolHarness::text(regex).contains(QStringLiteral("read as a regular expression")));
    }

    void cleanupTestCase() { m_h.reset(); }
};

QTEST_GUILESS_MAIN(TestCorpus)
#include "tst_corpus.moc"
