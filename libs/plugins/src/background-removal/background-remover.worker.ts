/**
 * A worker process of {@link BackgroundRemoverPool} (started by it, IPC with advanced serialization): one
 * {@link BackgroundRemover} (one ONNX session per input shape), cutting out the frames it is sent. It
 * exits when asked to close or when its parent goes away.
 */
import { BackgroundRemover, type BackgroundRemoverOptions } from './background-remover';
import type { WorkerReply, WorkerRequest } from './background-remover-pool';

if (!process.send) throw new Error('background-removal: background-remover.worker must be started by BackgroundRemoverPool');
const remover = new BackgroundRemover(JSON.parse(process.argv[2] ?? '{}') as BackgroundRemoverOptions);
const reply = (r: WorkerReply) => process.send?.(r);

process.on('disconnect', () => process.exit(0));
process.on('message', (msg: WorkerRequest) => {
  if (msg.op === 'close') {
    void remover.close().finally(() => process.disconnect());
    return;
  }
  const rgba = Buffer.from(msg.rgba.buffer, msg.rgba.byteOffset, msg.rgba.byteLength);
  const run =
    msg.op === 'warm'
      ? remover.warm(msg.width, msg.height).then(() => Buffer.alloc(0))
      : msg.op === 'mask'
        ? remover.mask(rgba, msg.width, msg.height)
        : remover.cutOut(rgba, msg.width, msg.height);
  run.then(
    (out) => reply({ id: msg.id, rgba: out }),
    (e: unknown) => reply({ id: msg.id, error: e instanceof Error ? e.message : String(e) }),
  );
});
