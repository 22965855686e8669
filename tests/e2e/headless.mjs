// `lisp-duet --headless` (HTTP + local socket) for end-to-end tests: a free port, a unique
// socket name, isolated XDG folders, the bearer token, and a clean stop.

import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';

import { binary, exited, isolatedEnv } from './lib.mjs';

export async function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

let counter = 0;
export function uniqueSocketName() {
  return `lisp-duet-e2e-${process.pid}-${Date.now()}-${counter++}`;
}

// Starts the app and resolves once it says where it serves. `noAuth` passes --no-auth; `env`
// is added to its environment (e.g. another machine's LISP_DUET_RUNTIME_ROOT).
export async function startHeadless({ noAuth = false, args = [], env = {} } = {}) {
  const isolated = isolatedEnv(env);
  const port = await freePort();
  const socketName = uniqueSocketName();
  const token = noAuth ? '' : execFileSync(binary('lisp-duet'), ['--print-token'], { env: isolated.env }).toString().trim();
  const child = spawn(binary('lisp-duet'),
                      ['--headless', '--port', String(port), '--socket', socketName, ...(noAuth ? ['--no-auth'] : []), ...args],
                      { env: isolated.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', chunk => { stderr += chunk; });
  let socketPath;
  await new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`lisp-duet --headless did not start:\n${stderr}`)), 15000);
    const check = () => {
      const listening = /MCP over the local socket (\/.+?) \(lisp-duet-bridge\)\n/.exec(stderr);
      if (listening) {
        socketPath = listening[1];
        clearTimeout(timer);
        child.stderr.off('data', check);
        resolveReady();
      }
    };
    child.stderr.on('data', check);
    child.once('exit', code => { clearTimeout(timer); reject(new Error(`lisp-duet exited with ${code}:\n${stderr}`)); });
  });
  child.removeAllListeners('exit');
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    socketName,
    socketPath, // where the app chose to listen (RuntimeDirectory), as it printed it
    token,
    env: isolated.env,
    stderr: () => stderr,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const result = await exited(child, 15000);
        isolated.cleanup();
        return result;
      }
      isolated.cleanup();
      return { code: child.exitCode, signal: child.signalCode };
    },
  };
}
