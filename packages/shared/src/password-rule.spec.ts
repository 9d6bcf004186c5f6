import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './limits.js';
import {
  PASSWORD_CONTAINS_DISPLAY_NAME,
  PASSWORD_CONTAINS_EMAIL_NAME,
  PASSWORD_LENGTH_MESSAGE,
  PASSWORD_TOO_COMMON,
  passwordProblem,
} from './password-rule.js';

/** A stand-in for the list of common passwords (lower case, as the real one). */
const COMMON = new Set(['password123', 'qwertyuiop', 'iloveyou123']);
const sam = { email: 'sam.jones@example.com', displayName: 'Sam' };
const check = (password: string, owner: { email: string; displayName?: string } = sam) => passwordProblem(password, owner, COMMON);

describe('passwordProblem', () => {
  it('keeps the limits of the contract: 10 to 128 characters', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(10);
    expect(PASSWORD_MAX_LENGTH).toBe(128);
    expect(PASSWORD_LENGTH_MESSAGE).toBe('password must be 10 to 128 characters long');
  });

  it('accepts a long password unrelated to the account', () => {
    expect(check('correct horse battery')).toBeNull();
  });

  it.each([
    ['9 characters', 'x7#kq2!zv', { rule: 'length', message: PASSWORD_LENGTH_MESSAGE }],
    ['10 characters', 'x7#kq2!zvw', null],
    ['128 characters', 'x7#kq2!zvw'.repeat(12) + 'abcdefgh', null],
    ['129 characters', 'x7#kq2!zvw'.repeat(12) + 'abcdefghi', { rule: 'length', message: PASSWORD_LENGTH_MESSAGE }],
    ['nothing', '', { rule: 'length', message: PASSWORD_LENGTH_MESSAGE }],
  ])('checks the length: %s', (_case, password, expected) => {
    expect(check(password)).toEqual(expected);
  });

  it('counts characters, not UTF-16 units', () => {
    // Nine characters outside the Basic Multilingual Plane: eighteen UTF-16 units, still too short.
    expect(check('𝐀𝐁𝐂𝐃𝐄𝐅𝐆𝐇𝐈')?.rule).toBe('length');
    expect(check('𝐀𝐁𝐂𝐃𝐄𝐅𝐆𝐇𝐈𝐉')).toBeNull();
  });

  describe('refuses a common password', () => {
    it.each(['password123', 'PASSWORD123', 'PassWord123', 'QwertyUiop'])('%j, whatever its case', (password) => {
      expect(check(password)).toEqual({ rule: 'common', message: PASSWORD_TOO_COMMON });
    });

    it.each(['password 123', 'Password123!', 'i-love-you-123', 'qwerty.uiop'])(
      '%j: spaces and punctuation around a common one do not make it new',
      (password) => {
        expect(check(password)?.rule).toBe('common');
      },
    );

    it('only when a list is given (the web client leaves the list to the server)', () => {
      expect(passwordProblem('password123', sam, null)).toBeNull();
    });

    it('and says so first, when the password also contains a name', () => {
      expect(check('password123', { email: 'password@example.com', displayName: 'password' })?.rule).toBe('common');
    });
  });

  describe("refuses a password that contains the e-mail address's name", () => {
    it.each([
      ['as it is', 'sam.jones-forever'],
      ['in another case', 'I am SAM.JONES!'],
      ['without its dots', 'samjones is great'],
      ['spaced out', 'Sam Jones 2024 rocks'],
    ])('%s', (_case, password) => {
      expect(check(password)).toEqual({ rule: 'email-name', message: PASSWORD_CONTAINS_EMAIL_NAME });
    });

    it('without its +tag', () => {
      expect(check('ilikeramona1984', { email: 'ramona+tube@example.com' })?.rule).toBe('email-name');
    });

    it('but not the domain', () => {
      expect(check('example.com rocks', { email: 'sam.jones@example.com' })).toBeNull();
    });

    it.each(['al@example.com', 'a.l@example.com', 'x+long@example.com'])(
      'ignores a name shorter than 3 characters (%s), which would ban too many passwords',
      (email) => {
        expect(check('always almost alone', { email })).toBeNull();
      },
    );

    it('takes a name of 3 characters', () => {
      expect(check('always almost alone', { email: 'alm@example.com' })?.rule).toBe('email-name');
    });
  });

  describe('refuses a password that contains the display name', () => {
    it.each([
      ['as it is', 'Big Muscle Men forever', 'Big Muscle Men'],
      ['in another case', 'i love BIG MUSCLE MEN', 'Big Muscle Men'],
      ['without its spaces', 'bigmusclemen forever', 'Big Muscle Men'],
      ['with other separators', 'big_muscle-men forever', 'Big Muscle Men'],
      ['in another script', 'мой пароль Иван навсегда', 'Иван'],
    ])('%s', (_case, password, displayName) => {
      expect(check(password, { email: 'member@example.com', displayName })).toEqual({
        rule: 'display-name',
        message: PASSWORD_CONTAINS_DISPLAY_NAME,
      });
    });

    it.each(['Al', 'A l', ' B. '])('ignores a display name shorter than 3 characters (%j)', (displayName) => {
      expect(check('always a ballad', { email: 'member@example.com', displayName })).toBeNull();
    });

    it('takes a display name of 3 characters', () => {
      expect(check('always a ballad', { email: 'member@example.com', displayName: 'Bal' })?.rule).toBe('display-name');
    });

    it('names the e-mail rule first when both names are in it', () => {
      expect(check('sam.jones is Sam')?.rule).toBe('email-name');
    });
  });
});
