/**
 * How deeply tool arguments may nest (objects and arrays), counting the outermost value as 1. The
 * gate answers deeper arguments with `invalid_arguments` before any validator walks them: schema
 * validators and JSON.stringify recurse and overflow the stack on a few thousand levels, and no
 * real tool input needs more than a handful.
 */
export const maxArgumentDepth = 64;

/**
 * Whether a value nests objects or arrays more than `limit` levels deep. Iterative, stopping at the
 * first path that goes too deep, so a hostile value of any depth or width is measured safely. A
 * cycle counts as too deep.
 */
export function exceedsDepth(value: unknown, limit: number = maxArgumentDepth): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    const members = Array.isArray(current) ? current : Object.values(current as Record<string, unknown>);
    for (const member of members) {
      if (member !== null && typeof member === 'object') stack.push({ value: member, depth: depth + 1 });
    }
  }
  return false;
}

/** The sentence of the `invalid_arguments` issue for arguments nested too deeply. */
export function tooDeepMessage(limit: number = maxArgumentDepth): string {
  return `The arguments are nested more than ${limit} levels deep; send a flatter value.`;
}
