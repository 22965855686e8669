// The person's own editor in the shared session (issue 31), end to end with the real clients:
// `lisp-duet --headless --swank 0`, Debian's Emacs and SLIME in batch mode
// (tests/editor/slime-session.el: connect with ~/.slime-secret, C-x C-e, C-c C-c, C-c C-k, the
// REPL, an error in SLDB) and the official MCP SDK client as an agent on the same session: the
// agent's definition is there for Emacs, the editor's error is in list-debuggers, the editor's
// definition is callable and the agent's digest tells of it; a client without the secret is
// refused; the compilation policy is the same as without Swank; the person's init file and
// their library folders; and, without a secret, how to make one. HOME is the test's own.
// The Emacs tests are skipped where emacs-nox and slime are not installed.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startHeadless } from './headless.mjs';
import { evaluate, repoDir, textOf } from './lib.mjs';

const hasEmacs = existsSync('/usr/bin/emacs') && existsSync('/usr/share/emacs/site-lisp/elpa/slime-2.27/slime-autoloads.el');
const POLICY = '(progn (require :cmp) (list c::*safety* c::*speed* c::*debug* c::*space*))';

function folder(prefix) {
  const path = mkdtempSync(join(tmpdir(), prefix));
  process.once('exit', () => rmSync(path, { recursive: true, force: true }));
  return path;
}

function homeWithSecret() {
  const home = folder('lisp-duet-editor-home-');
  writeFileSync(join(home, '.slime-secret'), randomBytes(32).toString('base64') + '\n', { mode: 0o600 });
  return home;
}

async function connectHttp(server, name) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers } }));
  return client;
}

// The port the app printed: "Swank (SLIME, slimv) at 127.0.0.1:PORT".
async function swankPort(server, ms = 60000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = /Swank \(SLIME, slimv\) at 127\.0\.0\.1:(\d+); in Emacs: M-x slime-connect RET 127\.0\.0\.1 RET (\d+)/.exec(server.stderr());
    if (found) {
      assert.equal(found[1], found[2]);
      return Number(found[1]);
    }
    if (Date.now() > deadline)
      throw new Error(`no Swank line on stderr:\n${server.stderr()}`);
    await new Promise(r => setTimeout(r, 100));
  }
}

// Emacs in batch mode running slime-session.el; `steps` holds its "DUET STEP text" lines.
function startEmacs({ home, port, expectRefused = false }) {
  const env = { ...process.env, HOME: home, SWANK_PORT: String(port), DUET_SIGNALS: home };
  if (expectRefused)
    env.DUET_EXPECT_REFUSED = '1';
  const child = spawn('emacs', ['--batch', '-l', join(repoDir, 'tests', 'editor', 'slime-session.el')], { env });
  const run = { child, output: '', steps: {} };
  const read = chunk => {
    run.output += chunk;
    for (const line of run.output.split('\n').slice(0, -1)) { // whole lines only
      const step = /^DUET (\S+) ?(.*)$/.exec(line);
      if (step && !(step[1] in run.steps))
        run.steps[step[1]] = step[2];
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  run.done = new Promise(resolveDone => child.once('exit', resolveDone));
  run.step = async (name, ms = 90000) => {
    const deadline = Date.now() + ms;
    while (!(name in run.steps)) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`Emacs never said ${name}:\n${run.output}`);
      await new Promise(r => setTimeout(r, 100));
    }
    return run.steps[name];
  };
  return run;
}

describe('the person\'s Emacs and an agent in one session', { skip: !hasEmacs && 'Debian\'s emacs-nox and slime are not installed' }, () => {
  let server;
  let agent;
  let home;
  let port;

  before(async () => {
    home = homeWithSecret();
    server = await startHeadless({ args: ['--swank', '0'], env: { HOME: home } });
    port = await swankPort(server);
    agent = await connectHttp(server, 'claude-code');
  });
  after(async () => {
    await agent?.close();
    const result = await server?.stop();
    assert.equal(result?.code, 0, `lisp-duet ended with ${JSON.stringify(result)}:\n${server?.stderr()}`);
  });

  test('project-info tells the agent where the editor connects', async () => {
    const info = await agent.callTool({ name: 'project-info', arguments: {} });
    assert.match(textOf(info), new RegExp(`The person's editor: Swank at 127\\.0\\.0\\.1:${port} \\(SLIME, slimv\\); no editor connected now`));
    assert.equal(info.structuredContent.editor.state, 'listening');
    assert.equal(info.structuredContent.editor.port, port);
    assert.equal(info.structuredContent.editor.connect, `M-x slime-connect RET 127.0.0.1 RET ${port}`);
  });

  test('Emacs and the agent see each other\'s work, and the editor\'s error in the shared debugger', async () => {
    assert.equal(textOf(await evaluate(agent, '(defun agent-fn (x) (list :agent x))')), '=> AGENT-FN');
    const emacs = startEmacs({ home, port });
    assert.equal(await emacs.step('CONNECTED'), '*slime-repl ECL*');
    assert.equal(await emacs.step('EVAL'), '=> 3 (2 bits, #x3, #o3, #b11)');
    assert.equal(await emacs.step('AGENT'), '=> (:AGENT 2)');
    assert.equal(await emacs.step('COMPILED'), 't');
    assert.equal(await emacs.step('CALL'), '=> (15 T)');
    assert.equal(await emacs.step('FILE'), '=> :FILE');
    assert.equal(await emacs.step('REPL'), 't');
    assert.match(await emacs.step('SLDB-OPEN'), /from the editor/);

    // The agent sees the editor's error, parked, and whose it is.
    const debuggers = await agent.callTool({ name: 'list-debuggers', arguments: {} });
    assert.match(textOf(debuggers), /the person's \(in Emacs\)/);
    assert.match(textOf(debuggers), /from the editor/);
    const info = await agent.callTool({ name: 'project-info', arguments: {} });
    assert.match(textOf(info), /connected now: the person, in Emacs \(127\.0\.0\.1:\d+\)/);
    writeFileSync(join(home, 'agent-looked'), 'yes');

    assert.equal(await emacs.step('SLDB-CLOSED'), 't');
    assert.equal(await emacs.step('AFTER'), '=> 42 (6 bits, #x2A, #o52, #b101010)');
    await emacs.step('DONE');
    await emacs.done;
    assert.ok(!('ELISP-ERROR' in emacs.steps), emacs.output);

    // What Emacs compiled is the agent's to call, and its digests (each call's: what
    // happened since the one before) tell who did what.
    const call = await evaluate(agent, '(emacs-compiled 5)');
    assert.equal(call.content[0].text, '=> 15');
    const digest = [debuggers, info, call].map(result => result.content.slice(1).map(part => part.text).join('\n')).join('\n');
    assert.match(digest, /\[Session activity since your last call\]/);
    assert.match(digest, /- the person, in Emacs at \d\d:\d\d:\d\d \(compiled a form\): \(defun emacs-compiled \(x\) \(\* x 3\)\) => EMACS-COMPILED/);
    assert.match(digest, /- the person, in Emacs at .* \(at the REPL\): /);
    const activity = [debuggers, call].flatMap(result => result.structuredContent?.session_activity ?? []);
    assert.ok(activity.some(entry => entry.kind === 'editor' && entry.who === 'the person, in Emacs'), JSON.stringify(activity));
    assert.match(server.stderr(), /Emacs connected from 127\.0\.0\.1:\d+ \(Swank\)/);

    // The journal keeps the editor's jobs with their origin and kind.
    const journals = join(server.env.XDG_DATA_HOME, 'lisp-duet', 'lisp-duet', 'journals');
    const journal = readdirSync(journals).map(name => readFileSync(join(journals, name), 'utf8')).join('');
    const compiled = journal.split('\n').filter(line => line.includes('"tool":"compile-string"'));
    assert.equal(compiled.length, 1, journal);
    assert.match(compiled[0], /"origin":\{"client":"editor:\d+","kind":"editor","name":"the person, in Emacs"\}/);

    // The ledger has it as the person's, in Emacs: history (and revert) work on it.
    const history = await agent.callTool({ name: 'definition-history', arguments: { name: 'emacs-compiled' } });
    assert.match(textOf(history), /the person, in Emacs/, textOf(history));
  });

  test('a client without the secret is refused', async () => {
    const stranger = startEmacs({ home: folder('lisp-duet-editor-stranger-'), port, expectRefused: true });
    assert.equal(await stranger.step('CLOSED'), 't');
    await stranger.done;
    const deadline = Date.now() + 10000;
    while (!/an editor at 127\.0\.0\.1:\d+ was refused: It did not send the secret first/.test(server.stderr()) && Date.now() < deadline)
      await new Promise(r => setTimeout(r, 100));
    assert.match(server.stderr(), /an editor at 127\.0\.0\.1:\d+ was refused: It did not send the secret first/);
  });

  test('the compilation policy is the one without Swank', async () => {
    const withSwank = textOf(await evaluate(agent, POLICY)).split('\n')[0];
    const plain = await startHeadless();
    try {
      const other = await connectHttp(plain, 'policy-check');
      assert.equal(textOf(await evaluate(other, POLICY)).split('\n')[0], withSwank);
      await other.close();
    } finally {
      await plain.stop();
    }
  });
});

describe('the person\'s init file and library folders, told to the agent', () => {
  let server;
  let agent;
  let config;

  before(async () => {
    const home = folder('lisp-duet-init-home-');
    config = folder('lisp-duet-init-config-');
    // A system where Lisp users keep them (~/common-lisp/), and a source tree that a
    // setup.lisp-style file registers, as Quicklisp's does (offline: no network).
    mkdirSync(join(home, 'common-lisp', 'homelib'), { recursive: true });
    writeFileSync(join(home, 'common-lisp', 'homelib', 'homelib.asd'), '(defsystem "homelib" :components ((:file "homelib")))\n');
    writeFileSync(join(home, 'common-lisp', 'homelib', 'homelib.lisp'), '(defpackage "HOMELIB" (:use "CL") (:export "HELLO"))\n(in-package "HOMELIB")\n(defun hello () :from-home)\n');
    const tree = join(home, 'quicklisp', 'local-projects', 'treelib');
    mkdirSync(tree, { recursive: true });
    writeFileSync(join(tree, 'treelib.asd'), '(defsystem "treelib" :components ((:file "treelib")))\n');
    writeFileSync(join(tree, 'treelib.lisp'), '(defpackage "TREELIB" (:use "CL") (:export "HELLO"))\n(in-package "TREELIB")\n(defun hello () :from-tree)\n');
    writeFileSync(join(home, 'quicklisp', 'setup.lisp'),
                  `(require :asdf)\n(asdf:initialize-source-registry '(:source-registry (:tree ${JSON.stringify(join(home, 'quicklisp', 'local-projects') + '/')}) :inherit-configuration))\n`);
    mkdirSync(join(config, 'lisp-duet'), { recursive: true });
    writeFileSync(join(config, 'lisp-duet', 'init.lisp'),
                  `(load ${JSON.stringify(join(home, 'quicklisp', 'setup.lisp'))})\n(defvar *from-init* :yes)\n(error "init went wrong")\n(defvar *after-the-error* t)\n`);
    server = await startHeadless({ env: { HOME: home, XDG_CONFIG_HOME: config } });
    agent = await connectHttp(server, 'claude-code');
  });
  after(async () => {
    await agent?.close();
    await server?.stop();
  });

  test('an init file that fails is told in the first digest and project-info, and the session serves', async () => {
    const result = await evaluate(agent, '(list *from-init* (boundp \'*after-the-error*))');
    assert.equal(result.content[0].text, '=> (:YES NIL)');
    assert.match(result.content[1]?.text ?? '', /- init file at \d\d:\d\d:\d\d \(loading .*init\.lisp\): load-init .*init went wrong/);
    const info = await agent.callTool({ name: 'project-info', arguments: {} });
    assert.match(textOf(info), /The person's init file .*init\.lisp failed: SIMPLE-ERROR: init went wrong The session runs without the rest of it\./);
    assert.equal(info.structuredContent.init_files[0].status, 'failed');
    assert.match(server.stderr(), /Your init file .*init\.lisp failed: SIMPLE-ERROR: init went wrong/);
  });

  test('load-system finds ~/common-lisp/ and what the init file registered', async () => {
    const home = await agent.callTool({ name: 'load-system', arguments: { system: 'homelib' } });
    assert.doesNotMatch(textOf(home), /ERROR/, textOf(home));
    assert.equal(textOf(await evaluate(agent, '(homelib:hello)')).split('\n')[0], '=> :FROM-HOME');
    const tree = await agent.callTool({ name: 'load-system', arguments: { system: 'treelib' } });
    assert.doesNotMatch(textOf(tree), /ERROR/, textOf(tree));
    assert.equal(textOf(await evaluate(agent, '(treelib:hello)')).split('\n')[0], '=> :FROM-TREE');
  });
});

describe('--swank without a secret', () => {
  test('says how to make one and serves without Swank', async () => {
    const server = await startHeadless({ args: ['--swank', '0'], env: { HOME: folder('lisp-duet-nosecret-') } });
    try {
      const deadline = Date.now() + 10000;
      while (!/Swank for your editor is off/.test(server.stderr()) && Date.now() < deadline)
        await new Promise(r => setTimeout(r, 100));
      assert.match(server.stderr(), /Swank for your editor is off: There is no .*\.slime-secret/);
      assert.match(server.stderr(), /\(umask 077; head -c 32 \/dev\/urandom \| base64 > .*\.slime-secret\)/);
      const agent = await connectHttp(server, 'claude-code');
      assert.equal(textOf(await evaluate(agent, '(find-package "SWANK")')).split('\n')[0], '=> NIL');
      const info = await agent.callTool({ name: 'project-info', arguments: {} });
      assert.equal(info.structuredContent.editor.state, 'no-secret');
      await agent.close();
      assert.doesNotMatch(server.stderr(), /Swank \(SLIME, slimv\) at/);
    } finally {
      await server.stop();
    }
  });
});
