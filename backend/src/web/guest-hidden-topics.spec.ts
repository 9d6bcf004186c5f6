import type { Request } from 'express';
import { guestHiddenTopics } from './pages.service';

const withCookie = (value: unknown) => ({ cookies: { hidden_topics: value } }) as unknown as Request;

describe('guestHiddenTopics', () => {
  it("reads a guest's cookie as exclude's canonical value", () => {
    expect(guestHiddenTopics(withCookie('tag:feet,category:vintage,category:bears,tag:feet'))).toBe('category:bears,category:vintage,tag:feet');
  });

  it('reads nothing from no cookie, an empty one or one that is not a list of topics', () => {
    expect(guestHiddenTopics({ cookies: {} } as unknown as Request)).toBe('');
    expect(guestHiddenTopics(withCookie(''))).toBe('');
    expect(guestHiddenTopics(withCookie('category:Bears'))).toBe('');
    expect(guestHiddenTopics(withCookie('<script>'))).toBe('');
    expect(guestHiddenTopics(withCookie(['category:bears']))).toBe('');
  });
});
