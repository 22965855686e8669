// Long work as shared jobs (issue 21, item 3) through the official SDK client over stdio: a
// (sleep 8) with wait_seconds 1 answers "running" with a job_id, and the tool job answers its
// end in evaluate-lisp's own text; a job cancelled through job; progress notifications while
// job waits; an unknown job id. Every result is checked against the tool's schemas. The 150 s
// run of a test system with the default wait is jobs-long.test.mjs.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import Ajv from 'ajv';

import { connectStdio } from './lib.mjs';

describe('long work as jobs, headless', { timeout: 120000 }, () => {
  let server;
  let tools;
  const ajv = new Ajv({ strict: false, allErrors: true });

  async function call(name, args = {}, { expectError = false, onprogress } = {}) {
    const tool = tools.find(t => t.name === name);
    assert.ok(tool, `${name} is listed`);
    assert.ok(ajv.validate(tool.inputSchema, args), `${name} arguments: ${ajv.errorsText()}`);
    const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 60000, onprogress });
    assert.equal(result.isError ?? false, expectError, `${name} isError: ${result.content[0].text}`);
    assert.ok(ajv.validate(tool.outputSchema, result.structuredContent),
              `${name} structuredContent: ${ajv.errorsText()}\n${JSON.stringify(result.structuredContent)}`);
    return result;
  }
  const first = result => result.content[0].text;

  before(async () => {
    server = await connectStdio({ clientName: 'e2e-jobs' });
    tools = (await server.client.listTools()).tools;
  });
  after(async () => {
    await server?.close();
  });

  test('the four tools take wait_seconds and job is listed with job_id, wait_seconds and cancel', () => {
    const byName = Object.fromEntries(tools.map(t => [t.name, t]));
    for (const name of ['evaluate-lisp', 'time-execution', 'load-system', 'run-tests']) {
      const wait = byName[name].inputSchema.properties.wait_seconds;
      assert.equal(wait.type, 'number', name);
      assert.match(wait.description, /default 100 s/);
      assert.match(wait.description, /answer "running" with a job_id/);
      assert.ok(byName[name].outputSchema.properties.status.enum.includes('running'), name);
      assert.equal(byName[name].outputSchema.properties.job_id.type, 'integer', name);
    }
    assert.deepEqual(Object.keys(byName.job.inputSchema.properties).sort(), ['cancel', 'job_id', 'wait_seconds']);
    assert.deepEqual(byName.job.inputSchema.required, ['job_id']);
    assert.match(server.client.getInstructions(), /wait_seconds \(default 100\) answers status "running" with a job_id/);
    assert.ok(server.client.getInstructions().length < 2048, `${server.client.getInstructions().length} characters`);
  });

  test('a (sleep 8) with wait_seconds 1 answers with a handle, and job answers => NIL and the output', async () => {
    const started = Date.now();
    const running = await call('evaluate-lisp', { code: '(progn (format t "going to sleep~%") (sleep 8))', wait_seconds: 1,
                                                  description: 'a long nap' });
    const waited = Date.now() - started;
    assert.ok(waited < 5000, `answered after ${waited} ms`);
    const handle = running.structuredContent;
    assert.equal(handle.status, 'running');
    assert.equal(handle.tool, 'evaluate-lisp');
    assert.ok(Number.isInteger(handle.job_id) && handle.job_id > 0);
    // How long the job has run: from when the engine started it, a little after the call came
    // (890 ms for the 1 s wait at load 10-15), and not longer than the call took.
    assert.ok(handle.elapsed_ms >= 500 && handle.elapsed_ms <= waited, `elapsed ${handle.elapsed_ms} of ${waited} ms`);
    assert.match(first(running), new RegExp(`^(\\[stdout\\]\\ngoing to sleep\\n\\n)?\\[RUNNING\\] job ${handle.job_id}\\n`
      + 'evaluate-lisp has run for \\d+\\.\\d s and goes on in the session\\. Its time limit stops it after 300 s of running '
      + '\\(\\d+\\.\\d s left\\)\\. Its result is kept for you: call job with '
      + `job_id ${handle.job_id} to wait for it \\(wait_seconds\\), or with cancel: true to interrupt it\\.$`));

    const done = await call('job', { job_id: handle.job_id, wait_seconds: 30 });
    assert.equal(first(done), '[stdout]\ngoing to sleep\n\n=> NIL');
    assert.equal(done.structuredContent.status, 'ok');
    assert.deepEqual(done.structuredContent.values, ['NIL']);
    assert.equal(done.structuredContent.job_id, handle.job_id);
    assert.equal(done.structuredContent.tool, 'evaluate-lisp');
    assert.ok(done.structuredContent.elapsed_ms >= 7900, `elapsed ${done.structuredContent.elapsed_ms}`);

    // Fetched once, it can be fetched again.
    assert.equal(first(await call('job', { job_id: handle.job_id })), '[stdout]\ngoing to sleep\n\n=> NIL');
  });

  test('a job cancelled through job ends interrupted, and the session goes on', async () => {
    const running = await call('evaluate-lisp', { code: '(loop (sleep 0.05))', wait_seconds: 1 });
    assert.equal(running.structuredContent.status, 'running');
    const cancelled = await call('job', { job_id: running.structuredContent.job_id, cancel: true }, { expectError: true });
    assert.equal(cancelled.structuredContent.status, 'interrupted');
    assert.match(first(cancelled), /^\[ERROR\] INTERRUPTED\nThe evaluation was interrupted\. The session is intact\./);
    assert.equal(first(await call('evaluate-lisp', { code: '(+ 20 22)' })), '=> 42');
  });

  test('progress notifications keep flowing while job waits', async () => {
    const running = await call('evaluate-lisp', {
      code: '(dotimes (i 40) (format t "tick ~D~%" i) (sleep 0.1))', wait_seconds: 0.5,
    });
    const progress = [];
    const done = await call('job', { job_id: running.structuredContent.job_id }, { onprogress: p => progress.push(p) });
    assert.match(first(done), /tick 39\n\n=> NIL$/);
    assert.ok(progress.length >= 2, `progress: ${JSON.stringify(progress)}`);
    assert.ok(progress.every(p => /^tick|^Running for/.test(p.message)), JSON.stringify(progress));
  });

  test('an unknown job id is said to be unknown', async () => {
    const unknown = await call('job', { job_id: 424242 }, { expectError: true });
    assert.equal(unknown.structuredContent.status, 'unknown');
    assert.match(first(unknown), /^\[ERROR\] UNKNOWN-JOB\nNo job 424242 is waiting for its result in this session/);
  });
});
