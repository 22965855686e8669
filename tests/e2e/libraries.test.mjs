// Libraries at once (issue 39) through the official SDK client over stdio, with background
// compiles on (the suites run with them off) and the small libraries of tests/data/libraries:
// a first load-system answers at once with the library running as bytecode and says it becomes
// native in the background; with until_native the call waits for the native code, the client
// gets progress notifications of k of n files meanwhile, and the answer says what stays
// bytecode and why (a file gcc refuses); project-info lists each library's state; the client
// hears a library's end as a log message. Every result is checked against the tool's schemas.

import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

import Ajv from 'ajv';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

import { connectStdio, textOf } from './lib.mjs';

const ajv = new Ajv({ strict: false, allErrors: true });
const libraries = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'libraries');

describe('libraries at once', { timeout: 280000 }, () => {
  let server;
  let tools;
  const logged = [];

  async function call(name, args = {}, { onprogress, timeout = 240000 } = {}) {
    const tool = tools.find(t => t.name === name);
    assert.ok(tool, `${name} is listed`);
    assert.ok(ajv.validate(tool.inputSchema, args), `${name} arguments: ${ajv.errorsText()}`);
    const result = await server.client.callTool({ name, arguments: args }, undefined,
                                                { timeout, onprogress, resetTimeoutOnProgress: true });
    assert.equal(result.isError ?? false, false, `${name} isError: ${textOf(result)}`);
    assert.ok(ajv.validate(tool.outputSchema, result.structuredContent),
              `${name} structuredContent: ${ajv.errorsText()}\n${JSON.stringify(result.structuredContent)}`);
    return result;
  }

  before(async () => {
    server = await connectStdio({ clientName: 'e2e-libraries',
                                  env: { LISP_DUET_SYSTEM_PATHS: libraries, LISP_DUET_LIBRARY_NATIVE: '1' } });
    server.client.setNotificationHandler(LoggingMessageNotificationSchema, n => logged.push(n.params));
    await server.client.setLoggingLevel('info');
    tools = (await server.client.listTools()).tools;
  });
  after(async () => {
    await server?.close();
  });

  test('a first load answers at once as bytecode and says it becomes native in the background', async () => {
    const loaded = await call('load-system', { system: 'duet-swaplib' });
    assert.match(textOf(loaded), /\n\nLibraries:\n- duet-swaplib runs as bytecode for now \(4 files\): /, textOf(loaded));
    assert.match(textOf(loaded), /Bytecode works now, only slower; it becomes native in the background without a restart/);
    const entry = loaded.structuredContent.libraries.find(l => l.system === 'duet-swaplib');
    assert.ok(['queued', 'compiling'].includes(entry.state), entry.state);
    assert.equal(entry.bytecode_files, 4);
    // It works now, as bytecode.
    assert.match(textOf(await call('evaluate-lisp', { code: '(length (list-all-packages))' })), /^=> \d+/);
  });

  test('until_native waits with progress of k of n files and says what stays bytecode and why', async () => {
    const progress = [];
    const loaded = await call('load-system', { system: 'duet-badlib', until_native: true },
                              { onprogress: p => progress.push(p.message) });
    assert.match(textOf(loaded), /- duet-badlib runs as bytecode \(3 files\): bad\.lisp does not compile natively/, textOf(loaded));
    assert.doesNotMatch(textOf(loaded), /Still compiling/);
    assert.ok(progress.some(m => /^Compiling natively in the background: duet-badlib (queued|starting|[0-3] of 3 files)/.test(m)),
              progress.join(' | '));
    assert.equal(loaded.structuredContent.libraries.find(l => l.system === 'duet-badlib').state, 'bytecode');
  });

  test('project-info tells each library\'s state, and the client heard their ends', async () => {
    let info;
    for (let i = 0; i < 600; ++i) {
      info = await call('project-info');
      const swaplib = info.structuredContent.libraries.systems.find(l => l.system === 'duet-swaplib');
      if (swaplib && swaplib.state === 'partial')
        break;
      await new Promise(done => setTimeout(done, 200));
    }
    assert.equal(info.structuredContent.libraries.available, true);
    assert.match(textOf(info), /- duet-swaplib runs partly native: 3 of 4 files run natively; 1 stays bytecode until the next engine start/,
                 textOf(info));
    assert.match(textOf(info), /- duet-badlib runs as bytecode \(3 files\): bad\.lisp does not compile natively/);
    assert.ok(logged.some(m => m.logger === 'libraries' && m.level === 'warning' && /duet-badlib runs as bytecode/.test(m.data)),
              JSON.stringify(logged));
    for (let i = 0; i < 50 && !logged.some(m => /duet-swaplib runs partly native/.test(m.data)); ++i)
      await new Promise(done => setTimeout(done, 100));
    assert.ok(logged.some(m => m.logger === 'libraries' && m.level === 'info' && /duet-swaplib runs partly native/.test(m.data)),
              JSON.stringify(logged));
  });
});
