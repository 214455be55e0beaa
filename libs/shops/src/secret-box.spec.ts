import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError, secretKeyId } from './secret-box';

const SECRET = JSON.stringify({ access_token: 'shpat_0123456789abcdef0123456789abcdef', webhook_secret: 'hush' });

describe('SecretBox', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it('round-trips a secret, with a fresh IV each time and the key named by id', () => {
    const a = box.seal(SECRET, 'con_a');
    const b = box.seal(SECRET, 'con_a');
    expect(a.keyId).toBe(secretKeyId(key));
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(Buffer.from(a.ciphertext, 'base64').toString('utf8')).not.toContain('shpat_');
    expect(box.open(a, 'con_a')).toBe(SECRET);
    expect(new SecretBox(key.toString('base64')).open(b, 'con_a')).toBe(SECRET);
  });

  it('refuses a changed ciphertext, tag or IV', () => {
    const s = box.seal(SECRET, 'con_a');
    const flip = (b64: string) => {
      const b = Buffer.from(b64, 'base64');
      b[0] ^= 1;
      return b.toString('base64');
    };
    expect(() => box.open({ ...s, ciphertext: flip(s.ciphertext) }, 'con_a')).toThrow(SecretBoxError);
    expect(() => box.open({ ...s, tag: flip(s.tag) }, 'con_a')).toThrow(SecretBoxError);
    expect(() => box.open({ ...s, iv: flip(s.iv) }, 'con_a')).toThrow(SecretBoxError);
    expect(() => box.open({ ...s, tag: s.tag.slice(4) }, 'con_a')).toThrow('malformed');
  });

  it('refuses a secret sealed for another record (the context is authenticated)', () => {
    expect(() => box.open(box.seal(SECRET, 'con_a'), 'con_b')).toThrow(SecretBoxError);
  });

  it('refuses the wrong key: an unknown key id, or a forged id with another key', () => {
    const other = new SecretBox(randomBytes(32));
    const s = box.seal(SECRET);
    expect(() => other.open(s)).toThrow(/does not have/);
    const forged = { ...other.seal(SECRET), keyId: box.keyId };
    expect(() => box.open(forged)).toThrow(SecretBoxError);
  });

  it('opens secrets sealed with an older key kept for a rotation, and says they are stale', () => {
    const old = randomBytes(32);
    const sealed = new SecretBox(old).seal(SECRET);
    const rotated = new SecretBox(randomBytes(32), [old]);
    expect(rotated.open(sealed)).toBe(SECRET);
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.seal(SECRET))).toBe(false);
  });

  it('never puts the plaintext or the key in an error', () => {
    const s = box.seal(SECRET);
    try {
      box.open({ ...s, ciphertext: Buffer.from('x').toString('base64') });
      throw new Error('opened');
    } catch (e) {
      const m = (e as Error).message;
      expect(m).not.toContain('shpat_');
      expect(m).not.toContain(key.toString('base64'));
    }
    expect(() => new SecretBox(randomBytes(16))).toThrow('must be 32 bytes (got 16)');
  });
});
