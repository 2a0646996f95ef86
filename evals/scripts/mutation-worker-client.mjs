// @ts-check
// Starting and driving the mutation worker (mutation-worker.mjs): used by Stryker's `patchbay-eval`
// test runner (evals/mutation/eval-test-runner.mjs) and by mutation-recheck.mjs.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const workerFile = fileURLToPath(new URL('./mutation-worker.mjs', import.meta.url));

/**
 * A forked worker with its load finished.
 * @typedef {{ child: import('node:child_process').ChildProcess, ids: string[], runs: number }} Worker
 */

/**
 * @param {string | undefined} staticMutant
 * @returns {Promise<Worker>}
 */
export function startWorker(staticMutant) {
  const env = { ...process.env };
  delete env.__STRYKER_ACTIVE_MUTANT__;
  if (staticMutant !== undefined) env.__STRYKER_ACTIVE_MUTANT__ = staticMutant;
  // The worker runs the built packages (Stryker's instrumented build): none of the caller's Node flags,
  // such as the `@patchbay/source` condition a vitest worker runs with.
  if (env.NODE_OPTIONS) env.NODE_OPTIONS = env.NODE_OPTIONS.replace(/(^|\s)(--conditions|-C)[= ]\S+/g, '');
  const child = fork(workerFile, [], { env, execArgv: [], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  return new Promise((resolve, reject) => {
    const onExit = (code) =>
      reject(new Error(`the eval worker exited (${code}) before it was ready: ${stderr}`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve({ child, ids: message.ids, runs: 0 });
    });
  });
}

/**
 * Sends one run to the worker; resolves with its answer, or `undefined` when `timeoutMs` passed first
 * (the worker is then killed).
 * @param {Worker} worker
 * @param {object} request
 * @param {number} timeoutMs
 */
export function runOn(worker, request, timeoutMs) {
  worker.runs += 1;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      worker.child.kill('SIGKILL');
      resolve(undefined);
    }, timeoutMs);
    const onMessage = (message) => {
      cleanup();
      if (message.type === 'error') reject(new Error(message.message));
      else resolve(message);
    };
    const onExit = (code) => {
      cleanup();
      reject(new Error(`the eval worker exited (${code}) during a run`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      worker.child.off('message', onMessage);
      worker.child.off('exit', onExit);
    };
    worker.child.on('message', onMessage);
    worker.child.once('exit', onExit);
    worker.child.send({ type: 'run', ...request });
  });
}
