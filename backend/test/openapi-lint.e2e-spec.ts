import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * Redocly's lint of the exported OpenAPI document (which openapi.e2e-spec.ts holds equal to what the API serves),
 * by its CLI from node_modules, with backend/redocly.yaml: the recommended rules, two of them off and said why
 * (docs/api-conventions.md). No network: telemetry and the update check are off.
 */
const DOCUMENT = path.resolve(__dirname, '../../frontend/src/lib/api/openapi.json');
const CONFIG = path.resolve(__dirname, '../redocly.yaml');
const CLI = path.join(path.dirname(require.resolve('@redocly/cli/package.json')), 'bin/cli.js');

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] }[];
}

function lint(file: string): LintReport {
  const run = spawnSync(process.execPath, [CLI, 'lint', file, `--config=${CONFIG}`, '--format=json', '--max-problems=1000'], {
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 60_000,
  });
  // The report is the JSON on stdout; the exit status only says whether it holds an error.
  const start = run.stdout.indexOf('{');
  if (start < 0) throw new Error(`redocly lint printed no report (status ${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout.slice(start)) as LintReport;
}

const summaryOf = (report: LintReport) => report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);

describe('The OpenAPI document under Redocly’s recommended rules', () => {
  it('has no error and no warning', () => {
    const report = lint(DOCUMENT);
    expect(summaryOf(report)).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  });

  it('reports the faults the document once had (the lint does look)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));
    try {
      const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8'));
      doc.servers = [];
      doc.components.schemas.NoErrorDto.properties.error = { type: 'null', nullable: true };
      delete doc.paths['/api/videos'].get.summary;
      delete doc.paths['/api/videos'].get.security;
      const broken = path.join(dir, 'openapi.json');
      writeFileSync(broken, JSON.stringify(doc));
      const report = lint(broken);
      expect(report.problems.filter((p) => p.severity === 'error').map((p) => p.ruleId).sort()).toEqual([
        'no-empty-servers',
        'operation-summary',
        'security-defined',
        'struct',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
