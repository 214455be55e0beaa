/**
 * The connect form (a new Shopify or WooCommerce connection: the shop, its credentials, the showcase it fills,
 * what is written back, units, frames, the schedule) and a connection's edit form (its settings and, write-only,
 * new credentials: saved ones are never shown, their inputs stay empty). Errors show at the field the API names.
 */
import { api, type ApiError, type ErrorLike } from '../../shared/api';
import type { Connection, CreateConnectionRequest, UpdateConnectionRequest } from '../../shared/api-types';
import { $, $all, fill, h, say } from '../../shared/dom';
import { connectionPath, runTest } from './connection-actions';
import {
  CREDENTIALS,
  type CredentialField,
  PLATFORM_NAMES,
  type Platform,
  PUSH_CHOICES,
  SAVED_SECRET,
  SHOP_FIELD,
} from './connection-text';
import { cs, partsOf } from './connections-state';
import { framesTable, type FramesTable, sameFrames } from './frames-table';

const MAX_HOURS = 168;

/** A labelled field: label, control, hint and its (hidden) error line, the control described by both. */
function field(id: string, label: string, control: HTMLElement, hint?: string): HTMLDivElement {
  const ids = (hint ? id + '-hint ' : '') + id + '-err';
  control.setAttribute('id', id);
  control.setAttribute('aria-describedby', ids);
  return h('div', { class: 'field' }, [
    h('label', { for: id, text: label }),
    control,
    hint ? h('p', { class: 'hint', id: id + '-hint', text: hint }) : null,
    h('p', { class: 'error', id: id + '-err', hidden: true }),
  ]);
}

function select(name: string, choices: { value: string; label: string }[], value: string): HTMLSelectElement {
  const s = h(
    'select',
    { name: name },
    choices.map(function (c) {
      return h('option', { value: c.value, text: c.label });
    }),
  );
  s.value = value;
  return s;
}

/** A secret's input: never filled by the page; autocomplete off so the browser does not offer to keep it. */
function secretInput(f: CredentialField, saved: boolean): HTMLInputElement {
  return h('input', {
    name: f.name,
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    maxlength: '512',
    placeholder: saved ? SAVED_SECRET : null,
    required: !saved,
  });
}

function clearErrors(form: HTMLFormElement): void {
  $all('.error', form).forEach(function (e) {
    e.hidden = true;
    e.textContent = '';
  });
  $all('[aria-invalid]', form).forEach(function (e) {
    e.removeAttribute('aria-invalid');
  });
}

/** An error at the field it names (`frames.<value>` at that frames row), else on the form; focus goes there. */
function showProblem(form: HTMLFormElement, frames: FramesTable, err: ErrorLike): void {
  const e = (err && err.error) || {};
  const msg = e.message || 'Something went wrong.';
  const param = String(e.param || '');
  say(msg);
  if (param.indexOf('frames') === 0 && frames.fail(param.slice('frames.'.length), msg)) return;
  const input = param ? $<HTMLElement>('[name="' + param.split(/[.[]/)[0] + '"]', form) : null;
  const box = input ? $('#' + input.id + '-err', form) : null;
  const target = box || $('[data-error]', form);
  if (target) {
    target.textContent = msg;
    target.hidden = false;
  }
  if (input) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
  }
}

/** The settings both forms have: what is written back, units, the schedule and the frames table. */
interface Settings {
  nodes: HTMLElement[];
  frames: FramesTable;
  read(form: HTMLFormElement): Pick<UpdateConnectionRequest, 'push' | 'units' | 'sync_interval_hours' | 'frames'> | null;
}

function settings(prefix: string, platform: Platform, c: Connection | null): Settings {
  const push = select('push', PUSH_CHOICES[platform], c ? c.push : 'metafields');
  const units = select(
    'units',
    [
      { value: 'cm', label: 'Centimetres' },
      { value: 'in', label: 'Inches' },
    ],
    c ? c.units : 'cm',
  );
  const hours = h('input', {
    name: 'sync_interval_hours',
    type: 'number',
    min: '0',
    max: String(MAX_HOURS),
    step: '1',
    inputmode: 'numeric',
    value: String(c ? c.sync_interval_hours : 24),
    required: true,
  });
  const frames = framesTable(prefix, c ? c.frames : {});
  return {
    nodes: [
      h('div', { class: 'conn-grid' }, [
        field(prefix + '-push', 'Write back to the shop', push, 'What each product gets, so its page can show the AR view.'),
        field(prefix + '-units', 'Sizes written without a unit are in', units, '"50 x 70" in a variant\'s options.'),
        field(
          prefix + '-hours',
          'Sync every (hours)',
          hours,
          '0 to ' + MAX_HOURS + ". 0: no schedule (Sync now and the shop's webhooks still sync).",
        ),
      ]),
      frames.el,
    ],
    frames: frames,
    read: function (form) {
      const n = Number(hours.value);
      if (hours.value.trim() === '' || !(n >= 0 && n <= MAX_HOURS) || Math.floor(n) !== n) {
        showProblem(form, frames, {
          error: { param: 'sync_interval_hours', message: 'Enter a whole number of hours from 0 (no schedule) to ' + MAX_HOURS + '.' },
        });
        return null;
      }
      const f = frames.read();
      if ('error' in f) {
        frames.fail(f.input.value.trim(), f.error);
        f.input.setAttribute('aria-invalid', 'true');
        f.input.focus();
        say(f.error);
        return null;
      }
      return {
        push: push.value as Connection['push'],
        units: units.value as Connection['units'],
        sync_interval_hours: n,
        frames: f.frames,
      };
    },
  };
}

/** The connect form, drawn into `box`: the platform picks the shop and credential fields. */
export function connectForm(box: HTMLElement): void {
  const form = h('form', { class: 'conn-form', 'data-form': 'connect', novalidate: true });
  const shopPart = h('div', { class: 'conn-grid' });
  const settingsPart = h('div');
  let platform: Platform = 'shopify';
  let current: Settings;
  const showcase = h('select', { name: 'showcase_id', required: true });
  const submit = h('button', { type: 'submit', text: 'Connect' });

  function draw(p: Platform) {
    platform = p;
    const sf = SHOP_FIELD[p];
    fill(
      shopPart,
      [
        field(
          'cn-' + sf.name,
          sf.label,
          h('input', {
            name: sf.name,
            type: sf.type,
            placeholder: sf.placeholder,
            autocomplete: 'off',
            spellcheck: 'false',
            required: true,
          }),
          sf.hint,
        ),
      ].concat(
        CREDENTIALS[p].map(function (f) {
          return field('cn-' + f.name, f.label, secretInput(f, false), f.hint);
        }),
      ),
    );
    current = settings('cn', p, null);
    fill(settingsPart, current.nodes);
  }

  const radios = (['shopify', 'woocommerce'] as Platform[]).map(function (p) {
    return h('label', { class: 'choice' }, [
      h('input', {
        type: 'radio',
        name: 'platform',
        value: p,
        checked: p === 'shopify',
        on: {
          change: function () {
            clearErrors(form);
            draw(p);
          },
        },
      }),
      ' ' + PLATFORM_NAMES[p],
    ]);
  });

  fill(form, [
    h('fieldset', { class: 'choices' }, ([h('legend', { text: 'Platform' })] as HTMLElement[]).concat(radios)),
    shopPart,
    field(
      'cn-showcase',
      'Showcase to fill',
      showcase,
      "Each of the shop's products becomes a picture of this showcase, with its sizes as variants.",
    ),
    settingsPart,
    h('p', { class: 'error', 'data-error': 'connect', role: 'alert', hidden: true }),
    h('p', { class: 'conn-buttons' }, [submit]),
  ]);
  draw('shopify');
  fill(box, form);
  fillShowcases(form, showcase, submit);

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    clearErrors(form);
    const fd = new FormData(form);
    const sf = SHOP_FIELD[platform];
    const missing = [sf.name as string]
      .concat(
        CREDENTIALS[platform].map(function (f) {
          return f.name;
        }),
      )
      .filter(function (n) {
        return !String(fd.get(n) || '').trim();
      })[0];
    if (missing) {
      const label = missing === sf.name ? sf.label : CREDENTIALS[platform].filter((f) => f.name === missing)[0].label;
      // "Shop domain" → "the shop domain", "Admin API access token" stays as it is written.
      const named =
        /^[A-Z][a-z]/.test(label) && !/^[A-Z][a-z]+ [A-Z]{2}/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
      return showProblem(form, current.frames, { error: { param: missing, message: 'Enter the ' + named + '.' } });
    }
    if (!showcase.value)
      return showProblem(form, current.frames, { error: { param: 'showcase_id', message: 'Choose the showcase to fill.' } });
    const s = current.read(form);
    if (!s) return;
    const body: Record<string, unknown> = { platform: platform, showcase_id: Number(showcase.value) };
    body[sf.name] = String(fd.get(sf.name)).trim();
    CREDENTIALS[platform].forEach(function (f) {
      body[f.name] = String(fd.get(f.name)).trim();
    });
    Object.keys(s).forEach(function (k) {
      body[k] = (s as Record<string, unknown>)[k];
    });
    submit.setAttribute('aria-disabled', 'true');
    api<Connection>('POST', '/api/v2/connections', body as CreateConnectionRequest).then(
      function (c) {
        submit.removeAttribute('aria-disabled');
        // The secrets leave the page: the form starts again empty.
        form.reset();
        draw('shopify');
        say('Connected ' + c.shop + ' to showcase ' + c.showcase_id + '. Testing the connection…');
        partsOf(c.id);
        return cs.actions.load().then(function () {
          const card = $('[data-testid=connection][data-id="' + c.id + '"]');
          if (card) card.focus();
          return runTest(c);
        });
      },
      function (e: ApiError) {
        submit.removeAttribute('aria-disabled');
        showProblem(form, current.frames, e);
      },
    );
  });
}

/** The showcases to choose from (the first selected); without any, a link to make one and no Connect. */
function fillShowcases(form: HTMLFormElement, sel: HTMLSelectElement, submit: HTMLButtonElement): void {
  const list = cs.showcases;
  fill(
    sel,
    list.map(function (s) {
      return h('option', {
        value: String(s.id),
        text: 'Showcase ' + s.id + (s.description ? ' — ' + s.description : '') + ' (' + s.item_count + ' pictures)',
      });
    }),
  );
  if (!list.length) {
    sel.disabled = true;
    submit.disabled = true;
    const hint = $('#cn-showcase-hint', form);
    if (hint)
      fill(hint, [
        h('span', { text: 'You have no showcase yet: ' }),
        h('a', { href: '/console/showcases', text: 'create one' }),
        h('span', { text: ' first.' }),
      ]);
  }
}

/**
 * A connection's edit form: settings as saved, credentials empty ("saved — enter to replace"). Saving sends only
 * what changed and the secrets typed; new credentials make an unauthorized connection active again.
 */
export function editForm(c: Connection, close: () => void): HTMLFormElement {
  const prefix = 'ed-' + c.id;
  const form = h('form', { class: 'conn-form conn-edit', 'data-form': 'edit-connection', novalidate: true });
  const s = settings(prefix, c.platform, c);
  const creds = CREDENTIALS[c.platform].map(function (f) {
    return field(prefix + '-' + f.name, f.label, secretInput(f, true), 'Saved: leave empty to keep it, or enter a new one to replace it.');
  });
  const save = h('button', { type: 'submit', text: 'Save changes' });
  fill(form, [
    h('h4', { text: 'Edit ' + c.shop }),
    h('fieldset', { class: 'conn-grid' }, ([h('legend', { text: 'Credentials' })] as HTMLElement[]).concat(creds)),
    h('div', {}, s.nodes),
    h('p', { class: 'error', 'data-error': 'edit', role: 'alert', hidden: true }),
    h('p', { class: 'conn-buttons' }, [
      save,
      h('button', {
        type: 'button',
        class: 'secondary',
        text: 'Cancel',
        on: {
          click: close,
        },
      }),
    ]),
  ]);
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    clearErrors(form);
    const read = s.read(form);
    if (!read) return;
    const body: UpdateConnectionRequest = {};
    if (read.push !== c.push) body.push = read.push;
    if (read.units !== c.units) body.units = read.units;
    if (read.sync_interval_hours !== c.sync_interval_hours) body.sync_interval_hours = read.sync_interval_hours;
    if (!sameFrames(read.frames || {}, c.frames)) body.frames = read.frames;
    const fd = new FormData(form);
    CREDENTIALS[c.platform].forEach(function (f) {
      const v = String(fd.get(f.name) || '').trim();
      if (v) body[f.name] = v;
    });
    if ((body.consumer_key === undefined) !== (body.consumer_secret === undefined) && c.platform === 'woocommerce')
      return showProblem(form, s.frames, {
        error: {
          param: body.consumer_key === undefined ? 'consumer_key' : 'consumer_secret',
          message: 'A new key is a pair: enter both the consumer key and its secret.',
        },
      });
    if (!Object.keys(body).length) {
      say('Nothing changed.');
      return close();
    }
    const newSecrets = CREDENTIALS[c.platform].some(function (f) {
      return body[f.name] !== undefined;
    });
    save.setAttribute('aria-disabled', 'true');
    api<Connection>('PATCH', connectionPath(c), body).then(
      function (updated) {
        save.removeAttribute('aria-disabled');
        close();
        say('Saved ' + c.shop + '.' + (newSecrets ? ' The new credentials are stored; testing them…' : ''));
        return cs.actions.load().then(function () {
          if (newSecrets) return runTest(updated);
        });
      },
      function (e: ApiError) {
        save.removeAttribute('aria-disabled');
        showProblem(form, s.frames, e);
      },
    );
  });
  return form;
}
