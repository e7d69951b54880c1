// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { colourFamily, coloursOf } from './colours';

describe('colourFamily()', () => {
  it.each([
    ['blue', 'blue'],
    ['navy', 'blue'],
    ['blau', 'blue'],
    ['blaue', 'blue'],
    ['dunkelblauen', 'blue'],
    ['hellgrün', 'green'],
    ['roten', 'red'],
    ['weinrot', 'red'],
    ['grey', 'grey'],
    ['gray', 'grey'],
    ['anthrazit', 'grey'],
  ])('%s → %s', (word, family) => {
    expect(colourFamily(word)).toBe(family);
  });

  it.each(['brot', 'shoe', 'order', 'rotate', 'blaubeere', 'stock'])('%s is no colour', (word) => {
    expect(colourFamily(word)).toBeUndefined();
  });
});

describe('coloursOf()', () => {
  it("reads a store's colour value word by word", () => {
    expect(coloursOf('Neon yellow')).toEqual(['yellow']);
    expect(coloursOf('Black/Red')).toEqual(['black', 'red']);
    expect(coloursOf('Navy Blue')).toEqual(['blue']);
    expect(coloursOf('Engineered mesh')).toEqual([]);
  });
});
