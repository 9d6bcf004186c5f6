import { canonicalPage } from './page-canonical';

describe('canonicalPage', () => {
  it('drops what no page reads: made-up parameters, ?t=, a trailing slash', () => {
    expect(canonicalPage('/', { x: '1' })).toBe('/');
    expect(canonicalPage('/', { utm_source: 'a', fbclid: 'b' })).toBe('/');
    expect(canonicalPage('/video/12', { t: '95', x: 'y' })).toBe('/video/12');
    expect(canonicalPage('/categories/beach/', {})).toBe('/categories/beach');
    expect(canonicalPage('/categories', { sort: 'longest', page: '3' })).toBe('/categories');
  });

  it("keeps a listing's sort and page as the listing reads them: the default sort and page 1 left out", () => {
    expect(canonicalPage('/', { sort: 'most-viewed', page: '2' })).toBe('/?sort=most-viewed&page=2');
    expect(canonicalPage('/', { page: '2', sort: 'most-viewed' })).toBe('/?sort=most-viewed&page=2');
    expect(canonicalPage('/', { sort: 'newest', page: '1' })).toBe('/');
    expect(canonicalPage('/', { sort: 'bogus', page: 'abc' })).toBe('/');
    expect(canonicalPage('/', { page: '007' })).toBe('/?page=7');
    expect(canonicalPage('/', { page: '1234567890' })).toBe('/');
    expect(canonicalPage('/performers/sam', { sort: ['top-rated', 'longest'] })).toBe('/performers/sam?sort=top-rated');
    expect(canonicalPage('/tags/muscle/', { sort: 'longest', page: '2', x: '1' })).toBe('/tags/muscle?sort=longest&page=2');
  });

  it("keeps a search's words as the search box shows them", () => {
    expect(canonicalPage('/search', { q: ' pool party ', sort: 'longest', x: '1' })).toBe('/search?q=+pool+party+&sort=longest');
    expect(canonicalPage('/search', { q: '' })).toBe('/search');
    expect(canonicalPage('/', { q: 'pool' })).toBe('/');
  });

  it("keeps a listing's filters as the listing reads them, in the order its links write them; refused values left out", () => {
    expect(canonicalPage('/', { uploaded: 'week', quality: 'hd', maxDuration: '599', sort: 'longest' })).toBe('/?maxDuration=599&quality=hd&uploaded=week&sort=longest');
    expect(canonicalPage('/search', { sort: 'top-rated', minDuration: '1200', q: 'gym' })).toBe('/search?q=gym&minDuration=1200&sort=top-rated');
    expect(canonicalPage('/categories/beach', { quality: ['4k', 'hd'], page: '2' })).toBe('/categories/beach?quality=4k&page=2');
    expect(canonicalPage('/', { quality: '8k', uploaded: 'decade', minDuration: '-5' })).toBe('/');
    expect(canonicalPage('/', { minDuration: '1200', maxDuration: '600' })).toBe('/');
    expect(canonicalPage('/video/3', { quality: 'hd' })).toBe('/video/3');
  });

  it("keeps a watch page's playlist or watch-later context, as parseWatchContext reads it", () => {
    expect(canonicalPage('/video/3', { context: 'playlist', playlist: '9', t: '5' })).toBe('/video/3?context=playlist&playlist=9');
    expect(canonicalPage('/video/3', { context: 'playlist', playlist: '0' })).toBe('/video/3');
    expect(canonicalPage('/video/3', { context: 'watch-later', playlist: '9' })).toBe('/video/3?context=watch-later');
    expect(canonicalPage('/video/3', { context: 'other' })).toBe('/video/3');
  });
});
