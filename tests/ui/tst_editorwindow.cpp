// The person's editor in the window (issue 31), offscreen: with Swank listening, the status
// bar says where and the transcript says what to type; an editor that connects is listed with
// the agents; what it evaluates appears in the transcript as it happens, under its origin and
// in its own lane, and its result when it ends; it leaves, and the window says so. With real
// Emacs and SLIME (when installed) as well, beside an agent: editor-window.png with
// DUET_SCREENSHOT_DIR (tests/ui/screenshots.sh).

#include "UiTestSupport.h"

#include "../common/SwankClient.h"
#include "../common/TestFiles.h"

#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "dialogs/ConnectDialog.h"
#include "initfile/InitFile.h"
#include "editor/EditorBridge.h"
#include "editor/SlimeSecret.h"
#include "window/EditorStatus.h"
#include "window/MainWindow.h"

#include <QLabel>
#include <QMessageBox>
#include <QProcess>
#include <QScopeGuard>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>

class TestEditorWindow : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<LiveSession> m_live;
    std::unique_ptr<MainWindow> m_window;
    QTemporaryDir m_home;
    QString m_secret;

    EditorBridge *editors() const { return &m_live->rooms.editors; }
    QString secretFile() const { return m_home.filePath(QStringLiteral(".slime-secret")); }
    QString transcript() const
    {
        m_window->console()->transcript()->flushNow();
        return m_window->console()->transcript()->toPlainText();
    }
    QString clientsText() const { return m_window->clientsText(); }

    bool readSecret()
    {
        QFile file(secretFile());
        if (!file.open(QIODevice::ReadOnly))
            return false;
        m_secret = QString::fromUtf8(file.readLine()).trimmed();
        return !m_secret.isEmpty();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_home.isValid());
        m_live = std::make_unique<LiveSession>();
        QVERIFY2(m_live->engine.isReady(), "the engine did not start");
        m_window = m_live->showWindow(QSize(1280, 800), true);
        QVERIFY(m_window);
    }
    void cleanupTestCase()
    {
        m_window.reset();
        m_live.reset();
    }

    void withoutASecretTheWindowOffersToMakeOneAndThenListens()
    {
        QLabel *label = m_window->editorStatus()->label();
        QVERIFY(!label->isVisible()); // off: nothing to show
        editors()->setSecretFile(secretFile());
        editors()->setListening(0);
        QCOMPARE(editors()->state(), EditorBridge::State::NoSecret);
        QCOMPARE(label->text(), QStringLiteral("Editor: no secret"));
        QVERIFY(QTest::qWaitFor([this] { return m_window->editorStatus()->secretOffer() != nullptr; }, 5000));
        QMessageBox *offer = m_window->editorStatus()->secretOffer();
        QVERIFY2(offer->text().contains(secretFile()), qPrintable(offer->text()));
        QVERIFY(!QFile::exists(secretFile())); // nothing without the person's yes
        offer->button(QMessageBox::Yes)->click();
        QVERIFY(QFile::exists(secretFile()));
        QVERIFY(SlimeSecret::problem(secretFile()).isEmpty());
        QVERIFY(readSecret());
        QVERIFY(QTest::qWaitFor([this] { return editors()->state() == EditorBridge::State::Listening
                                                || editors()->state() == EditorBridge::State::Failed; }, 60000));
        if (editors()->state() == EditorBridge::State::Failed)
            QSKIP("this engine was built without cl-swank");
        const QString where = QStringLiteral("127.0.0.1:%1").arg(editors()->port());
        QCOMPARE(label->text(), QStringLiteral("Editor: Swank %1").arg(where));
        QVERIFY(label->toolTip().contains(EditorBridge::connectLine(editors()->port())));
        QVERIFY2(transcript().contains(QStringLiteral("Your editor can join this session: Swank (SLIME, slimv) at %1. In Emacs: %2")
                                           .arg(where, EditorBridge::connectLine(editors()->port()))),
                 qPrintable(transcript()));
    }

    void emacsBesideAnAgentInTheWindow()
    {
        if (editors()->state() != EditorBridge::State::Listening)
            QSKIP("Swank is not listening");
        const QString emacs = QStandardPaths::findExecutable(QStringLiteral("emacs"));
        if (emacs.isEmpty() || !QFile::exists(QStringLiteral("/usr/share/emacs/site-lisp/elpa/slime-2.27/slime-autoloads.el")))
            QSKIP("Debian's emacs-nox and slime are not installed");
        QProcess process;
        QString output;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("HOME"), m_home.path());
        environment.insert(QStringLiteral("SWANK_PORT"), QString::number(editors()->port()));
        environment.insert(QStringLiteral("DUET_SIGNALS"), m_home.path());
        process.setProcessEnvironment(environment);
        process.setProcessChannelMode(QProcess::MergedChannels);
        connect(&process, &QProcess::readyRead, &process, [&] { output += QString::fromUtf8(process.readAll()); });
        process.start(emacs, {QStringLiteral("--batch"), QStringLiteral("-l"), QStringLiteral(DUET_SOURCE_DIR "/tests/ui/editor-window.el")});
        // However the test ends, Emacs is told to go and is waited for.
        const auto closeEmacs = qScopeGuard([&] {
            (void)TestFiles::write(m_home.filePath(QStringLiteral("close")), "now");
            process.waitForFinished(30000);
        });
        QVERIFY2(QTest::qWaitFor([&] { return output.contains(QLatin1String("DUET WORKED")) || process.state() == QProcess::NotRunning; }, 120000),
                 qPrintable(output));
        QVERIFY2(output.contains(QLatin1String("DUET COMPILED t")) && output.contains(QLatin1String("DUET REPL t")), qPrintable(output));
        QVERIFY2(clientsText().contains(QLatin1String("Emacs (your editor)")), qPrintable(clientsText()));
        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("the person, in Emacs \u2014 compiled a form")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("the person, in Emacs \u2014 at the REPL")));

        // An agent calls what the person compiled in Emacs.
        AgentClient agent(&m_live->server, QStringLiteral("claude-code"));
        const int call = agent.evaluate(QStringLiteral("(list (area-of-circle 1) (documentation 'area-of-circle 'function))"),
                                        QStringLiteral("use the circle area the person wrote"));
        QVERIFY2(AgentClient::resultText(agent.response(call)).contains(QLatin1String("The area of a circle")),
                 qPrintable(AgentClient::resultText(agent.response(call))));
        QVERIFY(saveScreenshotIfAsked(m_window.get(), QStringLiteral("editor-window.png"),
                                      [this] { m_window->console()->transcript()->flushNow(); }));

        QVERIFY(TestFiles::write(m_home.filePath(QStringLiteral("close")), "now"));
        QVERIFY(QTest::qWaitFor([&] { return process.state() == QProcess::NotRunning; }, 30000));
        QVERIFY2(!output.contains(QLatin1String("ELISP-ERROR")), qPrintable(output));
        QVERIFY(QTest::qWaitFor([this] { return !clientsText().contains(QLatin1String("Emacs")); }, 10000));
        QVERIFY(transcript().contains(QLatin1String("Emacs disconnected (127.0.0.1:")));
    }

    void anEditorsEvaluationAppearsAsItHappensUnderItsOrigin()
    {
        if (editors()->state() != EditorBridge::State::Listening)
            QSKIP("Swank is not listening");
        SwankClient editor;
        QVERIFY(editor.connectWithSecret(quint16(editors()->port()), m_secret));
        QVERIFY(QTest::qWaitFor([this] { return !editors()->editors().isEmpty(); }, 10000));
        const QString origin = editors()->editors().first().origin.name;
        const QString peer = editors()->editors().first().peer;
        QVERIFY2(clientsText().contains(QLatin1String("your editor")), qPrintable(clientsText()));
        QVERIFY2(transcript().contains(QStringLiteral("shown here as \u201c%1\u201d").arg(origin)), qPrintable(transcript()));

        const int id = editor.rex(QStringLiteral("(swank:interactive-eval \"(progn (format t \\\"measuring~%\\\") (sleep 1.5) (* 6 7))\")"));
        // While it runs: its header, its code and its output are there already.
        QVERIFY(QTest::qWaitFor([this] { return m_live->session.current() && m_live->session.current()->request.origin.isEditor(); }, 10000));
        QVERIFY(QTest::qWaitFor([&] { return transcript().contains(QLatin1String("measuring")); }, 5000));
        const QString running = transcript();
        QVERIFY(m_live->session.current());
        QVERIFY2(running.contains(QStringLiteral("%1 \u2014 evaluated from a buffer").arg(origin)), qPrintable(running));
        QVERIFY(running.contains(QLatin1String("(progn (format t \"measuring~%\") (sleep 1.5) (* 6 7))")));
        QVERIFY(!running.contains(QLatin1String("=> 42")));
        QVERIFY2(m_window->engineStateText().contains(QLatin1String("from your editor")), qPrintable(m_window->engineStateText()));
        QCOMPARE(editor.waitReturn(id), QStringLiteral("(:return (:ok \"=> 42 (6 bits, #x2A, #o52, #b101010)\") %1)").arg(id));
        QVERIFY(QTest::qWaitFor([this] { return transcript().contains(QLatin1String("=> 42")); }, 5000));

        // The Connect dialog lists it with the agents.
        ConnectDialog dialog(&m_live->server, {});
        dialog.showEditors(editors());
        QVERIFY2(dialog.connectedText().contains(QStringLiteral("(your editor, %1)").arg(peer)), qPrintable(dialog.connectedText()));

        editor.socket.abort();
        QVERIFY(QTest::qWaitFor([this] { return !clientsText().contains(QLatin1String("your editor")); }, 10000));
        QVERIFY(QTest::qWaitFor([&] { return !dialog.connectedText().contains(QLatin1String("your editor")); }, 10000));
        QVERIFY2(transcript().contains(QStringLiteral("Your editor disconnected (%1).").arg(peer)), qPrintable(transcript()));
    }

    void anInitFileThatFailsIsShownInTheTranscript()
    {
        const QString file = m_home.filePath(QStringLiteral("init.lisp"));
        QVERIFY(TestFiles::write(file, "(defvar *half-done* t)\n(error \"my init went wrong\")\n"));
        m_live->rooms.initFile.setFiles({file});
        m_live->session.reset(Origin::person());
        QVERIFY(QTest::qWaitFor([this] { return transcript().contains(QLatin1String("The session runs without the rest of your init file")); }, 60000));
        const QString text = transcript();
        QVERIFY2(text.contains(QStringLiteral("init file \u00b7 load-init \u2014 loading ")), qPrintable(text));
        QVERIFY(text.contains(QLatin1String("[ERROR] SIMPLE-ERROR")));
        QVERIFY(text.contains(QLatin1String("my init went wrong")));
        m_live->rooms.initFile.setFiles({});
    }
};

QTEST_MAIN(TestEditorWindow)
#include "tst_editorwindow.moc"
