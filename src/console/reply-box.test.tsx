import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplyBox } from './reply-box';

afterEach(cleanup);

function setup(accept = true) {
  const sent: string[] = [];
  render(
    <ReplyBox
      isBusy={false}
      onSend={async (text) => {
        sent.push(text);
        return accept;
      }}
    />,
  );
  const box = screen.getByLabelText('Reply to the shopper') as HTMLTextAreaElement;
  const type = (value: string) => fireEvent.input(box, { target: { value } });
  return { sent, box, type };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

describe('<ReplyBox>', () => {
  it('sends on Enter and empties the box; Shift+Enter is a new line', async () => {
    const { sent, box, type } = setup();
    type('Line one');
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    await settled();
    expect(sent).toEqual([]);
    type('Line one\nline two ');
    fireEvent.keyDown(box, { key: 'Enter' });
    await settled();
    expect(sent).toEqual(['Line one\nline two']);
    expect(box.value).toBe('');
  });

  it('sends nothing blank, and keeps a refused message to send again', async () => {
    const { sent, box, type } = setup(false);
    type('   ');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    type('Refused');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await settled();
    expect(sent).toEqual(['Refused']);
    expect(box.value).toBe('Refused');
  });
});
