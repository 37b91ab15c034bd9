// The shop's days and times, in its time zone: the books' dates (the CSV, the invoices), the days of an export and of
// a bank transfer's time to pay (src/server/payments).

const localTimes = new Map<string, Intl.DateTimeFormat>();

/** `2026-11-24 17:03`, in the shop's time zone. */
export function shopTime(iso: string, timeZone: string): string {
  let localTime = localTimes.get(timeZone);
  if (localTime === undefined) {
    localTime = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    localTimes.set(timeZone, localTime);
  }
  const parts = Object.fromEntries(localTime.formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The UTC offset of `timeZone` at `instant`, in ms (negative west of Greenwich). */
function offsetAt(instant: number, timeZone: string): number {
  let wallClock = wallClocks.get(timeZone);
  if (wallClock === undefined) {
    wallClock = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(timeZone, wallClock);
  }
  const parts: Record<string, number> = Object.fromEntries(
    wallClock.formatToParts(instant).map((part) => [part.type, Number(part.value)]),
  );
  const at = (type: string) => parts[type] ?? 0;
  const wall = Date.UTC(at('year'), at('month') - 1, at('day'), at('hour'), at('minute'), at('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The days `from` to `to` (`2026-11-24`), both included, in the shop's time zone: [first instant, end) in epoch ms. */
export function shopDays(from: string, to: string, timeZone: string): [number, number] {
  const dayAfter = new Date(Date.parse(`${to}T00:00:00Z`) + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return [startOfShopDay(from, timeZone), startOfShopDay(dayAfter, timeZone)];
}

/** The first instant of the day `date` (`2026-11-24`) in the shop's time zone, as epoch ms. */
export function startOfShopDay(date: string, timeZone: string): number {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  // Twice: the offset at the guess, not at UTC midnight, is the one that holds (a change of clocks in between).
  const guess = midnightUtc - offsetAt(midnightUtc, timeZone);
  return midnightUtc - offsetAt(guess, timeZone);
}
