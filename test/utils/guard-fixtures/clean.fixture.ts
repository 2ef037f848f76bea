import { pause } from '../wait';

// Rejections that are handled fail nothing.
// A hook that takes a moment, as a real one's teardown does.
afterAll(() => pause(5));

it('handles its rejections', async () => {
  await expect(Promise.reject(new Error('handled'))).rejects.toThrow('handled');
  await Promise.reject(new Error('caught')).catch(() => undefined);
});
