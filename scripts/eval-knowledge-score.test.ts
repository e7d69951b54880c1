// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { KNOWLEDGE_FILE, knowledgeSections, readKnowledgeQuestions } from './eval-knowledge.mjs';
import { ANSWER_MAX_CHARS, fold, judgeKnowledge, visibleText } from './eval-knowledge-score.mjs';

describe('visibleText() and fold()', () => {
  it('reads markdown as the shopper sees it: link text without its target, no emphasis, no table pipes', () => {
    expect(visibleText('**Shipping**: see [our page](https://shop.example/shipping-and-delivery).')).toBe(
      'Shipping: see our page.',
    );
    expect(visibleText('| Destination | Cost |\n| --- | --- |\n| Austria | €6.95 |')).toBe(
      'Destination Cost Austria €6.95',
    );
  });

  it('folds case, dashes, quotes and white space', () => {
    expect(fold('Austria:\u00a02\u20134  Working days — it’s')).toBe("austria: 2-4 working days - it's");
  });
});

describe('judgeKnowledge()', () => {
  const question = { expect: ['Austria', '2–4 working days'] };

  it('is a passage hit when every piece is in the reply, whatever the dash or emphasis', () => {
    expect(judgeKnowledge(question, { text: '**Austria**: 2-4 working days, €6.95.' })).toEqual([
      { measure: 'passage', value: 1, why: null },
      { measure: 'short', value: 1, why: null },
    ]);
  });

  it('is a passage miss naming the missing piece', () => {
    const [passage] = judgeKnowledge(question, { text: 'We ship to Austria.' });
    expect(passage).toEqual({ measure: 'passage', value: 0, why: 'missing "2–4 working days"' });
  });

  it('takes any one of a list of alternatives', () => {
    const alternatives = { expect: [['exchanged but not returned', 'exchanged once']] };
    expect(judgeKnowledge(alternatives, { text: 'Final sale items can be exchanged once.' })[0]!.value).toBe(
      1,
    );
    expect(judgeKnowledge(alternatives, { text: 'Final sale items are final.' })[0]!.why).toBe(
      'missing "exchanged but not returned" or "exchanged once"',
    );
  });

  it(`is a short miss over ${ANSWER_MAX_CHARS} visible characters, a link's target not counted`, () => {
    const long = `Austria: 2–4 working days. ${'x'.repeat(ANSWER_MAX_CHARS)}`;
    expect(judgeKnowledge(question, { text: long })[1]).toMatchObject({ measure: 'short', value: 0 });
    const linked = `Austria: 2–4 working days. [Shipping](https://shop.example/${'p'.repeat(700)})`;
    expect(judgeKnowledge(question, { text: linked })[1]).toMatchObject({ measure: 'short', value: 1 });
  });

  it('does not judge the length of an answer to a request for the whole policy', () => {
    const verdicts = judgeKnowledge(
      { ...question, whole: true },
      { text: `Austria 2-4 working days ${'x'.repeat(2000)}` },
    );
    expect(verdicts.map((v) => v.measure)).toEqual(['passage']);
  });

  it('is a passage miss, with no length judged, when the turn failed', () => {
    expect(judgeKnowledge(question, { text: '', failure: 'timed out' })).toEqual([
      { measure: 'passage', value: 0, why: 'the turn failed: timed out' },
    ]);
  });
});

describe('the knowledge set', () => {
  const sections = knowledgeSections();
  const questions = readKnowledgeQuestions(KNOWLEDGE_FILE);

  it('has at least 80 questions, about half of them in each language', () => {
    expect(questions.length).toBeGreaterThanOrEqual(80);
    const german = questions.filter((q) => q.lang === 'de').length;
    expect(german / questions.length).toBeGreaterThan(0.4);
    expect(german / questions.length).toBeLessThan(0.6);
  });

  it("names a passage that is in its section's text (every piece, or one of its alternatives)", () => {
    const unanswerable = questions.filter((q) => {
      const section = sections.find((s) => s.title === q.section)!;
      return judgeKnowledge(q, { text: section.text }).find((v) => v.measure === 'passage')?.value !== 1;
    });
    expect(unanswerable.map((q) => q.text)).toEqual([]);
  });

  it(`has sections longer than ${ANSWER_MAX_CHARS} characters, so that the whole section is no short answer`, () => {
    expect(
      sections.filter((s) => visibleText(s.text).length <= ANSWER_MAX_CHARS).map((s) => s.title),
    ).toEqual([]);
  });

  it("joins a paragraph's lines but keeps table rows and list items on lines of their own", () => {
    const shipping = sections.find((s) => s.title === 'Shipping and delivery')!.text;
    expect(shipping).toContain(
      'We ship from our warehouse in Leipzig with DHL. Orders placed on a working day before 2 pm leave the warehouse the same day;',
    );
    expect(shipping).toContain('\n| Austria | 2–4 working days | €6.95 | €79 |\n');
  });
});
