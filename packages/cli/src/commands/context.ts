import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';

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
    // Loaded on demand: the protocol package and its tokenizer subpath are only needed here.
    const [{ captureStatus, renderTurnContext }, { countTokens }] = await Promise.all([
      import('@patchbay/protocol'),
      import('@patchbay/protocol/tokens'),
    ]);
    const { subject } = runtime.settings;
    const connectors = await runtime.connectors();
    const snapshot = await captureStatus({
      connectors,
      source: runtime.store(),
      subject,
      // --verify checks every stored credential against its service now, as a fresh turn with verification would.
      ...(values.verify ? { verify: { ttlMs: 0, timeoutMs: 10_000 } } : {}),
    });
    const context = renderTurnContext(snapshot, { connectors, format: values.pretty ? 'pretty' : 'compact' });
    const tokens = countTokens(context);
    if (runtime.settings.json) {
      runtime.printJson({
        subject,
        captured_at: snapshot.capturedAt,
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
