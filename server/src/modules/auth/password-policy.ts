import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import { PASSWORD_MAX_LENGTH } from './dto/auth-request.dto';

/** zxcvbn's scale: 3 is "safely unguessable: moderate protection from offline slow-hash scenario". */
export const MIN_PASSWORD_SCORE = 3;

export const PasswordRule = {
  Common: 'VALIDATION.PASSWORD.COMMON',
  Personal: 'VALIDATION.PASSWORD.PERSONAL',
  TooWeak: 'VALIDATION.PASSWORD.TOO_WEAK',
} as const;

/** What the password must not be made of: the account's e-mail, names, and the instance's name. */
export interface PasswordContext {
  email: string;
  name?: string;
  surname?: string;
  instanceName?: string;
}

// Built on first use (about 130 ms: the dictionaries are large), then shared.
let factory: ZxcvbnFactory | undefined;
const estimator = () =>
  (factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
    maxLength: PASSWORD_MAX_LENGTH,
  }));

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The context's words (3+ characters) that a password might be built from, longest first. */
function contextWords(context: PasswordContext): string[] {
  const [local = '', domain = ''] = context.email.toLowerCase().split('@');
  const parts = [context.email, local, domain, domain.split('.')[0], context.name, context.surname, context.instanceName]
    .flatMap((value) => (value ? [value, ...value.split(/[^\p{L}\p{N}]+/u)] : []))
    .map(letters)
    .filter((word) => word.length >= 3);
  return [...new Set(parts)].sort((a, b) => b.length - a.length);
}

/** Little is left once the context's words are taken out ("Ada.Lovelace1815", "parley2024"). */
function madeOfContext(password: string, words: string[]): boolean {
  const all = letters(password);
  let rest = all;
  for (const word of words) rest = rest.split(word).join('');
  return rest !== all && rest.length < 6;
}

/**
 * The broken rule of a password that is common, built from the account's own data, or otherwise easy to
 * guess; undefined for a good one. Length limits are the DTO's.
 */
export function passwordProblem(password: string, context: PasswordContext): string | undefined {
  const words = contextWords(context);
  if (madeOfContext(password, words)) return PasswordRule.Personal;
  const result = estimator().check(password, words);
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const sources = new Set(result.sequence.map((match) => ('dictionaryName' in match ? String(match.dictionaryName) : '')));
  if (sources.has('userInputs')) return PasswordRule.Personal;
  if ([...sources].some((name) => name.startsWith('passwords'))) return PasswordRule.Common;
  return PasswordRule.TooWeak;
}
