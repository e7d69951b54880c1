// A store framed by another page: the widget lives in the frame's window, never in the top one.
import { describe, expect, it } from 'vitest';
import { isLauncherShown, setupE2E, storeFrame, type TestWindow, waitForReady } from './harness';

const e2e = setupE2E();

describe('inside an iframe', () => {
  for (const [name, query] of [
    ['same-origin', ''],
    ['cross-origin', '&cross=1'],
  ] as const) {
    it(`with hidden: false shows the launcher in the frame and defines window.Service there only (${name})`, async () => {
      const { page } = await e2e.newPage();
      await page.goto(e2e.url(`/iframe.html?hidden=false${query}`));
      const frame = await storeFrame(page);
      if (name === 'cross-origin') expect(new URL(frame.url()).origin).not.toBe(new URL(page.url()).origin);
      await waitForReady(frame);
      await expect.poll(() => isLauncherShown(frame)).toBe(true);
      expect(await frame.evaluate(() => (window as unknown as TestWindow).Service?.widgetId)).toBe('demo');
      expect(await frame.evaluate(() => window.self !== window.top)).toBe(true);
      expect(await frame.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(1);

      expect(await page.evaluate(() => typeof (window as unknown as TestWindow).Service)).toBe('undefined');
      expect(await page.evaluate(() => document.querySelectorAll('service-widget').length)).toBe(0);

      // The launcher sits inside the frame's box.
      const [frameBox, launcher] = await Promise.all([
        page.locator('#store-frame').boundingBox(),
        frame.locator('service-widget [part~="launcher"]').boundingBox(),
      ]);
      expect(frameBox && launcher).toBeTruthy();
      if (frameBox && launcher) {
        expect(launcher.x).toBeGreaterThanOrEqual(frameBox.x);
        expect(launcher.y).toBeGreaterThanOrEqual(frameBox.y);
        expect(launcher.x + launcher.width).toBeLessThanOrEqual(frameBox.x + frameBox.width);
        expect(launcher.y + launcher.height).toBeLessThanOrEqual(frameBox.y + frameBox.height);
      }
    });
  }

  it('opens the chat inside the frame with the frame window API', async () => {
    const { page } = await e2e.newPage();
    await page.goto(e2e.url('/iframe.html?hidden=false&cross=1'));
    const frame = await storeFrame(page);
    await waitForReady(frame);
    await frame.evaluate(() => (window as unknown as TestWindow).Service?.openChat());
    await expect
      .poll(() =>
        frame.evaluate(() => {
          const rec = (window as unknown as TestWindow).__e2e;
          return rec.isShown(rec.part('panel'));
        }),
      )
      .toBe(true);
    expect(
      await frame.evaluate(() => (window as unknown as TestWindow).__e2e.events.map((e) => e.type)),
    ).toEqual(['service:ready', 'service:chat-open']);
    expect(await page.evaluate(() => (window as unknown as TestWindow).__e2e.events)).toEqual([]);
  });
});
