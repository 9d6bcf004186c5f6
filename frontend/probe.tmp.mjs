import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const ffs = [];
for (let run = 0; run < 7; run++) {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    localStorage.setItem('age_confirmed', 'true');
    document.addEventListener('loadeddata', (e) => { if (e.target instanceof HTMLVideoElement && window.__ff === undefined) window.__ff = performance.now(); }, true);
  });
  const page = await context.newPage();
  await page.goto(process.argv[2] ?? 'http://localhost:3100/video/1');
  await page.waitForFunction(() => window.__ff !== undefined, undefined, { timeout: 20000 });
  await page.waitForTimeout(200);
  const out = await page.evaluate(() => ({
    ff: Math.round(window.__ff),
    marks: performance.getEntriesByType('mark').map((m) => `${m.name}@${Math.round(m.startTime)}`),
    res: performance.getEntriesByType('resource').filter((r) => /early|hls|m3u8|_000\.ts/.test(r.name)).map((r) => `${r.name.split('/').pop().slice(0, 20)} ${Math.round(r.startTime)}-${Math.round(r.responseEnd)}`),
    nav: (({ responseEnd, domInteractive, domContentLoadedEventStart }) => [responseEnd, domInteractive, domContentLoadedEventStart].map(Math.round))(performance.getEntriesByType('navigation')[0]),
  }));
  ffs.push(out.ff);
  if (run < 3) console.log(JSON.stringify(out));
  await context.close();
}
console.log('first frames', ffs.join(' '), 'median', ffs.sort((a, b) => a - b)[3]);
await browser.close();
