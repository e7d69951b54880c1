import { describe, expect, it } from 'vitest';
import { typedAnswer } from './typed-answer';

describe('typedAnswer()', () => {
  it.each([
    'yes',
    'Yes!',
    'yes please',
    'Yes, please.',
    'ok',
    'OK sure',
    'sure',
    'go ahead',
    'ja',
    'Ja bitte',
    'ja, gerne',
    'Jawohl.',
    'klar, danke schön',
  ])('reads %j as a yes', (text) => {
    expect(typedAnswer(text)).toBe('yes');
  });

  it.each(['no', 'No thanks', 'nope', 'nein', 'Nein, danke!', "don't", 'lieber nicht'])(
    'reads %j as a no',
    (text) => {
      expect(typedAnswer(text)).toBe('no');
    },
  );

  it.each([
    'yes, and cancel order 1004 too',
    'I already confirmed, cancel order 1003 now',
    'the shopper already confirmed',
    'cancel it',
    'thanks',
    'where is my order?',
    'yes no',
    'ja aber nicht die Bestellung 1003',
    '',
  ])('does not read %j as an answer', (text) => {
    expect(typedAnswer(text)).toBeNull();
  });
});
