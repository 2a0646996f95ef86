// The checks of `gate:` scenarios (scenario-format/gate-expect-schema.ts): the proposals the turn
// left, what the orchestrator logged, and how it refused an approval policy.
import type { LogLine } from '../gate-setup.js';
import type { ExpectCheck } from './expect-checks.js';
import { verdict } from './turn-view.js';

const proposals: ExpectCheck<'proposals'> = (wanted, { turn }) => {
  const found = turn.proposals;
  if (!found) return [verdict('proposals counted', false, 'no proposals recorded (needs `gate:`)')];
  const states = new Set([...Object.keys(found), ...Object.keys(wanted)]);
  return [...states].map((state) => {
    const count = (wanted as Record<string, number | undefined>)[state] ?? 0;
    const seen = found[state] ?? 0;
    return verdict(
      `${count} proposal(s) ${state}`,
      seen === count,
      `${seen} ${state} (${JSON.stringify(found)})`,
    );
  });
};

const linesOf = (logs: readonly LogLine[] | undefined) => logs ?? [];

const logged: ExpectCheck<'logged'> = (wanted, { turn }) =>
  wanted.map((line) => {
    const matching = linesOf(turn.logs).filter(
      (seen) =>
        seen.message.includes(line.message) &&
        (line.level === undefined || seen.level === line.level) &&
        (line.fields ?? []).every((field) => seen.fields[field] !== undefined),
    );
    const name = `logged ${line.level ?? ''} "${line.message}"${line.fields ? ` with ${line.fields.join(', ')}` : ''}`;
    const pass = line.count === undefined ? matching.length > 0 : matching.length === line.count;
    const similar = linesOf(turn.logs)
      .filter((seen) => seen.message.includes(line.message))
      .map((seen) => `${seen.level} ${JSON.stringify(seen.fields)}`);
    return verdict(
      name,
      pass,
      `${matching.length} such line(s); same message: ${similar.join(' | ') || 'none'}`,
    );
  });

const notLogged: ExpectCheck<'not_logged'> = (texts, { turn }) =>
  texts.map((text) => {
    const seen = linesOf(turn.logs).find((line) => line.message.includes(text));
    return verdict(
      `never logged "${text}"`,
      seen === undefined,
      `logged at ${seen?.level}: ${seen?.message}`,
    );
  });

const userMessages: ExpectCheck<'user_messages'> = (wanted, { trace }) =>
  wanted.map(({ tool, includes }) => {
    const messages = trace.calls
      .filter((call) => call.toolName === tool)
      .map((call) => String((call.envelope as { user_message?: unknown }).user_message ?? ''));
    return verdict(
      `a call of ${tool} answered "…${includes}…"`,
      messages.some((message) => message.includes(includes)),
      `answered: ${messages.join(' | ') || 'no call'}`,
    );
  });

const policyRefused: ExpectCheck<'policy_refused'> = (wanted, { turn }) => {
  const refusal = turn.gateRefusal;
  return [
    verdict(
      `createOrchestrator refused the policy (${wanted.error_code})`,
      refusal !== undefined &&
        refusal !== null &&
        refusal.error_code === wanted.error_code &&
        refusal.message.includes(wanted.message),
      refusal ? `refused: ${refusal.error_code} ${refusal.message}` : 'the policy was accepted',
    ),
  ];
};

/** The gate's checks by `expect` key. */
export const gateChecks = {
  proposals,
  logged,
  not_logged: notLogged,
  user_messages: userMessages,
  policy_refused: policyRefused,
};
