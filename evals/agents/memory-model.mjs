// The memory agent's model in the eval: a STAND-IN (rule-based, not a model), like the reference
// agent. The memory agent of @patchbay/memory offers it exactly one tool per call: for `add_entry` it
// summarises the message it is shown as "The <role> said: <text>", for `put_context` it writes the
// context as the user's own statements from the previous context and the entries since. It reads only
// the prompt the memory agent builds, so what reaches the next session is what the product stored.
import { createScriptedModel } from '@patchbay/turn/testing';

const systemOf = (call) => {
  const first = call.prompt[0];
  return first?.role === 'system' ? first.content : '';
};

/** One memory-agent step: the call of the one tool offered. */
export function memoryModelStep(call) {
  const system = systemOf(call);
  const offered = call.tools?.[0]?.name;
  if (offered === 'put_context') {
    const previous = /<previous_context>\n([\s\S]*?)\n<\/previous_context>/.exec(system)?.[1] ?? '';
    const kept = previous === '(none yet)' ? [] : previous.split('\n').filter(Boolean);
    // Keep what the user said about themselves; the assistant's replies are not facts about them.
    const said = [...system.matchAll(/^- \[user\] The user said: (.*)$/gm)].map((match) => `- ${match[1]}`);
    const content = [...new Set([...kept, ...said])].join('\n') || '(nothing known yet)';
    return { toolCalls: [{ toolName: 'put_context', input: { content } }] };
  }
  const said = /<message_to_record>\n\[(\w+)\] ([^\n]*)/.exec(system);
  return {
    toolCalls: [{ toolName: 'add_entry', input: { summary: `The ${said?.[1]} said: ${said?.[2]}` } }],
  };
}

/** The memory agent's stand-in model (not a model). */
export function createMemoryModel() {
  return createScriptedModel((call) => memoryModelStep(call), {
    provider: 'patchbay.memory-model',
    modelId: 'memory-model (offline stand-in)',
  });
}
