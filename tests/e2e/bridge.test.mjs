// lisp-duet-bridge: the SDK's stdio client spawns the bridge, which talks to a running
// lisp-duet --headless over its local socket.

import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startHeadless, uniqueSocketName } from './headless.mjs';
import { binary, evaluate, exited, isolatedEnv, isRunning, sendOversizedThenPing, testMachine, textOf } from './lib.mjs';

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

  test('a message over 8 MiB is answered by the bridge as by the app, and the next message goes through', async () => {
    const bridge = spawn(binary('lisp-duet-bridge'), ['--socket', server.socketName], { env: server.env, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const messages = await sendOversizedThenPing(bridge);
      assert.deepEqual(messages.map(m => m.id), [1, null, 'after'], JSON.stringify(messages).slice(0, 400));
      assert.equal(messages[1].error.code, -32600);
      assert.match(messages[1].error.message, /^Message larger than 8388608 bytes; it was discarded/);
    } finally {
      bridge.stdin.end();
      await exited(bridge);
    }
  });

  test('a bridge client and an HTTP client share the session and see each other', async () => {
    const viaBridge = await connectBridge(server, 'desktop');
    const viaHttp = new Client({ name: 'code', version: '1.0.0' });
    await viaHttp.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
    try {
      await evaluate(viaBridge, '(defvar *bridged* :yes)');
      const result = await evaluate(viaHttp, '*bridged*');
      assert.equal(result.content[0].text, '=> :YES'); // the digest comes as a second block
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

  test('--launch starts lisp-duet --headless when none runs, and a second --launch joins it', async () => {
    const isolated = isolatedEnv();
    const name = uniqueSocketName();
    const launch = () => new StdioClientTransport({ command: binary('lisp-duet-bridge'), args: ['--socket', name, '--launch'],
                                                   env: isolated.env, stderr: 'pipe' });
    const first = new Client({ name: 'launcher', version: '1.0.0' });
    const second = new Client({ name: 'joiner', version: '1.0.0' });
    const secondTransport = launch();
    let secondStderr = '';
    secondTransport.stderr.on('data', chunk => { secondStderr += chunk; });
    try {
      await first.connect(launch());
      assert.equal(textOf(await evaluate(first, '(+ 2 2)')), '=> 4');
      await second.connect(secondTransport);
      assert.equal(await enginePid(first), await enginePid(second));
      assert.match(secondStderr, /lisp-duet-bridge: joined Lisp Duet \(process \d+\)/);
      assert.equal(appsOn(name).length, 1);
    } finally {
      await first.close();
      await second.close();
      await stopApps(name);
      isolated.cleanup();
    }
  });
});

// The Lisp engine's process id, as a client sees it: two clients in one session see the same.
async function enginePid(client) {
  return textOf(await evaluate(client, '(ext:getpid)')).split('\n')[0];
}

// Process ids of the apps serving socket `name` (launched apps outlive their bridges, as they should).
function appsOn(name) {
  try {
    return execFileSync('pgrep', ['-f', '--', `lisp-duet --headless --socket ${name}`]).toString().trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

// Stops them and waits until they are gone (at most 15 s), not a fixed time.
async function stopApps(name) {
  const pids = appsOn(name).map(Number);
  for (const pid of pids)
    process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 15000;
  while (pids.some(isRunning) && Date.now() < deadline)
    await new Promise(r => setTimeout(r, 50));
  assert.ok(!pids.some(isRunning), `lisp-duet on ${name} still runs 15 s after SIGTERM`);
}

// The environment a client gives the bridge is not the app's: the bridge must still find the
// app the person runs, and never start a second one (issue 12). Both on a desktop, where the app
// listens in run/user/UID whatever XDG_RUNTIME_DIR says, and on a machine without it (a
// container, CI), where it listens in XDG_RUNTIME_DIR and leaves a link in tmp/lisp-duet-UID
// (issue 23: tests choose the machine, through LISP_DUET_RUNTIME_ROOT, and never use this one's).
for (const shape of [{ name: 'a desktop (run/user/UID private)', runUser: true },
                     { name: 'a machine without run/user/UID', runUser: false }]) {
  describe(`lisp-duet-bridge finds the app whatever its environment, on ${shape.name}`, () => {
    const machine = testMachine({ runUser: shape.runUser });
    let server;
    let viaHttp;
    let sessionPid;
    before(async () => {
      server = await startHeadless({ env: machine.env });
      viaHttp = new Client({ name: 'window-side', version: '1.0.0' });
      await viaHttp.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
      sessionPid = await enginePid(viaHttp);
    });
    after(async () => {
      await viaHttp?.close();
      await server?.stop();
      await stopApps(server.socketName); // only a regression would have launched one
    });

    async function joinsTheSession(transport) {
      let stderr = '';
      transport.stderr.on('data', chunk => { stderr += chunk; });
      const client = new Client({ name: 'claude-desktop', version: '1.0.0' });
      try {
        await client.connect(transport);
        assert.equal(await enginePid(client), sessionPid, `the bridge joined another engine:\n${stderr}`);
        assert.match(stderr, new RegExp(`joined Lisp Duet \\(process ${server.child.pid}\\) on .*${server.socketName}`));
        assert.deepEqual(appsOn(server.socketName), [], 'a second app was launched');
      } finally {
        await client.close();
      }
    }

    test('the app listens where RuntimeDirectory says', () => {
      const expected = shape.runUser ? join(machine.root, 'run', 'user', String(process.getuid())) : server.env.XDG_RUNTIME_DIR;
      assert.equal(server.socketPath, join(expected, server.socketName));
      const link = join(machine.root, 'tmp', `lisp-duet-${process.getuid()}`, server.socketName);
      assert.equal(readlinkSync(link), server.socketPath, 'no link in the fallback directory');
    });

    test("with the SDK's default environment (no XDG_RUNTIME_DIR)", async () => {
      // Only what the SDK passes by default (HOME, LOGNAME, PATH, SHELL, TERM, USER), plus the
      // test's machine. (No --launch here: a regression would start an app in the real HOME.)
      await joinsTheSession(new StdioClientTransport({ command: binary('lisp-duet-bridge'), args: ['--socket', server.socketName],
                                                       env: { ...getDefaultEnvironment(), ...machine.env }, stderr: 'pipe' }));
    });

    test('with another XDG_RUNTIME_DIR than the app has, and --launch', async () => {
      const other = isolatedEnv(machine.env);
      try {
        await joinsTheSession(new StdioClientTransport({ command: binary('lisp-duet-bridge'), args: ['--socket', server.socketName, '--launch'],
                                                         env: other.env, stderr: 'pipe' }));
      } finally {
        other.cleanup();
      }
    });

    test('with no environment at all (but the machine)', async () => {
      await joinsTheSession(new StdioClientTransport({ command: '/usr/bin/env',
                                                       args: ['-i', `LISP_DUET_RUNTIME_ROOT=${machine.root}`, binary('lisp-duet-bridge'),
                                                              '--socket', server.socketName],
                                                       stderr: 'pipe' }));
    });
  });
}
