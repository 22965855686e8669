// A 150 s run of a test system (tests/data/slowtests: five FiveAM tests of 30 s each) through
// the official SDK client over stdio, with the default wait_seconds and the 120 s request
// timeout Claude Code has: run-tests answers "running" with the output so far after 100 s,
// progress notifications flowing meanwhile, and job answers the end in run-tests' own format.
// CTest starts it first (a high COST) so that its sleeping runs beside the other suites.

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import Ajv from 'ajv';

import { binDir, connectStdio, testsDir } from './lib.mjs';

// FiveAM compiled once, before the run (project.test.mjs): compiling it here took a share of the
// run's time, and under load the report came after the job's wait.
const fasls = process.env.XDG_CACHE_HOME || join(binDir(), '..', 'e2e-lisp-cache');
const ClientTimeoutMs = 120000; // Claude Code's: a call running longer goes to the background

describe('a 150 s test run as a job', { timeout: 400000 }, () => {
  let server;
  let tools;
  const ajv = new Ajv({ strict: false, allErrors: true });

  async function call(name, args, onprogress) {
    const tool = tools.find(t => t.name === name);
    const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: ClientTimeoutMs, onprogress });
    assert.ok(ajv.validate(tool.outputSchema, result.structuredContent),
              `${name} structuredContent: ${ajv.errorsText()}\n${JSON.stringify(result.structuredContent)}`);
    return result;
  }

  before(async () => {
    mkdirSync(fasls, { recursive: true });
    server = await connectStdio({
      clientName: 'e2e-jobs-long',
      env: { XDG_CACHE_HOME: fasls, LISP_DUET_SYSTEM_PATHS: join(testsDir, 'data', 'slowtests') },
    });
    tools = (await server.client.listTools()).tools;
  });
  after(async () => {
    await server?.close();
  });

  test('run-tests answers running after the default 100 s, and job answers its report', async () => {
    const started = Date.now();
    const progress = [];
    const running = await call('run-tests', { system: 'slowtests', description: 'the slow suite' }, p => progress.push(p));
    const firstAnswerMs = Date.now() - started;
    assert.equal(running.isError ?? false, false, running.content[0].text);
    assert.equal(running.structuredContent.status, 'running', running.content[0].text);
    assert.ok(firstAnswerMs >= 99000 && firstAnswerMs < ClientTimeoutMs, `first answer after ${firstAnswerMs} ms`);
    const id = running.structuredContent.job_id;
    assert.equal(running.structuredContent.tool, 'run-tests');
    assert.match(running.content[0].text, /^\[stdout\]\nRunning test suite SLOW-SUITE\n(.*\n)*.*part: step \d+ of 10\n(.*\n)*\n\[RUNNING\] job \d+\nrun-tests has run for \d+\.\d s and goes on in the session\./);
    assert.ok(progress.length >= 50, `${progress.length} progress notifications`);
    assert.ok(progress.some(p => /part: step \d+ of 10/.test(p.message)), JSON.stringify(progress.slice(-3)));

    const done = await call('job', { job_id: id });
    const totalMs = Date.now() - started;
    assert.equal(done.isError ?? false, false, done.content[0].text);
    assert.match(done.content[0].text, /^Tests of slowtests: 5 passed, 0 failed, 0 skipped \(FiveAM checks\)\n\n\[output\]\n/);
    assert.match(done.content[0].text, /fifth part: step 10 of 10/);
    assert.equal(done.structuredContent.status, 'ok');
    assert.equal(done.structuredContent.passed, 5);
    assert.equal(done.structuredContent.job_id, id);
    assert.ok(done.structuredContent.duration_ms >= 150000, `run took ${done.structuredContent.duration_ms} ms`);
    console.log(`# first answer after ${(firstAnswerMs / 1000).toFixed(1)} s; the report after ${(totalMs / 1000).toFixed(1)} s; `
                + `the run took ${(done.structuredContent.duration_ms / 1000).toFixed(1)} s in the engine`);
  });
});
