import type { AnyTool, ToolContext } from '@patchbay/connector';
import { defineTool } from '@patchbay/connector';
import { HttpError, isEnvelope, success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeTool } from './invoke-tool.js';

const token = 'xoxb-fixture-credential-value-0001';
const context: ToolContext = {
  subject: 'user-1',
  credentials: { token },
  scopes: ['chat:write'],
  signal: new AbortController().signal,
  correlationId: 'c-1',
};

const input = z.object({
  channel: z.string().describe('Channel id').meta({ question: 'Which channel should I post to?' }),
  text: z.string().describe('Message text'),
  urgent: z.boolean().describe('Whether to mention everyone').optional(),
});

function postMessage(execute: AnyTool['execute']): AnyTool {
  return {
    ...defineTool({
      name: 'slack_post_message',
      description: 'Posts a message to a Slack channel.',
      input,
      effect: 'write',
      execute,
    }),
    connectorId: 'slack',
  };
}

const echo = postMessage(async (value) => success({ posted: value.text }));

describe('invokeTool', () => {
  it('runs execute with the parsed input and returns its envelope with meta', async () => {
    const envelope = await invokeTool(echo, { channel: 'C1', text: 'hi' }, context);
    expect(envelope).toEqual({
      ok: true,
      data: { posted: 'hi' },
      meta: { tool: 'slack_post_message', correlation_id: 'c-1' },
    });
  });

  it('a missing field → needs_input with the question from .meta({ question })', async () => {
    const envelope = await invokeTool(echo, { text: 'hi' }, context);
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'needs_input',
      connector: 'slack',
      missing: [{ field: 'channel', question: 'Which channel should I post to?' }],
      user_message: 'Which channel should I post to?',
    });
  });

  it('a missing field without a question → a question derived from its description', async () => {
    const envelope = await invokeTool(echo, { channel: 'C1' }, context);
    expect(envelope).toMatchObject({
      error_type: 'needs_input',
      missing: [{ field: 'text', question: 'What should I use for text (message text)?' }],
    });
  });

  it('no input at all → needs_input for every required field', async () => {
    const envelope = await invokeTool(echo, undefined, context);
    expect(envelope).toMatchObject({ error_type: 'needs_input' });
    if (!envelope.ok) expect(envelope.missing?.map((field) => field.field)).toEqual(['channel', 'text']);
  });

  it('a wrong type → invalid_arguments naming the path', async () => {
    const envelope = await invokeTool(echo, { channel: 'C1', text: 'hi', urgent: 'yes' }, context);
    expect(envelope).toMatchObject({
      error_type: 'invalid_arguments',
      issues: [{ path: 'urgent', message: expect.stringContaining('expected boolean') }],
    });
    if (!envelope.ok) expect(envelope).not.toHaveProperty('missing');
  });

  it('never runs execute when the input is invalid', async () => {
    let calls = 0;
    const tool = postMessage(async () => {
      calls += 1;
      return success(null);
    });
    await invokeTool(tool, { channel: 42 }, context);
    expect(calls).toBe(0);
  });

  it('execute throwing an error that contains the credential → an envelope without it', async () => {
    const tool = postMessage(async () => {
      throw new HttpError({
        status: 403,
        body: { ok: false, error: 'not_allowed', message: `token ${token} may not post here` },
      });
    });
    const envelope = await invokeTool(tool, { channel: 'C1', text: 'hi' }, context);
    expect(envelope).toMatchObject({ error_type: 'permission_denied', connector: 'slack' });
    expect(JSON.stringify(envelope)).not.toContain(token);
  });

  it('execute throwing a plain error with the credential → internal_error without it', async () => {
    const tool = postMessage(async () => {
      throw new Error(`request with ${token} failed at /srv/app.js:1`);
    });
    const envelope = await invokeTool(tool, { channel: 'C1', text: 'hi' }, context);
    expect(envelope).toMatchObject({ error_type: 'internal_error' });
    expect(JSON.stringify(envelope)).not.toMatch(/fixture-credential|\/srv\//);
  });

  it('execute returning the credential inside data → redacted', async () => {
    const tool = postMessage(async () => success({ echoed: `auth=${token}` }));
    const envelope = await invokeTool(tool, { channel: 'C1', text: 'hi' }, context);
    expect(envelope.ok).toBe(true);
    expect(JSON.stringify(envelope)).not.toContain(token);
  });

  it('execute returning a non-envelope → internal_error', async () => {
    const tool = postMessage((async () => ({ posted: true })) as unknown as AnyTool['execute']);
    const envelope = await invokeTool(tool, { channel: 'C1', text: 'hi' }, context);
    expect(envelope).toMatchObject({ ok: false, error_type: 'internal_error', connector: 'slack' });
  });

  it('a throwing input transform → an envelope, not a rejection', async () => {
    const tool = {
      ...defineTool({
        name: 'slack_lookup_user',
        description: 'Looks up a Slack user by email.',
        input: z.object({
          email: z
            .string()
            .describe('Email address')
            .transform(() => {
              throw new Error('transform crashed');
            }),
        }),
        effect: 'read',
        execute: async () => success(null),
      }),
      connectorId: 'slack',
    };
    const envelope = await invokeTool(tool, { email: 'a@b.test' }, context);
    expect(isEnvelope(envelope)).toBe(true);
    expect(envelope).toMatchObject({ error_type: 'internal_error' });
  });
});

describe('invokeTool: a connection lost during a write (a real server, the real fetch)', () => {
  /** A server that reads each request whole, counts it, then drops the connection without answering. */
  async function droppingServer() {
    const { createServer } = await import('node:http');
    let received = 0;
    const server = createServer((request) => {
      request.resume();
      request.on('end', () => {
        received += 1;
        request.socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      url: `http://127.0.0.1:${port}/chat.postMessage`,
      received: () => received,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  const posting = (url: string, effect: 'read' | 'write') => ({
    ...defineTool({
      name: effect === 'write' ? 'slack_post_message' : 'slack_read_channel',
      description: 'Calls the service.',
      input: z.object({ text: z.string().describe('Text') }),
      effect,
      execute: async ({ text }) => {
        await fetch(url, { method: 'POST', body: JSON.stringify({ text }) });
        return success({ sent: true });
      },
    }),
    connectorId: 'slack',
  });

  it('answers a write the service received as not retryable, a read as retryable', async () => {
    const service = await droppingServer();
    try {
      const write = await invokeTool(posting(service.url, 'write'), { text: 'hi' }, context);
      // The service got the request: telling the model to send it again could post the message twice.
      expect(service.received()).toBe(1);
      expect(write).toMatchObject({ ok: false, error_type: 'network_error', retryable: false });
      expect(write.ok === false && write.user_message).toContain('It may still have taken effect');
      const read = await invokeTool(posting(service.url, 'read'), { text: 'hi' }, context);
      expect(read).toMatchObject({ ok: false, error_type: 'network_error', retryable: true });
    } finally {
      await service.close();
    }
  });

  it('keeps a write retryable when the request never left (connection refused)', async () => {
    const service = await droppingServer();
    await service.close();
    const write = await invokeTool(posting(service.url, 'write'), { text: 'hi' }, context);
    expect(service.received()).toBe(0);
    expect(write).toMatchObject({
      ok: false,
      error_type: 'network_error',
      retryable: true,
      user_message: 'The service could not be reached.',
    });
  });
});
