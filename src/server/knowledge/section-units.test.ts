// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { sectionUnits, sentences } from './section-units';

describe('sectionUnits', () => {
  it('cuts a section into sentences, list items and table rows, each list under its introduction', () => {
    const units = sectionUnits(
      'We ship with DHL. Orders leave the same day.\n\nWe accept:\n\n- Visa\n- PayPal\n\n| Country | Time |\n| --- | --- |\n| Germany | 2 days |',
    );
    expect(units.map((u) => [u.kind, u.text])).toEqual([
      ['sentence', 'We ship with DHL.'],
      ['sentence', 'Orders leave the same day.'],
      ['lead', 'We accept:'],
      ['item', '- Visa'],
      ['item', '- PayPal'],
      ['item', '- **Germany**: Time 2 days'],
    ]);
    expect(units[3].lead).toBe(2);
    expect(units[4].lead).toBe(2);
    expect(units[0].block).toBe(units[1].block);
    expect(units[3].block).not.toBe(units[5].block);
  });

  it('takes a paragraph ending in ":" before a table as the rows’ lead', () => {
    const units = sectionUnits(
      'Delivery times:\n\n| Country | Time |\n|---|---|\n| Germany | 2 days |\n| Austria | 4 days |',
    );
    expect(units.map((u) => [u.kind, u.text, u.lead])).toEqual([
      ['lead', 'Delivery times:', undefined],
      ['item', '- **Germany**: Time 2 days', 0],
      ['item', '- **Austria**: Time 4 days', 0],
    ]);
  });

  it('keeps a sub-heading and a bold introduction line as the lead of what follows, and an item’s indented lines', () => {
    const units = sectionUnits(
      '#### Berlin\n\n**Store** (Main St 1):\n- Mon–Fri: 9–18\n  except holidays\n\nClosed on Sunday.',
    );
    expect(units.map((u) => u.kind)).toEqual(['heading', 'lead', 'item', 'sentence']);
    expect(units[2].text).toBe('- Mon–Fri: 9–18\n  except holidays');
    expect(units[1].lead).toBe(0);
    expect(units[3].lead).toBe(0);
  });
});

describe('sentences', () => {
  it('does not cut after an abbreviation, a day’s number, or inside a price', () => {
    expect(
      sentences('Pay e.g. by card. Ab dem 1. Mai gilt z. B. der neue Preis von 9.95 €. Fertig!'),
    ).toEqual(['Pay e.g. by card.', 'Ab dem 1. Mai gilt z. B. der neue Preis von 9.95 €.', 'Fertig!']);
  });
});
