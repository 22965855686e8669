// Protocol revision 2026-07-28 (stateless: no initialize, per-request _meta) with the official
// TypeScript SDK v2 client (@modelcontextprotocol/client), over stdio and over Streamable HTTP.
// The SDK 1.x tests (stdio, http, bridge) keep covering the initialize handshake.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { startHeadless } from './headless.mjs';
import { binary, evaluate, isolatedEnv } from './lib.mjs';

const Modern = { versionNegotiation: { mode: { pin: '2026-07-28' } } };
const SymbolTemplate = 'lisp-duet://symbol/{package}/{name}';

function stdioTransport(isolated) {
  return new StdioClientTransport({ command: binary('lisp-duet'), args: ['--headless', '--stdio'], env: isolated.env, stderr: 'pipe' });
}

async function connectHttp(server, name, options = Modern) {
  const client = new Client({ name, version: '2.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
  return client;
}

// What every client can do, whichever transport it uses.
function commonTests(getClient) {
  test('the connection speaks 2026-07-28 and results name the server', async () => {
    const client = getClient();
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    assert.equal(client.getServerVersion().name, 'lisp-duet');
    const capabilities = client.getServerCapabilities();
    assert.ok(capabilities.tools && capabilities.resources && capabilities.prompts && capabilities.completions);
    const result = await evaluate(client, '(+ 1 2)');
    assert.equal(result.content[0].text, '=> 3');
    assert.equal(result._meta['io.modelcontextprotocol/serverInfo'].name, 'lisp-duet');
  });

  test('a Lisp error is a result with isError', async () => {
    const result = await evaluate(getClient(), '(/ 1 0)');
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /^\[ERROR\] DIVISION-BY-ZERO/);
  });

  test('lists carry cache hints', async () => {
    const tools = await getClient().listTools();
    assert.ok(tools.tools.some(tool => tool.name === 'evaluate-lisp'));
    const { resourceTemplates } = await getClient().listResourceTemplates();
    assert.deepEqual(resourceTemplates.map(t => t.uriTemplate), [SymbolTemplate]);
  });

  test('prompt and template arguments complete from the live image', async () => {
    const client = getClient();
    await evaluate(client, '(defpackage :e2e-shapes (:use :cl)) (in-package :e2e-shapes) (defun area-of-circle (r) (* pi r r)) (in-package :cl-user)');
    const symbols = await client.complete({ ref: { type: 'ref/prompt', name: 'explain-symbol' }, argument: { name: 'symbol', value: 'mapc' } });
    assert.deepEqual(symbols.completion.values, ['mapc', 'mapcan', 'mapcar', 'mapcon']);
    const packages = await client.complete({ ref: { type: 'ref/resource', uri: SymbolTemplate }, argument: { name: 'package', value: 'e2e-sh' } });
    assert.deepEqual(packages.completion.values, ['E2E-SHAPES']);
    const names = await client.complete({ ref: { type: 'ref/resource', uri: SymbolTemplate }, argument: { name: 'name', value: 'area' },
                                          context: { arguments: { package: 'E2E-SHAPES' } } });
    assert.deepEqual(names.completion.values, ['area-of-circle']);
  });

  test('a symbol\'s resource says what describe-symbol says', async () => {
    const read = await getClient().readResource({ uri: 'lisp-duet://symbol/COMMON-LISP/MAPCAR' });
    assert.match(read.contents[0].text, /^MAPCAR \[COMMON-LISP\]\nKinds: function/);
    const prompt = await getClient().getPrompt({ name: 'explain-symbol', arguments: { symbol: 'mapcar', package: 'COMMON-LISP' } });
    assert.match(prompt.messages[0].content.text, /describe-symbol on mapcar \(in package COMMON-LISP\)/);
  });

  test('subscriptions/listen: the transcript resource is updated after an evaluation', async () => {
    const client = getClient();
    const updates = [];
    client.setNotificationHandler('notifications/resources/updated', notification => { updates.push(notification.params.uri); });
    const subscription = await client.listen({ resourceSubscriptions: ['lisp-duet://session/transcript'], promptsListChanged: true });
    assert.deepEqual(subscription.honoredFilter, { resourceSubscriptions: ['lisp-duet://session/transcript'] }); // prompts never change
    await evaluate(client, '(+ 2 2)');
    const deadline = Date.now() + 5000;
    while (!updates.length && Date.now() < deadline)
      await new Promise(r => setTimeout(r, 50));
    assert.deepEqual(updates.slice(0, 1), ['lisp-duet://session/transcript']);
    await subscription.close();
  });
}

describe('2026-07-28 over stdio with the SDK v2 client', () => {
  let isolated;
  let client;
  before(async () => {
    isolated = isolatedEnv();
    client = new Client({ name: 'modern-stdio', version: '2.0.0' }, Modern);
    await client.connect(stdioTransport(isolated));
  });
  after(async () => {
    await client?.close();
    isolated?.cleanup();
  });

  commonTests(() => client);

  test('a client in auto mode finds the modern revision by itself', async () => {
    const env = isolatedEnv();
    const auto = new Client({ name: 'auto-stdio', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await auto.connect(stdioTransport(env));
      assert.equal(auto.getNegotiatedProtocolVersion(), '2026-07-28');
      assert.equal((await evaluate(auto, '(* 6 7)')).content[0].text, '=> 42');
    } finally {
      await auto.close();
      env.cleanup();
    }
  });
});

describe('2026-07-28 over HTTP with the SDK v2 client', () => {
  let server;
  let alice;
  before(async () => {
    server = await startHeadless();
    alice = await connectHttp(server, 'alice-modern');
  });
  after(async () => {
    await alice?.close();
    const result = await server?.stop();
    assert.equal(result?.code, 0, `lisp-duet ended with ${JSON.stringify(result)}:\n${server?.stderr()}`);
  });

  commonTests(() => alice);

  test('the activity digest follows a stateless client by its clientInfo', async () => {
    const bob = await connectHttp(server, 'bob-modern');
    try {
      await evaluate(bob, '(+ 0 0)'); // bob has now seen everything so far
      await evaluate(alice, '(defvar *modern-digest* 17)');
      const seen = await evaluate(bob, '(+ 1 1)');
      assert.equal(seen.content[0].text, '=> 2');
      assert.match(seen.content[1]?.text ?? '', /\[Session activity since your last call\][\s\S]*alice-modern[\s\S]*\*modern-digest\*/i);
      assert.ok(seen.structuredContent.session_activity.some(entry => /modern-digest/i.test(entry.code)));
      // Every request of bob's is a new HTTP exchange, yet he is not told the same thing twice.
      const again = await evaluate(bob, '(+ 1 1)');
      assert.equal(again.content.length, 1, JSON.stringify(again.content));
    } finally {
      await bob.close();
    }
  });

  test('closing the response of a (loop) cancels it, and the next call works', async () => {
    const controller = new AbortController();
    const cancelled = alice.callTool({ name: 'evaluate-lisp', arguments: { code: '(loop)' } }, { signal: controller.signal, timeout: 60000 })
      .catch(error => error);
    await new Promise(r => setTimeout(r, 500));
    const start = Date.now();
    controller.abort('test');
    assert.ok(await cancelled instanceof Error);
    assert.equal((await evaluate(alice, '(+ 40 2)')).content[0].text, '=> 42');
    assert.ok(Date.now() - start < 5000, `the next call was answered ${Date.now() - start} ms after the cancel`);
  });

  test('a legacy client and a modern one share the session on one endpoint', async () => {
    const legacy = await connectHttp(server, 'legacy-beside', {});
    try {
      assert.equal(legacy.getNegotiatedProtocolVersion(), '2025-11-25');
      await evaluate(alice, '(defparameter *shared-eras* :both)');
      assert.equal((await evaluate(legacy, '*shared-eras*')).content[0].text, '=> :BOTH');
    } finally {
      await legacy.close();
    }
  });
});
