/*
 * The password rule of registration and admin creation (issue #29), applied by the API, which decides, and by
 * the web client's sign-up form before it sends. In order, the first rule broken is the one reported:
 *
 * 1. length: 10 to 128 characters (Unicode code points), counted on the password as typed;
 * 2. common: the password is on the list of common passwords. The list is lower case, so the password is
 *    compared lower-cased, and also "squashed" (below): "Password123!" and "pass word 123" are "password123";
 * 3. email-name: the squashed password contains the squashed name of the e-mail address (the part before the
 *    last @, without a "+tag": "sam.jones+tube" is "samjones");
 * 4. display-name: the squashed password contains the squashed display name ("Big Muscle Men" is
 *    "bigmusclemen", so "big_muscle-men!" contains it).
 *
 * Squashing is NFKC normalization, lower case, and dropping every character that is not a letter or a digit:
 * separators and case do not make a name or a common password new. A name shorter than 3 characters once
 * squashed ("Al", "a.l@…") is not checked: it would ban every password with those letters in it.
 *
 * The list itself is passed in (`commonPasswords`), so that this module stays small for the web client, which
 * leaves the list to the server (`@hunktube/shared/common-passwords` loads it).
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './limits.js';

/** The `errorCode` of a password refused by the common, e-mail name or display name rule. */
export const WEAK_PASSWORD = 'WEAK_PASSWORD';

/** The length rule's message: the API's validation message for the field, which carries no errorCode. */
export const PASSWORD_LENGTH_MESSAGE = `password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long`;
export const PASSWORD_TOO_COMMON = 'This password is too common: choose one that others are unlikely to use';
export const PASSWORD_CONTAINS_EMAIL_NAME = "The password must not contain your e-mail address's name";
export const PASSWORD_CONTAINS_DISPLAY_NAME = 'The password must not contain your display name';

/** Names shorter than this, once squashed, are not looked for in the password. */
export const PASSWORD_NAME_MIN_LENGTH = 3;

export type PasswordRule = 'length' | 'common' | 'email-name' | 'display-name';

export interface PasswordProblem {
  rule: PasswordRule;
  message: string;
}

/** Whose password it is: the account's e-mail address and, when it has one yet, its display name. */
export interface PasswordOwner {
  email: string;
  displayName?: string | null;
}

/** The common passwords, lower case (a Set will do). */
export interface CommonPasswordList {
  has(password: string): boolean;
}

const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/** The text as it is compared: NFKC, lower case, letters and digits only. */
export function squashForPasswordRule(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(NOT_LETTER_OR_DIGIT, '');
}

/** The name of an e-mail address: before its last @, without a +tag. */
function emailName(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at);
  const plus = local.indexOf('+');
  return plus < 0 ? local : local.slice(0, plus);
}

function containsName(squashedPassword: string, name: string | null | undefined): boolean {
  const squashed = squashForPasswordRule(name ?? '');
  return squashed.length >= PASSWORD_NAME_MIN_LENGTH && squashedPassword.includes(squashed);
}

/**
 * null when `password` passes every rule, else the first rule it breaks with its message. `commonPasswords`
 * null skips the common rule (the web client: the server checks it).
 */
export function passwordProblem(
  password: string,
  owner: PasswordOwner,
  commonPasswords: CommonPasswordList | null,
): PasswordProblem | null {
  const length = Array.from(password).length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) return { rule: 'length', message: PASSWORD_LENGTH_MESSAGE };
  const squashed = squashForPasswordRule(password);
  if (commonPasswords && (commonPasswords.has(password.toLowerCase()) || commonPasswords.has(squashed))) {
    return { rule: 'common', message: PASSWORD_TOO_COMMON };
  }
  if (containsName(squashed, emailName(owner.email))) return { rule: 'email-name', message: PASSWORD_CONTAINS_EMAIL_NAME };
  if (containsName(squashed, owner.displayName)) return { rule: 'display-name', message: PASSWORD_CONTAINS_DISPLAY_NAME };
  return null;
}
