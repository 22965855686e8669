#pragma once

#include "history/DefinitionVersion.h"
#include "toolapi/Tool.h"

#include <QJsonObject>

class DefinitionLedger;
class FormStaging;
class JobHandles;
class NativeCompilation;
class Session;

// The hand-offs between the person and the agents (issue 21): a form staged in the person's
// REPL input, and the ledger of who defined what, with revert.
Tool stageFormTool(FormStaging *staging);
Tool definitionHistoryTool(Session *session, DefinitionLedger *ledger, const NativeCompilation *native);
Tool revertDefinitionTool(Session *session, JobHandles *jobs, DefinitionLedger *ledger);
// stage-form's refusal when no window (no person) can take staged forms.
QString stageFormUnavailable();

// What definition-history and revert-definition share.
namespace Handoffs {
// "name" and "kind", as both tools take them.
const Argument<QString> &definitionName();
const Argument<QString> &definitionKind();
// "Version 2 (defun), by claude-code at 12:00:05"; "Version 1 (defmethod), loaded from src/shapes.lisp:36 by You at ...".
QString versionHeading(const DefinitionVersion &version, const QString &projectRoot);
QJsonObject versionJson(const DefinitionVersion &version, const QString &projectRoot);
} // namespace Handoffs
