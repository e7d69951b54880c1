import { describe, expect, it } from 'vitest';
import { QUESTION_TEXT_MAX, questionKey, questionOf } from './question-key';

describe('questionKey', () => {
  it('groups a question written with other case, punctuation and spacing', () => {
    expect(questionKey('Where is my order?')).toBe(questionKey('  where IS my order!!  '));
    expect(questionKey('What is your return policy?')).toBe('what is your return policy');
  });

  it('groups a question about another order number with it: numbers are shopper data, not the question', () => {
    expect(questionKey('Where is order 1003?')).toBe(questionKey('where is order #58213'));
    expect(questionKey('Where is order 1003?')).toBe('where is order #');
  });

  it('keeps letters of every script, accents included, and composes them alike (NFKC)', () => {
    expect(questionKey('Wo ist meine Bestellung?')).toBe('wo ist meine bestellung');
    expect(questionKey('Rückgabe möglich?')).toBe(
      questionKey('Ru\u0308ckgabe mo\u0308glich?'.normalize('NFD')),
    );
    expect(questionKey('هل يمكنني الإرجاع؟')).toBe('هل يمكنني الإرجاع');
  });
});

describe('questionOf', () => {
  it('takes no greeting or thanks alone for a question, in English and German', () => {
    for (const text of ['Hi!', 'hello there', 'Thanks a lot', 'Guten Tag', 'danke'])
      expect(questionOf(text)).toBeNull();
  });

  it('takes a greeting with a question for the question, as written', () => {
    expect(questionOf(' Hi! Where is my order 1003? ')).toEqual({
      text: 'Hi! Where is my order 1003?',
      key: 'hi where is my order #',
    });
  });

  it('has nothing to group by in punctuation alone', () => {
    expect(questionOf('?!...')).toBeNull();
  });

  it('cuts a long question to its first characters, never inside a character', () => {
    const long = `${'😀'.repeat(QUESTION_TEXT_MAX)} and more`;
    const question = questionOf(long);
    expect(Array.from(question?.text ?? '')).toHaveLength(QUESTION_TEXT_MAX);
    expect(question?.text.endsWith('😀')).toBe(true);
  });
});
