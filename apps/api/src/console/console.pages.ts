/**
 * The console's HTML, rendered on the server. Every value from a user or the database goes through
 * {@link esc}; pages carry no inline script or style (the CSP forbids them): behaviour comes from
 * /console/assets/console.js, which reads `data-page` and fills the page from the public API.
 */
import { COLOR_PRESETS, FLOAT_DEFAULT_REVEAL, FRAME_DEFAULTS } from '@app/plugins';
import { VARIANT_LIMITS } from '../showcases/item/variants.schema';
import { LAYOUTS } from '../showcases/showcases.schema';

export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface Viewer {
  email: string;
  name: string | null;
  role: 'customer' | 'owner';
  csrf: string;
}

const NAV: { href: string; label: string; page: string; owner?: boolean }[] = [
  { href: '/console', label: 'Overview', page: 'overview' },
  { href: '/console/keys', label: 'API keys', page: 'keys' },
  { href: '/console/showcases', label: 'Showcases', page: 'showcases' },
  { href: '/console/connections', label: 'Connections', page: 'connections' },
  { href: '/console/analytics', label: 'Analytics', page: 'analytics' },
  { href: '/console/convert', label: 'Convert', page: 'convert' },
  { href: '/console/jobs', label: 'Jobs', page: 'jobs' },
  { href: '/console/usage', label: 'Usage', page: 'usage' },
  { href: '/console/webhooks', label: 'Webhooks', page: 'webhooks' },
  { href: '/console/admin/users', label: 'Users', page: 'admin-users', owner: true },
  { href: '/console/admin/jobs', label: 'Failed jobs', page: 'admin-jobs', owner: true },
  { href: '/console/admin/queue', label: 'Queue', page: 'admin-queue', owner: true },
];

function head(title: string, csrf?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · AR console</title>${csrf ? `<meta name="csrf-token" content="${esc(csrf)}">` : ''}
<link rel="icon" href="data:,"><link rel="stylesheet" href="/console/assets/console.css"><script src="/console/assets/console.js" defer></script></head>`;
}

const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
/** The showcase layouts, as the API takes them (LAYOUTS). */
const LAYOUT_OPTIONS = LAYOUTS.map((l) => `<option value="${l}">${cap(l)}</option>`).join('');
/** The named frame and mat colours (COLOR_PRESETS); the API takes "#rrggbb" too. */
const COLOUR_OPTIONS = Object.keys(COLOR_PRESETS)
  .map((c) => `<option value="${c}">${cap(c)}</option>`)
  .join('');
/**
 * What the variants editor's drawing needs to frame a picture as the engine does (libs/plugins presentation):
 * the colour presets, each frame style's moulding width and colour, the float reveal, the limits.
 */
const LOOK = JSON.stringify({
  colors: COLOR_PRESETS,
  frames: FRAME_DEFAULTS,
  float_reveal: FLOAT_DEFAULT_REVEAL,
  max_variants: VARIANT_LIMITS.perItem,
});

/** A signed-in page: header with navigation and sign-out, the page's main content. */
export function layout(v: Viewer, page: string, title: string, main: string, data: Record<string, string> = {}): string {
  const attrs = Object.entries(data)
    .map(([k, val]) => ` data-${k}="${esc(val)}"`)
    .join('');
  const nav = NAV.filter((n) => !n.owner || v.role === 'owner')
    .map((n) => `<li><a href="${n.href}"${n.page === page ? ' aria-current="page"' : ''}>${esc(n.label)}</a></li>`)
    .join('');
  return `${head(title, v.csrf)}<body data-page="${esc(page)}"${attrs}>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><a class="brand" href="/console">AR console</a>
<nav aria-label="Main"><ul>${nav}</ul></nav>
<div class="who"><span>${esc(v.email)}${v.role === 'owner' ? ' <span class="badge">owner</span>' : ''}</span>
<form method="post" action="/console/logout"><input type="hidden" name="_csrf" value="${esc(v.csrf)}"><button type="submit" class="link">Sign out</button></form></div></header>
<main id="main" tabindex="-1"><h1>${esc(title)}</h1>
<p class="status" role="status" aria-live="polite" data-testid="status"></p>
${main}</main></body></html>`;
}

/** A page shown before signing in (sign in, invite, errors). */
export function plain(title: string, main: string): string {
  return `${head(title)}<body data-page="plain"><main id="main" class="narrow"><p class="brand">AR console</p><h1>${esc(title)}</h1>${main}</main></body></html>`;
}

type FieldErrors = Partial<Record<string, string>>;

function field(name: string, label: string, type: string, errors: FieldErrors, extra = ''): string {
  const err = errors[name];
  const id = `f-${name}`;
  return `<div class="field"><label for="${id}">${esc(label)}</label>
<input id="${id}" name="${name}" type="${type}"${extra}${err ? ` aria-invalid="true" aria-describedby="${id}-err"` : ''} required>
${err ? `<p class="error" id="${id}-err">${esc(err)}</p>` : ''}</div>`;
}

export function loginPage(csrf: string, opts: { email?: string; errors?: FieldErrors; notice?: string } = {}): string {
  const errors = opts.errors ?? {};
  return plain(
    'Sign in',
    `${opts.notice ? `<p class="notice" role="status">${esc(opts.notice)}</p>` : ''}
${errors.form ? `<p class="error" role="alert">${esc(errors.form)}</p>` : ''}
<form method="post" action="/console/login" class="card" novalidate>
<input type="hidden" name="_csrf" value="${esc(csrf)}">
${field('email', 'Email', 'email', errors, ` autocomplete="username" value="${esc(opts.email ?? '')}"`)}
${field('password', 'Password', 'password', errors, ' autocomplete="current-password"')}
<button type="submit">Sign in</button></form>
<p class="hint">No account yet? Ask the operator for an invite link.</p>`,
  );
}

export function invitePage(csrf: string, token: string, email: string, errors: FieldErrors = {}): string {
  return plain(
    'Set your password',
    `<p>Welcome, <strong>${esc(email)}</strong>. Choose a password of at least 10 characters to finish setting up your account.</p>
${errors.form ? `<p class="error" role="alert">${esc(errors.form)}</p>` : ''}
<form method="post" action="/console/invite" class="card" novalidate>
<input type="hidden" name="_csrf" value="${esc(csrf)}"><input type="hidden" name="token" value="${esc(token)}">
<input type="text" name="username" value="${esc(email)}" autocomplete="username" hidden>
${field('password', 'Password', 'password', errors, ' autocomplete="new-password" minlength="10"')}
${field('confirm', 'Confirm password', 'password', errors, ' autocomplete="new-password" minlength="10"')}
<button type="submit">Set password</button></form>`,
  );
}

export function messagePage(title: string, message: string, link = { href: '/console/login', label: 'Go to sign in' }): string {
  return plain(title, `<p>${esc(message)}</p><p><a href="${esc(link.href)}">${esc(link.label)}</a></p>`);
}

const loading = '<p class="loading" data-testid="loading">Loading…</p>';

export function overviewPage(v: Viewer): string {
  return layout(
    v,
    'overview',
    'Overview',
    `<section class="cards" aria-label="Account">
<div class="card"><h2>Balance</h2><p class="big" data-testid="balance">…</p></div>
<div class="card"><h2>Jobs this month</h2><p class="big" data-testid="jobs-month">…</p></div>
<div class="card"><h2>Showcase slots</h2><p class="big" data-testid="slots">…</p></div></section>
<section><h2>Recent failures</h2><div data-testid="failures">${loading}</div></section>`,
  );
}

export function keysPage(v: Viewer): string {
  // The owner acts with the owner key, which has no per-user keys: users' keys are managed per user.
  if (v.role === 'owner') {
    return layout(
      v,
      'keys',
      'API keys',
      `<p>You are signed in as the operator: the console acts with the owner key, which has no per-user keys.
The owner key itself is set with <code>OWNER_API_KEY</code> (or kept in <code>DATA_DIR/owner-api-key</code>); create keys for a user with
<code>npm run admin -- keys:create usr_…</code>.</p>`,
    );
  }
  return layout(
    v,
    'keys',
    'API keys',
    `<form class="card inline" data-form="create-key" novalidate>
<div class="field"><label for="key-name">Name</label><input id="key-name" name="name" maxlength="100" required aria-describedby="key-name-err"><p class="error" id="key-name-err" hidden></p></div>
<div class="field"><label for="key-scope">Scope</label><select id="key-scope" name="scope"><option value="full">Full</option><option value="read_only">Read only</option></select></div>
<button type="submit">Create key</button></form>
<div class="card reveal" data-testid="new-key-box" hidden><h2>Your new key</h2><p>Copy it now: it is shown only once.</p>
<p><code data-testid="new-api-key"></code> <button type="button" data-copy="[data-testid=new-api-key]">Copy</button></p></div>
<h2>Your keys</h2><div data-testid="keys">${loading}</div>`,
  );
}

export function showcasesPage(v: Viewer): string {
  return layout(
    v,
    'showcases',
    'Showcases',
    `<form class="card inline" data-form="create-showcase" novalidate>
<div class="field"><label for="sc-desc">Description</label><input id="sc-desc" name="description" maxlength="500"></div>
<div class="field"><label for="sc-layout">Layout</label><select id="sc-layout" name="layout_choice">${LAYOUT_OPTIONS}</select></div>
<button type="submit">Create showcase</button><p class="error" data-error="form" hidden></p></form>
<h2>Your showcases</h2><div data-testid="showcases">${loading}</div>`,
  );
}

export function showcasePage(v: Viewer, id: string, qrSvg: string, publicUrl: string): string {
  return layout(
    v,
    'showcase',
    `Showcase ${id}`,
    `<div class="split">
<section class="card"><h2>Branding</h2><form data-form="branding" novalidate>
<div class="field"><label for="b-tagline">Tagline</label><input id="b-tagline" name="tagline" maxlength="200"></div>
<div class="field"><label for="b-primary">Primary colour</label><input id="b-primary" name="primary_color" type="color" value="#1f6feb"></div>
<div class="field"><label for="b-secondary">Secondary colour</label><input id="b-secondary" name="secondary_color" type="color" value="#ffffff"></div>
<div class="field"><label for="b-desc">Description</label><textarea id="b-desc" name="description" maxlength="500" rows="2"></textarea></div>
<div class="field"><label for="b-layout">Layout</label><select id="b-layout" name="layout_choice">${LAYOUT_OPTIONS}</select></div>
<button type="submit">Save branding</button><p class="error" data-error="branding" hidden></p></form></section>
<section class="card"><h2>Preview</h2><div class="preview" data-testid="preview"><p class="pv-tagline"></p><p class="pv-desc"></p><span class="pv-button">View in AR</span></div></section></div>
<section class="card"><h2>Add pictures</h2>
<fieldset class="inline opts"><legend>Presentation of the pictures you add next</legend>
<div class="field"><label for="pic-frame">Frame</label><select id="pic-frame" name="frame"><option value="">None</option><option value="thin">Thin</option><option value="classic">Classic</option><option value="float">Float</option><option value="canvas">Canvas wrap</option></select></div>
<div class="field"><label for="pic-frame-color">Frame colour</label><select id="pic-frame-color" name="frame_color"><option value="">Frame's own</option>${COLOUR_OPTIONS}</select></div>
<div class="field"><label for="pic-mat">Mat (in)</label><input id="pic-mat" name="mat_width" type="number" min="0" max="12" step="0.25" value="0" inputmode="decimal"></div>
<div class="field"><label for="pic-mat-color">Mat colour</label><select id="pic-mat-color" name="mat_color">${COLOUR_OPTIONS.replace('value="white"', 'value="white" selected')}</select></div>
<div class="field"><label for="pic-placement">Placement</label><select id="pic-placement" name="placement"><option value="">Showcase default</option><option value="wall">Wall</option><option value="floor">Floor</option></select></div></fieldset>
<div class="drop" data-testid="dropzone" tabindex="0" role="button" aria-describedby="drop-help">Drop pictures here, or press Enter to choose files</div>
<p id="drop-help" class="hint">JPEG, PNG or WebP. Each picture costs 2 credits (the owner is not charged).</p>
<input type="file" id="file-input" accept="image/*" multiple hidden>
<form data-form="add-url" class="inline" novalidate><div class="field"><label for="pic-url">Picture URL</label><input id="pic-url" name="url" type="url" aria-describedby="pic-url-err"><p class="error" id="pic-url-err" hidden></p></div>
<button type="submit">Add by URL</button></form>
<ul class="uploads" data-testid="uploads" aria-label="Uploads"></ul></section>
<section class="card" data-testid="catalogue-import"><h2>Import a catalogue (CSV)</h2>
<p class="hint" id="csv-help">One row per work under a header row, separated by commas or semicolons (as spreadsheets export it): <code>image_url</code>, <code>external_id</code>, <code>title</code>, <code>artist</code>, <code>year</code>, <code>medium</code>, <code>edition</code>, <code>price</code>, <code>availability</code>, <code>width_cm</code> and <code>height_cm</code> (or <code>width_inches</code> and <code>height_inches</code>), <code>frame</code>, <code>description</code> and the other fields of a picture. A row whose <code>external_id</code> is already here updates that picture. You see a preview, the price and any errors before anything is imported.</p>
<div class="field"><label for="csv-file">CSV file</label><input type="file" id="csv-file" accept=".csv,text/csv" aria-describedby="csv-help csv-file-err"><p class="error" id="csv-file-err" hidden></p></div>
<div data-testid="csv-preview"></div>
<div data-testid="csv-check"></div>
<p><button type="button" data-action="import-csv" hidden>Import</button></p>
<div data-testid="import-progress"></div></section>
<section><h2>Pictures</h2><p class="hint" id="order-help">Drag a picture onto another to move it there, or use Move up and Move down. Edit changes its label, size and frame: a new size, fit or frame rebuilds its AR files.</p>
<div data-testid="items">${loading}</div></section>
<section class="card variants" id="variants-panel" data-testid="variants" aria-labelledby="variants-title" hidden>
<div class="variants-head"><h2 id="variants-title" tabindex="-1">Variants</h2><button type="button" class="secondary" data-action="close-variants">Close</button></div>
<p class="hint" id="variants-help">The sizes and frames this picture is sold in, each with its own SKU, price and availability (at most ${VARIANT_LIMITS.perItem}). Select a row to see it framed. Drag a row by its handle or use Move up and Move down to change the order the page lists them in. Save sends the whole table; a new size, frame or mat rebuilds that variant's AR files only.</p>
<div data-testid="variants-body"></div></section>
<section class="split"><div class="card"><h2>Embed</h2><label for="embed-snippet">Embed snippet</label>
<textarea id="embed-snippet" data-testid="embed-snippet" readonly rows="3"></textarea>
<button type="button" data-copy="#embed-snippet" data-testid="copy-embed">Copy embed snippet</button>
<p><a href="${esc(publicUrl)}" target="_blank" rel="noopener">Open the public page</a></p></div>
<div class="card"><h2>QR code</h2><div class="qr" data-testid="qr" role="img" aria-label="QR code of the public page">${qrSvg}</div></div></section>
<section class="card danger"><h2>Delete showcase</h2><p>Deletes every picture and its files. This cannot be undone.</p><button type="button" data-action="delete-showcase" class="danger">Delete showcase</button></section>`,
    { id, look: LOOK },
  );
}

/** Shop connections: the script draws the cards (GET /api/v2/connections) and the connect form. */
export function connectionsPage(v: Viewer): string {
  return layout(
    v,
    'connections',
    'Connections',
    `<p class="hint">Connect a Shopify or WooCommerce shop once: its products come into a showcase at their real sizes and stay in sync, and the AR links go back to the shop's product pages. How to make the shop's credentials: <a href="/docs#/connections">the API reference</a> and <code>docs/integrations.md</code>.</p>
<section aria-labelledby="con-list-title"><h2 id="con-list-title" tabindex="-1">Your shops</h2><div class="conn-list" data-testid="connections">${loading}</div></section>
<section class="card" aria-labelledby="con-new-title"><h2 id="con-new-title">Connect a shop</h2><div data-testid="connect">${loading}</div></section>`,
  );
}

export function jobsPage(v: Viewer): string {
  return layout(
    v,
    'jobs',
    'Jobs',
    `<form class="inline card" data-form="job-filter">
<div class="field"><label for="jf-status">Status</label><select id="jf-status" name="status"><option value="">Any</option><option>queued</option><option>downloading</option><option>converting</option><option>uploading</option><option>completed</option><option>failed</option></select></div>
<button type="submit">Filter</button></form><div data-testid="jobs">${loading}</div>`,
  );
}

export function jobPage(v: Viewer, id: string): string {
  return layout(
    v,
    'job',
    `Job ${id}`,
    `<div data-testid="job">${loading}</div>
<h2>Stages</h2><ol class="timeline" data-testid="timeline"></ol>
<div data-testid="stage-times"></div>
<p><button type="button" data-action="cancel-job" hidden>Cancel job</button> <button type="button" data-action="retry-job" hidden>Retry job</button></p>`,
    { id },
  );
}

export function usagePage(v: Viewer): string {
  return layout(
    v,
    'usage',
    'Usage',
    `<section class="card"><h2>Credits per day (last 30 days)</h2><div data-testid="chart" class="chart">${loading}</div></section>
<section><h2>Ledger</h2><p><button type="button" data-action="csv">Download CSV</button></p><div data-testid="ledger">${loading}</div></section>`,
  );
}

export function convertPage(v: Viewer): string {
  return layout(
    v,
    'convert',
    'Convert',
    `<div class="split">
<form class="card" data-form="convert-v1" novalidate><h2>Still picture (free)</h2>
<div class="field"><label for="cv-url">Picture URL</label><input id="cv-url" name="image_url" type="url" required aria-describedby="cv-url-err"><p class="error" id="cv-url-err" hidden></p></div>
<div class="field"><label for="cv-ratio">Aspect ratio</label><select id="cv-ratio" name="aspect_ratio"><option value="">From the picture</option><option>1:1</option><option>4:3</option><option>3:2</option><option>16:9</option></select></div>
<p class="price">Price: free</p><button type="submit">Convert still picture</button></form>
<form class="card" data-form="convert-animated" novalidate><h2>Animated</h2>
<div class="field"><label for="ca-url">Picture or video URL</label><input id="ca-url" name="source_url" type="url" required aria-describedby="ca-url-err"><p class="error" id="ca-url-err" hidden></p></div>
<div class="field"><label for="ca-source">Source</label><select id="ca-source" name="source"><option value="image">Picture</option><option value="video">Video</option></select></div>
<div class="field check"><input id="ca-bg" name="remove_background" type="checkbox"><label for="ca-bg">Remove the background</label></div>
<p class="price" data-testid="animated-price" aria-live="polite">Price: …</p><button type="submit">Convert animated</button></form></div>
<section><h2>Result</h2><div data-testid="convert-result"><p class="empty">Nothing converted yet.</p></div></section>`,
  );
}

export function webhooksPage(v: Viewer): string {
  return layout(
    v,
    'webhooks',
    'Webhooks',
    `<p class="hint">Each attempt to deliver a callback (<code>callback_url</code>) to your server, newest first. Failed attempts are retried with growing delays.</p>
<div data-testid="deliveries">${loading}</div>`,
  );
}

export function adminUsersPage(v: Viewer): string {
  return layout(
    v,
    'admin-users',
    'Users',
    `<form class="card inline" data-form="invite" novalidate>
<div class="field"><label for="inv-email">Email</label><input id="inv-email" name="email" type="email" required aria-describedby="inv-email-err"><p class="error" id="inv-email-err" hidden></p></div>
<button type="submit">Invite</button></form>
<div class="card reveal" data-testid="invite-box" hidden><h2>Invite link</h2><p>Single use, valid 7 days. Send it to the person.</p><p><code data-testid="invite-url"></code> <button type="button" data-copy="[data-testid=invite-url]">Copy</button></p></div>
<div data-testid="users">${loading}</div>`,
  );
}

export function adminJobsPage(v: Viewer): string {
  return layout(v, 'admin-jobs', 'Failed jobs', `<div data-testid="failed-jobs">${loading}</div>`);
}

export function adminQueuePage(v: Viewer): string {
  return layout(v, 'admin-queue', 'Queue health', `<div data-testid="queue">${loading}</div>`);
}

/** The Analytics page's filters as the URL gives them (checked: anything else is the default). */
export interface AnalyticsFilters {
  from: string;
  to: string;
  showcaseId: string;
  accountId: string;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
const utcDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const realDay = (d: unknown): d is string =>
  typeof d === 'string' && DAY_RE.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && utcDay(Date.parse(`${d}T00:00:00Z`)) === d;

/**
 * The filters of /console/analytics from its query: from/to (UTC days; default the last 30 days, as the API),
 * showcase_id (a whole number) and, for the owner, account_id. A value that is not one of these is dropped.
 */
export function analyticsFilters(q: Record<string, unknown>, role: Viewer['role'], now = Date.now()): AnalyticsFilters {
  const to = realDay(q.to) ? q.to : utcDay(now);
  const from = realDay(q.from) && q.from <= to ? q.from : utcDay(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS);
  const showcaseId = typeof q.showcase_id === 'string' && /^[1-9][0-9]{0,9}$/.test(q.showcase_id) ? q.showcase_id : '';
  const accountId = role === 'owner' && typeof q.account_id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(q.account_id) ? q.account_id : '';
  return { from, to, showcaseId, accountId };
}

/** What the pages count and what they keep: the empty state and the page's footnote. */
const PRIVACY =
  'No cookies, no IP address stored (only a hash salted anew each day, to count unique visitors), and visitors whose browser sends Do Not Track or Global Privacy Control are not counted; neither are bots.';

/**
 * Engagement from the public pages (GET /api/v2/analytics): filters kept in the URL, the funnel, views and AR
 * launches per day (an SVG drawn by the script, with a data table), pictures ranked by AR launches, platforms,
 * referrers and CSV downloads. The script fills it; the filter form also works as a plain GET form.
 */
export function analyticsPage(v: Viewer, f: AnalyticsFilters, now = Date.now()): string {
  const today = utcDay(now);
  const quick = [7, 30, 90]
    .map(
      (n) =>
        `<button type="button" class="secondary" data-days="${n}" aria-pressed="false"><span class="sr-only">Last </span>${n} days</button>`,
    )
    .join('');
  const account =
    v.role === 'owner'
      ? `<div class="field wide"><label for="an-account">Account</label><select id="an-account" name="account_id" data-testid="filter-account"><option value="">All accounts</option>${
          f.accountId ? `<option value="${esc(f.accountId)}" selected>${esc(f.accountId)}</option>` : ''
        }</select></div>`
      : '';
  const csv = (by: string, what: string) =>
    `<a class="csv" data-csv="${by}" href="#" download>Download CSV<span class="sr-only"> of ${what}</span></a>`;
  return layout(
    v,
    'analytics',
    'Analytics',
    `<form class="card filters" data-form="analytics-filter" method="get" action="/console/analytics" novalidate aria-label="Filters">
${account}<div class="field wide"><label for="an-showcase">Showcase</label><select id="an-showcase" name="showcase_id" data-testid="filter-showcase"><option value="">All showcases</option>${
      f.showcaseId ? `<option value="${esc(f.showcaseId)}" selected>Showcase ${esc(f.showcaseId)}</option>` : ''
    }</select></div>
<div class="field"><label for="an-from">From</label><input id="an-from" name="from" type="date" value="${esc(f.from)}" max="${today}" required aria-describedby="an-range-err an-utc"></div>
<div class="field"><label for="an-to">To</label><input id="an-to" name="to" type="date" value="${esc(f.to)}" max="${today}" required aria-describedby="an-range-err an-utc"></div>
<div class="quick" role="group" aria-label="Quick ranges">${quick}</div>
<button type="submit">Show</button>
<p class="error" id="an-range-err" hidden></p>
<p class="hint" id="an-utc">Days are UTC (today: ${today}). The page's address keeps the filters, to share or bookmark the view.</p></form>
<p class="sr-only" role="status" aria-live="polite" data-testid="analytics-live"></p>
<div data-testid="analytics">${loading}</div>
<section class="card empty-state" data-testid="analytics-empty" aria-labelledby="an-empty-title" hidden>
<h2 id="an-empty-title">Nothing counted yet</h2>
<p data-testid="empty-range"></p>
<p>Counted here: views of your public pages (showcase, picture, wall and embed pages, the widget, the QR hand-off), 3D interactions (the preview turned or zoomed), AR launches (AR Quick Look, Scene Viewer, WebXR), taps on the AR banner or buy button, QR opens and variant choices. New events show within seconds.</p>
<p>Privacy: ${PRIVACY} See <a href="/docs#/analytics">the API reference</a> and the Privacy section of <code>docs/analytics.md</code>.</p></section>
<div class="an-results" data-testid="analytics-results" hidden>
<section class="card" aria-labelledby="an-funnel-title"><h2 id="an-funnel-title">Funnel</h2>
<ol class="funnel" data-testid="funnel"></ol>
<dl class="figures" data-testid="figures"></dl></section>
<section class="card" aria-labelledby="an-daily-title"><div class="sec-head"><h2 id="an-daily-title">Views and AR launches per day</h2>${csv('day', 'the daily counts')}</div>
<ul class="legend" aria-hidden="true"><li><span class="key k-views"></span>Views</li><li><span class="key k-ar"></span>AR launches</li></ul>
<div class="an-chart" data-testid="daily-chart"></div>
<p><button type="button" class="secondary" data-action="toggle-daily" aria-expanded="false" aria-controls="an-daily-table">Show as a table</button></p>
<div id="an-daily-table" data-testid="daily-table" hidden></div></section>
<section class="card" aria-labelledby="an-items-title"><div class="sec-head"><h2 id="an-items-title">Pictures ranked by AR launches</h2>${csv('item', 'the pictures')}</div>
<div data-testid="items-table"></div></section>
<div class="split">
<section class="card" aria-labelledby="an-platform-title"><div class="sec-head"><h2 id="an-platform-title">AR launches by platform</h2>${csv('platform', 'the platforms')}</div>
<div data-testid="platforms"></div></section>
<section class="card" aria-labelledby="an-referrer-title"><div class="sec-head"><h2 id="an-referrer-title">Top referrers</h2>${csv('referrer', 'the referrers')}</div>
<div data-testid="referrers"></div></section></div></div>
<p class="hint" data-testid="privacy">How it is counted: ${PRIVACY}</p>`,
    { today, role: v.role },
  );
}
