// Naive baselines: STAND-IN LanguageModelV4s that each reproduce one failure of today's agents, so the
// suite can show that its scenarios catch them (`pnpm eval:baselines`). Each is the reference agent
// with one rule broken. None of them is a real model.
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { createScriptedModel } from '@patchbay/turn/testing';
import { capabilityReply, type ReferenceRules, readPrompt, referenceStep } from './reference-agent.js';
import type { StatusEntry } from './reference-prompt.js';

/**
 * advertise-everything: ignores the status block. Claims every connector of the catalog (including
 * ones an admin disabled) as ready, and tries any tool that might fit by trial and error.
 */
export function createAdvertiseEverything(): LanguageModelV4 {
  const rules: ReferenceRules = {
    callUnexposed: true,
    capabilities(view) {
      const everything = Object.fromEntries(
        Object.entries(view.catalog).map(([id, entry]): [string, StatusEntry] => [
          id,
          { status: 'connected', tools: entry.tools, scopes: [] },
        ]),
      );
      return capabilityReply({ ...view, status: everything });
    },
    // Trial and error: with no fitting tool it still tries the closest one.
    onNoIntent(view) {
      const first = [...view.tools.keys()].find((name) => name !== 'refresh_connector_status');
      return first ? { toolCalls: [{ toolName: first, input: {} }] } : 'Let me try that.';
    },
    unavailableNotes: () => [],
  };
  return createScriptedModel(
    (call) => {
      const view = readPrompt(call);
      if (view.calls.length > 0 && !view.guidance) {
        // Reports failures without the envelope's guidance: no setup URL, no reason.
        const failed = view.calls.filter((toolCall) => view.results.get(toolCall.toolCallId)?.ok === false);
        if (failed.length)
          return `I tried ${failed.map((c) => c.toolName).join(', ')} but it did not work. Want me to try again?`;
      }
      return referenceStep(call, rules);
    },
    { provider: 'patchbay.baseline', modelId: 'advertise-everything (naive baseline stand-in)' },
  );
}

/**
 * stale-status: keeps the connector status and the tool list of the first turn it saw and answers
 * every later turn from them, as an agent that loads connector state once per session does.
 */
export function createStaleStatus(): LanguageModelV4 {
  let firstStatus: string | undefined;
  let firstTools: LanguageModelV4CallOptions['tools'];
  const block = /(<connector_status captured_at="[^"]*">)([\s\S]*?)(<\/connector_status>)/;
  return createScriptedModel(
    (call) => {
      for (const message of call.prompt) {
        if (message.role !== 'user' || firstStatus !== undefined) continue;
        const found = message.content
          .map((part) => (part.type === 'text' ? block.exec(part.text) : null))
          .find(Boolean);
        if (found) {
          firstStatus = found[2];
          firstTools = call.tools;
        }
      }
      const stale: LanguageModelV4CallOptions = {
        ...call,
        tools: firstTools,
        prompt: call.prompt.map((message) =>
          message.role !== 'user'
            ? message
            : {
                ...message,
                content: message.content.map((part) =>
                  part.type === 'text'
                    ? {
                        ...part,
                        text: part.text.replace(
                          block,
                          (_, open, _body, close) => `${open}${firstStatus}${close}`,
                        ),
                      }
                    : part,
                ),
              },
        ),
      };
      return referenceStep(stale);
    },
    { provider: 'patchbay.baseline', modelId: 'stale-status (naive baseline stand-in)' },
  );
}

/** retry-same-call: answers every retry by sending the failing call again, unchanged. */
export function createRetrySameCall(): LanguageModelV4 {
  const rules: ReferenceRules = {
    onRetry(view) {
      const failing = view.calls
        .filter((toolCall) => view.results.get(toolCall.toolCallId)?.ok === false)
        .slice(-1);
      return failing.length
        ? { toolCalls: failing.map((c) => ({ toolName: c.toolName, input: c.input })) }
        : undefined;
    },
  };
  return createScriptedModel((call) => referenceStep(call, rules), {
    provider: 'patchbay.baseline',
    modelId: 'retry-same-call (naive baseline stand-in)',
  });
}

/** The baselines by name. */
export const baselines: Readonly<Record<string, () => LanguageModelV4>> = {
  'advertise-everything': createAdvertiseEverything,
  'stale-status': createStaleStatus,
  'retry-same-call': createRetrySameCall,
};
