// Child process for the queue contract's crash case. Uses the built adapters (npm run build).
// argv: driver stateFile queueName
// The "database" is a JSON file: { pending: [ids], started: [ids], done: [ids] }.
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const q = require(join(__dirname, '../../../dist/libs/queue/src'));

const [driver, stateFile, name, mode, lockArg] = process.argv.slice(2);
const lockMs = Number(lockArg || 1000);
const load = () => JSON.parse(readFileSync(stateFile, 'utf8'));
// Atomic replace, so the parent never reads a half-written file.
const save = (s) => {
  writeFileSync(stateFile + '.tmp', JSON.stringify(s));
  renameSync(stateFile + '.tmp', stateFile);
};
const backlog = async () => load().pending;
const opts = { maxAttempts: 3, backoffMs: 50, backlog };
const queue =
  driver === 'bull'
    ? new q.BullQueueAdapter({ ...opts, redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379', name, lockMs })
    : new q.InProcessQueueAdapter(opts);

// Keep the process alive while a handler hangs: an unresolved promise alone would let Node exit.
if (mode === 'hang') setInterval(() => undefined, 1000);

(async () => {
  await queue.consume(
    async ({ jobId }) => {
      const s = load();
      s.started.push(jobId);
      save(s);
      if (mode === 'hang') await new Promise(() => undefined);
      const t = load();
      t.pending = t.pending.filter((id) => id !== jobId);
      t.done.push(jobId);
      save(t);
    },
    { concurrency: 2 },
  );
  if (mode === 'hang') for (const id of load().pending) await queue.enqueue(id);
  if (process.send) process.send('ready');
})();
