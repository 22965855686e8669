// The switch of native code for the session's definitions (issue 30), as the app wires it: the
// setting (File ▸ Settings…, engine/nativeCompilation) and `--no-native` reach the engine the
// app starts (its command line, and the native request when the setting changes while it
// runs), --no-native beats the setting for one run, and the reason people and agents read is
// the app's. Against the real engine, offscreen, with a scratch XDG_CONFIG_HOME.

#include "../common/IsolatedFolders.h"
#include "AppServices.h"
#include "CommandLine.h"
#include "Preferences.h"
#include "SettingsDialog.h"
#include "WindowSetup.h"
#include "client/EngineClient.h"
#include "console/LispConsole.h"
#include "console/TranscriptView.h"
#include "native/NativeCompilation.h"
#include "session/Session.h"
#include "window/MainWindow.h"

#include <QCheckBox>
#include <QDir>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

namespace {
// Before QApplication exists, so QSettings and QStandardPaths never see the real folders.
void isolate()
{
    isolateFolders();
}
Q_CONSTRUCTOR_FUNCTION(isolate)

// With DUET_SCREENSHOT_DIR set, `widget` is saved there as `name` (to look at, not compared).
void saveScreenshotIfAsked(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("DUET_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QTest::qWait(300);
    widget->grab().save(QDir(dir).filePath(name));
}

bool engineSaysEnabled(const AppServices &services)
{
    return services.engine()->engineInfo().value(QStringLiteral("native")).toObject().value(QStringLiteral("enabled")).toBool();
}
} // namespace

class TestNativeSwitch : public QObject
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
    void cleanup() { Preferences().save(); }

    void theCommandLineTakesNoNative()
    {
        QVERIFY(CommandLine::parse({QStringLiteral("lisp-duet"), QStringLiteral("--no-native")}).noNative);
        QVERIFY(!CommandLine::parse({QStringLiteral("lisp-duet")}).noNative);
        QVERIFY(CommandLine::parse({QStringLiteral("lisp-duet"), QStringLiteral("--help")}).helpText.contains(QStringLiteral("--no-native")));
    }

    void theSettingIsStoredFromTheDialogAndReadBack()
    {
        QVERIFY(Preferences::load().nativeCompilation); // on unless the person says otherwise
        SettingsDialog dialog(Preferences::load());
        auto *box = dialog.findChild<QCheckBox *>(QStringLiteral("nativeCompilation"));
        QVERIFY(box && box->isChecked());
        box->setChecked(false);
        QTest::mouseClick(dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Apply), Qt::LeftButton);
        QCOMPARE(QSettings().value(QStringLiteral("engine/nativeCompilation")).toBool(), false);
        QCOMPARE(Preferences::load().nativeCompilation, false);
        QCOMPARE(SettingsDialog(Preferences::load()).findChild<QCheckBox *>(QStringLiteral("nativeCompilation"))->isChecked(), false);
    }

    void noNativeStartsTheEngineWithoutNativeCodeWhateverTheSettingSays()
    {
        AppOptions options;
        options.journalEnabled = false;
        options.noNative = true;
        AppServices services(options);
        QVERIFY(services.engine()->arguments().contains(QStringLiteral("--no-native")));
        services.setNativeCompilation(true); // the setting says on: this run stays off
        QVERIFY(services.engine()->arguments().contains(QStringLiteral("--no-native")));
        services.start();
        QVERIFY(QTest::qWaitFor([&] { return services.engine()->isReady(); }, 30000));
        QVERIFY(!engineSaysEnabled(services)); // the engine's own word: it queues nothing
        NativeCompilation *native = services.native();
        QVERIFY(!native->isOn());
        QCOMPARE(native->reason(), QStringLiteral("Native compilation is off for this run (--no-native): the session's definitions run interpreted."));
    }

    void theSettingOffStartsTheEngineWithoutNativeCodeAndSaysWhere()
    {
        Preferences off;
        off.nativeCompilation = false;
        off.save();
        AppOptions options;
        options.journalEnabled = false;
        AppServices services(options);
        services.start();
        QVERIFY(QTest::qWaitFor([&] { return services.engine()->isReady(); }, 30000));
        QVERIFY(!engineSaysEnabled(services));
        QVERIFY2(services.native()->reason().contains(QStringLiteral("File \u25b8 Settings")), qPrintable(services.native()->reason()));
    }

    void turnedOffInTheSettingsTheRunningEngineStopsAtOnceAndTheWindowSaysSo()
    {
        AppOptions options;
        options.journalEnabled = false;
        AppServices services(options);
        MainWindow window(services.session(), services.server(), services.access());
        WindowSetup setup(&window, &services, ClientConfig::Target{}, false);
        services.start();
        QVERIFY(QTest::qWaitFor([&] { return services.engine()->isReady(); }, 30000));
        NativeCompilation *native = services.native();
        QVERIFY2(native->isOn(), qPrintable(native->reason()));
        SettingsDialog *dialog = setup.openSettings();
        dialog->findChild<QCheckBox *>(QStringLiteral("nativeCompilation"))->setChecked(false);
        saveScreenshotIfAsked(dialog, QStringLiteral("native-setting.png"));
        QTest::mouseClick(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Apply), Qt::LeftButton);
        // The engine's answer to the native request: definitions made from now on stay interpreted.
        QVERIFY(QTest::qWaitFor([native] { return native->status().known && !native->status().enabled; }, 10000));
        QVERIFY(services.engine()->arguments().contains(QStringLiteral("--no-native"))); // and every later engine
        window.console()->transcript()->flushNow();
        QCOMPARE(window.console()->transcript()->toPlainText().count(QStringLiteral("Native compilation is off (File \u25b8 Settings\u2026)")), 1);
        window.resize(1200, 700);
        window.show();
        saveScreenshotIfAsked(&window, QStringLiteral("native-off-note.png"));
        dialog->close();
    }
};

QTEST_MAIN(TestNativeSwitch)
#include "tst_nativeswitch.moc"
