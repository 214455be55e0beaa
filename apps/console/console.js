/*
 * The console's only script: small helpers, then one function per page (chosen by <body data-page>).
 * Pages are rendered on the server; this fills them from the public API with the session cookie and
 * the page's CSRF token (X-CSRF-Token). No framework, no build step, nothing loaded from elsewhere.
 */
(function () {
  'use strict';
  var csrfMeta = document.querySelector('meta[name=csrf-token]');
  var CSRF = csrfMeta ? csrfMeta.getAttribute('content') : '';
  var body = document.body;

  function $(sel, root) {
    return (root || document).querySelector(sel);
  }
  function $all(sel, root) {
    return Array.prototype.slice.call((root || document).querySelectorAll(sel));
  }

  /** Builds an element: h('a', {href: '/x', text: 'Go'}, [children]). Text is always set as text, never HTML. */
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') el.textContent = v;
      else if (k === 'on')
        Object.keys(v).forEach(function (ev) {
          el.addEventListener(ev, v[ev]);
        });
      else el.setAttribute(k, v === true ? '' : v);
    });
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return el;
  }

  function fill(el, nodes) {
    el.textContent = '';
    [].concat(nodes).forEach(function (n) {
      if (n) el.appendChild(n);
    });
  }

  function say(msg) {
    var s = $('[data-testid=status]');
    if (s) s.textContent = msg;
  }

  /** Calls the public API; rejects with {status, error} on a non-2xx answer. `type`: send `data` as is, with that type. */
  function api(method, path, data, type) {
    var headers = { 'X-CSRF-Token': CSRF };
    var bodyOut;
    if (type) {
      headers['Content-Type'] = type;
      bodyOut = data;
    } else if (data instanceof FormData) bodyOut = data;
    else if (data !== undefined) {
      headers['Content-Type'] = 'application/json';
      bodyOut = JSON.stringify(data);
    }
    return fetch(path, { method: method, headers: headers, body: bodyOut, credentials: 'same-origin' }).then(function (res) {
      if (res.status === 401) {
        location.href = '/console/login';
      }
      var ct = res.headers.get('content-type') || '';
      var parsed = res.status === 204 ? Promise.resolve(null) : ct.indexOf('json') >= 0 ? res.json() : res.text();
      return parsed.then(function (b) {
        if (!res.ok) throw { status: res.status, error: (b && b.error) || { message: String(b) } };
        return b;
      });
    });
  }

  /** Shows an API error next to the form field it names (error.param), else on the form. */
  function showError(form, err) {
    $all('.error[data-api]', form).forEach(function (e) {
      e.hidden = true;
      e.textContent = '';
    });
    $all('[aria-invalid]', form).forEach(function (e) {
      e.removeAttribute('aria-invalid');
    });
    var e = (err && err.error) || {};
    var msg = e.message || 'Something went wrong.';
    var input = e.param && form.querySelector('[name="' + String(e.param).split(/[.[]/)[0] + '"]');
    var box = input ? document.getElementById(input.getAttribute('aria-describedby')) : null;
    if (!box) box = form.querySelector('.error[data-error]') || form.querySelector('.error');
    if (input) input.setAttribute('aria-invalid', 'true');
    if (box) {
      box.textContent = msg;
      box.hidden = false;
      box.setAttribute('data-api', '');
    }
    say(msg);
  }

  function clearError(form) {
    $all('.error', form).forEach(function (e) {
      e.hidden = true;
    });
  }

  function empty(text) {
    return h('p', { class: 'empty', text: text });
  }
  function when(iso) {
    return iso ? new Date(iso).toLocaleString() : '—';
  }
  function credits(n) {
    return (Math.round(n * 100) / 100).toFixed(2);
  }

  function table(headers, rows, caption) {
    return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption }, [
      h('table', {}, [
        h('caption', { class: 'sr-only', text: caption }),
        h('thead', {}, [
          h(
            'tr',
            {},
            headers.map(function (t) {
              return h('th', { scope: 'col', text: t });
            }),
          ),
        ]),
        h(
          'tbody',
          {},
          rows.map(function (r) {
            return h(
              'tr',
              {},
              r.map(function (c) {
                return h('td', {}, [c === null || c === undefined ? '—' : typeof c === 'object' ? c : String(c)]);
              }),
            );
          }),
        ),
      ]),
    ]);
  }

  function failed(el) {
    return function (err) {
      fill(el, h('p', { class: 'error', role: 'alert', text: (err && err.error && err.error.message) || 'Could not load.' }));
    };
  }

  /** Copy buttons: data-copy names the element whose text (or value) is copied. */
  document.addEventListener('click', function (ev) {
    var btn = ev.target.closest && ev.target.closest('[data-copy]');
    if (!btn) return;
    var src = $(btn.getAttribute('data-copy'));
    var text = src ? (src.value !== undefined ? src.value : src.textContent) : '';
    var done = function () {
      btn.textContent = 'Copied';
      say('Copied to the clipboard.');
      setTimeout(function () {
        btn.textContent = 'Copy';
      }, 2000);
    };
    if (navigator.clipboard && navigator.clipboard.writeText)
      navigator.clipboard.writeText(text).then(done, function () {
        if (src.select) src.select();
      });
    else if (src && src.select) {
      src.select();
      document.execCommand('copy');
      done();
    }
  });

  function onSubmit(name, fn) {
    var form = $('[data-form="' + name + '"]');
    if (form)
      form.addEventListener('submit', function (ev) {
        ev.preventDefault();
        clearError(form);
        fn(form, new FormData(form));
      });
    return form;
  }

  /** A job or picture still on its way: only a status named here (v2 steps, v1 `processing`), never an unknown one. */
  var ACTIVE = ['queued', 'downloading', 'converting', 'uploading', 'processing'];
  function active(s) {
    return ACTIVE.indexOf(s) >= 0;
  }
  /** An id as one URL path segment: every id that goes into a path goes through this. */
  function seg(id) {
    return encodeURIComponent(String(id));
  }
  var STEPS = ['queued', 'downloading', 'converting', 'uploading', 'completed'];

  function statusBadge(s) {
    return h('span', { class: 'badge s-' + s, text: s });
  }
  function jobLink(id) {
    return h('a', { href: '/console/jobs/' + seg(id), text: id });
  }

  /**
   * A CSV file's rows (RFC 4180: quoted cells may hold the delimiter, line breaks and doubled quotes), the
   * delimiter sniffed from the header line: ";" when it has more semicolons than commas, else ",". Blank
   * lines are left out. For the preview only: the server reads the file again, as the import does.
   */
  function parseCsv(text) {
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    var commas = 0;
    var semis = 0;
    var q = false;
    var i;
    for (i = 0; i < text.length; i++) {
      var ch = text[i];
      if (ch === '"') q = !q;
      else if (q) continue;
      else if (ch === ',') commas++;
      else if (ch === ';') semis++;
      else if ((ch === '\n' || ch === '\r') && text.slice(0, i).trim()) break;
    }
    var delim = semis > commas ? ';' : ',';
    var rows = [];
    var row = [];
    var cell = '';
    var end = function () {
      row.push(cell);
      if (row.length > 1 || row[0].trim() !== '') rows.push(row);
      row = [];
      cell = '';
    };
    q = false;
    for (i = 0; i < text.length; i++) {
      var c = text[i];
      if (q) {
        if (c !== '"') cell += c;
        else if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else q = false;
      } else if (c === '"') q = true;
      else if (c === delim) {
        row.push(cell);
        cell = '';
      } else if (c === '\r' || c === '\n') {
        if (c === '\r' && text[i + 1] === '\n') i++;
        end();
      } else cell += c;
    }
    if (cell !== '' || row.length) end();
    return { delimiter: delim, rows: rows };
  }

  // ---- pages

  var pages = {};

  pages.overview = function () {
    api('GET', '/api/v2/me').then(
      function (me) {
        // The owner key is never billed: its balance means nothing.
        $('[data-testid=balance]').textContent =
          me.key && me.key.type === 'owner' ? 'Not billed (owner)' : credits(me.credits) + ' credits';
        $('[data-testid=slots]').textContent =
          me.showcase_slots.used + ' of ' + (me.showcase_slots.limited ? me.showcase_slots.total : '∞');
      },
      failed($('[data-testid=balance]')),
    );
    var start = new Date();
    start.setDate(1);
    start.setHours(0, 0, 0, 0);
    api('GET', '/api/v2/jobs?limit=100').then(
      function (list) {
        var n = list.data.filter(function (j) {
          return new Date(j.created_at) >= start;
        }).length;
        $('[data-testid=jobs-month]').textContent = n + (list.has_more && n === list.data.length ? '+' : '');
      },
      failed($('[data-testid=jobs-month]')),
    );
    var box = $('[data-testid=failures]');
    api('GET', '/api/v2/jobs?status=failed&limit=5').then(function (list) {
      fill(
        box,
        list.data.length
          ? table(
              ['Job', 'Kind', 'Error', 'When'],
              list.data.map(function (j) {
                return [jobLink(j.job_id), j.kind, j.error ? j.error.message : '', when(j.created_at)];
              }),
              'Recent failures',
            )
          : empty('No failed jobs.'),
      );
    }, failed(box));
  };

  pages.keys = function () {
    var box = $('[data-testid=keys]');
    if (!box) return;
    function load() {
      return api('GET', '/api/v2/keys').then(function (list) {
        var keys = list.data || [];
        fill(
          box,
          keys.length
            ? table(
                ['Name', 'Scope', 'Key', 'Created', 'Last used', ''],
                keys.map(function (k) {
                  return [
                    k.name || '(unnamed)',
                    k.scope,
                    h('code', { text: k.prefix + '…' }),
                    when(k.created_at),
                    when(k.last_used_at),
                    h('button', {
                      type: 'button',
                      class: 'danger',
                      'aria-label': 'Revoke key ' + (k.name || k.prefix),
                      text: 'Revoke',
                      on: {
                        click: function () {
                          revoke(k);
                        },
                      },
                    }),
                  ];
                }),
                'Your API keys',
              )
            : empty('No keys yet. Create one above to call the API.'),
        );
      }, failed(box));
    }
    function revoke(k) {
      if (!confirm('Revoke the key "' + (k.name || k.prefix) + '"? Programs using it stop working at once.')) return;
      api('DELETE', '/api/v2/keys/' + seg(k.id) + '?force=true').then(
        function () {
          say('Key revoked.');
          load();
        },
        function (e) {
          say(e.error.message);
        },
      );
    }
    onSubmit('create-key', function (form, fd) {
      var name = String(fd.get('name') || '').trim();
      if (!name) return showError(form, { error: { param: 'name', message: 'Give the key a name, e.g. the shop that uses it.' } });
      api('POST', '/api/v2/keys', { name: name, scope: fd.get('scope') }).then(
        function (k) {
          $('[data-testid=new-api-key]').textContent = k.key;
          $('[data-testid=new-key-box]').hidden = false;
          form.reset();
          say('Key created. Copy it now: it is shown only once.');
          load();
        },
        function (e) {
          showError(form, e);
        },
      );
    });
    load();
  };

  pages.showcases = function () {
    var box = $('[data-testid=showcases]');
    api('GET', '/api/v2/showcases?limit=100').then(function (list) {
      fill(
        box,
        list.data.length
          ? h(
              'ul',
              { class: 'grid' },
              list.data.map(function (s) {
                return h('li', { class: 'card' }, [
                  h('h3', {}, [h('a', { href: '/console/showcases/' + seg(s.id), text: 'Showcase ' + s.id })]),
                  h('p', { text: s.description || 'No description' }),
                  h('p', { class: 'hint', text: s.item_count + ' pictures · ' + s.layout_choice }),
                ]);
              }),
            )
          : empty('No showcases yet. Create one above.'),
      );
    }, failed(box));
    onSubmit('create-showcase', function (form, fd) {
      var data = { layout_choice: fd.get('layout_choice') };
      if (fd.get('description')) data.description = fd.get('description');
      api('POST', '/api/v2/showcases', data).then(
        function (s) {
          location.href = '/console/showcases/' + seg(s.id);
        },
        function (e) {
          showError(form, e);
        },
      );
    });
  };

  pages.showcase = function () {
    var id = body.getAttribute('data-id');
    var base = '/api/v2/showcases/' + seg(id);
    var itemsBox = $('[data-testid=items]');
    var uploads = $('[data-testid=uploads]');
    var form = $('[data-form=branding]');
    var preview = $('[data-testid=preview]');
    var timer = null;

    function renderPreview() {
      var fd = new FormData(form);
      preview.style.setProperty('--primary', fd.get('primary_color'));
      preview.style.setProperty('--secondary', fd.get('secondary_color'));
      preview.className = 'preview layout-' + fd.get('layout_choice');
      $('.pv-tagline', preview).textContent = fd.get('tagline') || 'Your tagline';
      $('.pv-desc', preview).textContent = fd.get('description') || '';
    }
    form.addEventListener('input', renderPreview);

    var showcase = null;
    /** Item id -> {key, el}: a card is built again only when its item (or its place in the list) changed. */
    var cards = {};
    /** Item id -> the rebuild job of a 202, until the item's files switch (its rebuild_job_id goes). */
    var pending = {};
    /** The item being dragged (null when none), and whether a new order is being saved: no refresh meanwhile. */
    var dragging = null;
    var ordering = false;
    /** A data-key to focus after the next render (the moved card's button, the saved form's summary). */
    var focusNext = null;

    function load(first) {
      return api('GET', base).then(function (s) {
        if (first) {
          var b = s.branding || {};
          form.tagline.value = b.tagline || '';
          if (b.primary_color) form.primary_color.value = b.primary_color;
          if (b.secondary_color) form.secondary_color.value = b.secondary_color;
          form.description.value = s.description || '';
          form.layout_choice.value = s.layout_choice;
          renderPreview();
          $('#embed-snippet').value =
            '<iframe src="' +
            s.embed_url +
            '" title="AR showcase" width="100%" height="640" style="border:0" allow="xr-spatial-tracking; fullscreen" loading="lazy"></iframe>';
        }
        clearTimeout(timer);
        // Never while a card is in the air or a new order is on its way: the next answer comes soon.
        if (dragging !== null || ordering) {
          timer = setTimeout(load, 1000);
          return;
        }
        showcase = s;
        walls.sync(s);
        // Progress without refresh: poll while anything is converting or rebuilding (a variant too).
        var busy = renderItems(s);
        if (variantsSync(s)) busy = true;
        if (busy) timer = setTimeout(load, 1000);
      }, failed(itemsBox));
    }

    function itemName(it) {
      return (it.banner && it.banner.title) || it.filename || it.source_url || 'Picture ' + it.id;
    }
    function errText(e) {
      return typeof e === 'string' ? e : (e && e.message) || 'failed';
    }
    var AVAILABILITY = { available: 'Available', reserved: 'Reserved', sold: 'Sold', not_for_sale: 'Not for sale' };

    var hashShown = false;
    /** Fills the list from a showcase answer, keeping cards that did not change; true while something is on its way. */
    function renderItems(s) {
      var items = s.items;
      var busy = false;
      if (!items.length) {
        cards = {};
        fill(itemsBox, empty('No pictures yet. Drop some above.'));
        return false;
      }
      var list = $('ol.items', itemsBox);
      if (!list) {
        list = h('ol', { class: 'grid items', 'aria-describedby': 'order-help' });
        fill(itemsBox, list);
      }
      // Focus stays on the same control when its card is built again.
      var had = document.activeElement;
      var hadKey = had && list.contains(had) ? had.getAttribute('data-key') : null;
      var next = {};
      items.forEach(function (it, i) {
        // A later edit may supersede the rebuild (a new rebuild_job_id): done only when none is left.
        if (pending[it.id] && it.rebuild_job_id !== pending[it.id]) {
          delete pending[it.id];
          if (!it.rebuild_job_id)
            say(
              it.rebuild_error
                ? 'Picture ' + it.id + ' could not be rebuilt: ' + errText(it.rebuild_error)
                : 'Picture ' + it.id + ' is rebuilt with its new size and frame.',
            );
        }
        var rebuilding = !!(it.rebuild_job_id || pending[it.id]);
        if (active(it.status) || rebuilding || variantsBuilding(it)) busy = true;
        var key = [JSON.stringify(it), i, items.length, s.units, rebuilding, !!ve && ve.itemId === it.id].join('|');
        var old = cards[it.id];
        var card = old && old.key === key ? old : { key: key, el: itemCard(it, i, items.length, s.units, rebuilding) };
        var openEdit = old && card !== old ? $('details.edit', old.el) : null;
        if (openEdit && openEdit.open) {
          // An open form survives the refresh, with what was typed in it.
          card.el.replaceChild(openEdit, $('details.edit', card.el));
          card.el.setAttribute('draggable', 'false');
          syncForm($('form', openEdit), it, s.units, rebuilding);
        }
        next[it.id] = card;
        if (list.children[i] !== card.el) list.insertBefore(card.el, list.children[i] || null);
      });
      while (list.children.length > items.length) list.removeChild(list.lastChild);
      cards = next;
      var key = focusNext || (hadKey && document.activeElement !== had ? hadKey : null);
      focusNext = null;
      var target = key && list.querySelector('[data-key="' + CSS.escape(key) + '"]');
      if (target) target.focus();
      // A link to one picture (#item-12, from the Analytics page): shown once its card exists.
      if (!hashShown && /^#item-[0-9]+$/.test(location.hash)) {
        hashShown = true;
        var linked = document.getElementById(location.hash.slice(1));
        if (linked) linked.scrollIntoView({ block: 'center' });
      }
      return busy;
    }

    function itemCard(it, i, n, units, rebuilding) {
      var ref = 'picture ' + it.id;
      var b = it.banner || {};
      var d = units === 'cm' ? it.dimensions_cm : it.dimensions;
      var r2 = function (x) {
        return Math.round(x * 100) / 100;
      };
      var size = d
        ? units === 'cm'
          ? r2(d.width_cm) + ' × ' + r2(d.height_cm) + ' cm'
          : r2(d.width_inches) + ' × ' + r2(d.height_inches) + ' in'
        : null;
      var line = function (parts, cls) {
        var t = parts.filter(Boolean).join(' · ');
        return t ? h('p', { class: cls || 'meta', text: t }) : null;
      };
      var soldId = 'sold-' + it.id;
      var sold = h('input', {
        type: 'checkbox',
        id: soldId,
        'data-key': soldId,
        checked: it.availability === 'sold',
        on: {
          change: function () {
            var want = sold.checked ? 'sold' : 'available';
            api('PATCH', base + '/items/' + seg(it.id), { availability: want }).then(
              function () {
                say(want === 'sold' ? 'Picture ' + it.id + ' marked sold.' : 'Picture ' + it.id + ' marked available.');
                load();
              },
              function (e) {
                sold.checked = !sold.checked;
                say(e.error.message);
              },
            );
          },
        },
      });
      var moveBtn = function (dir, label, disabled) {
        return h('button', {
          type: 'button',
          class: 'secondary',
          'data-key': dir + '-' + it.id,
          'aria-label': label + ': ' + ref,
          disabled: disabled,
          text: label,
          on: {
            click: function () {
              move(it.id, dir === 'up' ? -1 : 1);
            },
          },
        });
      };
      var card = h(
        'li',
        {
          class: 'card item',
          id: 'item-' + it.id,
          'data-testid': 'item',
          'data-status': it.status,
          'data-id': String(it.id),
          'data-availability': it.availability || 'available',
          draggable: 'true',
        },
        [
          it.preview_url
            ? h('img', { src: it.preview_url, alt: 'Picture ' + it.id, loading: 'lazy', draggable: 'false' })
            : h('div', { class: 'ph', 'aria-hidden': 'true' }),
          h('p', { class: 'name' }, [statusBadge(it.status), ' ', h('strong', { text: itemName(it) })]),
          active(it.status) ? h('progress', { max: '100', value: String(it.progress), 'aria-label': 'Progress of ' + ref }) : null,
          line([it.artist, it.year]),
          line([it.medium, it.edition ? 'Edition ' + it.edition : null]),
          line([size, b.price]),
          it.availability && it.availability !== 'available'
            ? h('p', { class: 'avail a-' + it.availability, 'data-testid': 'availability' }, [
                h('span', { class: 'dot', 'aria-hidden': 'true' }),
                AVAILABILITY[it.availability] || it.availability,
              ])
            : null,
          rebuilding ? h('p', { class: 'rebuilding', 'data-testid': 'rebuilding', text: 'Rebuilding…' }) : null,
          variantsLine(it),
          it.rebuild_error ? h('p', { class: 'error', text: 'Rebuild failed: ' + errText(it.rebuild_error) }) : null,
          it.error ? h('p', { class: 'error', text: it.error.message }) : null,
          h('div', { class: 'controls' }, [
            h('span', { class: 'check' }, [
              sold,
              h('label', { for: soldId }, ['Sold', h('span', { class: 'sr-only', text: ' (' + ref + ')' })]),
            ]),
            moveBtn('up', 'Move up', i === 0),
            moveBtn('down', 'Move down', i === n - 1),
            h(
              'button',
              {
                type: 'button',
                class: 'secondary wide',
                'data-key': 'variants-' + it.id,
                'aria-controls': 'variants-panel',
                'aria-expanded': String(!!ve && ve.itemId === it.id),
                on: {
                  click: function () {
                    openVariants(it.id);
                  },
                },
              },
              [
                'Variants',
                h('span', { class: 'sr-only', text: ' of ' + ref }),
                it.variants && it.variants.length ? ' (' + it.variants.length + ')' : '',
              ],
            ),
          ]),
          editForm(it, units),
          h('button', {
            type: 'button',
            class: 'danger',
            'aria-label': 'Delete ' + ref,
            text: 'Delete',
            disabled: active(it.status) || rebuilding,
            on: {
              click: function () {
                removeItem(it);
              },
            },
          }),
        ],
      );
      // Drag and drop: a card dropped on another takes its place (Move up / Move down do the same by keyboard).
      card.addEventListener('dragstart', function (e) {
        if (ordering) return e.preventDefault();
        dragging = it.id;
        card.classList.add('dragging');
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', String(it.id));
      });
      card.addEventListener('dragend', function () {
        dragging = null;
        $all('.dragging, .drop-target', itemsBox).forEach(function (el) {
          el.classList.remove('dragging', 'drop-target');
        });
      });
      card.addEventListener('dragover', function (e) {
        if (dragging === null || dragging === it.id) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        card.classList.add('drop-target');
      });
      card.addEventListener('dragleave', function (e) {
        if (!card.contains(e.relatedTarget)) card.classList.remove('drop-target');
      });
      card.addEventListener('drop', function (e) {
        if (dragging === null) return;
        e.preventDefault();
        var from = dragging;
        dragging = null;
        card.classList.remove('drop-target');
        if (from !== it.id) moveTo(from, it.id);
      });
      return card;
    }

    // ---- reordering

    function ids() {
      return showcase.items.map(function (x) {
        return x.id;
      });
    }
    function move(id, delta) {
      var order = ids();
      var at = order.indexOf(id);
      if (at < 0 || at + delta < 0 || at + delta >= order.length) return;
      order.splice(at, 1);
      order.splice(at + delta, 0, id);
      // Focus follows the card; at either end, onto the button still usable.
      var to = at + delta;
      var dir = delta < 0 ? (to === 0 ? 'down' : 'up') : to === order.length - 1 ? 'up' : 'down';
      saveOrder(order, id, dir + '-' + id);
    }
    /** The dragged card takes the target's place: before it when moved up the list, after it when moved down. */
    function moveTo(id, targetId) {
      var order = ids();
      var from = order.indexOf(id);
      var to = order.indexOf(targetId);
      if (from < 0 || to < 0) return;
      order.splice(from, 1);
      order.splice(to, 0, id);
      saveOrder(order, id, null);
    }
    function saveOrder(order, id, focusKey) {
      var byId = {};
      showcase.items.forEach(function (x) {
        byId[x.id] = x;
      });
      // Shown at once, then saved; the answer (or a reload after an error) is the truth.
      focusNext = focusKey;
      showcase = {
        units: showcase.units,
        items: order.map(function (x) {
          return byId[x];
        }),
      };
      renderItems(showcase);
      ordering = true;
      api('PUT', base + '/items/order', { item_ids: order }).then(
        function () {
          ordering = false;
          say('Picture ' + id + ' moved to position ' + (order.indexOf(id) + 1) + ' of ' + order.length + '.');
          load();
        },
        function (e) {
          ordering = false;
          say('The order was not saved: ' + e.error.message);
          load();
        },
      );
    }

    // ---- editing an item

    var TEXT_FIELDS = ['artist', 'title', 'year', 'medium', 'edition', 'price'];
    var FRAMES = [
      ['', 'No frame'],
      ['thin', 'Thin'],
      ['classic', 'Classic'],
      ['float', 'Float'],
      ['canvas', 'Canvas wrap'],
    ];

    /** What the form shows for an item: every value as text. Sizes in the showcase's unit. */
    function itemValues(it, units) {
      var b = it.banner || {};
      var cm = units === 'cm';
      var d = cm ? it.dimensions_cm : it.dimensions;
      var style = typeof it.frame === 'string' ? it.frame : it.frame && it.frame.style;
      return {
        artist: it.artist || '',
        title: b.title || '',
        year: it.year || '',
        medium: it.medium || '',
        edition: it.edition || '',
        price: b.price || '',
        availability: it.availability || 'available',
        frame: style && style !== 'none' ? style : '',
        fit: (it.fit && it.fit.requested) || 'crop',
        unit: cm ? 'cm' : 'in',
        // Two decimals, as the card shows them (the same size within 0.01 in, see sameSize).
        width: d ? String(Math.round((cm ? d.width_cm : d.width_inches) * 100) / 100) : '',
        height: d ? String(Math.round((cm ? d.height_cm : d.height_inches) * 100) / 100) : '',
      };
    }
    function formValues(f) {
      var v = {};
      Object.keys(f._was).forEach(function (k) {
        v[k] = String(f.elements[k].value);
      });
      return v;
    }
    function num(v) {
      return String(v).trim() === '' ? null : Number(v);
    }
    function toInches(v, unit) {
      var n = num(v);
      return n === null || unit !== 'cm' ? n : n / 2.54;
    }
    /** The same size, whatever unit each is written in. */
    function sameSize(a, b) {
      var eq = function (x, y) {
        return x === null || y === null ? x === y : Math.abs(x - y) < 0.01;
      };
      return eq(toInches(a.width, a.unit), toInches(b.width, b.unit)) && eq(toInches(a.height, a.unit), toInches(b.height, b.unit));
    }
    /** Fields the person has not touched follow the item (the Sold box, an import, a finished rebuild). */
    function syncForm(f, it, units, rebuilding) {
      var now = itemValues(it, units);
      var cur = formValues(f);
      Object.keys(now).forEach(function (k) {
        if (rebuilding && /^(width|height|unit|fit|frame)$/.test(k)) return;
        if (cur[k] === f._was[k] && now[k] !== f._was[k]) {
          f.elements[k].value = now[k];
          f._was[k] = now[k];
        }
      });
    }
    /** The PATCH body: only what changed; an emptied text is null (cleared). */
    function changes(was, now) {
      var patch = {};
      TEXT_FIELDS.forEach(function (k) {
        if (now[k].trim() !== was[k].trim()) patch[k] = now[k].trim() || null;
      });
      if (now.availability !== was.availability) patch.availability = now.availability;
      if (now.frame !== was.frame) patch.frame = now.frame || null;
      if (!sameSize(now, was)) {
        var u = now.unit === 'cm' ? '_cm' : '_inches';
        patch['width' + u] = num(now.width);
        patch['height' + u] = num(now.height);
      }
      if (now.fit !== was.fit) patch.fit = now.fit;
      return patch;
    }
    /** A 400's param as the form's field: width_cm -> width, banner.title -> title, frame.style -> frame. */
    function fieldOf(param) {
      var parts = String(param || '')
        .split(/[.[\]]+/)
        .filter(Boolean);
      if (parts[0] === 'banner') parts.shift();
      var k = parts[0] || '';
      return /^width_/.test(k) ? 'width' : /^(height|depth)_/.test(k) ? 'height' : k;
    }

    function editForm(it, units) {
      var p = 'e' + it.id + '-';
      var was = itemValues(it, units);
      var field = function (name, label, control) {
        control.id = p + name;
        control.name = name;
        control.setAttribute('aria-describedby', p + name + '-err');
        return h('div', { class: 'field f-' + name }, [
          h('label', { for: p + name, text: label }),
          control,
          h('p', { class: 'error', id: p + name + '-err', hidden: true }),
        ]);
      };
      var text = function (name, label, max) {
        return field(name, label, h('input', { value: was[name], maxlength: String(max), autocomplete: 'off' }));
      };
      var select = function (name, label, options) {
        return field(
          name,
          label,
          h(
            'select',
            {},
            options.map(function (o) {
              return h('option', { value: o[0], selected: o[0] === was[name], text: o[1] });
            }),
          ),
        );
      };
      var number = function (name, label) {
        return field(name, label, h('input', { type: 'number', min: '0', step: 'any', inputmode: 'decimal', value: was[name] }));
      };
      var f = h('form', { class: 'edit-form', novalidate: true }, [
        text('artist', 'Artist', 120),
        text('title', 'Title', 200),
        h('div', { class: 'pair' }, [text('year', 'Year', 20), text('edition', 'Edition', 60)]),
        text('medium', 'Medium', 200),
        h('fieldset', { class: 'size' }, [
          h('legend', { text: 'Size' }),
          number('width', 'Width'),
          number('height', 'Height'),
          select('unit', 'Unit', [
            ['in', 'in'],
            ['cm', 'cm'],
          ]),
        ]),
        h('div', { class: 'pair' }, [
          select('fit', 'Fit', [
            ['crop', 'Crop'],
            ['stretch', 'Stretch'],
          ]),
          select('frame', 'Frame', FRAMES),
        ]),
        h('div', { class: 'pair' }, [
          text('price', 'Price', 50),
          select(
            'availability',
            'Availability',
            Object.keys(AVAILABILITY).map(function (k) {
              return [k, AVAILABILITY[k]];
            }),
          ),
        ]),
        h('p', { class: 'error', 'data-error': 'form', hidden: true }),
        h('button', { type: 'submit', 'data-key': 'save-' + it.id, text: 'Save' }),
      ]);
      f._was = was;
      if (it.variants && it.variants.length) {
        // The API takes size and frame per variant then (item_has_variants): set in the Variants table.
        ['width', 'height', 'unit', 'fit', 'frame'].forEach(function (k) {
          f.elements[k].disabled = true;
        });
        f.insertBefore(h('p', { class: 'hint', text: 'Sizes and frames are set per variant: use Variants.' }), $('fieldset.size', f));
      }
      // A new unit converts the numbers shown: the size stays the same.
      f.elements.unit.addEventListener('change', function () {
        var to = f.elements.unit.value;
        ['width', 'height'].forEach(function (k) {
          var el = f.elements[k];
          if (el.value === '') return;
          var n = Number(el.value);
          el.value = String(Math.round((to === 'cm' ? n * 2.54 : n / 2.54) * 100) / 100);
        });
      });
      var busy = false;
      f.addEventListener('submit', function (ev) {
        ev.preventDefault();
        if (busy) return;
        clearError(f);
        $all('[aria-invalid]', f).forEach(function (el) {
          el.removeAttribute('aria-invalid');
        });
        var now = formValues(f);
        var patch = changes(f._was, now);
        if (!Object.keys(patch).length) return say('Nothing changed for picture ' + it.id + '.');
        busy = true;
        api('PATCH', base + '/items/' + seg(it.id), patch).then(
          function (r) {
            busy = false;
            f._was = now;
            // 202 {item, rebuild_job_id}: the files are built again; 200: the item, changed at once.
            if (r && r.rebuild_job_id) {
              pending[it.id] = r.rebuild_job_id;
              say('Saved picture ' + it.id + '. Rebuilding its AR files…');
            } else say('Saved picture ' + it.id + '.');
            details.open = false;
            focusNext = 'edit-' + it.id;
            summary.focus();
            load();
          },
          function (e) {
            busy = false;
            if (e.error && e.error.param) e.error.param = fieldOf(e.error.param);
            showError(f, e);
          },
        );
      });
      var summary = h('summary', { 'data-key': 'edit-' + it.id }, ['Edit', h('span', { class: 'sr-only', text: ' picture ' + it.id })]);
      var details = h('details', { class: 'edit' }, [summary, f]);
      // Text in the form can be selected with the mouse: the card is not draggable while it is open.
      details.addEventListener('toggle', function () {
        var card = details.closest('.item');
        if (card) card.setAttribute('draggable', details.open ? 'false' : 'true');
      });
      return details;
    }

    function removeItem(it) {
      if (!confirm('Delete picture ' + it.id + '?')) return;
      api('DELETE', base + '/items/' + seg(it.id)).then(
        function () {
          say('Picture deleted.');
          load();
        },
        function (e) {
          say(e.error.message);
        },
      );
    }

    /** The frame, mat and placement chosen for the next pictures, as an item's presentation fields. */
    function presentation() {
      var item = {};
      var style = $('#pic-frame').value;
      if (style) item.frame = $('#pic-frame-color').value ? { style: style, color: $('#pic-frame-color').value } : { style: style };
      var mat = Number($('#pic-mat').value);
      if (mat > 0) item.mat = { width_inches: mat, color: $('#pic-mat-color').value };
      if ($('#pic-placement').value) item.placement = $('#pic-placement').value;
      return item;
    }

    /** One request per file, so each picture shows its own upload progress (XHR reports upload bytes). */
    function upload(file) {
      var row = h('li', { 'data-testid': 'upload' }, [
        h('span', { text: file.name }),
        ' ',
        h('progress', { max: '100', value: '0', 'aria-label': 'Upload of ' + file.name }),
        h('span', { class: 'state', text: ' uploading' }),
      ]);
      uploads.appendChild(row);
      var fd = new FormData();
      // The text field goes before the file part (the server reads the parts in order).
      fd.append('items', JSON.stringify([presentation()]));
      fd.append('files', file, file.name);
      var xhr = new XMLHttpRequest();
      xhr.open('POST', base + '/items');
      xhr.setRequestHeader('X-CSRF-Token', CSRF);
      xhr.upload.onprogress = function (e) {
        if (e.lengthComputable) $('progress', row).value = Math.round((e.loaded / e.total) * 100);
      };
      xhr.onload = function () {
        var ok = xhr.status >= 200 && xhr.status < 300;
        var msg = ok ? ' uploaded' : ' failed: ' + ((JSON.parse(xhr.responseText || '{}').error || {}).message || xhr.status);
        $('.state', row).textContent = msg;
        row.setAttribute('data-state', ok ? 'done' : 'failed');
        say(file.name + msg);
        load();
      };
      xhr.onerror = function () {
        $('.state', row).textContent = ' failed: network error';
        row.setAttribute('data-state', 'failed');
      };
      xhr.send(fd);
    }
    var drop = $('[data-testid=dropzone]');
    var picker = $('#file-input');
    ['dragenter', 'dragover'].forEach(function (t) {
      drop.addEventListener(t, function (e) {
        e.preventDefault();
        drop.classList.add('over');
      });
    });
    drop.addEventListener('dragleave', function () {
      drop.classList.remove('over');
    });
    drop.addEventListener('drop', function (e) {
      e.preventDefault();
      drop.classList.remove('over');
      Array.prototype.forEach.call(e.dataTransfer.files, upload);
    });
    drop.addEventListener('click', function () {
      picker.click();
    });
    drop.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        picker.click();
      }
    });
    picker.addEventListener('change', function () {
      Array.prototype.forEach.call(picker.files, upload);
      picker.value = '';
    });

    onSubmit('add-url', function (f, fd) {
      var item = presentation();
      item.image_url = fd.get('url');
      api('POST', base + '/items', { items: [item] }).then(
        function () {
          f.reset();
          say('Picture added.');
          load();
        },
        function (e) {
          if (e.error) e.error.param = /image_url|items/.test(e.error.param || '') ? 'url' : e.error.param;
          showError(f, e);
        },
      );
    });
    onSubmit('branding', function (f, fd) {
      var data = {
        branding: {
          tagline: fd.get('tagline') || undefined,
          primary_color: fd.get('primary_color'),
          secondary_color: fd.get('secondary_color'),
        },
        layout_choice: fd.get('layout_choice'),
        description: fd.get('description') || null,
      };
      api('PATCH', base, data).then(
        function () {
          say('Branding saved.');
        },
        function (e) {
          showError(f, e);
        },
      );
    });
    $('[data-action=delete-showcase]').addEventListener('click', function () {
      if (!confirm('Delete this showcase with all its pictures?')) return;
      api('DELETE', base).then(
        function () {
          location.href = '/console/showcases';
        },
        function (e) {
          say(e.error.message);
        },
      );
    });
    // ---- importing a catalogue (CSV): preview and dry run in the browser, then the import with its progress

    var csvInput = $('#csv-file');
    var csvPreview = $('[data-testid=csv-preview]');
    var csvCheck = $('[data-testid=csv-check]');
    var importBtn = $('[data-action=import-csv]');
    var importBox = $('[data-testid=import-progress]');
    var csvFile = null;
    var importTimer = null;
    var importing = false;

    function csvProblem(e) {
      var box = $('#csv-file-err');
      box.textContent = (e && e.error && e.error.message) || 'Could not read the file.';
      box.hidden = false;
      csvInput.setAttribute('aria-invalid', 'true');
      say(box.textContent);
    }
    /** The first errors of a dry run or an import: row, column, message. */
    function rowErrors(rows, total, caption) {
      if (!rows || !rows.length) return null;
      var shown = rows.slice(0, 10);
      return h('div', { class: 'row-errors' }, [
        table(
          ['Row', 'Column', 'Problem'],
          shown.map(function (r) {
            return [r.row, r.field, r.message];
          }),
          caption,
        ),
        total > shown.length ? h('p', { class: 'hint', text: 'And ' + (total - shown.length) + ' more in the error report.' }) : null,
      ]);
    }
    function countList(pairs, testid) {
      var dl = h('dl', { class: 'counts', 'data-testid': testid });
      pairs.forEach(function (p) {
        dl.appendChild(h('div', {}, [h('dt', { text: p[0] }), h('dd', { text: String(p[1] === undefined ? 0 : p[1]) })]));
      });
      return dl;
    }

    csvInput.addEventListener('change', function () {
      var file = csvInput.files && csvInput.files[0];
      clearTimeout(importTimer);
      importing = false;
      csvFile = null;
      $('#csv-file-err').hidden = true;
      csvInput.removeAttribute('aria-invalid');
      fill(csvPreview, []);
      fill(csvCheck, []);
      fill(importBox, []);
      importBtn.hidden = true;
      if (!file) return;
      file.text().then(function (text) {
        var t = parseCsv(text);
        if (t.rows.length < 2) return csvProblem({ error: { message: 'The file has no rows under its header row.' } });
        var header = t.rows[0];
        var rows = t.rows.slice(1);
        var width = Math.max.apply(
          null,
          [header.length].concat(
            rows.slice(0, 10).map(function (r) {
              return r.length;
            }),
          ),
        );
        var cols = header.slice();
        while (cols.length < width) cols.push('');
        fill(csvPreview, [
          h('p', {
            class: 'hint',
            'data-testid': 'csv-summary',
            text:
              file.name +
              ': ' +
              rows.length +
              (rows.length === 1 ? ' row' : ' rows') +
              ', separated by "' +
              t.delimiter +
              '"' +
              (rows.length > 10 ? '. The first 10:' : '.'),
          }),
          table(
            ['Row'].concat(cols),
            rows.slice(0, 10).map(function (r, i) {
              var cells = r.slice();
              while (cells.length < width) cells.push('');
              return [i + 1].concat(cells);
            }),
            'Preview of ' + file.name,
          ),
        ]);
        csvFile = file;
        fill(csvCheck, h('p', { class: 'loading', text: 'Checking every row…' }));
        return api('POST', base + '/imports?dry_run=true', file, 'text/csv').then(
          function (r) {
            if (csvFile !== file) return;
            var c = r.counts || {};
            var p = r.price || {};
            var price = typeof p.credits === 'number' ? credits(p.credits) + ' credits' : 'unknown';
            var detail =
              typeof p.per_picture === 'number' && p.pictures
                ? p.pictures +
                  ' new pictures at ' +
                  credits(p.per_picture) +
                  ' credits each' +
                  (typeof p.balance === 'number' ? '; your balance: ' + credits(p.balance) + ' credits.' : '.')
                : null;
            fill(csvCheck, [
              h('h3', { text: 'Check' }),
              countList(
                [
                  ['Rows', c.rows],
                  ['With errors', c.invalid],
                  ['New pictures', c.created],
                  ['Updated', c.updated],
                  ['Unchanged', c.unchanged],
                ].concat(c.skipped ? [['Skipped (credits or room)', c.skipped]] : []),
                'dry-run-counts',
              ),
              h('p', { class: 'price', 'data-testid': 'import-price', text: 'Price: ' + price }),
              detail ? h('p', { class: 'hint', text: detail }) : null,
              rowErrors(r.rows, c.invalid || (r.rows || []).length, 'Rows with errors'),
            ]);
            var n = (c.rows || 0) - (c.invalid || 0);
            importBtn.textContent = 'Import ' + n + (n === 1 ? ' row' : ' rows');
            importBtn.removeAttribute('aria-disabled');
            importBtn.hidden = n <= 0;
            say(
              'Checked ' +
                c.rows +
                ' rows: ' +
                (c.invalid ? c.invalid + ' with errors' : 'no errors') +
                '. Price: ' +
                price +
                '.' +
                (n > 0 ? '' : ' Nothing to import.'),
            );
          },
          function (e) {
            fill(csvCheck, []);
            csvProblem(e);
          },
        );
      }, csvProblem);
    });

    importBtn.addEventListener('click', function () {
      if (!csvFile || importing) return;
      importing = true;
      importBtn.setAttribute('aria-disabled', 'true');
      importBtn.textContent = 'Importing…';
      api('POST', base + '/imports', csvFile, 'text/csv').then(
        function (r) {
          var bar = h('progress', { max: '100', value: '0', 'aria-label': 'Import progress', 'data-testid': 'import-bar' });
          fill(importBox, [
            h('h3', { text: 'Import' }),
            h('p', {}, [
              'Import ',
              h('code', { text: r.id }),
              ': ',
              h('span', { 'data-testid': 'import-status', text: r.status || 'running' }),
            ]),
            bar,
            h('div', { 'data-testid': 'import-counts' }),
            h('div', { 'data-testid': 'import-errors' }),
            h('p', {}, [
              h('a', {
                href: '/api/v2/imports/' + seg(r.id) + '?format=csv',
                download: 'import-' + r.id + '-errors.csv',
                'data-testid': 'import-report',
                text: 'Download the error report (CSV)',
              }),
            ]),
          ]);
          say('Import started.');
          pollImport(r.id, bar, 0);
        },
        function (e) {
          importing = false;
          importBtn.removeAttribute('aria-disabled');
          importBtn.textContent = 'Import';
          csvProblem(e);
        },
      );
    });

    /** GET /api/v2/imports/{id} every second until it is completed. */
    function pollImport(importId, bar, seen) {
      api('GET', '/api/v2/imports/' + seg(importId)).then(
        function (r) {
          if (!importing) return;
          var c = r.counts || {};
          var n = function (k) {
            return Number(c[k]) || 0;
          };
          // Rows are read first (each invalid, created, updated, unchanged or skipped), then their pictures
          // convert (queued counts those still queued or running): the bar covers both.
          var read = Math.min(n('rows'), n('processed'));
          var jobsDone = n('completed') + n('failed');
          var done = r.status === 'completed' && n('queued') === 0;
          var pct = done ? 100 : Math.floor((100 * (read + jobsDone)) / Math.max(1, n('rows') + jobsDone + n('queued')));
          bar.value = Math.min(pct, done ? 100 : 99);
          $('[data-testid=import-status]', importBox).textContent =
            r.status === 'completed' && !done ? 'completed, ' + n('queued') + ' pictures converting' : r.status;
          fill(
            $('[data-testid=import-counts]', importBox),
            countList(
              [
                ['Rows', c.rows],
                ['With errors', c.invalid],
                ['New pictures', c.created],
                ['Updated', c.updated],
                ['Unchanged', c.unchanged],
                ['Skipped', c.skipped],
                ['Converting', c.queued],
                ['Converted', c.completed],
                ['Failed', c.failed],
              ],
              'import-counts-list',
            ),
          );
          var errs = (r.rows || []).filter(function (x) {
            return x.field !== null && x.field !== undefined ? true : ['created', 'updated', 'unchanged'].indexOf(x.message) < 0;
          });
          fill($('[data-testid=import-errors]', importBox), rowErrors(errs, errs.length, 'Import errors'));
          // New pictures show up in the list as they are created.
          var created = n('created') + n('updated');
          if (created !== seen || done) load();
          if (done) {
            importing = false;
            importBtn.textContent = 'Imported';
            say(
              'Import completed: ' +
                n('created') +
                ' new, ' +
                n('updated') +
                ' updated, ' +
                n('unchanged') +
                ' unchanged, ' +
                n('invalid') +
                ' with errors' +
                (n('failed') ? ', ' + n('failed') + ' pictures failed' : '') +
                '.',
            );
          } else importTimer = setTimeout(pollImport, 1000, importId, bar, created);
        },
        function (e) {
          importing = false;
          csvProblem(e);
        },
      );
    }

    // ---- variants: an item's sizes and frames as a table, drawn framed live, saved as one PATCH {variants}

    var LOOK = JSON.parse(body.getAttribute('data-look') || '{}');
    var COLORS = LOOK.colors || {};
    var FRAME_LOOK = LOOK.frames || {};
    var MAX_VARIANTS = LOOK.max_variants || 24;
    var vPanel = $('[data-testid=variants]');
    var vBody = $('[data-testid=variants-body]');
    /** The open table: its item, rows (the model the table is drawn from), the variants as loaded (by SKU, by id). */
    var ve = null;
    var vSeq = 0;
    /** Pictures drawn in the preview, by URL: {img, ready}. */
    var vImgs = {};
    /** What a row edits; the rest of a row is its variant's state (status, built files). */
    var V_KEYS = [
      'sku',
      'name',
      'width',
      'height',
      'frame',
      'frame_color',
      'frame_width',
      'mat',
      'mat_color',
      'price',
      'availability',
      'default',
    ];
    var V_FRAME = ['frame', 'frame_color', 'frame_width', 'mat', 'mat_color'];
    var V_LOOK = ['width', 'height'].concat(V_FRAME);
    var MOULDED = ['thin', 'classic', 'float'];

    function variantsBuilding(it) {
      return (it.variants || []).some(function (v) {
        return v.status === 'building';
      });
    }
    function variantsLine(it) {
      var vs = it.variants || [];
      if (!vs.length) return null;
      var b = vs.filter(function (v) {
        return v.status === 'building';
      }).length;
      return h('p', {
        class: 'meta',
        'data-testid': 'variants-line',
        text: vs.length + (vs.length === 1 ? ' variant' : ' variants') + (b ? ' · ' + b + ' rebuilding…' : ''),
      });
    }
    function capital(w) {
      return w.charAt(0).toUpperCase() + w.slice(1);
    }
    function vNum(v) {
      var t = String(v === null || v === undefined ? '' : v).trim();
      return t === '' ? null : Number(t);
    }
    /** A number as an input shows it: two decimals at most. */
    function vStr(n) {
      return n === null || n === undefined || isNaN(n) ? '' : String(Math.round(n * 100) / 100);
    }
    function vSame(a, b) {
      var x = vNum(a);
      var y = vNum(b);
      return x === null || y === null || isNaN(x) || isNaN(y) ? String(a).trim() === String(b).trim() : Math.abs(x - y) < 0.005;
    }
    function toUnit(inches, units) {
      return inches === null || inches === undefined ? null : units === 'cm' ? inches * 2.54 : inches;
    }
    function toInch(v, units) {
      var n = vNum(v);
      return n === null || isNaN(n) ? null : units === 'cm' ? n / 2.54 : n;
    }
    function unitLabel(units) {
      return units === 'cm' ? 'cm' : 'in';
    }

    /** A variant of the API as a row: each value as the table's inputs hold it (sizes in the showcase's unit). */
    function vRow(v, it, units) {
      var cm = units === 'cm';
      var w = null;
      var ht = null;
      if (v.width_cm != null) {
        w = cm ? v.width_cm : v.width_cm / 2.54;
        ht = cm ? v.height_cm : v.height_cm / 2.54;
      } else if (v.width_inches != null) {
        w = toUnit(v.width_inches, units);
        ht = toUnit(v.height_inches, units);
      } else {
        var d = v.dimensions || it.dimensions;
        if (d) {
          w = toUnit(d.width_inches, units);
          ht = toUnit(d.height_inches, units);
        }
      }
      var f = typeof v.frame === 'string' ? { style: v.frame } : v.frame || null;
      var style = f ? f.style || 'classic' : '';
      if (style === 'none') style = '';
      var fd = FRAME_LOOK[style] || {};
      var m = v.mat || null;
      return {
        key: v.id || 'n' + ++vSeq,
        id: v.id || null,
        sku: v.sku || '',
        name: v.name || '',
        width: vStr(w),
        height: vStr(ht),
        frame: style,
        frame_color: style && f.color && f.color !== fd.color ? f.color : '',
        frame_width: style && f.width_inches != null && f.width_inches !== fd.width ? f.width_inches : null,
        mat: style && m && m.width_inches ? vStr(toUnit(m.width_inches, units)) : '',
        mat_color: (style && m && m.color) || 'white',
        price: v.price || '',
        availability: v.availability || 'available',
        default: !!v.default,
        link_url: v.link_url || null,
        call_to_action: v.call_to_action || null,
        status: v.id ? v.status : 'new',
        build: v.status === 'ready' && v.preview_url ? v : null,
        error: v.error || null,
        errors: {},
      };
    }
    function vValues(r) {
      var o = {};
      V_KEYS.forEach(function (k) {
        o[k] = r[k];
      });
      return o;
    }
    function vSnap() {
      return JSON.stringify(ve.rows.map(vValues));
    }
    function vDirty() {
      return !!ve && vSnap() !== ve.snapshot;
    }
    function vLookChanged(r, was) {
      return (
        !was ||
        V_LOOK.some(function (k) {
          return /^(width|height|mat)$/.test(k) ? !vSame(r[k], was[k]) : r[k] !== was[k];
        })
      );
    }

    /** One entry of the PATCH: the SKU and shop fields always; size and look when new or changed (else it is not rebuilt). */
    function vEntry(r) {
      var units = ve.units;
      var e = { sku: r.sku.trim(), name: r.name.trim() || null };
      var u = units === 'cm' ? '_cm' : '_inches';
      // The API matches a row to a variant by SKU: compared with that variant as loaded.
      var was = ve.bySku[e.sku];
      if (!was || !vSame(r.width, was.width) || !vSame(r.height, was.height)) {
        if (r.width.trim() !== '' || r.height.trim() !== '') {
          e['width' + u] = vNum(r.width);
          e['height' + u] = vNum(r.height);
        }
      }
      // Frame and mat go together: a mat needs a moulding, and a float frame's reveal is its mat.
      var look =
        !was ||
        V_FRAME.some(function (k) {
          return k === 'mat' ? !vSame(r.mat, was.mat) : r[k] !== was[k];
        });
      if (look) {
        var frame = null;
        if (r.frame) {
          frame = { style: r.frame };
          if (r.frame_color && r.frame !== 'canvas') frame.color = r.frame_color;
          if (r.frame_width !== null) frame.width_inches = r.frame_width;
          if (Object.keys(frame).length === 1) frame = r.frame;
        }
        e.frame = frame;
        var mat = MOULDED.indexOf(r.frame) >= 0 ? toInch(r.mat, units) : null;
        e.mat = mat ? { width_inches: Math.round(mat * 1000) / 1000, color: r.mat_color || 'white' } : null;
      }
      e.price = r.price.trim() || null;
      e.availability = r.availability;
      e.default = r.default;
      if (r.link_url) e.link_url = r.link_url;
      if (r.call_to_action) e.call_to_action = r.call_to_action;
      return e;
    }

    function openVariants(itemId) {
      if (ve && ve.itemId === itemId) {
        $('#variants-title').focus();
        return;
      }
      if (vDirty() && !confirm('Discard the unsaved changes to the variants of picture ' + ve.itemId + '?')) return;
      var it = showcase.items.filter(function (x) {
        return x.id === itemId;
      })[0];
      if (!it) return;
      ve = { itemId: itemId, units: showcase.units, selected: null, dragKey: null, saving: false, focusNext: null };
      vSkeleton();
      vInit(it, null);
      vPanel.hidden = false;
      renderItems(showcase);
      $('#variants-title').textContent = 'Variants of ' + itemName(it);
      vPanel.scrollIntoView({ block: 'start' });
      $('#variants-title').focus();
    }
    function closeVariants() {
      if (vDirty() && !confirm('Discard the unsaved changes to the variants of picture ' + ve.itemId + '?')) return;
      var id = ve.itemId;
      ve = null;
      vPanel.hidden = true;
      fill(vBody, []);
      focusNext = 'variants-' + id;
      renderItems(showcase);
    }
    $('[data-action=close-variants]').addEventListener('click', closeVariants);
    window.addEventListener('beforeunload', function (e) {
      if (!vDirty()) return;
      e.preventDefault();
      e.returnValue = '';
    });

    /** The table's holder, its error line, its buttons and the preview: built once per opening. */
    function vSkeleton() {
      var canvas = h('canvas', { width: '480', height: '360', role: 'img', 'data-testid': 'variant-canvas', 'aria-label': 'Preview' });
      ve.el = {
        holder: h('div', { class: 'vt-holder' }),
        err: h('p', { class: 'error', 'data-error': 'variants', id: 'variants-err', hidden: true }),
        add: h('button', { type: 'button', class: 'secondary', 'data-key': 'v-add', text: 'Add variant', on: { click: vAdd } }),
        save: h('button', { type: 'button', 'data-key': 'v-save', text: 'Save variants', on: { click: vSave } }),
        reset: h('button', {
          type: 'button',
          class: 'link',
          'data-key': 'v-reset',
          text: 'Discard changes',
          hidden: true,
          on: { click: vReset },
        }),
        dirty: h('span', { class: 'hint', 'data-testid': 'variants-dirty' }),
        title: h('h3', { 'data-testid': 'preview-title' }),
        canvas: canvas,
        caption: h('p', { class: 'hint', 'data-testid': 'preview-caption' }),
        built: h('div', { class: 'vt-built', 'data-testid': 'variant-built' }),
      };
      var E = ve.el;
      fill(vBody, [
        E.holder,
        E.err,
        h('div', { class: 'vt-bar' }, [E.add, E.save, E.reset, E.dirty]),
        h('div', { class: 'vt-preview', 'data-testid': 'variant-preview' }, [
          E.title,
          h('div', { class: 'vt-figs' }, [
            h('figure', {}, [canvas, h('figcaption', { text: 'Drawn from the table, as you type' })]),
            E.built,
          ]),
          E.caption,
        ]),
      ]);
    }

    /** Rows from the item as the API shows it; `prev`: the rows just saved (a building variant's look as sent). */
    function vInit(it, prev) {
      var old = {};
      (prev || []).forEach(function (r) {
        old[r.sku.trim()] = r;
      });
      var sel =
        ve.rows &&
        ve.rows.filter(function (r) {
          return r.key === ve.selected;
        })[0];
      ve.item = it;
      ve.source = JSON.stringify(it.variants || null);
      ve.rows = (it.variants || []).map(function (v) {
        var r = vRow(v, it, ve.units);
        var p = old[r.sku];
        if (p && !('frame' in v))
          ['frame', 'frame_color', 'frame_width', 'mat', 'mat_color'].forEach(function (k) {
            r[k] = p[k];
          });
        return r;
      });
      ve.bySku = {};
      ve.byId = {};
      ve.rows.forEach(function (r) {
        ve.bySku[r.sku] = vValues(r);
        ve.byId[r.id] = ve.bySku[r.sku];
      });
      ve.snapshot = vSnap();
      var keep =
        sel &&
        ve.rows.filter(function (r) {
          return r.key === sel.key || r.sku === sel.sku.trim();
        })[0];
      ve.selected = keep ? keep.key : ve.rows[0] ? ve.rows[0].key : null;
      vRender();
    }

    function vReset() {
      vInit(ve.item, null);
      vErr(null);
      ve.el.save.focus();
      say('The variants are as saved again.');
    }

    /** The open table follows the item (polling): all of it while nothing is edited, else only each row's status. */
    function variantsSync(s) {
      if (!ve) return false;
      var it = s.items.filter(function (x) {
        return x.id === ve.itemId;
      })[0];
      if (!it) {
        ve = null;
        vPanel.hidden = true;
        say('The picture was deleted.');
        return false;
      }
      if (ve.saving || JSON.stringify(it.variants || null) === ve.source) return false;
      if (!vDirty()) {
        var before = ve.rows.filter(function (r) {
          return r.status === 'building';
        }).length;
        vInit(it, ve.rows);
        var after = ve.rows.filter(function (r) {
          return r.status === 'building';
        }).length;
        if (before && !after) say('The variants of picture ' + it.id + ' are rebuilt.');
        return false;
      }
      ve.item = it;
      var byId = {};
      (it.variants || []).forEach(function (v) {
        byId[v.id] = v;
      });
      ve.rows.forEach(function (r) {
        var v = r.id && byId[r.id];
        if (!v) return;
        r.status = v.status;
        r.build = v.status === 'ready' && v.preview_url ? v : null;
        r.error = v.error || null;
        vStatus(r);
      });
      vDraw();
      return false;
    }

    function vStatus(r) {
      var el = vBody.querySelector('[data-status-of="' + CSS.escape(r.key) + '"]');
      if (el) el.parentNode.replaceChild(vBadge(r), el);
    }
    function vBadge(r) {
      var t = { new: 'New', ready: 'Ready', building: 'Rebuilding…', failed: 'Failed' }[r.status] || r.status;
      return h('span', {
        class: 'badge v-' + r.status,
        'data-status-of': r.key,
        'data-testid': r.status === 'building' ? 'variant-rebuilding' : 'variant-status',
        title: r.error ? r.error.message : null,
        text: t,
      });
    }

    function vRef(r, n) {
      return 'row ' + n + (r.sku.trim() ? ' (' + r.sku.trim() + ')' : '');
    }
    function vIndex(key) {
      for (var i = 0; i < ve.rows.length; i++) if (ve.rows[i].key === key) return i;
      return -1;
    }
    function vSelect(r) {
      if (ve.selected === r.key) return;
      ve.selected = r.key;
      $all('tr.selected', vBody).forEach(function (tr) {
        tr.classList.remove('selected');
      });
      var tr = vBody.querySelector('tr[data-row="' + CSS.escape(r.key) + '"]');
      if (tr) tr.classList.add('selected');
      vDraw();
    }
    /** A value typed in: the model, the unsaved mark, the drawing. */
    function vChanged() {
      var d = vDirty();
      ve.el.dirty.textContent = d ? 'Unsaved changes' : '';
      ve.el.reset.hidden = !d;
      vDraw();
    }

    function vAdd() {
      if (ve.rows.length >= MAX_VARIANTS) return say('At most ' + MAX_VARIANTS + ' variants per picture.');
      var it = ve.item;
      var last = ve.rows[ve.rows.length - 1];
      var r = vRow({ sku: '', availability: 'available', default: !ve.rows.length }, it, ve.units);
      if (last) {
        r.width = last.width;
        r.height = last.height;
      }
      ve.rows.push(r);
      ve.selected = r.key;
      ve.focusNext = r.key + '-sku';
      vRender();
      say('Variant added as row ' + ve.rows.length + '. Give it a SKU.');
    }
    function vDuplicate(r) {
      if (ve.rows.length >= MAX_VARIANTS) return say('At most ' + MAX_VARIANTS + ' variants per picture.');
      var c = {};
      Object.keys(r).forEach(function (k) {
        c[k] = r[k];
      });
      var taken = ve.rows.map(function (x) {
        return x.sku.trim();
      });
      var n = 1;
      var stem = r.sku.trim() + '-COPY';
      c.sku = stem;
      while (taken.indexOf(c.sku) >= 0) c.sku = stem + '-' + ++n;
      c.key = 'n' + ++vSeq;
      c.id = null;
      c.default = false;
      c.status = 'new';
      c.build = null;
      c.error = null;
      c.errors = {};
      var at = vIndex(r.key) + 1;
      ve.rows.splice(at, 0, c);
      ve.selected = c.key;
      ve.focusNext = c.key + '-sku';
      vRender();
      var input = vBody.querySelector('[data-key="' + CSS.escape(c.key) + '-sku"]');
      if (input) input.select();
      say('Row ' + at + ' duplicated as row ' + (at + 1) + ' (' + c.sku + ').');
    }
    function vDelete(r) {
      var at = vIndex(r.key);
      ve.rows.splice(at, 1);
      if (r.default && ve.rows.length) ve.rows[0].default = true;
      var next = ve.rows[at] || ve.rows[at - 1];
      if (ve.selected === r.key) ve.selected = next ? next.key : null;
      ve.focusNext = next ? next.key + '-delete' : 'v-add';
      vRender();
      say('Row ' + (at + 1) + (r.sku.trim() ? ' (' + r.sku.trim() + ')' : '') + ' deleted. Save to apply.');
    }
    function vMove(r, to, focusKey) {
      var from = vIndex(r.key);
      if (from < 0 || to < 0 || to >= ve.rows.length || to === from) return;
      ve.rows.splice(from, 1);
      ve.rows.splice(to, 0, r);
      ve.focusNext = focusKey;
      vRender();
      say('Row ' + (r.sku.trim() || 'new') + ' moved to position ' + (to + 1) + ' of ' + ve.rows.length + '.');
    }
    function vMoveBy(r, delta) {
      var to = vIndex(r.key) + delta;
      var n = ve.rows.length;
      // Focus follows the row; at either end, onto the button still usable.
      var dir = delta < 0 ? (to === 0 ? 'down' : 'up') : to === n - 1 ? 'up' : 'down';
      vMove(r, to, r.key + '-' + dir);
    }

    var COLOR_NAMES = Object.keys(COLORS);
    function colorOptions(current, first) {
      var opts = (first ? [first] : []).concat(
        COLOR_NAMES.map(function (c) {
          return [c, capital(c)];
        }),
      );
      if (current && current.charAt(0) === '#') opts.push([current, current]);
      return opts;
    }

    /** One cell: its controls, each with a label (seen on phones, read by screen readers), and the cell's error line. */
    function vCell(r, n, cls, name, controls) {
      var errId = r.key + '-' + name + '-err';
      var kids = [];
      controls.forEach(function (c) {
        var id = 'v-' + r.key + '-' + c.name;
        var el = c.el;
        el.id = id;
        el.setAttribute('data-key', r.key + '-' + c.name);
        el.setAttribute('aria-describedby', errId);
        if (r.errors.control === c.name) el.setAttribute('aria-invalid', 'true');
        kids.push(h('label', { for: id, class: 'vt-l' }, [c.label, h('span', { class: 'sr-only', text: ' (row ' + n + ')' })]), el);
      });
      var msg = r.errors.cell === name ? r.errors.message : '';
      kids.push(h('p', { class: 'error', id: errId, hidden: !msg, text: msg }));
      return h('td', { class: 'vt-' + cls }, [h('div', { class: 'vt-c' }, kids)]);
    }
    function vInput(r, k, attrs) {
      var el = h('input', attrs || {});
      el.value = r[k];
      el.addEventListener('input', function () {
        r[k] = el.value;
        vChanged();
      });
      return el;
    }
    function vSelectEl(r, k, options, after) {
      var el = h(
        'select',
        {},
        options.map(function (o) {
          return h('option', { value: o[0], text: o[1] });
        }),
      );
      el.value = r[k];
      el.addEventListener('change', function () {
        r[k] = el.value;
        if (after) after(el);
        vChanged();
      });
      return el;
    }

    function vTr(r, i) {
      var n = i + 1;
      var U = unitLabel(ve.units);
      var ref = vRef(r, n);
      var btn = function (key, text, label, disabled, fn, cls) {
        return h('button', {
          type: 'button',
          class: cls || 'secondary',
          'data-key': r.key + '-' + key,
          'data-label': label,
          'aria-label': label + ': ' + ref,
          disabled: disabled,
          text: text,
          on: { click: fn },
        });
      };
      var noMoulding = MOULDED.indexOf(r.frame) < 0;
      var frameColor = vSelectEl(r, 'frame_color', colorOptions(r.frame_color, ['', 'Standard']));
      var matWidth = vInput(r, 'mat', { type: 'number', min: '0', step: 'any', inputmode: 'decimal' });
      var matColor = vSelectEl(r, 'mat_color', colorOptions(r.mat_color));
      var syncLook = function () {
        var none = MOULDED.indexOf(r.frame) < 0;
        frameColor.disabled = !r.frame || r.frame === 'canvas';
        matWidth.disabled = none;
        matColor.disabled = none;
      };
      var frameStyle = vSelectEl(r, 'frame', FRAMES, function () {
        // Another style: its own moulding width.
        r.frame_width = null;
        syncLook();
      });
      frameColor.disabled = !r.frame || r.frame === 'canvas';
      matWidth.disabled = noMoulding;
      matColor.disabled = noMoulding;
      var radio = h('input', { type: 'radio', name: 'v-default', checked: r.default });
      radio.addEventListener('change', function () {
        ve.rows.forEach(function (x) {
          x.default = x === r;
        });
        vChanged();
      });
      var grip = h('span', { class: 'grip', draggable: 'true', title: 'Drag to move', 'aria-hidden': 'true', text: '⠿' });
      grip.addEventListener('dragstart', function (e) {
        ve.dragKey = r.key;
        tr.classList.add('dragging');
        e.dataTransfer.effectAllowed = 'move';
        e.dataTransfer.setData('text/plain', r.sku);
        if (e.dataTransfer.setDragImage) e.dataTransfer.setDragImage(tr, 12, 12);
      });
      grip.addEventListener('dragend', function () {
        ve.dragKey = null;
        $all('.dragging, .drop-target', vBody).forEach(function (el) {
          el.classList.remove('dragging', 'drop-target');
        });
      });
      var skuCell = vCell(r, n, 'sku', 'sku', [
        { name: 'sku', label: 'SKU', el: vInput(r, 'sku', { maxlength: '64', autocomplete: 'off', spellcheck: 'false', required: true }) },
      ]);
      var skuBox = $('.vt-c', skuCell);
      skuBox.insertBefore(vBadge(r), skuBox.lastChild);
      var tr = h('tr', { 'data-row': r.key, 'data-testid': 'variant-row', class: ve.selected === r.key ? 'selected' : null }, [
        h('td', { class: 'vt-grip' }, [grip]),
        skuCell,
        vCell(r, n, 'name', 'name', [{ name: 'name', label: 'Name', el: vInput(r, 'name', { maxlength: '80', autocomplete: 'off' }) }]),
        vCell(r, n, 'size', 'size', [
          {
            name: 'width',
            label: 'Width (' + U + ')',
            el: vInput(r, 'width', { type: 'number', min: '0', step: 'any', inputmode: 'decimal' }),
          },
          {
            name: 'height',
            label: 'Height (' + U + ')',
            el: vInput(r, 'height', { type: 'number', min: '0', step: 'any', inputmode: 'decimal' }),
          },
        ]),
        vCell(r, n, 'frame', 'frame', [
          { name: 'frame', label: 'Frame', el: frameStyle },
          { name: 'frame_color', label: 'Frame colour', el: frameColor },
        ]),
        vCell(r, n, 'mat', 'mat', [
          { name: 'mat', label: 'Mat (' + U + ')', el: matWidth },
          { name: 'mat_color', label: 'Mat colour', el: matColor },
        ]),
        vCell(r, n, 'price', 'price', [
          { name: 'price', label: 'Price', el: vInput(r, 'price', { maxlength: '50', autocomplete: 'off' }) },
        ]),
        vCell(r, n, 'avail', 'availability', [
          {
            name: 'availability',
            label: 'Availability',
            el: vSelectEl(
              r,
              'availability',
              Object.keys(AVAILABILITY).map(function (k) {
                return [k, AVAILABILITY[k]];
              }),
            ),
          },
        ]),
        vCell(r, n, 'default', 'default', [{ name: 'default', label: 'Default', el: radio }]),
        h('td', { class: 'vt-actions' }, [
          h('div', { class: 'vt-btns' }, [
            btn('up', '↑', 'Move up', i === 0, function () {
              vMoveBy(r, -1);
            }),
            btn('down', '↓', 'Move down', i === ve.rows.length - 1, function () {
              vMoveBy(r, 1);
            }),
            btn('duplicate', 'Duplicate', 'Duplicate', ve.rows.length >= MAX_VARIANTS, function () {
              vDuplicate(r);
            }),
            btn(
              'delete',
              'Delete',
              'Delete',
              false,
              function () {
                vDelete(r);
              },
              'danger',
            ),
          ]),
        ]),
      ]);
      // The buttons name their row by its SKU as typed.
      $('input', skuCell).addEventListener('input', function () {
        $all('button[data-label]', tr).forEach(function (b) {
          b.setAttribute('aria-label', b.getAttribute('data-label') + ': ' + vRef(r, n));
        });
      });
      tr.addEventListener('focusin', function () {
        vSelect(r);
      });
      tr.addEventListener('click', function () {
        // Not after an action that drew the table again (Duplicate selects the copy).
        if (tr.isConnected) vSelect(r);
      });
      // Drag and drop by the handle: a row dropped on another takes its place (Move up / Move down by keyboard).
      tr.addEventListener('dragover', function (e) {
        if (!ve.dragKey || ve.dragKey === r.key) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        tr.classList.add('drop-target');
      });
      tr.addEventListener('dragleave', function (e) {
        if (!tr.contains(e.relatedTarget)) tr.classList.remove('drop-target');
      });
      tr.addEventListener('drop', function (e) {
        if (!ve.dragKey) return;
        e.preventDefault();
        var moving = ve.rows[vIndex(ve.dragKey)];
        ve.dragKey = null;
        if (moving && moving !== r) vMove(moving, vIndex(r.key), null);
      });
      return tr;
    }

    /** The table from the model; focus stays on the same control (or goes where an action sent it). */
    function vRender() {
      var had = document.activeElement;
      var hadKey = had && vBody.contains(had) ? had.getAttribute('data-key') : null;
      var U = unitLabel(ve.units);
      var cols = ['SKU', 'Name', 'Size (W × H, ' + U + ')', 'Frame', 'Mat (' + U + ')', 'Price', 'Availability', 'Default', 'Actions'];
      fill(
        ve.el.holder,
        ve.rows.length
          ? h('div', { class: 'table-wrap vt-wrap', tabindex: '0', role: 'region', 'aria-label': 'Variants table' }, [
              h('table', { class: 'vtable', 'aria-describedby': 'variants-help' }, [
                h('caption', { class: 'sr-only', text: 'Variants of picture ' + ve.itemId }),
                h('thead', {}, [
                  h(
                    'tr',
                    {},
                    [h('th', { scope: 'col' }, [h('span', { class: 'sr-only', text: 'Drag' })])].concat(
                      cols.map(function (c) {
                        return h('th', { scope: 'col', text: c });
                      }),
                    ),
                  ),
                ]),
                h('tbody', {}, ve.rows.map(vTr)),
              ]),
            ])
          : empty('No variants: the picture is sold in one size. Add a variant for each size and frame you sell.'),
      );
      ve.el.add.disabled = ve.rows.length >= MAX_VARIANTS;
      var key = ve.focusNext || hadKey;
      ve.focusNext = null;
      var target = key && vBody.querySelector('[data-key="' + CSS.escape(key) + '"]');
      if (target && target !== document.activeElement) target.focus();
      vChanged();
    }

    function vErr(msg) {
      ve.el.err.textContent = msg || '';
      ve.el.err.hidden = !msg;
    }
    /** A 400's param as a row and cell: variants[2].frame.color -> row 2, the frame cell, its colour control. */
    function vWhere(param) {
      var m = /^variants\[(\d+)\](?:\.([a-z_]+)(?:\.([a-z_]+))?)?/.exec(String(param || ''));
      if (!m || !m[2]) return null;
      var k = m[2];
      var sub = m[3];
      var at = { row: Number(m[1]) };
      if (/^(width_|depth_)|^fit$/.test(k)) return ((at.cell = 'size'), (at.control = 'width'), at);
      if (/^height_/.test(k)) return ((at.cell = 'size'), (at.control = 'height'), at);
      if (k === 'frame' || k === 'mat') return ((at.cell = k), (at.control = sub === 'color' ? k + '_color' : k), at);
      if (['sku', 'name', 'price', 'availability', 'default'].indexOf(k) >= 0) return ((at.cell = k), (at.control = k), at);
      return null;
    }
    /** The API's words with rows for indexes: "variants[1].sku: A3 is also variants[0]'s" -> "A3 is also the SKU of row 1". */
    function vWords(msg) {
      return String(msg || 'Something went wrong.')
        .replace(/^variants\[\d+\][\w.]*: /, '')
        .replace(/is also variants\[(\d+)\]'s/, function (_, i) {
          return 'is also the SKU of row ' + (Number(i) + 1);
        })
        .replace(/variants\[(\d+)\]/g, function (_, i) {
          return 'row ' + (Number(i) + 1);
        });
    }

    function vSave() {
      if (ve.saving) return;
      ve.rows.forEach(function (r) {
        r.errors = {};
      });
      vErr(null);
      var rows = ve.rows.slice();
      var itemId = ve.itemId;
      ve.saving = true;
      ve.el.save.setAttribute('aria-disabled', 'true');
      ve.el.save.textContent = 'Saving…';
      api('PATCH', base + '/items/' + seg(itemId), { variants: rows.map(vEntry) }).then(
        function (res) {
          if (!ve || ve.itemId !== itemId) return;
          ve.saving = false;
          ve.el.save.removeAttribute('aria-disabled');
          ve.el.save.textContent = 'Save variants';
          var item = res && res.item ? res.item : res;
          showcase.items = showcase.items.map(function (x) {
            return x.id === item.id ? item : x;
          });
          ve.focusNext = 'v-save';
          vInit(item, rows);
          var n = (item.variants || []).length;
          var b = ve.rows.filter(function (r) {
            return r.status === 'building';
          }).length;
          say('Saved ' + n + (n === 1 ? ' variant' : ' variants') + ' of picture ' + itemId + (b ? '. Rebuilding ' + b + '…' : '.'));
          load();
        },
        function (e) {
          if (!ve || ve.itemId !== itemId) return;
          ve.saving = false;
          ve.el.save.removeAttribute('aria-disabled');
          ve.el.save.textContent = 'Save variants';
          var err = (e && e.error) || {};
          var at = vWhere(err.param);
          var msg = vWords(err.message);
          var r = at && ve.rows[at.row];
          if (r) {
            r.errors = { cell: at.cell, control: at.control, message: msg };
            ve.selected = r.key;
            ve.focusNext = r.key + '-' + at.control;
            vRender();
            say('Row ' + (at.row + 1) + ': ' + msg);
          } else {
            var row = /^variants\[(\d+)\]/.exec(err.param || '');
            vErr((row ? 'Row ' + (Number(row[1]) + 1) + ': ' : '') + msg);
            say(msg);
          }
        },
      );
    }

    // ---- the preview: the row's picture framed as the engine frames it, drawn on a canvas

    function hexOf(c) {
      return COLORS[c] || (/^#[0-9a-f]{6}$/i.test(c || '') ? c : '#888888');
    }
    /** A colour lighter (k > 1) or darker (k < 1). */
    function shade(hex, k) {
      var n = parseInt(hex.slice(1), 16);
      var f = function (v) {
        return Math.max(0, Math.min(255, Math.round(k >= 1 ? v + (255 - v) * (k - 1) : v * k)));
      };
      return 'rgb(' + f(n >> 16) + ',' + f((n >> 8) & 255) + ',' + f(n & 255) + ')';
    }
    /** A row's look in inches: the picture, moulding and mat (a float frame's reveal), colours, outer size. */
    function lookOf(r) {
      var w = toInch(r.width, ve.units);
      var ht = toInch(r.height, ve.units);
      if (!(w > 0 && ht > 0)) {
        var d = ve.item.dimensions;
        w = d ? d.width_inches : 24;
        ht = d ? d.height_inches : 18;
      }
      var moulded = MOULDED.indexOf(r.frame) >= 0;
      var fd = FRAME_LOOK[r.frame] || { width: 0, color: 'white' };
      var fw = moulded ? (r.frame_width !== null ? r.frame_width : fd.width) : 0;
      var mw = moulded ? toInch(r.mat, ve.units) || 0 : 0;
      var mc = r.mat_color || 'white';
      if (r.frame === 'float' && !mw && LOOK.float_reveal) {
        mw = LOOK.float_reveal.width_inches;
        mc = LOOK.float_reveal.color;
      }
      return {
        w: w,
        h: ht,
        style: r.frame,
        fw: fw,
        mw: mw,
        frameColor: r.frame_color || fd.color,
        matColor: mc,
        outerW: w + 2 * (fw + mw),
        outerH: ht + 2 * (fw + mw),
      };
    }
    function vImg(url) {
      var c = vImgs[url];
      if (!c) {
        c = vImgs[url] = { img: new Image(), ready: false };
        c.img.onload = function () {
          c.ready = true;
          vDraw();
        };
        c.img.src = url;
      }
      return c;
    }
    /**
     * The picture to draw: the poster (item's or a built variant's) least cropped from the original, and the
     * rectangle of the picture inside it (posters are framed: the frame and mat around it are left out).
     */
    function pictureOf(aspect) {
      var it = ve.item;
      var cands = [it].concat(
        (it.variants || []).filter(function (v) {
          return v.status === 'ready';
        }),
      );
      var best = null;
      var bestScore = Infinity;
      cands.forEach(function (c) {
        if (!c.preview_url || !c.dimensions || !c.outer_dimensions) return;
        var a = c.dimensions.width_inches / c.dimensions.height_inches;
        var score = c.fit && c.fit.applied === 'none' ? -1 : Math.abs(Math.log(a / aspect));
        if (score < bestScore) {
          best = c;
          bestScore = score;
        }
      });
      if (!best) return null;
      var im = vImg(best.preview_url);
      if (!im.ready) return null;
      var W = im.img.naturalWidth;
      var H = im.img.naturalHeight;
      var o = best.outer_dimensions;
      var d = best.dimensions;
      var sx = (((o.width_inches - d.width_inches) / 2) * W) / o.width_inches;
      var sy = (((o.height_inches - d.height_inches) / 2) * H) / o.height_inches;
      var sw = W - 2 * sx;
      var sh = H - 2 * sy;
      // Cropped, centred, to the row's shape (as fit "crop" does).
      if (sw / sh > aspect) {
        sx += (sw - sh * aspect) / 2;
        sw = sh * aspect;
      } else {
        sy += (sh - sw / aspect) / 2;
        sh = sw / aspect;
      }
      return { img: im.img, sx: sx, sy: sy, sw: sw, sh: sh };
    }

    function vDraw() {
      if (!ve || !ve.el) return;
      var E = ve.el;
      var i = vIndex(ve.selected);
      var r = ve.rows[i];
      var canvas = E.canvas;
      var ctx = canvas.getContext('2d');
      var W = canvas.width;
      var H = canvas.height;
      ctx.fillStyle = '#ece8e1';
      ctx.fillRect(0, 0, W, H);
      if (!r) {
        E.title.textContent = 'Preview';
        E.caption.textContent = 'Add a variant to see it framed.';
        canvas.setAttribute('aria-label', 'No variant to preview');
        fill(E.built, []);
        return;
      }
      var L = lookOf(r);
      // To scale with the table's largest variant (sizes compare), but never smaller than 40 % of the room.
      var maxW = L.outerW;
      var maxH = L.outerH;
      ve.rows.forEach(function (x) {
        var l = lookOf(x);
        maxW = Math.max(maxW, l.outerW);
        maxH = Math.max(maxH, l.outerH);
      });
      var roomW = W - 48;
      var roomH = H - 48;
      var s = Math.max(Math.min(roomW / maxW, roomH / maxH), 0.4 * Math.min(roomW / L.outerW, roomH / L.outerH));
      var ow = Math.round(L.outerW * s);
      var oh = Math.round(L.outerH * s);
      var x0 = Math.round((W - ow) / 2);
      var y0 = Math.round((H - oh) / 2);
      var fw = L.fw ? Math.max(2, Math.round(L.fw * s)) : 0;
      var mw = Math.round(L.mw * s);
      ctx.save();
      ctx.shadowColor = 'rgba(0,0,0,.35)';
      ctx.shadowBlur = 12;
      ctx.shadowOffsetX = 3;
      ctx.shadowOffsetY = 5;
      ctx.fillStyle = '#777';
      ctx.fillRect(x0, y0, ow, oh);
      ctx.restore();
      if (fw) {
        // The moulding: four mitred sides lit from the top left; oak and walnut with a grain.
        var base = hexOf(L.frameColor);
        var x1 = x0 + ow;
        var y1 = y0 + oh;
        var sides = [
          [[x0, y0, x1, y0, x1 - fw, y0 + fw, x0 + fw, y0 + fw], 1.22, true],
          [[x1, y0, x1, y1, x1 - fw, y1 - fw, x1 - fw, y0 + fw], 0.82, false],
          [[x1, y1, x0, y1, x0 + fw, y1 - fw, x1 - fw, y1 - fw], 0.72, true],
          [[x0, y1, x0, y0, x0 + fw, y0 + fw, x0 + fw, y1 - fw], 1.1, false],
        ];
        var wood = L.frameColor === 'oak' || L.frameColor === 'walnut';
        sides.forEach(function (sd) {
          var p = sd[0];
          ctx.save();
          ctx.beginPath();
          ctx.moveTo(p[0], p[1]);
          for (var k = 2; k < 8; k += 2) ctx.lineTo(p[k], p[k + 1]);
          ctx.closePath();
          ctx.fillStyle = shade(base, sd[1]);
          ctx.fill();
          if (wood) {
            ctx.clip();
            ctx.strokeStyle = 'rgba(60,30,10,.18)';
            ctx.lineWidth = 1;
            for (var g = 1; g < fw; g += 2 + (g % 3)) {
              ctx.beginPath();
              if (sd[2]) {
                ctx.moveTo(x0, p[1] + (p[1] === y0 ? g : -g));
                ctx.lineTo(x1, p[1] + (p[1] === y0 ? g : -g));
              } else {
                ctx.moveTo(p[0] + (p[0] === x0 ? g : -g), y0);
                ctx.lineTo(p[0] + (p[0] === x0 ? g : -g), y1);
              }
              ctx.stroke();
            }
          }
          ctx.restore();
        });
      }
      var ix = x0 + fw;
      var iy = y0 + fw;
      var iw = ow - 2 * fw;
      var ih = oh - 2 * fw;
      if (mw) {
        ctx.fillStyle = hexOf(L.matColor);
        ctx.fillRect(ix, iy, iw, ih);
      }
      var px = ix + mw;
      var py = iy + mw;
      var pw = iw - 2 * mw;
      var ph = ih - 2 * mw;
      var pic = pictureOf(L.w / L.h);
      if (pic) ctx.drawImage(pic.img, pic.sx, pic.sy, pic.sw, pic.sh, px, py, pw, ph);
      else {
        var grad = ctx.createLinearGradient(px, py, px + pw, py + ph);
        grad.addColorStop(0, '#aeb6c2');
        grad.addColorStop(1, '#6e7781');
        ctx.fillStyle = grad;
        ctx.fillRect(px, py, pw, ph);
      }
      if (fw) {
        // The moulding's shadow on the mat (or picture) below its top and left edges.
        ctx.fillStyle = 'rgba(0,0,0,.18)';
        var sh = Math.max(1, Math.round(fw * 0.25));
        ctx.fillRect(ix, iy, iw, sh);
        ctx.fillRect(ix, iy + sh, sh, ih - sh);
      } else if (L.style === 'canvas') {
        // A gallery wrap: its edge seen at the right and bottom.
        ctx.fillStyle = 'rgba(0,0,0,.22)';
        ctx.fillRect(px + pw - 3, py + 3, 3, ph - 3);
        ctx.fillRect(px + 3, py + ph - 3, pw - 3, 3);
      }
      canvas.setAttribute('data-frame-px', String(fw));
      canvas.setAttribute('data-mat-px', String(mw));
      canvas.setAttribute('data-sku', r.sku.trim());
      var U = unitLabel(ve.units);
      var size = function (a, b) {
        return vStr(toUnit(a, ve.units)) + ' × ' + vStr(toUnit(b, ve.units)) + ' ' + U;
      };
      var frameText = !r.frame ? 'no frame' : r.frame === 'canvas' ? 'canvas wrap' : r.frame + ' frame (' + L.frameColor + ')';
      var words =
        (r.sku.trim() || 'New variant') +
        ': ' +
        size(L.w, L.h) +
        ', ' +
        frameText +
        (L.mw
          ? ', ' + vStr(toUnit(L.mw, ve.units)) + ' ' + U + ' ' + L.matColor + (r.frame === 'float' && !vNum(r.mat) ? ' reveal' : ' mat')
          : '') +
        '. Outer size ' +
        size(L.outerW, L.outerH) +
        '.';
      E.title.textContent = 'Preview of row ' + (i + 1);
      E.caption.textContent = words;
      canvas.setAttribute('aria-label', 'Drawn preview of ' + words);
      // The files as built: the variant's own poster, while the row's size and look are what was saved.
      var was = r.id ? ve.byId[r.id] : null;
      var built = r.build && !vLookChanged(r, was) ? r.build.preview_url : null;
      var cur = $('img', E.built);
      if (built && cur && cur.getAttribute('src') === built) return;
      fill(
        E.built,
        built
          ? h('figure', {}, [
              h('img', { src: built, alt: 'Built preview of ' + (r.sku.trim() || 'the variant'), 'data-testid': 'variant-poster' }),
              h('figcaption', { text: 'As built (its AR files)' }),
            ])
          : h('p', {
              class: 'hint',
              text:
                r.status === 'building'
                  ? 'Rebuilding… Its built picture shows here when its files are ready.'
                  : r.status === 'failed' && !vLookChanged(r, was)
                    ? 'The build failed' + (r.error ? ': ' + r.error.message : '.')
                    : 'Not built yet: save to build its files.',
            }),
      );
    }

    var walls = galleryWalls(base, itemName);
    load(true);
  };

  // ---- gallery walls: a showcase's saved walls, and the arranger (pictures dragged on a wall drawn to scale)

  /** A picture of a wall as the API places it (outer centre and size, inches) as the arranger holds it. */
  function wallPic(x) {
    return {
      item_id: x.item_id,
      variant_sku: x.variant_sku || null,
      x: x.x_inches,
      y: x.y_inches,
      w: x.width_inches,
      h: x.height_inches,
    };
  }

  /**
   * The "Gallery walls" section of a showcase page, built by the script after the variants panel: the saved
   * walls (GET …/walls) with their poster, size, page link, Edit and Delete; and the arranger, where 2 to 12
   * completed pictures are laid out by the API (POST …/walls/layout: row, grid, salon), then moved by drag
   * (mouse, pen or touch) or arrow keys in 0.5 in steps on a wall drawn to scale with a sofa beneath, and
   * saved (POST …/walls, PATCH for an edit) as one AR model. `sync(showcase)` follows the page's loads.
   */
  function galleryWalls(base, itemName) {
    var WALLS = base + '/walls';
    var MAX_WIDTH = 480;
    var MAX_PICS = 12;
    var SOFA = { w: 84, h: 33 };
    var NS = 'http://www.w3.org/2000/svg';
    var showcase = null;
    var walls = [];
    var listTimer = null;
    var resultTimer = null;
    /** The open arranger: the wall edited (null: a new one), the ticked pictures, their layout, the view. */
    var A = null;
    var layoutSeq = 0;
    var layoutTimer = null;
    var drag = null;

    var anchor = $('[data-testid=variants]');
    if (!anchor) return { sync: function () {} };

    // Inches as the console shows them: at most two decimals, a true minus sign.
    function inch(v) {
      var r = Math.round(v * 100) / 100;
      return (r < 0 ? '−' : '') + String(Math.abs(r));
    }
    function cm(v) {
      return String(Math.round(v * 2.54));
    }
    function snap(v) {
      return Math.round(v * 2) / 2;
    }
    function sizeText(w, hgt) {
      return inch(w) + ' × ' + inch(hgt) + ' in (' + cm(w) + ' × ' + cm(hgt) + ' cm)';
    }
    function byId(itemId) {
      return ((showcase && showcase.items) || []).filter(function (x) {
        return x.id === itemId;
      })[0];
    }
    function pictureName(itemId) {
      var it = byId(itemId);
      return it ? itemName(it) : 'Picture ' + itemId;
    }
    function thumbOf(itemId, sku) {
      var it = byId(itemId);
      if (!it) return null;
      var v = sku
        ? (it.variants || []).filter(function (x) {
            return x.sku === sku;
          })[0]
        : null;
      return (v && v.preview_url) || it.preview_url || null;
    }
    function errMessage(e) {
      var er = (e && e.error) || {};
      return (er.message || 'Something went wrong.') + (er.param ? ' (' + er.param + ')' : '');
    }

    // ---- the section: list, result of the last save, arranger (built once)

    var E = {};
    E.list = h('div', { 'data-testid': 'wall-list' }, [h('p', { class: 'loading', text: 'Loading…' })]);
    E.result = h('div', { class: 'wall-result', 'data-testid': 'wall-result', hidden: true });
    E.newBtn = h('button', { type: 'button', 'data-action': 'new-wall', 'aria-controls': 'wall-arranger', text: 'New wall' });
    E.title = h('h3', { id: 'arranger-title', tabindex: '-1' });
    E.name = h('input', {
      id: 'wall-name',
      name: 'name',
      maxlength: '80',
      placeholder: 'Gallery wall',
      'aria-describedby': 'wall-name-err',
    });
    E.nameErr = h('p', { class: 'error', id: 'wall-name-err', hidden: true });
    E.picks = h('ul', { class: 'ar-picks', 'data-testid': 'wall-picks' });
    E.picksHint = h('p', { class: 'hint', id: 'wall-picks-hint' });
    E.arrBtns = ['row', 'grid', 'salon'].map(function (a) {
      return h('button', {
        type: 'button',
        class: 'secondary',
        'data-arrangement': a,
        'aria-pressed': 'false',
        text: a.charAt(0).toUpperCase() + a.slice(1),
        on: {
          click: function () {
            choose(a);
          },
        },
      });
    });
    E.arrNow = h('p', { class: 'hint', 'data-testid': 'wall-arrangement', 'aria-live': 'polite' });
    E.gap = h('input', {
      id: 'wall-gap',
      name: 'gap_inches',
      type: 'number',
      min: '0',
      max: '48',
      step: '0.5',
      value: '3',
      inputmode: 'decimal',
      'aria-describedby': 'wall-error',
    });
    E.align = h(
      'select',
      { id: 'wall-align', name: 'align', 'aria-describedby': 'wall-error' },
      [
        ['center', 'Centre'],
        ['top', 'Top'],
        ['bottom', 'Bottom'],
      ].map(function (o) {
        return h('option', { value: o[0], text: o[1] });
      }),
    );
    E.columns = h('input', {
      id: 'wall-columns',
      name: 'columns',
      type: 'number',
      min: '1',
      max: '12',
      step: '1',
      placeholder: 'Auto',
      inputmode: 'numeric',
      'aria-describedby': 'wall-error',
    });
    E.stage = h('div', { class: 'wall-stage', 'data-testid': 'wall-stage' });
    E.size = h('p', { class: 'wall-size', 'data-testid': 'wall-size' });
    E.live = h('p', { class: 'sr-only', 'aria-live': 'polite', 'data-testid': 'wall-live' });
    E.problem = h('p', { class: 'error', id: 'wall-problem', 'data-testid': 'wall-problem', 'aria-live': 'polite' });
    E.err = h('p', { class: 'error', id: 'wall-error', 'data-testid': 'wall-error', role: 'alert', hidden: true });
    E.save = h('button', {
      type: 'button',
      'data-action': 'save-wall',
      'aria-describedby': 'wall-problem wall-price',
      text: 'Save wall',
      on: { click: save },
    });
    E.cancel = h('button', { type: 'button', class: 'secondary', text: 'Cancel', on: { click: close } });
    E.price = h('span', { class: 'hint', id: 'wall-price' });
    var field = function (id, label, control, hint) {
      return h('div', { class: 'field' }, [h('label', { for: id, text: label }), control, hint || null]);
    };
    E.arranger = h(
      'div',
      {
        class: 'arranger',
        id: 'wall-arranger',
        'data-testid': 'wall-arranger',
        role: 'group',
        'aria-labelledby': 'arranger-title',
        hidden: true,
      },
      [
        E.title,
        h('div', { class: 'ar-grid' }, [
          h('div', { class: 'ar-side' }, [
            field('wall-name', 'Wall name', E.name, E.nameErr),
            h('fieldset', { class: 'ar-set' }, [h('legend', { text: 'Pictures (2 to 12)' }), E.picksHint, E.picks]),
            h('fieldset', { class: 'ar-set' }, [
              h('legend', { text: 'Arrangement' }),
              h('div', { class: 'ar-btns' }, E.arrBtns),
              E.arrNow,
              h('div', { class: 'ar-opts' }, [
                field('wall-gap', 'Gap (in)', E.gap),
                field('wall-align', 'Align', E.align),
                field('wall-columns', 'Columns', E.columns),
              ]),
            ]),
          ]),
          h('div', { class: 'ar-main' }, [
            E.stage,
            E.size,
            h('p', {
              class: 'hint',
              id: 'wall-drag-help',
              text: 'Drag a picture to move it (in 0.5 in steps), or select it and use the arrow keys: 1 in, 6 in with Shift. Positions are the centres of the framed pictures from the centre of the wall.',
            }),
            E.live,
            E.problem,
            E.err,
            h('div', { class: 'ar-bar' }, [E.save, E.cancel, E.price]),
          ]),
        ]),
      ],
    );
    E.section = h('section', { class: 'card walls', id: 'walls-panel', 'data-testid': 'walls', 'aria-labelledby': 'walls-title' }, [
      h('div', { class: 'sec-head' }, [h('h2', { id: 'walls-title', text: 'Gallery walls' }), E.newBtn]),
      h('p', {
        class: 'hint',
        text: '2 to 12 pictures hung together as one AR model, each at its own size, frame and place. A saved wall costs 1 credit, gets its own page and shows as a card on the showcase page.',
      }),
      E.result,
      E.arranger,
      h('h3', { class: 'walls-saved', text: 'Saved walls' }),
      E.list,
    ]);
    anchor.parentNode.insertBefore(E.section, anchor.nextSibling);

    E.newBtn.addEventListener('click', function () {
      open(null);
    });
    [E.gap, E.align, E.columns].forEach(function (el) {
      el.addEventListener(el.tagName === 'SELECT' ? 'change' : 'input', function () {
        if (!A) return;
        A.touched = true;
        if (A.arrangement !== 'custom') relayout(250);
        else showArrangement();
      });
    });
    E.name.addEventListener('input', function () {
      E.name.removeAttribute('aria-invalid');
      E.nameErr.hidden = true;
    });

    // ---- the list of saved walls

    function loadList() {
      clearTimeout(listTimer);
      return api('GET', WALLS).then(function (r) {
        walls = r.data || [];
        renderList();
        if (
          walls.some(function (w) {
            return active(w.status);
          })
        )
          listTimer = setTimeout(loadList, 2000);
      }, failed(E.list));
    }

    function renderList() {
      if (!walls.length) {
        fill(E.list, empty('No gallery walls yet. New wall arranges some of the pictures above.'));
        return;
      }
      var had = document.activeElement;
      var hadKey = had && E.list.contains(had) ? had.getAttribute('data-key') : null;
      fill(
        E.list,
        h(
          'ul',
          { class: 'wall-list' },
          walls.map(function (w) {
            return wallCard(w);
          }),
        ),
      );
      var again = hadKey && E.list.querySelector('[data-key="' + CSS.escape(hadKey) + '"]');
      if (again) again.focus();
    }

    function wallCard(w) {
      var ref = h('span', { class: 'sr-only', text: ' (' + w.name + ')' });
      var od = w.outer_dimensions || {};
      var missing = (w.items || []).filter(function (x) {
        return x.missing;
      }).length;
      var btn = function (key, text, fn, cls) {
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
            od.width_inches ? 'Outer size ' + sizeText(od.width_inches, od.height_inches) : null,
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
            ? h('a', { href: w.page_url, target: '_blank', rel: 'noopener', 'data-testid': 'wall-page' }, [
                'Open page',
                ref.cloneNode(true),
              ])
            : null,
          w.page_url
            ? btn('copy', 'Copy link', function (ev) {
                copy(w.page_url, ev.currentTarget, 'Copy link');
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

    function remove(w) {
      if (!confirm('Delete the gallery wall "' + w.name + '"? Its page and AR files are deleted.')) return;
      api('DELETE', WALLS + '/' + seg(w.id)).then(
        function () {
          say('Gallery wall "' + w.name + '" deleted.');
          if (A && A.wall && A.wall.id === w.id) close();
          if (E.result.getAttribute('data-id') === w.id) E.result.hidden = true;
          E.newBtn.focus();
          loadList();
        },
        function (e) {
          say(errMessage(e));
        },
      );
    }

    /** Copies a link; the button says so for 2 s and the status line names what was copied. */
    function copy(text, btn, label) {
      var done = function () {
        btn.firstChild.textContent = 'Copied';
        say('Link copied: ' + text);
        setTimeout(function () {
          btn.firstChild.textContent = label;
        }, 2000);
      };
      var fallback = function () {
        var ta = h('textarea', { class: 'sr-only', 'aria-hidden': 'true', tabindex: '-1' });
        ta.value = text;
        document.body.appendChild(ta);
        ta.select();
        var ok = false;
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

    function showResult(w) {
      E.result.hidden = false;
      E.result.setAttribute('data-id', w.id);
      E.result.setAttribute('data-status', w.status);
      var done = w.status === 'completed';
      var linkId = 'wall-share-' + w.id.replace(/[^A-Za-z0-9_-]/g, '');
      var copyBtn = h('button', { type: 'button', class: 'secondary', 'data-testid': 'wall-copy-link' }, ['Copy link']);
      copyBtn.addEventListener('click', function () {
        copy(w.page_url, copyBtn, 'Copy link');
      });
      fill(E.result, [
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

    function pollResult(wallId) {
      clearTimeout(resultTimer);
      api('GET', WALLS + '/' + seg(wallId)).then(
        function (w) {
          if (E.result.getAttribute('data-id') !== w.id) return;
          var was = E.result.getAttribute('data-status');
          if (was !== w.status) showResult(w);
          if (active(w.status)) resultTimer = setTimeout(pollResult, 1500, wallId);
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

    // ---- the arranger

    function open(w) {
      if (!showcase) {
        say('The pictures are still loading: try again in a moment.');
        return;
      }
      if (A && A.dirty && !confirm('Discard the wall you are arranging?')) return;
      A = {
        wall: w,
        sel: [],
        pics: [],
        arrangement: w ? w.arrangement : 'row',
        preset: w && w.arrangement !== 'custom' ? w.arrangement : 'row',
        view: null,
        sofaTop: null,
        dirty: false,
        touched: false,
        saving: false,
      };
      E.title.textContent = w ? 'Edit "' + w.name + '"' : 'New gallery wall';
      E.save.textContent = w ? 'Save changes' : 'Save wall';
      E.price.textContent = w ? 'A new layout rebuilds its AR files (free).' : 'Costs 1 credit.';
      E.name.value = w ? w.name : '';
      E.gap.value = w && w.gap_inches !== null && w.gap_inches !== undefined ? String(w.gap_inches) : '3';
      E.align.value = (w && w.align) || 'center';
      E.columns.value = w && w.columns ? String(w.columns) : '';
      E.err.hidden = true;
      E.nameErr.hidden = true;
      E.name.removeAttribute('aria-invalid');
      var gone = [];
      if (w) {
        (w.items || []).forEach(function (x) {
          var it = byId(x.item_id);
          if (x.missing || !it || it.status !== 'completed') {
            gone.push(x.item_id);
            return;
          }
          A.sel.push({ item_id: x.item_id, variant_sku: x.variant_sku || null });
          A.pics.push(wallPic(x));
        });
        if (gone.length) {
          A.dirty = true;
          A.touched = true;
        }
      }
      E.arranger.hidden = false;
      E.newBtn.setAttribute('aria-expanded', 'true');
      renderPicks();
      showArrangement();
      if (w && A.pics.length >= 2 && !gone.length) {
        fitView(true);
        draw();
      } else relayout(0);
      if (gone.length)
        showErr({
          error: { message: 'Left out, deleted or not ready since the wall was built: ' + gone.map(pictureName).join(', ') + '.' },
        });
      E.arranger.scrollIntoView({ block: 'start' });
      E.title.focus();
    }

    function close() {
      if (A && A.dirty && !A.saving && !confirm('Discard the wall you are arranging?')) return;
      var was = A && A.wall;
      A = null;
      clearTimeout(layoutTimer);
      E.arranger.hidden = true;
      E.newBtn.setAttribute('aria-expanded', 'false');
      fill(E.stage, []);
      var back = was && E.list.querySelector('[data-key="edit-' + CSS.escape(was.id) + '"]');
      (back || E.newBtn).focus();
    }

    /** The completed pictures to choose from, ticked ones first in their order, then the rest in the showcase's. */
    function renderPicks() {
      var items = ((showcase && showcase.items) || []).filter(function (it) {
        return it.status === 'completed';
      });
      var others = ((showcase && showcase.items) || []).length - items.length;
      E.picksHint.textContent =
        'They hang in the order you tick them.' +
        (others ? ' ' + others + ' picture' + (others === 1 ? ' is' : 's are') + ' not ready and not shown.' : '');
      A.picksKey = items
        .map(function (it) {
          return it.id + ':' + (it.variants || []).length;
        })
        .join(',');
      var had = document.activeElement && E.picks.contains(document.activeElement) ? document.activeElement.id : null;
      fill(
        E.picks,
        items.map(function (it) {
          var ticked = A.sel.filter(function (s) {
            return s.item_id === it.id;
          })[0];
          var cid = 'wall-pick-' + it.id;
          var box = h('input', {
            type: 'checkbox',
            id: cid,
            'data-item-id': String(it.id),
            checked: !!ticked,
            disabled: !ticked && A.sel.length >= MAX_PICS,
          });
          var vs = it.variants || [];
          var def =
            vs.filter(function (v) {
              return v.default;
            })[0] || vs[0];
          var select = vs.length
            ? h(
                'select',
                { id: 'wall-sku-' + it.id, 'data-item-id': String(it.id) },
                vs.map(function (v) {
                  var cur = ticked ? ticked.variant_sku || (def && def.sku) : def && def.sku;
                  return h('option', {
                    value: v.sku,
                    selected: v.sku === cur,
                    text: v.sku + (v.name ? ' · ' + v.name : '') + (v.status !== 'ready' ? ' (' + v.status + ')' : ''),
                  });
                }),
              )
            : null;
          box.addEventListener('change', function () {
            if (box.checked) A.sel.push({ item_id: it.id, variant_sku: select ? select.value : null });
            else
              A.sel = A.sel.filter(function (s) {
                return s.item_id !== it.id;
              });
            A.dirty = A.touched = true;
            renderPicks();
            relayout(150);
          });
          if (select)
            select.addEventListener('change', function () {
              A.sel.forEach(function (s) {
                if (s.item_id === it.id) s.variant_sku = select.value;
              });
              if (box.checked) {
                A.dirty = A.touched = true;
                relayout(0);
              }
            });
          var dims = it.dimensions;
          var order = ticked ? A.sel.indexOf(ticked) + 1 : 0;
          return h('li', { class: 'ar-pick' + (ticked ? ' on' : ''), 'data-testid': 'wall-pick' }, [
            box,
            h('label', { for: cid }, [
              thumbOf(it.id, ticked && ticked.variant_sku)
                ? h('img', { src: thumbOf(it.id, ticked && ticked.variant_sku), alt: '', loading: 'lazy' })
                : h('span', { class: 'ph', 'aria-hidden': 'true' }),
              h('span', { class: 'ar-pick-name' }, [
                h('strong', { text: itemName(it) }),
                dims ? h('span', { class: 'meta', text: inch(dims.width_inches) + ' × ' + inch(dims.height_inches) + ' in' }) : null,
              ]),
              order ? h('span', { class: 'ar-order', 'aria-hidden': 'true', text: String(order) }) : null,
              order ? h('span', { class: 'sr-only', text: ', number ' + order }) : null,
            ]),
            select
              ? h('span', { class: 'ar-sku' }, [
                  h('label', { for: 'wall-sku-' + it.id }, ['Variant', h('span', { class: 'sr-only', text: ' of ' + itemName(it) })]),
                  select,
                ])
              : null,
          ]);
        }),
      );
      if (!items.length) fill(E.picks, h('li', { class: 'empty', text: 'No picture is ready yet.' }));
      if (had && document.getElementById(had)) document.getElementById(had).focus();
    }

    function showArrangement() {
      E.arrBtns.forEach(function (b) {
        b.setAttribute('aria-pressed', String(b.getAttribute('data-arrangement') === A.arrangement));
      });
      E.columns.disabled = A.preset !== 'grid';
      E.arrNow.setAttribute('data-arrangement', A.arrangement);
      E.arrNow.textContent =
        A.arrangement === 'custom'
          ? 'Custom: your own positions. Row, Grid or Salon starts again from that arrangement.'
          : 'Now: ' + A.arrangement + '. Drag a picture to make it your own.';
    }

    function choose(a) {
      if (A.arrangement === 'custom' && A.dirty && A.pics.length && !confirm('Start again from ' + a + '? Your own positions are lost.'))
        return;
      A.arrangement = a;
      A.preset = a;
      A.dirty = A.touched = true;
      showArrangement();
      relayout(0);
    }

    function itemsOut() {
      return A.sel.map(function (s) {
        return s.variant_sku ? { item_id: s.item_id, variant_sku: s.variant_sku } : { item_id: s.item_id };
      });
    }
    function options(arrangement) {
      var o = { arrangement: arrangement, gap_inches: Number(E.gap.value || 0), align: E.align.value };
      if (arrangement === 'grid' && E.columns.value) o.columns = Number(E.columns.value);
      return o;
    }

    /**
     * Asks the API for the preset's positions (and every picture's framed size). A custom wall keeps the
     * positions it has; a picture new to it goes to the right of the others, and a new variant keeps its
     * picture's centre.
     */
    function relayout(delay) {
      clearTimeout(layoutTimer);
      layoutTimer = setTimeout(function () {
        if (!A) return;
        var seq = ++layoutSeq;
        if (A.sel.length < 2) {
          A.pics = [];
          draw();
          return;
        }
        var b = options(A.preset);
        b.items = itemsOut();
        api('POST', WALLS + '/layout', b).then(
          function (r) {
            if (!A || seq !== layoutSeq) return;
            E.err.hidden = true;
            [E.gap, E.align, E.columns].forEach(function (el) {
              el.removeAttribute('aria-invalid');
            });
            var next = r.items.map(wallPic);
            if (A.arrangement === 'custom') {
              var old = {};
              A.pics.forEach(function (p) {
                old[p.item_id] = p;
              });
              var right = null;
              A.pics.forEach(function (p) {
                if (right === null || p.x + p.w / 2 > right) right = p.x + p.w / 2;
              });
              next.forEach(function (p) {
                var o = old[p.item_id];
                if (o) {
                  p.x = o.x;
                  p.y = o.y;
                } else {
                  p.x = snap((right === null ? 0 : right + Number(E.gap.value || 0)) + p.w / 2);
                  p.y = 0;
                  right = p.x + p.w / 2;
                }
              });
              A.pics = next;
              fitView(false);
            } else {
              A.pics = next;
              if (r.columns && A.preset === 'grid' && !E.columns.value) E.columns.placeholder = 'Auto (' + r.columns + ')';
              fitView(true);
            }
            draw();
          },
          function (e) {
            if (!A || seq !== layoutSeq) return;
            showErr(e);
          },
        );
      }, delay);
    }

    function showErr(e) {
      var er = (e && e.error) || {};
      E.err.textContent = errMessage(e);
      E.err.hidden = false;
      var opt = { gap_inches: E.gap, align: E.align, columns: E.columns }[er.param];
      if (opt) opt.setAttribute('aria-invalid', 'true');
      if (er.param === 'name') {
        E.name.setAttribute('aria-invalid', 'true');
        E.nameErr.textContent = er.message;
        E.nameErr.hidden = false;
      }
      var m = /^items\[(\d+)\]/.exec(er.param || '');
      $all('.wall-pic', E.stage).forEach(function (el) {
        el.classList.toggle('invalid', !!m && el.getAttribute('data-index') === m[1]);
      });
      say(errMessage(e));
    }

    function bounds(pics) {
      var b = null;
      pics.forEach(function (p) {
        var l = p.x - p.w / 2;
        var r = p.x + p.w / 2;
        var bt = p.y - p.h / 2;
        var t = p.y + p.h / 2;
        if (!b) b = { l: l, r: r, b: bt, t: t };
        else {
          b.l = Math.min(b.l, l);
          b.r = Math.max(b.r, r);
          b.b = Math.min(b.b, bt);
          b.t = Math.max(b.t, t);
        }
      });
      return b;
    }

    /**
     * The part of the wall drawn, in inches: the pictures with room around them to drag into, and the sofa
     * (84 × 33 in) hung 8 in under the lowest picture. `fresh`: from scratch (a new layout); else it only
     * grows (no jump while pictures are moved).
     */
    function fitView(fresh) {
      var b = bounds(A.pics);
      if (!b) return;
      if (fresh || A.sofaTop === null) A.sofaTop = b.b - 8;
      var pad = Math.max(18, (b.r - b.l) * 0.2);
      var v = {
        l: Math.min(b.l, -SOFA.w / 2) - pad,
        r: Math.max(b.r, SOFA.w / 2) + pad,
        t: b.t + pad,
        b: Math.min(b.b, A.sofaTop - SOFA.h) - 6,
      };
      // At least 8 ft wide, centred on the wall's centre line.
      var half = Math.max(48, -v.l, v.r);
      v.l = -half;
      v.r = half;
      if (!fresh && A.view)
        v = { l: Math.min(v.l, A.view.l), r: Math.max(v.r, A.view.r), t: Math.max(v.t, A.view.t), b: Math.min(v.b, A.view.b) };
      A.view = v;
    }

    /** Pairs of pictures whose framed edges overlap (touching is fine). */
    function overlaps() {
      var out = [];
      for (var i = 0; i < A.pics.length; i++)
        for (var j = i + 1; j < A.pics.length; j++) {
          var a = A.pics[i];
          var c = A.pics[j];
          var ox = Math.min(a.x + a.w / 2, c.x + c.w / 2) - Math.max(a.x - a.w / 2, c.x - c.w / 2);
          var oy = Math.min(a.y + a.h / 2, c.y + c.h / 2) - Math.max(a.y - a.h / 2, c.y - c.h / 2);
          if (ox > 0.001 && oy > 0.001) out.push([i, j]);
        }
      return out;
    }

    /** Overlaps and width: marked on the pictures and said under the wall; Save waits until there are none. */
    function check() {
      var pairs = overlaps();
      var bad = {};
      pairs.forEach(function (p) {
        bad[p[0]] = bad[p[1]] = true;
      });
      $all('.wall-pic', E.stage).forEach(function (el) {
        el.classList.toggle('overlap', !!bad[el.getAttribute('data-index')]);
      });
      var b = bounds(A.pics);
      var msgs = [];
      if (pairs.length)
        msgs.push(
          pairs
            .map(function (p) {
              return pictureName(A.pics[p[0]].item_id) + ' and ' + pictureName(A.pics[p[1]].item_id);
            })
            .join('; ') +
            (pairs.length === 1 ? ' overlap' : ' overlap each other') +
            ': move them apart to save.',
        );
      if (b && b.r - b.l > MAX_WIDTH)
        msgs.push('The wall is ' + inch(b.r - b.l) + ' in wide: at most ' + MAX_WIDTH + ' in (40 ft) can be saved.');
      E.problem.textContent = msgs.join(' ');
      E.size.textContent = b ? 'Outer size: ' + sizeText(b.r - b.l, b.t - b.b) + ', ' + A.pics.length + ' pictures.' : '';
      E.stage.setAttribute('data-overlaps', String(pairs.length));
      E.save.disabled = A.saving || msgs.length > 0 || A.pics.length < 2;
    }

    var resizeObs = window.ResizeObserver
      ? new ResizeObserver(function () {
          if (A && !drag) draw();
        })
      : null;
    if (resizeObs) resizeObs.observe(E.stage);
    else
      window.addEventListener('resize', function () {
        if (A && !drag) draw();
      });

    /** The wall to scale: a px-per-inch scale fits the view into the stage's width (and at most 70 % of the screen's height). */
    function draw() {
      if (!A) return;
      if (!A.pics.length || !A.view) {
        E.stage.style.height = '';
        fill(
          E.stage,
          h('p', { class: 'wall-empty', text: A.sel.length < 2 ? 'Tick 2 to 12 pictures to arrange them here.' : 'Arranging…' }),
        );
        check();
        return;
      }
      var v = A.view;
      var width = E.stage.clientWidth || 600;
      var maxH = Math.max(260, Math.min(620, window.innerHeight * 0.7));
      var s = Math.min(width / (v.r - v.l), maxH / (v.t - v.b));
      var offX = (width - (v.r - v.l) * s) / 2;
      A.scale = s;
      A.ox = offX - v.l * s; // the wall centre's x in the stage, px
      A.oy = v.t * s; // and its y
      E.stage.style.height = Math.round((v.t - v.b) * s) + 'px';
      E.stage.setAttribute('data-scale', String(s));
      E.stage.setAttribute('data-origin-x', String(A.ox));
      E.stage.setAttribute('data-origin-y', String(A.oy));
      var focusedIdx =
        document.activeElement && E.stage.contains(document.activeElement) ? document.activeElement.getAttribute('data-index') : null;
      var kids = [sofa(s), floor(s), scaleBar(s)];
      A.pics.forEach(function (p, i) {
        kids.push(picEl(p, i));
      });
      fill(E.stage, kids);
      A.pics.forEach(function (p, i) {
        place(p, i);
      });
      if (focusedIdx !== null) {
        var again = E.stage.querySelector('[data-index="' + focusedIdx + '"]');
        if (again) again.focus();
      }
      check();
    }

    function sofa(s) {
      var svg = document.createElementNS(NS, 'svg');
      svg.setAttribute('viewBox', '0 0 84 33');
      svg.setAttribute('class', 'wall-sofa');
      svg.setAttribute('aria-hidden', 'true');
      svg.setAttribute('data-testid', 'wall-sofa');
      svg.style.left = A.ox - (SOFA.w / 2) * s + 'px';
      svg.style.top = A.oy - A.sofaTop * s + 'px';
      svg.style.width = SOFA.w * s + 'px';
      svg.style.height = SOFA.h * s + 'px';
      [
        ['rect', { x: 4, y: 2, width: 76, height: 17, rx: 3, class: 'sf-back' }],
        ['rect', { x: 0, y: 11, width: 9, height: 18, rx: 3, class: 'sf-arm' }],
        ['rect', { x: 75, y: 11, width: 9, height: 18, rx: 3, class: 'sf-arm' }],
        ['rect', { x: 8, y: 18, width: 34, height: 11, rx: 2, class: 'sf-seat' }],
        ['rect', { x: 42, y: 18, width: 34, height: 11, rx: 2, class: 'sf-seat' }],
        ['rect', { x: 5, y: 29, width: 2.5, height: 4, class: 'sf-leg' }],
        ['rect', { x: 76.5, y: 29, width: 2.5, height: 4, class: 'sf-leg' }],
      ].forEach(function (d) {
        var el = document.createElementNS(NS, d[0]);
        Object.keys(d[1]).forEach(function (k) {
          el.setAttribute(k, String(d[1][k]));
        });
        svg.appendChild(el);
      });
      return svg;
    }
    function floor(s) {
      var top = A.oy - (A.sofaTop - SOFA.h) * s;
      var el = h('div', { class: 'wall-floor', 'aria-hidden': 'true' });
      el.style.top = top + 'px';
      return el;
    }
    /** A bar of a round length (6 in to 8 ft) at least 56 px long, and what the sofa is. */
    function scaleBar(s) {
      var len =
        [6, 12, 24, 36, 48, 96].filter(function (l) {
          return l * s >= 56;
        })[0] || 96;
      var bar = h('div', { class: 'wall-scale', 'data-testid': 'wall-scale' }, [
        h('span', { class: 'wall-scale-bar', 'aria-hidden': 'true' }),
        h('span', { text: len >= 12 && len % 12 === 0 ? len / 12 + ' ft (' + len + ' in)' : len + ' in' }),
        h('span', { class: 'wall-scale-sofa', text: ' · sofa 84 in wide' }),
      ]);
      bar.firstChild.style.width = len * s + 'px';
      return bar;
    }

    function picLabel(p) {
      return (
        pictureName(p.item_id) +
        (p.variant_sku ? ' (' + p.variant_sku + ')' : '') +
        ', ' +
        inch(p.w) +
        ' × ' +
        inch(p.h) +
        ' in, at x ' +
        inch(p.x) +
        ' in, y ' +
        inch(p.y) +
        ' in'
      );
    }

    function picEl(p, i) {
      var src = thumbOf(p.item_id, p.variant_sku);
      var el = h(
        'button',
        {
          type: 'button',
          class: 'wall-pic',
          'data-testid': 'wall-pic',
          'data-index': String(i),
          'data-item-id': String(p.item_id),
          'aria-roledescription': 'movable picture',
          'aria-describedby': 'wall-drag-help',
        },
        [src ? h('img', { src: src, alt: '', draggable: 'false' }) : null],
      );
      el.addEventListener('pointerdown', function (e) {
        if (e.pointerType === 'mouse' && e.button !== 0) return;
        e.preventDefault();
        el.focus();
        try {
          el.setPointerCapture(e.pointerId);
        } catch {
          // a pointer that is already gone
        }
        drag = { i: i, el: el, id: e.pointerId, sx: e.clientX, sy: e.clientY, x0: A.pics[i].x, y0: A.pics[i].y, moved: false };
        el.classList.add('dragging');
      });
      el.addEventListener('pointermove', function (e) {
        if (!drag || drag.id !== e.pointerId || drag.el !== el) return;
        var q = A.pics[drag.i];
        var nx = snap(drag.x0 + (e.clientX - drag.sx) / A.scale);
        var ny = snap(drag.y0 - (e.clientY - drag.sy) / A.scale);
        // Kept on the drawn wall.
        nx = Math.max(A.view.l + q.w / 2, Math.min(A.view.r - q.w / 2, nx));
        ny = Math.max(A.view.b + q.h / 2, Math.min(A.view.t - q.h / 2, ny));
        if (nx === q.x && ny === q.y) return;
        q.x = nx;
        q.y = ny;
        drag.moved = true;
        place(q, drag.i);
        check();
      });
      var end = function (e) {
        if (!drag || drag.id !== e.pointerId || drag.el !== el) return;
        var d = drag;
        drag = null;
        el.classList.remove('dragging');
        if (d.moved) moved(d.i);
      };
      el.addEventListener('pointerup', end);
      el.addEventListener('pointercancel', end);
      el.addEventListener('keydown', function (e) {
        var step = e.shiftKey ? 6 : 1;
        var d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] }[e.key];
        if (!d) return;
        e.preventDefault();
        var q = A.pics[i];
        q.x = snap(q.x + d[0]);
        q.y = snap(q.y + d[1]);
        moved(i);
      });
      return el;
    }

    /** A picture moved: the wall is custom now; the view grows when it reaches an edge; its place is said. */
    function moved(i) {
      var q = A.pics[i];
      A.dirty = A.touched = true;
      if (A.arrangement !== 'custom') {
        A.arrangement = 'custom';
        showArrangement();
      }
      var v = A.view;
      // Pushed against an edge of the drawn wall (or past it, by keyboard): more wall is drawn around it.
      var edge = 0.5;
      if (q.x - q.w / 2 < v.l + edge || q.x + q.w / 2 > v.r - edge || q.y + q.h / 2 > v.t - edge || q.y - q.h / 2 < v.b + edge) {
        var before = JSON.stringify(A.view);
        fitView(false);
        if (JSON.stringify(A.view) !== before) draw();
        else place(q, i);
      } else place(q, i);
      check();
      var ov = E.stage.querySelector('[data-index="' + i + '"]').classList.contains('overlap');
      E.live.textContent =
        pictureName(q.item_id) + ': x ' + inch(q.x) + ' in, y ' + inch(q.y) + ' in' + (ov ? ', overlapping another picture.' : '.');
    }

    function place(p, i) {
      var el = E.stage.querySelector('[data-index="' + i + '"]');
      if (!el) return;
      var s = A.scale;
      el.style.left = A.ox + (p.x - p.w / 2) * s + 'px';
      el.style.top = A.oy - (p.y + p.h / 2) * s + 'px';
      el.style.width = p.w * s + 'px';
      el.style.height = p.h * s + 'px';
      el.setAttribute('data-x', String(p.x));
      el.setAttribute('data-y', String(p.y));
      el.setAttribute('aria-label', picLabel(p));
    }

    // ---- saving

    function save() {
      if (!A || A.saving) return;
      check();
      if (E.save.disabled) return;
      E.err.hidden = true;
      var name = E.name.value.trim();
      var payload;
      var editing = !!A.wall;
      if (editing && !A.touched) {
        if (name === A.wall.name || !name) {
          say('Nothing to save: the wall is as it was.');
          return;
        }
        payload = { name: name };
      } else {
        payload = options(A.arrangement === 'custom' ? 'custom' : A.preset);
        if (name) payload.name = name;
        payload.items =
          A.arrangement === 'custom'
            ? A.pics.map(function (p) {
                var o = { item_id: p.item_id };
                if (p.variant_sku) o.variant_sku = p.variant_sku;
                o.x_inches = p.x;
                o.y_inches = p.y;
                return o;
              })
            : itemsOut();
      }
      A.saving = true;
      E.save.setAttribute('aria-disabled', 'true');
      E.save.disabled = true;
      say(editing ? 'Saving the wall…' : 'Saving the wall and starting its build…');
      api(editing ? 'PATCH' : 'POST', editing ? WALLS + '/' + seg(A.wall.id) : WALLS, payload).then(
        function (r) {
          var w = (r && r.wall) || r;
          var charged = r && r.credits_charged;
          A.saving = false;
          A.dirty = false;
          E.save.removeAttribute('aria-disabled');
          close();
          showResult(w);
          say(
            'Gallery wall "' +
              w.name +
              '" saved' +
              (charged ? ' (' + charged + ' credit' + (charged === 1 ? '' : 's') + ' charged)' : '') +
              (active(w.status) ? '; building its AR model.' : '.'),
          );
          E.result.scrollIntoView({ block: 'nearest' });
          if (active(w.status)) pollResult(w.id);
          loadList();
        },
        function (e) {
          A.saving = false;
          E.save.removeAttribute('aria-disabled');
          check();
          showErr(e);
        },
      );
    }

    loadList();

    return {
      /** A new answer for the showcase: the pictures to choose from follow it (a picture gone is unticked). */
      sync: function (s) {
        showcase = s;
        if (!A) return;
        var ok = {};
        s.items.forEach(function (it) {
          if (it.status === 'completed') ok[it.id] = true;
        });
        var before = A.sel.length;
        A.sel = A.sel.filter(function (x) {
          return ok[x.item_id];
        });
        var key = s.items
          .filter(function (it) {
            return it.status === 'completed';
          })
          .map(function (it) {
            return it.id + ':' + (it.variants || []).length;
          })
          .join(',');
        if (key !== A.picksKey) renderPicks();
        if (A.sel.length !== before) relayout(0);
      },
    };
  }

  pages.jobs = function () {
    var box = $('[data-testid=jobs]');
    var form = $('[data-form=job-filter]');
    var status = new URLSearchParams(location.search).get('status') || '';
    form.status.value = status;
    api('GET', '/api/v2/jobs?limit=50' + (status ? '&status=' + encodeURIComponent(status) : '')).then(function (list) {
      fill(
        box,
        list.data.length
          ? table(
              ['Job', 'Kind', 'Status', 'Progress', 'Created'],
              list.data.map(function (j) {
                return [jobLink(j.job_id), j.kind, statusBadge(j.status), j.progress + '%', when(j.created_at)];
              }),
              'Jobs',
            )
          : empty(status ? 'No ' + status + ' jobs.' : 'No jobs yet. Convert a picture to start.'),
      );
    }, failed(box));
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      location.search = form.status.value ? '?status=' + form.status.value : '';
    });
  };

  pages.job = function () {
    var id = body.getAttribute('data-id');
    var path = id.indexOf('v2_') === 0 ? '/api/v2/jobs/' + seg(id) : '/api/v1/status/' + seg(id);
    var box = $('[data-testid=job]');
    var cancel = $('[data-action=cancel-job]');
    var retry = $('[data-action=retry-job]');
    var timer = null;
    function load() {
      api('GET', path).then(function (j) {
        var st = j.status;
        fill(
          box,
          h('dl', { class: 'facts' }, [
            h('dt', { text: 'Status' }),
            h('dd', {}, [statusBadge(st)]),
            h('dt', { text: 'Progress' }),
            h('dd', { text: j.progress + '%' }),
            h('dt', { text: 'Created' }),
            h('dd', { text: when(j.created_at) }),
            j.error ? h('dt', { text: 'Error' }) : null,
            j.error ? h('dd', { class: 'error', text: j.error.message + (j.error.stage ? ' (stage ' + j.error.stage + ')' : '') }) : null,
          ]),
        );
        var failedAt =
          j.error && j.error.stage
            ? Math.max(
                1,
                STEPS.indexOf(j.error.stage === 'fetch' ? 'downloading' : j.error.stage === 'publish' ? 'uploading' : 'converting'),
              )
            : 1;
        var steps = st === 'failed' ? STEPS.slice(0, failedAt).concat(['failed']) : STEPS;
        var at = st === 'failed' ? steps.length - 1 : STEPS.indexOf(st);
        fill(
          $('[data-testid=timeline]'),
          steps.map(function (s, i) {
            return h('li', { class: i < at ? 'done' : i === at ? 'now' : 'todo', 'aria-current': i === at ? 'step' : null, text: s });
          }),
        );
        // Each stage of the last run with its start and duration (the API's stage timeline).
        fill(
          $('[data-testid=stage-times]'),
          j.stages && j.stages.length
            ? table(
                ['Stage', 'Started', 'Took'],
                j.stages.map(function (s) {
                  return [
                    s.stage,
                    when(s.started_at),
                    s.duration_ms === null
                      ? active(st)
                        ? 'running'
                        : '—'
                      : s.duration_ms < 1000
                        ? Math.round(s.duration_ms) + ' ms'
                        : (s.duration_ms / 1000).toFixed(1) + ' s',
                  ];
                }),
                'Stage times',
              )
            : empty(active(st) ? 'Waiting for a worker.' : 'No stage ran.'),
        );
        // Only for a status known to be running: an answer without one never offers a state change.
        cancel.hidden = !active(st);
        retry.hidden = !(st === 'failed' && document.querySelector('nav a[href="/console/admin/users"]'));
        clearTimeout(timer);
        if (active(st)) timer = setTimeout(load, 1500);
      }, failed(box));
    }
    cancel.addEventListener('click', function () {
      api('POST', (id.indexOf('v2_') === 0 ? '/api/v2/jobs/' : '/api/v1/jobs/') + seg(id) + '/cancel').then(
        function () {
          say('Cancel requested.');
          load();
        },
        function (e) {
          say(e.error.message);
        },
      );
    });
    retry.addEventListener('click', function () {
      api('POST', '/api/admin/jobs/' + seg(id) + '/retry').then(
        function () {
          say('Job queued again.');
          load();
        },
        function (e) {
          say(e.error.message);
        },
      );
    });
    load();
  };

  pages.usage = function () {
    var chart = $('[data-testid=chart]');
    var ledger = $('[data-testid=ledger]');
    var entries = [];
    api('GET', '/api/v2/usage?limit=200').then(function (u) {
      entries = u.data;
      fill(
        ledger,
        entries.length
          ? table(
              ['Date', 'Kind', 'Operation', 'Credits', 'Balance after', 'Job'],
              entries.map(function (e) {
                return [
                  when(e.created_at),
                  e.kind,
                  e.operation,
                  (e.kind === 'charge' ? '−' : '+') + credits(e.amount),
                  e.balance_after === null ? null : credits(e.balance_after),
                  e.job_id,
                ];
              }),
              'Ledger entries',
            )
          : empty('No ledger entries yet.'),
      );
      drawChart(chart, entries);
    }, failed(ledger));
    $('[data-action=csv]').addEventListener('click', function () {
      var rows = [['id', 'created_at', 'kind', 'operation', 'amount', 'balance_after', 'job_id', 'reason']].concat(
        entries.map(function (e) {
          return [e.id, e.created_at, e.kind, e.operation, e.amount, e.balance_after, e.job_id, e.reason];
        }),
      );
      var csv = rows
        .map(function (r) {
          return r
            .map(function (c) {
              var s = c === null || c === undefined ? '' : String(c);
              return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
            })
            .join(',');
        })
        .join('\n');
      var a = h('a', { href: URL.createObjectURL(new Blob([csv], { type: 'text/csv' })), download: 'usage.csv' });
      document.body.appendChild(a);
      a.click();
      a.remove();
    });
  };

  /** Credits spent per day over the last 30 days, as an inline SVG bar chart with a text alternative. */
  function drawChart(box, entries) {
    var days = [];
    var now = new Date();
    now.setHours(0, 0, 0, 0);
    for (var i = 29; i >= 0; i--) days.push({ t: now.getTime() - i * 86400000, v: 0 });
    entries.forEach(function (e) {
      if (e.kind !== 'charge') return;
      var d = new Date(e.created_at);
      d.setHours(0, 0, 0, 0);
      var slot = days.filter(function (x) {
        return x.t === d.getTime();
      })[0];
      if (slot) slot.v += e.amount;
    });
    var max = Math.max.apply(
      null,
      days
        .map(function (d) {
          return d.v;
        })
        .concat([1]),
    );
    var NS = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 300 110');
    svg.setAttribute('role', 'img');
    var total = days.reduce(function (s, d) {
      return s + d.v;
    }, 0);
    svg.setAttribute(
      'aria-label',
      'Credits spent per day, last 30 days: ' + credits(total) + ' in total, at most ' + credits(max) + ' on one day',
    );
    days.forEach(function (d, i) {
      var hgt = (d.v / max) * 100;
      var r = document.createElementNS(NS, 'rect');
      r.setAttribute('x', String(i * 10 + 1));
      r.setAttribute('width', '8');
      r.setAttribute('y', String(102 - hgt));
      r.setAttribute('height', String(Math.max(hgt, 0.5)));
      r.setAttribute('class', 'bar');
      var tt = document.createElementNS(NS, 'title');
      tt.textContent = new Date(d.t).toLocaleDateString() + ': ' + credits(d.v) + ' credits';
      r.appendChild(tt);
      svg.appendChild(r);
    });
    fill(box, total ? svg : empty('No credits spent in the last 30 days.'));
  }

  /**
   * Analytics: engagement from the public pages (GET /api/v2/analytics), for the filters in the form (and in
   * the URL): the funnel, views and AR launches per day (inline SVG with a data table), pictures ranked by AR
   * launches, platforms, referrers, CSV links. Days are UTC, as the API counts them.
   */
  pages.analytics = function () {
    var form = $('[data-form=analytics-filter]');
    var owner = body.getAttribute('data-role') === 'owner';
    var TODAY = body.getAttribute('data-today');
    var DAY = 86400000;
    var MAX_DAYS = 366;
    var out = $('[data-testid=analytics]');
    var results = $('[data-testid=analytics-results]');
    var emptyBox = $('[data-testid=analytics-empty]');
    var privacy = $('[data-testid=privacy]');
    var live = $('[data-testid=analytics-live]');
    var rangeErr = $('#an-range-err');
    var selShowcase = $('#an-showcase');
    var selAccount = $('#an-account');
    var fromIn = $('#an-from');
    var toIn = $('#an-to');
    /** Showcases the console can open (the caller's own): id -> summary. */
    var own = null;
    /** Showcases seen in the counts (the owner's view of other accounts): id -> true. */
    var counted = {};
    var seq = 0;
    var daily = null;
    var lastItems = null;

    var dayMs = function (d) {
      return Date.parse(d + 'T00:00:00Z');
    };
    var addDays = function (d, n) {
      return new Date(dayMs(d) + n * DAY).toISOString().slice(0, 10);
    };
    var num = function (n) {
      return n === null || n === undefined ? '—' : Number(n).toLocaleString('en');
    };
    /** 0.3217 -> "32 %", 0.0625 -> "6.3 %". */
    var pct = function (r) {
      if (r === null || r === undefined) return '—';
      var p = r * 100;
      return (p >= 10 || p === Math.round(p) ? Math.round(p) : Math.round(p * 10) / 10) + ' %';
    };
    var dayName = function (d, year) {
      var o = { month: 'short', day: 'numeric', timeZone: 'UTC' };
      if (year) o.year = 'numeric';
      return new Date(dayMs(d)).toLocaleDateString('en', o);
    };

    function filters() {
      var fd = new FormData(form);
      return {
        from: String(fd.get('from') || ''),
        to: String(fd.get('to') || ''),
        showcase_id: String(fd.get('showcase_id') || ''),
        account_id: owner ? String(fd.get('account_id') || '') : '',
      };
    }
    function query(f, extra) {
      var q = new URLSearchParams();
      q.set('from', f.from);
      q.set('to', f.to);
      if (f.showcase_id) q.set('showcase_id', f.showcase_id);
      if (f.account_id) q.set('account_id', f.account_id);
      Object.keys(extra || {}).forEach(function (k) {
        q.set(k, extra[k]);
      });
      return q.toString();
    }

    /** The range is checked here first: a wrong one is said next to the dates, nothing is asked. */
    function check(f) {
      var re = /^\d{4}-\d{2}-\d{2}$/;
      var msg = '';
      if (!re.test(f.from) || !re.test(f.to)) msg = 'Choose a From and a To date.';
      else if (f.from > f.to) msg = 'From must not be after To.';
      else if ((dayMs(f.to) - dayMs(f.from)) / DAY + 1 > MAX_DAYS) msg = 'Choose at most ' + MAX_DAYS + ' days.';
      rangeErr.textContent = msg;
      rangeErr.hidden = !msg;
      [fromIn, toIn].forEach(function (i) {
        if (msg) i.setAttribute('aria-invalid', 'true');
        else i.removeAttribute('aria-invalid');
      });
      return !msg;
    }

    function markQuick(f) {
      $all('[data-days]', form).forEach(function (b) {
        var n = Number(b.getAttribute('data-days'));
        b.setAttribute('aria-pressed', String(f.to === TODAY && f.from === addDays(TODAY, 1 - n)));
      });
    }

    /** Selects `value`, adding an option for it when the list does not have it (yet). */
    function choose(sel, value, label) {
      if (!sel) return;
      var has = $all('option', sel).some(function (o) {
        return o.value === value;
      });
      if (value && !has) sel.appendChild(h('option', { value: value, text: label }));
      sel.value = value;
    }

    /** The showcase choices: the caller's own, and (owner) those counted in the range for the chosen account. */
    function showcaseOptions(f) {
      var ids = {};
      if (own && !f.account_id)
        Object.keys(own).forEach(function (id) {
          ids[id] = own[id];
        });
      Object.keys(counted).forEach(function (id) {
        if (!ids[id]) ids[id] = { id: Number(id) };
      });
      if (f.showcase_id && !ids[f.showcase_id]) ids[f.showcase_id] = { id: Number(f.showcase_id) };
      var keep = selShowcase.value;
      fill(
        selShowcase,
        [h('option', { value: '', text: 'All showcases' })].concat(
          Object.keys(ids)
            .sort(function (a, b) {
              return Number(b) - Number(a);
            })
            .map(function (id) {
              var d = ids[id].description;
              return h('option', { value: id, text: 'Showcase ' + id + (d ? ' · ' + (d.length > 40 ? d.slice(0, 39) + '…' : d) : '') });
            }),
        ),
      );
      selShowcase.value = keep;
    }

    function loadShowcases(cursor, pagesLeft) {
      return api('GET', '/api/v2/showcases?limit=100' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '')).then(function (list) {
        own = own || {};
        list.data.forEach(function (s) {
          own[s.id] = s;
        });
        return list.has_more && pagesLeft > 1 ? loadShowcases(list.next_cursor, pagesLeft - 1) : own;
      });
    }

    function csvLinks(f) {
      $all('[data-csv]').forEach(function (a) {
        a.setAttribute('href', '/api/v2/analytics?' + query(f, { group_by: a.getAttribute('data-csv'), format: 'csv' }));
      });
    }

    /** The console opens a showcase of the caller's own account only (the owner's: the owner key's). */
    function openable(showcaseId) {
      return showcaseId !== null && showcaseId !== undefined && (!owner || !!(own && own[showcaseId]));
    }

    function load(announce) {
      var f = filters();
      markQuick(f);
      if (!check(f)) return;
      var my = ++seq;
      fill(out, h('p', { class: 'loading', 'data-testid': 'loading', text: 'Loading…' }));
      results.setAttribute('aria-busy', 'true');
      var get = function (by, ff) {
        return api('GET', '/api/v2/analytics?' + query(ff || f, { group_by: by }));
      };
      var calls = [get('day'), get('item'), get('platform'), get('referrer')];
      // The owner's showcase choices come from the counts: those of the range, whichever showcase is chosen.
      if (owner) calls.push(f.showcase_id ? get('item', { from: f.from, to: f.to, account_id: f.account_id }) : null);
      Promise.all(calls).then(
        function (r) {
          if (my !== seq) return;
          fill(out, []);
          results.removeAttribute('aria-busy');
          if (owner) {
            counted = {};
            (r[4] || r[1]).groups.forEach(function (g) {
              if (g.showcase_id) counted[g.showcase_id] = true;
            });
            showcaseOptions(f);
          }
          render(f, r[0], r[1], r[2], r[3]);
          if (announce) live.textContent = summary(f, r[0].totals);
        },
        function (e) {
          if (my !== seq) return;
          results.removeAttribute('aria-busy');
          results.hidden = true;
          emptyBox.hidden = true;
          failed(out)(e);
        },
      );
    }

    function scope(f) {
      var account = f.account_id && selAccount.selectedOptions[0] ? selAccount.selectedOptions[0].textContent : f.account_id;
      return (f.showcase_id ? 'showcase ' + f.showcase_id : 'all showcases') + (f.account_id ? ' of ' + account : '');
    }
    function summary(f, t) {
      return (
        dayName(f.from, true) +
        ' to ' +
        dayName(f.to, true) +
        ', ' +
        scope(f) +
        ': ' +
        num(t.views) +
        ' views, ' +
        num(t.ar_launches) +
        ' AR launches.'
      );
    }

    function render(f, days, items, platforms, referrers) {
      var t = days.totals;
      var none = !(t.views || t.interactions || t.ar_launches || t.banner_taps || t.qr_opens || t.variant_selects);
      emptyBox.hidden = !none;
      results.hidden = none;
      privacy.hidden = none;
      csvLinks(f);
      if (none) {
        $('#an-empty-title').textContent = f.to >= TODAY ? 'Nothing counted yet' : 'Nothing counted in this range';
        $('[data-testid=empty-range]').textContent =
          'Nothing was counted for ' + scope(f) + ' from ' + dayName(f.from, true) + ' to ' + dayName(f.to, true) + '.';
        return;
      }
      renderFunnel(days);
      daily = { from: days.from, to: days.to, list: series(days) };
      drawDaily();
      renderDailyTable();
      renderItems((lastItems = items.groups));
      renderPlatforms(platforms.groups);
      renderReferrers(referrers.groups);
    }

    var STEP = { views: 'Views', interactions: '3D interactions', ar_launches: 'AR launches', banner_taps: 'Banner taps' };
    var STEP_OF = { views: 'views', interactions: 'interactions', ar_launches: 'AR launches' };
    var STEP_HINT = {
      views: 'the picture was on screen',
      interactions: 'the 3D preview turned or zoomed',
      ar_launches: 'opened in AR Quick Look, Scene Viewer or WebXR',
      banner_taps: "the AR banner's button or the buy link",
    };
    function renderFunnel(a) {
      fill(
        $('[data-testid=funnel]'),
        a.funnel.map(function (s, i) {
          var bar = h('span', { class: 'fill', hidden: !s.count });
          bar.style.width = (s.of_views === null ? 0 : Math.min(100, s.of_views * 100)) + '%';
          var rates = [];
          if (i > 0 && s.of_views !== null) rates.push(pct(s.of_views) + ' of views');
          if (i > 1 && s.rate !== null) rates.push(pct(s.rate) + ' of ' + STEP_OF[a.funnel[i - 1].step]);
          return h('li', { class: 'f-' + s.step, 'data-testid': 'funnel-step', 'data-step': s.step }, [
            h('div', { class: 'f-head' }, [
              h('span', {}, [h('span', { class: 'f-label', text: STEP[s.step] }), h('span', { class: 'f-hint', text: STEP_HINT[s.step] })]),
              h('strong', { class: 'f-count', 'data-testid': 'funnel-count', text: num(s.count) }),
            ]),
            h('div', { class: 'track', 'aria-hidden': 'true' }, [bar]),
            h('p', {
              class: 'f-rate',
              'data-testid': 'funnel-rate',
              text: rates.join(' · ') || (i === 0 ? 'Where the funnel starts' : ''),
            }),
          ]);
        }),
      );
      var t = a.totals;
      fill(
        $('[data-testid=figures]'),
        [
          ['Unique visitors', t.unique_visitors, 'unique-visitors'],
          ['QR opens', t.qr_opens, 'qr-opens'],
          ['Variant choices', t.variant_selects, 'variant-selects'],
        ].map(function (x) {
          return h('div', { 'data-testid': x[2] }, [h('dt', { text: x[0] }), h('dd', { text: num(x[1]) })]);
        }),
      );
    }

    /** Every day of the range, a day without counts as 0. */
    function series(a) {
      var by = {};
      (a.groups || []).forEach(function (g) {
        by[g.key] = g;
      });
      var list = [];
      for (var d = a.from; d <= a.to; d = addDays(d, 1)) {
        var g = by[d];
        list.push({
          day: d,
          views: g ? g.views : 0,
          interactions: g ? g.interactions : 0,
          ar: g ? g.ar_launches : 0,
          taps: g ? g.banner_taps : 0,
          visitors: g ? g.unique_visitors : 0,
        });
      }
      return list;
    }

    /** A whole step of at least m for the value gridlines: 1, 2, 2.5 (from 25 on), 5 or 10 times a power of ten. */
    function niceStep(m) {
      if (m <= 1) return 1;
      var p = Math.pow(10, Math.floor(Math.log10(m)));
      var steps = p >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
      for (var i = 0; i < steps.length; i++) if (steps[i] * p >= m) return steps[i] * p;
      return 10 * p;
    }

    /** Views and AR launches per day: an SVG as wide as its box (drawn again when that changes), labelled axes. */
    function drawDaily() {
      if (!daily) return;
      var box = $('[data-testid=daily-chart]');
      var NS = 'http://www.w3.org/2000/svg';
      var el = function (tag, attrs, text) {
        var e = document.createElementNS(NS, tag);
        Object.keys(attrs).forEach(function (k) {
          e.setAttribute(k, String(attrs[k]));
        });
        if (text !== undefined) e.textContent = text;
        return e;
      };
      var list = daily.list;
      var W = Math.max(280, Math.floor(box.clientWidth || 600));
      var H = W < 560 ? 220 : 260;
      var m = { l: 44, r: 24, t: 12, b: 34 };
      var iw = W - m.l - m.r;
      var ih = H - m.t - m.b;
      var max = 0;
      var totals = { views: 0, ar: 0 };
      var peak = list[0];
      list.forEach(function (d) {
        max = Math.max(max, d.views, d.ar);
        totals.views += d.views;
        totals.ar += d.ar;
        if (d.views > peak.views) peak = d;
      });
      var step = niceStep(Math.max(max, 1) / 4);
      var top = Math.max(step, Math.ceil(max / step) * step);
      var n = list.length;
      var x = function (i) {
        return Math.round((m.l + (n === 1 ? iw / 2 : (i * iw) / (n - 1))) * 10) / 10;
      };
      var y = function (v) {
        return Math.round((m.t + ih - (v / top) * ih) * 10) / 10;
      };
      var svg = el('svg', {
        viewBox: '0 0 ' + W + ' ' + H,
        width: W,
        height: H,
        role: 'img',
        class: 'daily',
        'data-testid': 'daily-svg',
        'aria-labelledby': 'an-chart-title an-chart-desc',
      });
      svg.appendChild(
        el(
          'title',
          { id: 'an-chart-title' },
          'Views and AR launches per day, ' + dayName(daily.from, true) + ' to ' + dayName(daily.to, true),
        ),
      );
      svg.appendChild(
        el(
          'desc',
          { id: 'an-chart-desc' },
          num(totals.views) +
            ' views and ' +
            num(totals.ar) +
            ' AR launches over ' +
            n +
            (n === 1 ? ' day' : ' days') +
            (peak.views ? '; most views on ' + dayName(peak.day, true) + ' (' + num(peak.views) + ')' : '') +
            '. The table below the chart has every day.',
        ),
      );
      // The value axis: gridlines with their numbers.
      for (var v = 0; v <= top; v += step) {
        svg.appendChild(el('line', { class: 'grid' + (v === 0 ? ' base' : ''), x1: m.l, x2: W - m.r, y1: y(v), y2: y(v) }));
        svg.appendChild(el('text', { class: 'tick', x: m.l - 6, y: y(v) + 4, 'text-anchor': 'end' }, num(v)));
      }
      // The day axis: today (the last day) and every `stride` days before it, a stride of days that leaves room for each label.
      var perDay = n > 1 ? iw / (n - 1) : iw;
      var stride = [1, 2, 3, 7, 14, 28, 56, 91, 182].filter(function (s) {
        return s * perDay >= 62;
      })[0];
      for (var i = n - 1; i >= 0; i -= stride || n) {
        svg.appendChild(el('line', { class: 'tick-mark', x1: x(i), x2: x(i), y1: m.t + ih, y2: m.t + ih + 4 }));
        svg.appendChild(el('text', { class: 'tick', x: x(i), y: H - m.b + 20, 'text-anchor': 'middle' }, dayName(list[i].day)));
      }
      var path = function (key) {
        return list
          .map(function (d, i) {
            return (i ? 'L' : 'M') + x(i) + ' ' + y(d[key]);
          })
          .join(' ');
      };
      if (n > 1) {
        svg.appendChild(
          el('path', { class: 'area-views', d: path('views') + ' L' + x(n - 1) + ' ' + y(0) + ' L' + x(0) + ' ' + y(0) + ' Z' }),
        );
        svg.appendChild(el('path', { class: 'line-views', d: path('views') }));
        svg.appendChild(el('path', { class: 'line-ar', d: path('ar') }));
      }
      // A point per day (its numbers on hover); AR launches as squares, so the two differ without colour.
      var r = n === 1 ? 6 : n > 60 ? 2 : 3;
      list.forEach(function (d, i) {
        var c = el('circle', { class: 'pt-views', cx: x(i), cy: y(d.views), r: r, 'data-day': d.day, 'data-views': d.views });
        c.appendChild(el('title', {}, dayName(d.day, true) + ': ' + num(d.views) + ' views'));
        svg.appendChild(c);
        var s = el('rect', {
          class: 'pt-ar',
          x: x(i) - r,
          y: y(d.ar) - r,
          width: 2 * r,
          height: 2 * r,
          'data-day': d.day,
          'data-ar-launches': d.ar,
        });
        s.appendChild(el('title', {}, dayName(d.day, true) + ': ' + num(d.ar) + ' AR launches'));
        svg.appendChild(s);
      });
      box.setAttribute('data-width', String(W));
      fill(box, svg);
    }
    var resizeTimer = null;
    window.addEventListener('resize', function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () {
        var box = $('[data-testid=daily-chart]');
        if (daily && !results.hidden && Math.floor(box.clientWidth) !== Number(box.getAttribute('data-width'))) drawDaily();
      }, 150);
    });

    /** A table whose first column names the row (a row header) and whose number columns align right. */
    function dataTable(cols, rows, caption, testid, stack) {
      // stack: on a phone each row is a card, each cell with its column's name (shown there only; the header says it otherwise).
      var label = function (i) {
        return stack && i !== rows[0].head ? h('span', { class: 'an-l', 'aria-hidden': 'true', text: cols[i].label }) : null;
      };
      return h('div', { class: 'table-wrap' + (stack ? ' stack' : ''), tabindex: '0', role: 'region', 'aria-label': caption }, [
        h('table', { class: 'an-table', 'data-testid': testid }, [
          h('caption', { class: 'sr-only', text: caption }),
          h('thead', {}, [
            h(
              'tr',
              {},
              cols.map(function (c) {
                return h('th', { scope: 'col', class: c.num ? 'num' : null, text: c.label });
              }),
            ),
          ]),
          h(
            'tbody',
            {},
            rows.map(function (r) {
              return h(
                'tr',
                { 'data-key': r.key },
                r.cells.map(function (c, i) {
                  var v = c === null || c === undefined ? '—' : typeof c === 'object' ? c : String(c);
                  return i === r.head
                    ? h('th', { scope: 'row', class: cols[i].num ? 'num' : null, 'data-col': cols[i].key }, [v])
                    : h('td', { class: cols[i].num ? 'num' : null, 'data-col': cols[i].key }, [label(i), v]);
                }),
              );
            }),
          ),
        ]),
      ]);
    }

    function renderDailyTable() {
      var cols = [
        { label: 'Day', key: 'day' },
        { label: 'Views', key: 'views', num: true },
        { label: '3D interactions', key: 'interactions', num: true },
        { label: 'AR launches', key: 'ar_launches', num: true },
        { label: 'Banner taps', key: 'banner_taps', num: true },
        { label: 'Unique visitors', key: 'unique_visitors', num: true },
      ];
      fill(
        $('[data-testid=daily-table]'),
        dataTable(
          cols,
          daily.list.map(function (d) {
            return {
              key: d.day,
              head: 0,
              cells: [dayName(d.day, true), num(d.views), num(d.interactions), num(d.ar), num(d.taps), num(d.visitors)],
            };
          }),
          'Counts per day',
          'daily-rows',
        ),
      );
    }

    var ITEM_ROWS = 50;
    function renderItems(groups) {
      var box = $('[data-testid=items-table]');
      if (!groups.length) return fill(box, empty('No picture was viewed in this range (only showcase pages were).'));
      var cols = [
        { label: '#', key: 'rank', num: true },
        { label: 'Picture', key: 'title' },
        { label: 'Showcase', key: 'showcase' },
        { label: 'Views', key: 'views', num: true },
        { label: '3D interactions', key: 'interactions', num: true },
        { label: 'AR launches', key: 'ar_launches', num: true },
        { label: 'Banner taps', key: 'banner_taps', num: true },
        { label: 'AR rate', key: 'ar_rate', num: true },
        { label: 'Unique visitors', key: 'unique_visitors', num: true },
      ];
      var rows = groups.slice(0, ITEM_ROWS).map(function (g, i) {
        var title = g.title || 'Picture ' + g.item_id;
        var sc = g.showcase_id;
        var link = openable(sc);
        return {
          key: String(g.item_id),
          head: 1,
          cells: [
            i + 1,
            link ? h('a', { href: '/console/showcases/' + seg(sc) + '#item-' + seg(g.item_id), text: title }) : title,
            sc === null ? '—' : link ? h('a', { href: '/console/showcases/' + seg(sc), text: 'Showcase ' + sc }) : 'Showcase ' + sc,
            num(g.views),
            num(g.interactions),
            num(g.ar_launches),
            num(g.banner_taps),
            g.views ? pct(g.ar_launches / g.views) : '—',
            num(g.unique_visitors),
          ],
        };
      });
      fill(box, [
        dataTable(cols, rows, 'Pictures ranked by AR launches', 'items-rows', true),
        groups.length > ITEM_ROWS
          ? h('p', { class: 'hint', text: 'The first ' + ITEM_ROWS + ' of ' + groups.length + ' pictures; the CSV has them all.' })
          : null,
        h('p', { class: 'hint', text: 'AR rate: AR launches per view of the picture.' }),
      ]);
    }

    var PLATFORMS = [
      ['quick_look', 'AR Quick Look (iOS)'],
      ['scene_viewer', 'Scene Viewer (Android)'],
      ['webxr', 'WebXR (browser)'],
    ];
    function renderPlatforms(groups) {
      var by = {};
      var all = 0;
      groups.forEach(function (g) {
        by[g.key] = g.ar_launches;
        if (g.key) all += g.ar_launches;
      });
      fill(
        $('[data-testid=platforms]'),
        dataTable(
          [
            { label: 'Platform', key: 'platform' },
            { label: 'AR launches', key: 'ar_launches', num: true },
            { label: 'Share', key: 'share', num: true },
          ],
          PLATFORMS.map(function (p) {
            var n = by[p[0]] || 0;
            return { key: p[0], head: 0, cells: [p[1], num(n), all ? pct(n / all) : '—'] };
          }),
          'AR launches by platform',
          'platform-rows',
        ),
      );
    }

    var REFERRER_ROWS = 10;
    function renderReferrers(groups) {
      var box = $('[data-testid=referrers]');
      if (!groups.length) return fill(box, empty('No visits in this range.'));
      fill(box, [
        dataTable(
          [
            { label: 'Referring site', key: 'referrer' },
            { label: 'Views', key: 'views', num: true },
            { label: 'AR launches', key: 'ar_launches', num: true },
          ],
          groups.slice(0, REFERRER_ROWS).map(function (g) {
            return { key: g.key, head: 0, cells: [g.key || 'None (direct, or your own pages)', num(g.views), num(g.ar_launches)] };
          }),
          'Top referrers',
          'referrer-rows',
        ),
        groups.length > REFERRER_ROWS
          ? h('p', { class: 'hint', text: 'The top ' + REFERRER_ROWS + ' of ' + groups.length + ' referrers; the CSV has them all.' })
          : null,
      ]);
    }

    /** A change of the filters: the URL follows (a view to share or bookmark), the counts are loaded again. */
    function apply() {
      var f = filters();
      markQuick(f);
      if (!check(f)) return;
      var url = '/console/analytics?' + query(f);
      if (location.pathname + location.search !== url) history.pushState(null, '', url);
      load(true);
    }
    var typing = null;
    form.addEventListener('change', function (ev) {
      clearTimeout(typing);
      // Another account has other showcases.
      if (ev.target === selAccount) selShowcase.value = '';
      // A date typed digit by digit changes at each one (year 0002, 0020, 0202, 2025): the last one counts.
      if (ev.target === fromIn || ev.target === toIn) typing = setTimeout(apply, 400);
      else apply();
    });
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      apply();
    });
    $all('[data-days]', form).forEach(function (b) {
      b.addEventListener('click', function () {
        toIn.value = TODAY;
        fromIn.value = addDays(TODAY, 1 - Number(b.getAttribute('data-days')));
        apply();
      });
    });
    window.addEventListener('popstate', function () {
      var q = new URLSearchParams(location.search);
      toIn.value = q.get('to') || TODAY;
      fromIn.value = q.get('from') || addDays(toIn.value, -29);
      choose(selShowcase, q.get('showcase_id') || '', 'Showcase ' + q.get('showcase_id'));
      choose(selAccount, q.get('account_id') || '', String(q.get('account_id')));
      load(true);
    });
    var toggle = $('[data-action=toggle-daily]');
    toggle.addEventListener('click', function () {
      var btn = toggle;
      var box = $('#an-daily-table');
      box.hidden = !box.hidden;
      btn.setAttribute('aria-expanded', String(!box.hidden));
      btn.textContent = box.hidden ? 'Show as a table' : 'Hide the table';
    });

    // The choices: the caller's showcases; the owner's also the accounts (users).
    loadShowcases(null, 10).then(
      function () {
        showcaseOptions(filters());
        // The owner's pictures link to their showcase's console page once it is known to be the owner key's.
        if (owner && lastItems) renderItems(lastItems);
      },
      function () {
        own = own || {};
      },
    );
    if (selAccount)
      api('GET', '/api/admin/users?limit=200').then(function (list) {
        var keep = selAccount.value;
        fill(
          selAccount,
          [h('option', { value: '', text: 'All accounts' })].concat(
            list.data
              .filter(function (u) {
                return !u.internal;
              })
              .map(function (u) {
                return h('option', { value: u.id, text: u.email + (u.name ? ' (' + u.name + ')' : '') });
              }),
          ),
        );
        choose(selAccount, keep, keep);
      });
    load(false);
  };

  pages.convert = function () {
    var price = $('[data-testid=animated-price]');
    var result = $('[data-testid=convert-result]');
    var list = null;
    var aform = $('[data-form=convert-animated]');
    function showPrice() {
      if (!list) return;
      var fd = new FormData(aform);
      var op = list.operations.filter(function (o) {
        return (
          o.operation === 'animated-ar' && o.source === fd.get('source') && o.remove_background === (fd.get('remove_background') === 'on')
        );
      })[0];
      price.textContent = 'Price: ' + (!list.billed ? 'free (owner)' : op ? credits(op.credits) + ' credits' : 'unknown');
    }
    api('GET', '/api/v2/pricing').then(function (p) {
      list = p;
      showPrice();
    }, failed(price));
    aform.addEventListener('change', showPrice);
    function started(r) {
      var id = r.job_id;
      fill(
        result,
        h('p', {}, ['Job ', jobLink(id), ' started. ', h('a', { href: '/console/jobs/' + seg(id), text: 'Follow its progress' })]),
      );
      say('Conversion started.');
    }
    onSubmit('convert-v1', function (form, fd) {
      var data = { image_url: fd.get('image_url') };
      if (fd.get('aspect_ratio')) data.aspect_ratio = fd.get('aspect_ratio');
      api('POST', '/api/v1/convert', data).then(started, function (e) {
        showError(form, e);
      });
    });
    onSubmit('convert-animated', function (form, fd) {
      var data = { remove_background: fd.get('remove_background') === 'on' };
      data[fd.get('source') === 'video' ? 'video_url' : 'image_url'] = fd.get('source_url');
      api('POST', '/api/v2/animated-ar', data).then(started, function (e) {
        if (e.error && /_url$/.test(e.error.param || '')) e.error.param = 'source_url';
        showError(form, e);
      });
    });
  };

  pages.webhooks = function () {
    var box = $('[data-testid=deliveries]');
    function load() {
      api('GET', '/api/v2/webhooks/deliveries?limit=100').then(function (list) {
        fill(
          box,
          list.data.length
            ? table(
                ['When', 'Job', 'Event', 'Attempt', 'Answer', 'Time'],
                list.data.map(function (d) {
                  return [
                    when(d.created_at),
                    jobLink(d.job_id),
                    d.event,
                    d.attempt,
                    h('span', {}, [
                      h('span', {
                        class: 'badge ' + (d.succeeded ? 's-completed' : 's-failed'),
                        text: d.succeeded ? 'delivered' : 'failed',
                      }),
                      ' ',
                      d.status_code ? 'HTTP ' + d.status_code : d.error || 'no answer',
                    ]),
                    d.duration_ms + ' ms',
                  ];
                }),
                'Callback deliveries',
              )
            : empty('No callbacks sent yet. Pass callback_url when you convert to get one.'),
        );
        setTimeout(load, 10000);
      }, failed(box));
    }
    load();
  };

  pages['admin-users'] = function () {
    var box = $('[data-testid=users]');
    function load() {
      api('GET', '/api/admin/users?limit=200').then(function (list) {
        var users = list.data.filter(function (u) {
          return !u.internal;
        });
        fill(
          box,
          users.length
            ? table(
                ['Email', 'Name', 'Credits', 'Grant credits', 'Keys', ''],
                users.map(function (u) {
                  var amount = h('input', {
                    type: 'number',
                    min: '0.01',
                    step: '0.01',
                    'aria-label': 'Credits to grant to ' + u.email,
                    class: 'small',
                  });
                  var keys = h('span', { class: 'keys' }, [
                    h('button', {
                      type: 'button',
                      class: 'link',
                      text: 'Show keys',
                      'aria-label': 'Show keys of ' + u.email,
                      on: {
                        click: function () {
                          showKeys(u, keys);
                        },
                      },
                    }),
                  ]);
                  return [
                    u.email,
                    u.name,
                    credits(u.credits),
                    h('span', {}, [
                      amount,
                      h('button', {
                        type: 'button',
                        text: 'Grant',
                        'aria-label': 'Grant credits to ' + u.email,
                        on: {
                          click: function () {
                            api('POST', '/api/admin/users/' + seg(u.id) + '/credits', {
                              amount: Number(amount.value),
                              reason: 'console grant',
                            }).then(
                              function () {
                                say('Granted ' + amount.value + ' credits to ' + u.email + '.');
                                load();
                              },
                              function (e) {
                                say(e.error.message);
                              },
                            );
                          },
                        },
                      }),
                    ]),
                    keys,
                    h('button', {
                      type: 'button',
                      text: 'Invite again',
                      'aria-label': 'Invite again: ' + u.email,
                      on: {
                        click: function () {
                          invite({ userId: u.id });
                        },
                      },
                    }),
                  ];
                }),
                'Users',
              )
            : empty('No users yet. Invite one above.'),
        );
      }, failed(box));
    }
    /** A user's live keys, each with a revoke button (DELETE /api/admin/keys/{id}). */
    function showKeys(u, cell) {
      api('GET', '/api/admin/users/' + seg(u.id) + '/keys').then(
        function (list) {
          fill(
            cell,
            list.data.length
              ? h(
                  'ul',
                  { class: 'plain' },
                  list.data.map(function (k) {
                    return h('li', {}, [
                      h('code', { text: k.prefix + '…' }),
                      ' ' + (k.name || '') + ' ',
                      h('button', {
                        type: 'button',
                        class: 'danger',
                        text: 'Revoke',
                        'aria-label': 'Revoke key ' + k.prefix + ' of ' + u.email,
                        on: {
                          click: function () {
                            if (!confirm('Revoke this key of ' + u.email + '? Programs using it stop working at once.')) return;
                            api('DELETE', '/api/admin/keys/' + seg(k.id)).then(
                              function () {
                                say('Key revoked.');
                                showKeys(u, cell);
                              },
                              function (e) {
                                say(e.error.message);
                              },
                            );
                          },
                        },
                      }),
                    ]);
                  }),
                )
              : h('span', { class: 'hint', text: 'no keys' }),
          );
        },
        function (e) {
          say(e.error.message);
        },
      );
    }

    function invite(target) {
      var form = $('[data-form=invite]');
      var req = target.userId
        ? api('POST', '/api/admin/users/' + seg(target.userId) + '/invite', {})
        : api('POST', '/api/admin/invites', { email: target.email });
      return req.then(
        function (r) {
          $('[data-testid=invite-url]').textContent = r.invite_url;
          $('[data-testid=invite-box]').hidden = false;
          form.reset();
          say('Invite link for ' + r.email + ' created.');
          load();
        },
        function (e) {
          showError(form, e);
        },
      );
    }
    onSubmit('invite', function (form, fd) {
      invite({ email: String(fd.get('email') || '') });
    });
    load();
  };

  pages['admin-jobs'] = function () {
    var box = $('[data-testid=failed-jobs]');
    function load() {
      api('GET', '/api/admin/jobs?status=failed&limit=50').then(function (list) {
        fill(
          box,
          list.data.length
            ? table(
                ['Job', 'Kind', 'User', 'Error', 'When', ''],
                list.data.map(function (j) {
                  var id = j.job_id || j.id;
                  return [
                    jobLink(id),
                    j.kind,
                    j.user_id || j.owner_id,
                    j.error ? j.error.message : '',
                    when(j.created_at),
                    h('button', {
                      type: 'button',
                      text: 'Retry',
                      'aria-label': 'Retry job ' + id,
                      on: {
                        click: function () {
                          api('POST', '/api/admin/jobs/' + seg(id) + '/retry').then(
                            function () {
                              say('Job ' + id + ' queued again.');
                              load();
                            },
                            function (e) {
                              say(e.error.message);
                            },
                          );
                        },
                      },
                    }),
                  ];
                }),
                'Failed jobs',
              )
            : empty('No failed jobs.'),
        );
      }, failed(box));
    }
    load();
  };

  pages['admin-queue'] = function () {
    var box = $('[data-testid=queue]');
    function load() {
      api('GET', '/api/admin/queue').then(function (q) {
        var rows = [];
        Object.keys(q.queue || {}).forEach(function (k) {
          rows.push(['Queue: ' + k, q.queue[k]]);
        });
        Object.keys(q.jobs || {}).forEach(function (k) {
          rows.push(['Jobs: ' + k, q.jobs[k]]);
        });
        if (q.oldest_waiting)
          rows.push([
            'Oldest waiting',
            (q.oldest_waiting.job_id || '') + ' since ' + when(q.oldest_waiting.created_at || q.oldest_waiting.queued_at),
          ]);
        fill(box, rows.length ? table(['What', 'Count'], rows, 'Queue health') : empty('The queue is empty.'));
        setTimeout(load, 5000);
      }, failed(box));
    }
    load();
  };

  var run = pages[body.getAttribute('data-page')];
  if (run) run();
})();
