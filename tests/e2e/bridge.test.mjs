// lisp-duet-bridge: the SDK's stdio client spawns the bridge, which talks to a running
// lisp-duet --headless over its local socket.

import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startHeadless, uniqueSocketName } from './headless.mjs';
import { binary, evaluate, isolatedEnv, textOf } from './lib.mjs';

async function connectBridge(server, name) {
  const transport = new StdioClientTransport({ command: binary('lisp-duet-bridge'), args: ['--socket', server.socketName],
                                              env: server.env, stderr: 'pipe' });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('lisp-duet-bridge with the SDK stdio client', () => {
  let server;
  before(async () => { server = await startHeadless(); });
  after(async () => { await server?.stop(); });

  test('initialize, tools/list and an evaluation through the bridge', async () => {
    const client = await connectBridge(server, 'bridge-client');
    try {
      assert.equal(client.getServerVersion().name, 'lisp-duet');
      const { tools } = await client.listTools();
      assert.ok(tools.some(t => t.name === 'evaluate-lisp'));
      assert.equal(textOf(await evaluate(client, '(+ 1 2)')), '=> 3');
    } finally {
      await client.close();
    }
  });

  test('a bridge client and an HTTP client share the session and see each other', async () => {
    const viaBridge = await connectBridge(server, 'desktop');
    const viaHttp = new Client({ name: 'code', version: '1.0.0' });
    await viaHttp.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
    try {
      await evaluate(viaBridge, '(defvar *bridged* :yes)');
      const result = await evaluate(viaHttp, '*bridged*');
      assert.equal(result.content[0].text.split('\n')[0], '=> :YES');
      assert.ok(result.structuredContent.session_activity.some(a => a.code === '(defvar *bridged* :yes)' && a.who === 'desktop'));
    } finally {
      await viaBridge.close();
      await viaHttp.close();
    }
  });

  test('without a running app the bridge says so on stderr and exits non-zero', async () => {
    const isolated = isolatedEnv();
    const { code, stderr } = await new Promise(resolveRun => {
      execFile(binary('lisp-duet-bridge'), ['--socket', uniqueSocketName()], { env: isolated.env },
               (error, stdout, stderrText) => resolveRun({ code: error?.code ?? 0, stderr: stderrText }));
    });
    isolated.cleanup();
    assert.notEqual(code, 0);
    assert.match(stderr, /No Lisp Duet is running on socket .*; start the app or pass --launch/);
  });

  test('--launch starts lisp-duet --headless when none runs', async t => {
    // The launched app serves HTTP on the default port 7878; skip when something holds it.
    const busy = await new Promise(resolveProbe => {
      const socket = connect(7878, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolveProbe(true); });
      socket.once('error', () => resolveProbe(false));
    });
    if (busy) {
      t.skip('port 7878 is in use');
      return;
    }
    const isolated = isolatedEnv();
    const name = uniqueSocketName();
    const transport = new StdioClientTransport({ command: binary('lisp-duet-bridge'), args: ['--socket', name, '--launch'],
                                                env: isolated.env, stderr: 'pipe' });
    const client = new Client({ name: 'launcher', version: '1.0.0' });
    try {
      await client.connect(transport);
      assert.equal(textOf(await evaluate(client, '(+ 2 2)')), '=> 4');
    } finally {
      await client.close();
      // The launched app outlives the bridge, as it should; end it by its unique socket name.
      try {
        for (const pid of execFileSync('pgrep', ['-f', '--', `--socket ${name}`]).toString().trim().split('\n'))
          process.kill(Number(pid), 'SIGTERM');
      } catch { /* already gone */ }
      await new Promise(r => setTimeout(r, 1500));
      isolated.cleanup();
    }
  });
});
