// What promptfoo shows of a scenario run, in its report, its JSON and its table: a transcript of every
// turn (so a turn that failed before the last shows its own reply), the failing checks by turn, and a
// page layout that scrolls as a page. promptfoo renders the report; these decide what it renders.
import type { RunCall, Scenario, ScenarioCheck, ScenarioRun } from './run-types.js';

/** One tool call as a person reads it: name, then its outcome (ok, an error type, or why it was held back). */
function callText(call: RunCall): string {
  if (call.skipped) return `${call.toolName} (not sent: ${call.skipped})`;
  const { envelope } = call;
  return `${call.toolName} → ${envelope?.ok ? 'ok' : ((envelope as { error_type?: string } | undefined)?.error_type ?? 'error')}`;
}

/**
 * The run as text, turn by turn: the time, the user's message, the tool calls with their outcome and
 * the reply. It is the output promptfoo records and shows (and a rubric grades), so no turn hides.
 */
export function transcriptOf(scenario: Scenario, run: Pick<ScenarioRun, 'turns'>): string {
  return run.turns
    .map((turn, index) => {
      const at = scenario.turns[index]?.at;
      const calls = turn.trace.calls.map(callText);
      return [
        `Turn ${index + 1}${at ? ` · ${at}` : ''}`,
        `User: ${turn.user}`,
        ...(calls.length > 0 ? [`Tools: ${calls.join(', ')}`] : []),
        `Reply: ${turn.reply}`,
      ].join('\n');
    })
    .join('\n\n');
}

/** The user's messages of every turn, numbered when there are several (the report's `user` column). */
export function userMessagesOf(scenario: Pick<Scenario, 'turns'>): string {
  if (scenario.turns.length === 1) return scenario.turns[0]!.user;
  return scenario.turns.map((turn, index) => `${index + 1}. ${turn.user}`).join('\n');
}

/**
 * The failed checks of a `checkScenario` result as lines, each naming its turn and that turn's
 * message. A check whose detail is the reply gives only its name: the transcript shows the reply.
 */
export function failureLines(
  scenario: Pick<Scenario, 'turns'>,
  result: Pick<ScenarioCheck, 'failed'>,
): string[] {
  return result.failed.map((item) => {
    const user = scenario.turns[item.turn - 1]?.user ?? '';
    const quoted = user.length > 60 ? `${user.slice(0, 57)}…` : user;
    const detail = item.reason.startsWith(`${item.name}: reply: `) ? item.name : item.reason;
    return `turn ${item.turn} ("${quoted}"): ${detail}`;
  });
}

// promptfoo's report puts the table in a box of at most min(72vh, 980px) that scrolls by itself;
// rows of multi-turn transcripts are tall, so the box showed one or two of them. Let the page scroll.
// Narrower id, title and message columns (220 px each at least) keep three agents' transcripts
// beside them on a 1280 px screen, now that the box no longer scrolls sideways.
const layoutFix = `<style data-patchbay="layout">
      .report-panel { overflow: visible; }
      .table-shell { max-height: none; overflow: visible; }
      th, td { min-width: 140px; }
      .variable-text { max-width: 220px; }
    </style>`;

/**
 * promptfoo's HTML report with the layout fix in its `<head>`. Throws when the report no longer has
 * the parts the fix is written for, so a promptfoo upgrade that changes them is noticed, not ignored.
 */
export function fixReportLayout(html: string): string {
  if (html.includes('data-patchbay="layout"')) return html;
  if (!html.includes('</head>') || !html.includes('.table-shell') || !html.includes('class="table-shell"'))
    throw new Error(
      'promptfoo report layout changed: no .table-shell to fix; update packages/eval/src/report.ts',
    );
  return html.replace('</head>', `    ${layoutFix}\n  </head>`);
}
