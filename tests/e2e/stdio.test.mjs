// lisp-duet --headless --stdio driven by the official TypeScript SDK client.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

import Ajv from 'ajv';

import { connectStdio, evaluate, exited, isolatedEnv, isRunning, sendOversizedThenPing, spawnServer, textOf } from './lib.mjs';

describe('lisp-duet over stdio with the SDK client', () => {
  let server;
  let tools;

  before(async () => {
    server = await connectStdio();
    tools = (await server.client.listTools()).tools;
  });
  after(async () => {
    await server?.close();
  });

  test('initialize names the server and its capabilities', () => {
    const info = server.client.getServerVersion();
    assert.equal(info.name, 'lisp-duet');
    assert.match(info.version, /^\d+\.\d+\.\d+/);
    const capabilities = server.client.getServerCapabilities();
    assert.ok(capabilities.tools, 'tools capability');
    assert.match(server.client.getInstructions() ?? '', /Common Lisp/);
  });

  test('tools/list offers evaluate-lisp with its schemas', () => {
    const tool = tools.find(t => t.name === 'evaluate-lisp');
    assert.ok(tool, `evaluate-lisp among ${tools.map(t => t.name).join(', ')}`);
    assert.equal(tool.inputSchema.type, 'object');
    assert.deepEqual(tool.inputSchema.required, ['code']);
    assert.equal(tool.inputSchema.properties.code.type, 'string');
    assert.equal(tool.outputSchema.type, 'object');
    assert.ok(tool.title);
    assert.equal(tool.annotations.readOnlyHint, false);
  });

  test('(+ 1 2) evaluates to => 3', async () => {
    const result = await evaluate(server.client, '(+ 1 2)');
    assert.equal(result.isError, false);
    assert.equal(textOf(result), '=> 3');
    assert.deepEqual(result.structuredContent.values, ['3']);
    assert.equal(result.structuredContent.status, 'ok');
  });

  test('a Lisp error is a result with isError and [ERROR]', async () => {
    const result = await evaluate(server.client, '(car 42)');
    assert.equal(result.isError, true);
    assert.match(textOf(result), /^\[ERROR\] SIMPLE-TYPE-ERROR\nThe value 42 is not of type CONS\./);
    assert.match(textOf(result), /\[Backtrace\]\n0: \(CAR 42\)/);
    assert.equal(result.structuredContent.error.type, 'SIMPLE-TYPE-ERROR');
  });

  test('a definition is used by a later call', async () => {
    assert.equal(textOf(await evaluate(server.client, '(defun square (x) (* x x))')), '=> SQUARE');
    assert.equal(textOf(await evaluate(server.client, '(square 7)')), '=> 49');
  });

  test('output, several values and the package argument', async () => {
    const result = await evaluate(server.client, '(progn (print :hello) (format *error-output* "careful~%") (floor 17 5))');
    assert.equal(textOf(result), '[stdout]\n:HELLO\n\n[stderr]\ncareful\n\n=> 3\n=> 2');
    assert.equal(textOf(await evaluate(server.client, '(package-name *package*)', { package: 'cl-user' })),
                 '=> "COMMON-LISP-USER"');
    const unknown = await evaluate(server.client, '1', { package: 'no-such-package' });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /^\[ERROR\] PACKAGE-ERROR\nThe package "no-such-package" does not exist/);
  });

  test('structuredContent conforms to the outputSchema, also for errors', async () => {
    // callTool validates successful results against the cached outputSchema; error results are
    // checked here too, since the tool sends structuredContent with them as well.
    const schema = tools.find(t => t.name === 'evaluate-lisp').outputSchema;
    const validate = new Ajv({ strict: false }).compile(schema);
    for (const code of ['(values 1 "two" :three)', '(/ 1 0)', '(+ 1 2', '(warn "w") 1', '(print 1)']) {
      const result = await evaluate(server.client, code);
      assert.ok(result.structuredContent, `structuredContent for ${code}`);
      assert.ok(validate(result.structuredContent), `${code}: ${JSON.stringify(validate.errors)}`);
    }
  });

  test('a bad argument is a tool error naming it', async () => {
    const result = await server.client.callTool({ name: 'evaluate-lisp', arguments: { code: 42 } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /'code'/);
  });

  test('an unknown tool is a JSON-RPC error', async () => {
    await assert.rejects(server.client.callTool({ name: 'invalid-tool-name', arguments: {} }),
                         err => err.code === -32602 && /Unknown tool: invalid-tool-name/.test(err.message));
  });

  test('ping answers', async () => {
    assert.deepEqual(await server.client.ping(), {});
  });
});

describe('the stdio server process', () => {
  test('exits by itself, with its engine, when the client closes', async () => {
    const server = await connectStdio();
    const engine = Number(textOf(await evaluate(server.client, '(si:getpid)')).replace('=> ', ''));
    assert.ok(isRunning(engine), 'the engine runs');
    const pid = server.transport.pid;
    const started = Date.now();
    await server.close(); // ends stdin; SIGTERM would follow only after 2 s
    assert.ok(Date.now() - started < 1900, `exited on end of input, not on SIGTERM (${Date.now() - started} ms)`);
    assert.ok(!isRunning(pid), 'the server is gone');
    for (let i = 0; i < 50 && isRunning(engine); ++i)
      await sleep(100);
    assert.ok(!isRunning(engine), 'the engine is gone');
  });

  test('end of input gives exit code 0 and nothing but JSON on stdout', async () => {
    const child = spawnServer(['--headless', '--stdio'], isolatedEnv());
    let stdout = '';
    child.stdout.on('data', chunk => { stdout += chunk; });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
                                       params: { protocolVersion: '2025-06-18', capabilities: {},
                                                 clientInfo: { name: 'raw', version: '1' } } }) + '\n');
    child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    for (let i = 0; i < 100 && !stdout.includes('"id":2'); ++i)
      await sleep(50);
    child.stdin.end();
    const { code, signal } = await exited(child);
    assert.equal(signal, null);
    assert.equal(code, 0);
    const lines = stdout.split('\n').filter(line => line.length > 0);
    assert.equal(lines.length, 2, stdout);
    for (const line of lines)
      assert.equal(JSON.parse(line).jsonrpc, '2.0');
    assert.equal(JSON.parse(lines[0]).result.protocolVersion, '2025-06-18');
  });

  test('a message over 8 MiB is answered with an error, and the next message is read', async () => {
    const child = spawnServer(['--headless', '--stdio'], isolatedEnv());
    try {
      const messages = await sendOversizedThenPing(child);
      assert.deepEqual(messages.map(m => m.id), [1, null, 'after'], JSON.stringify(messages).slice(0, 400));
      assert.equal(messages[1].error.code, -32600);
      assert.match(messages[1].error.message, /^Message larger than 8388608 bytes; it was discarded/);
    } finally {
      child.stdin.end();
      await exited(child);
    }
  });

  test('--version and --help answer without starting a server', async () => {
    for (const [flag, pattern] of [['--version', /^lisp-duet \d+\.\d+\.\d+/], ['--help', /--stdio/]]) {
      const child = spawnServer([flag], isolatedEnv());
      let stdout = '';
      child.stdout.on('data', chunk => { stdout += chunk; });
      const { code } = await exited(child);
      assert.equal(code, 0);
      assert.match(stdout, pattern);
    }
  });
});
