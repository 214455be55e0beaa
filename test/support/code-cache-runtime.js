// Jest's module runtime (jest-runtime 29) with V8's code cache kept per worker process (jest.config.js `runtime`).
//
// Why: Jest compiles every module anew for each test file (each file has its own module registry), and it creates
// each script with an `importModuleDynamically` callback of its own, which keeps V8's in-process compilation cache
// from ever matching: the same ~1,000 modules (Nest, TypeORM, zod, the libs) were parsed and compiled again in every
// file. Profiled, the unit tier in one process spent 17 of its 103 busy seconds in `createScriptFromCode` alone,
// plus the lazy compiles of each function on its first call.
//
// Here the first file that loads a module compiles it as before; when that file ends, the script's code cache
// (`createCachedData()`, by then holding every function the file ran) is kept in this worker's memory, and later
// files that load the same module with the same code (compared here) hand it to V8 as `cachedData`. V8 checks the
// cache against the source's length and its own version and flags, and compiles as before where it does not match
// (`cachedDataRejected`).
// Only the compiler's work is saved: each file still gets fresh module instances, globals and mocks, exactly as
// with Jest's own runtime.
const { SyntheticModule, Script } = require('node:vm');
const Runtime = require('jest-runtime').default;
const { invariant } = require('jest-util');
const { handlePotentialSyntaxError } = require('@jest/transform');

/** filename -> { code, data }: the wrapped module code and its V8 code cache, shared by every file of this worker. */
const codeCache = new Map();
/**
 * Upper bound on what is kept, in bytes of code cache. The wrapped sources are kept beside it (about as much again):
 * V8 checks a cache against the source's length only, so a changed module of the same length must be caught here.
 */
const MAX_CACHED_BYTES = 512 * 1024 * 1024;
let cachedBytes = 0;

class CodeCacheRuntime extends Runtime {
  /** Scripts this file compiled without a usable cache: their code cache is taken when the file ends. */
  #compiled = [];

  // jest-runtime 29's createScriptFromCode, plus `cachedData` (same options otherwise).
  createScriptFromCode(scriptSource, filename) {
    try {
      const scriptFilename = this._resolver.isCoreModule(filename) ? `jest-nodejs-core-${filename}` : filename;
      const code = this.wrapCodeInModuleWrapper(scriptSource);
      const cached = codeCache.get(scriptFilename);
      const usable = cached !== undefined && cached.code === code;
      const script = new Script(code, {
        columnOffset: this._fileTransforms.get(filename)?.wrapperLength,
        displayErrors: true,
        filename: scriptFilename,
        ...(usable ? { cachedData: cached.data } : {}),
        importModuleDynamically: async (specifier) => {
          invariant(
            typeof SyntheticModule === 'function',
            'You need to run with a version of node that supports ES Modules in the VM API. See https://jestjs.io/docs/ecmascript-modules',
          );
          const context = this._environment.getVmContext?.();
          invariant(context, 'Test environment has been torn down');
          const module = await this.resolveModule(specifier, scriptFilename, context);
          return this.linkAndEvaluateModule(module);
        },
      });
      if (!usable || script.cachedDataRejected) this.#compiled.push({ filename: scriptFilename, code, script });
      return script;
    } catch (e) {
      throw handlePotentialSyntaxError(e);
    }
  }

  teardown() {
    for (const { filename, code, script } of this.#compiled) {
      if (cachedBytes >= MAX_CACHED_BYTES) break;
      const previous = codeCache.get(filename);
      if (previous) cachedBytes -= previous.data.length;
      const data = script.createCachedData();
      codeCache.set(filename, { code, data });
      cachedBytes += data.length;
    }
    this.#compiled = [];
    super.teardown();
  }
}

module.exports = CodeCacheRuntime;
