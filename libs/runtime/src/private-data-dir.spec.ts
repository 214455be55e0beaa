import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restrictDataDir } from './private-data-dir';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('restrictDataDir', () => {
  let oldUmask: number;
  let root: string;
  beforeEach(() => {
    oldUmask = process.umask();
    root = mkdtempSync(join(tmpdir(), 'private-data-dir-'));
  });
  afterEach(() => {
    process.umask(oldUmask);
    rmSync(root, { recursive: true, force: true });
  });

  it('tightens DATA_DIR to 0700, the embedded database files to 0600 / 0700, and sets umask 077', () => {
    const data = join(root, 'data');
    mkdirSync(join(data, 'pglite/base'), { recursive: true });
    writeFileSync(join(data, 'pglite/x'), 'wal');
    writeFileSync(join(data, 'pglite/base/y'), 'page');
    chmodSync(join(data, 'pglite/x'), 0o666);
    chmodSync(join(data, 'pglite/base/y'), 0o644);
    chmodSync(join(data, 'pglite/base'), 0o777);
    chmodSync(join(data, 'pglite'), 0o755);
    chmodSync(data, 0o777);

    restrictDataDir(data);

    expect(mode(data)).toBe(0o700);
    expect(mode(join(data, 'pglite'))).toBe(0o700);
    expect(mode(join(data, 'pglite/base'))).toBe(0o700);
    expect(mode(join(data, 'pglite/x'))).toBe(0o600);
    expect(mode(join(data, 'pglite/base/y'))).toBe(0o600);
    expect(process.umask()).toBe(0o077);
    // Written after the call, with no mode given: private by the umask.
    writeFileSync(join(data, 'later'), 'x');
    mkdirSync(join(data, 'later-dir'));
    expect([mode(join(data, 'later')), mode(join(data, 'later-dir'))]).toEqual([0o600, 0o700]);
  });

  it('creates a missing DATA_DIR as 0700 and leaves already-private files alone', () => {
    const data = join(root, 'a/b/data');
    restrictDataDir(data);
    expect(mode(data)).toBe(0o700);
    mkdirSync(join(data, 'pglite'));
    writeFileSync(join(data, 'pglite/ro'), 'x');
    chmodSync(join(data, 'pglite/ro'), 0o400);
    restrictDataDir(data);
    expect(mode(join(data, 'pglite/ro'))).toBe(0o400);
  });
});
