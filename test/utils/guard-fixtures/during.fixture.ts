// Fire-and-forget inside a test, the way `void service.call()` without a catch does it.
async function failsLater(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  throw new Error('rejected during a test');
}

it('forgets a promise that rejects', async () => {
  void failsLater();
  await new Promise((resolve) => setTimeout(resolve, 50));
});
