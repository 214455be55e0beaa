import { BACKLOG_METRIC } from './backlog-gauge';
import { PromMetrics } from './prom-metrics.adapter';

describe('queue_backlog_jobs (the autoscaling signal)', () => {
  it('reports the queued jobs its source counts on each scrape', async () => {
    const m = new PromMetrics();
    let n = 7;
    m.observeBacklog(async () => n);
    expect(await m.render()).toMatch(new RegExp(`^${BACKLOG_METRIC} 7$`, 'm'));
    n = 0;
    expect(await m.render()).toMatch(new RegExp(`^${BACKLOG_METRIC} 0$`, 'm'));
  });

  it('is NaN (prom-client writes "Nan", which Prometheus reads as NaN: unknown, not "nothing waits") when the source fails or does not answer within 2 s', async () => {
    const m = new PromMetrics();
    m.observeBacklog(() => Promise.reject(new Error('database down')));
    expect(await m.render()).toMatch(new RegExp(`^${BACKLOG_METRIC} nan$`, 'mi'));
    m.observeBacklog(() => new Promise<number>(() => undefined));
    const t0 = Date.now();
    expect(await m.render()).toMatch(new RegExp(`^${BACKLOG_METRIC} nan$`, 'mi'));
    expect(Date.now() - t0).toBeLessThan(3000);
  });
});
