import { type Counter, type Histogram, type Meter, metrics, type Tracer, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import { createRedactingLogger } from './redacting-logger.js';

const instrumentationName = '@patchbay/orchestrator';

/** The orchestrator's logger: a redacting child of the given logger (or of a silent one). */
export function orchestratorLogger(logger: Logger | undefined): Logger {
  return createRedactingLogger({ logger, bindings: { component: 'orchestrator' } });
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
