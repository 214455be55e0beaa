import { resolveMotionStyle } from './motion-presets';
import { renderProceduralMotion } from './render-procedural-motion';
it('x', async () => {
  const w = 240, h = 180; const rgba = Buffer.alloc(w*h*4, 200);
  for (const [W, H, fps, d] of [[160, 120, 8, 2], [160, 120, 8, 2], [1024, 576, 12, 4], [1024, 1024, 12, 10]]) {
    const t = performance.now();
    const seq = await renderProceduralMotion({ rgba, width: w, height: h }, { preset: resolveMotionStyle('sway'), width: W, height: H, fps, durationS: d });
    console.log(W, H, seq.frames.length, (performance.now() - t).toFixed(0), 'ms');
  }
  const big = Buffer.alloc(4000*3000*4, 200);
  const t = performance.now();
  await renderProceduralMotion({ rgba: big, width: 4000, height: 3000 }, { preset: resolveMotionStyle('orbit'), width: 1024, height: 768 });
  console.log('big', (performance.now() - t).toFixed(0), 'ms');
});
