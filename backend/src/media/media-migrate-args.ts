/** `npm run media:migrate`'s arguments (media-migrate.cli.ts). */
export interface MigrateArgs {
  to: 's3' | 'disk';
  dryRun: boolean;
  keep: boolean;
  graceSeconds: number;
}

/** The command's arguments, or null when they are not its own. */
export function parseMigrateArgs(args: string[]): MigrateArgs | null {
  const parsed: MigrateArgs = { to: 's3', dryRun: false, keep: false, graceSeconds: 60 };
  let to: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--dry-run') parsed.dryRun = true;
    else if (arg === '--keep') parsed.keep = true;
    else if (arg === '--to' || arg.startsWith('--to=')) to = arg === '--to' ? args[++i] : arg.slice('--to='.length);
    else if (arg === '--grace' && /^\d{1,5}$/.test(args[i + 1] ?? '')) parsed.graceSeconds = Number(args[++i]);
    else return null;
  }
  if (to !== 's3' && to !== 'disk') return null;
  return { ...parsed, to };
}
