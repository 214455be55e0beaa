import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { selfSignedCertificate } from '@app/testing';
import { tempDir } from './app-process';

/**
 * A throwaway self-signed certificate for 127.0.0.1 / localhost (libs/testing selfSignedCertificate, openssl),
 * for https test origins. Processes that must trust it get NODE_EXTRA_CA_CERTS=<certPath>.
 */
export function testCertificate(): { key: Buffer; cert: Buffer; certPath: string } {
  const { key, cert } = selfSignedCertificate();
  const certPath = join(tempDir('ar-tls-'), 'cert.pem');
  writeFileSync(certPath, cert);
  return { key, cert, certPath };
}
