import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import type { CliRuntime } from '../runtime.js';

/** The per-turn context block and its size, as {@link turnContext} renders it. */
export interface TurnContext {
  context: string;
  tokens: number;
  capturedAt: string;
}

/**
 * The exact per-turn block a subject's agent would get now, and its token count (o200k_base).
 * `verify` re-checks every stored credential against its service first, as a fresh turn with
 * verification would. What `patchbay context` and the console both show.
 */
export async function turnContext(
  runtime: CliRuntime,
  subject: string,
  options: { verify?: boolean; pretty?: boolean } = {},
): Promise<TurnContext> {
  // Loaded on demand: the protocol package and its tokenizer subpath are only needed here.
  const [{ captureStatus, renderTurnContext }, { countTokens }] = await Promise.all([
    import('@patchbay/protocol'),
    import('@patchbay/protocol/tokens'),
  ]);
  const connectors = await runtime.connectors();
  const snapshot = await captureStatus({
    connectors,
    source: runtime.store(),
    subject,
    ...(options.verify ? { verify: { ttlMs: 0, timeoutMs: 10_000 } } : {}),
  });
  const context = renderTurnContext(snapshot, { connectors, format: options.pretty ? 'pretty' : 'compact' });
  return { context, tokens: countTokens(context), capturedAt: snapshot.capturedAt };
}

/** `patchbay context`: the exact per-turn block the model would see now, and its size. */
export const contextCommand: Command = {
  name: 'context',
  usage: '[--verify] [--pretty]',
  summary: 'Print the per-turn context block the model sees now, with its token count',
  examples: ['patchbay context', 'patchbay context --verify --user alice', 'patchbay context --json'],
  options: {
    verify: { type: 'boolean', default: false },
    pretty: { type: 'boolean', default: false },
  },
  positionals: { required: [] },
  async run(runtime, values) {
    const { subject } = runtime.settings;
    const { context, tokens, capturedAt } = await turnContext(runtime, subject, {
      verify: values.verify === true,
      pretty: values.pretty === true,
    });
    if (runtime.settings.json) {
      runtime.printJson({
        subject,
        captured_at: capturedAt,
        context,
        tokens,
        encoding: 'o200k_base',
      });
    } else {
      runtime.print(context);
      runtime.print(`\n(${tokens} tokens, o200k_base)`);
    }
    return exitCodes.ok;
  },
};
