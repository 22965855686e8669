// A scripted ACP v1 agent for tests (issue 38), on the official SDK (@agentclientprotocol/sdk
// 2.x: `agent()` + `ndJsonStream`, the successor of 1.x's AgentSideConnection). Runs on Node 20.
//
//   node mock-agent.mjs [flags]            flags also from ACP_MOCK_FLAGS (space separated)
//   ACP_MOCK_LOG=FILE   every message received and sent, and the scenario's findings, as JSON
//                       lines: {"t": ms, "dir": "recv"|"sent"|"event", ...}
//   ACP_MOCK_STATE=DIR  where `--login` leaves its mark (default: beside the log, else /tmp)
//
// Without flags a prompt is echoed: one agent_message_chunk "You said: TEXT" (plus one line per
// embedded resource), then end_turn. Flags add to what a prompt does, in this order:
//   --stream N                N agent_message_chunk updates of Markdown with a ```lisp block
//   --chunk-delay MS          a pause between streamed chunks (default none)
//   --updates-all             every session/update kind of the v1 schema, once each
//   --unknown-update          an update of an unknown kind, and known ones with unknown fields
//   --permission              an edit tool call with a diff, then session/request_permission
//                             (allow_once, allow_always, reject_once); the answer is reported
//   --cancel-during-permission  the same, then waits for session/cancel; the permission must
//                             then be answered `cancelled`; the turn ends `cancelled`
//   --foreign-permission      a permission request for a session that does not exist
//   --mcp-call                calls evaluate-lisp on the first of session/new's mcpServers (the
//                             official MCP SDK client, http or stdio) with
//                             _meta["claudecode/toolUseId"] = the tool call's id
//   --unknown-method          requests methods the client does not offer; reports the codes
//   --crash-on-prompt         writes to stderr and exits 3 in the middle of the turn
// Start and session flags:
//   --crash-at-start          writes to stderr and exits 2 before reading anything
//   --garbage                 writes non-JSON lines and one 64 MB line before answering initialize
//   --slow-start MS           answers initialize MS milliseconds late
//   --never-initialize        never answers initialize
//   --auth-required           authMethods (one of type terminal); session/new fails with -32000
//                             until authenticate succeeds or `--login` has been run
//   --login                   the terminal login: marks ACP_MOCK_STATE as logged in, exits 0
//   --modes                   modes default/acceptEdits/plan/auto (current: default), set_mode
//   --list-sessions           session/list, session/resume, session/load (replays the history)

import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';

import * as acp from '@agentclientprotocol/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const args = [...process.argv.slice(2), ...(process.env.ACP_MOCK_FLAGS ?? '').split(/\s+/).filter(Boolean)];
const has = flag => args.includes(flag);
const value = (flag, fallback) => {
  const at = args.indexOf(flag);
  return at >= 0 && at + 1 < args.length ? Number(args[at + 1]) : fallback;
};

const logFile = process.env.ACP_MOCK_LOG;
const stateDir = process.env.ACP_MOCK_STATE ?? (logFile ? dirname(logFile) : '/tmp');
const loginMark = join(stateDir, 'mock-agent-logged-in');
const started = Date.now();
function log(entry) {
  if (logFile)
    appendFileSync(logFile, JSON.stringify({ t: Date.now() - started, ...entry }) + '\n');
}
const event = (name, fields = {}) => log({ dir: 'event', event: name, ...fields });
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

if (has('--login')) {
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(loginMark, 'logged in\n');
  console.log('Logged in to the mock agent.');
  process.exit(0);
}
if (has('--crash-at-start')) {
  process.stderr.write('mock-agent: cannot start: the configuration is broken (--crash-at-start)\n');
  process.stderr.write('mock-agent: giving up\n');
  process.exit(2);
}

// Raw lines (garbage, the huge line) go straight to stdout; the SDK's messages go through this
// same stream, so their order on the wire is the order they were written in.
const output = Writable.toWeb(process.stdout);
const input = Readable.toWeb(process.stdin);
const wire = acp.ndJsonStream(output, input);
// Sessions whose session/cancel has arrived, in the order of the wire (handlers run later).
const cancelArrived = new Set();
const logged = (direction) => new TransformStream({
  transform(message, controller) {
    log({ dir: direction, message });
    if (direction === 'recv' && message.method === 'session/cancel')
      cancelArrived.add(message.params?.sessionId);
    controller.enqueue(message);
  },
});
const sent = logged('sent');
sent.readable.pipeTo(wire.writable).catch(() => {});
const stream = { readable: wire.readable.pipeThrough(logged('recv')), writable: sent.writable };
function writeRaw(text) {
  log({ dir: 'sent', raw: text.length > 200 ? `${text.slice(0, 200)}… (${text.length} bytes)` : text });
  return new Promise(resolve => process.stdout.write(text, () => resolve()));
}

const MODES = [
  { id: 'default', name: 'Always ask', description: 'Asks before every tool call' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Edits without asking' },
  { id: 'plan', name: 'Plan', description: 'Plans, changes nothing' },
  { id: 'auto', name: 'Auto', description: 'Decides by itself' },
];
const sessions = new Map();   // id -> {cwd, mcpServers, mode, history: [{role, text}], cancelled}
let nextSession = 1;
let authenticated = false;
const PAST_SESSION = { sessionId: 'mock-past-1', cwd: '/tmp', title: 'An earlier conversation',
                       updatedAt: '2026-11-01T10:00:00Z' };

function newSession(cwd, mcpServers, id = `mock-session-${nextSession++}`) {
  const session = { id, cwd, mcpServers, mode: 'default', history: [], cancelled: false, waiters: [] };
  sessions.set(id, session);
  return session;
}
function sessionOf(sessionId) {
  const session = sessions.get(sessionId);
  if (!session)
    throw acp.RequestError.sessionNotFound(sessionId);
  return session;
}
const modeState = session => has('--modes') ? { currentModeId: session.mode, availableModes: MODES } : undefined;
// With --modes, the config options too (v2's way): the mode as category "mode", and a boolean.
const configOptions = session => has('--modes') ? [
  { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: session.mode,
    options: MODES.map(mode => ({ value: mode.id, name: mode.name })) },
  { id: 'thinking', name: 'Think harder', type: 'boolean', currentValue: session.thinking ?? false }] : undefined;

const PROMPT_FLAGS = ['--stream', '--updates-all', '--unknown-update', '--permission', '--cancel-during-permission',
                      '--foreign-permission', '--mcp-call', '--unknown-method', '--crash-on-prompt'];
const app = acp.agent({ name: 'mock-agent' });

app.onRequest('initialize', async ({ params }) => {
  event('client-capabilities', { clientCapabilities: params.clientCapabilities ?? null });
  if (has('--never-initialize'))
    return new Promise(() => {});
  if (has('--slow-start'))
    await sleep(value('--slow-start', 1000));
  if (has('--garbage')) {
    await writeRaw('this line is not JSON\n');
    await writeRaw('{"jsonrpc": "2.0", "method": \n');
    await writeRaw('[1, 2, 3]\n');
    await writeRaw('"x'.padEnd(64 * 1024 * 1024, 'x') + '"\n');
    event('garbage-written');
  }
  const authMethods = has('--auth-required') ? [
    { id: 'mock-login', name: 'Log in to the mock agent', description: 'Runs the login in a terminal',
      type: 'terminal', args: ['--login'], env: { MOCK_LOGIN: '1' } },
    { id: 'mock-key', name: 'Use MOCK_API_KEY', description: 'Reads the key from the environment' },
  ] : [];
  return {
    protocolVersion: acp.PROTOCOL_VERSION,
    agentInfo: { name: 'mock-agent', title: 'Mock Agent', version: '1.0.0' },
    agentCapabilities: {
      loadSession: has('--list-sessions'),
      promptCapabilities: { embeddedContext: true, image: false, audio: false },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: has('--list-sessions') ? { list: {}, resume: {} } : {},
    },
    authMethods,
  };
});

app.onRequest('authenticate', ({ params }) => {
  event('authenticate', { methodId: params.methodId });
  if (params.methodId !== 'mock-key' && params.methodId !== 'mock-login')
    throw acp.RequestError.invalidParams({ methodId: params.methodId }, 'no such auth method');
  if (params.methodId === 'mock-login' && !existsSync(loginMark))
    throw acp.RequestError.authRequired(undefined, 'Run the login first');
  authenticated = true;
  return {};
});

app.onRequest('session/new', ({ params }) => {
  if (has('--auth-required') && !authenticated && !existsSync(loginMark))
    throw acp.RequestError.authRequired(undefined, 'Log in first: run `mock-agent --login`');
  const session = newSession(params.cwd, params.mcpServers ?? []);
  event('session-new', { sessionId: session.id, cwd: params.cwd, mcpServers: params.mcpServers });
  return { sessionId: session.id, modes: modeState(session), configOptions: configOptions(session) };
});

app.onRequest('session/set_config_option', async ({ params, client }) => {
  const session = sessionOf(params.sessionId);
  event('set-config-option', { configId: params.configId, value: params.value, type: params.type ?? null });
  if (params.configId === 'mode' && MODES.some(mode => mode.id === params.value))
    session.mode = params.value;
  else if (params.configId === 'thinking' && typeof params.value === 'boolean')
    session.thinking = params.value;
  else
    throw acp.RequestError.invalidParams({ configId: params.configId }, 'no such option or value');
  return { configOptions: configOptions(session) };
});

app.onRequest('session/set_mode', async ({ params, client }) => {
  const session = sessionOf(params.sessionId);
  if (!MODES.some(mode => mode.id === params.modeId))
    throw acp.RequestError.invalidParams({ modeId: params.modeId }, 'no such mode');
  session.mode = params.modeId;
  await client.notify('session/update', { sessionId: session.id,
    update: { sessionUpdate: 'current_mode_update', currentModeId: session.mode } });
  return {};
});

app.onRequest('session/list', () => {
  const listed = [...sessions.values()].map(s => ({ sessionId: s.id, cwd: s.cwd,
    title: s.history[0]?.text ?? null, updatedAt: '2026-11-28T12:00:00Z' }));
  return { sessions: [PAST_SESSION, ...listed] };
});

function reopen(params) {
  if (params.sessionId !== PAST_SESSION.sessionId && !sessions.has(params.sessionId))
    throw acp.RequestError.sessionNotFound(params.sessionId);
  const session = sessions.get(params.sessionId) ?? newSession(params.cwd, params.mcpServers ?? [],
                                                               params.sessionId);
  session.mcpServers = params.mcpServers ?? session.mcpServers;
  if (session.history.length === 0)
    session.history.push({ role: 'user', text: 'What is (+ 1 2)?' }, { role: 'agent', text: 'It is 3.' });
  return session;
}
app.onRequest('session/resume', ({ params }) => {
  const session = reopen(params);
  event('session-resume', { sessionId: session.id });
  return { modes: modeState(session) };
});
app.onRequest('session/load', async ({ params, client }) => {
  const session = reopen(params);
  event('session-load', { sessionId: session.id });
  for (const { role, text } of session.history)
    await client.notify('session/update', { sessionId: session.id, update: {
      sessionUpdate: role === 'user' ? 'user_message_chunk' : 'agent_message_chunk',
      content: { type: 'text', text } } });
  return { modes: modeState(session) };
});

app.onNotification('session/cancel', ({ params }) => {
  const session = sessions.get(params.sessionId);
  event('cancel', { sessionId: params.sessionId, known: !!session });
  if (!session)
    return;
  session.cancelled = true;
  for (const wake of session.waiters.splice(0))
    wake();
});
const cancelled = session => new Promise(resolve => session.cancelled ? resolve() : session.waiters.push(resolve));

// One prompt turn: the scenario flags in a fixed order, each a few updates.
app.onRequest('session/prompt', async ({ params, client }) => {
  const session = sessionOf(params.sessionId);
  session.cancelled = false;
  cancelArrived.delete(session.id);
  const update = update => client.notify('session/update', { sessionId: session.id, update });
  const say = text => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  const text = params.prompt.filter(block => block.type === 'text').map(block => block.text).join('\n');
  const resources = params.prompt.filter(block => block.type === 'resource' || block.type === 'resource_link');
  session.history.push({ role: 'user', text });
  let toolCalls = 0;
  const toolCallId = () => `call-${session.id}-${++toolCalls}`;

  if (has('--crash-on-prompt')) {
    await say('Starting to work on it');
    process.stderr.write('mock-agent: fatal: lost my train of thought (--crash-on-prompt)\n');
    process.stderr.write('mock-agent: exiting with status 3\n');
    setTimeout(() => process.exit(3), 20);
    return new Promise(() => {});
  }
  if (has('--stream'))
    for (const chunk of markdownChunks(value('--stream', 10))) {
      if (session.cancelled)
        return { stopReason: 'cancelled' };
      await say(chunk);
      if (has('--chunk-delay'))
        await sleep(value('--chunk-delay', 0));
    }
  if (has('--updates-all'))
    await allUpdates(update, session, toolCallId);
  if (has('--unknown-update'))
    await unknownUpdates(client, session);
  if (has('--permission') || has('--cancel-during-permission')) {
    const id = toolCallId();
    const waiting = has('--cancel-during-permission');
    const answer = await askPermission(client, update, session, id);
    if (waiting) {
      // The protocol: session/cancel first, then `cancelled` for the pending permission.
      const cancelledFirst = cancelArrived.has(session.id);
      const ok = cancelledFirst && answer.outcome?.outcome === 'cancelled';
      event('permission-after-cancel', { outcome: answer.outcome, cancelledFirst, ok });
      await update({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed' });
      return { stopReason: 'cancelled' };
    }
    const chosen = answer.outcome?.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
    event('permission-answer', { outcome: answer.outcome });
    await update({ sessionUpdate: 'tool_call_update', toolCallId: id,
                   status: chosen.startsWith('allow') ? 'completed' : 'failed' });
    await say(`The client chose ${chosen}.`);
    if (session.cancelled)
      return { stopReason: 'cancelled' };
  }
  if (has('--foreign-permission')) {
    const outcome = await client.request('session/request_permission', {
      sessionId: 'no-such-session', toolCall: { toolCallId: 'foreign-1', title: 'Foreign' },
      options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
    }).then(result => ({ result }), error => ({ code: error.code, message: error.message }));
    event('foreign-permission', outcome);
    await say(`The foreign permission request got ${JSON.stringify(outcome)}.`);
  }
  if (has('--mcp-call'))
    await mcpCall(session, update, toolCallId(), text);
  if (has('--unknown-method')) {
    for (const method of ['fs/read_text_file', 'lispduet/no_such_method']) {
      const outcome = await client.request(method, { sessionId: session.id, path: '/etc/hostname' })
        .then(result => ({ result }), error => ({ code: error.code, message: error.message }));
      event('unknown-method', { method, ...outcome });
      await say(`${method} was answered ${outcome.code ?? 'with a result'}.\n`);
    }
  }
  if (!PROMPT_FLAGS.some(has))
    await say(`You said: ${text}` + resources.map(r => `\nResource: ${r.resource?.uri ?? r.uri}` +
                                                       ` (${(r.resource?.text ?? '').length} characters)`).join(''));
  session.history.push({ role: 'agent', text: 'done' });
  return { stopReason: session.cancelled ? 'cancelled' : 'end_turn' };
});

function markdownChunks(count) {
  const parts = ['# Squares\n\n', 'Here is a function that squares a number:\n\n', '```lisp\n',
                 '(defun square (x)\n', '  (* x x))\n', '```\n\n', 'Try `(square 12)`: it gives **144**.\n'];
  const chunks = [];
  for (let i = 0; i < count; ++i)
    chunks.push(i < parts.length ? parts[i] : `Line ${i + 1} of the answer.\n`);
  return chunks;
}

async function allUpdates(update, session, toolCallId) {
  const id = toolCallId();
  await update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'Replayed question' } });
  await update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Let me think.' } });
  await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Working on it.' } });
  await update({ sessionUpdate: 'plan', entries: [
    { content: 'Read the file', priority: 'high', status: 'completed' },
    { content: 'Change the function', priority: 'medium', status: 'in_progress' },
    { content: 'Run the tests', priority: 'low', status: 'pending' }] });
  await update({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Edit square.lisp', kind: 'edit',
                 status: 'pending', locations: [{ path: '/tmp/square.lisp', line: 1 }],
                 rawInput: { file: '/tmp/square.lisp' } });
  await update({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress',
                 content: [{ type: 'content', content: { type: 'text', text: 'Editing…' } }] });
  await update({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'completed',
                 content: [
                   { type: 'content', content: { type: 'text', text: 'Edited.' } },
                   { type: 'diff', path: '/tmp/square.lisp', oldText: '(defun square (x) x)\n',
                     newText: '(defun square (x)\n  (* x x))\n' },
                   { type: 'terminal', terminalId: 'term-1' }],
                 _meta: { mock: { note: 'tool meta' } } });
  await update({ sessionUpdate: 'available_commands_update', availableCommands: [
    { name: 'explain', description: 'Explains the selection', input: { hint: 'what to explain' } },
    { name: 'test', description: 'Runs the tests' }] });
  await update({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
  await update({ sessionUpdate: 'config_option_update', configOptions: [
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'fast',
      options: [{ value: 'fast', name: 'Fast' }, { value: 'smart', name: 'Smart' }] }] });
  await update({ sessionUpdate: 'session_info_update', title: 'Squares', updatedAt: '2026-11-28T12:00:00Z' });
  await update({ sessionUpdate: 'usage_update', used: 1234, size: 200000, cost: { amount: 0.0123, currency: 'USD' } });
  await update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ' Done.' } });
}

// The SDK checks what it sends against the schema, so these lines are written as raw JSON.
async function unknownUpdates(client, session) {
  const raw = params => writeRaw(JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params }) + '\n');
  await client.notify('session/update', { sessionId: session.id,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Before. ' } } });
  await raw({ sessionId: session.id, update: { sessionUpdate: 'hologram_update', beams: 3, _meta: { x: 1 } } });
  await raw({ sessionId: session.id, futureField: { nested: true },
              update: { sessionUpdate: 'agent_message_chunk', colour: 'purple',
                        content: { type: 'text', text: 'After.', sparkle: true } } });
  await raw({ sessionId: session.id, update: { sessionUpdate: 'agent_message_chunk',
                                               content: { type: 'hologram', beams: 2 } } });
  await writeRaw(JSON.stringify({ jsonrpc: '2.0', method: 'mock/unknown_notification', params: { a: 1 } }) + '\n');
  event('unknown-updates-written');
}

async function askPermission(client, update, session, id) {
  const diff = { type: 'diff', path: join(session.cwd ?? '/tmp', 'square.lisp'),
                 oldText: '(defun square (x) x)\n', newText: '(defun square (x)\n  (* x x))\n' };
  await update({ sessionUpdate: 'tool_call', toolCallId: id, title: 'Edit square.lisp', kind: 'edit',
                 status: 'pending', content: [diff], locations: [{ path: diff.path }] });
  return client.request('session/request_permission', {
    sessionId: session.id,
    toolCall: { toolCallId: id, title: 'Edit square.lisp', kind: 'edit', content: [diff] },
    options: [
      { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' },
      { optionId: 'allow-always', name: 'Always allow edits', kind: 'allow_always' },
      { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' }],
  });
}

// The mock as Claude Code does it: the MCP call carries the ACP tool call's id in its _meta.
async function mcpCall(session, update, id, text) {
  const server = session.mcpServers[0];
  const code = text.match(/^eval (.*)$/s)?.[1] ?? '(+ 1 2)';
  await update({ sessionUpdate: 'tool_call', toolCallId: id, title: `evaluate-lisp ${code}`, kind: 'execute',
                 status: 'pending', rawInput: { code } });
  if (!server) {
    await update({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed',
                   content: [{ type: 'content', content: { type: 'text', text: 'No MCP server was given.' } }] });
    return;
  }
  const mcp = new Client({ name: 'mock-agent', version: '1.0.0' });
  const transport = server.type === 'http'
    ? new StreamableHTTPClientTransport(new URL(server.url), { requestInit: {
        headers: Object.fromEntries((server.headers ?? []).map(h => [h.name, h.value])) } })
    : new StdioClientTransport({ command: server.command, args: server.args ?? [],
        env: { ...Object.fromEntries((server.env ?? []).map(e => [e.name, e.value])),
               PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stderr: 'pipe' });
  try {
    await mcp.connect(transport);
    await update({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'in_progress' });
    const result = await mcp.callTool({ name: 'evaluate-lisp', arguments: { code },
                                        _meta: { 'claudecode/toolUseId': id } });
    event('mcp-call', { toolCallId: id, server: server.name, result });
    await update({ sessionUpdate: 'tool_call_update', toolCallId: id,
                   status: result.isError ? 'failed' : 'completed',
                   content: result.content.map(block => ({ type: 'content', content: block })),
                   _meta: { claudeCode: { toolName: `mcp__${server.name}__evaluate-lisp` } } });
  } catch (error) {
    event('mcp-call-failed', { toolCallId: id, message: String(error?.message ?? error) });
    await update({ sessionUpdate: 'tool_call_update', toolCallId: id, status: 'failed',
                   content: [{ type: 'content', content: { type: 'text', text: String(error?.message ?? error) } }] });
  } finally {
    await mcp.close().catch(() => {});
  }
}

const connection = app.connect(stream);
event('started', { args, pid: process.pid });
connection.closed.then(() => {
  event('closed');
  process.exit(0);
});
