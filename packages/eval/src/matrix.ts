// The scenarios × agents matrix: one row per scenario, one column per agent that ran it (the
// reference agent, each naive baseline, a configured model), each cell pass or fail with the first
// check that failed. Built from promptfoo's results files; rendered as one self-contained HTML page
// (no script, no external asset) that `matrix-png.ts` turns into a PNG in a real browser.

/** A row of the matrix: one scenario. */
export interface MatrixScenario {
  scenario: string;
  title: string;
}

/** A column of the matrix: one agent. */
export interface MatrixAgent {
  id: string;
  label: string;
}

/** One cell: pass, or fail with the first failing check. */
export interface MatrixCell {
  pass: boolean;
  failedCheck?: string;
}

/** A scenarios × agents matrix. */
export interface Matrix {
  scenarios: MatrixScenario[];
  agents: MatrixAgent[];
  cells: Record<string, Record<string, MatrixCell>>;
}

/** A grading result as promptfoo nests it: a verdict, its reason, and the components it is made of. */
export interface GradingResult {
  pass?: boolean;
  reason?: unknown;
  componentResults?: GradingResult[] | undefined;
}

/** The fields of a promptfoo result row the matrix reads (the direct engine writes the same). */
interface ResultRow {
  vars?: { scenario?: unknown; title?: unknown };
  testCase?: { description?: unknown };
  testIdx?: unknown;
  provider?: string | { id?: unknown; label?: unknown };
  success?: boolean;
  gradingResult?: GradingResult;
  failureReason?: unknown;
}

/** The first failing check of a grading result, depth first (promptfoo nests component results). */
export function firstFailedCheck(grading: GradingResult | undefined | null): string | undefined {
  if (!grading || grading.pass) return undefined;
  for (const component of grading.componentResults ?? []) {
    const found = firstFailedCheck(component);
    if (found) return found;
  }
  return typeof grading.reason === 'string' ? grading.reason : 'failed';
}

/** The scenario id of a promptfoo row: its `scenario` variable, else the description before ':'. */
function scenarioOf(row: ResultRow): string {
  const fromVars = row.vars?.scenario;
  if (typeof fromVars === 'string' && fromVars !== '') return fromVars;
  return String(row.testCase?.description ?? row.testIdx)
    .split(':')[0]!
    .trim();
}

function titleOf(row: ResultRow): string {
  if (typeof row.vars?.title === 'string') return row.vars.title;
  const description = String(row.testCase?.description ?? '');
  const colon = description.indexOf(':');
  return colon >= 0 ? description.slice(colon + 1).trim() : description;
}

/**
 * Builds the matrix from the `results.results` rows of one or more promptfoo outputs. Agents keep the
 * order they first appear in; scenarios too. A scenario an agent did not run has no cell.
 */
export function buildMatrix(rowSets: readonly (readonly unknown[])[]): Matrix {
  const scenarios = new Map<string, MatrixScenario>();
  const agents = new Map<string, MatrixAgent>();
  const cells: Matrix['cells'] = {};
  for (const rows of rowSets) {
    for (const item of rows) {
      const row = item as ResultRow;
      const provider = typeof row.provider === 'object' ? row.provider : undefined;
      const scenario = scenarioOf(row);
      const id = String(provider?.id ?? row.provider ?? 'agent');
      if (!scenarios.has(scenario)) scenarios.set(scenario, { scenario, title: titleOf(row) });
      if (!agents.has(id)) agents.set(id, { id, label: String(provider?.label ?? id) });
      const failedCheck = row.success
        ? undefined
        : (firstFailedCheck(row.gradingResult) ?? row.failureReason);
      cells[scenario] ??= {};
      cells[scenario]![id] = row.success
        ? { pass: true }
        : { pass: false, failedCheck: String(failedCheck ?? 'failed') };
    }
  }
  return { scenarios: [...scenarios.values()], agents: [...agents.values()], cells };
}

/** A failing check longer than this is cut in the cell (the whole text is the cell's title). */
const maxCheckChars = 160;

const htmlEntities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const escapeHtml = (text: unknown) => String(text).replace(/[&<>"']/g, (char) => htmlEntities[char]!);

/** Per agent: scenarios passed and run. */
export function agentTotals(matrix: Matrix): Array<{ agent: MatrixAgent; passed: number; run: number }> {
  return matrix.agents.map((agent) => {
    const run = matrix.scenarios.filter((scenario) => matrix.cells[scenario.scenario]?.[agent.id]);
    const passed = run.filter((scenario) => matrix.cells[scenario.scenario]?.[agent.id]?.pass);
    return { agent, passed: passed.length, run: run.length };
  });
}

/**
 * The matrix as one HTML page: a table with a caption, column headers per agent with its totals, row
 * headers per scenario, and cells that say PASS or FAIL in words (colour is never the only signal)
 * with the failing check beneath. Self-contained: inline CSS, no script.
 */
export function renderMatrixHtml(
  matrix: Matrix,
  options: { title?: string | undefined; generatedAt?: string | undefined } = {},
): string {
  const title = options.title ?? 'Patchbay evals: scenarios × agents';
  const totals = agentTotals(matrix);
  const head = totals
    .map(
      ({ agent, passed, run }) =>
        `<th scope="col"><span class="agent">${escapeHtml(agent.label)}</span><span class="total">${passed}/${run} passed</span></th>`,
    )
    .join('');
  const body = matrix.scenarios
    .map((scenario) => {
      const cells = matrix.agents
        .map((agent) => {
          const cell = matrix.cells[scenario.scenario]?.[agent.id];
          if (!cell) return '<td class="none">not run</td>';
          if (cell.pass) return '<td class="pass">PASS</td>';
          const check = cell.failedCheck ?? 'failed';
          const shown = check.length > maxCheckChars ? `${check.slice(0, maxCheckChars - 1)}…` : check;
          return `<td class="fail" title="${escapeHtml(check)}">FAIL<span class="check">${escapeHtml(shown)}</span></td>`;
        })
        .join('');
      return `<tr><th scope="row"><span class="id">${escapeHtml(scenario.scenario)}</span><span class="title">${escapeHtml(scenario.title)}</span></th>${cells}</tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #111; background: #fff; }
  table { border-collapse: collapse; }
  caption { text-align: left; font-size: 18px; font-weight: 600; margin-bottom: 8px; }
  th, td { border: 1px solid #999; padding: 4px 8px; vertical-align: top; text-align: left; }
  thead th { background: #eee; }
  th .agent, th .id { display: block; font-weight: 600; }
  th .total, th .title { display: block; font-weight: 400; color: #333; }
  td.pass { background: #d9f2dd; color: #0b4d1a; font-weight: 600; }
  td.fail { background: #fadcdc; color: #7a0c0c; font-weight: 600; max-width: 320px; }
  td.fail .check { display: block; font-weight: 400; font-size: 12px; color: #111; }
  td.none { color: #555; }
</style>
</head>
<body>
<table>
<caption>${escapeHtml(title)}${options.generatedAt ? ` <small>(${escapeHtml(options.generatedAt)})</small>` : ''}</caption>
<thead><tr><th scope="col">Scenario</th>${head}</tr></thead>
<tbody>
${body}
</tbody>
</table>
</body>
</html>
`;
}
