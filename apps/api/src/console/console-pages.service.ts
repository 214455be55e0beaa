import { Injectable } from '@nestjs/common';
import { toString as qrToString } from 'qrcode';
import { ShowcaseRepository } from '@app/persistence';
import { SERVICE_USER_ID } from '@app/runtime';
import { PublicUrls } from '@app/wire';
import type { Viewer } from './console.pages';

/** What the server-rendered pages need besides the public API: ownership checks and the QR code. */
@Injectable()
export class ConsolePagesService {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly urls: PublicUrls,
  ) {}

  /** The viewer's showcase (an owner's: the owner key's) with its public URL as a QR code; null otherwise. */
  async showcase(v: Viewer & { userId: string }, id: string): Promise<{ url: string; qrSvg: string } | null> {
    // A showcase id is a Postgres integer: anything else is no showcase (404), not a database error.
    const n = /^[1-9][0-9]{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : NaN;
    const sc = Number.isNaN(n) ? null : await this.showcases.findForOwner(n, v.role === 'owner' ? SERVICE_USER_ID : v.userId);
    if (!sc) return null;
    const url = this.urls.showcase(sc.publicId);
    // Server-side SVG: no script, and nothing fetched from elsewhere.
    const qrSvg = await qrToString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return { url, qrSvg };
  }
}
