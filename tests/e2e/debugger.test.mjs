// The shared debugger through the official SDK client over stdio (issue 20): an evaluation with
// debug: true parks on an error and returns at once with seed 000's exact [ERROR] text and a
// [Debugger] block; invoke-restart continues it and returns the outcome as evaluate-lisp would;
// debugger-frame shows locals, debugger-eval sees them (in the project's compiled code too);
// nested levels, RETRY after defining what was missing, check-type, assert, cerror, break,
// invoke-debugger (a frame's local opened in inspect-object by its result_id), a cancelled call
// parked as a break, run-tests stopping at its failed check, a reset while parked; without
// debug, the same calls answer as before. Every result is checked against the tool's
// outputSchema.

import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import Ajv from 'ajv';

import { binDir, connectStdio, testsDir } from './lib.mjs';

const fasls = process.env.XDG_CACHE_HOME || join(binDir(), '..', 'e2e-lisp-cache'); // FiveAM compiled once (project.test.mjs)

describe('the shared debugger through the SDK client', { timeout: 540000 }, () => {
  let server;
  let tools;
  let project;
  const ajv = new Ajv({ strict: false, allErrors: true });

  async function call(name, args = {}, { expectError = false, signal } = {}) {
    const tool = tools.find(t => t.name === name);
    assert.ok(tool, `${name} is listed`);
    assert.ok(ajv.validate(tool.inputSchema, args), `${name} arguments: ${ajv.errorsText()}`);
    const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 400000, signal });
    assert.equal(result.isError ?? false, expectError, `${name} isError: ${JSON.stringify(result.content)}`);
    assert.ok(result.structuredContent, `${name} has structuredContent`);
    assert.ok(ajv.validate(tool.outputSchema, result.structuredContent),
              `${name} structuredContent: ${ajv.errorsText()}\n${JSON.stringify(result.structuredContent)}`);
    return result;
  }
  const first = result => result.content[0].text;
  const debuggerBlock = result => result.content.find(part => part.text.startsWith('[Debugger]'))?.text;
  // A call that parks: its debugger's id.
  async function parks(code, extra = {}) {
    const result = await call('evaluate-lisp', { code, debug: true, ...extra }, { expectError: true });
    assert.equal(result.structuredContent.status, 'parked', JSON.stringify(result.structuredContent));
    return result;
  }

  before(async () => {
    project = join(mkdtempSync(join(tmpdir(), 'lisp-duet-debugger-')), 'shapes');
    cpSync(join(testsDir, 'data', 'shapes'), project, { recursive: true });
    mkdirSync(fasls, { recursive: true });
    server = await connectStdio({ clientName: 'e2e-debugger', env: { XDG_CACHE_HOME: fasls } });
    tools = (await server.client.listTools()).tools;
  });
  after(async () => {
    await server?.close();
    rmSync(join(project, '..'), { recursive: true, force: true });
  });

  test('the tools are listed with their access: debugger-frame and list-debuggers only look', () => {
    const hints = name => tools.find(t => t.name === name).annotations;
    assert.equal(hints('debugger-frame').readOnlyHint, true);
    assert.equal(hints('list-debuggers').readOnlyHint, true);
    assert.equal(hints('debugger-eval').readOnlyHint, false);
    assert.equal(hints('invoke-restart').readOnlyHint, false);
    assert.equal(hints('invoke-restart').destructiveHint, true);
    for (const name of ['evaluate-lisp', 'time-execution', 'run-tests'])
      assert.equal(tools.find(t => t.name === name).inputSchema.properties.debug.type, 'boolean', name);
  });

  test('the instructions explain the workflow and fit Claude Code\'s 2,048 characters', () => {
    const instructions = server.client.getInstructions();
    assert.match(instructions, /debug: true/);
    assert.match(instructions, /invoke-restart/);
    assert.ok(instructions.length < 2048, `${instructions.length} characters`);
  });

  test('a loop over 10,000 items parks at item 5,000 and finishes with its full sum after USE-VALUE', async () => {
    await call('evaluate-lisp', { code: '(defun parse-item (i) (restart-case (if (= i 5000) (error "bad record ~D" i) i) (use-value (v) :report "Use a value for this record." v)))\n(defun total (n) (loop for i from 1 to n sum (parse-item i)))' });
    const parked = await parks('(total 10000)');
    // content[0] is exactly seed 000's error text; the debugger comes in a block of its own.
    assert.equal(first(parked), '[ERROR] SIMPLE-ERROR\nbad record 5000\n\n[Backtrace]\n0: (PARSE-ITEM 5000)\n1: (TOTAL 10000)');
    const block = debuggerBlock(parked);
    assert.match(block, /^\[Debugger\]\n/);
    assert.match(block, /  0: \[USE-VALUE\] Use a value for this record\.\n  1: \[RETRY\] /);
    assert.match(block, /invoke-restart/);
    const d = parked.structuredContent.debugger;
    assert.equal(d.level, 1);
    assert.equal(d.condition_type, 'SIMPLE-ERROR');
    assert.equal(d.message, 'bad record 5000');
    assert.deepEqual(d.restarts.map(r => r.name), ['USE-VALUE', 'RETRY', 'ABORT']);
    assert.deepEqual(d.frames.map(f => [f.index, f.text]), [[0, '(PARSE-ITEM 5000)'], [1, '(TOTAL 10000)']]);

    const frame = await call('debugger-frame', { debugger_id: d.id, frame: 1 });
    assert.match(first(frame), /^\[Frame 1 of debugger \d+\] \(TOTAL 10000\)\nFunction: TOTAL, defined in the session/);
    assert.match(first(frame), /Arguments:\n  N = 10000/);
    const sum = await call('debugger-eval', { debugger_id: d.id, frame: 0, code: '(list i (* i 2))' });
    assert.equal(first(sum), '=> (5000 10000)');

    const continued = await call('invoke-restart', { debugger_id: d.id, restart: 'USE-VALUE', arguments: ['5000'] });
    assert.equal(first(continued), '=> 50005000');
    assert.match(debuggerBlock(continued), /you chose USE-VALUE \(5000\) at \d\d:\d\d:\d\d\. The evaluation is over/);
    assert.equal(continued.structuredContent.choice.yours, true);
    const list = await call('list-debuggers');
    assert.equal(list.structuredContent.debuggers.length, 0);
    assert.match(first(list), /No evaluation is parked/);
    assert.match(first(list), /the person chose|you chose|e2e-debugger chose USE-VALUE \(5000\)/);
  });

  test('check-type offers STORE-VALUE, and the value given is used', async () => {
    const parked = await parks("(let ((x 'a)) (check-type x integer) (* x 2))");
    // The form's own frame, with its local X (issue 40: a REPL form shows its own frame).
    assert.equal(first(parked), "[ERROR] SIMPLE-TYPE-ERROR\nThe value of X is A, which is not of type INTEGER.\n\n[Backtrace]\n0: (LET ((X 'A)) (CHECK-TYPE X INTEGER) (* X 2))");
    const d = parked.structuredContent.debugger;
    assert.deepEqual(d.frames, [{ index: 0, text: "(LET ((X 'A)) (CHECK-TYPE X INTEGER) (* X 2))", locals_available: true }]);
    assert.equal(d.restarts[0].name, 'STORE-VALUE');
    const refused = await call('invoke-restart', { debugger_id: d.id, restart: 'STORE-VALUE' }, { expectError: true });
    assert.match(first(refused), /exactly one value/);
    assert.match(first(refused), /stays open/);
    assert.equal(first(await call('invoke-restart', { debugger_id: d.id, restart: '0', arguments: ['21'] })), '=> 42');
  });

  test('assert and cerror offer CONTINUE', async () => {
    await call('evaluate-lisp', { code: '(defvar *limit* 0)' });
    const asserted = await parks('(assert (> *limit* 1)) :asserted');
    assert.equal(first(asserted), '[ERROR] SIMPLE-TYPE-ERROR\nThe assertion (> *LIMIT* 1) failed');
    await call('evaluate-lisp', { code: '(setf *limit* 2)' });
    assert.equal(first(await call('invoke-restart', { debugger_id: asserted.structuredContent.debugger.id, restart: 'CONTINUE' })), '=> :ASSERTED');

    const odd = await parks('(cerror "Go on anyway." "Odd record ~A" 7) :went-on');
    assert.equal(odd.structuredContent.debugger.restarts[0].description, 'Go on anyway.');
    assert.equal(first(await call('invoke-restart', { debugger_id: odd.structuredContent.debugger.id, restart: 'continue' })), '=> :WENT-ON');
  });

  test('(break) parks and CONTINUE goes on after it', async () => {
    const parked = await parks('(princ :one) (break) (princ :two) :after');
    assert.equal(parked.structuredContent.debugger.restarts[0].name, 'CONTINUE');
    const done = await call('invoke-restart', { debugger_id: parked.structuredContent.debugger.id, restart: 'CONTINUE' });
    assert.equal(first(done), '[stdout]\nONETWO\n\n=> :AFTER');
  });

  test('an undefined function defined while parked runs after RETRY', async () => {
    const parked = await parks('(* 2 (halve 84))');
    assert.equal(first(parked), '[ERROR] UNDEFINED-FUNCTION\nThe function HALVE is undefined.\n\n[Backtrace]\n0: (HALVE ...)');
    assert.deepEqual(parked.structuredContent.debugger.restarts.map(r => r.name), ['RETRY', 'ABORT']);
    await call('evaluate-lisp', { code: '(defun halve (x) (/ x 2))', description: 'define what was missing' });
    assert.equal(first(await call('invoke-restart', { debugger_id: parked.structuredContent.debugger.id, restart: 'RETRY' })), '=> 84');
  });

  test('levels nest, and a restart of the outer one unwinds the inner one first', async () => {
    const outer = await parks('(cerror "Go on." "outer") :outer-done');
    const inner = await parks('(error "inner")');
    assert.equal(inner.structuredContent.debugger.level, 2);
    const open = await call('list-debuggers');
    assert.deepEqual(open.structuredContent.debuggers.map(d => d.level), [1, 2]);
    const done = await call('invoke-restart', { debugger_id: outer.structuredContent.debugger.id, restart: 'CONTINUE' });
    assert.equal(first(done), '=> :OUTER-DONE');
    const late = await call('invoke-restart', { debugger_id: inner.structuredContent.debugger.id, restart: 'ABORT' }, { expectError: true });
    assert.equal(first(late), '[ERROR] LISP-DUET:UNWOUND\nThis ran in a debugger level and was cut short when control left the level (a restart chosen for an evaluation parked below it, or a throw). It has no values; what it defined before remains.');
    assert.match(debuggerBlock(late), /already answered: it was cut short: .* chose CONTINUE at .* in debugger \d+ below it\. Your choice \(ABORT\) was not used/);
  });

  test('invoke-debugger parks, and a frame\'s local opens in inspect-object by its result_id', async () => {
    await call('evaluate-lisp', { code: '(defun audit (rows) (let ((bad (remove-if #\'numberp rows))) (invoke-debugger (make-condition \'simple-error :format-control "~D bad rows" :format-arguments (list (length bad)))) bad))' });
    const parked = await parks('(audit (list 1 :x 2 "y"))');
    const d = parked.structuredContent.debugger;
    assert.equal(d.message, '2 bad rows');
    assert.deepEqual(d.restarts.map(r => r.name), ['RETRY', 'ABORT']);
    const frame = await call('debugger-frame', { debugger_id: d.id, frame: 0 });
    const bad = frame.structuredContent.locals.find(v => v.name === 'BAD');
    assert.ok(bad, JSON.stringify(frame.structuredContent));
    assert.equal(bad.value, '(:X "y")');
    assert.match(first(frame), new RegExp(`BAD = \\(:X "y"\\)   \\[result_id ${bad.result_id}\\]`));
    // The condition itself, for code evaluated in the level.
    assert.equal(first(await call('debugger-eval', { debugger_id: d.id, code: '(simple-condition-format-arguments lisp-duet:*debugger-condition*)' })),
                 '=> (2)');
    const inspected = await call('inspect-object', { result_id: bad.result_id });
    assert.match(first(inspected), /CONS|list/i);
    assert.match(first(inspected), /"y"/);
    assert.match(first(await call('invoke-restart', { debugger_id: d.id, restart: 'ABORT' }, { expectError: true })), /^\[ERROR\] SIMPLE-ERROR\n2 bad rows/);
  });

  test('without debug, the same calls answer exactly as before', async () => {
    const plain = await call('evaluate-lisp', { code: '(/ 1 0)' }, { expectError: true });
    assert.equal(first(plain), '[ERROR] DIVISION-BY-ZERO\narithmetic error DIVISION-BY-ZERO signalled\nOperation was (/ 1 0).\n\n[Backtrace]\n0: (/ 1 0)');
    assert.equal(plain.structuredContent.status, 'error');
    assert.equal(plain.structuredContent.debugger, undefined);
    assert.equal(debuggerBlock(plain), undefined);
    const parked = await parks('(/ 1 0)');
    assert.equal(first(parked), first(plain), 'the parked call\'s first block is the same seed text');
    const aborted = await call('invoke-restart', { debugger_id: parked.structuredContent.debugger.id, restart: 'ABORT' }, { expectError: true });
    assert.equal(first(aborted), first(plain), 'ABORT answers what the call without debug answered');
    const timed = await call('time-execution', { code: '(car 42)' }, { expectError: true });
    assert.match(first(timed), /^\[ERROR\] SIMPLE-TYPE-ERROR\nThe value 42 is not of type CONS\./);
    assert.equal(debuggerBlock(timed), undefined);
  });

  test('time-execution with debug parks, and its outcome keeps its [timing]', async () => {
    const parked = await call('time-execution', { code: '(restart-case (error "slow") (use-value (v) v))', debug: true }, { expectError: true });
    assert.equal(parked.structuredContent.status, 'parked');
    const done = await call('invoke-restart', { debugger_id: parked.structuredContent.debugger.id, restart: 'USE-VALUE', arguments: [':timed'] });
    assert.match(first(done), /^=> :TIMED\n\n\[timing\]\nreal time: /);
    assert.ok(done.structuredContent.timing);
  });

  test('a cancelled call with debug parks as a break, and CONTINUE resumes it', async () => {
    const controller = new AbortController();
    const running = call('evaluate-lisp', { code: '(defvar *step* 0) (dotimes (i 20) (setf *step* i) (sleep 0.05)) :slept', debug: true },
                         { signal: controller.signal });
    await new Promise(resolve => setTimeout(resolve, 400));
    controller.abort();
    await assert.rejects(running);
    let parked;
    for (let i = 0; i < 50 && !parked; i++) {
      parked = (await call('list-debuggers')).structuredContent.debuggers.find(d => d.break);
      if (!parked) await new Promise(resolve => setTimeout(resolve, 100));
    }
    assert.ok(parked, 'the cancelled evaluation is parked');
    assert.equal(parked.break, true);
    assert.equal(parked.condition_type, 'LISP-DUET:EVALUATION-INTERRUPTED');
    assert.match(parked.message, /^e2e-debugger interrupted this evaluation/);
    const step = Number(first(await call('debugger-eval', { debugger_id: parked.id, code: '*step*' })).slice(3));
    assert.ok(step > 0 && step < 19, `it stopped midway (step ${step})`);
    assert.equal(first(await call('invoke-restart', { debugger_id: parked.id, restart: 'CONTINUE' })), '=> :SLEPT');
  });

  test('run-tests with debug stops at the failed check, in its test, and goes on after it', async () => {
    await call('set-project-root', { path: project });
    const parked = await call('run-tests', { system: 'shapes', debug: true }, { expectError: true });
    assert.equal(parked.structuredContent.status, 'parked');
    const d = parked.structuredContent.debugger;
    assert.match(d.condition_type, /CHECK-FAILURE/);
    assert.ok(d.restarts.some(r => r.name === 'IGNORE-FAILURE'), JSON.stringify(d.restarts));
    const checked = await call('debugger-eval', { debugger_id: d.id, code: '(shapes:area (shapes:make-square 3))' });
    assert.equal(first(checked), '=> 6');
    const report = await call('invoke-restart', { debugger_id: d.id, restart: 'IGNORE-FAILURE' });
    assert.match(first(report), /^Tests of shapes: \d+ passed, 1 failed, 0 skipped \(FiveAM checks\)/);
    assert.equal(report.structuredContent.failed, 1);
  });

  test('the project\'s own code, compiled by load-system, shows its frames, arguments and locals', async () => {
    await call('set-project-root', { path: project });
    await call('load-system', { system: 'shapes', force: true });
    const parked = await parks('(shapes:describe-shape (shapes:make-circle "x"))');
    assert.match(first(parked), /\n1: \(SHAPES:AREA #<a SHAPES:CIRCLE [^\n]*\)\n2: \(SHAPES:DESCRIBE-SHAPE #<a SHAPES:CIRCLE /);
    assert.match(debuggerBlock(parked), /locals kept in frames 1, 2\./);
    const d = parked.structuredContent.debugger;
    const frame = await call('debugger-frame', { debugger_id: d.id, frame: 1 });
    assert.match(first(frame), /\nArguments:\n  SHAPES:SHAPE = #<a SHAPES:CIRCLE /);
    assert.match(first(frame), /a SETQ there does not change the running code/);
    const seen = await call('debugger-eval', { debugger_id: d.id, frame: 1, code: '(radius shape)' });
    assert.equal(first(seen), '=> "x"');
    await call('invoke-restart', { debugger_id: d.id, restart: 'ABORT' }, { expectError: true });
  });

  test('a reset while parked ends the evaluation, and a later choice is told so', async () => {
    const parked = await parks('(error "before the reset")');
    await call('reset-session');
    const late = await call('invoke-restart', { debugger_id: parked.structuredContent.debugger.id, restart: 'ABORT' }, { expectError: true });
    assert.match(first(late), /^\[ERROR\] ENGINE-RESTARTED\n/);
    assert.match(debuggerBlock(late), /it ended at .*: the engine restarted/);
  });

  test('unknown debuggers and restarts are refused with what there is', async () => {
    const unknown = await call('invoke-restart', { debugger_id: 9999, restart: 'ABORT' }, { expectError: true });
    assert.match(first(unknown), /^\[ERROR\] NO-SUCH-DEBUGGER\nThere is no debugger 9999/);
    const parked = await parks('(error "pick one")');
    const wrong = await call('invoke-restart', { debugger_id: parked.structuredContent.debugger.id, restart: 'USE-VALUE' }, { expectError: true });
    assert.match(first(wrong), /has no restart USE-VALUE\. Its restarts: 0 RETRY, 1 ABORT/);
    const noFrame = await call('debugger-frame', { debugger_id: parked.structuredContent.debugger.id, frame: 7 }, { expectError: true });
    assert.match(first(noFrame), /NO-SUCH-FRAME|There is no frame 7/);
    await call('invoke-restart', { debugger_id: parked.structuredContent.debugger.id, restart: 'ABORT' }, { expectError: true });
  });
});
