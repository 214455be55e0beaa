import { crc32 } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
}

const ALIGN = 64;
/** Extra-field id used for padding (the one Pixar's usdzip uses). */
const PAD_ID = 0x1986;

function dosDateTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/**
 * Writes a ZIP the way USDZ requires: no compression (STORED), no encryption, no data descriptors, sizes
 * in the local headers, and every file's data starting at a multiple of 64 bytes (padding goes in the
 * local header's extra field). Entries keep their order; the root layer must come first.
 */
export function writeStoredZip(entries: readonly ZipEntry[], mtime = new Date(Date.UTC(2020, 0, 1))): Buffer {
  const { time, date } = dosDateTime(mtime);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    if (!/^[A-Za-z0-9._/-]+$/.test(e.name)) throw new Error(`usdz: invalid entry name "${e.name}"`);
    const crc = crc32(e.data) >>> 0;
    const headerLen = 30 + name.length;
    let pad = (ALIGN - ((offset + headerLen) % ALIGN)) % ALIGN;
    if (pad > 0 && pad < 4) pad += ALIGN; // an extra-field record needs 4 bytes of header
    const extra = Buffer.alloc(pad);
    if (pad) {
      extra.writeUInt16LE(PAD_ID, 0);
      extra.writeUInt16LE(pad - 4, 2);
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0, 6); // flags: no data descriptor, no encryption
    local.writeUInt16LE(0, 8); // STORED
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(extra.length, 28);
    parts.push(local, name, extra, e.data);

    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4); // version made by
    c.writeUInt16LE(20, 6);
    c.writeUInt16LE(0, 8);
    c.writeUInt16LE(0, 10);
    c.writeUInt16LE(time, 12);
    c.writeUInt16LE(date, 14);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(e.data.length, 20);
    c.writeUInt32LE(e.data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt16LE(0, 30); // no extra in the central directory
    c.writeUInt16LE(0, 32);
    c.writeUInt16LE(0, 34);
    c.writeUInt16LE(0, 36);
    c.writeUInt32LE(0, 38);
    c.writeUInt32LE(offset, 42);
    central.push(c, name);
    offset += headerLen + extra.length + e.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}
