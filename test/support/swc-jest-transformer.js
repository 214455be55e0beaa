// Jest's transformer for the project's TypeScript: @swc/jest, plus one line that makes the built-in globals
// module-local. Why: Jest runs every module inside a `vm` context, and on Node 24 each read of a global there
// (`Math`, `Number`, `Uint8Array`, ...) goes through the context's property interceptors, which V8 cannot
// optimise: `Math.imul` in a loop costs ~150 ns a call in a test against ~10 ns in `node` (measured:
// the analytics fingerprint of 1,000,000 ids took 13.6 s under Jest, 0.6 s in node). A `const` in the
// module's own scope is an ordinary variable: the same code then runs at the speed it has in production.
// Only intrinsics that tests never replace are listed: not Date, timers, fetch, console or process (fake
// timers and spies must still reach the code), and not the typed arrays or Buffer (a spec may swap the
// context's Float32Array for Node's before it calls onnxruntime: background-remover.spec.ts). Their values are
// the context's own, so `instanceof` checks are unchanged.
const { createTransformer } = require('@swc/jest');

const INTRINSICS = ['Math', 'JSON', 'Number', 'String', 'Boolean', 'Array', 'Object', 'Map', 'Set', 'WeakMap', 'BigInt'];
const PRELUDE = `const { ${INTRINSICS.join(', ')} } = globalThis;`;
const VERSION = 'fast-globals-2';

/** Puts the prelude after a leading "use strict" directive (which must stay first), on the same line. */
function withPrelude(code) {
  const m = /^(\s*(["'])use strict\2;?)/.exec(code);
  return m ? `${m[1]}${PRELUDE}${code.slice(m[1].length)}` : `${PRELUDE}${code}`;
}

/** A module that declares one of the names itself keeps its own (the prelude would be a redeclaration). */
function declaresOne(code) {
  return INTRINSICS.some((name) => new RegExp(`\\b(?:const|let|var|class|function)\\s+${name}\\b`).test(code));
}

function wrap(result) {
  const out = typeof result === 'string' ? { code: result } : result;
  if (declaresOne(out.code)) return out;
  return { ...out, code: withPrelude(out.code) };
}

module.exports = {
  createTransformer(options) {
    const swc = createTransformer(options);
    return {
      ...swc,
      process: (...args) => wrap(swc.process(...args)),
      processAsync: async (...args) => wrap(await swc.processAsync(...args)),
      getCacheKey: (...args) => `${swc.getCacheKey(...args)}:${VERSION}`,
    };
  },
};
