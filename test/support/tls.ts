import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './app-process';

/**
 * A throwaway self-signed certificate for 127.0.0.1 / localhost (openssl), for https test origins.
 * Processes that must trust it get NODE_EXTRA_CA_CERTS=<certPath>.
 */
export function testCertificate(): { key: Buffer; cert: Buffer; certPath: string } {
  const dir = tempDir('ar-tls-');
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath };
}
