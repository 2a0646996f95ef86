import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { createOrchestrator } from '@patchbay/orchestrator';
import { createInMemoryStatusSource } from '@patchbay/protocol';
import { createTurnFixtureConnectors } from '@patchbay/testing';

/** Every call a connector really ran, in order: what a test counts. */
export interface Executed {
  tool: string;
  input: unknown;
}

/** Two fixture connectors (tracker: create + destructive delete; chat: post) behind a real gate. */
export async function createWorld() {
  const executed: Executed[] = [];
  const connectors = createTurnFixtureConnectors(executed);
  const statusSource = createInMemoryStatusSource();
  statusSource.connect('ana', 'tracker', { credentials: { token: 'tracker-secret-1' } });
  const orchestrator = createOrchestrator({ statusSource, connectors });
  await orchestrator.start();
  return { executed, connectors, statusSource, orchestrator, subject: 'ana' };
}

/** The names of the tools a model call was offered. */
export function offeredTools(call: LanguageModelV4CallOptions): string[] {
  return (call.tools ?? []).map((tool) => tool.name);
}

/** The prompt of a model call as one string, to look for blocks in it. */
export function promptText(call: LanguageModelV4CallOptions): string {
  return JSON.stringify(call.prompt);
}

/** How often `needle` occurs in `haystack`. */
export function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** The text parts of a model call's prompt that hold a `<connector_status>` block, with their message's role and position. */
export function contextParts(
  call: LanguageModelV4CallOptions,
): { role: string; index: number; text: string }[] {
  const found: { role: string; index: number; text: string }[] = [];
  call.prompt.forEach((message, index) => {
    if (typeof message.content === 'string') {
      if (message.content.includes('<connector_status captured_at='))
        found.push({ role: message.role, index, text: message.content });
      return;
    }
    for (const part of message.content) {
      if (part.type === 'text' && part.text.includes('<connector_status captured_at=')) {
        found.push({ role: message.role, index, text: part.text });
      }
    }
  });
  return found;
}

/** The `<connector_status>` object of a context block. */
export function statusOf(context: string): Record<string, { status: string }> {
  const match = /<connector_status[^>]*>([\s\S]*?)<\/connector_status>/.exec(context);
  if (!match) throw new Error(`no <connector_status> block in ${context}`);
  return JSON.parse(match[1]!);
}
