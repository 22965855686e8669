// Limits that are told, and a tool list that is small to read (issue 32), through the official
// SDK client over stdio with the default settings. A 40 s evaluation that outlasts its call
// (wait_seconds 5) answers "running" with when the time limit stops it (300 s by default) and
// ends as that said: done, fetched with job; one with timeout_seconds 20 is said to stop at
// 20 s and ends in TIMEOUT at 20 s. tools/list, as the client reads it, is at most 40,000
// characters with every tool, its descriptions and input schemas at most 20,000.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import Ajv from 'ajv';

import { connectStdio } from './lib.mjs';

describe('limits told, and a small tool list', { timeout: 180000 }, () => {
  let server;
  let tools;
  const ajv = new Ajv({ strict: false, allErrors: true });

  async function call(name, args, { expectError = false } = {}) {
    const tool = tools.find(t => t.name === name);
    assert.ok(ajv.validate(tool.inputSchema, args), `${name} arguments: ${ajv.errorsText()}`);
    const result = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 120000 });
    assert.equal(result.isError ?? false, expectError, `${name} isError: ${result.content[0].text}`);
    assert.ok(ajv.validate(tool.outputSchema, result.structuredContent), `${name} structuredContent: ${ajv.errorsText()}`);
    return result;
  }
  const first = result => result.content[0].text;

  before(async () => {
    server = await connectStdio({ clientName: 'e2e-limits' });
    tools = (await server.client.listTools()).tools;
  });
  after(async () => {
    await server?.close();
  });

  test('tools/list with every tool is at most 40,000 characters, descriptions and input schemas at most 20,000', () => {
    assert.equal(tools.length, 35);
    const total = JSON.stringify({ tools }).length;
    const read = tools.reduce((sum, t) => sum + t.description.length + JSON.stringify(t.inputSchema).length, 0);
    console.log(`tools/list: ${tools.length} tools, ${total} characters; descriptions and input schemas ${read}`);
    assert.ok(total <= 40000, `tools/list is ${total} characters`);
    assert.ok(read <= 20000, `descriptions and input schemas are ${read} characters`);
  });

  test('a 40 s job with the default limits ends as its running answer said', async () => {
    const started = Date.now();
    const running = await call('evaluate-lisp', { code: '(progn (sleep 40) :slept)', wait_seconds: 5, description: 'a long nap' });
    assert.equal(running.structuredContent.status, 'running');
    assert.equal(running.structuredContent.time_limit_ms, 300000);
    assert.match(first(running), /^\[RUNNING\] job \d+\nevaluate-lisp has run for \d+\.\d s and goes on in the session\. Its time limit stops it after 300 s of running \(29\d\.\d s left\)\./);
    const done = await call('job', { job_id: running.structuredContent.job_id, wait_seconds: 60 });
    assert.equal(first(done), '=> :SLEPT');
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds >= 39 && seconds < 60, `ended after ${seconds} s`);
  });

  test('a job with its own time limit is told when it stops, and stops then', async () => {
    const started = Date.now();
    const running = await call('evaluate-lisp', { code: '(sleep 40)', wait_seconds: 2, timeout_seconds: 20 });
    assert.equal(running.structuredContent.time_limit_ms, 20000);
    assert.match(first(running), /Its time limit stops it after 20 s of running \(1\d\.\d s left\)\./);
    const stopped = await call('job', { job_id: running.structuredContent.job_id, wait_seconds: 60 }, { expectError: true });
    assert.match(first(stopped), /^\[ERROR\] TIMEOUT\nThe evaluation did not finish within 20 s and was interrupted\./);
    const seconds = (Date.now() - started) / 1000;
    assert.ok(seconds >= 19.5 && seconds < 30, `stopped after ${seconds} s`);
  });
});
