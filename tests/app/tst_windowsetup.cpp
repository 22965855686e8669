// The Connect and Settings dialogs, the first start and the window's menus, offscreen, with a
// scratch XDG_CONFIG_HOME: Copy puts the client's text on the clipboard, the connected clients
// follow the server's peers, settings round-trip through QSettings and take effect.

#include "../common/IsolatedFolders.h"
#include "access/AccessGate.h"
#include "AppServices.h"
#include "ClientConfig.h"
#include "CommandLine.h"
#include "console/ConsoleWidget.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "dialogs/ConnectDialog.h"
#include "FirstRun.h"
#include "highlight/LispHighlighter.h"
#include "history/Journal.h"
#include "Preferences.h"
#include "project/ProjectFiles.h"
#include "server/McpPeer.h"
#include "server/McpServer.h"
#include "session/Session.h"
#include "SettingsDialog.h"
#include "window/MainWindow.h"
#include "WindowSetup.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

namespace {
// Before QApplication exists, so QSettings and QStandardPaths never see the real folders.
void isolate()
{
    isolateFolders();
}
Q_CONSTRUCTOR_FUNCTION(isolate)

QByteArray initializeRequest(const QString &client)
{
    return QStringLiteral(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",)"
                          R"("capabilities":{},"clientInfo":{"name":"%1","version":"1"}}})")
        .arg(client)
        .toUtf8();
}

// What a client sends to open its session; the server announces the peer on the second.
void handshake(McpServer *server, McpPeer *peer, const QString &client)
{
    server->receive(peer, initializeRequest(client));
    server->receive(peer, R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
}

ClientConfig::Target target()
{
    ClientConfig::Target t;
    t.url = ClientConfig::httpUrl(7878);
    t.token = "test-token-0123456789abcdefghijklmnop";
    t.bridgePath = QStringLiteral(DUET_BIN_DIR "/lisp-duet-bridge");
    return t;
}

QList<QAction *> allActions(QMenuBar *bar)
{
    QList<QAction *> list;
    for (QAction *menu : bar->actions()) {
        if (menu->menu())
            list << menu->menu()->actions();
    }
    return list;
}
} // namespace

class TestWindowSetup : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
        QCoreApplication::setApplicationName(QStringLiteral("lisp-duet"));
        QVERIFY(scratch()->isValid());
        QVERIFY(QSettings().fileName().startsWith(scratch()->path()));
    }

    void theFirstStartStoresTheSettingsAndTheTokenOnceKeepingWhatWasSetBefore()
    {
        QVERIFY(!Preferences::isStored());
        // Set by hand (or by an installer) before the first start: the first start keeps it.
        QSettings().setValue(QStringLiteral("agents/accessMode"), QStringLiteral("read-only"));
        QVERIFY(FirstRun::ensureConfig());
        QVERIFY(Preferences::isStored());
        QCOMPARE(QSettings().value(QStringLiteral("http/port")).toInt(), 7878);
        QCOMPARE(QSettings().value(QStringLiteral("agents/accessMode")).toString(), QStringLiteral("read-only"));
        QSettings().remove(QStringLiteral("agents/accessMode"));
        QVERIFY(QFile::exists(scratch()->filePath(QStringLiteral("config/lisp-duet/lisp-duet/token"))));
        QVERIFY(!FirstRun::ensureConfig());
    }

    void copyPutsTheClientsTextOnTheClipboard_data()
    {
        QTest::addColumn<QString>("client");
        for (const QString &client : ClientConfig::clients())
            QTest::newRow(qPrintable(client)) << client;
    }

    void copyPutsTheClientsTextOnTheClipboard()
    {
        QFETCH(QString, client);
        QList<ConnectDialog::Client> clients;
        for (const QString &id : ClientConfig::clients())
            clients.append({id, ClientConfig::title(id), ClientConfig::where(id), ClientConfig::text(id, target())});
        ConnectDialog dialog(nullptr, clients);
        dialog.show();
        QPlainTextEdit *box = dialog.textBox(client);
        QVERIFY(box);
        QVERIFY(box->isReadOnly());
        QCOMPARE(box->toPlainText(), ClientConfig::text(client, target()));
        QGuiApplication::clipboard()->clear();
        QTest::mouseClick(dialog.copyButton(client), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), ClientConfig::text(client, target()));
        QCOMPARE(dialog.copyButton(client)->text(), QStringLiteral("Copied"));
    }

    // The journal keeps the session; when its file cannot be written the session goes on, and
    // the person reads in the transcript that nothing is kept, and why.
    void aJournalThatCannotBeWrittenIsToldInTheWindow()
    {
        QTemporaryDir dir;
        // A file where its folder should be: no user, root included, can open the journal there.
        const QString notAFolder = dir.filePath(QStringLiteral("not-a-folder"));
        QFile file(notAFolder);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        AppServices services(AppOptions{.journalEnabled = true, .journalFile = notAFolder + QStringLiteral("/session.jsonl")});
        MainWindow window(services.session(), services.server(), services.access());
        WindowSetup setup(&window, &services, target(), false);
        services.start();
        window.console()->transcript()->flushNow();
        const QString text = window.console()->transcript()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("This session is not being kept: Cannot create the folder %1 for the journal. It goes on without a journal.").arg(notAFolder)), qPrintable(text));
    }

    void theConnectedClientsFollowThePeers()
    {
        AppServices services; // not started: initialize needs no engine
        ConnectDialog dialog(services.server(), {});
        QVERIFY(dialog.connectedText().startsWith(QStringLiteral("No agent")));
        McpPeer *first = services.server()->createPeer(QStringLiteral("http"));
        handshake(services.server(), first, QStringLiteral("claude-code"));
        QTRY_COMPARE(dialog.connectedText(), QStringLiteral("Connected now: claude-code (http)."));
        McpPeer *second = services.server()->createPeer(QStringLiteral("local"));
        handshake(services.server(), second, QStringLiteral("cursor"));
        QTRY_COMPARE(dialog.connectedText(), QStringLiteral("Connected now: claude-code (http), cursor (local)."));
        services.server()->closePeer(first);
        // Who left, and when, is said beside who is here.
        QTRY_VERIFY2(dialog.connectedText().startsWith(QStringLiteral("Connected now: cursor (local). Left: claude-code (http) at ")),
                     qPrintable(dialog.connectedText()));
        services.server()->closePeer(second);
        QTRY_VERIFY2(dialog.connectedText().startsWith(QStringLiteral("No agent is connected now. Left: cursor (local) at ")),
                     qPrintable(dialog.connectedText()));
    }

    void settingsRoundTripThroughQSettings()
    {
        Preferences changed;
        changed.port = 9191;
        changed.accessMode = AccessMode::Ask;
        changed.timeoutSeconds = 45;
        changed.maxOutputChars = 5000;
        changed.scrollbackLines = 777;
        changed.fontSize = 14.5;
        changed.theme = Preferences::Theme::Dark;
        changed.closeToTray = true;
        changed.journalsKept = 7;
        changed.debuggerTools = false; // the optional tool groups are settings like the others

        SettingsDialog dialog(Preferences::load());
        QVERIFY(dialog.restartNote().isEmpty());
        // A run that listens where --port said, not on the saved port, says so.
        dialog.setPortInUse(7901);
        QVERIFY2(dialog.restartNote().startsWith(QStringLiteral("This run listens on port 7901, as --port asked;")), qPrintable(dialog.restartNote()));
        dialog.setPortInUse(Preferences::load().port);
        QVERIFY(dialog.restartNote().isEmpty());
        QSignalSpy applied(&dialog, &SettingsDialog::applied);
        dialog.setPreferences(changed);
        QVERIFY2(dialog.restartNote().contains(QStringLiteral("9191")), qPrintable(dialog.restartNote()));
        QTest::mouseClick(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Apply), Qt::LeftButton);
        QCOMPARE(applied.size(), 1);

        changed.fontFamily = dialog.preferences().fontFamily; // the font box offers installed fonts only
        const Preferences stored = Preferences::load();
        QVERIFY(stored == changed);
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("http/port")).toInt(), 9191);
        QCOMPARE(settings.value(QStringLiteral("agents/accessMode")).toString(), QStringLiteral("ask"));
        QCOMPARE(settings.value(QStringLiteral("appearance/theme")).toString(), QStringLiteral("dark"));
        QCOMPARE(settings.value(QStringLiteral("window/keepInTray")).toBool(), true);
        QCOMPARE(settings.value(QStringLiteral("journal/kept")).toInt(), 7);
        QCOMPARE(settings.value(QStringLiteral("tools/debugger")).toBool(), false);

        SettingsDialog reopened(Preferences::load());
        QVERIFY(reopened.preferences() == stored);
        QCOMPARE(reopened.findChild<QSpinBox *>(QStringLiteral("scrollback"))->value(), 777);
        QCOMPARE(reopened.findChild<QComboBox *>(QStringLiteral("theme"))->currentText(), QStringLiteral("Dark"));
        Preferences().save();
    }

    void journalsBeyondTheSettingAreRemovedAtStart()
    {
        Preferences p;
        p.journalsKept = 2;
        p.save();
        QDir(Journal::directory()).removeRecursively();
        QDir().mkpath(Journal::directory());
        for (int day = 1; day <= 5; ++day) {
            QFile f(Journal::directory() + QStringLiteral("/2026010%1T000000.000Z.jsonl").arg(day));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(day == 1 ? "{\"type\":\"evaluation\",\"code\":\"1\"}\n" : "{\"type\":\"event\",\"event\":\"app-started\"}\n");
        }
        {
            AppServices services;
            services.start();
            // The newest two (this run's journal and Jan 5) stay, and so does the previous session
            // shown in the window (the newest with an evaluation: Jan 1).
            const QStringList left = QDir(Journal::directory()).entryList(QDir::Files, QDir::Name);
            QCOMPARE(left.size(), 3);
            QVERIFY(left.contains(QStringLiteral("20260101T000000.000Z.jsonl")));
            QVERIFY(left.contains(QStringLiteral("20260105T000000.000Z.jsonl")));
            QVERIFY(!left.contains(QStringLiteral("20260103T000000.000Z.jsonl")));
        }
        QDir(Journal::directory()).removeRecursively();
        Preferences().save();
    }

    void aHandEditedFileFallsBackToDefaults()
    {
        QSettings settings;
        settings.setValue(QStringLiteral("http/port"), 0);
        settings.setValue(QStringLiteral("limits/timeoutSeconds"), QStringLiteral("soon"));
        settings.setValue(QStringLiteral("agents/accessMode"), QStringLiteral("everything"));
        settings.sync();
        const Preferences p = Preferences::load();
        QCOMPARE(p.port, 7878);
        QCOMPARE(p.timeoutSeconds, 300);
        QCOMPARE(p.accessMode, AccessMode::Allow);
        Preferences().save();
    }

    void theWindowGetsTheMenusTheWelcomeAndTheSettings()
    {
        Preferences p;
        p.accessMode = AccessMode::ReadOnly;
        p.scrollbackLines = 1234;
        p.timeoutSeconds = 12;
        p.closeToTray = true;
        p.save();

        AppServices services;
        MainWindow window(services.session(), services.server(), services.access());
        WindowSetup setup(&window, &services, target(), false);
        QVERIFY(allActions(window.menuBar()).contains(setup.connectAction()));
        QVERIFY(allActions(window.menuBar()).contains(setup.settingsAction()));
        QCOMPARE(window.access()->mode(), AccessMode::ReadOnly);
        QCOMPARE(window.console()->transcript()->scrollback(), 1234);
        QCOMPARE(services.session()->defaultTimeoutMs(), 12000);
        QVERIFY(window.keepInTray());

        setup.showWelcome();
        window.console()->transcript()->flushNow();
        QVERIFY(window.console()->transcript()->toPlainText().contains(QStringLiteral("lisp-duet --client-config claude-code")));

        ConnectDialog *connect = setup.openConnect();
        QVERIFY(connect && connect->isVisible());
        QCOMPARE(connect->textBox(QStringLiteral("vscode"))->toPlainText(), ClientConfig::text(QStringLiteral("vscode"), target()));

        // Settings applied from the dialog take effect without a restart (but the access mode
        // is only the one each start begins with).
        SettingsDialog *settings = setup.openSettings();
        QVERIFY(settings && settings->isVisible());
        p.scrollbackLines = 4321;
        p.timeoutSeconds = 7;
        p.maxOutputChars = 5555;
        p.fontFamily = QStringLiteral("DejaVu Sans Mono"); // installed with the build dependencies
        p.closeToTray = false;
        p.accessMode = AccessMode::Paused;
        settings->setPreferences(p);
        settings->apply();
        QCOMPARE(window.console()->transcript()->scrollback(), 4321);
        QCOMPARE(services.session()->defaultTimeoutMs(), 7000);
        QCOMPARE(services.session()->limits().maxOutputChars, 5555);
        QCOMPARE(window.console()->fontFamily(), settings->preferences().fontFamily);
        QVERIFY(window.console()->fontFamily().startsWith(QStringLiteral("DejaVu Sans Mono")));
        QCOMPARE(window.console()->transcript()->font().family(), window.console()->fontFamily());
        QVERIFY(!window.keepInTray());
        QCOMPARE(window.access()->mode(), AccessMode::ReadOnly);
        QCOMPARE(Preferences::load().accessMode, AccessMode::Paused);

        // The dark theme reaches the palette and both highlighters; "system" puts back the start.
        const QPalette before = QApplication::palette();
        p.theme = Preferences::Theme::Dark;
        settings->setPreferences(p);
        settings->apply();
        QVERIFY(QApplication::palette().color(QPalette::Base).lightness() < 80);
        QCOMPARE(window.console()->input()->document()->findChild<SyntaxHighlighting *>()->theme(), SyntaxHighlighting::Theme::Dark);
        p.theme = Preferences::Theme::System;
        settings->setPreferences(p);
        settings->apply();
        QCOMPARE(QApplication::palette().color(QPalette::Base), before.color(QPalette::Base));
        Preferences().save();
    }

    void trayFromTheCommandLineStaysOn()
    {
        AppServices services;
        MainWindow window(services.session(), services.server(), services.access());
        WindowSetup setup(&window, &services, target(), true);
        QVERIFY(window.keepInTray());
    }

    void openProjectSetsAndRemembersTheRoot()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("shapes")));
        const QString shapes = QFileInfo(dir.filePath(QStringLiteral("shapes"))).canonicalFilePath();
        {
            AppServices services;
            MainWindow window(services.session(), services.server(), services.access());
            WindowSetup setup(&window, &services, target(), false);
            QVERIFY(window.openProjectAction()->isEnabled());
            QVERIFY(allActions(window.menuBar()).contains(window.openProjectAction()));
            QCOMPARE(window.projectText(), QStringLiteral("No project"));
            QString error;
            QVERIFY(!window.openProject(dir.filePath(QStringLiteral("missing")), &error));
            QVERIFY2(error.contains(QStringLiteral("missing")), qPrintable(error));
            QVERIFY(QSettings().value(QStringLiteral("project/root")).toString().isEmpty());
            QVERIFY2(window.openProject(shapes, &error), qPrintable(error));
            QCOMPARE(services.projectFiles()->root().path(), shapes);
            QCOMPARE(window.windowTitle(), QStringLiteral("shapes \u2014 Lisp Duet"));
            QCOMPARE(window.projectText(), QStringLiteral("Project: shapes"));
            QCOMPARE(QSettings().value(QStringLiteral("project/root")).toString(), shapes);
            // Saving the settings does not forget it.
            SettingsDialog dialog(Preferences::load());
            dialog.preferences().save();
            QCOMPARE(Preferences::load().projectRoot, shapes);
        }
        // The next start reopens it.
        AppServices services;
        MainWindow window(services.session(), services.server(), services.access());
        WindowSetup setup(&window, &services, target(), false);
        QCOMPARE(setup.openStartProject(QString()), QString());
        QCOMPARE(services.projectFiles()->root().path(), shapes);
        QCOMPARE(window.windowTitle(), QStringLiteral("shapes \u2014 Lisp Duet"));
        QSettings().remove(QStringLiteral("project/root"));
    }

    void theCommandLinesProjectBeatsTheRememberedOneAndIsNotRemembered()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("remembered")));
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("given")));
        const QString remembered = QFileInfo(dir.filePath(QStringLiteral("remembered"))).canonicalFilePath();
        const QString given = QFileInfo(dir.filePath(QStringLiteral("given"))).canonicalFilePath();
        Preferences::rememberProjectRoot(remembered);

        const CommandLine options = CommandLine::parse({QStringLiteral("lisp-duet"), QStringLiteral("--project"), given});
        QCOMPARE(options.error, QString());
        QCOMPARE(options.projectRoot, given);
        QVERIFY(CommandLine::parse({QStringLiteral("lisp-duet"), QStringLiteral("--help")}).helpText.contains(QStringLiteral("--project <DIR>")));
        QVERIFY(!CommandLine::parse({QStringLiteral("lisp-duet"), QStringLiteral("--project")}).error.isEmpty());

        AppServices services;
        MainWindow window(services.session(), services.server(), services.access());
        WindowSetup setup(&window, &services, target(), false);
        QCOMPARE(setup.openStartProject(options.projectRoot), QString());
        QCOMPARE(services.projectFiles()->root().path(), given);
        QCOMPARE(window.windowTitle(), QStringLiteral("given \u2014 Lisp Duet"));
        QCOMPARE(QSettings().value(QStringLiteral("project/root")).toString(), remembered);

        // A --project that cannot be the root is an error for main() to print; a remembered one
        // that is gone is a note in the transcript.
        AppServices other;
        MainWindow otherWindow(other.session(), other.server(), other.access());
        WindowSetup otherSetup(&otherWindow, &other, target(), false);
        const QString error = otherSetup.openStartProject(dir.filePath(QStringLiteral("nowhere")));
        QVERIFY2(error.contains(QStringLiteral("nowhere")), qPrintable(error));
        QVERIFY(!other.projectFiles()->root().isSet());
        QVERIFY(QDir(remembered).removeRecursively());
        QCOMPARE(otherSetup.openStartProject(QString()), QString());
        otherWindow.console()->transcript()->flushNow();
        QVERIFY2(otherWindow.console()->transcript()->toPlainText().contains(QStringLiteral("The project you last opened")),
                 qPrintable(otherWindow.console()->transcript()->toPlainText()));
        QSettings().remove(QStringLiteral("project/root"));
    }
};

QTEST_MAIN(TestWindowSetup)
#include "tst_windowsetup.moc"
