// SPEC "Order card", XML paragraph: the same order as a document with root `<order>`, children named like the JSON
// fields, `<timeline>` holding `<step>`s and `<items>` holding `<item>`s. Written by hand like any small serializer:
// every text is escaped, so `<script>` in a name stays text in the document, and characters XML cannot carry at all
// are replaced rather than written.
import { ORDER_CARD_TEXT_FIELDS, type OrderCard } from '../../src/protocol/cards';

// XML 1.0 `Char` excludes these; a document containing one is not well-formed.
const NOT_XML_CHAR =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text safe inside an element (and inside an attribute value): the five markup characters as entities. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML_CHAR, '\ufffd').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The order card's text fields in SPEC's order; `order_id_value` and `timeline` are placed by hand. */
const TEXT_FIELDS: readonly ((typeof ORDER_CARD_TEXT_FIELDS)[number] | 'order_tracking_url')[] = [
  ...ORDER_CARD_TEXT_FIELDS.filter((f) => f !== 'order_id_label'),
  'order_tracking_url',
];

/**
 * Serializes an order card as SPEC's XML order document, indented two spaces, fields in SPEC's order; absent
 * optional fields are left out.
 * @example
 * orderToXml({ order_id_value: 'A&1', timeline: { step: [{ label: 'Paid', status: 'completed' }] } });
 * // → '<?xml version="1.0" encoding="UTF-8"?>\n<order>\n  <order_id_value>A&amp;1</order_id_value>\n  <timeline>…'
 */
export function orderToXml(card: OrderCard): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<order>'];
  const field = (indent: string, name: string, value: string | undefined) => {
    if (value !== undefined) lines.push(`${indent}<${name}>${escapeXml(value)}</${name}>`);
  };
  field('  ', 'order_id_label', card.order_id_label);
  field('  ', 'order_id_value', card.order_id_value);
  lines.push('  <timeline>');
  for (const step of card.timeline.step) {
    lines.push('    <step>');
    field('      ', 'label', step.label);
    field('      ', 'status', step.status);
    lines.push('    </step>');
  }
  lines.push('  </timeline>');
  if (card.items) {
    lines.push('  <items>');
    for (const item of card.items.item) {
      lines.push('    <item>');
      field('      ', 'name', item.name);
      field('      ', 'quantity', item.quantity);
      field('      ', 'price', item.price);
      field('      ', 'image', item.image);
      lines.push('    </item>');
    }
    lines.push('  </items>');
  }
  for (const key of TEXT_FIELDS) field('  ', key, card[key]);
  lines.push('</order>');
  return `${lines.join('\n')}\n`;
}
