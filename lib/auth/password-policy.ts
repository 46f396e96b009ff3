import 'server-only';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import { PASSWORD_MAX, PASSWORD_MIN } from './password';

/**
 * The rule for every password chosen in Verdict (a one-time link, a change; not the demo password
 * given by configuration): at least 12 characters, not on the shipped list of common and breached
 * passwords (@zxcvbn-ts/language-common, about 49,000, offline), and strong enough for zxcvbn-ts
 * (score 3 of 4), which also sees through "aaaaaaaaaaaa", keyboard walks and the user's own
 * name or e-mail. The answer is one sentence for the form.
 */
const MIN_SCORE = 3;

let factory: ZxcvbnFactory | null = null;
let commonList: Set<string> | null = null;
function engine() {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...en.dictionary },
    graphs: common.adjacencyGraphs,
    translations: en.translations,
  });
  commonList ??= new Set((common.dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  return { factory, commonList };
}

export function passwordProblem(password: string, about: { email?: string; name?: string } = {}): string | null {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  const { factory, commonList } = engine();
  if (commonList.has(password.toLowerCase()))
    return 'This password is on a list of common and breached passwords: choose another one.';
  const inputs = [about.email ?? '', about.email?.split('@')[0] ?? '', about.name ?? '', 'verdict'].filter(Boolean);
  const result = factory.check(password, inputs);
  if (result.score < MIN_SCORE) {
    const why = result.feedback.warning ? ` ${result.feedback.warning}` : '';
    return `This password is too easy to guess.${why} Try a few unrelated words, or a longer mix.`;
  }
  return null;
}
