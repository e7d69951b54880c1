// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readRequest } from './read-request';

// Phrasings written for this test, not taken from the shopper-language corpus (the eval measures that one): each
// names a request the way shoppers do, with greetings, typos, run-on words and German around it.

const kind = (text: string) => readRequest(text).request;

describe('readRequest(): what the shopper asks for', () => {
  it.each([
    ['Hi! Where is my order 58213?', '58213'],
    ['hey can u check purchase #58213 status thx', '58213'],
    ['whats the eta on my parcel no. 4471', '4471'],
    ['has order A-1001 shipped yet', 'A-1001'],
    ['trak my ordr 000123 pls', '000123'],
    ['Hallo, wo bleibt meine Bestellung Nr. 58213? Danke', '58213'],
    ['wann kommt mein paket 7781 an', '7781'],
    ['Sendungsverfolgung Bestellnummer 99120', '99120'],
    ['wo ist meine bestelung 4412', '4412'],
  ])('"%s" asks where order %s is', (text, id) => {
    expect(kind(text)).toMatchObject({ kind: 'order-status', orderNumbers: [id] });
  });

  it.each([
    ['please cancel order 1004', '1004'],
    ['Good morning, I would like to cancle my purchase #2231', '2231'],
    ["changed my mind, don't want order 5510 anymore", '5510'],
    ['can i still call off order 8812', '8812'],
    ['Bitte stornieren Sie meine Bestellung 3310', '3310'],
    ['bestellung nr. 4411 storno bitte', '4411'],
    ['ich brauche die Bestellung 7720 doch nicht mehr', '7720'],
  ])('"%s" asks to cancel order %s', (text, id) => {
    expect(kind(text)).toEqual({ kind: 'cancel-order', orderNumbers: [id] });
  });

  it.each([
    'can I speak to a real person please',
    'get me a human',
    'is there anyone I can chat with?',
    'connect me to customer service',
    'i need to talk to somone',
    'Ich möchte mit einem Mitarbeiter sprechen',
    'gibt es hier einen echten Menschen?',
    'bitte verbinden Sie mich mit dem Kundenservice',
    'Mitarbeiter bitte',
  ])('"%s" asks for a person', (text) => {
    expect(kind(text).kind).toBe('person');
  });

  it.each([
    'how long does shipping to Austria take?',
    'can I place an order from Canada',
    'cancel my newsletter subscription',
    'where do I find invoice #4471',
    'do you have running shoes under 100',
    'Newsletter abbestellen',
    'Rechnung 4471 finden',
    'welche Zahlungsarten gibt es',
    "I don't want to talk to a human, just find shoes",
    'my account password does not work',
  ])('"%s" asks for no order action and no person', (text) => {
    expect(['other', 'order-status']).toContain(kind(text).kind);
    const request = kind(text);
    if (request.kind === 'order-status') expect(request.orderNumbers).toEqual([]);
  });

  it('a general "when will my order arrive" is about delivery times, not one order', () => {
    expect(kind('when will my order arrive?')).toMatchObject({ kind: 'order-status', whenOnly: true });
  });

  it('a greeting or thanks alone is no request', () => {
    expect(kind('Hi there!')).toEqual({ kind: 'greeting', thanksOnly: false });
    expect(kind('Guten Tag')).toEqual({ kind: 'greeting', thanksOnly: false });
    expect(kind('thanks a lot!')).toEqual({ kind: 'greeting', thanksOnly: true });
    expect(kind('Vielen Dank')).toEqual({ kind: 'greeting', thanksOnly: true });
  });
});

describe('readRequest(): feedback and invoices are not requests for a person or an order', () => {
  it.each([
    'I want to complain about one of your agents',
    'ich möchte mich über einen Mitarbeiter beschweren',
    'I would like to leave a review for the support team',
  ])('"%s" is feedback', (text) => {
    expect(kind(text).kind).toBe('other');
  });

  it('"customer service" asks for a person when the shopper wants it', () => {
    expect(kind('customer service please').kind).toBe('person');
    expect(kind('I need customer support').kind).toBe('person');
  });

  it('the invoice of a purchase is about the invoice, unless an order number is named', () => {
    expect(kind('where can I find the invoice of my last purchase').kind).toBe('other');
    expect(kind('where is the invoice for order 5521')).toMatchObject({
      kind: 'order-status',
      orderNumbers: ['5521'],
    });
  });
});

describe('readRequest(): not sending, waiting, calling back', () => {
  it.each([
    ['please do not ship 5512, I ordered twice', '5512'],
    ['bitte 4410 nicht mehr losschicken', '4410'],
    ['schickt 7781 bitte nicht raus', '7781'],
    ["I won't need order 3321 after all", '3321'],
  ])('"%s" calls order %s off', (text, id) => {
    expect(kind(text)).toEqual({ kind: 'cancel-order', orderNumbers: [id] });
  });

  it.each([
    ["why didn't you ship 5512 yet?", '5512'],
    ['warum ist 4410 noch nicht verschickt', '4410'],
    ['still waiting for #8812', '8812'],
    ['has A-7781 been sent', 'A-7781'],
    ['nix von DPD wegen 66120', '66120'],
  ])('"%s" asks where order %s is, and cancels nothing', (text, id) => {
    expect(kind(text)).toMatchObject({ kind: 'order-status', orderNumbers: [id] });
  });

  it.each(['call me back please', 'Rückruf bitte', 'können Sie mich morgen zurückrufen?'])(
    '"%s" asks for a person',
    (text) => {
      expect(kind(text).kind).toBe('person');
    },
  );

  it('"I\'d like to order 3 tents" counts tents, it names no order', () => {
    expect(kind("I'd like to order 3 tents for our club")).toEqual({ kind: 'other' });
  });
});

describe('readRequest() read twice', () => {
  it('answers a message read again (the insights, then the engine) with the same frozen reading', () => {
    const first = readRequest('Where is my order 58213?');
    const again = readRequest('Where is my order 58213?');
    expect(again).toBe(first);
    expect(first.request).toEqual({
      kind: 'order-status',
      orderNumbers: ['58213'],
      whenOnly: false,
      asksWhere: true,
    });
    // Shared, so nobody may change it for the next reader.
    expect(Object.isFrozen(first.request)).toBe(true);
    expect(Object.isFrozen(first.words)).toBe(true);
    expect(() => (first.request as unknown as { orderNumbers: string[] }).orderNumbers.push('1')).toThrow(
      TypeError,
    );
  });

  it('reads a message longer than it keeps as well, without keeping it', () => {
    const long = `Where is my order 58213? ${'please '.repeat(400)}`;
    expect(readRequest(long).request.kind).toBe('order-status');
    expect(readRequest(long)).not.toBe(readRequest(long));
  });
});
