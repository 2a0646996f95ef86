import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { promptHidden } from './prompt-secret.js';

/** A stand-in terminal: a stream flagged as a TTY whose raw-mode switches are recorded. */
function fakeTerminal() {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    rawModes: [] as boolean[],
  }) as PassThrough & {
    isTTY: boolean;
    rawModes: boolean[];
    setRawMode(mode: boolean): unknown;
  };
  stdin.setRawMode = (mode: boolean) => {
    stdin.rawModes.push(mode);
    return stdin;
  };
  let written = '';
  const stderr = { write: (text: string) => (written += text) };
  const stdout = { write: (text: string) => (written += text) };
  return { streams: { stdin, stderr, stdout }, stdin, output: () => written };
}

describe('promptHidden', () => {
  it('reads a line in raw mode without echoing it, honouring backspace', async () => {
    const terminal = fakeTerminal();
    const answer = promptHidden('Token: ', terminal.streams as never);
    terminal.stdin.write('s3cret-tokeX');
    terminal.stdin.write('\u007fn\r');
    await expect(answer).resolves.toBe('s3cret-token');
    expect(terminal.output()).toBe('Token: \n');
    expect(terminal.stdin.rawModes).toEqual([true, false]);
  });

  it('aborts on Ctrl-C and leaves raw mode', async () => {
    const terminal = fakeTerminal();
    const answer = promptHidden('Token: ', terminal.streams as never);
    terminal.stdin.write('abc\u0003');
    await expect(answer).rejects.toMatchObject({ code: 'cancelled' });
    expect(terminal.stdin.rawModes).toEqual([true, false]);
    expect(terminal.output()).not.toContain('abc');
  });

  it('refuses to prompt without a terminal', async () => {
    const terminal = fakeTerminal();
    terminal.stdin.isTTY = false;
    await expect(promptHidden('Token: ', terminal.streams as never)).rejects.toMatchObject({
      code: 'invalid_usage',
    });
  });
});
