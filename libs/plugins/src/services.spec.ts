import { createContainer } from '@app/pipeline';
import { onShutdown, runShutdownHooks } from './services';

describe('shutdown hooks', () => {
  it('runs every registered hook once, a failing one does not stop the others', async () => {
    const container = createContainer();
    await runShutdownHooks(container); // none registered: nothing to do
    const ran: string[] = [];
    onShutdown(container, async () => void ran.push('a'));
    onShutdown(container, async () => {
      throw new Error('boom');
    });
    onShutdown(container, async () => void ran.push('c'));
    await runShutdownHooks(container);
    expect(ran.sort()).toEqual(['a', 'c']);
  });
});
