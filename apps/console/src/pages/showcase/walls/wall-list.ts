/** The saved walls of the showcase (poster, size, page link, Edit, Delete), and the last save's build. */
import { api } from '../../../shared/api';
import type { Wall, WallList } from '../../../shared/api-types';
import { empty, failed, fill, h, say } from '../../../shared/dom';
import { active, seg, statusBadge } from '../../../shared/format';
import { close, open } from './wall-arranger';
import { errMessage, wallSize } from './wall-format';
import { W } from './wall-state';

/** Loads the list again, and polls it while a wall is being built. */
export function loadList(): Promise<void> {
  clearTimeout(W.listTimer);
  return api<WallList>('GET', W.WALLS).then(function (r) {
    W.walls = r.data || [];
    renderList();
    if (
      W.walls.some(function (w) {
        return active(w.status);
      })
    )
      W.listTimer = setTimeout(loadList, 2000);
  }, failed(W.E.list));
}

function renderList(): void {
  if (!W.walls.length) {
    fill(W.E.list, empty('No gallery walls yet. New wall arranges some of the pictures above.'));
    return;
  }
  const had = document.activeElement;
  const hadKey = had && W.E.list.contains(had) ? had.getAttribute('data-key') : null;
  fill(
    W.E.list,
    h(
      'ul',
      { class: 'wall-list' },
      W.walls.map(function (w) {
        return wallCard(w);
      }),
    ),
  );
  const again = hadKey && W.E.list.querySelector<HTMLElement>('[data-key="' + CSS.escape(hadKey) + '"]');
  if (again) again.focus();
}

function wallCard(w: Wall): HTMLLIElement {
  const ref = h('span', { class: 'sr-only', text: ' (' + w.name + ')' });
  const od: Partial<Wall['outer_dimensions']> = w.outer_dimensions || {};
  const missing = (w.items || []).filter(function (x) {
    return x.missing;
  }).length;
  const btn = function (key: string, text: string, fn: (ev: MouseEvent) => void, cls?: string) {
    return h('button', { type: 'button', class: cls || 'secondary', 'data-key': key + '-' + w.id, on: { click: fn } }, [
      text,
      ref.cloneNode(true),
    ]);
  };
  return h('li', { class: 'card wall-card', 'data-testid': 'wall', 'data-id': w.id, 'data-status': w.status }, [
    w.preview_url
      ? h('img', { src: w.preview_url, alt: 'Poster of ' + w.name, loading: 'lazy' })
      : h('div', { class: 'ph', 'aria-hidden': 'true' }),
    h('p', { class: 'name' }, [statusBadge(w.status), ' ', h('strong', { text: w.name })]),
    h('p', {
      class: 'meta',
      'data-testid': 'wall-meta',
      text: [
        od.width_inches ? 'Outer size ' + wallSize(od.width_inches, od.height_inches!) : null,
        (w.items || []).length + ' pictures',
        w.arrangement,
      ]
        .filter(Boolean)
        .join(' · '),
    }),
    missing
      ? h('p', { class: 'error', text: missing === 1 ? 'A picture of it was deleted.' : missing + ' pictures of it were deleted.' })
      : null,
    w.status === 'failed' && w.error ? h('p', { class: 'error', text: 'The build failed: ' + (w.error.message || w.error) }) : null,
    h('div', { class: 'wall-actions' }, [
      w.page_url
        ? h('a', { href: w.page_url, target: '_blank', rel: 'noopener', 'data-testid': 'wall-page' }, ['Open page', ref.cloneNode(true)])
        : null,
      w.page_url
        ? btn('copy', 'Copy link', function (ev) {
            copy(w.page_url, ev.currentTarget as HTMLButtonElement, 'Copy link');
          })
        : null,
      btn('edit', 'Edit', function () {
        open(w);
      }),
      btn(
        'delete',
        'Delete',
        function () {
          remove(w);
        },
        'danger',
      ),
    ]),
  ]);
}

function remove(w: Wall): void {
  if (!confirm('Delete the gallery wall "' + w.name + '"? Its page and AR files are deleted.')) return;
  api('DELETE', W.WALLS + '/' + seg(w.id)).then(
    function () {
      say('Gallery wall "' + w.name + '" deleted.');
      if (W.A && W.A.wall && W.A.wall.id === w.id) close();
      if (W.E.result.getAttribute('data-id') === w.id) W.E.result.hidden = true;
      W.E.newBtn.focus();
      loadList();
    },
    function (e) {
      say(errMessage(e));
    },
  );
}

/** Copies a link; the button says so for 2 s and the status line names what was copied. */
function copy(text: string, btn: HTMLButtonElement, label: string): void {
  const done = function () {
    btn.firstChild!.textContent = 'Copied';
    say('Link copied: ' + text);
    setTimeout(function () {
      btn.firstChild!.textContent = label;
    }, 2000);
  };
  const fallback = function () {
    const ta = h('textarea', { class: 'sr-only', 'aria-hidden': 'true', tabindex: '-1' });
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    ta.remove();
    btn.focus();
    if (ok) done();
    else say('Copy this link: ' + text);
  };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
  else fallback();
}

// ---- after a save: the wall's build, polled until its poster and page are there

export function showResult(w: Wall): void {
  W.E.result.hidden = false;
  W.E.result.setAttribute('data-id', w.id);
  W.E.result.setAttribute('data-status', w.status);
  const done = w.status === 'completed';
  const linkId = 'wall-share-' + w.id.replace(/[^A-Za-z0-9_-]/g, '');
  const copyBtn = h('button', { type: 'button', class: 'secondary', 'data-testid': 'wall-copy-link' }, ['Copy link']);
  copyBtn.addEventListener('click', function () {
    copy(w.page_url, copyBtn, 'Copy link');
  });
  fill(W.E.result, [
    h('h3', { text: w.name }),
    h('p', { 'data-testid': 'wall-build', role: 'status' }, [
      statusBadge(w.status),
      ' ',
      done
        ? 'Its AR model is ready.'
        : w.status === 'failed'
          ? 'The build failed: ' + ((w.error && (w.error.message || w.error)) || 'unknown error') + '. Edit it to try again.'
          : 'Building its AR model…',
    ]),
    done && w.preview_url
      ? h('img', { class: 'wall-poster', src: w.preview_url, alt: 'Poster of ' + w.name, 'data-testid': 'wall-poster' })
      : null,
    w.page_url
      ? h('div', { class: 'wall-share' }, [
          h('label', { for: linkId, text: 'Share link (its page)' }),
          h('div', { class: 'wall-share-row' }, [
            h('input', { id: linkId, type: 'url', readonly: true, value: w.page_url, 'data-testid': 'wall-link' }),
            copyBtn,
            h('a', { href: w.page_url, target: '_blank', rel: 'noopener', text: 'Open page' }),
          ]),
        ])
      : null,
  ]);
}

export function pollResult(wallId: string): void {
  clearTimeout(W.resultTimer);
  api<Wall>('GET', W.WALLS + '/' + seg(wallId)).then(
    function (w) {
      if (W.E.result.getAttribute('data-id') !== w.id) return;
      const was = W.E.result.getAttribute('data-status');
      if (was !== w.status) showResult(w);
      if (active(w.status)) W.resultTimer = setTimeout(pollResult, 1500, wallId);
      else {
        say(w.status === 'completed' ? 'Gallery wall "' + w.name + '" is ready.' : 'Gallery wall "' + w.name + '" could not be built.');
        loadList();
      }
    },
    function (e) {
      say(errMessage(e));
    },
  );
}
