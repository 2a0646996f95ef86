import { createRequire } from 'node:module';
import type {
  Counter,
  Histogram,
  Meter,
  SpanStatusCode as OpenTelemetrySpanStatusCode,
  Tracer,
} from '@opentelemetry/api';
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

/**
 * The span status codes the call pipeline sets, with the values the OpenTelemetry API gives its
 * `SpanStatusCode` enum (fixed by the specification), so setting one does not load the API.
 */
export const SpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const satisfies {
  [Name in keyof typeof OpenTelemetrySpanStatusCode]: (typeof OpenTelemetrySpanStatusCode)[Name];
};

/**
 * The OpenTelemetry API, loaded on first use. It costs ~20 ms of start-up (`patchbay mcp` answers its
 * host later by that much) and most runs record nothing; `require` keeps the load synchronous for the
 * first call that records. The API keeps its providers in one process-wide registry, so this copy sees
 * what the application registered through its own import.
 */
function openTelemetryApi(): typeof import('@opentelemetry/api') {
  return createRequire(import.meta.url)('@opentelemetry/api') as typeof import('@opentelemetry/api');
}

/**
 * Creates the counter, histogram and tracer, from the given meter/tracer or the global providers.
 * They are made when first read (the first tool call), so the API is loaded only when a call is
 * recorded, and not at all when both a meter and a tracer are given.
 */
export function createInstruments(meter: Meter | undefined, tracer: Tracer | undefined): Instruments {
  let made: { calls: Counter; duration: Histogram } | undefined;
  let madeTracer: Tracer | undefined = tracer;
  const make = () => {
    if (made) return made;
    const activeMeter = meter ?? openTelemetryApi().metrics.getMeter(instrumentationName);
    made = {
      calls: activeMeter.createCounter('patchbay.tool.calls', {
        description: 'Tool calls through the orchestrator, by tool and outcome (ok or the error_type).',
      }),
      duration: activeMeter.createHistogram('patchbay.tool.duration', {
        description: 'Duration of tool calls through the orchestrator.',
        unit: 'ms',
      }),
    };
    return made;
  };
  return {
    get calls() {
      return make().calls;
    },
    get duration() {
      return make().duration;
    },
    get tracer() {
      madeTracer ??= openTelemetryApi().trace.getTracer(instrumentationName);
      return madeTracer;
    },
  };
}
