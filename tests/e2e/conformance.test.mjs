// The official conformance suite (server scenarios of spec 2025-11-25, run with Node 22)
// against lisp-duet --headless --no-auth. Only scenarios that need the suite's own fixture
// tools, resources and prompts may fail; conformance-expected-failures.yml lists each with
// its reason, and the suite itself fails on an unexpected failure or a stale entry.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startHeadless } from './headless.mjs';
import { node22, testsDir } from './lib.mjs';

describe('the MCP conformance suite', () => {
  let server;
  before(async () => { server = await startHeadless({ noAuth: true }); });
  after(async () => { await server?.stop(); });

  test('every scenario passes except those that need the suite\'s fixtures', async () => {
    const output = mkdtempSync(join(tmpdir(), 'lisp-duet-conformance-'));
    const run = await new Promise(resolveRun => {
      execFile(node22(), [join(testsDir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
                          'server', '--url', server.url, '--spec-version', '2025-11-25',
                          '--expected-failures', join(testsDir, 'e2e', 'conformance-expected-failures.yml'), '-o', output],
               { timeout: 240000, maxBuffer: 16 * 1024 * 1024 },
               (error, stdout, stderr) => resolveRun({ code: error?.code ?? 0, stdout, stderr }));
    });
    rmSync(output, { recursive: true, force: true });
    const summary = run.stdout.slice(run.stdout.indexOf('=== SUMMARY ==='));
    assert.equal(run.code, 0, `${summary}\n${run.stderr}`);
    for (const scenario of ['server-initialize', 'ping', 'logging-set-level', 'tools-list', 'resources-list',
                            'prompts-list', 'dns-rebinding-protection', 'server-sse-multiple-streams'])
      assert.match(summary, new RegExp(`✓ ${scenario}:`), summary);
  });
});
