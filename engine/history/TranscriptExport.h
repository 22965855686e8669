#pragma once

#include "Journal.h"

// A session's transcript as a document for teaching and demos: Markdown, or one
// self-contained HTML page (inline CSS, no scripts, no external assets; works offline).
// Both say who did what and when; the HTML page sets the person and agents apart by colour
// and shows errors in red.
namespace TranscriptExport {

enum class Format { Markdown, Html };

// "md"/"markdown" or "html"/"htm"; false for anything else.
bool parseFormat(const QString &name, Format *format);

QList<JournalEntry> fromTranscript(const QList<JobPtr> &transcript);

QString markdown(const QList<JournalEntry> &entries, const QString &title = QString());
QString html(const QList<JournalEntry> &entries, const QString &title = QString());
QString render(Format format, const QList<JournalEntry> &entries, const QString &title = QString());

// Writes the document (UTF-8) to path; on failure, false and a sentence in *error.
bool write(const QString &path, Format format, const QList<JournalEntry> &entries, const QString &title, QString *error);

} // namespace TranscriptExport
