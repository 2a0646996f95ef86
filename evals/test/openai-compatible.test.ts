import { join } from 'node:path';
import scenarioChecks from '@patchbay/eval/promptfoo/assertion';
import PatchbayProvider from '@patchbay/eval/promptfoo/provider';
// The same suite against a model named by PATCHBAY_EVAL_MODEL, with no code change: an
// OpenAI-compatible endpoint faked at the network layer (msw) answers chat completions, tool calls included.
import { createTestServer } from '@patchbay/testing';
import { afterEach, describe, expect, it } from 'vitest';

type ChatRequest = {
  model: string;
  messages: { role: string; content: unknown; tool_calls?: unknown[] }[];
  tools?: { function: { name: string } }[];
  temperature?: number;
};

const completion = (message: Record<string, unknown>, finishReason: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1_732_201_200,
  model: 'fake-model',
  choices: [
    { index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
});

const requests: ChatRequest[] = [];
const server = createTestServer({
  'POST http://fake-openai.test/v1/chat/completions': (request) => {
    const body = request.body as ChatRequest;
    requests.push(body);
    const last = body.messages.at(-1)!;
    // The fake model: first call lists issues; after the tool result it answers with the setup link.
    if (last.role === 'tool') {
      return {
        body: completion(
          {
            content:
              'acme/web has one open issue (#42 Login button does nothing). Slack is not connected yet: connect it at https://patchbay.test/settings/integrations/slack to post the summary.',
          },
          'stop',
        ),
      };
    }
    return {
      body: completion(
        {
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'github_list_issues', arguments: '{"repo":"acme/web"}' },
            },
          ],
        },
        'tool_calls',
      ),
    };
  },
});

// The provider and the assertion load the config the command would hand promptfoo.
process.env.PATCHBAY_EVAL_CONFIG = join(import.meta.dirname, '..', 'patchbay-eval.config.mjs');

afterEach(() => {
  requests.length = 0;
  delete process.env.PATCHBAY_EVAL_MODEL;
});

describe('PATCHBAY_EVAL_MODEL=<base URL>|<model>', () => {
  it('runs a scenario against the endpoint and the deterministic checks pass', async () => {
    process.env.PATCHBAY_EVAL_MODEL = 'http://fake-openai.test/v1|fake-model';
    const provider = new PatchbayProvider();
    const vars = { scenario: 'partial-configuration' };
    const response = await provider.callApi('partial-configuration', { vars });
    expect(response.error).toBeUndefined();
    expect(response.output).toContain('https://patchbay.test/settings/integrations/slack');
    const grade = await scenarioChecks(response.output, { vars, providerResponse: response });
    expect(grade.reason).toMatch(/checks passed/);
    expect(grade.pass).toBe(true);

    expect(requests).toHaveLength(2);
    expect(requests[0]!.model).toBe('fake-model');
    // Only callable tools are offered; the status block travels in the user message.
    expect(requests[0]!.tools!.map((tool) => tool.function.name)).toContain('github_list_issues');
    expect(requests[0]!.tools!.map((tool) => tool.function.name)).not.toContain('slack_post_message');
    expect(JSON.stringify(requests[0]!.messages)).toContain('<connector_status captured_at=');
    // The envelope went back as the tool result.
    expect(JSON.stringify(requests[1]!.messages.at(-1))).toContain('Login button does nothing');
    expect(server.calls).toHaveLength(2);
  });

  it('fails the checks when the model calls a tool it was not offered', async () => {
    process.env.PATCHBAY_EVAL_MODEL = 'http://fake-openai.test/v1|fake-model';
    server.use({
      'POST http://fake-openai.test/v1/chat/completions': (request) => {
        const body = request.body as ChatRequest;
        requests.push(body);
        if (body.messages.at(-1)!.role === 'tool')
          return { body: completion({ content: 'Posted to Slack.' }, 'stop') };
        return {
          body: completion(
            {
              tool_calls: [
                {
                  id: 'call_9',
                  type: 'function',
                  function: {
                    name: 'slack_post_message',
                    arguments: '{"channel":"releases","text":"Release notes"}',
                  },
                },
              ],
            },
            'tool_calls',
          ),
        };
      },
    });
    const provider = new PatchbayProvider();
    const vars = { scenario: 'partial-configuration' };
    const response = await provider.callApi('partial-configuration', { vars });
    const grade = await scenarioChecks(response.output, { vars, providerResponse: response });
    expect(grade.pass).toBe(false);
    expect(grade.reason).toContain('calls only offered tools');
    // The orchestrator refused it: the status gate answers before anything is sent.
    const call = response.metadata.run.turns[0].trace.calls[0];
    expect(call.envelope).toMatchObject({ ok: false, error_type: 'connector_not_configured' });
  });
});
