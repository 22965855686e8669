// Native code is never different (issue 41): a table of forms, each evaluated the same way in
// a session that compiles its definitions to native code in the background and in a
// --no-native one, and every answer compared. A definition's native version must answer what
// its bytecode answers, whatever the session changes around it and whenever: before it was
// compiled ("change first"), or after ("native first", probed at once and again once the
// compiler settled). The one allowed difference is the one the engine says: a definition
// that declares types is native with a note that its native version checks them.
//
// Each case's forms name their definitions with "{}", replaced by a suffix per run, so that
// every run defines fresh names in the same two sessions.

#include "../common/EngineHarness.h"

#include "client/EngineProtocol.h"

#include <QJsonArray>
#include <QTest>

namespace {

struct Case
{
    const char *name;
    const char *setup;   // the definitions
    const char *change;  // what the session changes afterwards (may be empty)
    const char *probe;   // what is compared
    const char *subject; // the definition whose status explains a difference
    // What the native session's subject must end as when the change comes first / last
    // ("native", "interpreted"; empty: either).
    const char *changeFirst = "";
    const char *nativeFirst = "";
    bool checksDeclarations = false; // its native version may signal TYPE-ERROR where the bytecode answers
};

// clang-format off
const Case kCases[] = {
    {"symbol macro redefined", "(define-symbol-macro smac{} 1) (defun use-smac{} () smac{})",
     "(define-symbol-macro smac{} 2)", "(use-smac{})", "USE-SMAC{}", "native", "native"},
    {"setf expander redefined",
     "(defvar *cell{}* nil) (defun cell{} () *cell{}*) (defsetf cell{} () (v) `(setf *cell{}* ,v))"
     " (defun set-cell{} (v) (setf (cell{}) v))",
     "(defsetf cell{} () (v) `(setf *cell{}* (* 1000 ,v)))", "(progn (set-cell{} 3) (cell{}))", "SET-CELL{}",
     "native", "native"},
    {"deftype redefined", "(deftype mytype{} () 'integer) (defun tp{} (x) (typep x 'mytype{}))",
     "(deftype mytype{} () 'string)", "(list (tp{} 1) (tp{} \"s\"))", "TP{}", "native", "native"},
    {"check-type of a redefined type",
     "(deftype small-int{} () '(integer 0 10)) (defun ck{} (x) (check-type x small-int{}) x)",
     "(deftype small-int{} () '(integer 0 100))", "(ck{} 50)", "CK{}"},
    {"inline function redefined",
     "(declaim (inline small{})) (defun small{} (x) (+ x 1)) (defun use-small{} (y) (small{} y))",
     "(defun small{} (x) (* x 100))", "(use-small{} 5)", "USE-SMALL{}", "native", "native"},
    {"defconstant redefined", "(defconstant +k{}+ 10) (defun usek{} () +k{}+)", "(defconstant +k{}+ 20)",
     "(usek{})", "USEK{}", "native", "native"},
    {"compiler macro", "(defun fn{} (x) (list :fn x)) (define-compiler-macro fn{} (x) `(list :cm ,x))"
     " (defun use-cm{} (y) (fn{} y))", "", "(use-cm{} 1)", "USE-CM{}", "native", "native"},
    {"compiler macro defined later", "(defun fn2{} (x) (list :fn x)) (defun use-cm2{} (y) (fn2{} y))",
     "(define-compiler-macro fn2{} (x) `(list :cm ,x)) (defun use-cm3{} (y) (fn2{} y))",
     "(list (use-cm2{} 1) (use-cm3{} 2))", "USE-CM3{}"},
    {"macro redefined", "(defmacro mac{} () 1) (defun usemac{} () (mac{}))", "(defmacro mac{} () 2)",
     "(usemac{})", "USEMAC{}", "native", "native"},
    {"macro that reads a global variable", "(defvar *mode{}* 1) (defmacro by-mode{} () *mode{}*) (defun use-mode{} () (by-mode{}))",
     "(setf *mode{}* 2)", "(use-mode{})", "USE-MODE{}", "native", "native"},
    {"variable declared special later",
     "(defun peek{} () (if (boundp 'sv{}) (symbol-value 'sv{}) :unbound)) (defun binds{} (sv{}) (list sv{} (peek{})))",
     "(defvar sv{} :global)", "(binds{} 5)", "BINDS{}", "interpreted", "native"},
    {"defstruct redefined, slots swapped",
     "(defstruct pt{} a b) (defun pa{} (p) (pt{}-a p)) (defun mk{} () (make-pt{} :a 1 :b 2))",
     "(defstruct pt{} b a)", "(list (pa{} (mk{})) (pa{} (make-pt{} :a 1 :b 2)))", "PA{}"},
    {"defstruct redefined, a slot less", "(defstruct pq{} a b) (defun pqb{} (p) (pq{}-b p))",
     "(defstruct pq{} b)", "(pqb{} (make-pq{} :b 7))", "PQB{}"},
    {"eval-when", "(eval-when (:compile-toplevel :load-toplevel :execute) (defun ew{} () :ew))", "", "(ew{})", "EW{}",
     "native", "native"},
    {"reader conditionals", "(defun rc{} () (list #+ecl :ecl #-ecl :other #+(or) :never #-(or) 1))", "", "(rc{})",
     "RC{}", "native", "native"},
    {"defun inside macrolet", "(macrolet ((twice (x) `(* 2 ,x))) (defun ml{} (y) (twice y)))", "", "(ml{} 4)",
     "ML{}", "native", "native"},
    {"defun inside symbol-macrolet", "(symbol-macrolet ((sm 7)) (defun sml{} () (list sm sm)))", "", "(sml{})",
     "SML{}", "native", "native"},
    {"&environment macro",
     "(defmacro envm{} (x &environment env) (if (macro-function 'inner{} env) `(inner{} ,x) `(list :outer ,x)))"
     " (defun usenv{} (y) (macrolet ((inner{} (z) `(list :inner ,z))) (envm{} y))) (defun usenv2{} (y) (envm{} y))",
     "", "(list (usenv{} 1) (usenv2{} 2))", "USENV{}", "native", "native"},
    {"closure sharing its binding", "(let ((n 0)) (defun cnt{} () (incf n)) (defun cntpeek{} () n))", "",
     "(list (cnt{}) (cnt{}) (cntpeek{}))", "CNT{}", "native", "native"},
    {"method and next method",
     "(defgeneric area{} (s)) (defmethod area{} ((s number)) (* s s)) (defmethod area{} ((s integer)) (1+ (call-next-method)))",
     "", "(list (area{} 3) (area{} 2.0))", ""},
    {"wrong argument count", "(defun ar{} (x y &optional z) (list x y z))", "", "(ar{} 1)", "AR{}", "native", "native"},
    {"function-lambda-expression", "(defun fle{} (x) (* x 3))", "",
     "(multiple-value-list (function-lambda-expression #'fle{}))", "FLE{}", "native", "native"},
    {"method on a redefined type", "(deftype mt-type{} () 'integer) (defgeneric mtg{} (x)) (defmethod mtg{} ((x t)) (typep x 'mt-type{}))",
     "(deftype mt-type{} () 'string)", "(list (mtg{} 1) (mtg{} \"s\"))", ""},
    {"macro whose expander uses a redefined type",
     "(deftype mx-type{} () 'integer) (defmacro mx{} (x) (if (typep x 'mx-type{}) :integer :other)) (defun usemx{} () (list (mx{} 1) (mx{} \"s\")))",
     "(deftype mx-type{} () 'string)", "(list (usemx{}) (macroexpand-1 '(mx{} 1)))", "MX{}"},
    {"setf function with a constant", "(defconstant +sf{}+ 1) (defvar *sf{}* nil) (defun (setf sf{}) (v) (setf *sf{}* (+ v +sf{}+)))",
     "(defconstant +sf{}+ 2)", "(progn (setf (sf{}) 10) *sf{}*)", ""},
    {"compiled again after its macro changed",
     "(deftype ca-type{} () 'integer) (defmacro ca-mac{} () 1) (defun ca{} (x) (list (ca-mac{}) (typep x 'ca-type{})))",
     "(defmacro ca-mac{} () 2) (deftype ca-type{} () 'string)", "(list (ca{} 1) (ca{} \"s\"))", "CA{}", "native",
     "interpreted"},
    {"type declaration", "(defun tdecl{} (x) (declare (fixnum x)) (1+ x))", "", "(tdecl{} 1.5)", "TDECL{}",
     "native", "native", true},
    {"THE", "(defun tthe{} (x) (the fixnum (+ x 1)))", "", "(tthe{} 1.5)", "TTHE{}", "native", "native", true},
    {"(safety 0) declared",
     "(defun bad-fix{} (x) (declare (optimize (safety 0)) (fixnum x)) (+ x 1))"
     " (defun bad-car{} (x) (declare (optimize (safety 0))) (car x))"
     " (defun bad-svref{} () (declare (optimize (safety 0))) (svref (vector 1 2 3) 3))",
     "", "(list (ignore-errors (bad-fix{} 1.5)) (ignore-errors (bad-car{} 5)) (ignore-errors (bad-svref{})) :alive)",
     "BAD-CAR{}", "interpreted", "interpreted"},
};
// clang-format on

QString expand(const char *text, const QString &suffix)
{
    return QString::fromUtf8(text).replace(QStringLiteral("{}"), suffix);
}

// What a probe answered, comparable across the two sessions.
QString answer(const JobResult &result)
{
    if (result.ok())
        return QStringLiteral("ok ") + result.values.join(QLatin1Char(' '));
    return JobResult::statusName(result.status) + QLatin1Char(' ') + result.error.type + QStringLiteral(": ")
           + result.error.message;
}

} // namespace

class TestNativeDiff : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> m_native;
    std::unique_ptr<EngineHarness> m_interpreted;
    int m_run = 0;

    void settle(EngineHarness &lisp)
    {
        const JobPtr done = lisp.run(EngineProtocol::nativeSettling(60000), 90000);
        QVERIFY2(done && done->result.reply.value(QStringLiteral("settled")).toBool(), "the background compiler did not settle");
    }

    QJsonObject definition(EngineHarness &lisp, const QString &name)
    {
        const QJsonObject reply = lisp.ask(EngineProtocol::definitions(QString(), name));
        for (const QJsonValue &v : reply.value(QStringLiteral("definitions")).toArray())
            if (v.toObject().value(QStringLiteral("name")).toString() == name)
                return v.toObject();
        return {};
    }

    // Runs STEPS ("=" settle, "?" probe, anything else evaluated) in one session; the probes' answers.
    QStringList play(EngineHarness &lisp, const QStringList &steps, const QString &probe)
    {
        QStringList answers;
        for (const QString &step : steps) {
            if (step == QLatin1String("=")) {
                settle(lisp);
            } else if (step == QLatin1String("?")) {
                answers << answer(lisp.result(probe));
            } else {
                const JobResult result = lisp.result(step);
                if (!result.ok())
                    answers << QStringLiteral("(setup failed: %1)").arg(answer(result));
            }
        }
        return answers;
    }

    // One case in one order, in both sessions.
    void compare(const Case &c, bool changeFirst)
    {
        const QString suffix = QStringLiteral("-%1%2").arg(changeFirst ? QStringLiteral("c") : QStringLiteral("n")).arg(++m_run);
        const QString setup = expand(c.setup, suffix);
        const QString change = expand(c.change, suffix);
        const QString probe = expand(c.probe, suffix);
        QStringList steps{setup};
        if (changeFirst) {
            if (!change.isEmpty())
                steps << change;
            steps << QStringLiteral("=") << QStringLiteral("?");
        } else {
            // At once (bytecoded), native, then right after the change, then settled again.
            steps << QStringLiteral("?") << QStringLiteral("=") << QStringLiteral("?");
            if (!change.isEmpty())
                steps << change << QStringLiteral("?") << QStringLiteral("=") << QStringLiteral("?");
        }
        const QStringList native = play(*m_native, steps, probe);
        const QStringList interpreted = play(*m_interpreted, steps, probe);
        QCOMPARE(native.size(), interpreted.size());

        const QString subject = expand(c.subject, suffix).toUpper(); // as the reader interns it
        const QJsonObject status = subject.isEmpty() ? QJsonObject() : definition(*m_native, subject);
        const QString execution = status.value(QStringLiteral("execution")).toString();
        const QString reason = status.value(QStringLiteral("native_reason")).toString();
        const QString notes = status.value(QStringLiteral("native_notes")).toVariant().toStringList().join(QLatin1Char(' '));
        qInfo().noquote() << QStringLiteral("%1 (%2): %3%4").arg(QString::fromUtf8(c.name),
                                                                 changeFirst ? QStringLiteral("change first") : QStringLiteral("native first"),
                                                                 execution.isEmpty() ? QStringLiteral("-") : execution,
                                                                 reason.isEmpty() ? QString() : QStringLiteral(" — ") + reason);
        for (int i = 0; i < native.size(); ++i) {
            if (native[i] == interpreted[i])
                continue;
            // The one difference the engine announces: a declared type checked natively.
            const bool announced = c.checksDeclarations && native[i].contains(QLatin1String("TYPE-ERROR"))
                                   && notes.contains(QLatin1String("checks the types it declares"));
            QVERIFY2(announced, qPrintable(QStringLiteral("%1, probe %2: native %3, interpreted %4 (%5, %6)")
                                               .arg(QString::fromUtf8(c.name))
                                               .arg(i)
                                               .arg(native[i], interpreted[i], execution, reason)));
        }
        const QString expected = QString::fromUtf8(changeFirst ? c.changeFirst : c.nativeFirst);
        if (!expected.isEmpty()) {
            QVERIFY2(execution == expected,
                     qPrintable(QStringLiteral("%1: %2 is %3, expected %4 (%5)").arg(QString::fromUtf8(c.name), subject, execution, expected, reason)));
            if (execution == QLatin1String("interpreted"))
                QVERIFY2(!reason.isEmpty(), qPrintable(subject + QStringLiteral(" is interpreted without a reason")));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_native = std::make_unique<EngineHarness>();
        qputenv("LISP_DUET_NATIVE", "0");
        m_interpreted = std::make_unique<EngineHarness>();
        qunsetenv("LISP_DUET_NATIVE");
        QVERIFY2(m_native->waitReady() && m_interpreted->waitReady(), "the engines did not start");
        const QJsonObject native = m_native->engine.engineInfo().value(QStringLiteral("native")).toObject();
        QVERIFY2(native.value(QStringLiteral("enabled")).toBool() && native.value(QStringLiteral("available")).toBool(),
                 "native compilation is not available here");
        QVERIFY(!m_interpreted->engine.engineInfo().value(QStringLiteral("native")).toObject().value(QStringLiteral("enabled")).toBool());
    }
    void cleanupTestCase()
    {
        m_native.reset();
        m_interpreted.reset();
    }

    void everyAnswerIsTheSame_data()
    {
        QTest::addColumn<int>("index");
        QTest::addColumn<bool>("changeFirst");
        for (int i = 0; i < int(std::size(kCases)); ++i) {
            QTest::newRow(qPrintable(QStringLiteral("%1, change first").arg(QString::fromUtf8(kCases[i].name)))) << i << true;
            QTest::newRow(qPrintable(QStringLiteral("%1, native first").arg(QString::fromUtf8(kCases[i].name)))) << i << false;
        }
    }
    void everyAnswerIsTheSame()
    {
        QFETCH(int, index);
        QFETCH(bool, changeFirst);
        compare(kCases[index], changeFirst);
    }

    // A (SAFETY 0) proclamation, as the rows made it; the person's own COMPILE still
    // makes such a definition native (they asked for it).
    void safetyZeroProclaimedStaysInterpretedUntilThePersonCompilesIt()
    {
        const QString forms = QStringLiteral("(declaim (optimize (safety 0)))"
                                             "(defun pbad-fix (x) (declare (fixnum x)) (+ x 1))"
                                             "(defun pbad-car (x) (car x))"
                                             "(declaim (optimize (safety 1)))");
        const QString probe = QStringLiteral("(list (ignore-errors (pbad-fix 1.5)) (ignore-errors (pbad-car 5)) :alive)");
        const QStringList steps{forms, QStringLiteral("="), QStringLiteral("?")};
        QCOMPARE(play(*m_native, steps, probe), play(*m_interpreted, steps, probe));
        const QJsonObject status = definition(*m_native, QStringLiteral("PBAD-CAR"));
        QCOMPARE(status.value(QStringLiteral("execution")).toString(), QStringLiteral("interpreted"));
        QVERIFY2(status.value(QStringLiteral("native_reason")).toString().contains(QLatin1String("(compile 'PBAD-CAR)")),
                 qPrintable(status.value(QStringLiteral("native_reason")).toString()));
        QVERIFY(m_native->result(QStringLiteral("(compile 'pbad-fix)")).ok());
        QCOMPARE(definition(*m_native, QStringLiteral("PBAD-FIX")).value(QStringLiteral("execution")).toString(), QStringLiteral("native"));
    }
};

QTEST_GUILESS_MAIN(TestNativeDiff)
#include "tst_nativediff.moc"
