// MCP roots with the official SDK 1.x client (the initialize handshake: 2026-07-28 deprecates
// roots and has no server-initiated requests): a client that declares the roots capability is
// asked for its roots once it is initialized, and again when it says they changed; over stdio
// and over HTTP (where the request waits for the client's GET stream).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { startHeadless } from './headless.mjs';
import { binary, evaluate, isolatedEnv } from './lib.mjs';

// A client with roots; `asked` counts the server's roots/list requests.
function rootsClient(name, roots) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  const state = { asked: 0, client };
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    state.asked += 1;
    return { roots };
  });
  return state;
}

async function until(predicate, what, ms = 10000) {
  const deadline = Date.now() + ms;
  while (!predicate() && Date.now() < deadline)
    await new Promise(r => setTimeout(r, 25));
  assert.ok(predicate(), `${what} within ${ms} ms`);
}

async function exercise(state) {
  await until(() => state.asked === 1, 'the server asked for the roots after initialized');
  await state.client.sendRootsListChanged();
  await until(() => state.asked === 2, 'the server asked again after roots/list_changed');
  // The exchange never gets in the way of the client's own calls.
  assert.equal((await evaluate(state.client, '(+ 1 2)')).content[0].text, '=> 3');
}

describe('MCP roots', () => {
  test('over stdio, a client that declares roots is asked for them, and again when they change', async () => {
    const isolated = isolatedEnv();
    const state = rootsClient('roots-stdio', [{ uri: `file://${isolated.root}`, name: 'project' }]);
    try {
      await state.client.connect(new StdioClientTransport({ command: binary('lisp-duet'), args: ['--headless', '--stdio'], env: isolated.env }));
      await exercise(state);
    } finally {
      await state.client.close();
      isolated.cleanup();
    }
  });

  test('over HTTP, the request waits for the client\'s event stream', async () => {
    const server = await startHeadless();
    const state = rootsClient('roots-http', [{ uri: 'file:///tmp', name: 'tmp' }]);
    try {
      await state.client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
      await exercise(state);
    } finally {
      await state.client.close();
      await server.stop();
    }
  });

  test('a client without the roots capability is never asked', async () => {
    const isolated = isolatedEnv();
    const client = new Client({ name: 'no-roots', version: '1.0.0' });
    let asked = 0;
    client.fallbackRequestHandler = async () => { asked += 1; return {}; }; // any request of the server
    try {
      await client.connect(new StdioClientTransport({ command: binary('lisp-duet'), args: ['--headless', '--stdio'], env: isolated.env }));
      await evaluate(client, '(sleep 0.3)');
      assert.equal(asked, 0);
    } finally {
      await client.close();
      isolated.cleanup();
    }
  });
});
