import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsAuthorized } from './metrics-endpoint';
import { PromMetrics } from './prom-metrics.adapter';

describe('PromMetrics', () => {
  it('exposes every metric of docs/operations.md, queue gauges read on scrape', async () => {
    const m = new PromMetrics();
    m.observeQueue(async () => ({ waiting: 3, active: 1, delayed: 2, failed: 0 }));
    m.observeQueueAge(async () => new Date(Date.now() - 90_000));
    m.observeSlots(() => ({ cpu: { held: 2, waiting: 5 }, io: { held: 9, waiting: 0 } }));
    m.httpRequest('GET', '/api/v1/status/:jobId', 200, 0.01);
    m.jobFinished('v1.convert', 'completed');
    m.stageFinished('fetch', 0.2);
    m.callbackDelivery('failed');
    m.creditsCharged(150);
    m.creditsRefunded(50);
    m.motionProviderRequest('replicate', 'rate_limited');
    m.backgroundRemovalFrame(0.4);
    const text = await m.render();
    for (const line of [
      'http_request_duration_seconds_count{method="GET",route="/api/v1/status/:jobId",status="200"} 1',
      'jobs_total{kind="v1.convert",outcome="completed"} 1',
      'job_stage_duration_seconds_count{stage="fetch"} 1',
      'callback_deliveries_total{outcome="failed"} 1',
      'credits_charged_total 1.5',
      'credits_refunded_total 0.5',
      'motion_provider_requests_total{provider="replicate",outcome="rate_limited"} 1',
      'background_removal_frame_seconds_count 1',
      'queue_jobs{state="waiting"} 3',
      'queue_jobs{state="delayed"} 2',
      'worker_slots{kind="cpu",state="held"} 2',
      'worker_slots{kind="cpu",state="waiting"} 5',
      'worker_slots{kind="io",state="held"} 9',
    ])
      expect(text).toContain(line);
    expect(text).toMatch(/queue_oldest_waiting_seconds (8\d|9\d)\.?\d*/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('starts every known label set of its labelled counters at 0, before the first event, and counts on from there', async () => {
    const m = new PromMetrics();
    const fresh = await m.render();
    expect(fresh).toMatch(/^callback_deliveries_total\{outcome="delivered"\} 0$/m);
    expect(fresh).toMatch(/^callback_deliveries_total\{outcome="failed"\} 0$/m);
    m.startAtZero({ jobKinds: ['v1.convert', 'callback'], motionProviders: ['replicate'] });
    m.callbackDelivery('delivered');
    m.jobFinished('callback', 'completed');
    const text = await m.render();
    for (const kind of ['v1.convert', 'callback']) {
      for (const outcome of ['completed', 'failed', 'cancelled']) {
        expect(text).toMatch(
          new RegExp(
            `^jobs_total\\{kind="${kind}",outcome="${outcome}"\\} ${kind === 'callback' && outcome === 'completed' ? 1 : 0}$`,
            'm',
          ),
        );
      }
    }
    expect(text).toMatch(/^motion_provider_requests_total\{provider="replicate",outcome="ok"\} 0$/m);
    expect(text).toMatch(/^motion_provider_requests_total\{provider="replicate",outcome="failed"\} 0$/m);
    expect(text).toMatch(/^callback_deliveries_total\{outcome="delivered"\} 1$/m);
    expect(text).toMatch(/^callback_deliveries_total\{outcome="failed"\} 0$/m);
    // Declaring again (a second module in one process) keeps the counts.
    m.startAtZero({ jobKinds: ['callback'] });
    expect(await m.render()).toMatch(/^jobs_total\{kind="callback",outcome="completed"\} 1$/m);
  });

  it('leaves the queue gauge out of a scrape when the queue does not answer, instead of failing it', async () => {
    const m = new PromMetrics();
    m.observeQueue(() => Promise.reject(new Error('redis away')));
    // A hung database: the scrape answers after the 2 s cap, without the gauge.
    m.observeQueueAge(() => new Promise(() => undefined));
    const text = await m.render();
    expect(text).toContain('jobs_total');
    expect(text).not.toMatch(/^queue_jobs\{/m);
    expect(text).toMatch(/^queue_oldest_waiting_seconds nan$/im);
  });

  it('checks the bearer token in constant time, and lets everyone in without one', () => {
    expect(metricsAuthorized(undefined, undefined)).toBe(true);
    expect(metricsAuthorized('Bearer right-token-0123456789', 'right-token-0123456789')).toBe(true);
    expect(metricsAuthorized('Bearer wrong-token-0123456789', 'right-token-0123456789')).toBe(false);
    expect(metricsAuthorized(undefined, 'right-token-0123456789')).toBe(false);
  });
});

describe('docs/operations.md, the alert rules and the dashboard', () => {
  const docs = (name: string) => readFileSync(join(__dirname, '../../../docs', name), 'utf8');

  it('document every metric the service registers, and use no other', async () => {
    const all = (await new PromMetrics().registry.getMetricsAsJSON()).map((m) => m.name);
    const own = all.filter((n) => !/^(process|nodejs)_/.test(n));
    const ops = docs('operations.md');
    for (const name of own) expect(ops).toContain(`| \`${name}\` |`);
    const used = (text: string) =>
      new Set(
        [...text.matchAll(/\b([a-z][a-z0-9_]*?)(?:_bucket|_count|_sum)?(?=\{|\[|\)| [<>])/g)]
          .map((m) => m[1])
          .filter((n) => n.includes('_') && !n.startsWith('__')),
      );
    const known = new Set(all);
    const dashboard = JSON.parse(docs('grafana-dashboard.json')) as { panels: { targets: { expr: string }[] }[] };
    const exprs = [
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
      ...[...docs('prometheus-alerts.yaml').matchAll(/^\s+expr: \|?\n?([\s\S]*?)\n\s+for:/gm)].map((m) => m[1]),
    ];
    expect(exprs.length).toBeGreaterThan(10);
    const functions = new Set(['sum', 'rate', 'max', 'histogram_quantile', 'clamp_min', 'increase']);
    for (const e of exprs) for (const n of used(e)) if (!functions.has(n)) expect(known).toContain(n);
  });
});
