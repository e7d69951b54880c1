// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { lineCues, questionCues } from './question-cues';

describe('questionCues()', () => {
  it('tells a question about time, price or places, in English and German', () => {
    expect([...questionCues('How long until my kayak arrives?')]).toEqual(['time']);
    expect([...questionCues('wann kommt mein Zelt an?')]).toEqual(['time']);
    expect([...questionCues('what does gift wrapping cost')]).toContain('price');
    expect([...questionCues('Was kostet die Geschenkverpackung?')]).toContain('price');
    expect([...questionCues('which countries do you serve?')]).toContain('place');
    expect([...questionCues('Liefert ihr auch nach Österreich?')]).toEqual(expect.arrayContaining(['place']));
  });

  it('marks a question that opens with a verb as yes/no', () => {
    expect(questionCues('Do you sell kayaks in red?').has('negation')).toBe(true);
    expect(questionCues('Gibt es Gutscheine?').has('negation')).toBe(true);
    expect(questionCues('Where is the Bonn shop?').has('negation')).toBe(false);
  });
});

describe('lineCues()', () => {
  it('finds durations, dates and times', () => {
    expect(lineCues('Tents reach you in 3–5 working days.').has('time')).toBe(true);
    expect(lineCues('Bestellungen bis 15 Uhr gehen am selben Tag raus.').has('time')).toBe(true);
    expect(lineCues('We love tents.').has('time')).toBe(false);
    expect(lineCues('Every tent has a two-year guarantee.').has('time')).toBe(true);
    expect(lineCues('Auf Zelte gibt es zwei Jahre Garantie.').has('time')).toBe(true);
    expect(lineCues('After a storm, dry the tent before you pack it.').has('time')).toBe(false);
  });

  it('finds prices and free of charge', () => {
    expect(lineCues('Gift wrapping is €3.50 per item.').has('price')).toBe(true);
    expect(lineCues('Die Geschenkverpackung ist 3,50 € pro Artikel.').has('price')).toBe(true);
    expect(lineCues('Gift wrapping is free above €50.').has('price')).toBe(true);
    expect(lineCues('Gift wrapping comes in green paper.').has('price')).toBe(false);
  });

  it('finds places, German ones with umlauts too, and lines saying what is not done', () => {
    expect(lineCues('We ship to Österreich and Schweiz.').has('place')).toBe(true);
    expect(lineCues('Außerhalb der EU versenden wir nicht.').has('place')).toBe(true);
    expect(lineCues('We do not ship kayaks abroad.').has('negation')).toBe(true);
    expect(lineCues('Kajaks versenden wir leider nicht.').has('negation')).toBe(true);
    expect(lineCues('Kayaks ship by freight.').has('negation')).toBe(false);
  });
});
