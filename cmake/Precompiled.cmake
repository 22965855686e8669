# Precompiled headers: the Qt and standard headers nearly every file includes, parsed once for
# the QtCore libraries (duet_client's, reused by duet_mcp), once for the widget ones (duet_ui's,
# reused by duet_app) and once per test folder, instead of once per file. Parsing them was about half of
# each file's compile time with g++ 12 (DocumentationTool.cpp: 2.0 s, 1.1 s with them).
# The sources still include what they use; configure with -DLISP_DUET_PCH=OFF to check that
# they build without the precompiled headers.
option(LISP_DUET_PCH "Precompile the common Qt and standard headers" ON)

set(DUET_PCH_CORE
  <algorithm> <functional> <memory> <optional> <utility> <vector>
  <QByteArray> <QDateTime> <QDir> <QElapsedTimer> <QFile> <QFileInfo> <QHash> <QJsonArray>
  <QJsonDocument> <QJsonObject> <QJsonValue> <QList> <QLoggingCategory> <QMap> <QObject>
  <QPointer> <QRegularExpression> <QSet> <QString> <QStringList> <QTimer> <QUrl> <QVariant>)
set(DUET_PCH_WIDGETS ${DUET_PCH_CORE}
  <QAction> <QColor> <QHBoxLayout> <QLabel> <QMenu> <QPlainTextEdit> <QPushButton> <QScrollBar>
  <QTextBlock> <QTextCharFormat> <QTextCursor> <QVBoxLayout> <QWidget>)
set(DUET_PCH_TEST <QSignalSpy> <QTemporaryDir> <QTest>)

# duet_precompile(TARGET HEADERS...): TARGET's files start from HEADERS precompiled.
function(duet_precompile target)
  if(LISP_DUET_PCH)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()

# duet_precompile_like(TARGET OWNER): TARGET uses OWNER's precompiled headers (same flags needed:
# g++ ignores, with a -Winvalid-pch warning, a header made with macros TARGET defines otherwise).
function(duet_precompile_like target owner)
  if(LISP_DUET_PCH)
    target_precompile_headers(${target} REUSE_FROM ${owner})
  endif()
endfunction()
