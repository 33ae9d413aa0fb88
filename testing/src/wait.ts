/** Polls `check` until it holds; fails the test after `ms`, naming `what` it waited for. */
export async function until(
  check: () => boolean | Promise<boolean>,
  ms = 15_000,
  what = 'the condition',
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
