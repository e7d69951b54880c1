import { describe, expect, it } from 'vitest';
import { mailRetryInSeconds, senderName } from './mail-worker';

describe('senderName', () => {
  it('is the name of "Name <address>", quoted or not, and nothing for a bare address', () => {
    expect(senderName('Ridgeline Outfitters <help@ridgeline.example>')).toBe('Ridgeline Outfitters');
    expect(senderName('"Shop, Inc." <help@shop.example>')).toBe('Shop, Inc.');
    expect(senderName('help@shop.example')).toBeUndefined();
    expect(senderName('<help@shop.example>')).toBeUndefined();
  });
});

describe('mailRetryInSeconds', () => {
  it('doubles from 30 s and stays at an hour', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => mailRetryInSeconds(n))).toEqual([
      30, 60, 120, 240, 1920, 3600, 3600,
    ]);
    expect(mailRetryInSeconds(3, 1)).toBe(4);
  });
});
