import { describe, expect, it } from 'vitest';
import { addressGroup } from './client-address';

describe('addressGroup', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:192.0.2.1', '192.0.2.1'],
    ['::ffff:c000:201', '192.0.2.1'],
    ['0:0:0:0:0:ffff:192.0.2.1', '192.0.2.1'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:ffff:ffff:ffff:ffff', '2001:db8:0:0::/64'],
    ['2001:0DB8:0001:0002:0003:0004:0005:0006', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::', '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::7]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s is counted as %s', (address, group) => {
    expect(addressGroup(address)).toBe(group);
  });

  it('keeps a non-address short', () => {
    expect(addressGroup('x'.repeat(500))).toHaveLength(100);
  });
});
