// The official conformance suite (server scenarios, run with Node 22) against
// lisp-duet --headless --no-auth, once per protocol revision: `--requirements REVISION` runs
// the revision's frozen list of scenarios on its own wire (2025-11-25: the initialize
// handshake and Mcp-Session-Id; 2026-07-28: stateless requests with per-request _meta). Only
// what needs the suite's own fixture tools, resources and prompts may fail:
// conformance-expected-failures-REVISION.yml lists each (whole scenarios, or single checks),
// and the suite itself fails on an unexpected failure or a stale entry.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startHeadless } from './headless.mjs';
import { node22, testsDir } from './lib.mjs';

// Runs the suite for one revision; resolves with its summary and every check it recorded.
async function runSuite(url, revision) {
  const output = mkdtempSync(join(tmpdir(), 'lisp-duet-conformance-'));
  try {
    const run = await new Promise(resolveRun => {
      execFile(node22(), [join(testsDir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js'),
                          'server', '--url', url, '--requirements', revision,
                          '--expected-failures', join(testsDir, 'e2e', `conformance-expected-failures-${revision}.yml`), '-o', output],
               { timeout: 280000, maxBuffer: 16 * 1024 * 1024 },
               (error, stdout, stderr) => resolveRun({ code: error?.code ?? 0, stdout, stderr }));
    });
    const checks = {};
    for (const folder of readdirSync(output)) {
      const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT.*$/, '');
      checks[scenario] = JSON.parse(readFileSync(join(output, folder, 'checks.json'), 'utf8'));
    }
    return { ...run, summary: run.stdout.slice(run.stdout.indexOf('=== SUMMARY ===')), checks };
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}

function assertPassed(summary, scenarios) {
  for (const scenario of scenarios)
    assert.match(summary, new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`), summary);
}

describe('the MCP conformance suite', () => {
  let server;
  before(async () => { server = await startHeadless({ noAuth: true }); });
  after(async () => { await server?.stop(); });

  test('2025-11-25: every scenario passes except those that need the suite\'s fixtures', async () => {
    const run = await runSuite(server.url, '2025-11-25');
    assert.equal(run.code, 0, `${run.summary}\n${run.stderr}`);
    assertPassed(run.summary, ['server-initialize', 'server-session-lifecycle', 'ping', 'logging-set-level', 'tools-list',
                               'resources-list', 'prompts-list', 'dns-rebinding-protection', 'server-sse-multiple-streams']);
  });

  test('2026-07-28: every scenario passes except those that need the suite\'s fixtures', async () => {
    const run = await runSuite(server.url, '2026-07-28');
    assert.equal(run.code, 0, `${run.summary}\n${run.stderr}`);
    assertPassed(run.summary, ['tools-list', 'resources-list', 'prompts-list', 'caching', 'sep-2164-resource-not-found',
                               'dns-rebinding-protection', 'server-sse-multiple-streams', 'http-header-validation',
                               'input-required-result-unsupported-methods', 'input-required-result-validate-input']);
    // The stateless scenario holds most of the revision (discovery, _meta validation, versions,
    // header mismatch, removed methods, subscriptions/listen): every check of it passes but
    // those that call its diagnostic tools.
    const stateless = run.checks['server-stateless'];
    assert.ok(stateless.filter(check => check.status === 'SUCCESS').length >= 20, JSON.stringify(stateless, null, 1));
    for (const check of stateless.filter(check => check.status === 'FAILURE' || check.status === 'WARNING'))
      assert.match(check.errorMessage, /^Not testable: .*(test_\w+)|test_trigger_tool_change|^Mutated the tool list/, `${check.id}: ${check.errorMessage}`);
  });
});
