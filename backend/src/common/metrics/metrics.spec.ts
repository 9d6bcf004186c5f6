import { Metrics } from './metrics';

describe('Metrics.gauge', () => {
  it('scrapes on without a reading that throws or never comes, and with those that do', async () => {
    const metrics = new Metrics({ metricsToken: '' });
    metrics.gauge('answers_gauge', 'A reading that comes', () => 3);
    metrics.gauge('labelled_gauge', 'Readings by label', async () => [{ labels: { state: 'up' }, value: 1 }], ['state']);
    metrics.gauge('throws_gauge', 'A reading that fails', () => {
      throw new Error('down');
    });
    metrics.gauge('hangs_gauge', 'A reading that never comes', () => new Promise<number>(() => undefined));
    metrics.gauge('absent_gauge', 'No reading at all', () => []);
    const started = Date.now();
    const text = await metrics.registry.metrics();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(text).toContain('answers_gauge 3');
    expect(text).toContain('labelled_gauge{state="up"} 1');
    expect(text).toContain('# TYPE throws_gauge gauge');
    expect(text).not.toMatch(/^throws_gauge /m);
    expect(text).not.toMatch(/^hangs_gauge /m);
    expect(text).not.toMatch(/^absent_gauge /m);
  });

  it('is on only with a token, and takes only that token', () => {
    expect(new Metrics({ metricsToken: '' }).enabled).toBe(false);
    const metrics = new Metrics({ metricsToken: 'a-token-of-sixteen+' });
    expect(metrics.enabled).toBe(true);
    expect(metrics.authorized('Bearer a-token-of-sixteen+')).toBe(true);
    expect(metrics.authorized('Bearer a-token-of-sixteen-')).toBe(false);
    expect(metrics.authorized('a-token-of-sixteen+')).toBe(false);
    expect(metrics.authorized(undefined)).toBe(false);
  });
});
