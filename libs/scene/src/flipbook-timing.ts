/** Longest loop Quick Look plays (Apple's budget). */
export const MAX_LOOP_SECONDS = 10;

/** Gap between stacked frame quads, in metres: a fraction of a millimetre in total. */
export function frameGap(frameCount: number): number {
  return Math.min(0.00005, 0.0005 / Math.max(1, frameCount));
}

/** Start time of each frame and the loop's total length, in seconds. */
export function frameTimes<F extends { duration: number }>(frames: readonly F[]): { starts: number[]; total: number } {
  const starts: number[] = [];
  let t = 0;
  for (const f of frames) {
    if (!(f.duration > 0)) throw new Error('flipbook: every frame needs a duration > 0');
    starts.push(t);
    t += f.duration;
  }
  if (t > MAX_LOOP_SECONDS + 1e-9) throw new Error(`flipbook: the loop lasts ${t.toFixed(2)} s; at most ${MAX_LOOP_SECONDS} s`);
  return { starts, total: t };
}
