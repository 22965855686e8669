// Lisp Duet and a peer MCP server (cl-mcp) through the official TypeScript SDK client over
// stdio, alternated A B A B: N sequential evaluations of (+ 1 2) and N pings per round, p50 and
// p99, and the ratios Lisp Duet / peer. A benchmark, not a test: it prints figures.
//
//   node tests/bench/sdk_side_by_side.mjs [--rounds 2] [--calls 1000] [--warmup 100]
//        [--peer-label cl-mcp --peer-stdio "COMMAND" --peer-tool repl-eval --peer-expect '^3$']
//
// Without --peer-stdio only Lisp Duet is measured. The peer's command is words separated by
// spaces; --peer-expect is a regular expression its answer's text must match (every answer is
// checked). LISP_DUET_BIN=build/bin (default) holds lisp-duet.

import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const testsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(testsDir, 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { binary, isolatedEnv } = await import(join(testsDir, 'e2e', 'lib.mjs'));

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
};
const rounds = Number(option('--rounds', 2));
const calls = Number(option('--calls', 1000));
const warmup = Number(option('--warmup', 100));

const servers = [{
  label: 'Lisp Duet',
  command: binary('lisp-duet'),
  args: ['--headless', '--stdio', '--no-journal'],
  tool: 'evaluate-lisp',
  expect: /=> 3/,
}];
if (option('--peer-stdio')) {
  const [command, ...args] = option('--peer-stdio').split(/\s+/).filter(Boolean);
  servers.push({
    label: option('--peer-label', 'peer'),
    command,
    args,
    tool: option('--peer-tool', 'repl-eval'),
    expect: new RegExp(option('--peer-expect', '^3$')),
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const load = () => loadavg().map(x => x.toFixed(2)).join(' ');

async function timeCalls(once) {
  for (let i = 0; i < warmup; ++i)
    await once();
  const samples = [];
  for (let i = 0; i < calls; ++i) {
    const start = process.hrtime.bigint();
    await once();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

// One round of one server: a fresh process with fresh XDG folders, the SDK's stdio transport.
async function measure(server) {
  const isolated = isolatedEnv();
  const client = new Client({ name: 'bench-sdk-side-by-side', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, env: isolated.env }));
  try {
    const evaluate = await timeCalls(async () => {
      const result = await client.callTool({ name: server.tool, arguments: { code: '(+ 1 2)' } });
      const text = result.content?.[0]?.text ?? '';
      if (result.isError || !server.expect.test(text))
        throw new Error(`${server.label}: unexpected answer ${JSON.stringify(result).slice(0, 300)}`);
    });
    const ping = await timeCalls(() => client.ping());
    console.log(`   ${server.label.padEnd(10)} evaluate p50 ${evaluate.p50.toFixed(0).padStart(5)} us, p99 ${evaluate.p99.toFixed(0).padStart(5)} us;`
                + ` ping p50 ${ping.p50.toFixed(0).padStart(5)} us`);
    return { evaluateP50: evaluate.p50, evaluateP99: evaluate.p99, pingP50: ping.p50 };
  } finally {
    await client.close();
    isolated.cleanup();
  }
}

console.log(`official SDK client over stdio: ${rounds} rounds of ${calls} calls after ${warmup} warm-up calls; load average ${load()}`);
if (servers.length === 1)
  console.log('   (no peer given: Lisp Duet alone)');
const results = [];
for (let round = 1; round <= rounds; ++round) {
  console.log(`round ${round} (load average ${load()})`);
  const row = [];
  for (const server of servers)
    row.push(await measure(server));
  results.push(row);
}

if (servers.length === 2) {
  console.log(`\nratio ${servers[0].label} / ${servers[1].label} (below 1: ${servers[0].label} ahead)`);
  for (const [key, name] of [['evaluateP50', 'evaluate p50'], ['evaluateP99', 'evaluate p99'], ['pingP50', 'ping p50']]) {
    const cells = results.map(([a, b], r) => `r${r + 1} ${a[key].toFixed(0)} / ${b[key].toFixed(0)} us = ${(a[key] / b[key]).toFixed(2)}`);
    console.log(`   ${name.padEnd(13)} ${cells.join('   ')}`);
  }
}
console.log(`load average ${load()} at the end`);
