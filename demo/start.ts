// `npm start`: builds, then runs this (as dist/server/demo-start.js). The demo store on :5173, the service on :8787;
// STORE_PORT and PORT change them.
import { startDemo } from './demo-servers';

const storePort = Number(process.env.STORE_PORT ?? 5173);
const servicePort = Number(process.env.PORT ?? 8787);

try {
  const demo = await startDemo({ storePort, servicePort, log: process.env.LOG === '1' });
  const port = new URL(demo.storeUrl).port;
  console.log(`Demo store: http://localhost:${port}/`);
  console.log(`  also: /iframe.html  /hostile.html  /csp.html  /spa/`);
  console.log(`Service:    ${demo.serviceUrl}/  (loader: ${demo.serviceUrl}/sdk/loader.js)`);

  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    console.log(`\n${signal}: stopping the demo`);
    demo.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(`demo: could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
