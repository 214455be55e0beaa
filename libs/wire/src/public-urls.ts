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

  /** A saved gallery wall's page on its showcase (docs/gallery-walls.md). */
  showcaseWall(showcasePublicId: string, wallId: string): string {
    return `${this.base}/showcase/${showcasePublicId}/walls/${wallId}`;
  }

  /** A visitor's own gallery wall of a showcase's pictures: `items` is `12,15:A2-OAK,19` (item id, optional `:sku`). */
  showcaseTogether(showcasePublicId: string, items: string): string {
    return `${this.base}/showcase/${showcasePublicId}/together?items=${encodeURIComponent(items)}`;
  }

  widgetScript(): string {
    return `${this.base}/api/v1/widget.js`;
  }
}
