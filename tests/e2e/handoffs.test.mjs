// The hand-offs of issue 21 through the official SDK client over stdio (headless): stage-form is
// refused with the reason (no person can see a staged form); the ledger of definitions through
// definition-history and revert-definition, on code an agent evaluates and on tests/data/shapes
// loaded from the project root (methods with their specializers, each form's file and line, a
// revert to a file's version evaluating the form as the file has it now). Every result is
// checked against the tool's schemas. The window's side (staging in the REPL input, the
// person's revert, the Definitions panel) is tests/app/tst_handoffs.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import Ajv from 'ajv';

import { binDir, connectStdio, testsDir, textOf } from './lib.mjs';

const fasls = join(binDir(), '..', 'e2e-lisp-cache');

describe('hand-offs, headless', { timeout: 240000 }, () => {
  let server;
  let tools;
  let project;
  const ajv = new Ajv({ strict: false, allErrors: true });

  async function call(name, args = {}, { expectError = false } = {}) {
    const tool = tools.find(t => t.name === name);
    assert.ok(tool, `${name} is listed`);
    assert.ok(ajv.validate(tool.inputSchema, args), `${name} arguments: ${ajv.errorsText()}`);
    const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 200000 });
    assert.equal(result.isError ?? false, expectError, `${name} isError: ${textOf(result)}`);
    if (result.structuredContent)
      assert.ok(ajv.validate(tool.outputSchema, result.structuredContent),
                `${name} structuredContent: ${ajv.errorsText()}\n${JSON.stringify(result.structuredContent)}`);
    return result;
  }

  before(async () => {
    project = join(mkdtempSync(join(tmpdir(), 'lisp-duet-handoffs-')), 'shapes');
    cpSync(join(testsDir, 'data', 'shapes'), project, { recursive: true });
    mkdirSync(fasls, { recursive: true });
    server = await connectStdio({ clientName: 'e2e-handoffs', env: { XDG_CACHE_HOME: fasls } });
    tools = (await server.client.listTools()).tools;
  });
  after(async () => {
    await server?.close();
    rmSync(join(project, '..'), { recursive: true, force: true });
  });

  test('the three tools are listed with their annotations', () => {
    const byName = Object.fromEntries(tools.map(t => [t.name, t]));
    assert.equal(byName['stage-form'].annotations.readOnlyHint, false);
    assert.equal(byName['definition-history'].annotations.readOnlyHint, true);
    assert.equal(byName['revert-definition'].annotations.destructiveHint, true);
    assert.deepEqual(byName['stage-form'].inputSchema.required, ['code']);
  });

  test('stage-form without a window is refused with the reason, and nothing runs', async () => {
    const result = await call('stage-form', { code: '(defparameter *staged-headless* 1)', description: 'try it' }, { expectError: true });
    assert.equal(textOf(result),
                 'stage-form needs a person at the Lisp Duet window, and this Lisp Duet runs without one (headless), so nothing '
                 + 'was staged. Run the code with evaluate-lisp instead, or ask the person to start the Lisp Duet window and connect to it.');
    const check = await call('evaluate-lisp', { code: "(boundp '*staged-headless*)" });
    assert.match(textOf(check), /^=> NIL$/m);
  });

  test('a redefinition is a second version with a diff, and revert-definition puts the first back', async () => {
    await call('evaluate-lisp', { code: '(defun greet (name)\n  (format nil "Hello, ~A" name))' });
    await call('evaluate-lisp', { code: '(defun greet (name)\n  (format nil "Hi, ~A!" name))', description: 'friendlier' });
    const history = await call('definition-history', { name: 'greet' });
    const text = textOf(history);
    assert.match(text, /^COMMON-LISP-USER::GREET \(function\): 2 versions; the session has version 2\.( Runs (native code since|interpreted while it is compiled)[^\n]*)?\n\nVersion 1 \(defun\), by e2e-handoffs at \d\d:\d\d:\d\d:\n\(defun greet \(name\)\n  \(format nil "Hello, ~A" name\)\)\n\nVersion 2 \(defun\), by e2e-handoffs at \d\d:\d\d:\d\d, replaced version 1:\n--- version 1\n\+\+\+ version 2\n@@ -1,2 \+1,2 @@\n \(defun greet \(name\)\n-  \(format nil "Hello, ~A" name\)\)\n\+  \(format nil "Hi, ~A!" name\)\)$/);
    const [greet] = history.structuredContent.definitions;
    assert.equal(greet.name, 'COMMON-LISP-USER::GREET');
    assert.equal(greet.versions[1].description, 'friendlier');
    assert.equal(greet.versions[0].by_kind, 'agent');

    const reverted = await call('revert-definition', { name: 'greet' });
    assert.match(textOf(reverted), /^Reverted COMMON-LISP-USER::GREET to version 1\. Evaluated the text of version 1 \(e2e-handoffs at \d\d:\d\d:\d\d\) in COMMON-LISP-USER\.\n\n=> GREET$/);
    assert.equal(reverted.structuredContent.reverted_to, 1);
    assert.equal(reverted.structuredContent.from_file, false);
    assert.match(textOf(await call('evaluate-lisp', { code: '(greet "Ann")' })), /^=> "Hello, Ann"$/m);
    const after3 = await call('definition-history', { name: 'greet', kind: 'function' });
    assert.equal(after3.structuredContent.definitions[0].versions.length, 3);
    assert.equal(after3.structuredContent.definitions[0].versions[2].via, 'revert');
    assert.equal(after3.structuredContent.definitions[0].versions[2].restores, 1);
    assert.match(textOf(after3), /Version 3 \(defun\), by e2e-handoffs \(revert to version 1\) at /);
  });

  test('unknown names, ambiguous names and a single version are refused with what to do', async () => {
    const none = await call('definition-history', { name: 'never-defined-here' });
    assert.match(textOf(none), /^The ledger has no definition named never-defined-here\./);
    assert.deepEqual(none.structuredContent.definitions, []);
    await call('evaluate-lisp', { code: '(defun lonely () 1)' });
    const single = await call('revert-definition', { name: 'lonely' }, { expectError: true });
    assert.equal(textOf(single), 'COMMON-LISP-USER::LONELY has only one version in the ledger, so there is no earlier one to put back.');
    const unreadable = await call('definition-history', { name: 'area ((' }, { expectError: true });
    assert.match(textOf(unreadable), /^The name 'area \(\(' does not read/);
  });

  test('a system loaded from the project: each method with its specializers, file and line', async () => {
    await call('set-project-root', { path: project });
    await call('load-system', { system: 'shapes' });
    const source = readFileSync(join(project, 'src', 'shapes.lisp'), 'utf8');
    const lineOf = start => source.slice(0, source.indexOf(start)).split('\n').length;
    const methods = await call('definition-history', { name: 'shapes:area', kind: 'method' });
    const names = methods.structuredContent.definitions.map(d => d.name).sort();
    assert.deepEqual(names, ['SHAPES::AREA (CIRCLE)', 'SHAPES::AREA (RECTANGLE)', 'SHAPES::AREA (SQUARE)']);
    const square = methods.structuredContent.definitions.find(d => d.name === 'SHAPES::AREA (SQUARE)');
    assert.equal(square.versions[0].via, 'file');
    assert.equal(square.versions[0].file, 'src/shapes.lisp');
    assert.equal(square.versions[0].line, lineOf('(defmethod area ((shape square))'));
    assert.equal(square.versions[0].source, '(defmethod area ((shape square))\n  (* 2 (side shape)))');
    assert.match(textOf(methods), new RegExp(`Version 1 \\(defmethod\\), loaded from src/shapes\\.lisp:${lineOf('(defmethod area ((shape square))')} by e2e-handoffs at `));

    // An agent's fix, then a revert to the file's version: the form as the file has it now.
    await call('evaluate-lisp', { code: '(defmethod area ((shape square)) (* (side shape) (side shape)))', package: 'shapes' });
    assert.match(textOf(await call('evaluate-lisp', { code: '(area (make-square 3))', package: 'shapes' })), /^=> 9$/m);
    const reverted = await call('revert-definition', { name: 'area (square)' });
    assert.equal(reverted.structuredContent.from_file, true);
    assert.match(textOf(reverted), new RegExp(`^Reverted SHAPES::AREA \\(SQUARE\\) to version 1\\. Version 1 came from src/shapes\\.lisp:${lineOf('(defmethod area ((shape square))')}: evaluated that form as the file has it now`));
    assert.match(textOf(await call('evaluate-lisp', { code: '(area (make-square 3))', package: 'shapes' })), /^=> 6$/m);

    const ambiguous = await call('revert-definition', { name: 'shapes:area' }, { expectError: true });
    assert.match(textOf(ambiguous), /^shapes:area names 4 definitions: SHAPES::AREA \(generic-function\), SHAPES::AREA \(CIRCLE\) \(method\)/);
  });
});
