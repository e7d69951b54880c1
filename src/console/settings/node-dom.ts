import { Window } from 'happy-dom';

// A DOM for a component test that also runs the real service in the same process: the test stays in Node's
// environment (the service needs Node's own fetch, Request and Response, which happy-dom's environment replaces)
// and only what Node lacks is taken from a happy-dom window. Imported first, before the testing library reads
// `document`.

const window = new Window({ url: 'http://console.test/console' });
const g = globalThis as unknown as Record<string, unknown>;
for (const key of Object.getOwnPropertyNames(window)) {
  if (key in g) continue;
  try {
    g[key] = (window as unknown as Record<string, unknown>)[key];
  } catch {
    // A getter that throws off its window: not needed.
  }
}
g.window = window;
g.document = window.document;

/** Closes the window (its timers) once the file's tests are done. */
export const closeDom = () => window.happyDOM.close();
