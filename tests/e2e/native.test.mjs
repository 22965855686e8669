// Native code for the session's definitions (issue 30) through the official SDK client over
// stdio: a definition runs interpreted while it compiles and natively after, as
// definition-history says; time-execution times the native version by default and the code as
// typed with as_typed, and says which; a load-system of a six-file system with force sends
// "compiling file k of 6: NAME" as progress notifications to a client that asked for them;
// and `lisp-duet --no-native` keeps the definitions interpreted and says so in project-info,
// time-execution and on stderr. Every result is checked against the tool's schemas.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import Ajv from 'ajv';

import { connectStdio, textOf } from './lib.mjs';

const ajv = new Ajv({ strict: false, allErrors: true });

function caller(server, tools) {
  return async (name, args = {}, { onprogress, timeout = 120000 } = {}) => {
    const tool = tools.find(t => t.name === name);
    assert.ok(tool, `${name} is listed`);
    assert.ok(ajv.validate(tool.inputSchema, args), `${name} arguments: ${ajv.errorsText()}`);
    const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout, onprogress });
    assert.equal(result.isError ?? false, false, `${name} isError: ${textOf(result)}`);
    assert.ok(ajv.validate(tool.outputSchema, result.structuredContent),
              `${name} structuredContent: ${ajv.errorsText()}\n${JSON.stringify(result.structuredContent)}`);
    return result;
  };
}

// Until the background compiler has nothing left: definition-history says "Runs native code".
async function untilNative(call, name) {
  for (let i = 0; i < 300; ++i) {
    const text = textOf(await call('definition-history', { name }));
    if (text.includes('Runs native code since'))
      return text;
    await new Promise(done => setTimeout(done, 100));
  }
  assert.fail(`${name} did not become native within 30 s`);
}

describe('native code for the session\'s definitions', { timeout: 300000 }, () => {
  let server;
  let call;
  let project;

  before(async () => {
    server = await connectStdio({ clientName: 'e2e-native' });
    call = caller(server, (await server.client.listTools()).tools);
    project = mkdtempSync(join(tmpdir(), 'lisp-duet-native-'));
    const parts = [];
    for (let i = 1; i <= 6; ++i) {
      let source = '';
      for (let f = 0; f < 12; ++f)
        source += `(defun e2e-native-${i}-${f} (x) (loop for i below x sum (* i ${f})))\n`;
      writeFileSync(join(project, `piece${i}.lisp`), source);
      parts.push(`(:file "piece${i}")`);
    }
    writeFileSync(join(project, 'e2e-native.asd'), `(asdf:defsystem "e2e-native" :serial t :components (${parts.join(' ')}))\n`);
  });
  after(async () => {
    await server?.close();
    if (project)
      rmSync(project, { recursive: true, force: true });
  });

  test('a definition runs interpreted while it compiles, then native, as definition-history says', async () => {
    await call('evaluate-lisp', { code: '(defun e2e-fib (n) (if (< n 2) n (+ (e2e-fib (- n 1)) (e2e-fib (- n 2)))))' });
    const early = await call('definition-history', { name: 'e2e-fib' });
    assert.match(textOf(early), /Runs (interpreted while it is compiled to native code|native code since)/);
    const text = await untilNative(call, 'e2e-fib');
    assert.match(text, /Runs native code since \d\d:\d\d:\d\d \([0-9.]+ s after it was defined\)\./);
    const later = await call('definition-history', { name: 'e2e-fib' });
    assert.equal(later.structuredContent.definitions[0].execution.state, 'native');
  });

  test('time-execution times the native version by default and the code as typed when asked', async () => {
    // The code given is what is timed: its loop, compiled first or run by the interpreter.
    const loop = '(let ((sum 0)) (declare (fixnum sum)) (dotimes (i 1000000 sum) (setf sum (logand (+ sum i) #xffff))))';
    const native = await call('time-execution', { code: loop });
    assert.match(textOf(native), /^=> 59104\n\n\[timing\]\nreal time: [^\n]+\nrun time: [^\n]+\nGC time: [^\n]+\nbytes allocated: [^\n]+\ntimed: the native version \(compiling it took [0-9.]+ ms[^)]*; not counted\)$/);
    assert.equal(native.structuredContent.timing.timed, 'native');
    const typed = await call('time-execution', { code: loop, as_typed: true });
    assert.match(textOf(typed), /\ntimed: as typed \(bytecode\), as asked; functions it calls run as they are now$/);
    assert.equal(typed.structuredContent.timing.timed, 'as-typed');
    assert.ok(typed.structuredContent.timing.real_ms > native.structuredContent.timing.real_ms,
              `as typed ${typed.structuredContent.timing.real_ms} ms, native ${native.structuredContent.timing.real_ms} ms`);
  });

  test('a load-system sends "compiling file k of n" to a client that asked for progress', async () => {
    await call('set-project-root', { path: project });
    const messages = [];
    const loaded = await call('load-system', { system: 'e2e-native', force: true },
                              { onprogress: progress => messages.push(progress.message), timeout: 240000 });
    assert.match(textOf(loaded), /Loaded: e2e-native/);
    assert.ok(messages.some(m => /^compiling file [1-6] of 6: piece[1-6]\.lisp$/.test(m)), messages.join(' | '));
  });
});

describe('lisp-duet --no-native', { timeout: 120000 }, () => {
  let server;
  let call;

  before(async () => {
    server = await connectStdio({ args: ['--no-native'], clientName: 'e2e-no-native' });
    call = caller(server, (await server.client.listTools()).tools);
  });
  after(async () => {
    await server?.close();
  });

  test('the definitions stay interpreted, and project-info, definition-history, time-execution and stderr say so', async () => {
    const why = 'Native compilation is off for this run (--no-native): the session\'s definitions run interpreted.';
    await call('evaluate-lisp', { code: '(defun e2e-off (x) (1+ x))' });
    const info = await call('project-info');
    assert.ok(textOf(info).includes(`Native code: off. ${why}`), textOf(info));
    assert.equal(info.structuredContent.native.on, false);
    assert.ok(textOf(await call('definition-history', { name: 'e2e-off' })).includes(`Runs interpreted: ${why}`));
    const timed = await call('time-execution', { code: '(e2e-off 1)' });
    assert.ok(textOf(timed).endsWith(`\ntimed: as typed (bytecode): ${why}`), textOf(timed));
    assert.equal(textOf(await call('evaluate-lisp', { code: '(lisp-duet.kernel::bytecoded-p #\'e2e-off)' })), '=> T');
    assert.equal(server.stderr().split(why).length - 1, 1, server.stderr());
  });
});
