// Agent access in the modes without a window (issue 19): the mode saved in the settings
// (`agents/accessMode`, what File ▸ Settings… writes) holds over `--headless --stdio` and in the
// app that `lisp-duet-bridge --launch` starts; `--access MODE` overrides it for one run; in Ask
// mode the person is asked through the client with MCP elicitation, the diff in the message.
// Real processes, the official SDK clients, a copy of tests/data/shapes as the project.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';

import { startHeadless, uniqueSocketName } from './headless.mjs';
import { binary, evaluate, isolatedEnv, testsDir, textOf } from './lib.mjs';

const NewFile = 'src/new.lisp';
const NewText = '(in-package :shapes)\n(defun new-thing () 42)\n';
const SquareMethod = 'defmethod area (square)';
const FixedSquare = '(defmethod area ((shape square))\n  (* (side shape) (side shape)))';

// A copy of the shapes project, and settings that say `mode` (undefined: none saved).
function workspace(savedMode) {
  const isolated = isolatedEnv();
  const project = join(mkdtempSync(join(tmpdir(), 'lisp-duet-access-')), 'shapes');
  cpSync(join(testsDir, 'data', 'shapes'), project, { recursive: true });
  if (savedMode) {
    const folder = join(isolated.env.XDG_CONFIG_HOME, 'lisp-duet');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'lisp-duet.conf'), `[agents]\naccessMode=${savedMode}\n`);
  }
  return {
    env: isolated.env,
    project,
    source: () => readFileSync(join(project, 'src', 'shapes.lisp'), 'utf8'),
    cleanup() {
      isolated.cleanup();
      rmSync(join(project, '..'), { recursive: true, force: true });
    },
  };
}

// An SDK 1.x client (the initialize handshake) on `lisp-duet --headless --stdio --project DIR`.
// `answer`: how the person answers elicitation ('accept', 'decline', or a function of the
// question that returns one), or undefined for a client that does not declare the capability;
// every question asked is kept in `questions`.
async function stdioClient(space, { args = [], answer } = {}) {
  const capabilities = answer ? { elicitation: { form: {} } } : {};
  const client = new Client({ name: 'access-e2e', version: '1.0.0' }, { capabilities });
  const questions = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async request => {
      questions.push(request.params);
      const action = typeof answer === 'function' ? answer(request.params) : answer;
      return action === 'accept' ? { action: 'accept', content: {} } : { action };
    });
  }
  const transport = new StdioClientTransport({ command: binary('lisp-duet'), args: ['--headless', '--stdio', '--project', space.project, ...args],
                                               env: space.env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', chunk => { stderr += chunk; });
  await client.connect(transport);
  return { client, questions, stderr: () => stderr };
}

const writeNewFile = client => client.callTool({ name: 'write-file', arguments: { path: NewFile, content: NewText, description: 'a new helper' } });
const fixSquare = client => client.callTool({ name: 'edit-form', arguments: { path: 'src/shapes.lisp', form: SquareMethod, text: FixedSquare,
                                                                             description: 'fix the area of a square' } });

describe('a saved Read-only holds without a window', () => {
  test('over --headless --stdio, write-file and edit-form are refused and nothing is written', async () => {
    const space = workspace('read-only');
    const before = space.source();
    const { client } = await stdioClient(space);
    try {
      const written = await writeNewFile(client);
      assert.equal(written.isError, true, textOf(written));
      assert.match(textOf(written), /read-only/);
      assert.match(textOf(written), /write-file/);
      assert.equal(existsSync(join(space.project, NewFile)), false);
      const edited = await fixSquare(client);
      assert.equal(edited.isError, true, textOf(edited));
      assert.match(textOf(edited), /read-only.*edit-form/s);
      assert.equal(space.source(), before);
      // Introspection still works: read-only, not closed.
      const viewed = await client.callTool({ name: 'view-lisp-file', arguments: { path: 'src/shapes.lisp' } });
      assert.equal(viewed.isError ?? false, false, textOf(viewed));
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('in the app lisp-duet-bridge --launch starts, write-file and edit-form are refused', async () => {
    const space = workspace('read-only');
    const before = space.source();
    const name = uniqueSocketName();
    // The project comes from the client's MCP roots: the launched app has no --project.
    const client = new Client({ name: 'claude-desktop', version: '1.0.0' }, { capabilities: { roots: {} } });
    let asked = false;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked = true;
      return { roots: [{ uri: `file://${space.project}`, name: 'shapes' }] };
    });
    try {
      await client.connect(new StdioClientTransport({ command: binary('lisp-duet-bridge'), args: ['--socket', name, '--launch'],
                                                      env: space.env, stderr: 'pipe' }));
      const deadline = Date.now() + 10000;
      let info = '';
      while (Date.now() < deadline) {
        info = textOf(await client.callTool({ name: 'project-info', arguments: {} }));
        if (asked && info.includes(space.project))
          break;
        await new Promise(r => setTimeout(r, 100));
      }
      assert.ok(info.includes(space.project), `the client's root became the project root:\n${info}`);
      const written = await writeNewFile(client);
      assert.equal(written.isError, true, textOf(written));
      assert.match(textOf(written), /read-only/);
      assert.equal(existsSync(join(space.project, NewFile)), false);
      const edited = await fixSquare(client);
      assert.equal(edited.isError, true, textOf(edited));
      assert.equal(space.source(), before);
      const evaluated = await evaluate(client, '(+ 1 2)');
      assert.equal(evaluated.isError, true);
      assert.match(textOf(evaluated), /read-only.*evaluate-lisp/s);
    } finally {
      await client.close();
      stopApps(name);
      space.cleanup();
    }
  });

  test('the debugger\'s tools: list-debuggers and debugger-frame run, debugger-eval and invoke-restart are refused', async () => {
    const space = workspace('read-only');
    const { client } = await stdioClient(space);
    try {
      const listed = await client.callTool({ name: 'list-debuggers', arguments: {} });
      assert.equal(listed.isError ?? false, false, textOf(listed));
      const frame = await client.callTool({ name: 'debugger-frame', arguments: { debugger_id: 1, frame: 0 } });
      assert.match(textOf(frame), /debugger 1/); // it ran, and says there is no such debugger
      assert.doesNotMatch(textOf(frame), /read-only/);
      for (const [name, args] of [['debugger-eval', { debugger_id: 1, code: '(+ 1 2)' }],
                                  ['invoke-restart', { debugger_id: 1, restart: 'ABORT' }]]) {
        const refused = await client.callTool({ name, arguments: args });
        assert.equal(refused.isError, true, name);
        assert.match(textOf(refused), new RegExp(`read-only.*${name}`, 's'));
      }
    } finally {
      await client.close();
      space.cleanup();
    }
  });
});

describe('Paused and --access without a window', () => {
  test('a saved Paused refuses every call, even introspection', async () => {
    const space = workspace('paused');
    const { client } = await stdioClient(space);
    try {
      for (const result of [await evaluate(client, '(+ 1 2)'), await writeNewFile(client),
                            await client.callTool({ name: 'describe-symbol', arguments: { symbol: 'car' } })]) {
        assert.equal(result.isError, true);
        assert.match(textOf(result), /^The person has paused agent access/);
      }
      assert.equal(existsSync(join(space.project, NewFile)), false);
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('--access allow overrides a saved Read-only for this run, and the setting stays', async () => {
    const space = workspace('read-only');
    const { client } = await stdioClient(space, { args: ['--access', 'allow'] });
    try {
      const written = await writeNewFile(client);
      assert.equal(written.isError ?? false, false, textOf(written));
      assert.equal(readFileSync(join(space.project, NewFile), 'utf8'), NewText);
      assert.match(readFileSync(join(space.env.XDG_CONFIG_HOME, 'lisp-duet', 'lisp-duet.conf'), 'utf8'), /accessMode=read-only/);
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('--access read-only refuses what a saved Allow would let through', async () => {
    const space = workspace(undefined);
    const { client } = await stdioClient(space, { args: ['--access', 'read-only'] });
    try {
      const written = await writeNewFile(client);
      assert.equal(written.isError, true);
      assert.equal(existsSync(join(space.project, NewFile)), false);
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('--access with an unknown mode says which modes there are', () => {
    const isolated = isolatedEnv();
    try {
      execFileSync(binary('lisp-duet'), ['--headless', '--stdio', '--access', 'sometimes'], { env: isolated.env, stdio: 'pipe' });
      assert.fail('lisp-duet accepted --access sometimes');
    } catch (error) {
      assert.equal(error.status, 2);
      assert.match(error.stderr.toString(), /--access must be allow, ask, read-only or paused, not 'sometimes'/);
    } finally {
      isolated.cleanup();
    }
  });
});

describe('Ask without a window asks the person through the client (MCP elicitation)', () => {
  test('accepted: the file is written, and the question showed the diff', async () => {
    const space = workspace('ask');
    const { client, questions } = await stdioClient(space, { answer: 'accept' });
    try {
      const written = await writeNewFile(client);
      assert.equal(written.isError ?? false, false, textOf(written));
      assert.equal(readFileSync(join(space.project, NewFile), 'utf8'), NewText);
      assert.equal(questions.length, 1);
      assert.equal(questions[0].mode ?? 'form', 'form');
      assert.match(questions[0].message, /access-e2e wants to create src\/new\.lisp with write-file/);
      assert.match(questions[0].message, /a new helper/);
      assert.match(questions[0].message, /^\+\(defun new-thing \(\) 42\)$/m);
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('declined: nothing is written and the agent reads that the person denied it', async () => {
    const space = workspace('ask');
    const before = space.source();
    const { client, questions } = await stdioClient(space, { answer: 'decline' });
    try {
      const edited = await fixSquare(client);
      assert.equal(edited.isError, true);
      assert.match(textOf(edited), /looked at your change to src\/shapes\.lisp and denied it/);
      assert.equal(space.source(), before);
      assert.equal(questions.length, 1);
      assert.match(questions[0].message, /^-  \(\* 2 \(side shape\)\)\)$/m, questions[0].message);
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('an evaluation asks with its code, and runs once accepted', async () => {
    const space = workspace('ask');
    const { client, questions } = await stdioClient(space, { answer: 'accept' });
    try {
      const result = await evaluate(client, '(* 6 7)', { description: 'the answer' });
      assert.equal(textOf(result), '=> 42');
      assert.equal(questions.length, 1);
      assert.match(questions[0].message, /access-e2e wants to run evaluate-lisp/);
      assert.match(questions[0].message, /\(\* 6 7\)/);
      // Read-only tools never ask.
      await client.callTool({ name: 'describe-symbol', arguments: { symbol: 'car' } });
      assert.equal(questions.length, 1);
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('the debugger: looking never asks, debugger-eval asks with its code, invoke-restart with the choice', async () => {
    const space = workspace('ask');
    // The person declines the first restart chosen, then accepts everything.
    let declinedOnce = false;
    const { client, questions } = await stdioClient(space, {
      answer: question => {
        if (!declinedOnce && /invoke-restart/.test(question.message)) {
          declinedOnce = true;
          return 'decline';
        }
        return 'accept';
      },
    });
    try {
      // Interpreted functions keep their frames: (PICK 7) is frame 0, (DOUBLE-PICK 7) frame 1.
      const defined = await evaluate(client, '(defun pick (i) (restart-case (error "bad record ~D" i) (use-value (v) :report "Use a value." v)))\n'
                                             + '(defun double-pick (i) (* 2 (pick i)))');
      assert.equal(defined.isError ?? false, false, textOf(defined));
      const parked = await evaluate(client, '(double-pick 7)', { debug: true });
      assert.equal(parked.structuredContent.status, 'parked', textOf(parked));
      assert.equal(questions.length, 2);
      const id = parked.structuredContent.debugger.id;

      for (const [name, args] of [['list-debuggers', {}], ['debugger-frame', { debugger_id: id, frame: 1 }]]) {
        const looked = await client.callTool({ name, arguments: args });
        assert.equal(looked.isError ?? false, false, `${name}: ${textOf(looked)}`);
      }
      assert.equal(questions.length, 2, 'list-debuggers and debugger-frame only read: nobody is asked');

      const evaluated = await client.callTool({ name: 'debugger-eval', arguments: { debugger_id: id, frame: 0, code: '(* 3 i)' } });
      assert.equal(textOf(evaluated), '=> 21');
      assert.equal(questions.length, 3);
      assert.match(questions[2].message, /access-e2e wants to run debugger-eval\n\n\(\* 3 i\)/);

      const denied = await client.callTool({ name: 'invoke-restart', arguments: { debugger_id: id, restart: 'USE-VALUE', arguments: ['21'] } });
      assert.equal(denied.isError, true);
      assert.match(textOf(denied), /denied/);
      assert.match(questions[3].message,
                   new RegExp(`It will choose restart USE-VALUE \\(21\\) \\(Use a value\\.\\) in debugger ${id}, continuing access-e2e's evaluation`));
      const still = await client.callTool({ name: 'list-debuggers', arguments: {} });
      assert.equal(still.structuredContent.debuggers.length, 1, 'a denied choice leaves the evaluation parked');

      const continued = await client.callTool({ name: 'invoke-restart', arguments: { debugger_id: id, restart: 'USE-VALUE', arguments: ['21'] } });
      assert.equal(continued.content[0].text, '=> 42');
      assert.equal(questions.length, 5);
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('a client without elicitation is refused with how to allow it', async () => {
    const space = workspace('ask');
    const { client } = await stdioClient(space);
    try {
      const written = await writeNewFile(client);
      assert.equal(written.isError, true);
      assert.match(textOf(written), /Ask/);
      assert.match(textOf(written), /elicitation/);
      assert.match(textOf(written), /--access allow/);
      assert.equal(existsSync(join(space.project, NewFile)), false);
    } finally {
      await client.close();
      space.cleanup();
    }
  });

  test('a 2026-07-28 client is asked with an input_required result and its retry decides', async () => {
    for (const answer of ['accept', 'decline']) {
      const space = workspace('ask');
      const client = new ModernClient({ name: 'modern-access', version: '2.0.0' },
                                      { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } },
                                        inputRequired: { autoFulfill: true } });
      const questions = [];
      client.setRequestHandler('elicitation/create', async request => {
        questions.push(request.params);
        return answer === 'accept' ? { action: 'accept', content: {} } : { action: 'decline' };
      });
      try {
        await client.connect(new ModernStdioTransport({ command: binary('lisp-duet'),
                                                         args: ['--headless', '--stdio', '--project', space.project], env: space.env }));
        assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
        const written = await writeNewFile(client);
        assert.equal(questions.length, 1, answer);
        assert.match(questions[0].message, /modern-access wants to create src\/new\.lisp/);
        if (answer === 'accept') {
          assert.equal(written.isError ?? false, false, textOf(written));
          assert.equal(readFileSync(join(space.project, NewFile), 'utf8'), NewText);
        } else {
          assert.equal(written.isError, true);
          assert.match(textOf(written), /denied it/);
          assert.equal(existsSync(join(space.project, NewFile)), false);
        }
      } finally {
        await client.close();
        space.cleanup();
      }
    }
  });
});

describe('Ask over HTTP without a window', () => {
  let space;
  let server;
  before(async () => {
    space = workspace(undefined);
    server = await startHeadless({ args: ['--access', 'ask', '--project', space.project] });
  });
  after(async () => {
    await server?.stop();
    space?.cleanup();
  });

  test('a handshake client is asked on its event stream and its accept writes the file', async () => {
    const client = new Client({ name: 'http-access', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const questions = [];
    client.setRequestHandler(ElicitRequestSchema, async request => {
      questions.push(request.params);
      return { action: 'accept', content: {} };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
    try {
      const written = await writeNewFile(client);
      assert.equal(written.isError ?? false, false, textOf(written));
      assert.equal(readFileSync(join(space.project, NewFile), 'utf8'), NewText);
      assert.equal(questions.length, 1);
      assert.match(questions[0].message, /http-access wants to create src\/new\.lisp/);
    } finally {
      await client.close();
    }
  });

  test('a 2026-07-28 client is asked with input_required, statelessly, and a decline writes nothing', async () => {
    const client = new ModernClient({ name: 'modern-http', version: '2.0.0' },
                                    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } },
                                      inputRequired: { autoFulfill: true } });
    const questions = [];
    client.setRequestHandler('elicitation/create', async request => {
      questions.push(request.params);
      return { action: 'decline' };
    });
    await client.connect(new ModernHttpTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
    try {
      const before = space.source();
      const edited = await fixSquare(client);
      assert.equal(edited.isError, true);
      assert.match(textOf(edited), /denied it/);
      assert.equal(questions.length, 1);
      assert.match(questions[0].message, /^-  \(\* 2 \(side shape\)\)\)$/m);
      assert.equal(space.source(), before);
    } finally {
      await client.close();
    }
  });
});

// Apps started by --launch outlive their bridges, as they should: stop the one of this test.
function stopApps(name) {
  let pids = [];
  try {
    pids = execFileSync('pgrep', ['-f', '--', `lisp-duet --headless --socket ${name}`]).toString().trim().split('\n').filter(Boolean);
  } catch {
    return;
  }
  for (const pid of pids)
    process.kill(Number(pid), 'SIGTERM');
}
