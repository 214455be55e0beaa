import { get, type IncomingHttpHeaders } from 'node:http';

/** A GET whose answer is kept as sent: fetch would undo a `Content-Encoding`, this does not. */
export function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
        .on('error', reject);
    }).on('error', reject);
  });
}
