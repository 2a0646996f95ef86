/** The four control states of seed 002: what one invocation of the memory agent does. */
export const memoryControls = [
  'start_session',
  'process_message',
  'process_message_and_flush',
  'end_session',
] as const;

/** One of {@link memoryControls}. */
export type MemoryControl = (typeof memoryControls)[number];

/** One step of a sequence: a direct tool call (no model), or a tool call the model writes. */
export type MemoryStep =
  | { kind: 'direct'; tool: 'get_context' | 'list_entries' | 'await_consistency' }
  | { kind: 'model'; tool: 'add_entry' | 'put_context' };

/**
 * Each control state's exact sequence, as a table a test can enumerate: an invocation runs its
 * steps in order and is complete after the last one. Start loads without the model; processing
 * asks the model for one `add_entry`; a flush then waits for consistency and has the model write
 * the context; ending a session is a flush without a message.
 */
export const memorySequences: Readonly<Record<MemoryControl, readonly MemoryStep[]>> = {
  start_session: [
    { kind: 'direct', tool: 'get_context' },
    { kind: 'direct', tool: 'list_entries' },
  ],
  process_message: [{ kind: 'model', tool: 'add_entry' }],
  process_message_and_flush: [
    { kind: 'model', tool: 'add_entry' },
    { kind: 'direct', tool: 'await_consistency' },
    { kind: 'model', tool: 'put_context' },
  ],
  end_session: [
    { kind: 'direct', tool: 'await_consistency' },
    { kind: 'model', tool: 'put_context' },
  ],
};

/** Whether a control state processes a message (and so needs one). */
export function takesMessage(control: MemoryControl): boolean {
  return control === 'process_message' || control === 'process_message_and_flush';
}
