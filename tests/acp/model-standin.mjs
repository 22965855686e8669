// A stand-in for Anthropic's Messages API, so that the real Claude Code adapter runs offline in
// tests (ANTHROPIC_BASE_URL=http://127.0.0.1:PORT, ANTHROPIC_API_KEY=anything). Node 20 or 22.
//
//   node model-standin.mjs [SCRIPT.json]     prints {"port": N} on its first line of stdout
//   STANDIN_DUMP=DIR     each request's whole body as DIR/NNN_path.json
//   STANDIN_LOG=FILE     every request as a JSON line: {t, method, path, model, stream,
//                        tools (names), last (the last message's blocks, abridged), answer}
//
// What it answers, decided by the request, not by a count (the adapter's side requests come and
// go between versions):
// - POST /v1/messages with `tools` (the agent's loop), when the prompt asks for the tool
//   (`eval: CODE` in the person's newest text, or the script's `code`): a tool_use of ToolSearch
//   ("select:TOOL") while the tool is deferred, then a tool_use of `toolName` with {code}, then,
//   after its tool_result, text that quotes it (`afterTool`, {{result}} replaced); without
//   `eval:`, `plain` text.
// - POST /v1/messages without tools (titles, summaries, Haiku's side requests): `sideText`.
// - POST /v1/messages/count_tokens: an estimate (characters / 4).
// - anything else: 404 with an Anthropic-style error, logged.
// Streaming (`stream: true`) is answered as SSE, exactly as the API sends it; otherwise JSON.
//
// SCRIPT.json (every field optional):
//   {"toolName": "mcp__lisp-duet__evaluate-lisp", "code": null, "afterTool": "...{{result}}...",
//    "plain": "...", "sideText": "...", "delayMs": 0, "chunkSize": 12}

import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const script = {
  toolName: 'mcp__lisp-duet__evaluate-lisp',
  code: null,
  afterTool: 'The evaluation returned:\n\n{{result}}',
  plain: 'Hello from the model stand-in.',
  sideText: 'Lisp evaluation',
  delayMs: 0,
  chunkSize: 12,
  ...(process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : {}),
};
const logFile = process.env.STANDIN_LOG;
const started = Date.now();
let counter = 0;
let dumped = 0;
const log = entry => logFile && appendFileSync(logFile, JSON.stringify({ t: Date.now() - started, ...entry }) + '\n');

const textOf = content => typeof content === 'string' ? content
  : (content ?? []).map(block => block.type === 'text' ? block.text
                                 : block.type === 'tool_result' ? textOf(block.content) : '').join('');
const abridged = message => message && {
  role: message.role,
  blocks: (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content)
    .map(block => ({ type: block.type, ...(block.text ? { text: block.text.slice(0, 300) } : {}),
                     ...(block.tool_use_id ? { tool_use_id: block.tool_use_id, result: textOf(block.content).slice(0, 300) } : {}),
                     ...(block.name ? { name: block.name, input: block.input } : {}) })),
};

// The blocks of the answer to one /v1/messages request. Claude Code defers MCP tools: they are
// named in a <system-reminder> and loaded by its ToolSearch tool, so, as a model would, the
// stand-in first asks ToolSearch for the tool ("select:NAME"), then calls it.
function answer(body) {
  const messages = body.messages ?? [];
  const blocksOf = message => typeof message?.content === 'string' ? [{ type: 'text', text: message.content }]
                                                                   : (message?.content ?? []);
  const users = messages.filter(m => m.role === 'user');
  const toolResult = blocksOf(users.at(-1)).find(block => block.type === 'tool_result');
  const toolUses = messages.filter(m => m.role === 'assistant').flatMap(blocksOf).filter(b => b.type === 'tool_use');
  const answered = toolResult && toolUses.find(use => use.id === toolResult.tool_use_id);
  // The person's words: the newest user message that answers no tool, less the reminders
  // Claude Code adds.
  const prompt = users.filter(m => !blocksOf(m).some(b => b.type === 'tool_result'))
    .map(m => blocksOf(m).filter(b => b.type === 'text' && !b.text.startsWith('<system-reminder>'))
                         .map(b => b.text).join('\n'))
    .filter(Boolean).at(-1) ?? '';
  const code = /eval: ([\s\S]*?)(?:\n|$)/.exec(prompt)?.[1]?.trim() ?? script.code;
  const tools = body.tools ?? [];
  const callTool = () => ({ kind: 'tool-use', stop: 'tool_use',
    blocks: [{ type: 'tool_use', id: `toolu_standin_${++counter}`, name: script.toolName, input: { code } }] });
  if (!tools.length)
    return { kind: 'side', blocks: [{ type: 'text', text: script.sideText }], stop: 'end_turn' };
  if (answered?.name === 'ToolSearch' && code)
    return callTool();
  if (toolResult)
    return { kind: 'after-tool', stop: 'end_turn',
             blocks: [{ type: 'text', text: script.afterTool.replace('{{result}}', textOf(toolResult.content)) }] };
  if (code && tools.some(tool => tool.name === script.toolName && !tool.defer_loading))
    return callTool();
  if (code && tools.some(tool => tool.name === 'ToolSearch') && JSON.stringify(messages).includes(script.toolName))
    return { kind: 'tool-search', stop: 'tool_use',
             blocks: [{ type: 'tool_use', id: `toolu_standin_${++counter}`, name: 'ToolSearch',
                        input: { query: `select:${script.toolName}`, max_results: 1 } }] };
  return { kind: code ? 'tool-not-offered' : 'plain', stop: 'end_turn',
           blocks: [{ type: 'text', text: code ? `The tool ${script.toolName} is not offered.` : script.plain }] };
}

function usage(body) {
  return { input_tokens: Math.ceil(JSON.stringify(body.messages ?? []).length / 4), output_tokens: 12,
           cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

function messageOf(body, { blocks, stop }) {
  return { id: `msg_standin_${++counter}`, type: 'message', role: 'assistant', model: body.model ?? 'standin',
           content: blocks, stop_reason: stop, stop_sequence: null, usage: usage(body) };
}

async function stream(response, message) {
  const send = (event, data) => response.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': message.id });
  send('message_start', { message: { ...message, content: [], stop_reason: null,
                                     usage: { ...message.usage, output_tokens: 1 } } });
  for (const [index, block] of message.content.entries()) {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (let at = 0; at < block.text.length; at += script.chunkSize)
        send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text.slice(at, at + script.chunkSize) } });
    } else {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { index });
  }
  send('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null },
                          usage: { output_tokens: message.usage.output_tokens } });
  send('message_stop', {});
  response.end();
}

const server = createServer(async (request, response) => {
  let raw = '';
  for await (const chunk of request)
    raw += chunk;
  const path = request.url.split('?')[0];
  let body = {};
  try { body = raw ? JSON.parse(raw) : {}; } catch { /* logged below as unparsed */ }
  const entry = { method: request.method, path, model: body.model, stream: body.stream,
                  tools: body.tools?.map(tool => tool.name), last: abridged(body.messages?.at(-1)),
                  system: typeof body.system === 'string' ? body.system.slice(0, 120)
                    : body.system?.map(block => block.text?.slice(0, 120)),
                  headers: { 'anthropic-beta': request.headers['anthropic-beta'], 'x-api-key': request.headers['x-api-key'] ? 'set' : undefined,
                             authorization: request.headers.authorization ? 'set' : undefined, 'user-agent': request.headers['user-agent'] } };
  if (process.env.STANDIN_DUMP)
    writeFileSync(join(process.env.STANDIN_DUMP, `${String(++dumped).padStart(3, '0')}${path.replaceAll('/', '_')}.json`), raw);
  if (script.delayMs)
    await new Promise(resolve => setTimeout(resolve, script.delayMs));
  if (path === '/api/hello') { // Claude Code's connectivity check, before its first request
    log({ ...entry, answer: 200 });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(request.method === 'HEAD' ? undefined : '{}');
    return;
  }
  if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
    log({ ...entry, answer: 'count_tokens' });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ input_tokens: Math.ceil(raw.length / 4) }));
    return;
  }
  if (request.method === 'POST' && path === '/v1/messages') {
    const decided = answer(body);
    log({ ...entry, answer: decided.kind, blocks: decided.blocks });
    const message = messageOf(body, decided);
    if (body.stream)
      return stream(response, message);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(message));
    return;
  }
  log({ ...entry, answer: 404, body: raw.slice(0, 500) });
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `${request.method} ${path}: not served by the stand-in` } }));
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
