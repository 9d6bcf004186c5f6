import { describe, expect, it } from 'vitest';
import { fillTagMacros } from './macros';

const values = { now: Date.parse('2026-11-21T12:00:00.123Z'), pageUrl: 'https://hunktube.example/video/7?t=30&x=a b', random: 4213 };

describe('the macros of a VAST tag URL', () => {
  it('fills CACHEBUSTING, TIMESTAMP, PAGEURL and DOMAIN, URL-encoded', () => {
    const tag = 'https://ads.example/vast?cb=[CACHEBUSTING]&ts=[TIMESTAMP]&page=[PAGEURL]&d=[DOMAIN]&again=[CACHEBUSTING]';
    const filled = new URL(fillTagMacros(tag, values));
    expect(filled.searchParams.get('cb')).toBe('00004213');
    expect(filled.searchParams.get('again')).toBe('00004213');
    expect(filled.searchParams.get('ts')).toBe('2026-11-21T12:00:00.123Z');
    expect(filled.searchParams.get('page')).toBe(values.pageUrl);
    expect(filled.searchParams.get('d')).toBe('hunktube.example');
    expect(filled.search).not.toContain('[');
  });

  it('leaves the other macros and the rest of the URL alone', () => {
    expect(fillTagMacros('https://ads.example/[ADPLAYHEAD]/x?cb=[CACHEBUSTING]', { ...values, random: 123456789 })).toBe(
      'https://ads.example/[ADPLAYHEAD]/x?cb=23456789',
    );
  });
});
