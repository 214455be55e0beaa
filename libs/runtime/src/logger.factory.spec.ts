import { Writable } from 'node:stream';
import { createLogger, scrubSecrets } from './logger.factory';
import { runInLogScope } from './log-scope';

function capture(scrub = true) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'debug', format: 'json', destination, scrub }) };
}

describe('createLogger', () => {
  it('writes JSON lines with the scope in force; explicit fields win and nothing is written twice', () => {
    const { lines, logger } = capture();
    runInLogScope({ requestId: 'req_a', jobId: 'job_1' }, () => {
      runInLogScope({ stage: 'fetch' }, () => logger.info('inside'));
      logger.info({ jobId: 'job_2' }, 'explicit');
      logger.child({ requestId: 'req_bound' }).info('bound');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', requestId: 'req_a', jobId: 'job_1', stage: 'fetch' });
    expect(lines[1]).toMatchObject({ msg: 'explicit', requestId: 'req_a', jobId: 'job_2' });
    expect(lines[2]).toMatchObject({ msg: 'bound', requestId: 'req_bound', jobId: 'job_1' });
    expect(lines[3]).not.toHaveProperty('requestId');
  });

  it('redacts credentials in fields and scrubs them out of free text', () => {
    const { lines, logger } = capture();
    const key = 'sk_live_abcdefghijklmnopqrstuvwxyz012345';
    logger.info(
      {
        req: { headers: { 'x-api-key': key, authorization: `Bearer ${key}`, cookie: 'sid=1' } },
        password: 'hunter2hunter2',
        secret: 'whsec_c2VjcmV0c2VjcmV0',
      },
      'headers',
    );
    logger.warn(
      { url: 'https://bucket.s3.amazonaws.com/a.mp4?X-Amz-Credential=AKIA&X-Amz-Signature=abc123def&x=1' },
      `key ${key} and whsec_c2VjcmV0c2VjcmV0 via https://user:pa55word@example.com/x`,
    );
    const text = JSON.stringify(lines);
    for (const s of [key, 'hunter2hunter2', 'c2VjcmV0c2VjcmV0', 'abc123def', 'AKIA', 'pa55word', 'sid=1']) expect(text).not.toContain(s);
    expect(lines[1].url).toBe('https://bucket.s3.amazonaws.com/a.mp4?X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&x=1');
    expect(lines[1].msg).toBe('key sk_[redacted] and whsec_[redacted] via https://user:[redacted]@example.com/x');
  });

  it("redacts shop connections' credentials in fields and free text", () => {
    const { lines, logger } = capture();
    const token = 'shpat_0123456789abcdef0123456789abcdef';
    const ck = `ck_${'a1'.repeat(20)}`;
    const cs = `cs_${'b2'.repeat(20)}`;
    logger.info({ body: { access_token: token, consumer_key: ck, consumer_secret: cs } }, `shop said ${token} ${ck} ${cs}`);
    const text = JSON.stringify(lines);
    for (const s of [token, ck, cs]) expect(text).not.toContain(s);
    expect(lines[0].msg).toBe('shop said shpat_[redacted] ck_[redacted] cs_[redacted]');
  });

  it('keeps the masked key prefix printed at start-up readable, and an unscrubbed logger shows a generated key', () => {
    expect(scrubSecrets('Owner API key: sk_owner_abc… (in /data/owner-api-key)')).toBe(
      'Owner API key: sk_owner_abc… (in /data/owner-api-key)',
    );
    const { lines, logger } = capture(false);
    logger.info('Owner API key: sk_owner_abcdefghijklmnopqrstuvwxyz (generated now)');
    expect(lines[0].msg).toContain('sk_owner_abcdefghijklmnopqrstuvwxyz');
  });
});
