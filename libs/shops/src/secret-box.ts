import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * A secret sealed by {@link SecretBox}: AES-256-GCM ciphertext, its 96-bit IV and 128-bit tag (base64), and the id
 * of the key that sealed it, so that a later key rotation can tell old rows from new ones and keep both readable.
 */
export interface SealedSecret {
  keyId: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/** A sealed secret that cannot be opened: unknown key, wrong key, or ciphertext, tag, IV or context changed. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key's public id: the first 8 bytes of its SHA-256 (hex). Names the key; reveals nothing usable about it. */
export function secretKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

function toKey(key: Buffer | string): Buffer {
  const k = typeof key === 'string' ? Buffer.from(key, 'base64') : key;
  if (k.length !== KEY_BYTES) throw new SecretBoxError(`a secret box key must be ${KEY_BYTES} bytes (got ${k.length})`);
  return k;
}

/**
 * Encrypts small secrets (shop credentials) at rest with AES-256-GCM. Seals with the current key; opens with any
 * key it was given (the current one first, then older ones kept for a rotation), picked by the sealed key id.
 * `context` is authenticated, not stored: sealing a connection's secrets with its id means a row's secrets copied
 * onto another row do not open there. Errors never contain the plaintext or a key.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  readonly keyId: string;

  /** @param current the key new secrets are sealed with (32 bytes, or base64); @param older keys still opened */
  constructor(current: Buffer | string, older: readonly (Buffer | string)[] = []) {
    const k = toKey(current);
    this.keyId = secretKeyId(k);
    this.keys.set(this.keyId, k);
    for (const o of older) {
      const ok = toKey(o);
      if (!this.keys.has(secretKeyId(ok))) this.keys.set(secretKeyId(ok), ok);
    }
  }

  seal(plaintext: string, context = ''): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId)!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      keyId: this.keyId,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
  }

  open(sealed: SealedSecret, context = ''): string {
    const key = this.keys.get(sealed.keyId);
    if (!key)
      throw new SecretBoxError(`sealed with key ${sealed.keyId}, which this service does not have (CONNECTIONS_SECRET_KEY changed?)`);
    const iv = Buffer.from(sealed.iv, 'base64');
    const tag = Buffer.from(sealed.tag, 'base64');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('sealed secret is malformed');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('sealed secret does not open: it was changed, or sealed with another key or for another record');
    }
  }

  /** Whether `sealed` was sealed with an older key (to re-seal it with the current one). */
  isStale(sealed: SealedSecret): boolean {
    return sealed.keyId !== this.keyId;
  }
}
