// Round trips through the official TypeScript SDK client, as agents built on it see them:
// N sequential `evaluate-lisp "(+ 1 2)"` calls and N pings on one connection, over stdio
// (the SDK's default environment) and over Streamable HTTP with keep-alive.
//
//   node tests/bench/sdk_latency.mjs [--calls 1000] [--warmup 100]
//   LISP_DUET_BIN=build/bin (default) — a benchmark, not a test: it prints figures.

import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const testsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(testsDir, 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { binDir, isolatedEnv } = await import(join(testsDir, 'e2e', 'lib.mjs'));

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const calls = option('--calls', 1000);
const warmup = option('--warmup', 100);

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function timeCalls(label, once) {
  for (let i = 0; i < warmup; ++i)
    await once();
  const samples = [];
  for (let i = 0; i < calls; ++i) {
    const start = process.hrtime.bigint();
    await once();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  samples.sort((a, b) => a - b);
  const row = { p50: percentile(samples, 50), p99: percentile(samples, 99) };
  console.log(`${label.padEnd(34)} p50 ${row.p50.toFixed(0).padStart(6)} us   p99 ${row.p99.toFixed(0).padStart(6)} us`);
  return row;
}

async function measure(name, client) {
  const evaluate = await timeCalls(`${name}: evaluate-lisp (+ 1 2)`, async () => {
    const result = await client.callTool({ name: 'evaluate-lisp', arguments: { code: '(+ 1 2)' } });
    if (result.isError || !result.content[0].text.includes('=> 3'))
      throw new Error(`unexpected result: ${JSON.stringify(result)}`);
  });
  const ping = await timeCalls(`${name}: ping`, () => client.ping());
  console.log(`${name}: evaluate / ping = ${(evaluate.p50 / ping.p50).toFixed(1)}x`);
}

// stdio, with only what the SDK passes by default (HOME, LOGNAME, PATH, SHELL, TERM, USER)
// plus the isolated XDG folders and the engine's path.
async function overStdio() {
  const isolated = isolatedEnv();
  const transport = new StdioClientTransport({
    command: join(binDir(), 'lisp-duet'),
    args: ['--headless', '--stdio', '--no-journal'],
    env: isolated.env,
  });
  const client = new Client({ name: 'bench-sdk', version: '1.0.0' });
  await client.connect(transport);
  try {
    await measure('SDK stdio', client);
  } finally {
    await client.close();
    isolated.cleanup();
  }
}

async function overHttp() {
  const isolated = isolatedEnv();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const app = spawn(join(binDir(), 'lisp-duet'), ['--headless', '--no-journal', '--no-auth', '--port', String(port), '--socket', join(isolated.root, 'bench.sock')],
                    { env: isolated.env, stdio: ['ignore', 'ignore', 'pipe'] });
  await new Promise((ready, fail) => {
    let text = '';
    app.stderr.on('data', chunk => {
      text += chunk;
      if (text.includes('MCP over HTTP'))
        ready();
    });
    app.once('exit', code => fail(new Error(`lisp-duet exited with ${code}: ${text}`)));
  });
  const client = new Client({ name: 'bench-sdk-http', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  try {
    await measure('SDK HTTP', client);
  } finally {
    await client.close();
    app.kill('SIGTERM');
    isolated.cleanup();
  }
}

console.log(`load average ${loadavg().map(x => x.toFixed(2)).join(' ')}; ${calls} calls after ${warmup} warm-up calls`);
await overStdio();
await overHttp();
console.log(`load average ${loadavg().map(x => x.toFixed(2)).join(' ')}`);
