import { CliError } from './cli-error.js';
import type { CliStreams } from './runtime.js';

/**
 * Reads one line from a TTY without echoing it: raw mode, characters collected in memory,
 * nothing written back but the prompt and a newline. Ctrl-C aborts.
 */
export function promptHidden(question: string, streams: CliStreams): Promise<string> {
  const input = streams.stdin as NodeJS.ReadStream;
  if (!input.isTTY || typeof input.setRawMode !== 'function') {
    return Promise.reject(new CliError('invalid_usage', 'No terminal to prompt on.', 2));
  }
  streams.stderr.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      streams.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer) => {
      for (const character of chunk.toString('utf8')) {
        if (character === '\r' || character === '\n' || character === '\u0004') return finish();
        if (character === '\u0003') return finish(new CliError('cancelled', 'Cancelled.', 1));
        if (character === '\u007f' || character === '\b') value = value.slice(0, -1);
        else value += character;
      }
    };
    input.setRawMode(true);
    input.resume();
    input.on('data', onData);
  });
}

/** Reads one echoed line from a TTY (for non-secret fields). */
export function promptVisible(question: string, streams: CliStreams): Promise<string> {
  const input = streams.stdin as NodeJS.ReadStream;
  if (!input.isTTY) return Promise.reject(new CliError('invalid_usage', 'No terminal to prompt on.', 2));
  streams.stderr.write(question);
  return new Promise((resolve) => {
    let value = '';
    const onData = (chunk: Buffer) => {
      value += chunk.toString('utf8');
      const end = value.indexOf('\n');
      if (end >= 0) {
        input.off('data', onData);
        input.pause();
        resolve(value.slice(0, end).replace(/\r$/, ''));
      }
    };
    input.resume();
    input.on('data', onData);
  });
}
