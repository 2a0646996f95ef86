import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import type { Command, LangGraphRunnableConfig } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import type { PatchbayToolkit } from './patchbay-toolkit.js';

function asToolMessage(answer: ToolMessage | string, call: { id?: string; name: string }): ToolMessage {
  return typeof answer === 'string'
    ? new ToolMessage({ content: answer, tool_call_id: call.id ?? '', name: call.name })
    : answer;
}

/**
 * LangGraph's `ToolNode` over the toolkit's tools, which also answers through the gate what the
 * plain node would answer with its own error text: a call of a tool name it does not know (the gate
 * says why it is unavailable) and a call whose arguments were not JSON (`invalid_tool_calls`).
 */
export class PatchbayToolNode extends ToolNode {
  private readonly toolkit: PatchbayToolkit;

  /** Usually made by `createPatchbayAgentGraph`; add it to your own graph as the tools node. */
  constructor(toolkit: PatchbayToolkit, options: { name?: string } = {}) {
    super([...toolkit.tools], { ...options, handleToolErrors: true });
    this.toolkit = toolkit;
  }

  protected override async runTool(
    call: ToolCall,
    config: LangGraphRunnableConfig,
    state: unknown,
  ): Promise<ToolMessage | Command> {
    if (this.tools.some((tool) => tool.name === call.name)) return super.runTool(call, config, state);
    return asToolMessage(await this.toolkit.answer(call.name, call.args, call.id), call);
  }

  protected override async run(input: unknown, config: LangGraphRunnableConfig): Promise<unknown> {
    const output = await super.run(input, config);
    const messages = (input as { messages?: unknown[] }).messages;
    const last = messages?.findLast((message) => AIMessage.isInstance(message)) as AIMessage | undefined;
    const invalid = (last?.invalid_tool_calls ?? []).filter((call) => call.id !== undefined && call.name);
    if (invalid.length === 0 || !Array.isArray((output as { messages?: unknown }).messages)) return output;
    const answered = new Set(
      messages!.filter((message) => ToolMessage.isInstance(message)).map((message) => message.tool_call_id),
    );
    const extra: ToolMessage[] = [];
    for (const call of invalid) {
      if (answered.has(call.id!)) continue;
      const answer = await this.toolkit.answer(call.name!, call.args ?? '', call.id);
      extra.push(asToolMessage(answer, { id: call.id!, name: call.name! }));
    }
    return { messages: [...(output as { messages: ToolMessage[] }).messages, ...extra] };
  }
}
