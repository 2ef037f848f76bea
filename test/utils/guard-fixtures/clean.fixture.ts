// Rejections that are handled fail nothing.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 5));
});

it('handles its rejections', async () => {
  await expect(Promise.reject(new Error('handled'))).rejects.toThrow('handled');
  await Promise.reject(new Error('caught')).catch(() => undefined);
});
