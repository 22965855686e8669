// The person's own setup as the app takes it (issue 31): --swank PORT and --no-init, the
// settings' rows (Swank off by default, the init file on, ~/.eclrc off), what AppServices makes
// of them (the command line beats the settings), the Settings dialog's rows, and the Connect
// dialog's "Your editor" page, offscreen, with a scratch HOME and XDG folders.

#include "../common/IsolatedFolders.h"
#include "AppServices.h"
#include "CommandLine.h"
#include "Preferences.h"
#include "SettingsDialog.h"
#include "WindowSetup.h"
#include "dialogs/ConnectDialog.h"
#include "editor/EditorBridge.h"
#include "initfile/InitFile.h"
#include "session/Session.h"
#include "editor/SlimeSecret.h"
#include "window/MainWindow.h"

#include <QCheckBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

namespace {
// Before QApplication exists: ~/.slime-secret, ~/.eclrc and the settings are the test's own.
void isolate()
{
    isolateFolders();
    qputenv("HOME", scratch()->filePath(QStringLiteral("home")).toUtf8());
}
Q_CONSTRUCTOR_FUNCTION(isolate)

CommandLine parse(const QStringList &arguments)
{
    return CommandLine::parse(QStringList{QStringLiteral("lisp-duet")} + arguments);
}
} // namespace

class TestEditorSetup : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("lisp-duet"));
        QCoreApplication::setApplicationName(QStringLiteral("lisp-duet"));
        QVERIFY(QDir().mkpath(scratch()->filePath(QStringLiteral("home"))));
        QCOMPARE(SlimeSecret::defaultPath(), scratch()->filePath(QStringLiteral("home/.slime-secret")));
        QCOMPARE(InitFile::defaultPath(), scratch()->filePath(QStringLiteral("config/lisp-duet/init.lisp")));
    }

    void theCommandLineTakesSwankAndNoInit()
    {
        QCOMPARE(parse({QStringLiteral("--swank"), QStringLiteral("4005")}).swankPort, std::optional<int>(4005));
        QCOMPARE(parse({QStringLiteral("--swank"), QStringLiteral("0"), QStringLiteral("--headless")}).swankPort, std::optional<int>(0));
        QVERIFY(!parse({}).swankPort);
        QVERIFY(parse({QStringLiteral("--no-init")}).noInit);
        QVERIFY(!parse({}).noInit);
        QVERIFY(parse({QStringLiteral("--swank"), QStringLiteral("70000")}).error.contains(QLatin1String("--swank needs a port from 0")));
        QVERIFY(parse({QStringLiteral("--swank"), QStringLiteral("slime")}).error.contains(QLatin1String("'slime'")));
        QVERIFY(!parse({QStringLiteral("--swank")}).error.isEmpty());
        const QString help = parse({QStringLiteral("--help")}).helpText;
        QVERIFY(help.contains(QLatin1String("--swank <PORT>")) && help.contains(QLatin1String("--no-init")));
    }

    void theSettingsKeepTheSetupAndStartOffForSwank()
    {
        const Preferences defaults;
        QVERIFY(!defaults.swankEnabled);
        QCOMPARE(defaults.swankPort, 4005);
        QVERIFY(defaults.initFileEnabled);
        QVERIFY(!defaults.eclrcEnabled);
        Preferences changed;
        changed.swankEnabled = true;
        changed.swankPort = 0;
        changed.initFileEnabled = false;
        changed.eclrcEnabled = true;
        changed.initTimeLimitSeconds = 90;
        changed.save();
        QCOMPARE(Preferences::load(), changed);
        QSettings settings;
        QCOMPARE(settings.value(QStringLiteral("editor/swank")).toBool(), true);
        QCOMPARE(settings.value(QStringLiteral("init/eclrc")).toBool(), true);
        settings.setValue(QStringLiteral("editor/swankPort"), 99999); // by hand: out of range
        settings.sync();
        QCOMPARE(Preferences::load().swankPort, 4005);

        // The dialog shows and edits them.
        SettingsDialog dialog(changed);
        QVERIFY(dialog.findChild<QCheckBox *>(QStringLiteral("swank"))->isChecked());
        QVERIFY(!dialog.findChild<QCheckBox *>(QStringLiteral("initFile"))->isChecked());
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("swankPort"))->text(), QStringLiteral("any free port"));
        if (const QString dir = qEnvironmentVariable("DUET_SCREENSHOT_DIR"); !dir.isEmpty()) {
            dialog.show(); // settings.png: the rows in the whole dialog, looked at under Xvfb
            QVERIFY(QTest::qWaitForWindowExposed(&dialog));
            QTest::qWait(300);
            QVERIFY(dialog.grab().save(QDir(dir).filePath(QStringLiteral("settings.png"))));
        }
        dialog.findChild<QCheckBox *>(QStringLiteral("swank"))->setChecked(false);
        dialog.findChild<QSpinBox *>(QStringLiteral("initTimeLimit"))->setValue(12);
        QVERIFY(!dialog.preferences().swankEnabled);
        QCOMPARE(dialog.preferences().initTimeLimitSeconds, 12);
        Preferences().save();
    }

    void theServicesFollowTheSettingsUnlessTheCommandLineSays()
    {
        Preferences p;
        p.eclrcEnabled = true;
        p.initTimeLimitSeconds = 7;
        p.save();
        {
            AppServices services;
            QCOMPARE(services.initFile()->files(), (QStringList{InitFile::eclrcPath(), InitFile::defaultPath()}));
            QCOMPARE(services.initFile()->timeLimitMs(), 7000);
            QCOMPARE(services.editors()->state(), EditorBridge::State::Off);
        }
        {
            AppOptions options;
            options.noInit = true;
            options.swankPort = 0;
            AppServices services(options);
            QVERIFY(services.initFile()->files().isEmpty());
            // Asked for, but this HOME has no secret: it says so, and nothing listens.
            QCOMPARE(services.editors()->state(), EditorBridge::State::NoSecret);
            QCOMPARE(services.editors()->listening(), std::optional<int>(0));
            QVERIFY(services.editors()->message().contains(SlimeSecret::defaultPath()));
            p.swankEnabled = false; // the settings do not turn off what the command line asked for
            services.applyEditorAndInitFile(p);
            QCOMPARE(services.editors()->listening(), std::optional<int>(0));
        }
        Preferences().save();
    }

    void theConnectDialogSaysHowTheEditorJoins()
    {
        AppServices services;
        MainWindow window(services.session(), services.server(), services.access());
        WindowSetup setup(&window, &services, ClientConfig::Target{}, false);
        ConnectDialog *dialog = setup.openConnect();
        QVERIFY(dialog->textBox(QStringLiteral("your-editor")));
        QVERIFY2(dialog->textBox(QStringLiteral("your-editor"))->toPlainText().contains(QLatin1String("--swank 4005")),
                 qPrintable(dialog->textBox(QStringLiteral("your-editor"))->toPlainText()));
        QCOMPARE(dialog->connectedText(), QStringLiteral("No agent is connected now."));
    }
};

QTEST_MAIN(TestEditorSetup)
#include "tst_editorsetup.moc"
