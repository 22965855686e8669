// lisp-duet --headless over Streamable HTTP, driven by the official SDK client.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { startHeadless } from './headless.mjs';
import { evaluate, textOf } from './lib.mjs';

async function connectHttp(server, name) {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } });
  await client.connect(transport);
  return { client, transport };
}

describe('lisp-duet over HTTP with the SDK client', () => {
  let server;
  let alice;

  before(async () => {
    server = await startHeadless();
    alice = await connectHttp(server, 'alice');
  });
  after(async () => {
    await alice?.client.close();
    const result = await server?.stop();
    assert.equal(result?.code, 0, `lisp-duet ended with ${JSON.stringify(result)}:\n${server?.stderr()}`);
  });

  test('initialize gives a session id and the capabilities', () => {
    assert.ok(alice.transport.sessionId);
    const capabilities = alice.client.getServerCapabilities();
    assert.ok(capabilities.tools && capabilities.resources && capabilities.logging);
    assert.equal(capabilities.resources.subscribe, true);
  });

  test('tools/list and (+ 1 2)', async () => {
    const { tools } = await alice.client.listTools();
    assert.ok(tools.some(t => t.name === 'evaluate-lisp'));
    const result = await evaluate(alice.client, '(+ 1 2)');
    assert.equal(textOf(result), '=> 3');
  });

  test('a call with a progress token streams progress, then its result', async () => {
    const progress = [];
    const result = await alice.client.callTool({ name: 'evaluate-lisp', arguments: { code: '(progn (sleep 2.2) :slept)' } },
                                               undefined, { onprogress: p => progress.push(p) });
    assert.match(textOf(result), /:SLEPT/);
    assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`);
  });

  test('the client cancelling a (loop) stops it, and the next call works', async () => {
    const controller = new AbortController();
    const cancelled = alice.client.callTool({ name: 'evaluate-lisp', arguments: { code: '(loop)' } }, undefined,
                                            { signal: controller.signal, timeout: 60000 }).catch(error => error);
    await new Promise(r => setTimeout(r, 500));
    const start = Date.now();
    controller.abort('test'); // the SDK sends notifications/cancelled
    assert.ok(await cancelled instanceof Error);
    const next = await evaluate(alice.client, '(+ 40 2)');
    assert.match(textOf(next), /42/);
    // The loop would otherwise run until the 30 s time limit.
    assert.ok(Date.now() - start < 5000, `the next call was answered ${Date.now() - start} ms after the cancel`);
  });

  test('resources: list, read, and an update after an evaluation', async () => {
    const { resources } = await alice.client.listResources();
    const uris = resources.map(r => r.uri).sort();
    assert.deepEqual(uris, ['lisp-duet://session/definitions', 'lisp-duet://session/transcript']);
    await evaluate(alice.client, '(defun http-e2e-square (x) (* x x))');
    const definitions = await alice.client.readResource({ uri: 'lisp-duet://session/definitions' });
    assert.match(definitions.contents[0].text, /defun HTTP-E2E-SQUARE/);
    const updated = new Promise(resolveUpdate => {
      alice.client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => resolveUpdate(n.params.uri));
    });
    await alice.client.subscribeResource({ uri: 'lisp-duet://session/transcript' });
    await evaluate(alice.client, '(http-e2e-square 7)');
    assert.equal(await updated, 'lisp-duet://session/transcript');
    const transcript = await alice.client.readResource({ uri: 'lisp-duet://session/transcript' });
    assert.match(transcript.contents[0].text, /\(http-e2e-square 7\)\n=> 49/);
  });

  test('a second client sees the first one\'s work in its activity digest', async () => {
    const bob = await connectHttp(server, 'bob');
    try {
      await evaluate(alice.client, '(defparameter *from-alice* 11)');
      const result = await evaluate(bob.client, '(* *from-alice* 2)');
      // The result's own text stays exactly seed 000's; the digest is a block of its own.
      assert.equal(result.content[0].text, '=> 22');
      assert.match(result.content[1].text, /^\[Session activity since your last call\]\n/);
      assert.match(result.content[1].text, /\(defparameter \*from-alice\* 11\)/);
      const codes = (result.structuredContent.session_activity ?? []).map(a => a.code);
      assert.ok(codes.includes('(defparameter *from-alice* 11)'), JSON.stringify(codes));
    } finally {
      await bob.transport.terminateSession();
      await bob.client.close();
    }
  });

  test('logging: a client that set a level hears of an engine restart on its GET stream', async () => {
    const messages = [];
    alice.client.setNotificationHandler(LoggingMessageNotificationSchema, n => messages.push(n.params));
    await alice.client.setLoggingLevel('info');
    const reset = await alice.client.callTool({ name: 'reset-session', arguments: {} });
    assert.equal(reset.isError, false, textOf(reset));
    for (let i = 0; i < 50 && !messages.some(m => m.logger === 'engine'); ++i)
      await new Promise(r => setTimeout(r, 100));
    assert.ok(messages.some(m => m.logger === 'engine'), JSON.stringify(messages));
  });

  test('without the token the server answers 401', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
  });
});
