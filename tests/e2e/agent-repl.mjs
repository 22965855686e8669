// An agent for tests that drive Lisp Duet's window from C++ (tests/app/tst_handoffs): the
// official SDK client over Streamable HTTP, driven by JSON lines on stdin, answering with JSON
// lines on stdout. Calls run concurrently, so a test can stage several forms at once.
//
//   node agent-repl.mjs URL TOKEN CLIENT-NAME
//   stdin:  {"id": 1, "tool": "stage-form", "arguments": {"code": "(+ 1 2)"}}
//   stdout: {"ready": true}                                  once connected
//           {"id": 1, "result": {content, structuredContent, isError}}
//           {"id": 1, "error": "message"}                    a protocol error or a schema mismatch
//   {"id": 2, "cancel": 1} cancels call 1 (the SDK sends notifications/cancelled).
//   {"id": 3, "close": true} closes the client as an agent that quits does (client.close(): its
//           event stream ends, no DELETE), answers {"id": 3, "closed": true} and exits.

import { createInterface } from 'node:readline';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, token, name] = process.argv.slice(2);
const client = new Client({ name: name || 'agent-repl', version: '1.0.0' });
const headers = token ? { Authorization: `Bearer ${token}` } : {};
await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
// callTool checks structuredContent against each tool's outputSchema, from tools/list.
await client.listTools();
const write = message => process.stdout.write(JSON.stringify(message) + '\n');
write({ ready: true });

const running = new Map();
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim())
    continue;
  const request = JSON.parse(line);
  if (request.cancel !== undefined) {
    running.get(request.cancel)?.abort('the test cancelled it');
    continue;
  }
  if (request.close) {
    await client.close();
    write({ id: request.id, closed: true });
    process.exit(0);
  }
  const controller = new AbortController();
  running.set(request.id, controller);
  client.callTool({ name: request.tool, arguments: request.arguments ?? {} }, undefined,
                  { signal: controller.signal, timeout: 600000 })
    .then(result => write({ id: request.id, result }))
    .catch(error => write({ id: request.id, error: String(error?.message ?? error) }))
    .finally(() => running.delete(request.id));
}
await client.close();
