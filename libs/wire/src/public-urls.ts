import type { AppConfig } from '@app/config';

/** Absolute public URLs, from PUBLIC_BASE_URL. */
export class PublicUrls {
  constructor(private readonly config: AppConfig) {}

  get base(): string {
    return this.config.publicBaseUrl;
  }

  embed(publicId: string): string {
    return `${this.base}/embed/${publicId}`;
  }

  embedStatic(publicId: string): string {
    return `${this.base}/embed/${publicId}/static`;
  }

  /** Public showcase page. */
  showcase(publicId: string): string {
    return `${this.base}/showcase/${publicId}`;
  }

  /** Embeddable (iframe) variant of the showcase page. */
  showcaseEmbed(publicId: string): string {
    return `${this.base}/showcase/${publicId}/embed`;
  }

  widgetScript(): string {
    return `${this.base}/api/v1/widget.js`;
  }
}
