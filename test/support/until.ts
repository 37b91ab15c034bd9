/** Waits until `check` holds, looking every 20 ms, for at most `ms`; past that, fails naming `what`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not come about within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
