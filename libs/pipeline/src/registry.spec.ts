import { createContainer, definePlugin, PipelineRegistry, registerPipeline, registerStage, type Plugin } from './index';

const s = (id: string) => ({ id, run: async () => id });

describe('PipelineRegistry.boot', () => {
  it('boots a consistent set and resolves stages and pipelines', async () => {
    const reg = await PipelineRegistry.boot(createContainer(), [
      definePlugin({ name: 'a', register: (c) => registerStage(c, s('one')) }),
      definePlugin({ name: 'b', register: (c) => registerPipeline(c, { id: 'p', steps: [{ stage: 'one', phase: 'converting' }] }) }),
    ]);
    expect(reg.pipelineIds()).toEqual(['p']);
    expect(reg.stage('one').id).toBe('one');
  });

  it('fails on a stage no plugin provides', async () => {
    await expect(
      PipelineRegistry.boot(createContainer(), [
        definePlugin({ name: 'b', register: (c) => registerPipeline(c, { id: 'p', steps: [{ stage: 'missing', phase: 'converting' }] }) }),
      ]),
    ).rejects.toThrow('registry: pipeline "p" step "missing" needs stage "missing", which no plugin provides');
  });

  it('fails on a duplicate stage id', async () => {
    await expect(
      PipelineRegistry.boot(createContainer(), [
        definePlugin({ name: 'a', register: (c) => registerStage(c, s('one')) }),
        definePlugin({ name: 'b', register: (c) => registerStage(c, s('one')) }),
      ]),
    ).rejects.toThrow('duplicate stage id "one"');
  });

  it("fails on a duplicate stage registered behind the helper's back", async () => {
    await expect(
      PipelineRegistry.boot(createContainer(), [
        definePlugin({
          name: 'a',
          register: (c) => {
            c.register('pipeline.stage:one', { useValue: s('one') });
            c.register('pipeline.stage:one', { useValue: s('one') });
            registerPipeline(c, { id: 'p', steps: [{ stage: 'one', phase: 'converting' }] });
          },
        }),
      ]),
    ).rejects.toThrow('duplicate stage id "one" (2 providers)');
  });

  it('fails on a duplicate pipeline id and a duplicate plugin name', async () => {
    const p = definePlugin({
      name: 'a',
      register: (c) => {
        registerStage(c, s('one'));
        registerPipeline(c, { id: 'p', steps: [{ stage: 'one', phase: 'converting' }] });
        registerPipeline(c, { id: 'p', steps: [{ stage: 'one', phase: 'converting' }] });
      },
    });
    await expect(PipelineRegistry.boot(createContainer(), [p])).rejects.toThrow('duplicate pipeline id "p"');
    const q = definePlugin({ name: 'a', register: () => undefined });
    await expect(PipelineRegistry.boot(createContainer(), [q, q])).rejects.toThrow('duplicate plugin name "a"');
  });

  it('fails on an unknown config key and an unknown plugin, and merges options over defaults', async () => {
    let got: unknown;
    const p: Plugin<{ size: number; mode: string }> = {
      name: 'p',
      defaults: { size: 1, mode: 'x' },
      register: (_c, o) => {
        got = o;
      },
    };
    await expect(PipelineRegistry.boot(createContainer(), [p as Plugin<object>], { pluginOptions: { p: { colour: 1 } } })).rejects.toThrow(
      'registry: unknown config key "colour" for plugin "p" (allowed: size, mode)',
    );
    await expect(PipelineRegistry.boot(createContainer(), [p as Plugin<object>], { pluginOptions: { q: {} } })).rejects.toThrow(
      'registry: configuration names unknown plugin "q"',
    );
    await PipelineRegistry.boot(createContainer(), [p as Plugin<object>], { pluginOptions: { p: { size: 5 } } });
    expect(got).toEqual({ size: 5, mode: 'x' });
  });

  it('rejects malformed definitions', async () => {
    await expect(
      PipelineRegistry.boot(createContainer(), [
        definePlugin({
          name: 'a',
          register: (c) => {
            registerStage(c, s('one'));
            registerPipeline(c, {
              id: 'p',
              steps: [
                { stage: 'one', phase: 'uploading' },
                { id: 'two', stage: 'one', phase: 'downloading' },
              ],
            });
          },
        }),
      ]),
    ).rejects.toThrow('pipeline "p": step "two" goes back to phase "downloading"');
  });
});
