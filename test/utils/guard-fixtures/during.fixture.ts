import { pause } from '../wait';

// Fire-and-forget inside a test, the way `void service.call()` without a catch does it.
async function failsLater(): Promise<void> {
  await pause(5);
  throw new Error('rejected during a test');
}

it('forgets a promise that rejects', async () => {
  void failsLater();
  // The test lasts past the rejection: nothing the test awaits tells of it.
  await pause(50);
});
