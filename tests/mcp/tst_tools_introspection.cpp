// The introspection tools and the tools/list contract, against the real engine through
// McpServer: list-definitions, describe-symbol, apropos, macroexpand, inspect-object,
// check-parens, complete-symbol, and evaluate-lisp's result ids and style warnings.

#include "ToolHarness.h"

#include <QJsonDocument>

class TestToolsIntrospection : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ToolHarness> m_h;

    QString eval(const QString &code)
    {
        const QJsonObject result = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), code}});
        if (ToolHarness::isError(result))
            qWarning().noquote() << "evaluation failed:" << ToolHarness::text(result);
        return ToolHarness::text(result);
    }
    void freshSession()
    {
        const QJsonObject reset = m_h->call(QStringLiteral("reset-session"));
        QCOMPARE(ToolHarness::text(reset), QStringLiteral("Session reset. All definitions cleared."));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_h = std::make_unique<ToolHarness>();
        QVERIFY(m_h->waitUntilReady());
    }
    void cleanupTestCase() { m_h.reset(); }

    void everyToolIsListedWithTitleSchemasAndAnnotations()
    {
        const QJsonArray tools = m_h->request(QStringLiteral("tools/list"), {}).value(QStringLiteral("result")).toObject()
                                     .value(QStringLiteral("tools")).toArray();
        QStringList names;
        for (const QJsonValue &value : tools) {
            const QJsonObject tool = value.toObject();
            const QString name = tool.value(QStringLiteral("name")).toString();
            names << name;
            QVERIFY2(!tool.value(QStringLiteral("title")).toString().isEmpty(), qPrintable(name));
            QVERIFY2(tool.value(QStringLiteral("description")).toString().size() > 40, qPrintable(name));
            const QJsonObject input = tool.value(QStringLiteral("inputSchema")).toObject();
            QCOMPARE(input.value(QStringLiteral("type")).toString(), QStringLiteral("object"));
            QVERIFY2(input.value(QStringLiteral("additionalProperties")) == QJsonValue(false), qPrintable(name));
            const QJsonObject properties = input.value(QStringLiteral("properties")).toObject();
            for (auto it = properties.begin(); it != properties.end(); ++it)
                QVERIFY2(!it.value().toObject().value(QStringLiteral("description")).toString().isEmpty(), qPrintable(name + QStringLiteral(".") + it.key()));
            const QJsonObject output = tool.value(QStringLiteral("outputSchema")).toObject();
            QCOMPARE(output.value(QStringLiteral("type")).toString(), QStringLiteral("object"));
            QVERIFY2(!output.contains(QStringLiteral("additionalProperties")), qPrintable(name));
            QVERIFY2(output.value(QStringLiteral("properties")).toObject().contains(QStringLiteral("session_activity")), qPrintable(name));
            const QJsonObject annotations = tool.value(QStringLiteral("annotations")).toObject();
            QVERIFY2(annotations.contains(QStringLiteral("readOnlyHint")), qPrintable(name));
            Tool *registered = m_h->m_tools.find(name);
            QVERIFY(registered);
            QCOMPARE(annotations.value(QStringLiteral("readOnlyHint")).toBool(), registered->isReadOnly());
        }
        for (const char *expected : {"evaluate-lisp", "list-definitions", "reset-session", "load-system", "configure-limits",
                                        "compile-form", "time-execution", "describe-symbol", "apropos", "macroexpand",
                                        "inspect-object", "check-parens", "complete-symbol", "session-transcript", "run-tests",
                                        "documentation", "list-debuggers", "debugger-frame", "debugger-eval", "invoke-restart"})
            QVERIFY2(names.contains(QString::fromLatin1(expected)), expected);
    }

    void evaluateLispWarnsOfAnUnusedVariableAsSeed000Shows()
    {
        QCOMPARE(eval(QStringLiteral("(defun foo () (let ((x 10))))")),
                 QStringLiteral("[warnings]\nSTYLE-WARNING: The variable X is defined but never used.\n\n=> FOO"));
    }

    void evaluateLispStaysQuietWhenEveryVariableIsUsedOrIgnored()
    {
        QCOMPARE(eval(QStringLiteral("(defun bar (a &optional (b 2)) (declare (ignore b)) (let ((c a)) (dolist (i (list c)) (print i)) c))")),
                 QStringLiteral("=> BAR"));
    }

    void theUnusedVariableCheckNeverChangesWhatAnEvaluationDoes_data()
    {
        QTest::addColumn<QString>("code");
        QTest::newRow("defun without a name") << "(defun)";
        QTest::newRow("dotted binding") << "(let ((x . 1)) x)";
        QTest::newRow("flet without a lambda list") << "(flet ((h)) 1)";
        QTest::newRow("circular lambda list") << "(defun circular-ll #1=(a . #1#) a)";
        QTest::newRow("bindings not a list") << "(multiple-value-bind x 1)";
        QTest::newRow("dotted bindings") << "(let ((x 1) . 2) x)";
        QTest::newRow("fine") << "(defun fine-one (a) (let ((b a)) b))";
    }
    void theUnusedVariableCheckNeverChangesWhatAnEvaluationDoes()
    {
        // The walker looks at DEFUN, LET... at top level only; inside IF the same form is not walked.
        QFETCH(QString, code);
        const QJsonObject walked = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), code}});
        const QJsonObject plain = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(if t %1)").arg(code)}});
        QCOMPARE(ToolHarness::isError(walked), ToolHarness::isError(plain));
        const QJsonObject a = ToolHarness::structured(walked), b = ToolHarness::structured(plain);
        QCOMPARE(a.value(QStringLiteral("error")).toObject().value(QStringLiteral("type")), b.value(QStringLiteral("error")).toObject().value(QStringLiteral("type")));
        QCOMPARE(a.value(QStringLiteral("values")), b.value(QStringLiteral("values")));
    }

    void evaluateLispGivesAResultIdToAListButNotToANumber()
    {
        const QJsonObject list = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(list 1 2 3)")}});
        QVERIFY(!ToolHarness::structured(list).value(QStringLiteral("result_id")).toString().isEmpty());
        const QJsonObject number = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(+ 1 2)")}});
        QVERIFY(!ToolHarness::structured(number).contains(QStringLiteral("result_id")));
    }

    void listDefinitionsSaysNoDefinitionsYetInAFreshSession()
    {
        freshSession();
        const QJsonObject result = m_h->call(QStringLiteral("list-definitions"));
        QCOMPARE(ToolHarness::text(result), QStringLiteral("No definitions yet."));
        QCOMPARE(ToolHarness::structured(result).value(QStringLiteral("count")).toInt(), 0);
    }

    void listDefinitionsShowsTheSessionsOwnDefinitionsInSeed001Sections()
    {
        freshSession();
        eval(QStringLiteral("(defun my-function (a b &optional c) (list a b c)) (defun helper (x) x)"
                            "(defvar *my-var* 42) (defconstant +my-constant+ \"hello\")"
                            "(defmacro with-timing (form) form) (defgeneric area (shape))"
                            "(defclass shape () ()) (defstruct point x y)"));
        const QJsonObject result = m_h->call(QStringLiteral("list-definitions"));
        const QString text = ToolHarness::text(result);
        QVERIFY2(text.startsWith(QStringLiteral("[Functions]\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("- MY-FUNCTION (A B &OPTIONAL C)\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("- HELPER (X)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[Variables]\n- *MY-VAR* = 42\n- +MY-CONSTANT+ = \"hello\"")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[Macros]\n- WITH-TIMING (FORM)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[Generic Functions]\n- AREA (SHAPE)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[Classes]\n- POINT (structure)\n- SHAPE")), qPrintable(text));
        // Nothing of the implementation leaks in.
        QVERIFY(!text.contains(QStringLiteral("MAPCAR")));
        const QJsonArray definitions = ToolHarness::structured(result).value(QStringLiteral("definitions")).toArray();
        bool sawVariable = false;
        for (const QJsonValue &value : definitions) {
            const QJsonObject entry = value.toObject();
            if (entry.value(QStringLiteral("name")).toString() == QStringLiteral("*MY-VAR*")) {
                sawVariable = true;
                QCOMPARE(entry.value(QStringLiteral("kind")).toString(), QStringLiteral("variable"));
                QCOMPARE(entry.value(QStringLiteral("value")).toString(), QStringLiteral("42"));
                QCOMPARE(entry.value(QStringLiteral("package")).toString(), QStringLiteral("COMMON-LISP-USER"));
            }
        }
        QVERIFY(sawVariable);
    }

    void listDefinitionsFiltersByPackageAndPattern()
    {
        eval(QStringLiteral("(defpackage \"SHAPES\" (:use \"CL\")) (in-package \"SHAPES\") (defun make-circle (r) r) (defun make-square (s) s) (defun area2 (x) x) (in-package \"CL-USER\")"));
        const QString glob = ToolHarness::text(m_h->call(QStringLiteral("list-definitions"),
                                                         {{QStringLiteral("package"), QStringLiteral("shapes")}, {QStringLiteral("pattern"), QStringLiteral("make-*")}}));
        QCOMPARE(glob, QStringLiteral("[Functions]\n- SHAPES::MAKE-CIRCLE (SHAPES::R)\n- SHAPES::MAKE-SQUARE (SHAPES::S)"));
        const QString substring = ToolHarness::text(m_h->call(QStringLiteral("list-definitions"), {{QStringLiteral("pattern"), QStringLiteral("AREA")}}));
        QVERIFY2(substring.contains(QStringLiteral("SHAPES::AREA2")), qPrintable(substring));
        QVERIFY2(!substring.contains(QStringLiteral("MAKE-CIRCLE")), qPrintable(substring));
        const QString none = ToolHarness::text(m_h->call(QStringLiteral("list-definitions"), {{QStringLiteral("pattern"), QStringLiteral("zzz-nothing")}}));
        QCOMPARE(none, QStringLiteral("No definitions match \"zzz-nothing\"."));
    }

    void listDefinitionsRejectsAnUnknownPackage()
    {
        const QJsonObject result = m_h->call(QStringLiteral("list-definitions"), {{QStringLiteral("package"), QStringLiteral("no-such-package")}});
        QVERIFY(ToolHarness::isError(result));
        QCOMPARE(ToolHarness::text(result), QStringLiteral("[ERROR] PACKAGE-ERROR\nThe package \"no-such-package\" does not exist."));
    }

    void describeSymbolGivesKindLambdaListDocumentationAndTheDefiningForm()
    {
        eval(QStringLiteral("(defun square (x) \"Squares X.\" (* x x))"));
        const QJsonObject result = m_h->call(QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("square")}});
        const QString text = ToolHarness::text(result);
        QVERIFY2(text.startsWith(QStringLiteral("SQUARE [COMMON-LISP-USER]\nKinds: function\nLambda list: (X)\nValue: unbound\nDocumentation (function): Squares X.")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Defined (function) in this session by:\n(DEFUN SQUARE (X) \"Squares X.\" (* X X))")), qPrintable(text));
        const QJsonObject s = ToolHarness::structured(result);
        QCOMPARE(s.value(QStringLiteral("lambda_list")).toString(), QStringLiteral("(X)"));
        QCOMPARE(s.value(QStringLiteral("locations")).toArray().first().toObject().value(QStringLiteral("where")).toString(), QStringLiteral("session"));
    }

    void describeSymbolOfABuiltInSaysWhereDefinedIsUnknownOrAFile()
    {
        const QJsonObject result = m_h->call(QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("cl:mapcar")}});
        const QString text = ToolHarness::text(result);
        QVERIFY2(text.contains(QStringLiteral("Kinds: function")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Lambda list: (")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Defined (function)")), qPrintable(text));
    }

    void describeSymbolOfAnUnboundSymbolSaysItNamesNothing()
    {
        eval(QStringLiteral("'lonely-symbol"));
        const QString text = ToolHarness::text(m_h->call(QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("lonely-symbol")}}));
        QCOMPARE(text, QStringLiteral("LONELY-SYMBOL [COMMON-LISP-USER]\nKinds: none (the symbol names nothing)\nValue: unbound"));
    }

    void describeSymbolOfAnUnknownNameIsNotFoundWithoutInterningIt()
    {
        const QJsonObject result = m_h->call(QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("never-read-anywhere")}});
        QVERIFY(!ToolHarness::isError(result));
        QCOMPARE(ToolHarness::structured(result).value(QStringLiteral("found")).toBool(), false);
        QCOMPARE(eval(QStringLiteral("(find-symbol \"NEVER-READ-ANYWHERE\")")), QStringLiteral("=> NIL\n=> NIL"));
    }

    void describeSymbolInAnUnknownPackageIsAnError()
    {
        const QJsonObject result = m_h->call(QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("nopkg:foo")}});
        QVERIFY(ToolHarness::isError(result) || !ToolHarness::structured(result).value(QStringLiteral("found")).toBool());
        const QJsonObject inPackage = m_h->call(QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("foo")}, {QStringLiteral("package"), QStringLiteral("nopkg")}});
        QVERIFY(ToolHarness::isError(inPackage));
        QVERIFY2(ToolHarness::text(inPackage).contains(QStringLiteral("does not exist")), qPrintable(ToolHarness::text(inPackage)));
    }

    void aproposFindsSymbolsWithWhatTheyName()
    {
        eval(QStringLiteral("(defun frobnicate-widget (w) w) (defvar *frobnicate-count* 0)"));
        const QJsonObject result = m_h->call(QStringLiteral("apropos"), {{QStringLiteral("text"), QStringLiteral("frobnicate")}});
        QCOMPARE(ToolHarness::text(result), QStringLiteral("FROBNICATE-WIDGET [COMMON-LISP-USER] (function)\n*FROBNICATE-COUNT* [COMMON-LISP-USER] (variable)"));
        const QJsonObject capped = m_h->call(QStringLiteral("apropos"), {{QStringLiteral("text"), QStringLiteral("hash-table")}, {QStringLiteral("package"), QStringLiteral("cl")}, {QStringLiteral("limit"), 3}});
        QCOMPARE(ToolHarness::structured(capped).value(QStringLiteral("matches")).toArray().size(), 3);
        QVERIFY(ToolHarness::structured(capped).value(QStringLiteral("total")).toInt() > 3);
        QVERIFY(ToolHarness::text(capped).contains(QStringLiteral("of")));
    }

    void aproposInAnUnknownPackageIsAnError()
    {
        const QJsonObject result = m_h->call(QStringLiteral("apropos"), {{QStringLiteral("text"), QStringLiteral("car")}, {QStringLiteral("package"), QStringLiteral("no-such-package")}});
        QVERIFY(ToolHarness::isError(result));
        QCOMPARE(ToolHarness::text(result), QStringLiteral("[ERROR] PACKAGE-ERROR\nThe package \"no-such-package\" does not exist."));
    }

    void macroexpandExpandsOneStepOrFully()
    {
        eval(QStringLiteral("(defmacro my-unless (test &body body) `(my-when (not ,test) ,@body)) (defmacro my-when (test &body body) `(if ,test (progn ,@body)))"));
        QCOMPARE(ToolHarness::text(m_h->call(QStringLiteral("macroexpand"), {{QStringLiteral("code"), QStringLiteral("(my-unless x (print 1))")}})),
                 QStringLiteral("(MY-WHEN (NOT X) (PRINT 1))"));
        QCOMPARE(ToolHarness::text(m_h->call(QStringLiteral("macroexpand"), {{QStringLiteral("code"), QStringLiteral("(my-unless x (print 1))")}, {QStringLiteral("full"), true}})),
                 QStringLiteral("(IF (NOT X) (PROGN (PRINT 1)))"));
        const QJsonObject plain = m_h->call(QStringLiteral("macroexpand"), {{QStringLiteral("code"), QStringLiteral("(+ 1 2)")}});
        QCOMPARE(ToolHarness::structured(plain).value(QStringLiteral("expanded")).toBool(), false);
    }

    void macroexpandOfUnreadableCodeIsAnError()
    {
        const QJsonObject result = m_h->call(QStringLiteral("macroexpand"), {{QStringLiteral("code"), QStringLiteral("(when (a b)")}});
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(ToolHarness::text(result).startsWith(QStringLiteral("[ERROR] END-OF-FILE")), qPrintable(ToolHarness::text(result)));
    }

    void inspectObjectPagesAListAndMarksACycle()
    {
        const QJsonObject value = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(let ((x (list 1 2 3))) (setf (cdddr x) x) x)")}});
        QCOMPARE(ToolHarness::text(value), QStringLiteral("=> #1=(1 2 3 . #1#)"));
        const QString id = ToolHarness::structured(value).value(QStringLiteral("result_id")).toString();
        const QJsonObject inspected = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), id}});
        const QJsonObject s = ToolHarness::structured(inspected);
        QCOMPARE(s.value(QStringLiteral("kind")).toString(), QStringLiteral("list"));
        const QJsonArray elements = s.value(QStringLiteral("elements")).toArray();
        QCOMPARE(elements.size(), 4);
        QCOMPARE(elements.at(3).toObject().value(QStringLiteral("cycle")).toBool(), true);
        QCOMPARE(elements.at(3).toObject().value(QStringLiteral("result_id")).toString(), id);

        const QJsonObject big = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(loop for i below 120 collect (list i))")}});
        const QString bigId = ToolHarness::structured(big).value(QStringLiteral("result_id")).toString();
        const QJsonObject page = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), bigId}, {QStringLiteral("offset"), 100}, {QStringLiteral("limit"), 5}});
        const QJsonObject p = ToolHarness::structured(page);
        QCOMPARE(p.value(QStringLiteral("total")).toInt(), 120);
        QCOMPARE(p.value(QStringLiteral("elements")).toArray().size(), 5);
        QCOMPARE(p.value(QStringLiteral("elements")).toArray().first().toObject().value(QStringLiteral("value")).toString(), QStringLiteral("(100)"));
        QVERIFY(ToolHarness::text(page).contains(QStringLiteral("pass offset 105 for more")));
        // Nested values open by their own ids.
        const QString nested = p.value(QStringLiteral("elements")).toArray().first().toObject().value(QStringLiteral("result_id")).toString();
        QVERIFY(!nested.isEmpty());
        const QJsonObject inner = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), nested}});
        QCOMPARE(ToolHarness::structured(inner).value(QStringLiteral("summary")).toString(), QStringLiteral("(100)"));
    }

    void inspectingManyPartsKeepsTheWholeInspectable()
    {
        const QJsonObject value = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(loop for i below 600 collect (list i))")}, {QStringLiteral("print_length"), 2}});
        const QString id = ToolHarness::structured(value).value(QStringLiteral("result_id")).toString();
        for (int offset = 0; offset < 600; offset += 100) {
            const QJsonObject page = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), id}, {QStringLiteral("offset"), offset}, {QStringLiteral("limit"), 100}});
            QCOMPARE(ToolHarness::structured(page).value(QStringLiteral("elements")).toArray().size(), 100);
        }
        m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(progn (gc t) nil)")}});
        const QJsonObject again = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), id}, {QStringLiteral("offset"), 599}});
        QVERIFY2(!ToolHarness::isError(again), qPrintable(ToolHarness::text(again)));
        QCOMPARE(ToolHarness::structured(again).value(QStringLiteral("elements")).toArray().first().toObject().value(QStringLiteral("value")).toString(), QStringLiteral("(599)"));
    }

    void inspectObjectOpensHashTablesStructuresInstancesVectorsAndFunctions_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("firstKey");
        QTest::addColumn<QString>("firstValue");
        QTest::newRow("hash table") << "(let ((h (make-hash-table :test 'equal))) (setf (gethash \"k\" h) (list 1 2)) h)" << "hash-table" << "\"k\"" << "(1 2)";
        QTest::newRow("structure") << "(progn (defstruct ipt a b) (make-ipt :a 1 :b \"two\"))" << "structure" << "A" << "1";
        QTest::newRow("instance") << "(progn (defclass ibox () ((content :initarg :content) (label))) (make-instance 'ibox :content 7))" << "instance" << "CONTENT" << "7";
        QTest::newRow("vector") << "(vector :a (list 1) 3)" << "vector" << "0" << ":A";
        QTest::newRow("array") << "(make-array '(2 2) :initial-contents '((1 2) (3 4)))" << "array" << "(0 0)" << "1";
        QTest::newRow("dotted list") << "(cons 1 (make-hash-table))" << "list" << "0" << "1";
        QTest::newRow("long string, in lines of 80") << "(make-string 300 :initial-element #\\a)" << "string" << "0-79" << QString(80, QLatin1Char('a'));
        QTest::newRow("function") << "(progn (defun ifn (a &key b) \"Doc.\" (list a b)) #'ifn)" << "function" << "" << "";
    }
    void inspectObjectOpensHashTablesStructuresInstancesVectorsAndFunctions()
    {
        QFETCH(QString, code);
        QFETCH(QString, kind);
        QFETCH(QString, firstKey);
        QFETCH(QString, firstValue);
        const QJsonObject value = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), code}});
        const QString id = ToolHarness::structured(value).value(QStringLiteral("result_id")).toString();
        QVERIFY2(!id.isEmpty(), qPrintable(ToolHarness::text(value)));
        const QJsonObject inspected = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), id}});
        const QJsonObject s = ToolHarness::structured(inspected);
        QCOMPARE(s.value(QStringLiteral("kind")).toString(), kind);
        const QJsonArray elements = s.value(QStringLiteral("elements")).toArray();
        if (firstKey.isEmpty()) {
            const QJsonObject attributes = s.value(QStringLiteral("attributes")).toObject();
            QCOMPARE(attributes.value(QStringLiteral("lambda_list")).toString(), QStringLiteral("(A &KEY B)"));
            QCOMPARE(attributes.value(QStringLiteral("documentation")).toString(), QStringLiteral("Doc."));
            return;
        }
        QVERIFY(!elements.isEmpty());
        QCOMPARE(elements.first().toObject().value(QStringLiteral("key")).toString(), firstKey);
        QCOMPARE(elements.first().toObject().value(QStringLiteral("value")).toString(), firstValue);
    }

    void inspectObjectOfAnUnknownIdIsAnErrorThatSaysSo()
    {
        const QJsonObject result = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), QStringLiteral("not-an-id")}});
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(ToolHarness::text(result).contains(QStringLiteral("is not a result id")), qPrintable(ToolHarness::text(result)));
    }

    void inspectObjectOfAnIdFromBeforeAResetSaysItExpired()
    {
        const QJsonObject value = m_h->call(QStringLiteral("evaluate-lisp"), {{QStringLiteral("code"), QStringLiteral("(list :before :reset)")}});
        const QString id = ToolHarness::structured(value).value(QStringLiteral("result_id")).toString();
        QVERIFY(!id.isEmpty());
        freshSession();
        const QJsonObject result = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), id}});
        QVERIFY(ToolHarness::isError(result));
        QCOMPARE(ToolHarness::text(result),
                 QStringLiteral("unknown or expired result_id %1: results are forgotten when the session is reset.").arg(id));
    }

    void aPrintObjectMethodThatNeverReturnsDoesNotStopTheIntrospectionTools()
    {
        const QJsonObject made = m_h->call(QStringLiteral("evaluate-lisp"),
                                           {{QStringLiteral("code"), QStringLiteral("(defclass stuck () ()) (defmethod print-object ((o stuck) s) (declare (ignore s)) (loop))"
                                                                                    "(defvar *stuck* (make-instance 'stuck)) (list *stuck*)")},
                                            {QStringLiteral("print_length"), 1}, {QStringLiteral("timeout_seconds"), 2}});
        // Printing the list ran the method: the evaluation timed out, the session survived.
        QVERIFY2(ToolHarness::text(made).startsWith(QStringLiteral("[ERROR] TIMEOUT")), qPrintable(ToolHarness::text(made)));
        const QString definitions = ToolHarness::text(m_h->call(QStringLiteral("list-definitions"), {{QStringLiteral("pattern"), QStringLiteral("*stuck*")}}));
        QCOMPARE(definitions, QStringLiteral("[Variables]\n- *STUCK* = #<STUCK>\n\n[Classes]\n- STUCK"));
        const QString id = ToolHarness::structured(m_h->call(QStringLiteral("describe-symbol"), {{QStringLiteral("symbol"), QStringLiteral("*stuck*")}}))
                               .value(QStringLiteral("value_result_id")).toString();
        QVERIFY(!id.isEmpty());
        const QJsonObject inspected = m_h->call(QStringLiteral("inspect-object"), {{QStringLiteral("result_id"), id}});
        QVERIFY(ToolHarness::isError(inspected));
        QVERIFY2(ToolHarness::text(inspected).contains(QStringLiteral("PRINT-OBJECT")), qPrintable(ToolHarness::text(inspected)));
        QCOMPARE(ToolHarness::text(m_h->call(QStringLiteral("complete-symbol"), {{QStringLiteral("prefix"), QStringLiteral("*stuc")}})), QStringLiteral("*stuck*"));
    }

    void checkParensFindsTheProblem_data()
    {
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("line");
        QTest::newRow("balanced with tricky literals") << "(list #\\( \"(\" ; )\n #| ) |# 'a)" << true << "" << 0;
        QTest::newRow("unclosed at the last line") << "(defun f (x)\n  (+ x 1)\n(f 2" << false << "unclosed" << 1;
        QTest::newRow("extra close") << "(+ 1 2))" << false << "extra-close" << 1;
        QTest::newRow("mismatch") << "(let [(x 1)) x)" << false << "mismatch" << 1;
        QTest::newRow("unterminated string") << "(print \"abc)" << false << "unterminated-string" << 1;
    }
    void checkParensFindsTheProblem()
    {
        QFETCH(QString, code);
        QFETCH(bool, ok);
        QFETCH(QString, kind);
        QFETCH(int, line);
        const QJsonObject result = m_h->call(QStringLiteral("check-parens"), {{QStringLiteral("code"), code}});
        QVERIFY(!ToolHarness::isError(result));
        const QJsonObject s = ToolHarness::structured(result);
        QCOMPARE(s.value(QStringLiteral("ok")).toBool(), ok);
        if (!ok) {
            QCOMPARE(s.value(QStringLiteral("kind")).toString(), kind);
            QCOMPARE(s.value(QStringLiteral("line")).toInt(), line);
            QVERIFY(ToolHarness::text(result).startsWith(QStringLiteral("Unbalanced (%1) at line %2").arg(kind).arg(line)));
        }
    }

    void completeSymbolCompletesLikeTheConsole()
    {
        eval(QStringLiteral("(defun zebra-one () 1) (defun zebra-two () 2)"));
        const QJsonObject result = m_h->call(QStringLiteral("complete-symbol"), {{QStringLiteral("prefix"), QStringLiteral("zebra-")}});
        QCOMPARE(ToolHarness::text(result), QStringLiteral("zebra-one\nzebra-two"));
        const QJsonObject qualified = m_h->call(QStringLiteral("complete-symbol"), {{QStringLiteral("prefix"), QStringLiteral("cl:mapc")}});
        QVERIFY(ToolHarness::structured(qualified).value(QStringLiteral("completions")).toArray().contains(QStringLiteral("cl:mapcar")));
        QCOMPARE(ToolHarness::text(m_h->call(QStringLiteral("complete-symbol"), {{QStringLiteral("prefix"), QStringLiteral("qqqxxx")}})),
                 QStringLiteral("No symbols start with \"qqqxxx\"."));
    }

    void badArgumentsGiveAnErrorResultNamingTheArgument_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("named");
        QTest::newRow("describe without symbol") << "describe-symbol" << "{}" << "'symbol'";
        QTest::newRow("apropos limit too big") << "apropos" << R"j({"text":"car","limit":100000})j" << "'limit'";
        QTest::newRow("inspect offset negative") << "inspect-object" << R"j({"result_id":"1-1","offset":-1})j" << "'offset'";
        QTest::newRow("check-parens code not a string") << "check-parens" << R"j({"code":42})j" << "'code'";
        QTest::newRow("list-definitions unknown argument") << "list-definitions" << R"j({"packages":"x"})j" << "'packages'";
        QTest::newRow("macroexpand full not boolean") << "macroexpand" << R"j({"code":"(when a b)","full":"yes"})j" << "'full'";
        QTest::newRow("complete-symbol without prefix") << "complete-symbol" << "{}" << "'prefix'";
        QTest::newRow("load-system empty") << "load-system" << R"j({"system":"  "})j" << "'system'";
        QTest::newRow("configure-limits heap too small") << "configure-limits" << R"j({"heap_limit_mb":1})j" << "'heap_limit_mb'";
        QTest::newRow("compile-form without code") << "compile-form" << "{}" << "'code'";
        QTest::newRow("time-execution timeout zero") << "time-execution" << R"j({"code":"1","timeout_seconds":0})j" << "'timeout_seconds'";
        QTest::newRow("session-transcript limit zero") << "session-transcript" << R"j({"limit":0})j" << "'limit'";
        QTest::newRow("run-tests without system") << "run-tests" << "{}" << "'system'";
        QTest::newRow("run-tests timeout zero") << "run-tests" << R"j({"system":"x","timeout_seconds":0})j" << "'timeout_seconds'";
        QTest::newRow("documentation blank symbol") << "documentation" << R"j({"symbol":" "})j" << "'symbol'";
        QTest::newRow("reset-session with an argument") << "reset-session" << R"j({"force":true})j" << "'force'";
        QTest::newRow("evaluate-lisp debug not boolean") << "evaluate-lisp" << R"j({"code":"1","debug":"yes"})j" << "'debug'";
        QTest::newRow("debugger-frame without frame") << "debugger-frame" << R"j({"debugger_id":1})j" << "'frame'";
        QTest::newRow("debugger-eval without debugger_id") << "debugger-eval" << R"j({"code":"x"})j" << "'debugger_id'";
        QTest::newRow("invoke-restart blank restart") << "invoke-restart" << R"j({"debugger_id":1,"restart":" "})j" << "'restart'";
        QTest::newRow("invoke-restart arguments not strings") << "invoke-restart" << R"j({"debugger_id":1,"restart":"USE-VALUE","arguments":[42]})j" << "'arguments'";
        QTest::newRow("list-debuggers with an argument") << "list-debuggers" << R"j({"all":true})j" << "'all'";
    }
    void badArgumentsGiveAnErrorResultNamingTheArgument()
    {
        QFETCH(QString, tool);
        QFETCH(QString, arguments);
        QFETCH(QString, named);
        const QJsonObject result = m_h->call(tool, QJsonDocument::fromJson(arguments.toUtf8()).object());
        QVERIFY(ToolHarness::isError(result));
        QVERIFY2(ToolHarness::text(result).contains(named), qPrintable(ToolHarness::text(result)));
    }
};

QTEST_GUILESS_MAIN(TestToolsIntrospection)
#include "tst_tools_introspection.moc"
