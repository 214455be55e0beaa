import { tempDir } from './paths';

/** A real S3-protocol server (s3rver) on a random local port, with one bucket. */
export async function startS3(bucket = 'models'): Promise<{ endpoint: string; bucket: string; stop: () => Promise<void> }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver');
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: tempDir('s3rver-'),
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return { endpoint: `http://127.0.0.1:${port}`, bucket, stop: () => server.close() };
}

export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
