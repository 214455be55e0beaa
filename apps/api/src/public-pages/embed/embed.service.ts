import { Inject, Injectable } from '@nestjs/common';
import QRCode from 'qrcode';
import { DataDeletionRepository, JobRepository } from '@app/persistence';
import type { StillImageResult } from '@app/plugins';
import { STORAGE } from '@app/runtime';
import { PublicUrls } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { failedPage, interactivePage, pendingPage, staticPage } from './embed-page';
import { detectPlatform, launchPresentation, type Platform } from '../platform';

const NOT_FOUND = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body>Not found</body></html>';
const GONE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deleted</title></head><body>This model has been deleted.</body></html>';

@Injectable()
export class EmbedService {
  constructor(
    private readonly jobs: JobRepository,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly deletions: DataDeletionRepository,
  ) {}

  async render(
    publicId: string,
    variant: 'interactive' | 'static',
    userAgent?: string,
    forced?: string,
  ): Promise<{ status: number; html: string; cache: string }> {
    const job = /^emb_[a-z2-7]{24}$/.test(publicId) ? await this.jobs.findByPublicId(publicId) : null;
    if (!job) {
      // A deleted job leaves a tombstone: 410 tells embedding sites to drop the page, 404 is for typos.
      const gone = /^emb_[a-z2-7]{24}$/.test(publicId) && (await this.deletions.tombstone({ publicId }));
      return gone ? { status: 410, html: GONE, cache: 'public, max-age=300' } : { status: 404, html: NOT_FOUND, cache: 'no-store' };
    }
    if (job.status === 'failed') return { status: 200, html: failedPage(), cache: 'no-store' };
    if (job.status !== 'completed' || !job.result) return { status: 200, html: pendingPage(job.progress), cache: 'no-store' };
    const r = job.result as StillImageResult;
    const posterUrl = this.storage.url(r.files.poster.key);
    const cache = 'public, max-age=300';
    if (variant === 'static') {
      return {
        status: 200,
        html: staticPage({ posterUrl, widthInches: r.dimensions.width_inches, heightInches: r.dimensions.height_inches }),
        cache,
      };
    }
    const pageUrl = this.urls.embed(publicId);
    const platform: Platform = forced === 'ios' || forced === 'android' || forced === 'desktop' ? forced : detectPlatform(userAgent);
    const qrSvg = platform === 'desktop' ? await QRCode.toString(pageUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }) : '';
    return {
      status: 200,
      cache,
      html: interactivePage(
        {
          pageUrl,
          posterUrl,
          glbUrl: this.storage.url(r.files.glb.key),
          usdzUrl: this.storage.url(r.files.usdz.key),
          widthInches: r.dimensions.width_inches,
          heightInches: r.dimensions.height_inches,
          qrSvg,
          assetBase: this.urls.base,
          animated: job.kind === 'v2.animated-ar',
          presentation: launchPresentation(r),
        },
        platform,
      ),
    };
  }
}
