// The riders of the demo data (`npm run demo-data`, docs/decisions/0046-a-big-shop.md): accounts Better Auth signs in,
// made by its own adapter, each with an address confirmed, a delivery address of its own and the one shared password.
import type { Address } from '../../shared/address';
import type { Auth } from '../auth/auth';
import type { Db, UnitOfWork } from '../db/database';
import { between, pick, random } from './random';

/** A rider of the demo shop; `uid` once the account is made. */
export interface DemoRider {
  email: string;
  address: Address;
  uid?: string;
}

const firstNames = [
  'Anna',
  'Beatriz',
  'Charlotte',
  'Daniel',
  'Emma',
  'Felix',
  'Grace',
  'Hannah',
  'Isabel',
  'Jonas',
  'Katharina',
  'Laura',
  'Marie',
  'Nina',
  'Olivia',
  'Paul',
  'Rosa',
  'Sophie',
  'Thomas',
  'Valentina',
];
const lastNames = [
  'Alvarez',
  'Becker',
  'Carter',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ingram',
  'Jensen',
  'Keller',
  'Lambert',
  'Meyer',
  'Nguyen',
  'Olsen',
  'Peters',
  'Quinn',
  'Richter',
  'Schmidt',
  'Walker',
];
const streets = ['Arena', 'Bridle', 'Canter', 'Dressage', 'Farrier', 'Gallop', 'Meadow', 'Paddock', 'Stable', 'Trot'];
const streetKinds = ['Lane', 'Road', 'Way', 'Drive', 'Court'];

/**
 * Where riders live, and how likely: a dressage shop in Wellington, Florida sells most in Florida, the rest across the
 * United States (the one zone a new shop ships to). The city is one of the state's; the postal code starts as the
 * state's do.
 */
const places = [
  { region: 'US-FL', cities: ['Wellington', 'Ocala', 'Loxahatchee', 'Tampa'], zip: '33', weight: 30 },
  { region: 'US-CA', cities: ['San Diego', 'Woodside', 'Sacramento'], zip: '92', weight: 12 },
  { region: 'US-KY', cities: ['Lexington', 'Louisville'], zip: '40', weight: 8 },
  { region: 'US-VA', cities: ['Middleburg', 'Leesburg', 'Charlottesville'], zip: '20', weight: 8 },
  { region: 'US-NY', cities: ['Saratoga Springs', 'Millbrook', 'Buffalo'], zip: '12', weight: 8 },
  { region: 'US-TX', cities: ['Austin', 'Dallas', 'Houston'], zip: '75', weight: 8 },
  { region: 'US-NJ', cities: ['Gladstone', 'Princeton'], zip: '07', weight: 6 },
  { region: 'US-PA', cities: ['Unionville', 'Pittsburgh'], zip: '19', weight: 6 },
  { region: 'US-NC', cities: ['Tryon', 'Raleigh'], zip: '28', weight: 6 },
  { region: 'US-CO', cities: ['Parker', 'Boulder'], zip: '80', weight: 4 },
  { region: 'US-MA', cities: ['Hamilton', 'Boston'], zip: '01', weight: 4 },
] as const;
const placeWeights = places.reduce((sum, place) => sum + place.weight, 0);

function placeOf(next: () => number): (typeof places)[number] {
  let left = next() * placeWeights;
  for (const place of places) {
    left -= place.weight;
    if (left < 0) return place;
  }
  return places[0];
}

/** The `count` riders of `seed`: names, e-mail addresses (example.com's, never anyone's) and addresses. */
export function demoRiders(seed: number, count: number): DemoRider[] {
  const next = random(seed);
  return Array.from({ length: count }, (_, n) => {
    const first = pick(next, firstNames);
    const last = pick(next, lastNames);
    const place = placeOf(next);
    const email = `${first}.${last}.${n + 1}@example.com`.toLowerCase();
    const address: Address = {
      fullName: `${first} ${last}`,
      line1: `${between(next, 1, 999)} ${pick(next, streets)} ${pick(next, streetKinds)}`,
      line2: next() < 0.2 ? `Barn ${between(next, 1, 12)}` : '',
      city: pick(next, place.cities),
      region: place.region,
      postalCode: `${place.zip}${String(between(next, 0, 999)).padStart(3, '0')}`,
      country: 'US',
      phone: next() < 0.6 ? `(555) 555-${String(between(next, 0, 9999)).padStart(4, '0')}` : '',
    };
    return { email, address };
  });
}

/** Accounts made in one unit of work. */
const ridersPerBatch = 1000;

/**
 * Makes the riders' accounts, as Better Auth's sign-up makes them (a user and its e-mail-and-password log-in) through
 * its own adapter on the unit's transaction (`authOn`), a batch to a unit, with their addresses already confirmed and
 * `passwordHash` for all: one hash for every rider, since a scrypt hash costs tens of milliseconds. Each signed up at
 * `signedUpAt(n)` (epoch ms); each rider's `uid` is set.
 */
export async function makeRiders(
  db: Db,
  authOn: (uow: UnitOfWork) => Auth,
  riders: readonly DemoRider[],
  { passwordHash, signedUpAt }: { passwordHash: string; signedUpAt: (n: number) => number },
): Promise<void> {
  for (let from = 0; from < riders.length; from += ridersPerBatch) {
    await db.run(async (uow) => {
      const { internalAdapter } = await authOn(uow).$context;
      for (let n = from; n < Math.min(riders.length, from + ridersPerBatch); n++) {
        const rider = riders[n] as DemoRider;
        const at = new Date(signedUpAt(n));
        const user = await internalAdapter.createUser(
          { email: rider.email, name: '', emailVerified: true, createdAt: at, updatedAt: at },
          { method: 'email-password' },
        );
        await internalAdapter.linkAccount({
          userId: user.id,
          providerId: 'credential',
          accountId: user.id,
          password: passwordHash,
          createdAt: at,
          updatedAt: at,
        });
        rider.uid = user.id;
      }
    });
  }
}
