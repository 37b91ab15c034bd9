import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import {
  codeKey,
  type Discount,
  type DiscountGives,
  type DiscountRefusal,
  type NewDiscount,
} from '../../shared/discounts';
import type { Db, UnitOfWork } from '../db/database';
import { isConstraintViolation } from '../db/errors';
import type { DiscountCodeTable } from '../db/schema';
import type { SettingsStore } from '../settings/settings-store';

type DiscountRow = Selectable<DiscountCodeTable>;

export type DiscountStore = ReturnType<typeof createDiscountStore>;

/**
 * A code that may be used on an order now: its row's id, and the code as the owner wrote it with what it gives, for the
 * pricing to apply (src/server/pricing/pricing.ts).
 */
export interface Usable {
  id: string;
  oncePerRider: boolean;
  discount: { code: string; gives: DiscountGives };
}

export type Check = { ok: true; usable: Usable } | { ok: false; reason: DiscountRefusal; minSubtotalCents: number };

export type CreateResult = { ok: true; discount: Discount } | { ok: false; reason: 'code-taken' };

function givesOf(row: DiscountRow): DiscountGives {
  if (row.kind === 'percent') return { kind: 'percent', percent: Number(row.value) };
  if (row.kind === 'amount') return { kind: 'amount', amountCents: Number(row.value) };
  return { kind: 'free-shipping' };
}

function storedValue(gives: DiscountGives): number {
  if (gives.kind === 'percent') return gives.percent;
  if (gives.kind === 'amount') return gives.amountCents;
  return 0;
}

const numberOrNull = (value: number | null) => (value === null ? null : Number(value));

function toDiscount(row: DiscountRow): Discount {
  return {
    id: row.id,
    code: row.code,
    gives: givesOf(row),
    minSubtotalCents: numberOrNull(row.min_subtotal_cents),
    firstDay: row.first_day,
    lastDay: row.last_day,
    maxUses: numberOrNull(row.max_uses),
    oncePerRider: Number(row.once_per_rider) === 1,
    enabled: Number(row.enabled) === 1,
    uses: Number(row.uses),
    createdAt: new Date(Number(row.created_at)).toISOString(),
  };
}

/** The day `at` falls on in the shop's time zone, as YYYY-MM-DD. */
export function shopDay(at: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/**
 * Discount codes (docs/product.md §16): the owner's list, and a code checked, counted and given back inside an
 * order's unit of work. The count lives in the database (docs/decisions/0039-discount-codes.md): a use is taken by a
 * conditional update (`uses < max_uses`), and 'Once per rider' is a unique index over the uses not given back.
 */
export function createDiscountStore(db: Db, settings: Pick<SettingsStore, 'current'>) {
  return {
    async all(): Promise<Discount[]> {
      const rows = await db.kysely.selectFrom('discount_code').selectAll().orderBy('created_at', 'desc').execute();
      return rows.map(toDiscount);
    },

    async create(owner: { email: string }, input: NewDiscount): Promise<CreateResult> {
      const row: DiscountRow = {
        id: randomUUID(),
        code: input.code,
        code_key: codeKey(input.code),
        kind: input.gives.kind,
        value: storedValue(input.gives),
        min_subtotal_cents: input.minSubtotalCents,
        first_day: input.firstDay,
        last_day: input.lastDay,
        max_uses: input.maxUses,
        once_per_rider: input.oncePerRider ? 1 : 0,
        enabled: 1,
        uses: 0,
        created_at: Date.now(),
        created_by: owner.email,
      };
      try {
        await db.kysely.insertInto('discount_code').values(row).execute();
      } catch (error) {
        if (isConstraintViolation(error, 'unique')) return { ok: false, reason: 'code-taken' };
        throw error;
      }
      return { ok: true, discount: toDiscount(row) };
    },

    /** Switches a code off or on; undefined when there is no such code. A used code is never deleted. */
    async setEnabled(id: string, enabled: boolean): Promise<Discount | undefined> {
      await db.kysely
        .updateTable('discount_code')
        .set({ enabled: enabled ? 1 : 0 })
        .where('id', '=', id)
        .execute();
      const row = await db.kysely.selectFrom('discount_code').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toDiscount(row);
    },

    /**
     * Whether `code` may be used now on goods of `subtotalCents` by the rider of `email`, and what it does; read
     * through `uow` when placing (the use is then taken by `redeem`, which holds whatever changed since).
     */
    async check(
      code: string,
      subtotalCents: number,
      email: string,
      uow?: UnitOfWork,
      now = Date.now(),
    ): Promise<Check> {
      const executor = uow?.trx ?? db.kysely;
      const row = await executor
        .selectFrom('discount_code')
        .selectAll()
        .where('code_key', '=', codeKey(code))
        .executeTakeFirst();
      const refuse = (reason: DiscountRefusal) =>
        ({ ok: false, reason, minSubtotalCents: Number(row?.min_subtotal_cents ?? 0) }) as const;
      const today = shopDay(now, (await settings.current(uow)).format.timeZone);
      if (!row || Number(row.enabled) !== 1 || (row.first_day !== null && today < row.first_day)) {
        return refuse('invalid');
      }
      if (row.last_day !== null && today > row.last_day) return refuse('expired');
      if (row.min_subtotal_cents !== null && subtotalCents < Number(row.min_subtotal_cents)) return refuse('minimum');
      if (row.max_uses !== null && Number(row.uses) >= Number(row.max_uses)) return refuse('used-up');
      const oncePerRider = Number(row.once_per_rider) === 1;
      if (oncePerRider) {
        const used = await executor
          .selectFrom('discount_use')
          .select('order_number')
          .where('discount_id', '=', row.id)
          .where('email', '=', email.toLowerCase())
          .where('once_per_rider', '=', 1)
          .where('given_back_at', 'is', null)
          .executeTakeFirst();
        if (used) return refuse('already-used');
      }
      return {
        ok: true,
        usable: { id: row.id, oncePerRider, discount: { code: row.code, gives: givesOf(row) } },
      };
    },

    /**
     * Counts the use of a code `check` found usable, for the order `number`, inside the order's unit of work; the
     * refusal when it was used up or used by this address since, by another order that committed first.
     */
    async redeem(
      uow: UnitOfWork,
      usable: Usable,
      number: number,
      email: string,
    ): Promise<'used-up' | 'already-used' | undefined> {
      // On PostgreSQL a second order waits here for the first's row lock, then finds the count it left.
      const taken = await uow.trx
        .updateTable('discount_code')
        .set((eb) => ({ uses: eb('uses', '+', 1) }))
        .where('id', '=', usable.id)
        .where('enabled', '=', 1)
        .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) return 'used-up';
      try {
        await uow.trx
          .insertInto('discount_use')
          .values({
            order_number: number,
            discount_id: usable.id,
            email: email.toLowerCase(),
            once_per_rider: usable.oncePerRider ? 1 : 0,
            given_back_at: null,
          })
          .execute();
      } catch (error) {
        // The transaction is lost on PostgreSQL: the caller rolls it back with the refusal.
        if (isConstraintViolation(error, 'unique')) return 'already-used';
        throw error;
      }
      return undefined;
    },

    /** A cancelled order's use goes back to its code, once: a second cancel finds it given back already. */
    async giveBack(uow: UnitOfWork, number: number): Promise<void> {
      const given = await uow.trx
        .updateTable('discount_use')
        .set({ given_back_at: Date.now() })
        .where('order_number', '=', number)
        .where('given_back_at', 'is', null)
        .returning('discount_id')
        .executeTakeFirst();
      if (!given) return;
      await uow.trx
        .updateTable('discount_code')
        .set((eb) => ({ uses: eb('uses', '-', 1) }))
        .where('id', '=', given.discount_id)
        .execute();
    },
  };
}
