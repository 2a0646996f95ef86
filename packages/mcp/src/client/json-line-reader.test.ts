import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { JsonLineReader, useJsonLineReader } from './json-line-reader.js';

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

function readAll(reader: JsonLineReader): unknown[] {
  const messages: unknown[] = [];
  for (let message = reader.readMessage(); message !== null; message = reader.readMessage()) {
    messages.push(message);
  }
  return messages;
}

describe('JsonLineReader', () => {
  it('hands on whole lines as they complete, across chunks and several in one chunk', () => {
    const reader = new JsonLineReader(1024);
    const first = { jsonrpc: '2.0', id: 1, result: { content: [] } };
    const second = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    const text = `${line(first)}${line(second).replace('\n', '\r\n')}`;
    reader.append(Buffer.from(text.slice(0, 10)));
    expect(readAll(reader)).toEqual([]);
    reader.append(Buffer.from(text.slice(10)));
    expect(readAll(reader)).toEqual([first, second]);
    expect(reader.readMessage()).toBeNull();
  });

  it('keeps multi-byte characters split between chunks whole', () => {
    const reader = new JsonLineReader(1024);
    const bytes = Buffer.from(line({ jsonrpc: '2.0', id: 2, result: { text: 'Grüße ✓' } }));
    const cut = bytes.indexOf(0xc3) + 1;
    reader.append(bytes.subarray(0, cut));
    reader.append(bytes.subarray(cut));
    expect(reader.readMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: { text: 'Grüße ✓' } });
  });

  it('throws past its size limit in the SDK reader’s words and forgets what it held', () => {
    const reader = new JsonLineReader(16);
    reader.append(Buffer.from('{"jsonrpc":'));
    expect(() => reader.append(Buffer.from('"2.0","id":1}'))).toThrow(
      'ReadBuffer exceeded maximum size of 16 bytes',
    );
    expect(reader.readMessage()).toBeNull();
  });

  it.each([
    ['text that is no JSON', 'not json'],
    ['a JSON array (a batch, which MCP does not use)', '[{"jsonrpc":"2.0","id":1,"result":{}}]'],
    ['a JSON string', '"text"'],
    ['null', 'null'],
    ['an object without jsonrpc 2.0', '{"id":1,"result":{}}'],
  ])('refuses %s, and reads the next line', (_name, text) => {
    const reader = new JsonLineReader(1024);
    reader.append(Buffer.from(`${text}\n${line({ jsonrpc: '2.0', id: 3, result: {} })}`));
    expect(() => reader.readMessage()).toThrow();
    expect(reader.readMessage()).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('takes the place of the SDK’s reader in a stdio transport', () => {
    // Fails if an SDK upgrade moves the reader: calls would then pay for the SDK's extra check again.
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--version'] });
    expect(useJsonLineReader(transport, 1024)).toBe(true);
    expect((transport as unknown as { _readBuffer: unknown })._readBuffer).toBeInstanceOf(JsonLineReader);
  });
});
