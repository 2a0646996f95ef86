/**
 * How deeply tool arguments may nest (objects and arrays), counting the outermost value as 1. The
 * gate answers deeper arguments with `invalid_arguments` before any validator walks them: schema
 * validators and JSON.stringify recurse and overflow the stack on a few thousand levels, and no
 * real tool input needs more than a handful.
 */
export const maxArgumentDepth = 64;

/** Objects and arrays still to be looked into, with their depths. */
interface Pending {
  values: object[];
  depths: number[];
}

/** Queues a member that is an object or an array; the queue is made on first use. */
function queueNested(member: unknown, depth: number, pending: Pending | undefined): Pending | undefined {
  if (member === null || typeof member !== 'object') return pending;
  const queue = pending ?? { values: [], depths: [] };
  queue.values.push(member);
  queue.depths.push(depth);
  return queue;
}

/**
 * Whether a value nests objects or arrays more than `limit` levels deep. Iterative, stopping at the
 * first path that goes too deep, so a hostile value of any depth or width is measured safely. A
 * cycle counts as too deep. Flat arguments (the usual case; this runs on every call) allocate nothing.
 */
export function exceedsDepth(value: unknown, limit: number = maxArgumentDepth): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (limit < 1) return true;
  let pending: Pending | undefined;
  let current: object = value;
  let depth = 1;
  for (;;) {
    if (Array.isArray(current)) {
      for (const member of current) pending = queueNested(member, depth + 1, pending);
    } else {
      // Own enumerable string keys, as Object.values reads them.
      const record = current as Record<string, unknown>;
      for (const key in record)
        if (Object.hasOwn(record, key)) pending = queueNested(record[key], depth + 1, pending);
    }
    if (pending === undefined || pending.values.length === 0) return false;
    current = pending.values.pop() as object;
    depth = pending.depths.pop() as number;
    if (depth > limit) return true;
  }
}

/** The sentence of the `invalid_arguments` issue for arguments nested too deeply. */
export function tooDeepMessage(limit: number = maxArgumentDepth): string {
  return `The arguments are nested more than ${limit} levels deep; send a flatter value.`;
}
