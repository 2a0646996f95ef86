import { PatchbayError } from '@patchbay/envelope';

/** The options an agent node may have; anything else is a typo that would otherwise be ignored. */
export const agentNodeOptions = [
  'kind',
  'model',
  'system',
  'input',
  'dataSchema',
  'tools',
  'callTool',
  'maxToolSteps',
  'carryToolOutputs',
  'maxReasks',
] as const;

/** The options a function node may have. */
export const functionNodeOptions = ['kind', 'run', 'input'] as const;

/** The options an edge may have. */
export const edgeOptions = ['from', 'to', 'status', 'when'] as const;

/**
 * Throws `sacp_invalid_chain` naming the first option that is not one of `known`, with the closest
 * known name: a misspelt `dataSchem` or `maxReask` would otherwise be dropped silently and the node
 * would run without the schema or limit its author asked for.
 */
export function assertKnownOptions(value: object, known: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const closest = closestName(key, known);
    throw new PatchbayError(
      'sacp_invalid_chain',
      `${where} has an unknown option "${key}"${closest ? ` (did you mean "${closest}"?)` : ''}; known options: ${known.join(', ')}.`,
    );
  }
}

function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  // Beyond a third of the name the "suggestion" is a guess that misleads more than it helps.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
