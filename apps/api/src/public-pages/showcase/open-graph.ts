import { SUPPORTED_LOCALES } from '@app/catalogue';
import { esc } from '../../http/html';
import { discoveryTag } from '../oembed/oembed-url';
import { withLang } from '../page-locale';

export interface ShareImage {
  url: string;
  width: number;
  height: number;
  alt: string;
}

export interface ShareMeta {
  title: string;
  description: string | null;
  /** The page's public address: canonical link and og:url (embed pages point at the full page). */
  canonicalUrl: string;
  image?: ShareImage;
  /** Only the owner's `indexable` lets search engines in; embed pages pass false. */
  indexable: boolean;
  /**
   * The page's address without `?lang=`: an indexable page lists its versions in every language
   * (`hreflang`, `?lang=xx`), the plain address being the showcase's own language (`x-default`).
   */
  alternates?: string;
  /**
   * The oEmbed endpoint (`${PUBLIC_BASE_URL}/oembed`) on the pages it answers for: a discovery link for the
   * canonical address, so pasting the page's link into WordPress or a forum embeds it. Absent: none.
   */
  oembed?: string;
}

/** Chat apps and search results show about this much of a description. */
const DESCRIPTION_MAX = 200;

function clip(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max
    ? flat
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/**
 * The head tags that make a shared link show a preview (Open Graph, Twitter card), the canonical
 * address and the robots rule. Every value is escaped: titles and descriptions are the owner's text.
 */
export function shareTags(m: ShareMeta): string {
  const description = m.description?.trim() ? clip(m.description, DESCRIPTION_MAX) : null;
  const tags = [
    `<link rel="canonical" href="${esc(m.canonicalUrl)}">`,
    `<meta name="robots" content="${m.indexable ? 'index,follow' : 'noindex'}">`,
    description ? `<meta name="description" content="${esc(description)}">` : '',
    '<meta property="og:type" content="website">',
    `<meta property="og:title" content="${esc(m.title)}">`,
    description ? `<meta property="og:description" content="${esc(description)}">` : '',
    `<meta property="og:url" content="${esc(m.canonicalUrl)}">`,
    `<meta name="twitter:card" content="${m.image ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${esc(m.title)}">`,
    description ? `<meta name="twitter:description" content="${esc(description)}">` : '',
  ];
  if (m.image) {
    tags.push(
      `<meta property="og:image" content="${esc(m.image.url)}">`,
      `<meta property="og:image:width" content="${Math.round(m.image.width)}">`,
      `<meta property="og:image:height" content="${Math.round(m.image.height)}">`,
      `<meta property="og:image:alt" content="${esc(m.image.alt)}">`,
      `<meta name="twitter:image" content="${esc(m.image.url)}">`,
      `<meta name="twitter:image:alt" content="${esc(m.image.alt)}">`,
    );
  }
  if (m.alternates) {
    for (const l of SUPPORTED_LOCALES) tags.push(`<link rel="alternate" hreflang="${l}" href="${esc(withLang(m.alternates, l))}">`);
    tags.push(`<link rel="alternate" hreflang="x-default" href="${esc(m.alternates)}">`);
  }
  if (m.oembed) tags.push(discoveryTag(m.oembed, m.canonicalUrl, m.title));
  return tags.filter(Boolean).join('\n');
}
