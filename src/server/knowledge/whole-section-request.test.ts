// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { asksForWholeSection } from './whole-section-request';

describe('asksForWholeSection', () => {
  it.each([
    'show me the whole return policy',
    'Can I see the full shipping terms?',
    'the complete payment information please',
    'tell me everything about returns',
    'die ganze Rückgabe-Richtlinie',
    'Zeig mir die kompletten Versandbedingungen',
    'die gesamte Rückgaberichtlinie bitte',
    'alles über den Versand',
    'alle Infos zur Rückgabe',
  ])('takes "%s" as asking for the whole section', (message) => {
    expect(asksForWholeSection(message)).toBe(true);
  });

  it.each([
    'Do I get a full refund?',
    'Do you ship to all EU countries?',
    'Is the whole jacket waterproof?',
    'Ist die ganze Jacke wasserdicht?',
    'Can I return shoes I already wore?',
    'Wie lange dauert der Versand?',
  ])('takes "%s" as a question, not a request for the whole section', (message) => {
    expect(asksForWholeSection(message)).toBe(false);
  });
});
