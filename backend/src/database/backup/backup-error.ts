/** A backup or restore that cannot go on; its message tells the operator what happened and what to do. */
export class BackupError extends Error {}
