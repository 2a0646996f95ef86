import { type Counter, type Histogram, type Meter, metrics, type Tracer, trace } from '@opentelemetry/api';
import { type Logger, pino } from 'pino';

/** Log paths whose values pino replaces, whatever a caller or agent puts there. */
export const redactPaths: readonly string[] = [
  'credentials',
  '*.credentials',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers.cookie',
  '*.headers.cookie',
  'token',
  '*.token',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'password',
  '*.password',
  'secret',
  '*.secret',
];

const instrumentationName = '@patchbay/orchestrator';

/** A child of the given logger (or a silent one) that redacts secret paths. */
export function orchestratorLogger(logger: Logger | undefined): Logger {
  const base = logger ?? pino({ level: 'silent' });
  return base.child(
    { component: 'orchestrator' },
    { redact: { paths: [...redactPaths], censor: '[REDACTED]' } },
  );
}

/** The instruments the orchestrator records into. */
export interface Instruments {
  calls: Counter;
  duration: Histogram;
  tracer: Tracer;
}

/** Creates the counter, histogram and tracer, from the given meter/tracer or the global providers. */
export function createInstruments(meter: Meter | undefined, tracer: Tracer | undefined): Instruments {
  const activeMeter = meter ?? metrics.getMeter(instrumentationName);
  return {
    calls: activeMeter.createCounter('patchbay.tool.calls', {
      description: 'Tool calls through the orchestrator, by tool and outcome (ok or the error_type).',
    }),
    duration: activeMeter.createHistogram('patchbay.tool.duration', {
      description: 'Duration of tool calls through the orchestrator.',
      unit: 'ms',
    }),
    tracer: tracer ?? trace.getTracer(instrumentationName),
  };
}
