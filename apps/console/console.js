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
        // Progress without refresh: poll while anything is converting or rebuilding.
        if (renderItems(s)) timer = setTimeout(load, 1000);
      }, failed(itemsBox));
    }

    function itemName(it) {
      return (it.banner && it.banner.title) || it.filename || it.source_url || 'Picture ' + it.id;
    }
    function errText(e) {
      return typeof e === 'string' ? e : (e && e.message) || 'failed';
    }
    var AVAILABILITY = { available: 'Available', reserved: 'Reserved', sold: 'Sold', not_for_sale: 'Not for sale' };

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
        if (active(it.status) || rebuilding) busy = true;
        var key = [JSON.stringify(it), i, items.length, s.units, rebuilding].join('|');
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
          it.rebuild_error ? h('p', { class: 'error', text: 'Rebuild failed: ' + errText(it.rebuild_error) }) : null,
          it.error ? h('p', { class: 'error', text: it.error.message }) : null,
          h('div', { class: 'controls' }, [
            h('span', { class: 'check' }, [
              sold,
              h('label', { for: soldId }, ['Sold', h('span', { class: 'sr-only', text: ' (' + ref + ')' })]),
            ]),
            moveBtn('up', 'Move up', i === 0),
            moveBtn('down', 'Move down', i === n - 1),
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

    load(true);
  };

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
