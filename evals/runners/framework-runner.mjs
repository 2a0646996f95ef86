import { renderEnvelopeForModel } from '@patchbay/envelope';
import { runnerTrace } from './runner-trace.mjs';

/** Text of a stored message (a string, or text parts). */
function textOf(message) {
  if (typeof message.content === 'string') return message.content;
  return (message.content ?? [])
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** A model that records every call it gets and what it answered, for the trace's steps. */
function recording(model, steps) {
  const recorder = Object.create(model);
  const record = (call, content, finishReason) => {
    const text = content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('');
    steps.push({
      index: steps.length,
      attempt: 0,
      temperature: call.temperature,
      exposedTools: (call.tools ?? []).map((tool) => tool.name),
      prompt: call.prompt,
      text,
      toolCalls: content
        .filter((part) => part.type === 'tool-call')
        .map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input })),
      finishReason: finishReason?.unified ?? 'other',
    });
  };
  recorder.doGenerate = async (call) => {
    const result = await model.doGenerate(call);
    record(call, result.content, result.finishReason);
    return result;
  };
  recorder.doStream = async (call) => {
    const result = await model.doStream(call);
    const content = [];
    let finishReason;
    const texts = new Map();
    const [mine, theirs] = result.stream.tee();
    // Read beside the framework: the recorded step is what the framework itself received.
    void (async () => {
      for await (const part of mine) {
        if (part.type === 'text-delta') {
          if (!texts.has(part.id)) {
            texts.set(part.id, { type: 'text', text: '' });
            content.push(texts.get(part.id));
          }
          texts.get(part.id).text += part.delta;
        } else if (part.type === 'tool-call') content.push(part);
        else if (part.type === 'finish') finishReason = part.finishReason;
      }
      record(call, content, finishReason);
    })();
    return { ...result, stream: theirs };
  };
  return recorder;
}

/**
 * The reply a chat app shows when the framework stopped for a person's approval: the framework
 * itself writes nothing then (its UI shows the request), so the runner says what the UI would.
 * Stand-in for the UI, named as such in the eval README.
 */
function approvalNotice(calls, pending) {
  const lines = pending.map(({ toolName }) => {
    const proposed = calls.findLast(
      (call) => call.toolName === toolName && call.envelope?.error_type === 'approval_required',
    );
    const id = proposed?.envelope.proposal_id;
    return `Waiting for your approval to run ${toolName}${id ? ` (proposal ${id})` : ''}.`;
  });
  return lines.join('\n');
}

/**
 * The questions of `needs_input` answers no later call of the same tool got past: what the turn
 * leaves the user to answer (runTurn's `questions`).
 */
function openQuestions(calls) {
  const last = new Map();
  for (const call of calls) last.set(call.toolName, call);
  const questions = [];
  for (const call of last.values()) {
    if (call.envelope.ok || call.envelope.error_type !== 'needs_input') continue;
    for (const field of call.envelope.missing ?? []) {
      if (!questions.includes(field.question)) questions.push(field.question);
    }
  }
  return questions;
}

/**
 * The turn's steps in stored form, as runTurn stores them: per model call that made tool calls, the
 * assistant message (its text and calls) and the tool message (each call's last envelope, compact).
 */
function messagesOfSteps(steps, calls) {
  const messages = [];
  for (const step of steps) {
    if (step.toolCalls.length === 0) continue;
    messages.push({
      role: 'assistant',
      content: [
        ...(step.text ? [{ type: 'text', text: step.text }] : []),
        ...step.toolCalls.map(({ toolCallId, toolName, input }) => ({
          type: 'tool-call',
          toolCallId,
          toolName,
          input: parsedOr(input),
        })),
      ],
    });
    messages.push({
      role: 'tool',
      content: step.toolCalls.map(({ toolCallId, toolName }) => {
        const answered = calls.findLast((call) => call.toolCallId === toolCallId);
        return {
          type: 'tool-result',
          toolCallId,
          toolName,
          output: answered
            ? { type: 'json', value: JSON.parse(renderEnvelopeForModel(answered.envelope)) }
            : { type: 'text', value: 'The framework did not run this call.' },
        };
      }),
    });
  }
  return messages;
}

function parsedOr(input) {
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** Makes a turn runner of a package's `runPatchbayTurn`. */
export function frameworkRunner(runPatchbayTurn) {
  return async (options) => {
    const threadId = typeof options.thread === 'string' ? options.thread : options.thread.id;
    const stored =
      typeof options.thread === 'string'
        ? ((await options.threadStore?.load(threadId))?.messages ?? [])
        : options.thread.messages;
    const history = stored
      .filter((message) => message.role === 'user' || message.role === 'assistant')
      .map((message) => ({ role: message.role, content: textOf(message) }));
    const steps = [];
    const run = await runPatchbayTurn({
      model: recording(options.model, steps),
      message: options.message,
      history,
      subject: options.subject,
      orchestrator: options.orchestrator,
      connectors: options.connectors,
      statusSource: options.statusSource,
      ...(options.statusBlock ? { statusBlock: options.statusBlock } : {}),
      ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.now ? { now: options.now } : {}),
      maxSteps: options.maxSteps ?? 8,
    });
    // A stream recorder finishes reading just after the framework: let it land.
    await new Promise((resolve) => setImmediate(resolve));
    const first = run.steps[0];
    const asked = run.steps.find((plan) => plan.askUser)?.askUser;
    const notice = approvalNotice(run.calls, run.pendingApprovals);
    const reply = [run.reply, notice].filter(Boolean).join('\n') || asked?.reply || '';
    // A call belongs to the model call that made it (a framework that resumes after an approval
    // starts a new session, whose steps count from 0 again).
    const calls = run.calls.map((call) => {
      const index = steps.findIndex((step) =>
        step.toolCalls.some((made) => made.toolCallId === call.toolCallId),
      );
      return index === -1 ? call : { ...call, step: index };
    });
    const questions = asked?.questions ?? openQuestions(calls);
    const trace = runnerTrace({
      options,
      threadId,
      first: first && { ...first, exposedTools: first.activeTools },
      steps,
      calls,
      questions,
      askedUser: Boolean(asked) || questions.length > 0,
    });
    const turnMessages = [
      { role: 'user', content: options.message },
      ...messagesOfSteps(steps, calls),
      { role: 'assistant', content: reply },
    ];
    await options.threadStore?.append(threadId, turnMessages);
    return { reply, thread: { id: threadId, messages: [...stored, ...turnMessages] }, trace };
  };
}
