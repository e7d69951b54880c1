// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { CHOICE_TEXT_MAX, CHOICES_MAX } from '../../protocol/chat';
import { choicesPart, readChoices } from './choices';

describe('readChoices()', () => {
  it('takes 1 to 6 options, trimmed, control and bidi characters as spaces', () => {
    expect(readChoices([' 1002 ', '1003'])).toEqual({ ok: true, value: ['1002', '1003'] });
    expect(readChoices(['Size\n42', 'Size\u202e 43'])).toEqual({ ok: true, value: ['Size 42', 'Size 43'] });
    expect(readChoices(['x'.repeat(CHOICE_TEXT_MAX)]).ok).toBe(true);
    expect(readChoices(Array.from({ length: CHOICES_MAX }, (_, i) => `o${i}`)).ok).toBe(true);
  });

  it.each([
    ['none', [], 'options must hold 1 to 6 answers'],
    ['seven', Array.from({ length: 7 }, (_, i) => `o${i}`), 'options must hold 1 to 6 answers'],
    ['not an array', 'yes|no', 'options must hold 1 to 6 answers'],
    ['a number', ['yes', 2], 'each option must be a string'],
    ['a blank one', ['yes', ' \n '], 'an option must not be empty'],
    ['one over 80 characters', ['x'.repeat(81)], 'each option must be at most 80 characters'],
    ['the same twice', ['Yes', 'yes'], '"yes" is offered twice'],
  ])('refuses %s', (_, options, error) => {
    expect(readChoices(options)).toEqual({ ok: false, error });
    expect(choicesPart(options)).toBeNull();
  });

  it('makes the part', () => {
    expect(choicesPart(['a', 'b'])).toEqual({ type: 'choices', options: ['a', 'b'] });
  });
});
