// Pairing on a project through the official SDK client over stdio (issue 11): a copy of
// tests/data/shapes (an ASDF system with a FiveAM suite in which AREA-OF-A-SQUARE fails on
// purpose) becomes the project root; the agent views the file, runs the suite and gets the one
// failure in structure, fixes the form with edit-form (evaluated in the session too), finds the
// references, and runs the suite again. Every result is checked against the tool's schemas.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import Ajv from 'ajv';

import { binDir, connectStdio, testsDir, textOf } from './lib.mjs';

// FiveAM and its dependencies are compiled by ECL on first use (tens of seconds); the cache is
// kept beside the build so that later runs load them at once. Under CTest it is the one every
// suite of the build shares (XDG_CACHE_HOME, tests/CMakeLists.txt).
const fasls = process.env.XDG_CACHE_HOME || join(binDir(), '..', 'e2e-lisp-cache');

describe('pair on a project', { timeout: 540000 }, () => {
  let server;
  let tools;
  let project;
  const ajv = new Ajv({ strict: false, allErrors: true });

  async function call(name, args = {}, { expectError = false } = {}) {
    const tool = tools.find(t => t.name === name);
    assert.ok(tool, `${name} is listed`);
    assert.ok(ajv.validate(tool.inputSchema, args), `${name} arguments: ${ajv.errorsText()}`);
    const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 400000 });
    assert.equal(result.isError ?? false, expectError, `${name} isError: ${textOf(result)}`);
    // Refusals are a sentence; results carry structuredContent that fits the outputSchema.
    assert.ok(expectError || result.structuredContent, `${name} has structuredContent`);
    if (result.structuredContent)
      assert.ok(ajv.validate(tool.outputSchema, result.structuredContent),
                `${name} structuredContent: ${ajv.errorsText()}\n${JSON.stringify(result.structuredContent)}`);
    return result;
  }

  before(async () => {
    project = join(mkdtempSync(join(tmpdir(), 'lisp-duet-project-')), 'shapes');
    cpSync(join(testsDir, 'data', 'shapes'), project, { recursive: true });
    mkdirSync(fasls, { recursive: true });
    server = await connectStdio({ clientName: 'e2e-project', env: { XDG_CACHE_HOME: fasls } });
    tools = (await server.client.listTools()).tools;
  });
  after(async () => {
    await server?.close();
    rmSync(join(project, '..'), { recursive: true, force: true });
  });

  const source = () => readFileSync(join(project, 'src', 'shapes.lisp'), 'utf8');

  test('without a root, the file tools say how to set one', async () => {
    const result = await call('view-lisp-file', { path: 'src/shapes.lisp' }, { expectError: true });
    assert.match(textOf(result), /project root/i);
    assert.match(textOf(result), /set-project-root/);
  });

  test('set-project-root and project-info find the systems', async () => {
    await call('set-project-root', { path: project });
    const info = await call('project-info');
    assert.match(textOf(info), /shapes\.asd/);
    assert.match(textOf(info), /shapes\/tests/);
  });

  test('view-lisp-file gives one line per form, and a named form in full', async () => {
    const view = await call('view-lisp-file', { path: 'src/shapes.lisp', forms: 'defmethod area (square)' });
    const text = textOf(view);
    assert.match(text, /defclass circle/);
    assert.match(text, /defmacro with-shapes/);
    assert.match(text, /^ +37│ {2}\(\* 2 \(side shape\)\)\)$/m, 'the named form is shown in full, with line numbers');
    // The block comment's stray paren and the strings fool nothing: 6 area/perimeter methods,
    // and both reader-conditional definitions of IMPLEMENTATION-NOTE, each with its feature.
    const outline = text.split('\n').filter(line => /^\d+(-\d+)? +\S/.test(line));
    assert.equal(outline.filter(line => /defmethod (area|perimeter) \(/.test(line)).length, 6, text);
    assert.ok(outline.some(line => /^60-61 +#\+ecl defun implementation-note$/.test(line)), text);
    assert.ok(outline.some(line => /^62-63 +#-ecl defun implementation-note$/.test(line)), text);
  });

  test('run-tests reports the one failure in structure', async () => {
    await call('load-system', { system: 'shapes' });
    const run = await call('run-tests', { system: 'shapes' });
    const s = run.structuredContent;
    assert.equal(s.framework, 'fiveam');
    assert.equal(s.failed, 1, textOf(run));
    assert.ok(s.passed >= 4, textOf(run));
    assert.equal(s.failures.length, 1);
    assert.match(s.failures[0].test, /AREA-OF-A-SQUARE/i);
    assert.match(textOf(run), /AREA-OF-A-SQUARE/i);
  });

  test('edit-form replaces one method, evaluates it, and leaves the rest byte for byte', async () => {
    const before = source();
    const fixed = '(defmethod area ((shape square))\n  (* (side shape) (side shape)))';
    const edit = await call('edit-form', {
      path: 'src/shapes.lisp', form: 'defmethod area (square)', text: fixed, evaluate: true,
      description: 'A square\'s area is side * side',
    });
    assert.match(textOf(edit), /^-  \(\* 2 \(side shape\)\)\)$/m);
    assert.match(textOf(edit), /^\+  \(\* \(side shape\) \(side shape\)\)\)$/m);
    const after = source();
    const old = '(defmethod area ((shape square))\n  (* 2 (side shape)))';
    assert.equal(after, before.replace(old, fixed));
    const value = await call('evaluate-lisp', { code: '(shapes:area (shapes:make-square 3))' });
    assert.equal(textOf(value).split('\n')[0], '=> 9');
  });

  test('find-references counts code, not comments or strings', async () => {
    const refs = await call('find-references', { symbol: 'side' });
    const text = textOf(refs);
    assert.match(text, /src\/shapes\.lisp/);
    assert.match(text, /defmethod area \(square\)/);
    // ";; Wrong on purpose: a square's area is side * side" is a comment: not a reference.
    assert.doesNotMatch(text, /Wrong on purpose/);
  });

  test('run-tests again: all pass', async () => {
    const run = await call('run-tests', { system: 'shapes' });
    assert.equal(run.structuredContent.failed, 0, textOf(run));
  });

  test('documentation of a standard symbol', async () => {
    const doc = await call('documentation', { symbol: 'mapcar' });
    assert.match(textOf(doc), /mapcar/i);
  });

  test('the sources of installed systems may be read, never written', async () => {
    // Debian's cl-fiveam (installed by installer/install-deps.sh) lives where ASDF finds it.
    const asd = '/usr/share/common-lisp/source/fiveam/fiveam.asd';
    const read = await call('read-file', { path: asd, limit: 5 });
    assert.match(textOf(read), /1│/);
    const write = await call('write-file', { path: asd, content: '(oops)\n' }, { expectError: true });
    assert.match(textOf(write), /read|outside/i);
    assert.doesNotMatch(readFileSync(asd, 'utf8'), /oops/);
  });

  test('a path outside the root is refused with the root named', async () => {
    const result = await call('read-file', { path: '../../etc/passwd' }, { expectError: true });
    assert.match(textOf(result), new RegExp(project.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });
});
