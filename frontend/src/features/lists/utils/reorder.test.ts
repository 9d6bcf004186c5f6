import { describe, expect, it } from 'vitest';
import { moveItem, orderByIds } from './reorder';

describe('moveItem', () => {
  it('moves an item down and up, leaving the input as it was', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(moveItem(list, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(list, 3, 1)).toEqual(['a', 'd', 'b', 'c']);
    expect(list).toEqual(['a', 'b', 'c', 'd']);
  });

  it('clamps the target to the ends of the list', () => {
    expect(moveItem(['a', 'b', 'c'], 1, -5)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 9)).toEqual(['a', 'c', 'b']);
  });

  it('returns an unchanged copy for a source outside the list', () => {
    expect(moveItem(['a', 'b'], 4, 0)).toEqual(['a', 'b']);
  });
});

describe('orderByIds', () => {
  it('puts the items in the order of the ids', () => {
    const list = [{ id: 1 }, { id: 2 }, { id: 3 }];
    expect(orderByIds(list, [3, 1, 2]).map((item) => item.id)).toEqual([3, 1, 2]);
  });

  it('keeps items the ids do not name, after the named ones', () => {
    const list = [{ id: 1 }, { id: 9 }, { id: 2 }];
    expect(orderByIds(list, [2, 1]).map((item) => item.id)).toEqual([2, 1, 9]);
  });
});
