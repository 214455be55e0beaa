import { t } from '@app/catalogue';
import { esc } from '../../http/html';
import type { PageLocale } from '../page-locale';

/** The link to the room view (item, wall, together and embed pages); without a script, a note beside it says what it needs. */
export function roomLink(url: string, loc: PageLocale, opts: { swappable?: boolean; className?: string } = {}): string {
  return (
    `<a class="${opts.className ?? 'room-btn'}" href="${esc(url)}"${opts.swappable ? ' data-v-href="room"' : ''}>${esc(t(loc.locale, 'room.open'))}</a>` +
    `<noscript><span class="needs-js">(${esc(t(loc.locale, 'room.needsScript'))})</span></noscript>`
  );
}
