'use strict';
/**
 * Example storage backend: models, posters and uploads kept on a WebDAV server (RFC 4918) — nginx's
 * dav module, Apache mod_dav, Nextcloud, an artifact store. Loaded purely by configuration:
 *
 *   CONFIG_FILE: { "storage": { "module": "/path/to/examples/storage-webdav",
 *                               "options": { "url": "https://dav.internal/ar", "username": "ar", "password": "…",
 *                                            "publicBaseUrl": "https://cdn.example.com/ar" } } }
 *
 * The contract (docs/plugins.md): export `createStorage(options, context)` returning a StoragePort
 * { driver, put, putStream, stat, read, url, delete, ping }. Without `publicBaseUrl` the files are
 * served by the service itself at <PUBLIC_BASE_URL>/files/<key> (it reads them back through `read`).
 */
const { createHash } = require('node:crypto');
const { Readable, Transform } = require('node:stream');

const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

function assertKey(key) {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`webdav: invalid key "${key}"`);
}

function createStorage(options, context) {
  if (!options || typeof options.url !== 'string' || !/^https?:\/\//.test(options.url))
    throw new Error('webdav: options.url (http(s) URL of the collection) is required');
  const root = options.url.replace(/\/+$/, '');
  const publicBase = (options.publicBaseUrl ?? `${context.publicBaseUrl}/files`).replace(/\/+$/, '');
  const auth = options.username
    ? { authorization: `Basic ${Buffer.from(`${options.username}:${options.password ?? ''}`).toString('base64')}` }
    : {};
  const timeoutMs = options.timeoutMs ?? 30_000;
  const known = new Set(); // collections known to exist

  async function dav(method, key, init = {}) {
    const res = await fetch(key === '' ? `${root}/` : `${root}/${key}`, {
      method,
      ...init,
      headers: { ...auth, ...init.headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
    return res;
  }

  function fail(what, res) {
    return new Error(`webdav: ${what} answered ${res.status} ${res.statusText}`);
  }

  /** MKCOL every missing parent collection (PUT into a missing one is 409 Conflict). */
  async function ensureParents(key) {
    const parts = key.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (known.has(dir)) continue;
      const res = await dav('MKCOL', `${dir}/`);
      // 201 created; 405 already exists (RFC 4918 §9.3.1).
      if (res.status !== 201 && res.status !== 405) throw fail(`MKCOL ${dir}`, res);
      known.add(dir);
    }
  }

  async function putBody(key, body, contentType, length) {
    assertKey(key);
    await ensureParents(key);
    const put = () =>
      dav('PUT', key, {
        body,
        duplex: 'half',
        headers: { 'content-type': contentType, ...(length !== undefined ? { 'content-length': String(length) } : {}) },
      });
    let res = await put();
    // 409: a collection we knew was removed since (a delete emptied it, here or in another process). A buffer
    // can be sent again; a stream cannot, and its caller retries the job.
    if (res.status === 409 && Buffer.isBuffer(body)) {
      forgetParents(key);
      await ensureParents(key);
      res = await put();
    }
    if (res.status === 409) forgetParents(key);
    if (res.status !== 201 && res.status !== 204 && res.status !== 200) throw fail(`PUT ${key}`, res);
  }

  function forgetParents(key) {
    const parts = key.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) known.delete(parts.slice(0, i).join('/'));
  }

  /**
   * After a delete: the key's own collection (`models/<job>/`, `uploads/<showcase>/<upload>/`: one object's
   * files) goes once it holds nothing, so deleted jobs leave no empty collections. Only that one: a WebDAV
   * DELETE of a collection is recursive, and a shared parent (`models/`) could get a new member between the
   * look and the delete. Best effort: the file is gone whatever this answers.
   */
  async function removeEmptyCollection(key) {
    const dir = key.split('/').slice(0, -1).join('/');
    if (!dir) return;
    const res = await dav('PROPFIND', `${dir}/`, { headers: { depth: '1' } });
    if (res.status !== 207) return;
    // One <response>: the collection itself, no members.
    const responses = (await res.text()).match(/<([A-Za-z][\w.-]*:)?response[\s>]/g) ?? [];
    if (responses.length !== 1) return;
    known.delete(dir);
    await dav('DELETE', `${dir}/`);
  }

  const storage = {
    driver: 'webdav',

    async put(key, body, contentType) {
      await putBody(key, body, contentType, body.length);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
      return { key, size: body.length, contentType, etag };
    },

    async putStream(key, body, contentType) {
      // Before anything else: the cleanup below must never DELETE a path outside the collection.
      assertKey(key);
      const hash = createHash('sha256');
      let size = 0;
      const counter = new Transform({
        transform(chunk, _enc, done) {
          size += chunk.length;
          hash.update(chunk);
          done(null, chunk);
        },
      });
      let streamError;
      body.on('error', (err) => {
        streamError = err;
        counter.destroy(err);
      });
      try {
        await putBody(key, Readable.toWeb(body.pipe(counter)), contentType);
        if (streamError) throw streamError;
      } catch (err) {
        // A failed upload must leave nothing under the key.
        await dav('DELETE', key).catch(() => undefined);
        throw streamError ?? err;
      }
      return { key, size, contentType, etag: `"${hash.digest('base64url').slice(0, 32)}"` };
    },

    async stat(key) {
      assertKey(key);
      const res = await dav('HEAD', key);
      if (res.status === 404) return null;
      if (!res.ok) throw fail(`HEAD ${key}`, res);
      const etag =
        res.headers.get('etag') ??
        `"${createHash('sha256')
          .update(`${key}:${res.headers.get('last-modified')}:${res.headers.get('content-length')}`)
          .digest('base64url')
          .slice(0, 32)}"`;
      return {
        key,
        size: Number(res.headers.get('content-length') ?? 0),
        contentType: res.headers.get('content-type') ?? 'application/octet-stream',
        etag: etag.startsWith('"') || etag.startsWith('W/') ? etag : `"${etag}"`,
        lastModified: new Date(res.headers.get('last-modified') ?? Date.now()),
      };
    },

    async read(key, range) {
      assertKey(key);
      const res = await dav('GET', key, range ? { headers: { range: `bytes=${range.start}-${range.end}` } } : {});
      if (!res.ok || !res.body) throw fail(`GET ${key}`, res);
      if (range && res.status !== 206) throw new Error(`webdav: GET ${key} ignored the byte range`);
      return Readable.fromWeb(res.body);
    },

    url(key) {
      assertKey(key);
      return `${publicBase}/${key}`;
    },

    async delete(key) {
      assertKey(key);
      const res = await dav('DELETE', key);
      if (!res.ok && res.status !== 404) throw fail(`DELETE ${key}`, res);
      await removeEmptyCollection(key).catch(() => undefined);
    },

    async ping() {
      const res = await dav('PROPFIND', '', { headers: { depth: '0' } });
      if (res.status !== 207) throw fail(`PROPFIND ${root}/`, res);
    },
  };
  return storage;
}

module.exports = { createStorage };
