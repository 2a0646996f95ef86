import { metrics, trace } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type HistogramMetricData,
  MeterProvider,
  MetricReader,
  type SumMetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { success } from '@patchbay/envelope';
import { HttpResponse, http } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  acmeConnection,
  captureLogger,
  createAcmeConnector,
  createAcmeServer,
  createCountingAgent,
  createTestStatusSource,
  secretToken,
} from '../test/support.js';
import { createOrchestrator } from './orchestrator.js';

const acme = createAcmeServer();
beforeAll(() => acme.server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => acme.reset());
afterAll(() => acme.server.close());

const subject = 'user-1';

/** A pull reader: tests collect on demand instead of exporting on a timer. */
class TestMetricReader extends MetricReader {
  protected async onShutdown() {}
  protected async onForceFlush() {}
}

describe('observability', () => {
  it('never logs or returns a secret, even when the service echoes it', async () => {
    const { logger, text } = captureLogger();
    const statusSource = createTestStatusSource();
    statusSource.connect(subject, acmeConnection());
    const orchestrator = createOrchestrator({ statusSource, connectors: [createAcmeConnector()], logger });
    const leaky = createCountingAgent({
      id: 'leaky',
      tools: [{ name: 'leaky_tool' }],
      execute: async () => {
        throw Object.assign(new Error(`upstream said Bearer ${secretToken} is bad`), {
          credentials: { token: secretToken },
        });
      },
    });
    orchestrator.register(leaky);
    await orchestrator.start();
    let echoed = 0;
    acme.server.use(
      http.get('https://api.acme.test/tickets/:id', ({ request }) => {
        echoed += 1;
        return HttpResponse.json(
          { message: `token ${request.headers.get('authorization')} rejected` },
          { status: 500 },
        );
      }),
    );
    const results = [
      await orchestrator.execute('acme_get_ticket', { id: 'T-1' }, { subject }),
      await orchestrator.execute('leaky_tool', { text: 'x' }, { subject }),
    ];
    expect(results[0]).toMatchObject({ ok: false, error_type: 'upstream_error' });
    expect(echoed).toBe(1);
    expect(text()).not.toBe('');
    expect(text()).not.toContain(secretToken);
    expect(JSON.stringify(results)).not.toContain(secretToken);
  });

  it('carries the correlation id through log lines and the envelope', async () => {
    const { logger, lines } = captureLogger();
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource(), logger });
    orchestrator.register(createCountingAgent());
    await orchestrator.start();
    const result = await orchestrator.execute(
      'count_echo',
      { text: 'x' },
      { subject, correlationId: 'corr-log' },
    );
    expect(result.meta?.correlation_id).toBe('corr-log');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const finished = entries.find((entry) => entry.msg === 'tool call succeeded');
    expect(finished).toMatchObject({ correlation_id: 'corr-log', tool: 'count_echo', outcome: 'ok' });
  });

  it('passes the correlation id to the agent', async () => {
    const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
    const agent = createCountingAgent();
    orchestrator.register(agent);
    await orchestrator.start();
    await orchestrator.execute('count_echo', { text: 'x' }, { subject, correlationId: 'corr-agent' });
    expect(agent.calls[0]?.context.correlationId).toBe('corr-agent');
  });

  it('records call counts by tool and outcome and durations in ms', async () => {
    const reader = new TestMetricReader({
      aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE,
    });
    const meterProvider = new MeterProvider({ readers: [reader] });
    const orchestrator = createOrchestrator({
      statusSource: createTestStatusSource(),
      meter: meterProvider.getMeter('test'),
    });
    orchestrator.register(createCountingAgent({ execute: async (_tool, args) => success(args) }));
    await orchestrator.start();
    await orchestrator.execute('count_echo', { text: 'a' }, { subject });
    await orchestrator.execute('count_echo', { text: 'b' }, { subject });
    await orchestrator.execute('count_echo', {}, { subject });
    await orchestrator.execute('missing_tool', {}, { subject });
    const { resourceMetrics } = await reader.collect();
    const all = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    const calls = all.find((metric) => metric.descriptor.name === 'patchbay.tool.calls') as SumMetricData;
    const points = calls.dataPoints.map((point) => ({ ...point.attributes, value: point.value }));
    expect(points).toEqual(
      expect.arrayContaining([
        { tool: 'count_echo', outcome: 'ok', value: 2 },
        { tool: 'count_echo', outcome: 'needs_input', value: 1 },
        { tool: 'missing_tool', outcome: 'tool_unavailable', value: 1 },
      ]),
    );
    const duration = all.find(
      (metric) => metric.descriptor.name === 'patchbay.tool.duration',
    ) as HistogramMetricData;
    expect(duration.descriptor.unit).toBe('ms');
    const okDurations = duration.dataPoints.find((point) => point.attributes.outcome === 'ok');
    expect(okDurations?.value.count).toBe(2);
    await meterProvider.shutdown();
  });

  it('opens one span per call with tool, agent, outcome and correlation id', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const orchestrator = createOrchestrator({
      statusSource: createTestStatusSource(),
      tracer: tracerProvider.getTracer('test'),
    });
    orchestrator.register(createCountingAgent());
    await orchestrator.start();
    await orchestrator.execute('count_echo', { text: 'x' }, { subject, correlationId: 'corr-span' });
    await orchestrator.execute('count_echo', {}, { subject });
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(2);
    expect(spans[0]?.name).toBe('patchbay.tool.execute');
    expect(spans[0]?.attributes).toMatchObject({
      'patchbay.tool': 'count_echo',
      'patchbay.agent': 'counting',
      'patchbay.outcome': 'ok',
      'patchbay.correlation_id': 'corr-span',
    });
    expect(spans[1]?.attributes['patchbay.outcome']).toBe('needs_input');
    expect(spans[1]?.status.code).toBe(2);
  });
  it('without a meter or tracer, records into the providers the application registered globally', async () => {
    // The orchestrator loads the API at the first recorded call, through its own require: it must
    // still see what the application registered through its import of the API.
    const reader = new TestMetricReader({
      aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE,
    });
    const meterProvider = new MeterProvider({ readers: [reader] });
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    metrics.setGlobalMeterProvider(meterProvider);
    trace.setGlobalTracerProvider(tracerProvider);
    try {
      const orchestrator = createOrchestrator({ statusSource: createTestStatusSource() });
      orchestrator.register(createCountingAgent());
      await orchestrator.start();
      await orchestrator.execute('count_echo', { text: 'x' }, { subject });
      const { resourceMetrics } = await reader.collect();
      const names = resourceMetrics.scopeMetrics.flatMap((scope) =>
        scope.metrics.map((metric) => metric.descriptor.name),
      );
      expect(names).toEqual(expect.arrayContaining(['patchbay.tool.calls', 'patchbay.tool.duration']));
      expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['patchbay.tool.execute']);
    } finally {
      metrics.disable();
      trace.disable();
      await meterProvider.shutdown();
    }
  });
});
