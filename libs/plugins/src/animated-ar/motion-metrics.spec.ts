import { NOOP_METRICS, OperationalError } from '@app/pipeline';
import { ProviderHttpError } from '../motion/hosted/provider-http';
import { countedProviderCall } from './motion.stage';

describe('motion_provider_requests_total', () => {
  it('counts each provider call by outcome: ok, failed, the error code or kind, or error', async () => {
    const seen: string[] = [];
    const deps = { metrics: { ...NOOP_METRICS, motionProviderRequest: (p: string, o: string) => void seen.push(`${p}:${o}`) } };
    const provider = { id: 'acme' };
    await countedProviderCall(deps, provider, async () => ({ op: 1 }));
    await countedProviderCall(
      deps,
      provider,
      async () => ({ state: 'failed' }),
      (r) => (r.state === 'failed' ? 'failed' : 'ok'),
    );
    await expect(
      countedProviderCall(deps, provider, () => Promise.reject(new ProviderHttpError('acme', 'rate_limited', 'slow down', 429))),
    ).rejects.toThrow('slow down');
    await expect(
      countedProviderCall(deps, provider, () => Promise.reject(new OperationalError('motion_provider_busy', 'busy'))),
    ).rejects.toThrow('busy');
    await expect(countedProviderCall(deps, provider, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(seen).toEqual(['acme:ok', 'acme:failed', 'acme:rate_limited', 'acme:motion_provider_busy', 'acme:error']);
  });
});
