import { describe, expect, it } from 'vitest';
import { plainText } from './plain-text';

describe('plainText(): a message for a preview line', () => {
  it('keeps the words of links, emphasis, lists and headings, without their marks', () => {
    expect(
      plainText(
        'From our "Shipping" information:\n- **Standard** delivery: 2–3 days\n- [Track it](https://x.example/t)',
      ),
    ).toBe('From our "Shipping" information:\nStandard delivery: 2–3 days\nTrack it');
    expect(plainText('# Title\n> quoted _word_ and `code`\n1. first')).toBe(
      'Title\nquoted word and code\nfirst',
    );
  });

  it('leaves marks inside words and lone ones as they are', () => {
    expect(plainText('snake_case_name, 2*3*4, a * b and 5 _ 6')).toBe(
      'snake_case_name, 2*3*4, a * b and 5 _ 6',
    );
  });
});
