/*
 * The list of common passwords for the password rule's "common" check (password-rule.ts), as its own entry point
 * (`@hunktube/shared/common-passwords`), kept out of the package's main one: the list is large (about 380 kB of
 * script, 180 kB compressed), and the web client, which imports the main entry, must not ship it.
 *
 * The list is the "passwords" dictionary of @zxcvbn-ts/language-common (MIT; the zxcvbn project's list of
 * 49,233 passwords most often found in leaks, all lower case), kept up to date by its maintainers.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import type { CommonPasswordList } from './password-rule.js';

let list: ReadonlySet<string> | undefined;

/** The common passwords, lower case; built once, at the first call. */
export function commonPasswords(): CommonPasswordList & { readonly size: number } {
  list ??= new Set(dictionary['passwords-common']);
  return list;
}
