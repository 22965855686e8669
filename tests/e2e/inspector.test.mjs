// The MCP Inspector's CLI against lisp-duet --headless over HTTP and through the bridge.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { startHeadless } from './headless.mjs';
import { binary, testsDir } from './lib.mjs';

function inspector(args, env) {
  return new Promise(resolveRun => {
    execFile(process.execPath, [join(testsDir, 'node_modules', '.bin', 'mcp-inspector'), '--cli', ...args],
             { env, timeout: 60000 }, (error, stdout, stderr) => resolveRun({ code: error?.code ?? 0, stdout, stderr }));
  });
}

describe('the MCP Inspector CLI', () => {
  let server;
  before(async () => { server = await startHeadless(); });
  after(async () => { await server?.stop(); });

  test('tools/list over HTTP with the bearer token', async () => {
    const run = await inspector([server.url, '--transport', 'http', '--header', `Authorization: Bearer ${server.token}`,
                                 '--method', 'tools/list'], server.env);
    assert.equal(run.code, 0, run.stderr);
    const tools = JSON.parse(run.stdout).tools.map(t => t.name);
    assert.ok(tools.includes('evaluate-lisp'), tools.join(', '));
  });

  test('tools/call evaluate-lisp over HTTP', async () => {
    const run = await inspector([server.url, '--transport', 'http', '--header', `Authorization: Bearer ${server.token}`,
                                 '--method', 'tools/call', '--tool-name', 'evaluate-lisp', '--tool-arg', 'code=(* 6 7)'], server.env);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).content[0].text, '=> 42');
  });

  test('a Lisp error through the bridge is an isError result (exit code 5)', async () => {
    // The Inspector spawns the bridge with an environment of its own: name the socket by the
    // path the app printed (on a machine with run/user/UID it is not in XDG_RUNTIME_DIR).
    const run = await inspector([binary('lisp-duet-bridge'), '--socket', server.socketPath,
                                 '--method', 'tools/call', '--tool-name', 'evaluate-lisp', '--tool-arg', 'code=(car 1)'], server.env);
    assert.equal(run.code, 5, run.stdout + run.stderr);
    assert.match(run.stdout, /\[ERROR\] SIMPLE-TYPE-ERROR/);
  });
});
