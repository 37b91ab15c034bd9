import { describe, expect, it } from 'vitest';
import { cookieValue } from './sessions';

describe('cookieValue', () => {
  it.each([
    ['piaffe.session_token=abc.def%3D', 'abc.def%3D'],
    ['a=1; piaffe.session_token=abc; b=2', 'abc'],
    ['a=1;piaffe.session_token=abc', 'abc'],
    ['x-piaffe.session_token=evil; piaffe.session_token=good', 'good'],
    ['piaffe.session_token=first; piaffe.session_token=second', 'first'],
    ['piaffe.session_token=', undefined],
    ['piaffe.session_token_other=x', undefined],
    ['', undefined],
  ])('%j gives %j', (header, value) => {
    expect(cookieValue(header, 'piaffe.session_token')).toBe(value);
  });

  it('is undefined without a header', () => {
    expect(cookieValue(undefined, 'piaffe.session_token')).toBeUndefined();
  });
});
